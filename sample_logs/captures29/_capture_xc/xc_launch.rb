#!/usr/bin/env ruby
# xc_launch.rb JOBSPEC.json -- CMD...: the site's Ruby job launcher. Starts one env:// rank per slot with
# Open3.popen2e (stdout+stderr merged), each rank inside its own cgroup-v1 memory cgroup
# /sys/fs/cgroup/memory/<job>/rank<R> (limit from the job spec), relays every output line into one Logger file
# (default Logger format, progname rank<R>), and logs the launcher's own events (progname launcher). When a rank
# fails it waits `grace` seconds for the others, then TERMs them. Exit status 1 if any rank failed.
require "json"
require "logger"
require "open3"

spec = JSON.parse(File.read(ARGV[0]))
cmd = ARGV[(ARGV.index("--") || 0) + 1..]
log = Logger.new(spec.fetch("log", "job.log"))
nproc, job = spec.fetch("nproc"), spec.fetch("job")
cg = "/sys/fs/cgroup/memory/#{job}"
log.info("launcher") { "job #{job}: #{nproc} ranks, master 127.0.0.1:#{spec['port']}, memory limit #{spec['mem_limit']} per rank, ruby #{RUBY_VERSION}" }
ranks = (0...nproc).map do |r|
  dir = "#{cg}/rank#{r}"
  Dir.mkdir(cg) unless Dir.exist?(cg)
  Dir.mkdir(dir) unless Dir.exist?(dir)
  File.write("#{dir}/memory.limit_in_bytes", spec["mem_limit"])
  env = { "RANK" => r.to_s, "LOCAL_RANK" => r.to_s, "WORLD_SIZE" => nproc.to_s, "MASTER_ADDR" => "127.0.0.1",
          "MASTER_PORT" => spec["port"].to_s }
  stdin, out, th = Open3.popen2e(env, "sh", "-c", "echo $$ > #{dir}/cgroup.procs && exec \"$@\"", "rank#{r}", *cmd)
  stdin.close
  log.info("launcher") { "rank #{r} started, pid #{th.pid}, cgroup #{job}/rank#{r}" }
  reader = Thread.new { out.each_line { |l| log.info("rank#{r}") { l.chomp } } }
  { rank: r, th: th, reader: reader, dir: dir }
end
failed = nil
left = ranks.dup
until left.empty?
  done = left.find { |x| !x[:th].alive? }
  if done.nil?
    if failed && Time.now - failed > spec.fetch("grace", 10)
      left.each { |x| log.warn("launcher") { "rank #{x[:rank]} still running #{spec['grace']}s after the failure, sending TERM" }; Process.kill("TERM", x[:th].pid) rescue nil }
      failed = Time.now + 3600
    end
    sleep 0.2
    next
  end
  left.delete(done)
  done[:reader].join
  st = done[:th].value
  oom = File.read("#{done[:dir]}/memory.oom_control")[/oom_kill (\d+)/, 1].to_i
  peak = File.read("#{done[:dir]}/memory.max_usage_in_bytes").to_i / 1048576
  if st.success?
    log.info("launcher") { "rank #{done[:rank]} exited 0 (peak #{peak} MiB)" }
  else
    log.error("launcher") { "rank #{done[:rank]} failed: #{st.inspect}; cgroup #{job}/rank#{done[:rank]}: oom_kill #{oom}, peak #{peak} MiB" }
    failed ||= Time.now
  end
end
bad = ranks.reject { |x| x[:th].value.success? }.map { |x| x[:rank] }
log.info("launcher") { bad.empty? ? "job #{job} finished: all ranks exited 0" : "job #{job} failed: ranks #{bad.join(',')} did not exit 0" }
ranks.each { |x| Dir.rmdir(x[:dir]) rescue nil }
Dir.rmdir(cg) rescue nil
exit(bad.empty? ? 0 : 1)
