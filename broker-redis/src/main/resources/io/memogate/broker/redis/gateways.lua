#!lua name=memogate_gateways
--[[
The gateways of one server, shared by the proxies of a fleet: LocalGateways' transitions (AdmissionMachine,
ByteLedger) run here as Redis Functions, one per operation, so that each is atomic and every instance sees
one state. Time is Redis's own (TIME), in milliseconds. KEYS[1] is the prefix of every key (fleet and
server, in one hash tag); ARGV[1] the calling instance, ARGV[2] its lease in ms, ARGV[3] '1' once the
instance has called before (so a missing lease means it was reaped), then the operation's own arguments.

Keys under the prefix:
  cfg            hash: t0, limK fracK mqK toK (K = 1 SMALL, 2 MEDIUM, 3 LARGE; to in ms), retain, target, paused
  tiers          hash: aK permits held, hK of them by admitted tickets, atK admitted, ttK timeouts, qfK queue full
  t:<id>         hash: one ticket (inst est conn held state q ws cgen need); state W waiting, A admitted
  q:1 q:2 q:3 q:b   FIFO queues (sorted by an arrival sequence) of the three tiers and of the byte budget
  dl             waiting tickets by deadline
  led            hash: total, ifb (bytes in flight), ifs (statements in flight)
  c:<conn>       hash: a server connection's ledger row (ret inf st gen inst); gen tells a row from a later
                 one of the same pid, so a release after the connection closed settles nothing
  conns          the connections of the ledger
  leases         instances by lease expiry; it:<inst> their tickets, ic:<inst> their connections
  done:<inst>    decisions about an instance's tickets not yet delivered to it ("A id tier", or
                 "R id reason tier budget paused"); it is woken on channel wake:<inst>
  broker:lease   "<inst> <epoch>", expiring: the instance whose broker polls the server for the fleet
  broker:epoch   the last epoch given out; broker:pub and broker:set the leader's last publication
Every reply is {reaped, result, decisions}: whether the caller's lease had expired (its state was reaped),
the operation's result, and the caller's decisions, taken from its done list (none by a quiet function).
]]

local P, NOW, CFG, NOTIFY

local function s(n)
  -- Lua 5.1's tostring writes 14 significant digits; byte counts need all of theirs. A negated zero would
  -- print as "-0", which HINCRBY refuses: a script that stops half way leaves half its writes behind.
  if n == 0 then
    return '0'
  end
  return string.format('%.0f', n)
end

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function hnum(key, field)
  local v = redis.call('HGET', key, field)
  return v and tonumber(v) or 0
end

local function load_cfg()
  local raw = redis.call('HGETALL', P .. 'cfg')
  if #raw == 0 then
    return nil
  end
  local c = {}
  for i = 1, #raw, 2 do
    c[raw[i]] = raw[i + 1]
  end
  local cfg = { t0 = tonumber(c.t0), target = tonumber(c.target), paused = c.paused == '1',
                retain = c.retain == '1', lim = {}, frac = {}, mq = {}, to = {} }
  for k = 1, 3 do
    cfg.lim[k] = tonumber(c['lim' .. k])
    cfg.frac[k] = tonumber(c['frac' .. k])
    cfg.mq[k] = tonumber(c['mq' .. k])
    cfg.to[k] = tonumber(c['to' .. k])
  end
  return cfg
end

-- ---- tiers and queues ----

local function active(k)
  return hnum(P .. 'tiers', 'a' .. k)
end

local function tiers_add(field, n)
  redis.call('HINCRBY', P .. 'tiers', field, n)
end

local function qkey(q)
  return P .. 'q:' .. q
end

local function qlen(q)
  return redis.call('ZCARD', qkey(q))
end

-- ---- tickets ----

local function tget(id)
  local r = redis.call('HMGET', P .. 't:' .. id, 'inst', 'est', 'conn', 'held', 'state', 'q', 'ws', 'cgen', 'need',
    'fl')
  if not r[1] then
    return nil
  end
  return { id = id, inst = r[1], est = tonumber(r[2]), conn = r[3], held = tonumber(r[4]), state = r[5],
           q = r[6], ws = tonumber(r[7]), cgen = tonumber(r[8]), need = tonumber(r[9]), fl = tonumber(r[10] or '0') }
end

local function tsave(t)
  redis.call('HSET', P .. 't:' .. t.id, 'inst', t.inst, 'est', s(t.est), 'conn', t.conn, 'held', t.held,
    'state', t.state, 'q', t.q, 'ws', t.ws and s(t.ws) or '', 'cgen', s(t.cgen), 'need', t.need, 'fl', t.fl or 0)
  redis.call('SADD', P .. 'it:' .. t.inst, t.id)
end

local function tdel(t)
  redis.call('DEL', P .. 't:' .. t.id)
  redis.call('SREM', P .. 'it:' .. t.inst, t.id)
end

local function done(t, entry)
  redis.call('RPUSH', P .. 'done:' .. t.inst, entry)
  NOTIFY[t.inst] = true
end

-- ---- the byte budget (ByteLedger) ----

local function conn_key(conn)
  return P .. 'c:' .. conn
end

local function row(conn, inst)
  local r = redis.call('HMGET', conn_key(conn), 'ret', 'inf', 'st', 'gen', 'inst')
  if not r[4] then
    local gen = redis.call('INCR', P .. 'gen')
    redis.call('HSET', conn_key(conn), 'ret', 0, 'inf', 0, 'st', 0, 'gen', gen, 'inst', inst)
    redis.call('SADD', P .. 'conns', conn)
    redis.call('SADD', P .. 'ic:' .. inst, conn)
    return { ret = 0, inf = 0, st = 0, gen = gen, inst = inst }
  end
  return { ret = tonumber(r[1]), inf = tonumber(r[2]), st = tonumber(r[3]), gen = tonumber(r[4]), inst = r[5] }
end

local function counted(r)
  return math.max(r.ret, r.inf)
end

local function row_write(conn, r, before)
  redis.call('HSET', conn_key(conn), 'ret', s(r.ret), 'inf', s(r.inf), 'st', s(r.st), 'inst', r.inst)
  redis.call('HINCRBY', P .. 'led', 'total', s(counted(r) - before))
end

local function cost(conn, est)
  return math.max(0, est - hnum(conn_key(conn), 'ret'))
end

-- One statement larger than the whole target passes when no other is in flight: alone rather than never.
local function fits(c)
  return hnum(P .. 'led', 'ifs') == 0 or c <= CFG.target - hnum(P .. 'led', 'total')
end

local function charge(t)
  local r = row(t.conn, t.inst)
  if r.inst ~= t.inst then
    -- The connection's statements come through this instance now: its row goes with the instance.
    redis.call('SREM', P .. 'ic:' .. r.inst, t.conn)
    redis.call('SADD', P .. 'ic:' .. t.inst, t.conn)
    r.inst = t.inst
  end
  local before = counted(r)
  r.inf = r.inf + t.est
  r.st = r.st + 1
  row_write(t.conn, r, before)
  redis.call('HINCRBY', P .. 'led', 'ifb', s(t.est))
  redis.call('HINCRBY', P .. 'led', 'ifs', 1)
  return r.gen
end

-- The compile is over (keep: its memory stays with the connection) or never ran (a grant undone).
local function settle_charge(t, keep)
  local gen = redis.call('HGET', conn_key(t.conn), 'gen')
  if not gen or tonumber(gen) ~= t.cgen then
    return -- the connection closed meanwhile: it left the ledger then
  end
  local r = row(t.conn, t.inst)
  local before = counted(r)
  r.inf = r.inf - t.est
  r.st = r.st - 1
  if keep then
    r.ret = math.max(r.ret, t.est)
  end
  row_write(t.conn, r, before)
  redis.call('HINCRBY', P .. 'led', 'ifb', s(-t.est))
  redis.call('HINCRBY', P .. 'led', 'ifs', -1)
end

local function conn_closed(conn)
  if redis.call('EXISTS', conn_key(conn)) == 0 then
    return
  end
  local r = row(conn, '')
  redis.call('HINCRBY', P .. 'led', 'total', s(-counted(r)))
  redis.call('HINCRBY', P .. 'led', 'ifb', s(-r.inf))
  redis.call('HINCRBY', P .. 'led', 'ifs', s(-r.st))
  redis.call('DEL', conn_key(conn))
  redis.call('SREM', P .. 'conns', conn)
  redis.call('SREM', P .. 'ic:' .. r.inst, conn)
end

-- ---- a ticket's moves (AdmissionMachine) ----

local function give_back(t)
  for i = t.held, 1, -1 do
    tiers_add('a' .. i, -1)
  end
  t.held = 0
end

local function enqueue(t, q, timeout)
  if not t.ws then
    t.ws = NOW
  end
  local seq = redis.call('INCR', P .. 'seq')
  redis.call('ZADD', qkey(q), seq, t.id)
  redis.call('ZADD', P .. 'dl', s(NOW + timeout), t.id)
  t.state = 'W'
  t.q = q
  tsave(t)
end

local function leave_queue(t)
  redis.call('ZREM', qkey(t.q), t.id)
  redis.call('ZREM', P .. 'dl', t.id)
  t.q = ''
end

local function admit(t)
  t.cgen = charge(t)
  t.state = 'A'
  for i = 1, t.held do
    tiers_add('h' .. i, 1)
    tiers_add('at' .. i, 1)
  end
  tsave(t)
  done(t, 'A ' .. t.id .. ' ' .. t.held)
end

local function reject(t, reason, k, budget)
  give_back(t)
  tdel(t)
  done(t, 'R ' .. t.id .. ' ' .. reason .. ' ' .. k .. ' ' .. budget .. ' ' .. (CFG.paused and 1 or 0))
end

local function release_admitted(t, keep)
  settle_charge(t, keep)
  for i = t.held, 1, -1 do
    tiers_add('h' .. i, -1)
    tiers_add('a' .. i, -1)
  end
  tdel(t)
end

local function withdraw_waiting(t)
  leave_queue(t)
  give_back(t)
  tdel(t)
end

-- The tier t needs next (1..3), or 0 when its tiers suffice: t = target x F / S with S as it is now. Tiers up
-- to its floor (fl: a long join search predicted) are taken whatever its estimate.
local function next_tier(t)
  if t.held == 0 or t.held < (t.fl or 0) then
    return t.held + 1
  end
  if t.held == 3 then
    return 0
  end
  local k = t.held
  if t.est >= math.floor(CFG.target * CFG.frac[k] / math.max(1, active(k))) then
    return k + 1
  end
  return 0
end

local function enter_budget(t)
  local c = cost(t.conn, t.est)
  if not CFG.paused and (c == 0 or (qlen('b') == 0 and fits(c))) then
    admit(t)
  else
    enqueue(t, 'b', CFG.to[t.held])
  end
end

local function advance(t)
  while true do
    local k = next_tier(t)
    if k == 0 then
      enter_budget(t)
      return
    end
    t.need = k
    local q = tostring(k)
    local waiting = qlen(q)
    if not CFG.paused and active(k) < CFG.lim[k] and waiting == 0 then
      tiers_add('a' .. k, 1)
      t.held = t.held + 1
    elseif waiting >= CFG.mq[k] then
      tiers_add('qf' .. k, 1)
      reject(t, 'Q', k, 0)
      return
    else
      enqueue(t, q, CFG.to[k])
      return
    end
  end
end

local function pump(k)
  local progress = false
  local q = tostring(k)
  while active(k) < CFG.lim[k] do
    local head = redis.call('ZRANGE', qkey(q), 0, 0)[1]
    if not head then
      break
    end
    local t = tget(head)
    if t then
      leave_queue(t)
      tiers_add('a' .. k, 1)
      t.held = t.held + 1
      advance(t)
    else
      redis.call('ZREM', qkey(q), head)
    end
    progress = true
  end
  return progress
end

-- Head-of-line: after the first waiter that does not fit, only those costing nothing pass.
local function pump_budget()
  local progress, blocked = false, false
  for _, id in ipairs(redis.call('ZRANGE', qkey('b'), 0, -1)) do
    local t = tget(id)
    if not t then
      redis.call('ZREM', qkey('b'), id)
    else
      local c = cost(t.conn, t.est)
      if c == 0 or (not blocked and fits(c)) then
        leave_queue(t)
        admit(t)
        progress = true
      else
        blocked = true
      end
    end
  end
  return progress
end

local function waiters()
  return qlen('1') + qlen('2') + qlen('3') + qlen('b')
end

-- Grants whatever the state allows until nothing moves: budget waiters first, then each tier from LARGE down.
local function settle()
  if CFG.paused then
    return
  end
  local progress = true
  while progress and waiters() > 0 do
    progress = pump_budget()
    for k = 3, 1, -1 do
      if pump(k) then
        progress = true
      end
    end
  end
end

-- ---- leases and timeouts ----

local function reap_instance(inst)
  for _, id in ipairs(redis.call('SMEMBERS', P .. 'it:' .. inst)) do
    local t = tget(id)
    if t then
      if t.state == 'W' then
        withdraw_waiting(t)
      else
        release_admitted(t, false)
      end
    end
  end
  -- Its server connections ended with it: their backends exit and give their memory back.
  for _, conn in ipairs(redis.call('SMEMBERS', P .. 'ic:' .. inst)) do
    conn_closed(conn)
  end
  redis.call('DEL', P .. 'it:' .. inst, P .. 'ic:' .. inst, P .. 'done:' .. inst)
  redis.call('ZREM', P .. 'leases', inst)
end

local function time_out()
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'dl', '-inf', s(NOW))) do
    local t = tget(id)
    if t and t.state == 'W' then
      local budget = t.q == 'b'
      local k = budget and t.held or tonumber(t.q)
      leave_queue(t)
      tiers_add('tt' .. k, 1)
      reject(t, 'T', k, budget and 1 or 0)
    else
      redis.call('ZREM', P .. 'dl', id)
    end
  end
end

local function reap()
  for _, inst in ipairs(redis.call('ZRANGEBYSCORE', P .. 'leases', '-inf', '(' .. s(NOW))) do
    reap_instance(inst)
  end
  time_out()
end

-- ---- the operations ----

-- A quiet function (a view, a console command, the settings) leaves the caller's decisions on its list for
-- its next other call: the instance waits for a quiet call's answer outside the order it handles the others
-- in, and a decision must reach it in Redis's order (it tells a lost waiter from a decided one that way).
local function run(keys, args, body, needs_cfg, quiet)
  P = keys[1]
  NOTIFY = {}
  NOW = now_ms()
  CFG = load_cfg()
  if needs_cfg and not CFG then
    return redis.error_reply('MEMOGATE_NOCONFIG the fleet has no gateway settings for ' .. P)
  end
  local inst = args[1]
  local lease = redis.call('ZSCORE', P .. 'leases', inst)
  local alive = lease and tonumber(lease) >= NOW
  if CFG then
    reap()
    settle()
  end
  redis.call('ZADD', P .. 'leases', s(NOW + tonumber(args[2])), inst)
  local result = body(inst, args)
  if CFG then
    settle()
  end
  for other, _ in pairs(NOTIFY) do
    if other ~= inst or quiet then
      redis.call('PUBLISH', P .. 'wake:' .. other, '1')
    end
  end
  local decisions = {}
  if not quiet then
    decisions = redis.call('LRANGE', P .. 'done:' .. inst, 0, -1)
    redis.call('DEL', P .. 'done:' .. inst)
  end
  return { (args[3] == '1' and not alive) and 1 or 0, result, decisions }
end

local function fn(name, body, needs_cfg, quiet)
  redis.register_function(name, function(keys, args)
    return run(keys, args, body, needs_cfg, quiet)
  end)
end

local function position(t)
  return t.q .. ' ' .. (redis.call('ZRANK', qkey(t.q), t.id) + 1)
end

-- args: id est conn [floor]. The result is where the ticket waits ("queue position"), '' when it was decided at
-- once (the decision is in the reply). An id already known is a retried call: nothing happens twice.
fn('mg_acquire', function(inst, args)
  local t = tget(args[4])
  if not t then
    t = { id = args[4], inst = inst, est = tonumber(args[5]), conn = args[6], held = 0, state = 'W', q = '',
          ws = nil, cgen = 0, need = 1, fl = math.min(3, tonumber(args[7] or '0') or 0) }
    advance(t)
  end
  if t.state == 'W' and t.q ~= '' then
    return position(t)
  end
  return ''
end, true)

-- args: id. Gives back what the ticket holds; a waiting one is withdrawn. The result is what the ledger now
-- counts its connection as retaining, '' for a ticket Redis does not know.
fn('mg_release', function(inst, args)
  local t = tget(args[4])
  if not t then
    return ''
  end
  if t.state == 'A' then
    release_admitted(t, CFG.retain)
  else
    withdraw_waiting(t)
  end
  return s(hnum(conn_key(t.conn), 'ret'))
end, true)

-- args: id. The instance withdrew it: a waiting ticket leaves its queue, and a grant it had not yet
-- delivered is undone (the statement never ran, so its connection retains nothing from it).
fn('mg_withdraw', function(inst, args)
  local t = tget(args[4])
  if not t then
    return 0
  end
  if t.state == 'W' then
    withdraw_waiting(t)
    return 1
  end
  release_admitted(t, false)
  return 2
end, true)

-- args: conn bytes
fn('mg_retained', function(inst, args)
  local r = row(args[4], inst)
  local before = counted(r)
  r.ret = tonumber(args[5])
  row_write(args[4], r, before)
  return 1
end, true)

-- args: conn
fn('mg_closed', function(inst, args)
  conn_closed(args[4])
  return 1
end, true)

-- args: target
fn('mg_target', function(inst, args)
  redis.call('HSET', P .. 'cfg', 'target', args[4])
  CFG.target = tonumber(args[4])
  return 1
end, true)

-- args: t0, then limit fraction maxQueue timeoutMs for SMALL, MEDIUM and LARGE, retain (1/0), target.
-- The fleet's settings are the last instance's to set them; paused survives.
fn('mg_configure', function(inst, args)
  local c = { 't0', args[4] }
  for k = 1, 3 do
    local base = 5 + (k - 1) * 4
    table.insert(c, 'lim' .. k); table.insert(c, args[base])
    table.insert(c, 'frac' .. k); table.insert(c, args[base + 1])
    table.insert(c, 'mq' .. k); table.insert(c, args[base + 2])
    table.insert(c, 'to' .. k); table.insert(c, args[base + 3])
  end
  table.insert(c, 'retain'); table.insert(c, args[17])
  table.insert(c, 'target'); table.insert(c, args[18])
  redis.call('HSET', P .. 'cfg', unpack(c))
  redis.call('HSETNX', P .. 'cfg', 'paused', '0')
  CFG = load_cfg()
  reap()
  return 1
end, false, true)

-- args: 1 pause, 0 resume. 1 when this call changed it.
fn('mg_pause', function(inst, args)
  local want = args[4] == '1'
  if CFG.paused == want then
    return 0
  end
  redis.call('HSET', P .. 'cfg', 'paused', args[4])
  CFG.paused = want
  return 1
end, true, true)

-- Whether the fleet is paused ('1'/'0'), how many instances hold a lease, then the instance's waiting
-- tickets, each "id queue position" (queue 1..3 or b); the call also renews its lease.
fn('mg_poll', function(inst, args)
  local out = { CFG.paused and '1' or '0', s(redis.call('ZCARD', P .. 'leases')) }
  for _, id in ipairs(redis.call('SMEMBERS', P .. 'it:' .. inst)) do
    local t = tget(id)
    if t and t.state == 'W' then
      table.insert(out, id .. ' ' .. position(t))
    end
  end
  return out
end, true)

-- args: n, then n tickets "id est conn held", then pairs "conn retained". What the instance holds, asserted
-- again after Redis lost it (restarted empty, failed over to a replica without the latest writes, reaped a
-- lease cut off from it) or never saw it (admitted by the instance's share while Redis was away). A ticket
-- Redis knows is left as it is, and a connection's row that exists keeps its figures, so asserting twice
-- changes nothing. The tiers count what is held even beyond their limits: new statements wait until enough
-- of it is released. The result is how many tickets were new to Redis.
fn('mg_assert', function(inst, args)
  local n = tonumber(args[4])
  for i = 5 + n * 4, #args - 1, 2 do
    if redis.call('EXISTS', conn_key(args[i])) == 0 then
      local r = row(args[i], inst)
      r.ret = tonumber(args[i + 1])
      row_write(args[i], r, 0)
    end
  end
  local added = 0
  for i = 0, n - 1 do
    local base = 5 + i * 4
    local id = args[base]
    if not tget(id) then
      local t = { id = id, inst = inst, est = tonumber(args[base + 1]), conn = args[base + 2],
                  held = tonumber(args[base + 3]), state = 'A', q = '', ws = nil, cgen = 0, need = 1 }
      for k = 1, t.held do
        tiers_add('a' .. k, 1)
        tiers_add('h' .. k, 1)
      end
      t.need = t.held
      t.cgen = charge(t)
      tsave(t)
      added = added + 1
    end
  end
  return added
end, true)

-- The instance leaves the fleet: everything it holds goes back at once, as when its lease expires.
fn('mg_leave', function(inst, args)
  reap_instance(inst)
  local holder = redis.call('GET', P .. 'broker:lease')
  if holder and string.sub(holder, 1, #inst + 1) == inst .. ' ' then
    redis.call('DEL', P .. 'broker:lease') -- another instance's broker takes over at its next poll
  end
  return 1
end, true)

-- Every instance holding a lease: {instance leaseMsLeft small medium large inFlightBytes waiting} each, the
-- permits counted for admitted and waiting tickets alike (a waiter holds the tiers below the one it waits for).
fn('mg_holders', function(inst, args)
  local out = {}
  local leases = redis.call('ZRANGE', P .. 'leases', 0, -1, 'WITHSCORES')
  for i = 1, #leases, 2 do
    local who = leases[i]
    local held, bytes, waiting = { 0, 0, 0 }, 0, 0
    for _, id in ipairs(redis.call('SMEMBERS', P .. 'it:' .. who)) do
      local t = tget(id)
      if t then
        for k = 1, t.held do
          held[k] = held[k] + 1
        end
        if t.state == 'A' then
          bytes = bytes + t.est
        else
          waiting = waiting + 1
        end
      end
    end
    for _, v in ipairs({ who, s(tonumber(leases[i + 1]) - NOW), s(held[1]), s(held[2]), s(held[3]), s(bytes),
                         s(waiting) }) do
      table.insert(out, v)
    end
  end
  return out
end, true, true)

-- The fleet's state for views: {paused target t0, then per tier limit active waiting fraction timeoutMs
-- admitted timeouts queueFull, then ledger total inFlight connections budgetWaiting, then per waiting
-- ticket queue position estimate connection waitedMs instance id}.
fn('mg_view', function(inst, args)
  local out = { CFG.paused and '1' or '0', s(CFG.target), s(CFG.t0) }
  local tiers = redis.call('HGETALL', P .. 'tiers')
  local tv = {}
  for i = 1, #tiers, 2 do
    tv[tiers[i]] = tiers[i + 1]
  end
  for k = 1, 3 do
    for _, v in ipairs({ s(CFG.lim[k]), tv['a' .. k] or '0', s(qlen(tostring(k))),
                         redis.call('HGET', P .. 'cfg', 'frac' .. k), s(CFG.to[k]), tv['at' .. k] or '0',
                         tv['tt' .. k] or '0', tv['qf' .. k] or '0' }) do
      table.insert(out, v)
    end
  end
  table.insert(out, s(hnum(P .. 'led', 'total')))
  table.insert(out, s(hnum(P .. 'led', 'ifb')))
  table.insert(out, s(redis.call('SCARD', P .. 'conns')))
  table.insert(out, s(qlen('b')))
  for _, q in ipairs({ '1', '2', '3', 'b' }) do
    for pos, id in ipairs(redis.call('ZRANGE', qkey(q), 0, -1)) do
      local t = tget(id)
      if t then
        for _, v in ipairs({ q, s(pos), s(t.est), t.conn, s(NOW - (t.ws or NOW)), t.inst, id }) do
          table.insert(out, v)
        end
      end
    end
  end
  return out
end, true, true)


--[[
One broker per server for the fleet. The instance holding broker:lease polls the server and publishes the
target; every other reads it. Each new holder gets the next epoch, and a publication is written only under
the epoch that holds the lease now, so a leader that lost it (paused past its lease, cut off) cannot
overwrite its successor's. These functions take KEYS[1] as the prefix and answer plain lists: they are not
gateway transitions and neither reap nor renew the gateways' leases.
]]

local function broker_lease(p)
  local v = redis.call('GET', p .. 'broker:lease')
  if not v then
    return nil, 0
  end
  local space = string.find(v, ' ', 1, true)
  return string.sub(v, 1, space - 1), tonumber(string.sub(v, space + 1))
end

-- args: inst leaseMs. Renews the lease for its holder, gives a free one to the caller under a new epoch
-- (SET NX PX), and answers {epoch, holder}.
redis.register_function('mgb_lead', function(keys, args)
  local p, inst, lease = keys[1], args[1], args[2]
  local holder, epoch = broker_lease(p)
  if holder == inst then
    redis.call('PEXPIRE', p .. 'broker:lease', lease)
    return { epoch, holder }
  end
  if holder then
    return { epoch, holder }
  end
  epoch = redis.call('INCR', p .. 'broker:epoch')
  redis.call('SET', p .. 'broker:lease', inst .. ' ' .. epoch, 'NX', 'PX', lease)
  return { epoch, inst }
end)

-- args: inst epoch target mode signals, then the planner settings as name value pairs. {1} when written,
-- {0} when the epoch no longer holds the lease.
redis.register_function('mgb_publish', function(keys, args)
  local p = keys[1]
  local holder, epoch = broker_lease(p)
  if holder ~= args[1] or epoch ~= tonumber(args[2]) then
    return { 0 }
  end
  redis.call('HSET', p .. 'broker:pub', 'leader', args[1], 'epoch', args[2], 'at', s(now_ms()), 'target', args[3],
    'mode', args[4], 'signals', args[5])
  redis.call('DEL', p .. 'broker:set')
  if #args > 5 then
    redis.call('HSET', p .. 'broker:set', unpack(args, 6))
  end
  return { 1 }
end)

-- {leader epoch ageMs target mode signals, then the planner settings as name value pairs}; {} before any.
redis.register_function{ function_name = 'mgb_read', flags = { 'no-writes' }, callback = function(keys, args)
  local p = keys[1]
  local pub = redis.call('HMGET', p .. 'broker:pub', 'leader', 'epoch', 'at', 'target', 'mode', 'signals')
  if not pub[1] then
    return {}
  end
  local out = { pub[1], pub[2], s(now_ms() - tonumber(pub[3])), pub[4], pub[5], pub[6] }
  for _, v in ipairs(redis.call('HGETALL', p .. 'broker:set')) do
    table.insert(out, v)
  end
  return out
end }
