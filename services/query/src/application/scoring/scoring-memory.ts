import type { Period } from '../../domain/periods.ts';
import type { VersionedDefinitions } from '../../store/definitions.ts';
import type { BoardRef } from '../../store/periods.ts';

/** Periods kept per board: as many as the uncached path reads (recentPeriods). */
const PERIODS_PER_BOARD = 3;
/** Environments remembered at most; beyond, everything is forgotten at once. */
const MAX_ENTRIES = 10_000;

/**
 * What the events consumer remembers between chunks, so a chunk need not read each environment's
 * definitions and each board's recent periods again: the definitions with the fingerprint they were
 * read at, and each board's newest periods as stored. Nothing in it is trusted: a chunk scored from
 * memory checks, in the statement that share-locks its periods, that the definitions' fingerprint is
 * unchanged and that every period it scores into is stored, open and as remembered; otherwise the
 * chunk is scored again the uncached way (`forget`). So an `engage apply`, a sandbox settle's cut, a
 * settlement or a period created by another replica is seen by the very next chunk.
 */
export class ScoringMemory {
  private readonly definitions = new Map<string, VersionedDefinitions>();
  /** Per environment, per board: its newest periods as stored, newest first. */
  private readonly periods = new Map<string, Map<string, Period[]>>();

  /** The remembered definitions of every environment, or undefined if one is not remembered. */
  definitionsOf(environmentIds: readonly string[]): Map<string, VersionedDefinitions> | undefined {
    const found = new Map<string, VersionedDefinitions>();
    for (const id of environmentIds) {
      const entry = this.definitions.get(id);
      if (!entry) return undefined;
      found.set(id, entry);
    }
    return found;
  }

  rememberDefinitions(loaded: ReadonlyMap<string, VersionedDefinitions>): void {
    if (this.definitions.size + loaded.size > MAX_ENTRIES) this.definitions.clear();
    for (const [id, entry] of loaded) this.definitions.set(id, entry);
  }

  /** A board's remembered periods (newest first). */
  periodsOf(environmentId: string, boardKey: string): readonly Period[] {
    return this.periods.get(environmentId)?.get(boardKey) ?? [];
  }

  /** A period as stored: it replaces a remembered one with the same start; the newest few are kept. */
  rememberPeriod(stored: BoardRef & Period): void {
    let boards = this.periods.get(stored.environmentId);
    if (!boards) {
      if (this.periods.size >= MAX_ENTRIES) this.periods.clear();
      boards = new Map();
      this.periods.set(stored.environmentId, boards);
    }
    const kept = (boards.get(stored.boardKey) ?? []).filter((p) => p.start !== stored.start);
    kept.push({ start: stored.start, end: stored.end });
    boards.set(stored.boardKey, kept.sort((a, b) => b.start - a.start).slice(0, PERIODS_PER_BOARD));
  }

  /** Drops what is remembered of these environments (their definitions and their boards' periods). */
  forget(environmentIds: readonly string[]): void {
    for (const id of environmentIds) {
      this.definitions.delete(id);
      this.periods.delete(id);
    }
  }
}
