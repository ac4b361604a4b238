import type { Admission, InflightLimiter } from '@engage/redis';

type Admitted = Extract<Admission, { outcome: 'admitted' }>;

export interface SlotLeaseSettings {
  /** How often the slots held are renewed in Redis (one call per organization), which also tells whether others wait (0: no slot is kept). */
  keepMs: number;
  /** Slots taken from Redis in one call when a request finds none free here. */
  blockSlots: number;
  /** Between renewals when nothing is kept: the leases of running requests still need extending. */
  leaseMs: number;
}

interface Slot {
  member: string;
  /** Handed out only until then (local clock): half the lease Redis last confirmed. */
  validUntil: number;
  idleSince: number;
}

/** A local request asking Redis for a slot: handed the first slot freed here meanwhile. */
interface Asking {
  stop: AbortController;
  slot?: Slot;
  handedOver?: () => void;
}

interface Lease {
  /** Every slot held in Redis, idle or running a request. */
  held: Set<Slot>;
  idle: Slot[];
  running: number;
  /** Redis did not answer or a lease ran out (or the replica stops): no slot is kept any more. */
  draining: boolean;
  /** Requests waiting in Redis at the last renewal not yet given a slot from here: slots freed go to them. */
  owed: number;
  asking: Asking[];
  /** Organization-wide slots in use, as Redis last said. */
  inUse: number;
  timer?: NodeJS.Timeout;
  renewing?: boolean;
}

/**
 * The shared limit's slots leased to this replica, per organization. A request that finds no slot
 * free here takes one from Redis and, when every slot held here is busy and nobody waits for them,
 * a few spare ones with it (`blockSlots`); a request that ends leaves its slot here for the next one. Every `keepMs` one
 * call renews the leases of all the organization's slots held here and says how many requests wait
 * anywhere: as many slots go back, idle ones at once and running ones as their requests end; slots
 * idle for a whole period go back too. Every slot stays a member in Redis, so never more than the limit
 * runs across replicas; a slot is handed out only within half a lease of the last call that Redis
 * confirmed it in, so never on a lease that ran out while Redis was out of reach.
 */
export interface SlotLeases extends InflightLimiter {
  /** Requests of the organization running on slots held here. */
  running(scope: string): number;
  /** Called whenever a request running on a slot ended. */
  onEnded(listener: (scope: string) => void): void;
  /** Gives every idle slot back to Redis and keeps none from now on (the replica is stopping). */
  handBackAll(): void;
}

export function leaseSlots(shared: InflightLimiter, settings: SlotLeaseSettings): SlotLeases {
  const leases = new Map<string, Lease>();
  let keeping = settings.keepMs > 0;
  const periodMs = keeping ? settings.keepMs : Math.max(Math.floor(settings.leaseMs / 3), 10);
  const spare = keeping ? Math.max(0, settings.blockSlots - 1) : 0;
  // A slot's lease runs leaseMs from the call that granted or renewed it: handed out for half that.
  const validMs = Math.floor(settings.leaseMs / 2);
  const endedListeners: ((scope: string) => void)[] = [];

  const leaseOf = (scope: string): Lease => {
    let lease = leases.get(scope);
    if (!lease) {
      lease = { held: new Set(), idle: [], running: 0, draining: false, owed: 0, asking: [], inUse: 0 };
      leases.set(scope, lease);
    }
    return lease;
  };

  const forgetIfEmpty = (scope: string, lease: Lease) => {
    if (lease.held.size > 0 || lease.asking.length > 0) return;
    clearInterval(lease.timer);
    if (leases.get(scope) === lease) leases.delete(scope);
  };

  const giveBack = (scope: string, lease: Lease, slots: Slot[]) => {
    if (slots.length === 0) return;
    for (const slot of slots) lease.held.delete(slot);
    // A failed call leaves the slots to their lease's expiry.
    shared
      .renew(
        scope,
        [],
        slots.map((s) => s.member),
      )
      .catch(() => undefined);
    forgetIfEmpty(scope, lease);
  };

  const renew = async (scope: string, lease: Lease) => {
    if (lease.renewing) return;
    lease.renewing = true;
    try {
      await renewNow(scope, lease);
    } finally {
      lease.renewing = false;
    }
  };

  const renewNow = async (scope: string, lease: Lease) => {
    const now = Date.now();
    const stale = lease.idle.filter((s) => !keeping || now - s.idleSince >= settings.keepMs);
    const keep = [...lease.held].filter((s) => !stale.includes(s));
    lease.idle = lease.idle.filter((s) => !stale.includes(s));
    for (const slot of stale) lease.held.delete(slot);
    let renewal: Awaited<ReturnType<InflightLimiter['renew']>>;
    try {
      renewal = await shared.renew(
        scope,
        keep.map((s) => s.member),
        stale.map((s) => s.member),
      );
    } catch {
      // Redis did not answer: nothing more is handed out from here; the slots' leases run out.
      lease.draining = true;
      for (const slot of lease.idle) lease.held.delete(slot);
      lease.idle = [];
      for (const slot of lease.held) slot.validUntil = 0;
      forgetIfEmpty(scope, lease);
      return;
    }
    lease.inUse = renewal.inUse;
    if (renewal.held < keep.length) {
      // A lease ran out (Redis was out of reach for a while): none of these slots is handed out again.
      for (const slot of keep) slot.validUntil = 0;
      lease.draining = true;
    } else {
      for (const slot of keep) slot.validUntil = Math.max(slot.validUntil, now + validMs);
      lease.draining = !keeping;
      // This replica's own requests among them get the slots freed here directly.
      lease.owed = Math.max(0, renewal.waiting - lease.asking.length);
    }
    const owedNow = lease.draining ? lease.idle.length : Math.min(lease.owed, lease.idle.length);
    lease.owed -= Math.min(lease.owed, owedNow);
    giveBack(scope, lease, lease.idle.splice(0, owedNow));
    forgetIfEmpty(scope, lease);
  };

  const hold = (scope: string, lease: Lease, slot: Slot) => {
    lease.held.add(slot);
    lease.timer ??= setInterval(() => void renew(scope, lease), periodMs).unref();
  };

  const takeIdle = (scope: string, lease: Lease | undefined): Slot | undefined => {
    if (!lease) return undefined;
    const now = Date.now();
    for (let slot = lease.idle.pop(); slot; slot = lease.idle.pop()) {
      if (slot.validUntil > now) return slot;
      giveBack(scope, lease, [slot]);
    }
    return undefined;
  };

  /** A slot no request runs on: to a request of this replica still asking Redis, kept idle, or given back. */
  const park = (scope: string, lease: Lease, slot: Slot) => {
    const now = Date.now();
    if (!keeping || lease.draining || slot.validUntil <= now) return giveBack(scope, lease, [slot]);
    const asking = lease.asking.shift();
    if (asking) {
      // It stops asking (it was one of the requests waiting) and runs on this slot.
      lease.owed = Math.max(0, lease.owed - 1);
      lease.running += 1;
      asking.slot = slot;
      asking.stop.abort(HANDED_OVER);
      asking.handedOver?.();
      return;
    }
    if (lease.owed > 0) {
      lease.owed -= 1;
      return giveBack(scope, lease, [slot]);
    }
    slot.idleSince = now;
    lease.idle.push(slot);
  };

  const end = (scope: string, lease: Lease, slot: Slot) => {
    lease.running -= 1;
    park(scope, lease, slot);
    for (const listener of endedListeners) listener(scope);
  };

  const run = (scope: string, lease: Lease, slot: Slot): Admitted => {
    let ended = false;
    return {
      outcome: 'admitted',
      inUse: lease.inUse,
      release: () => {
        if (ended) return;
        ended = true;
        end(scope, lease, slot);
      },
    };
  };

  return {
    async acquire(scope, signal) {
      if (signal?.aborted) return { outcome: 'aborted' };
      const known = leases.get(scope);
      const idle = takeIdle(scope, known);
      if (idle && known) {
        known.running += 1;
        return run(scope, known, idle);
      }
      const lease = leaseOf(scope);
      // Spare slots only once every slot held here is busy, and for one request asking at a time: a
      // burst of requests takes one slot each, so spares never crowd requests (of this replica or
      // another) out of the slots and the waiting room they would have had.
      const busy = lease.held.size > 0 && lease.idle.length === 0;
      const spareWanted = keeping && busy && lease.asking.length === 0 ? spare : 0;
      const asking: Asking = { stop: new AbortController() };
      const handedOver = new Promise<'handed over'>((resolve) => {
        asking.handedOver = () => resolve('handed over');
      });
      const stop = () => asking.stop.abort(GONE);
      signal?.addEventListener('abort', stop, { once: true });
      lease.asking.push(asking);
      const asked = shared.acquireBlock(scope, spareWanted, asking.stop.signal).then(
        (block) => ({ block }),
        (failure: unknown) => ({ failure }),
      );
      const answer = await Promise.race([asked, handedOver]);
      signal?.removeEventListener('abort', stop);
      const at = lease.asking.indexOf(asking);
      if (at !== -1) lease.asking.splice(at, 1);
      if (answer === 'handed over') {
        // Taken at once, without waiting for Redis's answer to a request that stopped asking: it
        // holds nothing then, or (answered in the same instant) slots that go straight back.
        void asked.then((late) => {
          if ('block' in late && late.block.outcome === 'admitted') {
            shared.renew(scope, [], late.block.slots).catch(() => undefined);
          }
        });
        const slot = asking.slot!;
        if (signal?.aborted) {
          end(scope, lease, slot);
          return { outcome: 'aborted' };
        }
        return run(scope, lease, slot);
      }
      const block = 'block' in answer ? answer.block : undefined;
      const failure = 'failure' in answer ? answer.failure : undefined;
      const granted =
        block?.outcome === 'admitted'
          ? block.slots.map((member) => ({
              member,
              validUntil: block.sentAt + validMs,
              idleSince: Date.now(),
            }))
          : [];
      for (const slot of granted) hold(scope, lease, slot);
      if (block?.outcome === 'admitted') {
        lease.inUse = block.inUse;
        lease.owed = Math.max(lease.owed, block.waiting - lease.asking.length);
      }
      // A slot handed over by a request that ended here comes first (it is counted running already);
      // what Redis granted meanwhile is parked.
      let slot = asking.slot;
      if (!slot) {
        slot = granted.shift();
        if (slot) lease.running += 1;
      }
      for (const spareSlot of granted) park(scope, lease, spareSlot);
      if (slot && signal?.aborted) {
        end(scope, lease, slot);
        return { outcome: 'aborted' };
      }
      if (slot) return run(scope, lease, slot);
      forgetIfEmpty(scope, lease);
      if (failure !== undefined) throw failure;
      // Not admitted: refused, or the client went away.
      return block?.outcome === 'refused' ? block : { outcome: 'aborted' };
    },
    acquireBlock: (scope, spareSlots, signal) => shared.acquireBlock(scope, spareSlots, signal),
    renew: (scope, keep, release) => shared.renew(scope, keep, release),
    running: (scope) => leases.get(scope)?.running ?? 0,
    onEnded: (listener) => void endedListeners.push(listener),
    handBackAll() {
      keeping = false;
      for (const [scope, lease] of [...leases]) {
        lease.draining = true;
        const idle = lease.idle;
        lease.idle = [];
        giveBack(scope, lease, idle);
      }
    },
  };
}

/** Abort reasons made once: an AbortController aborted without one builds a DOMException each time. */
const HANDED_OVER = Object.freeze({ reason: 'handed over a slot freed on this replica' });
const GONE = Object.freeze({ reason: 'the client went away' });
