#!/usr/bin/env python3
"""gen_meta_pc.py: write README.md, truth.json, .correlatorignore into each roundN pc-* folder and README-pc.md."""
import json, os
from jobs_meta_pc import ENV, JOBS

H = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(H)
rows = []
for name, m in JOBS.items():
    d = os.path.join(OUT, name)
    t = m["truth"]
    with open(os.path.join(d, "truth.json"), "w") as f:
        json.dump(t, f, indent=2, ensure_ascii=False); f.write("\n")
    with open(os.path.join(d, ".correlatorignore"), "w") as f:
        f.write("README.md\ntruth.json\n.correlatorignore\n")
    ini = t["initiating"] or {"kind": None, "rank": None, "node": None, "all_ranks": None}
    cat = (t["root_cause"] or {}).get("category")
    tr = (f"{t['status']}; initiating kind `{ini['kind']}`, rank {ini['rank']}, node {ini['node']}, all_ranks "
          f"{ini['all_ranks']}; category `{cat}`") if t["initiating"] else f"{t['status']} (initiating, root_cause, first_deviating null)"
    files = sorted(os.path.relpath(os.path.join(r, x), d) for r, _, fs in os.walk(d) for x in fs
                   if x not in ("README.md", "truth.json", ".correlatorignore"))
    txt = f"""# {name}

Captured for real on this machine on 2026-12-06 (collector `pc`, round N): {ENV}. The job ran from
`_capture_pc/{name}.sh` in the scratch dir `/home/user/jobsN/{name}/` with `/home/user/venv`, under `nice` and a
`timeout`, in a private network namespace (loopback only, no resolver) and mount namespace (`unshare -n -m`,
`_capture_pc/common.sh`, adapted from the round-M oc harness). Log files copied out byte for byte with
`_capture_pc/collect.py` (layout kept); no line edited, nothing masked, paths such as `/home/user/jobsN/...` left as
printed.

**Truth:** {tr}.

## Source / command
{m['source']}: {m['cmd']}

## Layout
{m['layout']}

Files: {', '.join('`' + x + '`' for x in files)}

## What was planted
{m['planted']}

## What happened
{m['happened']}

## Exit codes
{m['exits']}

## Judgement calls
{m['judgement']}

Truth notes: {t['notes']}

## Rerun
`bash _capture_pc/{name}.sh && bash _capture_pc/collect_all.sh && python3 _capture_pc/gen_meta_pc.py` (new pids,
ports, times; some truth strings name pids/ports of this capture).
"""
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(txt)
    cat = cat or ""
    who = f"node {ini['node']}" if ini["node"] else (f"rank {ini['rank']}" if ini["rank"] is not None else ini["kind"])
    rows.append(f"| {name} | {m['source']} | {t['status']} / {cat} ({who}) |" if cat else
                f"| {name} | {m['source']} | {t['status']} |")
with open(os.path.join(OUT, "README-pc.md"), "w") as f:
    f.write(f"""# Collector `pc` (round N, 2026-12-06): {len(JOBS)} real multi-process jobs captured on this machine

All jobs were run for real on host `vm` (2 cores, CPU only, torch 2.13.0+cpu with gloo, `/home/user/venv`), one at a
time, each in private network + mount namespaces (`unshare -n -m`, loopback only) under `nice` and a `timeout`,
scratch dirs `/home/user/jobsN/<name>/`. The two-node jobs ran their "nodes" as extra UTS + mount namespaces with
their own host names and one loopback address per node in a shared hosts file. Launchers and layouts not used by
earlier batches: a site Makefile target running torchrun (make's own command echo and `make: *** ... Error` line),
per-rank JSON files from `logging.config.dictConfig` with a rank filter next to the torchrun console plus
faulthandler thread dumps on SIGTERM, `nohup torchrun ... &` started from an interactive shell (a pty from
util-linux `script`) on two nodes so each node keeps its own `nohup.out`, a node-local memory watchdog's log, torchrun
`--max-restarts 1` with per-rank append-mode files and a tmp reaper's log, a bash job wrapper with `set -x` appending
its xtrace and torchrun's output to `logs/run-<jobid>.log`, `accelerate launch` with an FSDP config file on a CPU
host, and a console snapshot copied off a still-running job. Environment: {ENV}.

Scripts: `_capture_pc/` (`common.sh`, one `pc-*.sh` per job; job program `pc_train.py` (DDP MLP over JSONL shards,
dictConfig logging with a rank filter; flags for the prefetch thread, the hard-batch feature cache, checkpoints,
faulthandler), data maker `pc_make_data.py`, accelerate program `pc_acc_fsdp.py` with `fsdp_cpu.yaml` /
`fsdp_cpu_sync.yaml`, `Makefile.pc`, `memwatch.sh`; `run_all.sh`; `collect.py` / `collect_all.sh` copy the
logs byte for byte, `gen_meta_pc.py` + `jobs_meta_pc.py` write README.md / truth.json / .correlatorignore).
No log line was edited or masked. Truth strings checked with
`python3 ../_capture/check_truths.py captures22` (ALL OK).

| folder | launcher / layout | status / category (initiator) |
|---|---|---|
""" + "\n".join(rows) + """

## Notes

* Each folder's README.md gives the exact command, the layout, what was planted, what happened, exit codes and the
  judgement calls; truths come from what was injected and what each process printed. The collector did not run the
  correlation tool nor read its code or scores.
* Only log files were copied (no data, Makefile, job.env, pid files, the harness's `launch.txt`, `tty.txt`,
  `exit_code.*`); they stay in `/home/user/jobsN/<name>/`.
* The scratch dir name (= folder name) appears in paths inside the logs, as in earlier batches.
* `pc_train.py` was extended between jobs (prefetch thread reworked, faulthandler flag, hard-batch cache); the make job
  and the lock-inversion job ran earlier revisions, so line numbers in their tracebacks differ from the file here; the
  exact copies each job ran are in its scratch dir `/home/user/jobsN/<name>/pc_train.py`.
* Discarded attempts (nothing of them kept in the batch): the lock-inversion job's first version (stats lock taken
  every 50 refills, no sleep under the queue lock) never deadlocked and finished; the first nohup two-node try lost
  the agents (the pty closed before nohup ran: no nohup.out) and the watchdog script was not copied. The tmpfs
  checkpoint job ran four times under other scratch names before the kept run: (1) a 1000 KiB stale file left room,
  no failure; (2) 1020 KiB, reaper at 20 s: the restart's step-50 save failed again a few ms before the reaper;
  (3) reaper at 15 s: the restarted workers failed at once in `Gloo connectFullMesh ... Connection refused`;
  (4) the restart recovered and the run finished. The kept run (neutral scratch name, same settings as 3 and 4) is
  the fifth. A two-node job with a slow stage-in prologue on one node was dropped: the static rendezvous simply
  waited for the late node and the run finished. The accelerate FSDP config was tried twice by hand in `/tmp/pcfsdp`
  (12 steps) before the two accelerate captures.
* Judgement calls worth a second look: the lock-inversion job's category `nccl_timeout_hang` with a first deviating
  line taken from the faulthandler dump (no rank prefix there); the watchdog job's `oom` (a watchdog kill, not the
  kernel's); the tmpfs job's restart stall and outer-timeout SIGTERM counted as consequences of rank 0's failed save.
""")
print("wrote", len(JOBS), "folders + README-pc.md")
