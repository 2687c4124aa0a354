#!/usr/bin/env python3
"""gen_meta_nc.py: write README.md, truth.json, .correlatorignore into each roundL nc-* folder and README-nc.md."""
import json, os
from jobs_meta_nc import ENV, JOBS

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

Captured for real on this machine on 2026-12-06 (collector `nc`, round L): {ENV}. The job ran from
`_capture_nc/{name}.sh` in the scratch dir `/home/user/jobsL/{name}/` with `/home/user/venv`, under `nice` and a
`timeout`, in a private network namespace (loopback only, no resolver) and mount namespace (`unshare -n -m`,
`_capture_nc/common.sh`, adapted from the round-K mc harness). Log files copied out byte for byte with
`_capture_nc/collect.py` (layout kept); no line edited, nothing masked, paths such as `/home/user/jobsL/...` left as
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
`bash _capture_nc/{name}.sh && bash _capture_nc/collect_all.sh && python3 _capture_nc/gen_meta_nc.py` (new pids,
ports, times; the truth strings name pids/ports of this capture).
"""
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(txt)
    cat = t["root_cause"]["category"] or ""
    who = f"node {ini['node']}" if ini["node"] else (f"rank {ini['rank']}" if ini["rank"] is not None else ini["kind"])
    rows.append(f"| {name} | {m['source']} | {t['status']} / {cat} ({who}) |" if cat else
                f"| {name} | {m['source']} | {t['status']} |")
with open(os.path.join(OUT, "README-nc.md"), "w") as f:
    f.write(f"""# Collector `nc` (round L, 2026-12-06): {len(JOBS)} real multi-process jobs captured on this machine

All jobs were run for real on host `vm` (2 cores, CPU only, torch 2.13.0+cpu with gloo, `/home/user/venv`), one at a
time, each in private network + mount namespaces (`unshare -n -m`, loopback only) under `nice` and a `timeout`,
scratch dirs `/home/user/jobsL/<name>/`. Two-node jobs ran their "nodes" as extra UTS + mount namespaces with their
own host names, one loopback address per node in a shared hosts file, and a per-node image manifest. Environment:
{ENV}.

Scripts: `_capture_nc/` (`common.sh`, `nc_2node_common.sh`, one `nc-*.sh` per job; job programs `nc_twohead.py`,
`nc_valstraggler.py`, `nc_spawn_rotating.py`, `nc_acc_gradaccum.py`, `nc_pl_slow.py`, `nc_2node.py`,
`nc_fsdp_cfg.py`; data maker `nc_make_feats.py`; `run_all.sh`; `collect.py` / `collect_all.sh` copy the logs byte for
byte, `gen_meta_nc.py` + `jobs_meta_nc.py` write README.md / truth.json / .correlatorignore). No log line was edited or
masked. Truth strings checked with `python3 sample_logs/_capture/check_truths.py
sample_logs/captures20` (ALL OK).

| folder | launcher / layout | status / category (initiator) |
|---|---|---|
""" + "\n".join(rows) + """

## Notes

* Each folder's README.md gives the exact command, the layout, what was planted, what happened, exit codes and the
  judgement calls; truths come from what was injected and what each process printed. The collector did not run the
  correlation tool nor read its code or scores.
* Only log files were copied (no data, configs, checkpoints, manifests, the two-node harness's `launch.txt` with the
  agents' exit codes, `prep.txt` or `exit_code.*` files); they stay in `/home/user/jobsL/<name>/`.
* Discarded attempts (nothing of them kept in the batch):
  - nc-healthy-accelerate-multicpu-gradaccum4-final-metrics-json: the first run (then named
    `nc-healthy-accelerate-cpu-gradaccum-flag-final-metrics`) passed `--gradient_accumulation_steps 4` to
    `accelerate launch` (which only exports it for DeepSpeed) and created `Accelerator()` without `cpu=True`, so on
    this GPU-less host both processes ran as independent single processes (`DistributedType.NO`, accumulation 1).
    The script was changed to `Accelerator(cpu=True, gradient_accumulation_steps=4)`, the flag dropped, the job
    renamed and rerun.
  - nc-spawn-rotatingfilehandler-rankfiles-inf-feature-nan-guard-r1: the first run used maxBytes 6000 and the rank
    files never rotated; lowered to 2500 and rerun.
  - nc-lightning-ddp-subprocess-ckpt-every50-timeout-sigterm-ext: the first run used `timeout -s TERM 45` without a
    kill-after and without a PID namespace; after the SIGTERM both ranks stayed alive (> 75 s) until the harness's
    outer `timeout -s KILL 120` ended the shell, and I killed the three leftover processes by pid. Rerun with
    `timeout -s TERM -k 30 45` as the init of a PID namespace; in the rerun the ranks ended ~4 s after the SIGTERM.
  - a healthy `torchrun --max-restarts 1` job whose rank 1 read a half-staged shard in attempt 0 and should recover in
    attempt 1 was tried three times and dropped (no folder): twice (with `--standalone`, and with an explicit c10d
    endpoint) the restarted workers failed in gloo `connectFullMesh` (`Connection refused` to a peer address), once
    the restart came before the stage-in copy had finished and failed like attempt 0. Its scripts are not in
    `_capture_nc/`.
* Exit codes that hide the failure are kept as they were (the two-node wrapper shell exits 0 although both agents
  exit 1); they are not part of the logs.
""")
print("wrote", len(JOBS), "folders + README-nc.md")
