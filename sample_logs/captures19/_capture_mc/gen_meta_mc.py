#!/usr/bin/env python3
"""gen_meta_mc.py: write README.md, truth.json, .correlatorignore into each roundK mc-* folder and README-mc.md."""
import json, os
from jobs_meta_mc import ENV, JOBS

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
    ini = t["initiating"]
    tr = (f"{t['status']}; initiating kind `{ini['kind']}`, rank {ini['rank']}, node {ini['node']}, all_ranks "
          f"{ini['all_ranks']}; category `{t['root_cause']['category']}`")
    files = sorted(os.path.relpath(os.path.join(r, x), d) for r, _, fs in os.walk(d) for x in fs
                   if x not in ("README.md", "truth.json", ".correlatorignore"))
    txt = f"""# {name}

Captured for real on this machine on 2026-12-06 (collector `mc`, round K): {ENV}. The job ran from
`_capture_mc/{name}.sh` in the scratch dir `/home/user/jobsK/{name}/` with `/home/user/venv`, under `nice` and a
`timeout`, in a private network namespace (loopback only, no resolver) and mount namespace (`unshare -n -m`,
`_capture_mc/common.sh`, adapted from the round-J lc harness). Log files copied out byte for byte with
`_capture_mc/collect.py` (layout kept); no line edited, nothing masked, paths such as `/home/user/jobsK/...` left as
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
`bash _capture_mc/{name}.sh && bash _capture_mc/collect_all.sh && python3 _capture_mc/gen_meta_mc.py` (new pids,
ports, times; the truth strings name pids/ports of this capture).
"""
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(txt)
    cat = t["root_cause"]["category"] or ""
    who = f"node {ini['node']}" if ini["node"] else (f"rank {ini['rank']}" if ini["rank"] is not None else ini["kind"])
    rows.append(f"| {name} | {m['source']} | {t['status']} / {cat} ({who}) |" if cat else
                f"| {name} | {m['source']} | {t['status']} |")
with open(os.path.join(OUT, "README-mc.md"), "w") as f:
    f.write(f"""# Collector `mc` (round K, 2026-12-06): {len(JOBS)} real multi-process jobs captured on this machine

All jobs were run for real on host `vm` (2 cores, CPU only, torch 2.13.0+cpu with gloo, `/home/user/venv`), one at a
time, each in private network + mount namespaces (`unshare -n -m`, loopback only) under `nice` and a `timeout`,
scratch dirs `/home/user/jobsK/<name>/`. Multi-node jobs ran their "nodes" as extra UTS + mount (+ PID) namespaces
with their own host names and one loopback address per node. Environment: {ENV}.

Scripts: `_capture_mc/` (`common.sh`, one `mc-*.sh` per job; job programs `mc_spawn_jsonl.py`, `mc_fabric_rich.py`,
`mc_hf_eval.py`, `mc_elastic.py`, `mc_ray_actors.py`, `mc_envtrain.py`, `mc_elastic_api.py` + `mc_resume_worker.py`,
`mc_mpi_nan.py`, `mc_mp_queue.py`, `mc_dl_train.py`, `mc_pl_jsonarg.py`; data makers `mc_make_files.py`,
`mc_make_text_jsonl.py`, `mc_make_resume.py`, `mc_make_npy_shards.py`; `run_all.sh`; `collect.py` / `collect_all.sh`
copy the logs byte for byte, `gen_meta_mc.py` + `jobs_meta_mc.py` write README.md / truth.json / .correlatorignore).
No log line was edited or masked. Truth strings checked with
`python3 sample_logs/_capture/check_truths.py sample_logs/captures19` (ALL OK).

| folder | launcher / layout | status / category (initiator) |
|---|---|---|
""" + "\n".join(rows) + """

## Notes

* Each folder's README.md gives the exact command, the layout, what was planted, what happened, exit codes and the
  judgement calls; truths come from what was injected and what each process printed. The collector did not run the
  correlation tool nor read its code or scores.
* Only log files were copied (no data, configs, checkpoints, `prep.txt` data-maker output, `exit_code.*` files or the
  harness's `inject.txt` / `cgroup_rank1.txt` notes); they stay in `/home/user/jobsK/<name>/`.
* Discarded attempts (nothing of them kept in the batch):
  - mc-accelerate-multigpu-mainport-hftrainer-evaluate-label-r1: first run logged each dataset's label set on every
    rank (`labels [0, 1, 2, 3, 4]`), exposing the bad label on both ranks before the crash; the log line was changed
    to a record count in `mc_hf_eval.py` and the job rerun.
  - mc-healthy-elastic13-three-uts-nodes-node-sigkill-rejoin2: (1) without hosts entries for the node names the
    workers could not resolve `node-a01` and the `timeout` could not stop the PID-namespace init; the run hung and
    I killed my own processes by pid; (2) with endpoint 127.0.0.1 and all nodes on 127.0.0.1 every agent hosted its
    own store and each node trained alone. Fixed with `--kill-child`, a hosts file with one loopback address per node
    and endpoint `node-a01`; the third run is the capture.
  - mc-ray-actors-gloo-manual-allreduce-f64-override-r1: first run failed before Ray started (AF_UNIX socket path
    over 107 bytes with the temp dir under the job dir; moved to /tmp/raymc); the second run's script ended with
    `ray stop --force` (kills Ray processes by name), removed; the third run is the capture.
  - mc-lightning-ddp-jsonargparse-cfg-stagein-wait-timeout-r2: the first run had no PID namespace; after ranks 0
    and 1 failed, Lightning left rank 2 orphaned, polling and still appending to console.log (I killed it by pid);
    rerun with `unshare -p --fork --kill-child` so leftover ranks die with rank 0's process.
* Exit codes that hide the failure are kept as they were (the `xargs ... | sed` fan-out exits 0, the nohup launch
  script's bare `wait` exits 0); they are not part of the logs.
""")
print("wrote", len(JOBS), "folders + README-mc.md")
