-- The caller's place, neighbours and their names in one step (the range depends on the rank).
-- KEYS: the board, the environment's mirrored marker, the names hash. ARGV: the caller's member,
-- neighbours on each side, '1' to return the range's display names. Returns 0 when the marker is
-- missing (the boards need a rebuild), false when the caller is not on the board, else { rank,
-- first position of the range, the range WITHSCORES (the caller included), its names if asked }.
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
local rank = redis.call('ZREVRANK', KEYS[1], ARGV[1])
if not rank then return false end
local n = tonumber(ARGV[2])
local first = math.max(0, rank - n)
local range = redis.call('ZREVRANGE', KEYS[1], first, rank + n, 'WITHSCORES')
if ARGV[3] ~= '1' then return { rank, first, range } end
local members = {}
for i = 1, #range, 2 do members[#members + 1] = range[i] end
return { rank, first, range, redis.call('HMGET', KEYS[3], unpack(members)) }
