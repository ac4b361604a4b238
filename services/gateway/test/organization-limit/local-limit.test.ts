import { describe, expect, it } from 'vitest';
import { LocalLimit } from '../../src/application/organization-limit/local-limit.ts';

const settings = { maxActive: 2, maxWaiting: 1, maxWaitMs: 60_000 };

describe('the per-replica share used while Redis is unreachable', () => {
  it('admits up to maxActive, queues up to maxWaiting and refuses the rest at once', async () => {
    const limit = new LocalLimit(settings);
    const first = await limit.acquire('org');
    const second = await limit.acquire('org');
    expect([first.outcome, second.outcome]).toEqual(['admitted', 'admitted']);
    const waiting = limit.acquire('org');
    expect(await limit.acquire('org')).toEqual({ outcome: 'refused', reason: 'full' });
    expect(limit.inUse('org')).toBe(2);

    if (first.outcome !== 'admitted') throw new Error('not admitted');
    first.release();
    const third = await waiting;
    expect(third.outcome).toBe('admitted');
    expect(limit.inUse('org')).toBe(2);
  });

  it('counts requests running outside the share in it, and admits a waiting one when they end', async () => {
    let outside = 1;
    const limit = new LocalLimit({ ...settings, alsoRunning: () => outside });
    const first = await limit.acquire('org');
    expect(first.outcome).toBe('admitted');
    let answered = false;
    const waiting = limit.acquire('org').finally(() => {
      answered = true;
    });
    expect(await limit.acquire('org')).toEqual({ outcome: 'refused', reason: 'full' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    outside = 0;
    limit.wake('org');
    expect((await waiting).outcome).toBe('admitted');
    expect(limit.inUse('org')).toBe(2);
  });

  it('does not hand a released slot to a waiting request while outside requests fill the share', async () => {
    let outside = 0;
    const limit = new LocalLimit({ ...settings, alsoRunning: () => outside });
    const running = [await limit.acquire('org'), await limit.acquire('org')];
    let answered = false;
    const waiting = limit.acquire('org').finally(() => {
      answered = true;
    });
    outside = 1;
    const first = running[0]!;
    if (first.outcome !== 'admitted') throw new Error('not admitted');
    first.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    expect(limit.inUse('org')).toBe(1);
    outside = 0;
    limit.wake('org');
    expect((await waiting).outcome).toBe('admitted');
  });

  it('does not admit a request whose client is already gone', async () => {
    const limit = new LocalLimit(settings);
    expect(await limit.acquire('org', AbortSignal.abort())).toEqual({ outcome: 'aborted' });
    expect(limit.inUse('org')).toBe(0);
  });

  it('hands a released slot to the waiting request, not to a newcomer', async () => {
    const limit = new LocalLimit({ ...settings, maxActive: 1 });
    const holder = await limit.acquire('org');
    const waiter = limit.acquire('org');
    if (holder.outcome !== 'admitted') throw new Error('not admitted');
    holder.release();
    // Arrives after the release but before the waiter ran: the slot is already the waiter's.
    let newcomerDone = false;
    const newcomer = limit.acquire('org').then((admission) => {
      newcomerDone = true;
      return admission;
    });
    const second = await waiter;
    expect(second.outcome).toBe('admitted');
    expect(limit.inUse('org')).toBe(1);
    expect(newcomerDone).toBe(false);
    if (second.outcome !== 'admitted') throw new Error('not admitted');
    second.release();
    expect((await newcomer).outcome).toBe('admitted');
  });

  it('keeps organizations apart and releases a slot only once', async () => {
    const limit = new LocalLimit({ ...settings, maxActive: 1, maxWaiting: 0 });
    const a = await limit.acquire('a');
    expect((await limit.acquire('b')).outcome).toBe('admitted');
    if (a.outcome !== 'admitted') throw new Error('not admitted');
    a.release();
    a.release();
    expect(limit.inUse('a')).toBe(0);
    expect((await limit.acquire('a')).outcome).toBe('admitted');
    expect(await limit.acquire('a')).toEqual({ outcome: 'refused', reason: 'full' });
  });

  it('gives up waiting when the client goes away or the wait runs out', async () => {
    const limit = new LocalLimit({ ...settings, maxActive: 1, maxWaitMs: 1 });
    await limit.acquire('org');
    expect(await limit.acquire('org')).toEqual({ outcome: 'refused', reason: 'wait_timeout' });
    const patient = new LocalLimit({ ...settings, maxActive: 1 });
    await patient.acquire('org');
    const gone = new AbortController();
    const waiting = patient.acquire('org', gone.signal);
    gone.abort();
    expect(await waiting).toEqual({ outcome: 'aborted' });
    // The aborted request left the waiting room: another one can wait.
    const next = patient.acquire('org', AbortSignal.abort());
    expect(await next).toEqual({ outcome: 'aborted' });
  });
});
