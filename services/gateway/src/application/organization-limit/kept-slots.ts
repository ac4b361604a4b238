import type { Admission, InflightLimiter, SharedInflightLimiter } from '@engage/redis';

type Admitted = Extract<Admission, { outcome: 'admitted' }>;

interface KeptSlot {
  shared: Admitted;
  /** When its last request here ended. */
  idleSince: number;
}

/** This replica's slots of one organization: idle ones kept, and how many it holds in all. */
interface Holding {
  idle: KeptSlot[];
  /** Slots from Redis held here, running or idle. */
  held: number;
  /** A request of the organization waits somewhere (or Redis could not tell): keep nothing. */
  othersWaiting: boolean;
}

/**
 * Keeps slots of the shared limit on this replica after their requests ended, so the
 * organization's next requests here run on them without asking Redis (neither the taking nor the
 * giving back is a round trip). A kept slot stays a slot in Redis, its lease renewed as for a
 * running request, so the organization never runs more than the limit across replicas. While this
 * replica holds slots of an organization it asks Redis every `checkMs` whether a request of it waits
 * on any replica (one read); if one does, or Redis does not answer, the idle slots go back at once
 * and the running ones as their requests end, so a waiting request gets its turn within about
 * `checkMs`. A slot left idle for `idleMs` goes back too.
 */
export interface KeepingLimiter extends InflightLimiter {
  /** Gives every kept slot back to Redis and keeps none from now on (the replica is stopping). */
  handBackAll(): void;
}

export function keepSlots(
  shared: SharedInflightLimiter,
  settings: { checkMs: number; idleMs: number },
): KeepingLimiter {
  const holdings = new Map<string, Holding>();
  let keeping = settings.checkMs > 0;

  const giveBack = (holding: Holding, slots: KeptSlot[]) => {
    for (const slot of slots) {
      holding.idle.splice(holding.idle.indexOf(slot), 1);
      holding.held -= 1;
      slot.shared.release();
    }
  };
  const giveBackIdle = (holding: Holding) => giveBack(holding, [...holding.idle]);

  const check = async (scope: string, holding: Holding) => {
    const now = Date.now();
    giveBack(
      holding,
      holding.idle.filter((slot) => now - slot.idleSince >= settings.idleMs),
    );
    if (holding.held === 0) {
      holdings.delete(scope);
      return;
    }
    try {
      holding.othersWaiting = (await shared.waiting(scope)) > 0;
    } catch {
      holding.othersWaiting = true;
    }
    if (holding.othersWaiting || !keeping) giveBackIdle(holding);
    schedule(scope, holding);
  };
  const schedule = (scope: string, holding: Holding) => {
    setTimeout(() => void check(scope, holding), settings.checkMs).unref();
  };

  const holdingOf = (scope: string): Holding => {
    let holding = holdings.get(scope);
    if (!holding) {
      holding = { idle: [], held: 0, othersWaiting: false };
      holdings.set(scope, holding);
      schedule(scope, holding);
    }
    return holding;
  };

  const running = (holding: Holding, shared: Admitted): Admitted => {
    let ended = false;
    return {
      outcome: 'admitted',
      inUse: shared.inUse,
      release: () => {
        if (ended) return;
        ended = true;
        if (!keeping || holding.othersWaiting) {
          holding.held -= 1;
          return shared.release();
        }
        holding.idle.push({ shared, idleSince: Date.now() });
      },
    };
  };

  return {
    async acquire(scope, signal) {
      if (signal?.aborted) return { outcome: 'aborted' };
      const holding = holdings.get(scope);
      const reused = holding?.idle.pop();
      if (holding && reused) return running(holding, reused.shared);
      const admission = await shared.acquire(scope, signal);
      if (!keeping || admission.outcome !== 'admitted') return admission;
      const mine = holdingOf(scope);
      mine.held += 1;
      // A slot granted while others wait goes back when its request ends.
      if ((admission.waiting ?? 0) > 0) {
        mine.othersWaiting = true;
        giveBackIdle(mine);
      }
      return running(mine, admission);
    },
    handBackAll() {
      keeping = false;
      for (const holding of holdings.values()) giveBackIdle(holding);
    },
  };
}
