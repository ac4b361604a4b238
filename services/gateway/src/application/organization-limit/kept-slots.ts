import type { Admission, InflightLimiter } from '@engage/redis';

type Admitted = Extract<Admission, { outcome: 'admitted' }>;

interface KeptSlot {
  shared: Admitted;
  /** When the slot must go back to Redis: `keepMs` after Redis granted it. */
  handBackAt: number;
  idle?: NodeJS.Timeout;
}

/**
 * Keeps a slot of the shared limit on this replica for a while after its request ended, so the
 * organization's next request here runs on it without asking Redis (neither the taking nor the
 * giving back is a round trip). A kept slot stays a slot in Redis, its lease renewed as for a
 * running request, so the organization never runs more than the limit across replicas. Every slot
 * goes back to Redis at the latest `keepMs` after Redis granted it (and at once when idle by then),
 * so requests waiting on other replicas get their turn within that bound; a slot granted while
 * others were waiting is not kept at all.
 */
export interface KeepingLimiter extends InflightLimiter {
  /** Gives every kept slot back to Redis and keeps none from now on (the replica is stopping). */
  handBackAll(): void;
}

export function keepSlots(shared: InflightLimiter, keepMs: number): KeepingLimiter {
  const kept = new Map<string, KeptSlot[]>();
  let keeping = keepMs > 0;

  const take = (scope: string): KeptSlot | undefined => {
    const slots = kept.get(scope);
    for (let slot = slots?.pop(); slot; slot = slots?.pop()) {
      clearTimeout(slot.idle);
      if (Date.now() < slot.handBackAt) {
        if (slots?.length === 0) kept.delete(scope);
        return slot;
      }
      slot.shared.release();
    }
    kept.delete(scope);
    return undefined;
  };

  const drop = (scope: string, slot: KeptSlot) => {
    const slots = kept.get(scope);
    const at = slots?.indexOf(slot) ?? -1;
    if (at !== -1) slots?.splice(at, 1);
    if (slots?.length === 0) kept.delete(scope);
    slot.shared.release();
  };

  const running = (scope: string, slot: KeptSlot): Admitted => {
    let ended = false;
    return {
      outcome: 'admitted',
      inUse: slot.shared.inUse,
      release: () => {
        if (ended) return;
        ended = true;
        const left = slot.handBackAt - Date.now();
        if (left <= 0 || !keeping) return slot.shared.release();
        slot.idle = setTimeout(() => drop(scope, slot), left).unref();
        const slots = kept.get(scope) ?? [];
        kept.set(scope, slots);
        slots.push(slot);
      },
    };
  };

  return {
    async acquire(scope, signal) {
      if (signal?.aborted) return { outcome: 'aborted' };
      const reused = take(scope);
      if (reused) return running(scope, reused);
      const admission = await shared.acquire(scope, signal);
      if (!keeping || admission.outcome !== 'admitted' || (admission.waiting ?? 0) > 0) return admission;
      return running(scope, { shared: admission, handBackAt: Date.now() + keepMs });
    },
    handBackAll() {
      keeping = false;
      for (const [scope, slots] of [...kept]) for (const slot of [...slots]) drop(scope, slot);
    },
  };
}
