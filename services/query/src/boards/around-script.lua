-- The caller's place and neighbours in one step (the range depends on the rank). KEYS: the board,
-- the environment's mirrored marker. ARGV: the caller's member, neighbours on each side. Returns 0
-- when the marker is missing (the boards need a rebuild), false when the caller is not on the board,
-- else { rank, first position of the range, the range WITHSCORES } (the caller included).
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
local rank = redis.call('ZREVRANK', KEYS[1], ARGV[1])
if not rank then return false end
local n = tonumber(ARGV[2])
local first = math.max(0, rank - n)
return { rank, first, redis.call('ZREVRANGE', KEYS[1], first, rank + n, 'WITHSCORES') }
