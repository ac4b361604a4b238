/**
 * Most members one ZADD writes. Redis runs a command to its end before serving anyone else, so a
 * ZADD of a whole large transaction (thousands of members on a large set) would hold every
 * concurrent read until it ends; in pieces, reads are served between them.
 */
export const ZADD_MEMBERS_MAX = 1_000;

/**
 * Score/member pairs gathered per sorted set, so a batch of rows becomes few variadic ZADDs per set
 * (arguments in the order added: a member added twice keeps the later score, as ZADD does).
 */
export class ZaddBatch {
  readonly byKey = new Map<string, (string | number)[]>();
  size = 0;

  add(key: string, score: number, member: string): void {
    const args = this.byKey.get(key);
    if (args) args.push(score, member);
    else this.byKey.set(key, [score, member]);
    this.size++;
  }

  /** The ZADD commands to send, in order: each set's pairs in pieces of at most `maxMembers`. */
  *commands(maxMembers = ZADD_MEMBERS_MAX): Generator<[key: string, args: (string | number)[]]> {
    for (const [key, args] of this.byKey) {
      for (let i = 0; i < args.length; i += 2 * maxMembers) yield [key, args.slice(i, i + 2 * maxMembers)];
    }
  }
}
