/**
 * Score/member pairs gathered per sorted set, so a batch of rows becomes one variadic ZADD per set
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
}
