#!/usr/bin/env python3
"""gen_meta_nc.py: write README.md, truth.json, .correlatorignore into each roundM oc-* folder and README-oc.md."""
import json, os
from jobs_meta_oc import ENV, JOBS

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

Captured for real on this machine on 2026-12-06 (collector `oc`, round M): {ENV}. The job ran from
`_capture_oc/{name}.sh` in the scratch dir `/home/user/jobsM/{name}/` with `/home/user/venv`, under `nice` and a
`timeout`, in a private network namespace (loopback only, no resolver) and mount namespace (`unshare -n -m`,
`_capture_oc/common.sh`, adapted from the round-L nc harness). Log files copied out byte for byte with
`_capture_oc/collect.py` (layout kept); no line edited, nothing masked, paths such as `/home/user/jobsM/...` left as
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
`bash _capture_oc/{name}.sh && bash _capture_oc/collect_all.sh && python3 _capture_oc/gen_meta_oc.py` (new pids,
ports, times; some truth strings name pids/ports of this capture).
"""
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(txt)
    cat = cat or ""
    who = f"node {ini['node']}" if ini["node"] else (f"rank {ini['rank']}" if ini["rank"] is not None else ini["kind"])
    rows.append(f"| {name} | {m['source']} | {t['status']} / {cat} ({who}) |" if cat else
                f"| {name} | {m['source']} | {t['status']} |")
with open(os.path.join(OUT, "README-oc.md"), "w") as f:
    f.write(f"""# Collector `oc` (round M, 2026-12-06): {len(JOBS)} real multi-process jobs captured on this machine

All jobs were run for real on host `vm` (2 cores, CPU only, torch 2.13.0+cpu with gloo, `/home/user/venv`), one at a
time, each in private network + mount namespaces (`unshare -n -m`, loopback only) under `nice` and a `timeout`,
scratch dirs `/home/user/jobsM/<name>/`. The two-node job ran its "nodes" as extra UTS + mount namespaces with their
own host names, one loopback address per node in a shared hosts file, and one cgroup-v1 cpu group for the degraded
node. Launchers and layouts not used by earlier batches: honcho Procfile, GNU parallel `--results` tree, supervisord
programs, pytest with torch's MultiProcessTestCase, a home-grown asyncio launcher, per-rank TimedRotatingFileHandler
files on two nodes, CSV-only worker metrics, Debian `start-stop-daemon`, a Ctrl-C to a Lightning job's process
group, a ProcessPoolExecutor launcher, a GNU screen logfile, pdsh `-R exec` (plain and through `dshbak -c`); jobs
include torch.distributed.rpc (TensorPipe), torch.distributed.pipelining, FSDP2 `fully_shard`, DTensor / 2-D
DeviceMesh with tensor parallelism, DCP, TORCH_DISTRIBUTED_DEBUG=DETAIL and a ctypes native helper. Environment:
{ENV}.

Scripts: `_capture_oc/` (`common.sh`, one `oc-*.sh` per job; job programs `oc_rpc_ps.py`, `oc_pipe_stages.py`,
`oc_fsdp2.py`, `oc_test_sharded_embedding.py` + `oc_shardutil.py`, `oc_asyncio_launch.py` + `oc_ctypes_train.py` +
`oc_fused_gather.c`, `oc_2node_rot.py`, `oc_csv_train.py`, `oc_earlystop.py`, `oc_pl_ctrlc.py`, `oc_pool_launch.py` +
`oc_pool_rank.py`, `oc_ddp_detail.py`, `oc_tp2d.py`; data makers `oc_make_rpc_data.py`, `oc_make_pipe_data.py`,
`oc_make_items.py`, `oc_make_pool_shards.py`, `oc_make_head_init.py`; `run_all.sh`; `collect.py` / `collect_all.sh`
copy the logs byte for byte, `gen_meta_oc.py` + `jobs_meta_oc.py` write README.md / truth.json / .correlatorignore).
No log line was edited or masked. Truth strings checked with `python3 ../_capture/check_truths.py
captures21` (ALL OK).

| folder | launcher / layout | status / category (initiator) |
|---|---|---|
""" + "\n".join(rows) + """

## Notes

* Each folder's README.md gives the exact command, the layout, what was planted, what happened, exit codes and the
  judgement calls; truths come from what was injected and what each process printed. The collector did not run the
  correlation tool nor read its code or scores.
* Only log files were copied (no data, configs, checkpoints, pid files, the harness's `launch.txt` / `watcher.txt` /
  `exit_code.*` files, parallel's `seq` files, supervisord's stdout copy of its log); they stay in
  `/home/user/jobsM/<name>/`.
* Judgement calls worth a second look: the Ctrl-C job is kind `external` with category `killed_by_scheduler` (no
  user-interrupt category exists); the screen job's all-ranks segfault (a torch 2.13.0+cpu crash when
  TORCH_DISTRIBUTED_DEBUG=DETAIL meets DDP) is category `other`; the two-node job's initiator is node cn-q2 (rank
  null), its first deviating line a slow-step line of rank 2.
* Discarded attempts (nothing of them kept in the batch):
  - oc-parallel-results-tree-pipelining-gpipe-3stage-label-oob-r2: the first run (3200 rows, 40 steps, bad label at
    row 1478 = step 23) failed within 0.4 s of training; rerun with 8000 rows, 120 steps and the bad label in step 87.
  - oc-2node-uts-timedrotating-rankfiles-cgroup-cpu-throttle-eval-timeout-cn-q2: the first run cut cn-q2's quota to
    1.5 % 30 s after the start (step ~265, 4096-sample eval, 400 steps); every step then took 3-6 s but no collective
    reached the 20 s timeout, and the harness's `timeout -s TERM 170` ended both agents (SignalException). Rerun with the
    cut tied to step 190, a 3 % quota, an 8192-sample eval and 300 steps.
  - oc-startstopdaemon-pidfiles-detail-earlystop-allgather-vs-allreduce-r2: the first try gave start-stop-daemon
    relative `--pidfile` / `--output` paths and no rank started (`--output file needs to be an absolute filename`);
    the second ran but every rank died silently right after `init done` (the program then wrapped the model in DDP,
    and DDP's constructor segfaults under TORCH_DISTRIBUTED_DEBUG=DETAIL on this build, reproduced outside the
    harness); the program was changed to average gradients by hand (one all_reduce per parameter) and rerun. The
    segfault became the separate screen job, with PYTHONFAULTHANDLER=1.
  - oc-lightning-ddp-subprocess-tqdm-ctrl-c-pgrp-sigint-ext: the first run started the job in the background of a
    non-interactive shell, where SIGINT is ignored, so the Ctrl-C did nothing and the fit ran to the end; rerun with
    job control on (`set -m`) and slower steps.
  - oc-inconclusive-processpool-launcher-rankfiles-logs-stop: the first run put the ragged shard 3rd (the deadlock came
    after step 25, one step line per rank); rerun with it 5th and a step line every 10 steps.
  - before the harness runs, the FSDP2 size mismatch, the pytest file, the DETAIL mismatch and the 2-D TP program were
    tried once each by hand in /tmp scratch dirs (same programs; the clip_grad_norm_ failure was found that way).
* Exit codes that hide the failure are kept as they were (the two-node wrapper shell, supervisord, pdsh and the
  start-stop-daemon launcher exit 0); they are not part of the logs.
""")
print("wrote", len(JOBS), "folders + README-oc.md")
