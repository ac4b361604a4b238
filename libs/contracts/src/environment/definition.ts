import { z } from 'zod';
import { ImagesSchema, KeySchema } from '../http/common.ts';
import { LocalizedTextSchema } from '../localized.ts';

/**
 * The fields every definition a player is shown starts with (missions, their collections, streaks,
 * leaderboards, shop items and collections): spread into each section's object schema.
 */
export const shownDefinitionFields = {
  key: KeySchema.describe(
    'Stable key: the API names the definition by it, and progress is kept by it across edits.',
  ),
  name: LocalizedTextSchema.describe('Name shown to players: a text, or translations with a default locale.'),
  description: LocalizedTextSchema.optional().describe(
    'Description shown to players: a text, or translations with a default locale.',
  ),
  images: ImagesSchema.default({}).describe(
    "Image URLs by the game's own names (e.g. icon, banner), returned as they are.",
  ),
  active: z
    .boolean()
    .default(true)
    .describe('false switches it off: hidden from players, and nothing counts toward it.'),
};

/**
 * Adds an issue for every entry whose identity an earlier entry of `entries` already had, at
 * `pathOf(index)` with `messageOf(entry)`; returns the identities seen.
 */
export function flagRepeats<T, K>(
  entries: readonly T[],
  identityOf: (entry: T) => K,
  ctx: z.RefinementCtx,
  pathOf: (index: number) => PropertyKey[],
  messageOf: (entry: T) => string,
): Set<K> {
  const seen = new Set<K>();
  entries.forEach((entry, index) => {
    const identity = identityOf(entry);
    if (seen.has(identity)) ctx.addIssue({ code: 'custom', path: pathOf(index), message: messageOf(entry) });
    seen.add(identity);
  });
  return seen;
}

/** A section-level refinement: every entry's `key` is defined once (`<what> <key> is defined twice`). */
export function uniqueKeys<T extends { key: string }>(what: string) {
  return (entries: T[], ctx: z.RefinementCtx) => {
    flagRepeats(
      entries,
      (entry) => entry.key,
      ctx,
      (index) => [index, 'key'],
      (entry) => `${what} ${entry.key} is defined twice`,
    );
  };
}
