// yc_launch.rs: a small Rust launcher (std only). yc_launch NPROC PORT MEMLIMIT -- CMD...: for every rank create a
// cgroup-v1 memory cgroup /sys/fs/cgroup/memory/yc_job/rank<R> with MEMLIMIT bytes, spawn CMD with RANK /
// WORLD_SIZE / LOCAL_RANK / MASTER_ADDR / MASTER_PORT set, the child joining its cgroup before exec, stdout and stderr
// into ranks/<R>/stdout and ranks/<R>/stderr. Reap the ranks, log every exit (and the cgroup's oom_kill count) to
// launcher.log; after the first failure give the others GRACE seconds, then SIGTERM them.
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const GRACE: u64 = 20;

fn stamp(t0: Instant) -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    format!("{}.{:03} +{:.3}s", now.as_secs(), now.subsec_millis(), t0.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let nproc: usize = args[1].parse().unwrap();
    let port = args[2].clone();
    let mem: u64 = args[3].parse().unwrap();
    let cmd: Vec<String> = args[5..].to_vec();
    let t0 = Instant::now();
    let mut log = OpenOptions::new().create(true).append(true).open("launcher.log").unwrap();
    macro_rules! say { ($($a:tt)*) => {{ let l = format!("[yc_launch {}] {}", stamp(t0), format!($($a)*));
        writeln!(log, "{}", l).unwrap(); log.flush().unwrap(); }} }
    say!("job: {} ranks, master 127.0.0.1:{}, memory limit {} bytes per rank, cmd {:?}", nproc, port, mem, cmd);
    let base = "/sys/fs/cgroup/memory/yc_job";
    let mut kids: Vec<(usize, Child)> = Vec::new();
    for r in 0..nproc {
        let cg = format!("{}/rank{}", base, r);
        fs::create_dir_all(&cg).unwrap();
        fs::write(format!("{}/memory.limit_in_bytes", cg), mem.to_string()).unwrap();
        fs::create_dir_all(format!("ranks/{}", r)).unwrap();
        let out = File::create(format!("ranks/{}/stdout", r)).unwrap();
        let err = File::create(format!("ranks/{}/stderr", r)).unwrap();
        let procs = format!("{}/cgroup.procs", cg);
        let mut c = Command::new(&cmd[0]);
        c.args(&cmd[1..]).env("RANK", r.to_string()).env("LOCAL_RANK", r.to_string())
            .env("WORLD_SIZE", nproc.to_string()).env("MASTER_ADDR", "127.0.0.1").env("MASTER_PORT", &port)
            .stdin(Stdio::null()).stdout(Stdio::from(out)).stderr(Stdio::from(err));
        unsafe {
            c.pre_exec(move || { fs::write(&procs, "0")?; Ok(()) });
        }
        let child = c.spawn().expect("spawn");
        say!("rank {} started: pid {}, cgroup {}", r, child.id(), cg);
        kids.push((r, child));
    }
    let mut failed_at: Option<Instant> = None;
    let mut worst = 0;
    while !kids.is_empty() {
        let mut i = 0;
        while i < kids.len() {
            let (r, ref mut ch) = kids[i];
            if let Some(st) = ch.try_wait().unwrap() {
                let oom = fs::read_to_string(format!("{}/rank{}/memory.oom_control", base, r)).unwrap_or_default();
                let oom_kill = oom.lines().find(|l| l.starts_with("oom_kill ")).unwrap_or("oom_kill ?").to_string();
                let maxu = fs::read_to_string(format!("{}/rank{}/memory.max_usage_in_bytes", base, r)).unwrap_or_default();
                say!("rank {} (pid {}) {}; cgroup {}, max_usage_in_bytes {}", r, ch.id(), st, oom_kill, maxu.trim());
                if !st.success() {
                    if failed_at.is_none() { failed_at = Some(Instant::now()); }
                    worst = st.code().unwrap_or(128 + st.signal().unwrap_or(0));
                }
                kids.remove(i);
            } else { i += 1; }
        }
        if let Some(t) = failed_at {
            if t.elapsed() > Duration::from_secs(GRACE) && !kids.is_empty() {
                for (r, ch) in kids.iter() {
                    say!("grace period of {}s over, sending SIGTERM to rank {} (pid {})", GRACE, r, ch.id());
                    unsafe { libc_kill(ch.id() as i32, 15); }
                }
                failed_at = Some(Instant::now() + Duration::from_secs(3600));
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    for r in 0..nproc { let _ = fs::remove_dir(format!("{}/rank{}", base, r)); }
    let _ = fs::remove_dir(base);
    say!("job finished, exit code {}", worst);
    std::process::exit(worst);
}

extern "C" { #[link_name = "kill"] fn libc_kill(pid: i32, sig: i32) -> i32; }
