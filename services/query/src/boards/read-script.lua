-- One round trip for a live board read. KEYS: board sorted set, display names hash, the
-- environment's mirrored marker. ARGV: top, around, the caller's member ('' for none), use names
-- ('1'/'0'), then the named members. Returns nil when the marker is missing (rebuild, then retry).
if redis.call('EXISTS', KEYS[3]) == 0 then return nil end
local top_n = tonumber(ARGV[1])
local around_n = tonumber(ARGV[2])
local me = ARGV[3]
local card = redis.call('ZCARD', KEYS[1])
local top = {}
if top_n > 0 then top = redis.call('ZREVRANGE', KEYS[1], 0, top_n - 1, 'WITHSCORES') end
local me_rank = -1
local me_score = ''
local around_start = 0
local around = {}
if me ~= '' then
  local rank = redis.call('ZREVRANK', KEYS[1], me)
  if rank then
    me_rank = rank
    me_score = redis.call('ZSCORE', KEYS[1], me)
    if around_n > 0 then
      around_start = math.max(0, rank - around_n)
      around = redis.call('ZREVRANGE', KEYS[1], around_start, rank + around_n, 'WITHSCORES')
    end
  end
end
local named = {}
if #ARGV >= 5 then
  local scores = redis.call('ZMSCORE', KEYS[1], unpack(ARGV, 5))
  for i = 1, #scores do
    if scores[i] then
      named[#named + 1] = ARGV[i + 4]
      named[#named + 1] = scores[i]
    end
  end
end
local names = {}
if ARGV[4] == '1' then
  local members = {}
  for i = 1, #top, 2 do members[#members + 1] = top[i] end
  for i = 1, #around, 2 do members[#members + 1] = around[i] end
  for i = 1, #named, 2 do members[#members + 1] = named[i] end
  if me ~= '' then members[#members + 1] = me end
  if #members > 0 then
    local found = redis.call('HMGET', KEYS[2], unpack(members))
    for i = 1, #members do names[i] = found[i] or '' end
  end
end
return { card, top, me_rank, me_score, around_start, around, named, names }
