export { seededRandom } from '@engage/testkit';

/** The seed from LEDGER_TEST_SEED, or a fresh one; printed so the run can be repeated. */
export function testSeed(name: string): number {
  const seed = Number(process.env.LEDGER_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
  process.stdout.write(`[${name}] seed ${seed} (replay with LEDGER_TEST_SEED=${seed})\n`);
  return seed;
}
