#!/usr/bin/env python3
"""gen_meta.py [OUT]: write README.md, truth.json and .correlatorignore of every s-* incident under OUT
(default ./captures7). The truths are written from the injections (META below) and were checked
by hand against the captured lines; the 'Files' section of each README is computed from the logs."""
import json, os, re, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "captures7"
VERS = "Python 3.11.7, torch 2.13.0+cpu (gloo)"
ENV = ("Run in the scratch dir `/home/user/jobs/<name>/` with the scripts of `../_capture_s/` copied there, inside a "
       "private network namespace with only loopback up and a private mount namespace (`_capture_s/capture.sh <name>`; "
       "`python`, `torchrun`, `accelerate` from `/home/user/venv`, under `nice`, `PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1`). "
       "Log files copied unchanged by `_capture_s/collect.py` (layout kept; the only rewrite is this machine's "
       "interpreter path, as `sample_logs/_capture/neutral_paths.py` does; no path of this machine left).")


def T(status, kind, rank, node, all_ranks, cat, fd, fd_rank, coll, notes):
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks, "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "ranks": r} for c, r in coll], "notes": notes}


H = None  # healthy: initiating all null
META = {
    "s-spawn-logfiles-segv": dict(
        launcher="`torch.multiprocessing.spawn`, 3 processes (`s_train.py --spawn 3`)",
        layout="`console.log` (the parent: spawn's report only) + `logs/worker-{0,1,2}.log` (each process logs only to its own file, custom format `%H:%M:%S.ms|SpawnProcess-N|rR|L| msg`; `faulthandler.enable()` into that file)",
        injected="rank 1 calls a stand-in 'native extension' (`fused_layernorm_ext`, ctypes `string_at(0)`) at step 7: a real SIGSEGV in that process.",
        cmd="MASTER_ADDR=127.0.0.1 MASTER_PORT=29801 python s_train.py --spawn 3 --log-style custom --log-file 'logs/worker-{rank}.log' --faulthandler --fault segv --fault-rank 1 --fault-step 7 --pg-timeout 30 > console.log 2>&1",
        exits="parent 1",
        happened="Ranks 0 and 2 log steps 1-6 and stop (SIGTERMed by spawn, no line). Rank 1 logs `step 7: switching to fused layernorm kernel ...`, then faulthandler writes `Fatal Python error: Segmentation fault` with the Python stack (`line ... in fused_layernorm_ext`) and the extension-module list into `logs/worker-1.log`. The console holds three c10d hostname warnings, spawn's `Terminating process ... via signal SIGTERM` lines and `ProcessExitedException: process 1 terminated with signal SIGSEGV`.",
        hard="No per-rank prefix anywhere; the rank is in the file name, the `rN` field and spawn's `process 1`; the peers print nothing at all about the failure.",
        truth=T("failed", "rank", 1, None, False, "other", "Fatal Python error: Segmentation fault", 1, [],
                "rank 1 segfaults in a native call (faulthandler dump in its own log file); ranks 0, 2 are SIGTERMed by mp.spawn without a line. other, as the corpus's segfault (detail-ddp-segfault-all-ranks); code_exception arguable (a bug in the project's extension)."),
    ),
    "s-static-2node-env-node1": dict(
        launcher="two torchrun agents = two nodes, `--rdzv-backend static --node-rank {0,1}`, 2 workers each, no `--tee`",
        layout="`node-0/console.log`, `node-1/console.log` (each agent's stdout+stderr with its workers' unprefixed output)",
        injected="node-1's environment exports `TRAIN_HIDDEN_DIM=48` (left over from another experiment); the trainer takes its hidden width from that variable (default 32), so ranks 2 and 3 build a wider model.",
        cmd="torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend static --master-addr 127.0.0.1 --master-port 29802 --node-rank {r} ../s_train.py --steps 15 --pg-timeout 30 > console.log 2>&1   # in node-{r}/, node-1 started 2 s later with TRAIN_HIDDEN_DIM=48 exported",
        exits="node-0 1, node-1 1",
        happened="Both node-1 ranks log `starting: ... hidden=48` and fail in `DistributedDataParallel.__init__` (`_verify_param_shape_across_processes`): `RuntimeError: [2]: params[0] in this process with sizes [48, 16] appears not to match sizes of the same param in process 0.` (rank 3 alike). Node-0's ranks 0 and 1 fail in DDP's `_broadcast_coalesced` with gloo `Connection closed by peer`. Each agent prints its own ChildFailedError table: node-0's Root Cause is one of its own ranks (rank 0 in the kept capture), node-1's is rank 2.",
        hard="Two consoles, each with a Root Cause; node-0's table blames a victim; the cause (an env var) is only visible as `hidden=48` in node-1's start lines.",
        truth=T("failed", "rank", None, "node-1", False, "config_error",
                "params[0] in this process with sizes [48, 16] appears not to match sizes of the same param in process 0", None,
                [("Connection closed by peer", [0, 1])],
                "node-1 only: a stale TRAIN_HIDDEN_DIM=48 in its environment; both its ranks (2, 3) fail alike in DDP's parameter-shape check; node-0's ranks get Connection closed by peer. Initiator is the node, not one rank (as k-2node-gloo-ifname-node1). First deviating line: the error line (the earlier 'starting: ... hidden=48' lines deviate too)."),
    ),
    "s-srunlabel-straggler-timeout": dict(
        launcher="`label_ranks.py -n 4` (an `srun --label` look-alike for one node: starts 4 tasks with RANK/WORLD_SIZE/SLURM_PROCID, prefixes every line of each task's merged stdout+stderr with `N: ` as it arrives, prints nothing of its own, waits for all tasks, no kill-on-bad-exit)",
        layout="one `slurm-5150.out`, lines labelled `N: `",
        injected="rank 3 is a straggler: before step 5 it logs a slow-fetch warning and sleeps 40 s; gloo process-group timeout 20 s.",
        cmd="MASTER_ADDR=127.0.0.1 MASTER_PORT=29803 python label_ranks.py -n 4 -- python s_train.py --steps 10 --pg-timeout 20 --fault straggler --fault-rank 3 --fault-step 5 --straggle-s 40 > slurm-5150.out 2>&1",
        exits="wrapper 134 (the highest task status: rank 2 aborted at exit, see below)",
        happened="Rank 3 logs `WARNING [rank 3] shard fetch for step 5 is slow (object store: 503 SlowDown), retry 1/3 in 40s`. 20 s later ranks 0, 1, 2 fail in DDP's backward all-reduce: `Timed out waiting 20000ms for send operation to complete` (rank 0) / `... for recv operation to complete` (ranks 1, 2); rank 2 then prints `terminate called without an active exception` (SIGABRT at exit, not injected). When rank 3 wakes it runs step 5 and fails with gloo `Connection closed by peer`.",
        hard="The culprit's only error is a `Connection closed by peer` printed last, after everyone else's timeouts; its earlier line is a WARNING; one victim also aborts.",
        truth=T("failed", "rank", 3, None, False, "nccl_timeout_hang",
                "shard fetch for step 5 is slow (object store: 503 SlowDown)", 3,
                [("Timed out waiting 20000ms for", [0, 1, 2])],
                "rank 3 stalls 40 s on a slow fetch before step 5; ranks 0-2 hit the 20 s gloo timeout in backward; rank 3 later fails with Connection closed by peer. nccl_timeout_hang (the straggler makes peers time out); storage_io arguable (the slow object store)."),
    ),
    "s-fsdp-resume-shard-mixup": dict(
        launcher="torchrun, 2 workers, `--log-dir logs --redirects 3 --tee 3 --local-ranks-filter 0`; FSDP2 (`fully_shard`) on CPU gloo; `TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO`",
        layout="`console.log` (agent + rank 0 only, `[default0]:`) + `logs/none_<rand>/attempt_0/{0,1}/{stdout,stderr}.log` (both ranks)",
        injected="resume from a sharded checkpoint (one `torch.save` file per rank with its local FSDP shards): `ckpt/step-20/shard-rank1.pt` was overwritten by the file of another experiment's run (width 48 instead of 32; both earlier runs are setup, not kept).",
        cmd="TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO torchrun --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29805 --log-dir logs --redirects 3 --tee 3 --local-ranks-filter 0 s_train.py --wrap fsdp --optim adamw --lr 0.001 --steps 30 --shard-load ckpt/step-20 > console.log 2>&1\n# setup before it (outputs not kept): the same trainer with --steps 20 --sleep 0 --shard-save ckpt/step-20, then with TRAIN_HIDDEN_DIM=48 --shard-save wide/step-20; cp wide/step-20/shard-rank1.pt ckpt/step-20/",
        exits="launcher 1",
        happened="Rank 1 logs `resuming from ckpt/step-20/shard-rank1.pt` and fails copying the shard: `RuntimeError: The size of tensor a (16) must match the size of tensor b (24) at non-singleton dimension 0` (only in `logs/.../1/stderr.log`: the console is filtered to rank 0). Rank 0 resumes (`resumed at step 21`), enters FSDP's first all-gather and, through DETAIL's ProcessGroupWrapper fingerprint check, fails at once with `[Rank 0]: Rank 1 failed to pass monitoredBarrier in 30000 ms` (no 30 s elapsed). torchrun's table: Root Cause rank 1 (exitcode 1), rank 0 SIGTERM. Hundreds of c10d trace/debug lines around it.",
        hard="The console shows only the victim; its message names rank 1 as having failed a monitoredBarrier the code never called; the cause is in a per-rank file under a random `none_<rand>` directory; heavy DETAIL/INFO noise.",
        truth=T("failed", "rank", 1, None, False, "storage_io",
                "The size of tensor a (16) must match the size of tensor b (24)", 1,
                [("failed to pass monitoredBarrier in 30000 ms", [0])],
                "rank 1's checkpoint shard is from another run (width 48): size mismatch on resume; rank 0 fails in DETAIL's fingerprint check ('Rank 1 failed to pass monitoredBarrier'). storage_io (an inconsistent checkpoint set on disk); config_error arguable."),
    ),
    "s-loguru-ulimit-v-rank1": dict(
        launcher="torchrun `--no-python ./rank_limits.sh`, 3 workers, no `--tee`; `rank_limits.sh` sets `ulimit -v 2500000` (KiB) for RANK 1 only, then execs the trainer",
        layout="`launcher.log` (agent + every worker's stderr, unprefixed loguru lines) + `logs/rank_{0,1,2}.log` (loguru file sinks)",
        injected="a per-rank host-memory (address-space) limit on rank 1; at step 8 every rank reserves a 2 GiB activation arena (`torch.empty`, virtual only): ranks 0 and 2 get it, rank 1 cannot map it.",
        cmd="torchrun --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29806 --no-python ./rank_limits.sh --steps 14 --log-style loguru --log-file 'logs/rank_{rank}.log' --fault alloc --fault-step 8 --arena-gb 2 > launcher.log 2>&1",
        exits="launcher 1",
        happened="All ranks log `step 8: long-sequence phase, reserving activation arena: 2.0 GiB`; ranks 0 and 2 log `activation arena ready`; rank 1 raises `RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 2147483648 bytes. Error code 12 (Cannot allocate memory)`. Ranks 0 and 2 get gloo `Connection closed by peer` in the next backward. torchrun: Root Cause rank 1, binary `./rank_limits.sh`.",
        hard="Loguru lines carry no rank (only `__main__:worker:229`), so in `launcher.log` the three ranks' lines are indistinguishable except the `[rankN]:` traceback prefixes; the per-rank files hold no traceback (uncaught exceptions go to stderr only).",
        truth=T("failed", "rank", 1, None, False, "oom",
                "DefaultCPUAllocator: can't allocate memory: you tried to allocate 2147483648 bytes", 1,
                [("Connection closed by peer", [0, 2])],
                "rank 1 runs under ulimit -v 2500000 and cannot allocate the 2 GiB arena the other ranks get (host-memory limit on one rank); ranks 0, 2 Connection closed by peer."),
    ),
    "s-tqdm-tee2-tail-item": dict(
        launcher="torchrun, 3 workers, `--tee 2` (only stderr teed with `[defaultN]:`)",
        layout="one `console.log`; the trainer prints no log line at all, only one tqdm bar per rank (`position=rank`, loss in the postfix, cursor-up escapes)",
        injected="from step 6 the last rank's bar adds a `tail` statistic computed as `torch.tensor(losses[-4:]).item()` (a code path only that rank takes).",
        cmd="torchrun --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29807 --tee 2 s_train.py --steps 16 --log-style tqdm --fault tail_stats --fault-step 6 > console.log 2>&1",
        exits="launcher 1",
        happened="Rank 2 raises `RuntimeError: a Tensor with 4 elements cannot be converted to Scalar` at step 6 (in the middle of a bar line of another rank); ranks 0 and 1 fail in backward with gloo `Connection closed by peer`. torchrun: Root Cause rank 2.",
        hard="No log lines, only interleaved progress bars whose `\\r` updates torchrun's tee splits into lines; a traceback starts in the middle of another rank's bar line.",
        truth=T("failed", "rank", 2, None, False, "code_exception",
                "a Tensor with 4 elements cannot be converted to Scalar", 2,
                [("Connection closed by peer", [0, 1])],
                "a bug on the last rank's progress-bar code path (.item() on a 4-element tensor); ranks 0, 1 Connection closed by peer."),
    ),
    "s-redirects1-reltime-beta-typo": dict(
        launcher="torchrun, 4 workers, `--log-dir logs --redirects 1` (each worker's stdout to its file, stderr to the console)",
        layout="`console.log` (agent + all workers' stderr, `[rankN]:` traceback prefixes) + `logs/none_<rand>/attempt_0/<lr>/stdout.log` + `out/rank-N.txt` (logging with relative timestamps `%(relativeCreated)9.0fms`, no wall clock)",
        injected="the job's AdamW beta2 is 9.95 (a typo for 0.995) on every rank.",
        cmd="torchrun --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 29808 --log-dir logs --redirects 1 s_train.py --steps 12 --log-style reltime --log-file 'out/rank-{rank}.txt' --optim adamw --lr 0.0003 --beta2 9.95 > console.log 2>&1",
        exits="launcher 1",
        happened="Every rank logs `starting` and `process group ready`, then raises `ValueError: Invalid beta parameter at index 1: 9.95` in `torch.optim.AdamW(...)`. torchrun lists all four with exit code 1, Root Cause rank 0.",
        hard="The error lines are in the console, the only log lines in per-rank files with relative times; all ranks alike.",
        truth=T("failed", "all_ranks", None, None, True, "config_error",
                "ValueError: Invalid beta parameter at index 1: 9.95", None, [],
                "a job-wide config typo (AdamW beta2 9.95): every rank raises the same ValueError at optimizer construction; no single initiator."),
    ),
    "s-pl-csv-nofile-rank2": dict(
        launcher="Lightning `Trainer(strategy='ddp', accelerator='cpu', devices=3)` (re-executes the script per rank), CSVLogger",
        layout="`console.log` + `csv_logs/tiny/version_0/metrics.csv`",
        injected="the process of LOCAL_RANK 2 gets an open-files limit of 48 (`prlimit --nofile=48:48`, applied by `fd_limit_watch.sh` as soon as the process exists, as a per-task limit would); the dataset keeps every sample file it has read open (handle cache), 600 sample files.",
        cmd="python make_samples.py data 600; ./fd_limit_watch.sh 2 48 &   # printed 'pid 9309: nofile 48'\npython s_pl.py --devices 3 --epochs 2 > console.log 2>&1",
        exits="launcher 1",
        happened="Rank 2 fails in its DataLoader: `[rank2]: OSError: [Errno 24] Too many open files: 'data/sample-00284.bin'` (its traceback has no source lines: linecache could not open the files either), then `Exception ignored in atexit callback` ... `OSError: [Errno 24] Too many open files: '/home/user/jobs/s-pl-csv-nofile-rank2'` (torch._dynamo's atexit). Ranks 0 and 1 get gloo `Connection closed by peer`.",
        hard="The limit applies to one rank only (the others open the same number of files without trouble); Lightning's console lines carry no rank except `[rankN]:` traceback prefixes.",
        truth=T("failed", "rank", 2, None, False, "config_error",
                "OSError: [Errno 24] Too many open files: 'data/sample-", 2,
                [("Connection closed by peer", [0, 1])],
                "rank 2's process has an open-files limit of 48 (prlimit), the dataset's handle cache exceeds it: EMFILE on rank 2; ranks 0, 1 Connection closed by peer. config_error, the category used for a file-descriptor limit (c-spawn-fd-limit); other arguable."),
    ),
    "s-pl-csv-healthy-alarming": dict(
        launcher="Lightning `strategy='ddp'`, 2 processes on CPU, CSVLogger",
        layout="`console.log` + `csv_logs/tiny/version_0/metrics.csv`",
        injected="nothing: harmless but alarming lines (rank 1 logs a caught `OSError: [Errno 5] Input/output error` with traceback at ERROR level and retries successfully; rank 0 warns that an auxiliary metric is `nan` and skipped in every validation; Lightning's deprecation line).",
        cmd="python make_samples.py data 300; python s_pl.py --devices 2 --epochs 3 --warnings > console.log 2>&1",
        exits="launcher 0",
        happened="3 epochs, `Trainer.fit stopped: max_epochs=3 reached.`, `fit done` on both ranks, exit 0.",
        hard="An ERROR line with an OSError traceback and `nan` warnings in a run that completes.",
        truth=T("healthy", None, None, None, False, None, None, None, [],
                "healthy Lightning run: a caught and retried OSError (with traceback) and nan-metric warnings; max_epochs reached, exit 0."),
    ),
    "s-static-2node-healthy-detail": dict(
        launcher="two torchrun agents = two nodes, `--rdzv-backend static --node-rank {0,1}`, 2 workers each, `--tee 3`; `TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO`",
        layout="`node-0/console.log`, `node-1/console.log`",
        injected="nothing: c10d debug/trace noise (DETAIL fingerprints of every collective, TCPStore trace, `uv_loop_close failed with:-16 errn:EBUSY`), a caught and retried `ConnectionResetError: [Errno 104] Connection reset by peer` with traceback (rank 1), a `nan` auxiliary-metric warning (rank 0), a UserWarning and a RuntimeWarning per rank. Gradients are all-reduced by hand (DDP with DETAIL segfaults on this build).",
        cmd="TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend static --master-addr 127.0.0.1 --master-port 29809 --tee 3 --node-rank {r} ../s_train.py --wrap manual --steps 12 --warnings --pg-timeout 60 > console.log 2>&1   # in node-{r}/, node-1 started 2 s later",
        exits="node-0 0, node-1 0",
        happened="12 steps on 4 ranks, `training done` on every rank, both agents exit 0.",
        hard="Hundreds of `[E...]`-looking and `[W...]` c10d lines, an `errn:EBUSY` line, a `Connection reset by peer` traceback, in a run that completes.",
        truth=T("healthy", None, None, None, False, None, None, None, [],
                "healthy two-node run with DETAIL/INFO c10d noise, a caught and retried ConnectionResetError traceback and warnings; exit 0 on both nodes."),
    ),
    "s-acc-yaml-rich-timeout-term": dict(
        launcher="`accelerate launch --config_file acc_config.yaml` (3 processes; `distributed_type: MULTI_GPU` runs torchrun in-process, `Accelerator(cpu=True)` picks MULTI_CPU/gloo) under `timeout -s TERM 45`",
        layout="one `console.log`; rich `RichHandler` lines (`[HH:MM:SS] INFO     message    file:line`, the time column left blank when unchanged, wrapped at 100 columns), accelerate's `[RANK 0]` main-process lines",
        injected="a healthy 400-step run (~90 s) killed from outside: `timeout` SIGTERMs it after 45 s.",
        cmd="timeout -s TERM 45 accelerate launch --config_file acc_config.yaml s_acc.py --steps 400 --sleep 0.2 > console.log 2>&1",
        exits="timeout 124",
        happened="Training reaches step 200; the agent logs `Received 15 death signal, shutting down workers`, sends SIGTERM to the three workers (silent), and accelerate exits with a traceback ending `SignalException: Process ... got signal: 15`.",
        hard="The traceback looks like a crash of the launcher; no worker prints anything.",
        truth=T("failed", "external", None, None, False, "killed_by_scheduler",
                "Received 15 death signal, shutting down workers", None, [],
                "healthy job SIGTERMed from outside (timeout on the launcher after 45 s); the agent shuts the workers down (as k-tee-killed-external)."),
    ),
    "s-ray-tempdir-nan-spread": dict(
        launcher="Ray Train `TorchTrainer` (Ray 2.60, Train v2 controller), 3 CPU workers, DDP via `prepare_model`; `ray.init(address='local', _temp_dir=rt)`",
        layout="`console.log` (driver: `(RayTrainWorker pid=N)` / `(TrainController pid=N)` prefixes, ANSI colours, Ray's log deduplication) + the session's `rt/session_<ts>/logs/worker-<id>-<job>-<pid>.{out,err}` (every Ray worker process, idle ones included) and `rt/session_<ts>/logs/train/ray-train-{app,sys}-{controller,worker}-<id>.log` (JSON lines)",
        injected="rank 2's batch 6 (`data/rank2/batch-0006.pt`) has one `inf` feature. Every rank logs its local loss each step; gradients are clipped with `clip_grad_norm_(..., error_if_nonfinite=True)`.",
        cmd="RAY_USAGE_STATS_ENABLED=0 HOME=$PWD/home python s_ray.py --workers 3 --data data --temp-dir rt > console.log 2>&1",
        exits="driver 1",
        happened="Rank 2 (pid 9808) logs `step 6/16 local loss nan`; DDP's gradient all-reduce spreads the nan; all three ranks raise `RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped` in the same step. The controller reports `[Rank 0,1,2 Error Snippet]`; the driver raises `ray.train.WorkerGroupError`. In the console rank 0's traceback arrives before rank 2's nan line.",
        hard="Every rank raises the same error; only rank 2's earlier `local loss nan` line (and the pid -> world_rank table) identifies the source; the rank appears as a pid in the console and as a worker id in the file names.",
        truth=T("failed", "rank", 2, None, False, "nan_divergence",
                "step 6/16 local loss nan", 2,
                [("for gradients from `parameters` is non-finite", [0, 1])],
                "inf in rank 2's batch 6: its local loss is nan, the gradient all-reduce spreads it and all three ranks raise the non-finite grad-norm error in the same step; rank 2 is identified by its earlier 'local loss nan' line."),
    ),
}

ERR = re.compile(r"(Error|Exception|error:|Fatal|FAILED|Traceback|WARNING|\bW\d{4}|\bE\d{4}|\[E\d{4}|terminate called|"
                 r"Too many|exitcode|death signal|Timed out|nan\b)")
NOISE = re.compile(r"c10d - trace|c10d - debug|ProcessGroupWrapper.cpp|hostname of the client socket")


def files_section(d):
    out = []
    for root, _, fs in sorted(os.walk(d)):
        for f in sorted(fs):
            if f in ("README.md", "truth.json", ".correlatorignore"):
                continue
            p = os.path.join(root, f)
            rel = os.path.relpath(p, d)
            lines = open(p, encoding="utf-8", errors="replace").read().splitlines()
            hits = []
            for ln in lines:
                s = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", ln)
                if NOISE.search(s) or re.search(r'\bFile "', s) or not ERR.search(s):
                    continue
                s = s.strip()[:220]
                if s not in hits:
                    hits.append(s)
            last = next((l for l in reversed(lines) if l.strip()), "")
            last = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", last)[:220]
            shown = "; ".join(f"`{h}`" for h in hits[:8]) + (f" (+{len(hits) - 8} more)" if len(hits) > 8 else "")
            out.append(f"* `{rel}` ({len(lines)} lines): {shown or 'no error/warning lines'}. Last non-empty line: `{last}`")
    return "\n".join(out)


for name, m in META.items():
    d = os.path.join(OUT, name)
    t = m["truth"]
    json.dump(t, open(os.path.join(d, "truth.json"), "w"), indent=2)
    open(os.path.join(d, "truth.json"), "a").write("\n")
    open(os.path.join(d, ".correlatorignore"), "w").write("# scenario documentation, not logs\nREADME.md\ntruth.json\n")
    ini = t["initiating"]
    if t["status"] == "healthy":
        tl = "status `healthy`"
    else:
        who = {"rank": (f"rank {ini['rank']}" if ini["rank"] is not None else "") + (f" (node {ini['node']})" if ini["node"] else ""),
               "all_ranks": "all ranks", "external": "external", "unknown": "unknown"}[ini["kind"]].strip()
        tl = f"status `failed`, initiator {who}, category `{t['root_cause']['category']}`, kind `{ini['kind']}`"
    readme = f"""# {name}

**Captured** run on this machine (host `vm`, 2 cores), 2026-12-05. {VERS}.

* Launcher: {m['launcher']}
* Layout: {m['layout']}
* Injected: {m['injected']}
* Exit codes: {m['exits']}
* Truth: {tl}

## Command

{ENV}

```
{m['cmd']}
```

## What happened

{m['happened']}

## What is hard

{m['hard']}

## Files (error/warning lines, computed)

{files_section(d)}

## Notes

{t['notes']}
"""
    open(os.path.join(d, "README.md"), "w").write(readme)
    print("wrote", name)
