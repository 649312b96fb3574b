/**
 * One atomic acquisition on a budget shared through Redis, on Redis's own clock so every process
 * counts the same window. KEYS: window (sorted set of slots by answer time; a slot still waiting
 * for its answer is scored ahead by the hold, so a killed process's slot lapses), blocked (a 429's end), waiters
 * (sorted set: one member per process and priority, by priority then turn), alive (the same
 * members by the time each expires, so a killed process stops holding its part), turn (a counter),
 * answering (set while the key has served interactive work lately).
 * ARGV: member, priority rank, the ranks this process still waits in once this caller is served,
 * limit, span in ms, grace in ms, the slots bulk work leaves for interactive work while the key
 * is answering, how long "lately" lasts in ms, the hold in ms.
 * Returns the slot's id when one was taken, else how many ms to wait before asking again.
 */
export const TAKE_SCRIPT = `
local window, blocked, waiters, alive, turn = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local answering = KEYS[6]
local member, rank = ARGV[1], tonumber(ARGV[2])
local limit, span, grace = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if rank > 0 and redis.call('EXISTS', answering) == 1 then limit = limit - tonumber(ARGV[7]) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

-- Forget processes that stopped asking (killed), then register this one's waiting priorities.
local gone = redis.call('ZRANGEBYSCORE', alive, '-inf', now)
for _, m in ipairs(gone) do
  redis.call('ZREM', waiters, m)
  redis.call('ZREM', alive, m)
end
local mine = rank .. '|' .. member
local registered = {}
for r in string.gmatch(ARGV[3] .. ',' .. rank, '%d+') do
  local m = r .. '|' .. member
  if not registered[m] then
    registered[m] = true
    if not redis.call('ZSCORE', waiters, m) then
      redis.call('ZADD', waiters, tonumber(r) * 1e13 + redis.call('INCR', turn), m)
    end
  end
end

local function keep(wait)
  for m in pairs(registered) do redis.call('ZADD', alive, now + wait + grace, m) end
  local ttl = math.floor(span * 2 + wait + grace)
  for _, k in ipairs({ window, waiters, alive, turn }) do redis.call('PEXPIRE', k, ttl) end
  return wait
end

local until_ = tonumber(redis.call('GET', blocked) or '0')
if until_ > now then return keep(until_ - now) end
redis.call('ZREMRANGEBYSCORE', window, '-inf', now - span)
local sent = redis.call('ZRANGE', window, 0, -1, 'WITHSCORES')
local used = #sent / 2
-- Waiters of a higher priority, in any process, may take a free slot first.
local higher = redis.call('ZCOUNT', waiters, '-inf', '(' .. (rank * 1e13))
local free = limit - used
local poll = math.max(5, math.floor(span / tonumber(ARGV[4])))
-- When the slot scored so leaves the window; still unanswered: look again soon.
local function after(score)
  if not score or tonumber(score) > now then return keep(poll) end
  return keep(math.max(1, tonumber(score) + span - now))
end
local function freesAt(index) return after(sent[index * 2 + 2]) end
if higher >= free then return freesAt(used - limit + higher) end
-- Processes waiting at the same priority share the window: none takes more than its part.
local peers = redis.call('ZCOUNT', waiters, rank * 1e13, '(' .. ((rank + 1) * 1e13))
if peers > 1 then
  local share = math.ceil(limit / peers)
  local mine_sent = {}
  for i = 1, #sent, 2 do
    if string.sub(sent[i], -#member) == member then mine_sent[#mine_sent + 1] = sent[i + 1] end
  end
  if #mine_sent >= share then return after(mine_sent[#mine_sent - share + 1]) end
end
local slot = redis.call('INCR', turn) .. '|' .. member
redis.call('ZADD', window, now + tonumber(ARGV[9]), slot)
if rank == 0 then redis.call('SET', answering, '1', 'PX', ARGV[8]) end
-- Served: still waiting at this priority, or out.
local again = false
for r in string.gmatch(ARGV[3], '%d+') do
  if tonumber(r) == rank then again = true end
end
if again then
  redis.call('ZADD', waiters, rank * 1e13 + redis.call('INCR', turn), mine)
else
  redis.call('ZREM', waiters, mine)
  redis.call('ZREM', alive, mine)
  registered[mine] = nil
end
keep(0)
return slot
`;

/** KEYS: window. ARGV: slot. The slot's request was answered: it counts from now. */
export const SETTLE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[1])
return 0
`;

/** KEYS: blocked. ARGV: ms. Extends the block, never shortens it. */
export const BLOCK_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ = now + tonumber(ARGV[1])
if until_ > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], until_, 'PX', math.max(1, math.ceil(tonumber(ARGV[1]))))
end
return 0
`;
