-- An in-flight limit shared by every replica, on Redis's own clock (no replica's clock matters).
-- KEYS[1]: sorted set of admitted tokens (one member a slot), scored by lease expiry (ms)
-- KEYS[2]: sorted set of waiting tokens, scored by wait-lease expiry (ms)
-- ARGV: op ('acquire' | 'refresh' | 'release' | 'renew'), token, maxActive, maxWaiting, leaseMs,
--       waitLeaseMs, then per op:
--   acquire: spare (slots wanted beyond the first, default 0)
--   renew: n, then n slots to keep (leases extended), then slots to give back
-- Returns {status, admitted count, waiting count}:
--   acquire: k >= 1 admitted with k slots (`token`, then `token/2` … `token/k`), 0 waiting (poll
--            again), -1 refused (no slot and the waiting room is full)
--   refresh: 1 lease extended, 0 the token holds no slot (its lease ran out)
--   release: 1 a slot was freed, 0 the token held none
--   renew: how many of the slots to keep still held a lease (now extended)
local active, waiting = KEYS[1], KEYS[2]
local op, token = ARGV[1], ARGV[2]
local maxActive, maxWaiting = tonumber(ARGV[3]), tonumber(ARGV[4])
local leaseMs, waitLeaseMs = tonumber(ARGV[5]), tonumber(ARGV[6])

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

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
elseif op == 'renew' then
  local keep = tonumber(ARGV[7])
  for i = 8, 7 + keep do
    if redis.call('ZSCORE', active, ARGV[i]) then
      redis.call('ZADD', active, now + leaseMs, ARGV[i])
      status = status + 1
    end
  end
  for i = 8 + keep, #ARGV do
    redis.call('ZREM', active, ARGV[i])
  end
else
  local spare = tonumber(ARGV[7] or '0')
  local admitted = redis.call('ZCARD', active)
  local queued = redis.call('ZCARD', waiting)
  local isWaiting = redis.call('ZSCORE', waiting, token)
  if redis.call('ZSCORE', active, token) then
    redis.call('ZADD', active, now + leaseMs, token)
    status = 1
  elseif (isWaiting and admitted < maxActive) or (not isWaiting and admitted + queued < maxActive) then
    -- Requests already waiting go first: a newcomer takes a slot only when none of them needs it,
    -- and spare slots only from what the others waiting leave free.
    redis.call('ZADD', active, now + leaseMs, token)
    redis.call('ZREM', waiting, token)
    if isWaiting then queued = queued - 1 end
    local free = maxActive - admitted - 1 - queued
    status = 1
    for i = 2, 1 + math.min(spare, free) do
      redis.call('ZADD', active, now + leaseMs, token .. '/' .. i)
      status = i
    end
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
