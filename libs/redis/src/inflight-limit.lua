-- An in-flight limit shared by every replica, on Redis's own clock (no replica's clock matters).
-- KEYS[1]: sorted set of admitted tokens, scored by lease expiry (ms)
-- KEYS[2]: sorted set of waiting tokens, scored by wait-lease expiry (ms)
-- ARGV: op ('acquire' | 'refresh' | 'release' | 'peek'), token, maxActive, maxWaiting, leaseMs, waitLeaseMs
-- Returns {status, admitted count, waiting count}:
--   acquire: 1 admitted, 0 waiting (poll again), -1 refused (no slot and the waiting room is full)
--   refresh: 1 lease extended, 0 the token holds no slot (its lease ran out)
--   release: 1 a slot was freed, 0 the token held none
--   peek: 0, and the counts of leases not yet run out; nothing is written
local active, waiting = KEYS[1], KEYS[2]
local op, token = ARGV[1], ARGV[2]
local maxActive, maxWaiting = tonumber(ARGV[3]), tonumber(ARGV[4])
local leaseMs, waitLeaseMs = tonumber(ARGV[5]), tonumber(ARGV[6])

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

if op == 'peek' then
  local after = '(' .. now
  return {0, redis.call('ZCOUNT', active, after, '+inf'), redis.call('ZCOUNT', waiting, after, '+inf')}
end

-- Leases of replicas that died (or stopped refreshing) run out here, on every call.
redis.call('ZREMRANGEBYSCORE', active, '-inf', now)
redis.call('ZREMRANGEBYSCORE', waiting, '-inf', now)

local status = 0
if op == 'release' then
  status = redis.call('ZREM', active, token)
  redis.call('ZREM', waiting, token)
elseif op == 'refresh' then
  if redis.call('ZSCORE', active, token) then
    redis.call('ZADD', active, now + leaseMs, token)
    status = 1
  end
else
  local admitted = redis.call('ZCARD', active)
  local queued = redis.call('ZCARD', waiting)
  local isWaiting = redis.call('ZSCORE', waiting, token)
  if redis.call('ZSCORE', active, token) then
    redis.call('ZADD', active, now + leaseMs, token)
    status = 1
  elseif (isWaiting and admitted < maxActive) or (not isWaiting and admitted + queued < maxActive) then
    -- Requests already waiting go first: a newcomer takes a slot only when none of them needs it.
    redis.call('ZADD', active, now + leaseMs, token)
    redis.call('ZREM', waiting, token)
    status = 1
  elseif isWaiting or queued < maxWaiting then
    redis.call('ZADD', waiting, now + waitLeaseMs, token)
    status = 0
  else
    status = -1
  end
end
if op ~= 'release' then
  -- Sets of organizations gone quiet disappear on their own.
  local ttl = math.max(leaseMs, waitLeaseMs) * 2
  redis.call('PEXPIRE', active, ttl)
  redis.call('PEXPIRE', waiting, ttl)
end
return {status, redis.call('ZCARD', active), redis.call('ZCARD', waiting)}
