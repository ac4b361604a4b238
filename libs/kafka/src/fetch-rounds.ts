/**
 * Gathers the partition batches of one kafkajs fetch round so they can be applied together.
 *
 * kafkajs hands every batch of a fetch to its workers in one synchronous loop (its worker queue
 * starts each worker, and each calls `eachBatch` before its first await), then fetches again only
 * once every batch of the round is done. So the batches handed over before the event loop's next
 * turn are the round: `add` queues a batch, the first one schedules the round's application with
 * `setImmediate`, and every batch's promise settles with the round's outcome.
 */
export class FetchRounds<B> {
  private pending: { batch: B; settle: (err?: unknown) => void }[] = [];
  private readonly applyRound: (batches: B[]) => Promise<void>;

  constructor(applyRound: (batches: B[]) => Promise<void>) {
    this.applyRound = applyRound;
  }

  add(batch: B): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ batch, settle: (err) => (err === undefined ? resolve() : reject(err)) });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const round = this.pending;
    this.pending = [];
    let failure: unknown;
    try {
      await this.applyRound(round.map((r) => r.batch));
    } catch (err) {
      failure = err ?? new Error('a fetch round failed');
    }
    for (const r of round) r.settle(failure);
  }
}
