#!/usr/bin/env python3
"""gen_meta.py: write README.md, truth.json and .correlatorignore into every sample_logs/captures10/cx-*/ job
folder, from the table below (written from the planted faults and the printed lines; the tool was not run)."""
import json, os

OUT = "sample_logs/captures10"
IGN = "README.md\ntruth.json\n.correlatorignore\n"


def truth(status, rank=None, node=None, all_ranks=False, kind=None, cat=None, fd=None, fd_rank=None,
          coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks, "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "ranks": r} for c, r in coll], "notes": notes}


JOBS = {
 "cx-filter0-val-recursion-r2": dict(
  launcher="`torchrun --standalone --nproc-per-node 3 --tee 3 --local-ranks-filter 0 cx_train.py --log-style kv --log-file 'logs/rank{rank}.log' --steps 12 --val-every 3 --pg-timeout 30 --fault val_recursion --fault-rank 2 --fault-step 6`",
  layout="`console.log` (the agent's stderr + local rank 0's tee'd output only: `--local-ranks-filter 0`; rank 0 logs to its file only, so the console holds c10d warnings and the agent's failure report) + `logs/rank{0,1,2}.log` (Python logging FileHandler per rank, format `%(asctime)s rank=%(rank)s lvl=%(levelname)s %(name)s: %(message)s`; an uncaught exception is logged there with `logger.exception`)",
  planted="rank 2's validation metrics dict references itself from step 6 on (a per-class breakdown pointing back to its parent); the recursive `flatten_metrics` in the validation step raises `RecursionError` on rank 2 only. Ranks 0, 1 are in the validation all-reduce when the agent SIGTERMs them.",
  happened="rank 2: `RecursionError: maximum recursion depth exceeded while calling a Python object` after its step-6 line (logs/rank2.log); the agent sends SIGTERM to ranks 0, 1 (`Signal 15 (SIGTERM) received by PID` in its table; no line of their own) and names rank 2 (exitcode 1) as Root Cause. Exit 1.",
  table="failed, rank 2, `code_exception`",
  truth=truth("failed", rank=2, kind="rank", cat="code_exception",
              fd="RecursionError: maximum recursion depth exceeded", fd_rank=2,
              coll=[("Signal 15 (SIGTERM) received by PID", [0, 1])],
              notes="rank 2's validation step recurses through a self-referencing metrics dict (user-code bug, rank 2 only); the console shows only local rank 0 (--local-ranks-filter 0), rank 2's traceback is in logs/rank2.log; ranks 0, 1 are SIGTERMed by the agent (its table), they print nothing.")),
 "cx-redirects1-short-shard-r1": dict(
  launcher="`torchrun --standalone --nproc-per-node 2 --log-dir logs --redirects 1 cx_train.py --log-style print --steps 12 --pg-timeout 20 --fault short_shard --fault-rank 1 --fault-step 4`",
  layout="`console.log` (agent + both workers' stderr, unprefixed; uncaught tracebacks carry torch's `[rankN]:` prefix) + `logs/<uuid>_<rand>/attempt_0/{0,1}/stdout.log` (`--redirects 1`: only stdout redirected; the progress prints)",
  planted="rank 1's data shard holds 4 batches instead of 12 (`shard rank1: 4 batches`); rank 1 finishes its epoch and enters the final `dist.barrier()` while rank 0 is in step 5's gradient all-reduce; 20 s process-group timeout.",
  happened="rank 1 prints `epoch 0 done after 4 batches, waiting for peers`; 20 s later both ranks raise `Timed out waiting 20000ms for recv operation to complete` (rank 0 in backward, rank 1 in barrier); the agent SIGTERMs rank 1 and names rank 0 as Root Cause. Exit 1.",
  table="failed, rank 1, `data_error`",
  truth=truth("failed", rank=1, kind="rank", cat="data_error", fd="shard rank1: 4 batches", fd_rank=1,
              coll=[("Timed out waiting 20000ms for recv operation to complete", [0])],
              notes="rank 1's shard is short (4 of 12 batches): it leaves the loop early and waits in the final barrier, rank 0 waits in step 5's all-reduce; both time out after 20 s (rank 1's own timeout is its echo). First deviating line: rank 1's INFO-like 'shard rank1: 4 batches' (stdout.log), rank 0 prints 'shard rank0: 12 batches'. The agent's table calls rank 0 the Root Cause. nccl_timeout_hang arguable.")),
 "cx-jsonlog-bcast-size-r1": dict(
  launcher="`torchrun --standalone --nproc-per-node 3 --tee 3 cx_train.py --log-style json --steps 8 --pg-timeout 30 --fault bcast_size --fault-rank 1`",
  layout="one `console.log`: agent + `[defaultN]:`-prefixed copies of every worker's stdout/stderr; workers log one JSON object per line (`{\"@timestamp\", \"severity\", \"rank\", \"logger\", \"event\"}`, structlog-style keys; structlog itself is not installed here)",
  planted="rank 1's cached config gives a class table of 8 entries, ranks 0, 2 have 12; rank 0 broadcasts its 12-entry float table at start: rank 1 receives 48 bytes into a 32-byte buffer.",
  happened="rank 1: `terminate called after throwing an instance of 'gloo::EnforceNotMet'` / `op.preamble.length <= op.nbytes. 48 vs 32. Received data size doesn't match expected size. Is there a distributed collective mismatch in your code?` (SIGABRT, exitcode -6); ranks 0, 2 `Read error ... Connection reset by peer` in the first backward; agent names rank 1 as Root Cause. Exit 1.",
  table="failed, rank 1, `collective_mismatch`",
  truth=truth("failed", rank=1, kind="rank", cat="collective_mismatch",
              fd="Received data size doesn't match expected size", fd_rank=1,
              coll=[("Connection reset by peer", [0, 2])],
              notes="stale per-rank config on rank 1: the broadcast's sizes differ (12 vs 8 floats), gloo's enforce aborts rank 1; ranks 0, 2 Connection reset by peer. rank 1's earlier JSON event 'syncing class table from rank 0 (local size 8)' deviates too (info level). config_error arguable.")),
 "cx-pipe-tee-bracket-nan-r2": dict(
  launcher="`torchrun --standalone --nproc-per-node 3 cx_train.py --log-style bracket --steps 14 --pg-timeout 30 --fault nan --fault-rank 2 --fault-step 7 2>&1 | tee train.log`",
  layout="one `train.log` (the console as tee wrote it: agent lines, workers' `[asctime][rank R/W][LEVEL] msg` lines unprefixed, uncaught tracebacks with `[rankN]:`)",
  planted="an inf in rank 2's input batch at step 7: rank 2's loss is nan, its finite-loss check raises `FloatingPointError` before the backward; ranks 0, 1 are left in DDP's gradient all-reduce.",
  happened="rank 2 `FloatingPointError: rank 2: non-finite loss nan at step 7`; ranks 0, 1 `Connection closed by peer`; agent table Root Cause rank 2. Exit 1.",
  table="failed, rank 2, `nan_divergence`",
  truth=truth("failed", rank=2, kind="rank", cat="nan_divergence",
              fd="FloatingPointError: rank 2: non-finite loss nan at step 7", fd_rank=2,
              coll=[("Connection closed by peer", [0, 1])],
              notes="inf in rank 2's step-7 batch; rank 2 detects the nan loss first (before any all-reduce) and raises; ranks 0, 1 Connection closed by peer.")),
 "cx-restart2-truncated-ckpt-all": dict(
  launcher="`torchrun --nnodes 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29941 --max-restarts 2 --log-dir logs --redirects 3 cx_train.py --log-style print --steps 12 --pg-timeout 30 --attempt-store --resume ckpt/step_0006.pt`",
  layout="`launcher.log` (agent only, no tee) + `logs/none_<rand>/attempt_{0,1,2}/{0,1}/{stdout,stderr}.log`",
  planted="the resume checkpoint `ckpt/step_0006.pt` (a complete torch.save of step 6, written by the script) truncated to 1500 bytes before the launch (a copy interrupted mid-write); every rank loads it after init_process_group.",
  happened="on each of the 3 attempts both ranks print `resuming from ckpt/step_0006.pt` and raise `RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory ...`; the agent restarts twice, then gives up (`failed (exitcode: 1) local_rank: 0` three times, final table). Exit 1.",
  table="failed, all ranks, `storage_io`",
  truth=truth("failed", all_ranks=True, kind="all_ranks", cat="storage_io",
              fd="PytorchStreamReader failed reading zip archive: failed finding central directory", fd_rank=None,
              notes="truncated resume checkpoint: every rank fails in torch.load, on all three attempts (--max-restarts 2 cannot help). data_error arguable; storage_io as a corrupt file on disk.")),
 "cx-restart2-transient-recovers": dict(
  launcher="`torchrun --nnodes 1 --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29942 --max-restarts 2 --tee 3 cx_train.py --log-style kv --log-file 'logs/rank{rank}.log' --also-stderr --steps 8 --sleep 0.2 --pg-timeout 30 --attempt-store --warnings --fault transient --fault-rank 1 --fault-step 4`",
  layout="`console.log` (agent + `[defaultN]:` copies) + `logs/rank{0,1,2}.log` (per-rank kv-format files, appended across attempts)",
  planted="attempt 0: rank 1 raises `TimeoutError: fetching shard part-00001.bin from object store: read timed out after 5.0 s` at step 4 (a remote-store flake; only when TORCHELASTIC_RESTART_COUNT is 0); plus WARNINGs on every rank (`gradient clipping disabled`, `found 3 stale lock files`).",
  happened="attempt 0: rank 1's TimeoutError (logged at ERROR with traceback), ranks 0, 2 `Connection closed by peer` tracebacks, agent `failed (exitcode: 1)` and restart; attempt 1 runs steps 1-8 and `training done` on all ranks. Exit 0.",
  table="healthy (recovered by restart)",
  truth=truth("healthy", notes="attempt 0 failed (rank 1 TimeoutError fetching a shard, peers Connection closed by peer); torchrun restarted the group and attempt 1 completed, exit 0. The tracebacks and warnings are distractors.")),
 "cx-spawn-tee-sigterm-pgrp": dict(
  launcher="`setsid python cx_train.py --spawn 3 --log-style bracket --steps 200 --sleep 0.2 --pg-timeout 30 --fault sigterm_handler 2>&1 | tee console.log` (torch.multiprocessing.spawn, 3 processes; tee outside the job's process group); the capture script plays the scheduler: `kill -TERM -- -<pgid>` after 12 s",
  layout="one `console.log` (spawn parent + the 3 workers' `[asctime][rank R/W][LEVEL] msg` lines on stdout)",
  planted="a healthy 200-step run; after 12 s SIGTERM to the job's whole process group (as a scheduler's preemption/cancel does). Workers have a SIGTERM handler that logs and exits 143.",
  happened="around step 42 all three ranks log `caught signal 15 (SIGTERM), writing emergency state and exiting`; the spawn parent dies of the SIGTERM silently; the log ends. Pipeline exit 0 (tee's).",
  table="failed, external, `killed_by_scheduler`",
  truth=truth("failed", kind="external", cat="killed_by_scheduler",
              fd="caught signal 15 (SIGTERM), writing emergency state and exiting", fd_rank=None,
              notes="healthy mp.spawn job SIGTERMed from outside (the job's process group, as a scheduler cancel/preemption); every rank logs its handler's line in the same instant; no rank at fault.")),
 "cx-pl-csv-oomkill-r1": dict(
  launcher="`python cx_pl.py --devices 2 --epochs 6` (Lightning `Trainer(strategy=DDPStrategy(process_group_backend='gloo'), devices=2)`, Lightning starts rank 1 itself)",
  layout="`console.log` (both processes' stdout+stderr: Lightning banners, model summary, `rank R pid P step N loss` prints every 4 steps, tracebacks with `[rankN]:`) + `csv_logs/tiny/version_0/metrics.csv` (CSVLogger)",
  planted="once rank 1 prints its step-16 line, its process (pid from the line) is SIGKILLed from outside, as the kernel OOM killer does; nothing printed by the victim.",
  happened="rank 1 vanishes after `rank 1 pid ... step 16 loss ...`; rank 0 `RuntimeError: ... Connection closed by peer ...`; the process exits 1. metrics.csv stops at epoch 1.",
  table="failed, rank 1, `oom`",
  truth=truth("failed", rank=1, kind="rank", cat="oom", fd=None, fd_rank=1,
              coll=[("Connection closed by peer", [0])],
              notes="rank 1 SIGKILLed from outside mid-step (OOM-killer simulation): no line records the kill (Lightning prints nothing for the dead child), rank 1's output just stops after its step-16 print; rank 0 Connection closed by peer. oom as the corpus's OOM-killer SIGKILLs (d-ray-train-worker-sigkill); other arguable.")),
 "cx-acc-config-ckpt-rofs-r0": dict(
  launcher="`accelerate launch --config_file acc_config.yaml cx_acc.py --epochs 2 --ckpt-dir ckpt --ckpt-every 5` (config: MULTI_GPU entry = accelerate's torchrun path, 2 processes, static rdzv 127.0.0.1:29951; `Accelerator(cpu=True)` -> MULTI_CPU/gloo)",
  layout="one `console.log` (the launcher's torchrun agent + both processes; accelerate `get_logger` lines `%(asctime)s | %(levelname)-8s | %(name)s | [RANK R] msg`, main process only unless asked; tracebacks with `[rankN]:`)",
  planted="`ckpt/` is a read-only bind mount (a shared volume mounted ro); only the main process (rank 0) writes the checkpoint (`save_model` at step 5), rank 1 waits in `wait_for_everyone()`.",
  happened="rank 0 `OSError: [Errno 30] Read-only file system: 'ckpt/step_5'`; rank 1 `Connection closed by peer` in the barrier; agent SIGTERMs rank 1, Root Cause rank 0. Exit 1.",
  table="failed, rank 0, `storage_io`",
  truth=truth("failed", rank=0, kind="rank", cat="storage_io",
              fd="OSError: [Errno 30] Read-only file system: 'ckpt/step_5'", fd_rank=0,
              coll=[("Connection closed by peer", [1])],
              notes="checkpoint directory on a read-only file system; only rank 0 writes: EROFS on rank 0, rank 1 Connection closed by peer in wait_for_everyone().")),
 "cx-hf-trainer-state-healthy": dict(
  launcher="`torchrun --standalone --nproc-per-node 2 cx_hf.py > train.log 2>&1` (transformers.Trainer, `use_cpu=True`, `ddp_backend='gloo'`, `logging_steps=2`, `save_steps=6`, transformers verbosity INFO)",
  layout="`train.log` (agent + both ranks unprefixed, Trainer's `{'loss': ...}` dicts, transformers INFO on both ranks) + `out/trainer_state.json` and `out/checkpoint-12/trainer_state.json` (log_history every 2 steps)",
  planted="none. Alarming but harmless: the `MISSING ... newly initialized` report for the classifier head (tiny BERT saved without it), DeepSpeed's `Setting accelerator to CPU` warning, DDP's `find_unused_parameters=True ... did not find any unused parameters` warning, c10d hostname warnings.",
  happened="12 steps, checkpoint-12, eval; exit 0.",
  table="healthy",
  truth=truth("healthy", notes="healthy HF Trainer run on gloo: newly-initialized-weights report, DDP and accelerator warnings; trainer_state.json written; exit 0.")),
 "cx-2node-c10d-stale-port-node1": dict(
  launcher="bash wrapper (`cx-2node-c10d-stale-port-node1.sh`) starting two torchrun agents = two 'nodes' on this machine: `LOGLEVEL=INFO torchrun --nnodes 2 --node-rank <n> --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint $MASTER_ADDR:$MASTER_PORT --rdzv-id cxjob7 --rdzv-conf join_timeout=25 --tee 3 cx_train.py ...`, each node sourcing its own `node-<n>.env`",
  layout="`node-0/console.log`, `node-1/console.log` (each agent's INFO log: launch configs, `Rendezvous'ing worker group`, traceback; no worker ever started)",
  planted="node 1's env file is stale: `MASTER_PORT=29962` instead of 29961. Each agent hosts/waits on its own c10d store; neither sees a second node.",
  happened="both agents log their launch configs (node 0 `rdzv_endpoint : 127.0.0.1:29961`, node 1 `127.0.0.1:29962`), wait 25 s, and raise `torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError`. Exit 1 / 1. The agents' default log_dir `/tmp/torchelastic_<rand>` is printed as is.",
  table="failed, node node-1, `rendezvous`",
  truth=truth("failed", node="node-1", kind="rank", cat="rendezvous",
              fd="rdzv_endpoint            : 127.0.0.1:29962", fd_rank=None,
              notes="node-1 uses a stale MASTER_PORT (29962, node-0 serves 29961): both nodes time out in the rendezvous with identical RendezvousTimeoutError tracebacks; the only difference is node-1's rdzv_endpoint in its launch-config INFO lines. No rank was ever assigned, so no collateral ranks; node-0's timeout is the consequence. config_error arguable.")),
 "cx-ray-optdep-all": dict(
  launcher="`python cx_ray.py --workers 2 --temp-dir r --attn flash` (Ray Train `TorchTrainer`, `TorchConfig(backend='gloo', timeout_s=30)`, `ray.init(address='local', _temp_dir=r)`, HOME = scratch dir, `RAY_USAGE_STATS_ENABLED=0`)",
  layout="`console.log` (driver; worker and controller lines prefixed `(RayTrainWorker pid=N)` / `(TrainController pid=N)` with ANSI colour codes) + `r/session_<ts>/logs/worker-*.{out,err}` + `r/session_<ts>/logs/train/ray-train-{app,sys}-*.log`; workers log `%(asctime)s %(levelname)s [wR] msg`",
  planted="the run config selects `attn=flash`; the optional `flash_attn` package is not installed: every worker raises `ModuleNotFoundError` while building the model.",
  happened="both workers `ModuleNotFoundError: No module named 'flash_attn'`; the controller reports `Training failed due to worker errors` with Rank 0's snippet; driver `ray.train.WorkerGroupError`, exit 1.",
  table="failed, all ranks, `config_error`",
  truth=truth("failed", all_ranks=True, kind="all_ranks", cat="config_error",
              fd="ModuleNotFoundError: No module named 'flash_attn'", fd_rank=None,
              notes="optional dependency selected by the config but not installed: every worker fails alike at model build (as import-error-all-ranks: config_error, all ranks). version_mismatch arguable.")),
}

for name, j in JOBS.items():
    d = os.path.join(OUT, name)
    assert os.path.isdir(d), d
    files = sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs
                   if f not in ("README.md", "truth.json", ".correlatorignore"))
    ex = "; ".join(f"{os.path.basename(f).split('.',1)[1]}={open(f).read().strip()}"
                   for f in sorted(__import__('glob').glob(f"/home/user/jobs10/{name}/exit_code.*")))
    flist = "\n".join(f"* `{f}`" for f in files) if len(files) <= 20 else \
        "\n".join(f"* `{f}`" for f in files[:20]) + f"\n* ... ({len(files)} files in all)"
    readme = f"""# {name}

Captured for real on this machine on 2026-12-05 (CPU only, gloo; Python 3.11.7, torch 2.13.0+cpu), scratch dir
`/home/user/jobs10/{name}/`, under `nice`, in a private network namespace (loopback only) and mount namespace
(`unshare -n -m`, `_capture_cx/common.sh`). Log files copied out unchanged (`_capture_cx/collect.py`, layout kept).

* **Launcher:** {j['launcher']}
* **Layout:** {j['layout']}
* **Planted:** {j['planted']}
* **What happened:** {j['happened']}
* **Exit codes:** {ex}
* **Truth:** {j['table']} (see `truth.json`; written from the planted fault and the printed lines, without running the tool)

Files:
{flist}

Rerun: `sample_logs/captures10/_capture_cx/{name}.sh` (as root), then
`python3 sample_logs/captures10/_capture_cx/collect.py {name} <globs of _capture_cx/collect_all.sh>`.
Pids, ports, time stamps and random dir names differ on a rerun.
"""
    open(os.path.join(d, "README.md"), "w").write(readme)
    json.dump(j["truth"], open(os.path.join(d, "truth.json"), "w"), indent=2)
    open(os.path.join(d, "truth.json"), "a").write("\n")
    open(os.path.join(d, ".correlatorignore"), "w").write(IGN)
    print(name, "ok")
