import type { Period } from '../domain/periods.ts';
import type { VersionedDefinitions } from '../store/definitions.ts';

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

  /** Periods as stored: they replace remembered ones with the same start; the newest few are kept. */
  rememberPeriods(environmentId: string, boardKey: string, stored: readonly Period[]): void {
    if (stored.length === 0) return;
    let boards = this.periods.get(environmentId);
    if (!boards) {
      if (this.periods.size >= MAX_ENTRIES) this.periods.clear();
      boards = new Map();
      this.periods.set(environmentId, boards);
    }
    const byStart = new Map((boards.get(boardKey) ?? []).map((p) => [p.start, p]));
    for (const p of stored) byStart.set(p.start, { start: p.start, end: p.end });
    boards.set(boardKey, [...byStart.values()].sort((a, b) => b.start - a.start).slice(0, PERIODS_PER_BOARD));
  }

  /** Drops what is remembered of these environments (their definitions and their boards' periods). */
  forget(environmentIds: readonly string[]): void {
    for (const id of environmentIds) {
      this.definitions.delete(id);
      this.periods.delete(id);
    }
  }
}
