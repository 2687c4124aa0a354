-- xc_launch.lua JOBTABLE -- CMD ARGS...: the site's Lua launcher (Lua 5.3 + luaposix). The job table (a Lua file
-- returning {nproc=, port=, ranks={[r]={prestart=...}}}) may give a rank a prestart hook (a shell command) that must
-- succeed before that rank starts; the launcher runs hooks itself and reports hooks still running every 10 s. Each
-- rank: fork + pipe, env:// variables, stdout+stderr to out/rank<R>.log. Launcher records (UTC stamp, pid) go to
-- launch.log. When a rank fails, the ranks still running are sent SIGTERM after `grace` seconds.
local P = require("posix")
local unistd, wait, signal, poll, stdlib = require("posix.unistd"), require("posix.sys.wait"), require("posix.signal"),
  require("posix.poll"), require("posix.stdlib")
local time = require("posix.time")

local spec = dofile(arg[1])
local cmd = {}
for i = 3, #arg do cmd[#cmd + 1] = arg[i] end
local lf = assert(io.open(spec.log or "launch.log", "a"))
local mypid = unistd.getpid()
local function now() local t = time.clock_gettime(time.CLOCK_REALTIME); return t.tv_sec + t.tv_nsec / 1e9 end
local t0 = now()
local function log(fmt, ...)
  local t = now()
  lf:write(string.format("%s.%03dZ launch.lua[%d] %s\n", os.date("!%Y-%m-%dT%H:%M:%S", math.floor(t)),
    math.floor((t % 1) * 1000), mypid, string.format(fmt, ...)))
  lf:flush()
end

local ranks, byfd, bypid = {}, {}, {}
local function start_rank(r)
  local rd, wr = unistd.pipe()
  local pid = unistd.fork()
  if pid == 0 then
    unistd.close(rd); unistd.dup2(wr, 1); unistd.dup2(wr, 2)
    stdlib.setenv("RANK", tostring(r)); stdlib.setenv("LOCAL_RANK", tostring(r))
    stdlib.setenv("WORLD_SIZE", tostring(spec.nproc)); stdlib.setenv("MASTER_ADDR", "127.0.0.1")
    stdlib.setenv("MASTER_PORT", tostring(spec.port))
    unistd.execp(cmd[1], { table.unpack(cmd, 2) })
    os.exit(127)
  end
  unistd.close(wr)
  local x = ranks[r]
  x.state, x.pid, x.fd, x.out = "running", pid, rd, assert(io.open(string.format("out/rank%d.log", r), "w"))
  byfd[rd], bypid[pid] = x, x
  log("rank %d started: pid %d, output out/rank%d.log", r, pid, r)
end

log("job start: %d ranks, MASTER_PORT %d, %s", spec.nproc, spec.port, _VERSION)
for r = 0, spec.nproc - 1 do
  local rs = (spec.ranks or {})[r] or {}
  ranks[r] = { rank = r }
  if rs.prestart then
    local pid = unistd.fork()
    if pid == 0 then unistd.execp("sh", { "-c", rs.prestart }); os.exit(127) end
    ranks[r].state, ranks[r].hookpid, ranks[r].hookt = "prestart", pid, now()
    bypid[pid] = ranks[r]
    log("rank %d: prestart hook pid %d: %s", r, pid, rs.prestart)
  end
end
for r = 0, spec.nproc - 1 do if ranks[r].state == nil then start_rank(r) end end

local failed_at, termed, lastnote = nil, false, {}
while true do
  local fds, n = {}, 0
  for fd in pairs(byfd) do fds[fd] = { events = { IN = true } }; n = n + 1 end
  local live = 0
  for r = 0, spec.nproc - 1 do if ranks[r].state == "running" or ranks[r].state == "prestart" then live = live + 1 end end
  if live == 0 and n == 0 then break end
  if n > 0 then poll.poll(fds, 500) else time.nanosleep({ tv_sec = 0, tv_nsec = 500000000 }) end
  for fd, f in pairs(fds) do
    if f.revents and (f.revents.IN or f.revents.HUP) then
      local data = unistd.read(fd, 65536)
      local x = byfd[fd]
      if data and #data > 0 then x.out:write(data); x.out:flush()
      else unistd.close(fd); x.out:close(); byfd[fd] = nil end
    end
  end
  while true do
    local pid, how, st = wait.wait(-1, wait.WNOHANG)
    if not pid or pid == 0 then break end
    local x = bypid[pid]; bypid[pid] = nil
    if x and x.state == "prestart" and pid == x.hookpid then
      if how == "exited" and st == 0 then
        log("rank %d: prestart hook done after %.1fs", x.rank, now() - x.hookt)
        start_rank(x.rank)
      else
        log("rank %d: prestart hook failed (%s %d), rank not started", x.rank, how, st); x.state = "failed"
        failed_at = failed_at or now()
      end
    elseif x then
      x.state = (how == "exited" and st == 0) and "done" or "failed"
      if x.state == "done" then log("rank %d (pid %d) exited 0", x.rank, pid)
      else
        log("rank %d (pid %d) %s %d", x.rank, pid, how, st); failed_at = failed_at or now()
      end
    end
  end
  for r = 0, spec.nproc - 1 do
    local x = ranks[r]
    if x.state == "prestart" then
      local el = math.floor(now() - x.hookt)
      if el >= 10 and el % 10 == 0 and lastnote[r] ~= el then
        lastnote[r] = el; log("rank %d: prestart hook still running after %ds, rank not started yet", r, el)
      end
    end
  end
  if failed_at and not termed and now() - failed_at > (spec.grace or 10) then
    termed = true
    for r = 0, spec.nproc - 1 do
      local x = ranks[r]
      if x.state == "running" then log("rank %d (pid %d) still running, SIGTERM", r, x.pid); signal.kill(x.pid, signal.SIGTERM) end
    end
  end
end
local bad = {}
for r = 0, spec.nproc - 1 do if ranks[r].state ~= "done" then bad[#bad + 1] = tostring(r) end end
log("job end after %.1fs: %s", now() - t0, #bad == 0 and "all ranks exited 0" or ("failed ranks " .. table.concat(bad, ",")))
os.exit(#bad == 0 and 0 or 1)
