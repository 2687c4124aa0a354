#!/usr/bin/env python3
"""gen_meta_qc.py: write README.md, truth.json, .correlatorignore into each roundO qc-* folder and README-qc.md."""
import json, os
from jobs_meta_qc import ENV, JOBS

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

Captured for real on this machine on 2026-12-06 (collector `qc`, round O): {ENV}. The job ran from
`_capture_qc/{name}.sh` in the scratch dir `/home/user/jobsO/{name}/` with `/home/user/venv`, under `nice` and a
`timeout`, in a private network namespace (loopback only, no resolver) and mount namespace (`unshare -n -m`,
`_capture_qc/common.sh`, adapted from the round-N pc harness). Log files copied out byte for byte with
`_capture_qc/collect.py` (layout kept); no line edited, nothing masked, paths such as `/home/user/jobsO/...` left as
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
`bash _capture_qc/{name}.sh && bash _capture_qc/collect_all.sh && python3 _capture_qc/gen_meta_qc.py` (new pids,
ports, times; some truth strings name pids/ports of this capture).
"""
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(txt)
    cat = cat or ""
    who = f"node {ini['node']}" if ini["node"] else (f"rank {ini['rank']}" if ini["rank"] is not None else ini["kind"])
    rows.append(f"| {name} | {m['source']} | {t['status']} / {cat} ({who}) |" if cat else
                f"| {name} | {m['source']} | {t['status']} |")
with open(os.path.join(OUT, "README-qc.md"), "w") as f:
    f.write(f"""# Collector `qc` (round O, 2026-12-06): {len(JOBS)} real multi-process jobs captured on this machine

All jobs were run for real on host `vm` (2 cores, CPU only, torch 2.13.0+cpu with gloo, `/home/user/venv`), one at a
time, each in private network + mount namespaces (`unshare -n -m`, loopback only; harness adapted from round N's
`_capture_pc/`) under `nice` and a `timeout`, scratch dirs `/home/user/jobsO/<name>/`. Launchers and layouts not used
by earlier batches: a Python `subprocess.Popen` launcher with `stdbuf -oL` and one `[host:rank]`-prefixing reader
thread per child; `torch.multiprocessing.start_processes` with the `forkserver` start method and a logging
`QueueListener` writing one combined file; a `concurrent.futures.ThreadPoolExecutor` launcher with size-based
`RotatingFileHandler` rank files (`rank0.log.1`); a Hydra multirun sweep whose jobs run torchrun (per-job Hydra log
and torchrun log); torchrun with a site stall watchdog's log; `setsid -f` detached ranks writing JSON-per-line files
(snapshot of a running job); a tmux session with one window per rank captured by `pipe-pane`; a bash `wait -n -p`
launcher with `sed -u` rank prefixes; a Popen launcher that collects stderr only after the fact; Lightning's
subprocess launcher with per-rank validation files; torchrun with FileHandler rank logs rotated mid-run by logrotate
`copytruncate` and a walltime guard; DeepSpeed's per-node `deepspeed.launcher.launch` module called directly.
Environment: {ENV}.

Scripts: `_capture_qc/` (`common.sh`, one `qc-*.sh` per job; job programs `qc_train.py` (DDP MLP on synthetic
per-rank data, logging layouts and site conditions by flags), `qc_pl_eval.py` (Lightning), `qc_ds_train.py`
(DeepSpeed), `qc_hydra_sweep.py` + `conf/sweep.yaml` (Hydra); launchers `qc_popen_launch.py`, `qc_forkserver_ql.py`,
`qc_pool_launch.py`, `qc_pipe_launch.py`; `stallwatch.sh`; `run_all.sh`; `collect.py` / `collect_all.sh` copy the logs
byte for byte, `gen_meta_qc.py` + `jobs_meta_qc.py` write README.md / truth.json / .correlatorignore). No log line was
edited or masked. Truth strings checked with
`python3 ../_capture/check_truths.py .` (ALL OK).

| folder | launcher / layout | status / category (initiator) |
|---|---|---|
""" + "\n".join(rows) + """

## Notes

* Each folder's README.md gives the exact command, the layout, what was planted, what happened, exit codes and the
  judgement calls; truths come from what was injected and what each process printed. The collector did not run the
  correlation tool nor read its code or scores.
* Only log files were copied (no data, configs, metrics csv files, pid files, `exit_code.*`); they stay in
  `/home/user/jobsO/<name>/`.
* Short process-group timeouts where a failure needed one to show: 30 s (Popen class-count job, threadpool job, tmux
  job, bash `wait -n` job, forkserver job, Lightning job), 20 s (stderr-pipe job), 60 s elsewhere.
* `qc_train.py` gained flags between jobs (NaN-row warnings, `file:` logging, the `--qc-log` alias because torchrun's
  argument parser treats a bare `--log` after the script as an ambiguous abbreviation of its own options); line
  numbers in earlier jobs' tracebacks differ from the final file; each job's exact copy is in its scratch dir.
* Discarded attempts (nothing kept): the threadpool job's first run with maxBytes 6000 never rotated (rerun with
  1500); the logrotate job's first run failed at once in torchrun's argument parsing (`ambiguous option: --log`).
  logrotate 3.21 was installed with apt-get for the logrotate job.
* Judgement calls worth a second look: the stall-watchdog and stderr-pipe jobs are hangs outside any collective
  labelled `nccl_timeout_hang` (alternative `other`); the forkserver checkpoint race is `storage_io` (alternative
  `code_exception`); the Lightning job's initiator rank 2 is inferred from its local tensor size (gloo's abort line
  names only a pid).
""")
print("wrote", len(JOBS), "folders + README-qc.md")
