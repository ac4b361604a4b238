import { createHash } from 'node:crypto';
import type { Redis } from '@engage/redis';

/**
 * Failed sign-ins counted in Redis per account (email) and per client address, each with a delay
 * that doubles with every failure past the free ones (OWASP's authentication guidance). Correct
 * passwords are not counted. An account's delay holds only for the addresses that failed on it, so
 * a stranger's wrong passwords cannot lock the operator out from an address of their own.
 *
 * An attempt is counted as a failure when it starts and refunded when it succeeds: attempts that
 * run at once are counted exactly, on every replica, and one cut short by a crash stays counted.
 */

export interface SignInThrottleSettings {
  /** Failures for one email before its failing addresses wait the first delay. */
  freeFailuresPerAccount: number;
  /** Failures from one address, for any email, before it waits the first delay. */
  freeFailuresPerAddress: number;
  /** The first delay; each further failure doubles it, up to maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Failures are forgotten this long after the last one (plus its delay). */
  memoryMs: number;
}

export type AttemptStart =
  | { allowed: true; attempt: StartedAttempt }
  | { allowed: false; retryAfterSeconds: number };

export interface StartedAttempt {
  keys: [account: string, address: string, pair: string];
  /** The time the attempt was counted at, and each counter's time of failure before it. */
  startedAt: string;
  previousFailureAt: [account: string, address: string];
}

// Each counter is a hash { n: failures, last: time of the last one (ms) }; the pair key marks an
// address that failed on the account. KEYS: account, address, pair. ARGV: now, first delay, max
// delay, memory, free failures per account, free failures per address.
// Answers { wait ms } when refused, else { 0, account's last, address's last } after counting.
const START_ATTEMPT = `
local now, first, max, memory = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local free = { tonumber(ARGV[5]), tonumber(ARGV[6]) }
local function delay(n, freeFailures)
  if n < freeFailures then return 0 end
  return math.min(max, first * 2 ^ (n - freeFailures))
end
local function waitOf(i)
  local n = tonumber(redis.call('HGET', KEYS[i], 'n') or '0')
  local last = tonumber(redis.call('HGET', KEYS[i], 'last') or '0')
  return math.max(0, last + delay(n, free[i]) - now)
end
local wait = waitOf(2)
if redis.call('EXISTS', KEYS[3]) == 1 then wait = math.max(wait, waitOf(1)) end
if wait > 0 then return { math.ceil(wait) } end
local previous = {}
for i = 1, 2 do
  previous[i] = redis.call('HGET', KEYS[i], 'last') or '0'
  local n = redis.call('HINCRBY', KEYS[i], 'n', 1)
  redis.call('HSET', KEYS[i], 'last', ARGV[1])
  redis.call('PEXPIRE', KEYS[i], memory + delay(n, free[i]))
end
redis.call('INCR', KEYS[3])
redis.call('PEXPIRE', KEYS[3], memory)
return { 0, previous[1], previous[2] }
`;

// The attempt succeeded: its failure is taken back (with the previous failure's time, unless a later
// failure set another), and the address no longer counts as failing on the account.
// KEYS: account, address, pair. ARGV: the attempt's time, account's previous last, address's previous last.
const REFUND_ATTEMPT = `
for i = 1, 2 do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    local n = redis.call('HINCRBY', KEYS[i], 'n', -1)
    if n <= 0 then
      redis.call('DEL', KEYS[i])
    elseif redis.call('HGET', KEYS[i], 'last') == ARGV[1] then
      redis.call('HSET', KEYS[i], 'last', ARGV[i + 1])
    end
  end
end
redis.call('DEL', KEYS[3])
return 0
`;

export function createSignInThrottle(
  redis: Redis,
  keyPrefix: string,
  settings: SignInThrottleSettings,
  now: () => number = Date.now,
) {
  // Hashed, so neither an address nor an email is readable in Redis or can shape a key.
  const key = (kind: string, ...values: string[]) =>
    `${keyPrefix}sign-in-failures:${kind}:${createHash('sha256').update(values.join('\n')).digest('base64url')}`;
  return {
    /** Counts the attempt as a failure, unless a delay holds for the email from this address or for the address. */
    async start(email: string, address: string): Promise<AttemptStart> {
      const keys: StartedAttempt['keys'] = [
        key('account', email),
        key('address', address),
        key('pair', email, address),
      ];
      const startedAt = String(now());
      const [waitMs, accountLast, addressLast] = (await redis.eval(
        START_ATTEMPT,
        3,
        ...keys,
        startedAt,
        settings.firstDelayMs,
        settings.maxDelayMs,
        settings.memoryMs,
        settings.freeFailuresPerAccount,
        settings.freeFailuresPerAddress,
      )) as [number, string?, string?];
      if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000) };
      return { allowed: true, attempt: { keys, startedAt, previousFailureAt: [accountLast!, addressLast!] } };
    },

    /** The password was right: the attempt was no failure. */
    async succeeded(attempt: StartedAttempt): Promise<void> {
      await redis.eval(REFUND_ATTEMPT, 3, ...attempt.keys, attempt.startedAt, ...attempt.previousFailureAt);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
