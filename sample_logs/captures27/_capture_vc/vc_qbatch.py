"""vc_qbatch.py: a single-host batch runner in the style of Grid Engine (the site's "qbatch"): `submit` takes a job
script with `#$ -N name`, `#$ -l h_rt=SECONDS` and `#$ -cwd` directives, assigns a job number from spool/jobseq,
runs the script with bash in its own session with stdout in `<name>.o<jobid>` and stderr in `<name>.e<jobid>`, and
enforces h_rt: at the limit it logs to spool/messages and runs the terminate method (SIGTERM to the job's process
group, SIGKILL 10 s later). spool/messages uses execd's `MM/DD/YYYY HH:MM:SS|daemon|host|L|text` records; one
accounting line per job in spool/accounting."""
import os, re, signal, socket, sys, time
spool = "spool"; os.makedirs(spool, exist_ok=True)
host = socket.gethostname()


def msg(level, text):
    with open(f"{spool}/messages", "a") as f:
        f.write(f"{time.strftime('%m/%d/%Y %H:%M:%S')}|execd|{host}|{level}|{text}\n")


script = sys.argv[2]
body = open(script).read()
name = (re.search(r"^#\$ -N (\S+)", body, re.M) or [None, os.path.basename(script)])[1]
h_rt = int((re.search(r"^#\$ -l h_rt=(\d+)", body, re.M) or [None, "0"])[1])
seqf = f"{spool}/jobseq"
jid = int(open(seqf).read()) + 1 if os.path.exists(seqf) else 4711
open(seqf, "w").write(str(jid))
print(f'Your job {jid} ("{name}") has been submitted', flush=True)
out = os.open(f"{name}.o{jid}", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
err = os.open(f"{name}.e{jid}", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
env = dict(os.environ, JOB_ID=str(jid), JOB_NAME=name, HOSTNAME=host, NSLOTS=os.environ.get("NSLOTS", "1"))
start = time.time()
pid = os.fork()
if pid == 0:
    os.setsid(); os.dup2(out, 1); os.dup2(err, 2); os.execvpe("bash", ["bash", script], env)
msg("I", f"job {jid}.1 started (pid {pid}, h_rt {h_rt})")
state, killed = None, None
while state is None:
    p, st = os.waitpid(pid, os.WNOHANG)
    if p:
        state = st; break
    el = time.time() - start
    if h_rt and el > h_rt and killed is None:
        msg("W", f"job {jid}.1 exceeded hard wallclock time - initiate terminate method")
        os.killpg(pid, signal.SIGTERM); killed = time.time()
    elif killed and time.time() - killed > 10:
        msg("W", f"job {jid}.1 still running after terminate method, sending SIGKILL")
        os.killpg(pid, signal.SIGKILL); killed = float("inf")
    time.sleep(0.5)
code = os.waitstatus_to_exitcode(state)
msg("I", f"job {jid}.1 finished: exit_status {code if code >= 0 else 128 - code}, wallclock {time.time() - start:.0f}s")
with open(f"{spool}/accounting", "a") as f:
    f.write(f"all.q:{host}:users:root:{name}:{jid}:sge:0:{int(start)}:{int(start)}:{int(time.time())}:"
            f"{0 if code == 0 else 100}:{code if code >= 0 else 128 - code}:{time.time() - start:.0f}\n")
