"""Per-job metadata for the roundI kc-* captures: command, layout, planted fault, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), numpy 2.4.6, "
       "lightning 2.6.6, accelerate 1.16.0, transformers 5.25.0, submitit 1.5.4, torchx 0.7.0, tqdm 4.70.1, "
       "rich 15.0.0, jsonargparse 4.53.0, Open MPI 4.1.4, gcc")

def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}

JOBS = {}

JOBS["kc-submitit-local-inf-feature-nan-r1"] = dict(
    source="submitit LocalExecutor, one job with tasks_per_node=2",
    cmd="`python make_kc_shards.py shards 2 --bad-value 1:123` (prep), then `python kc_submitit.py --shard-dir shards "
        "--nan-guard --steps 30 --sleep 0.15 --pg-timeout 30 > console.log 2>&1` under `timeout -s TERM 170 nice`",
    layout="`console.log`: the submitting driver (job id, final state, each task's `FailedJobError` with the remote "
           "trace). `submitit_logs/23336/23336_<task>_log.out|.err`: submitit's own per-task files (%j_%t layout; "
           "`submitit INFO/ERROR` lines and the task's `print` in .out, the training's asctime logging, tracebacks "
           "and torch's `[rankN]:` copies in .err). The job id 23336 is the local job's process id.",
    planted="record 123 of rank 1's shard `shards/part-00001.npz` has feature 3 = inf (a corrupt value from a CSV "
            "export); the batch that holds it gives a nan loss on rank 1 only. kc_train.py's `--nan-guard` raises "
            "before backward.",
    happened="rank 1 at epoch 0 step 8: `ERROR ... non-finite loss nan at epoch 0 step 8 (batch of 16)`, then "
             "`FloatingPointError: loss is nan at step 8; stopping (nan_guard)` and exits; rank 0 is in the DDP "
             "backward allreduce of step 8 and gets `Connection closed by peer [127.0.0.1]:398`. submitit marks both "
             "tasks failed, the driver prints both traces and exits 1.",
    exits="driver (kc_submitit.py) = 1",
    judgement="category nan_divergence (what the log shows: a nan loss on one rank at one step, the loss was normal "
              "before); the underlying cause is a corrupt input value, which the log does not show - data_error "
              "would also be defensible. Rank 0's connection error is collateral.",
    truth=T("failed", "rank", 1, None, "nan_divergence", "non-finite loss nan at epoch 0 step 8 (batch of 16)", 1,
            [(0, "Connection closed by peer [127.0.0.1]:398")],
            "one corrupt inf feature in rank 1's shard -> nan loss on rank 1 at step 8 (nan guard raises); rank 0 "
            "loses its peer in the backward allreduce (collateral). Both tasks reported failed by submitit."))

JOBS["kc-torchx-localcwd-histo-gather-r1"] = dict(
    source="torchx local_cwd scheduler, builtin component dist.ddp -j 1x2 (torchrun underneath)",
    cmd="`python make_kc_shards.py shards 2 --drop-class 1:5` (prep), then `torchx run -s local_cwd -cfg "
        "log_dir=torchx_logs dist.ddp -j 1x2 --script kc_train.py -- --shard-dir shards --gather-stats "
        "--stats-every 4 --steps 12 --pg-timeout 30 > console.log 2>&1` under `timeout -s TERM 150 nice`",
    layout="`console.log`: the torchx CLI (`torchx ... INFO` lines, AppStatus) with the replica's output prefixed "
           "`kc_train/0 ` (torchrun's `[R]:` tee prefixes inside). `torchx_logs/torchx/<app_id>/kc_train/0/"
           "{stdout,stderr,combined}.log`: torchx's per-replica files (the torchrun agent + tee'd worker lines); "
           "`torchx_logs/.../torchelastic/kc_train/<run_id>/attempt_0/<R>/{stdout,stderr}.log`: torchrun's "
           "per-worker files. Workers log asctime lines on stderr.",
    planted="rank 1's shard was exported with a label filter that dropped every record of class 5 (359 records, "
            "label set [0..4]); the periodic label-histogram `all_gather` uses `torch.bincount(y)` without "
            "minlength, so rank 1 contributes 5 elements and rank 0 6.",
    happened="at step 4 the all_gather runs with mismatched sizes: rank 1 aborts in gloo (`terminate called after "
             "throwing an instance of 'gloo::EnforceNotMet'`, `op.preamble.length <= op.nbytes. 12 vs 10. Received "
             "data size doesn't match expected size. Is there a distributed collective mismatch in your code?`, "
             "exit -6 SIGABRT); rank 0 does not fail there - it prints a corrupted histogram "
             "`[112, 197, -2147483648, 67, 55, 46]` - and is SIGTERMed by the agent. torchx: `Job finished: FAILED`.",
    exits="torchx = 1 (torchrun table: rank 1 exitcode -6 SIGABRT root cause, rank 0 -15 SIGTERM)",
    judgement="initiating rank 1 (the rank whose tensor differs, and the one that aborts); the corrupted histogram "
              "printed by rank 0 and its SIGTERM are collateral. In a first capture (identical except for line "
              "numbers of an earlier kc_train.py) rank 0's histogram happened to look plausible; this re-run is kept "
              "so the traceback line numbers match the kept script.",
    truth=T("failed", "rank", 1, None, "collective_mismatch",
            "Received data size doesn't match expected size. Is there a distributed collective mismatch in your code?",
            1, [(0, "global label histogram [112, 197, -2147483648, 67, 55, 46]"),
                (0, "exitcode  : -15 (pid: 18257)  (SIGTERM)")],
            "rank 1's shard lacks class 5, so its bincount-based histogram is one element shorter: all_gather size "
            "mismatch, rank 1 aborts in gloo (SIGABRT, table root cause). Rank 0 receives garbage (-2147483648 in "
            "its printed histogram) and is SIGTERMed: collateral."))

JOBS["kc-lightningcli-yaml-infeatures-all"] = dict(
    source="LightningCLI with a YAML config, strategy ddp, 2 CPU processes",
    cmd="`python kc_lit.py fit --config kc_cli_tabular.yaml > console.log 2>&1` under `timeout -s TERM 150 nice` "
        "(config: `_capture_kc/kc_cli_tabular.yaml`)",
    layout="`console.log`: one console for both ranks (Lightning's subprocess-script launcher re-runs the command "
           "for local rank 1): Lightning banner lines, the rich model summary table, torch's `[rankN]:` traceback "
           "copies.",
    planted="the YAML sets `model.in_features: 32` (comment `v3 features: 24 base + 8 derived`) while `data.n_features` "
            "is still 24: the first Linear cannot take the batch - on every rank.",
    happened="both ranks fail in the validation sanity check (first forward): `RuntimeError: mat1 and mat2 shapes "
             "cannot be multiplied (32x24 and 32x64)`; rank 1's traceback is printed first. Exit 1.",
    exits="python kc_lit.py = 1",
    judgement="all_ranks config_error: a wrong value in the shared config, every rank fails the same way; the "
              "first_deviating rank is the one printed first (1).",
    truth=T("failed", "all_ranks", None, None, "config_error",
            "RuntimeError: mat1 and mat2 shapes cannot be multiplied (32x24 and 32x64)", 1, [],
            "model.in_features 32 in the YAML vs 24 data features: shape error on every rank in the sanity-check "
            "forward; job-wide config error."))

JOBS["kc-healthy-lightning-csv-rich-bf16"] = dict(
    source="plain Lightning Trainer script, strategy ddp, 2 CPU processes, bf16-mixed",
    cmd="`python kc_lit_fit.py > console.log 2>&1` under `timeout -s TERM 170 nice`",
    layout="`console.log`: Lightning banner, rich model summary, Python warnings (filter `default`), the "
           "RichProgressBar (leave=True: one finished bar per epoch with metrics), `Trainer.fit` stop line and the "
           "script's `best checkpoint:` line. `csv_logs/tabular/version_0/metrics.csv`: CSVLogger metrics "
           "(lr-AdamW, train_loss, val_loss, val_acc).",
    planted="nothing: a healthy run with warnings (model summary precision warning, `LeafSpec` deprecation on both "
            "ranks, sync_dist recommendations for val_loss/val_acc, hostname warnings from c10d).",
    happened="3 epochs x 10 batches, val_loss 1.667 -> 1.500 -> 1.254, `Trainer.fit` stopped: `max_epochs=3` "
             "reached, best checkpoint saved, exit 0.",
    exits="python kc_lit_fit.py = 0",
    judgement="healthy: clean end (stop line, best-checkpoint line, exit 0); the warnings are harmless.",
    truth=T("healthy", notes="ends well: `Trainer.fit` stopped: `max_epochs=3` reached and the best-checkpoint line; "
            "exit 0. The warnings (precision summary, LeafSpec deprecation, sync_dist advice) are harmless."))

JOBS["kc-torchrun-elastic12-rotating-ckpt-enospc-r0"] = dict(
    source="torchrun --standalone --nnodes=1:2 --nproc-per-node 2 (elastic min:max), RotatingFileHandler per rank",
    cmd="`mount -t tmpfs -o size=512k tmpfs ckpt` (in the job's mount namespace), then `LOGLEVEL=INFO torchrun "
        "--standalone --nnodes=1:2 --nproc-per-node 2 kc_train.py --log-style rotating --hidden 128 --steps 20 "
        "--ckpt-dir ckpt --ckpt-every 4 --pg-timeout 30 > console.log 2>&1` under `timeout -s TERM 150 nice`",
    layout="`console.log`: the agent (INFO launch config with min_nodes 1 / max_nodes 2; it waits ~30 s for a "
           "possible second node before the rendezvous completes) + workers' stderr (only WARNING+ records and "
           "tracebacks). `logs/rank-R.log` + rotated `logs/rank-R.log.1`: each rank's full asctime log from "
           "logging.handlers.RotatingFileHandler (maxBytes 2048, backupCount 3) - the older lines are in .1.",
    planted="the checkpoint dir `ckpt/` is a 512 KiB tmpfs (a small scratch quota); each checkpoint (weights + AdamW "
            "state) is 258,964 bytes, so the third one (step 12) does not fit. Afterwards `df` showed 100% used, "
            "step-000012.pt 0 bytes.",
    happened="rank 0: `saving checkpoint ckpt/step-000012.pt` then `RuntimeError: basic_ios::clear: iostream error` "
             "(torch.save's stream writer; no ENOSPC text anywhere) and, while closing, `RuntimeError: [enforce fail "
             "at inline_container.cc:672] . unexpected pos 64 vs 0`; rank 1, waiting in the checkpoint barrier, gets "
             "`Connection closed by peer [127.0.0.1]:9889`; the agent SIGTERMs it; table root cause rank 0 exit 1.",
    exits="torchrun = 1",
    judgement="storage_io on rank 0 although the message never says 'No space left on device' - the evidence is the "
              "`saving checkpoint` line without its `saved` line and the iostream error inside torch.save. "
              "initiating kind rank (the disk quota is job-local here, single node).",
    truth=T("failed", "rank", 0, None, "storage_io", "RuntimeError: basic_ios::clear: iostream error", 0,
            [(1, "Connection closed by peer [127.0.0.1]:9889"), (1, "exitcode  : -15 (pid: 19553)  (SIGTERM)")],
            "checkpoint dir full (512 KiB tmpfs): torch.save on rank 0 fails with a bare iostream error at the third "
            "checkpoint; rank 1 loses its peer in the checkpoint barrier and is SIGTERMed (collateral)."))

JOBS["kc-two-agents-uts-static-port-nodeb"] = dict(
    source="two torchrun agents as two nodes (static rendezvous, --nnodes 2, --node-rank 0 and 1), separate UTS "
           "namespaces, per-node log directories",
    cmd="per node: `unshare -u bash node_agent.sh <host>` (sets the hostname, sources `nodes/<host>/job.env`, writes "
        "a `[prolog ...]` line, then `torchrun --nnodes 2 --node-rank $NODE_RANK --nproc-per-node 1 --master-addr "
        "$MASTER_ADDR --master-port $MASTER_PORT --rdzv-conf timeout=40 ../../kc_train.py --steps 12 --pg-timeout "
        "30 >> torchrun.log 2>&1`), LOGLEVEL=INFO, both under `timeout -s TERM 120 nice`, node gpu-a02 started 1 s "
        "after gpu-a01",
    layout="`nodes/gpu-a01/torchrun.log`, `nodes/gpu-a02/torchrun.log`: one file per node (prolog line, agent INFO "
           "launch config, c10d socket messages with C++ frames, the agent's traceback). No worker ever started.",
    planted="node gpu-a02's env file still carries the MASTER_PORT of an older job (29617 instead of 29611).",
    happened="gpu-a01 (node rank 0) hosts the static TCPStore on 29611 and waits; gpu-a02 tries 127.0.0.1:29617: "
             "`[c10d] The client socket has timed out after 40000ms while trying to connect to (127.0.0.1, 29617).` "
             "(retry, then `torch.distributed.DistNetworkError`); gpu-a01 ends with `torch.distributed.DistStoreError: "
             "Timed out after 41 seconds waiting for clients. 1/2 clients joined.` Both agents exit 1.",
    exits="gpu-a01 torchrun = 1, gpu-a02 torchrun = 1",
    judgement="machine-level cause on one node: kind rank with node `gpu-a02`, rank null (no worker rank was ever "
              "assigned). The wrong port is visible in gpu-a02's prolog line and launch config (`rdzv_endpoint : "
              "127.0.0.1:29617`); first_deviating is the first error line that carries it. gpu-a01's store timeout "
              "is collateral.",
    truth=T("failed", "rank", None, "gpu-a02", "rendezvous",
            "The client socket has timed out after 40000ms while trying to connect to (127.0.0.1, 29617)", None,
            [(None, "Timed out after 41 seconds waiting for clients. 1/2 clients joined.")],
            "node gpu-a02 uses master port 29617 while gpu-a01 serves the store on 29611: gpu-a02 cannot connect, "
            "gpu-a01 times out waiting for the second client (collateral)."))

JOBS["kc-accelerate-multigpu-cpu-hf-padcache-oom-r1"] = dict(
    source="accelerate launch --multi_gpu (command-line flags, no config file) on a CPU-only host, HF Trainer",
    cmd="`python make_kc_jsonl.py 2 --long 1:3000000` (prep), `ulimit -v 6291456`, then `accelerate launch "
        "--multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no kc_hf.py > "
        "console.log 2>&1` under `timeout -s TERM 150 nice` (a first try with `--cpu --multi_gpu` was refused by "
        "accelerate before any process started and is not kept)",
    layout="`console.log`: one console: `[transformers]` INFO lines, python logging `MM/DD/YYYY HH:MM:SS - LEVEL - "
           "kc_hf - [rankR] msg`, a deepspeed accelerator WARNING, torch's `[rankN]:` tracebacks, the torchrun "
           "agent lines and accelerate's traceback with the ChildFailedError table.",
    planted="the whole job runs under a 6 GiB address-space limit per process (`ulimit -v`, the site's per-task "
            "memory policy); rank 1's shard holds one un-split 3,000,000-token document, and the padded feature "
            "cache (pad to the longest document) needs 640 x 3e6 int32 = 7.15 GiB on rank 1 only.",
    happened="rank 1: `building padded feature cache [640 x 3000000] int32` then `numpy._core._exceptions."
             "_ArrayMemoryError: Unable to allocate 7.15 GiB for an array with shape (640, 3000000) and data type "
             "int32`; rank 0, in DDP's parameter verification inside `Trainer.train`, gets `Connection closed by "
             "peer [127.0.0.1]:12209`; the agent SIGTERMs rank 0; table root cause rank 1 exit 1.",
    exits="accelerate = 1",
    judgement="oom on rank 1 (host memory limit reached by one rank's allocation); the size comes from its data "
              "(one abnormal document), but the failure the log shows is the allocation. Rank 0's errors collateral.",
    truth=T("failed", "rank", 1, None, "oom",
            "Unable to allocate 7.15 GiB for an array with shape (640, 3000000) and data type int32", 1,
            [(0, "Connection closed by peer [127.0.0.1]:12209"), (0, "exitcode  : -15 (pid: 11914)  (SIGTERM)")],
            "rank 1 cannot allocate its 7.15 GiB padded cache under the 6 GiB per-process limit (one 3M-token "
            "document in its shard); rank 0 loses its peer in DDP setup and is SIGTERMed (collateral)."))

JOBS["kc-bashloop-jsonl-detail-stale-lock-r1"] = dict(
    source="own bash launcher loop (background ranks, env init), JSON-lines logs per rank, TORCH_DISTRIBUTED_DEBUG=DETAIL",
    cmd="for r in 0 1: `RANK=$r LOCAL_RANK=$r timeout -s TERM 75 nice python kc_train.py --log-style jsonl --steps 12 "
        "--pg-timeout 25 --lockfile 'data/cache-{rank}/.lock' > logs/rank-$r.jsonl 2> logs/rank-$r.stderr &` with "
        "MASTER_ADDR=127.0.0.1 MASTER_PORT=29733 WORLD_SIZE=2 TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO",
    layout="`logs/rank-R.jsonl`: the rank's records, one JSON object per line (time, severity, logger, rank, pid, "
           "message, exception). `logs/rank-R.stderr`: c10d INFO/trace lines (TCPStore, sockets - the IPv6-looking "
           "addresses are printed so by torch), ProcessGroupWrapper fingerprints, `[rankN]:` tracebacks. "
           "`logs/launcher.log`: the launcher's start/exit lines.",
    planted="`data/cache-1/.lock` is a stale lock left by a killed preprocessing job (`pid 31337 host prep-07 "
            "started 2026-12-06T09:12:03`), never released: rank 1 waits for it forever; rank 0 has no lock.",
    happened="rank 1 logs `waiting for dataset cache lock data/cache-1/.lock` and after 5 s a WARNING `cache lock ... "
             "still held after 5s (...)`, then nothing; rank 0 goes into DDP's first collective (ALLGATHER "
             "fingerprint) and after 25 s: `[Rank 0]: Rank 1 failed to pass monitoredBarrier in 25000 ms` -> "
             "`RuntimeError: [Rank 0]: Ranks 1 failed to pass monitoredBarrier in 25000 ms`, exit 1. Rank 1 is "
             "killed by its 75 s `timeout` (status 124, nothing printed).",
    exits="launcher = 124 (rank 0 exit 1, rank 1 exit 124 from timeout)",
    judgement="nccl_timeout_hang with rank 1 as initiator: the rank that stopped (blocked outside any collective); "
              "its last line, the stale-lock WARNING, is the earliest line showing the cause. Rank 0's "
              "monitoredBarrier timeout is collateral; rank 1's timeout kill is a consequence of the hang.",
    truth=T("failed", "rank", 1, None, "nccl_timeout_hang",
            "cache lock data/cache-1/.lock still held after 5s", 1,
            [(0, "Ranks 1 failed to pass monitoredBarrier in 25000 ms")],
            "rank 1 blocks on a stale dataset-cache lock and never reaches DDP's first collective; rank 0 times out "
            "in the DETAIL monitored barrier naming rank 1 (collateral); rank 1 later killed by the wall timeout."))

JOBS["kc-mpirun-outputfilename-tqdm-sigkill-r1"] = dict(
    source="mpirun -np 2 --output-filename (Open MPI per-rank files), no mpi4py, tqdm progress bars",
    cmd="`mpirun --allow-run-as-root --oversubscribe -np 2 --bind-to none --mca btl self,vader --mca "
        "oob_tcp_if_include lo --output-filename mpilogs -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29741 -x "
        "PYTHONUNBUFFERED -x OMP_NUM_THREADS -x PATH python kc_train.py --log-style tqdm --steps 60 --sleep 0.4 "
        "--pg-timeout 30 > console.log 2>&1` under `timeout -s TERM 150 nice`; 14 s after launch `kill -KILL` of "
        "rank 1's python process (pid 22775, found among mpirun's children by OMPI_COMM_WORLD_RANK=1)",
    layout="`mpilogs/1/rank.N/{stdout,stderr}`: Open MPI's per-rank files (stdout empty; stderr holds the tqdm bars "
           "with carriage returns and ESC[A cursor-up codes kept, the asctime log lines written through tqdm.write, "
           "tracebacks). `console.log`: mpirun's console, which also interleaves both ranks' forwarded output and "
           "ends with mpirun's own `mpirun noticed that process rank 1 ... exited on signal 9 (Killed).` box.",
    planted="an outside SIGKILL of rank 1 (standing in for an operator's `kill -9` or a node health daemon) at "
            "~step 15 of 60.",
    happened="rank 1's file just stops after `epoch 0 step 15 loss 0.3581` (no error); rank 0, in the step-16 backward "
             "allreduce, gets `Connection closed by peer [127.0.0.1]:50318` and exits 1; mpirun: `mpirun noticed "
             "that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).`; mpirun exit 137.",
    exits="mpirun = 137",
    judgement="initiating kind external (the kill came from outside the job), rank 1 named as the killed process "
              "(mpirun's line names it); category killed_by_scheduler as the closest label for an outside kill. "
              "first_deviating = mpirun's notice (the killed rank itself printed nothing). Rank 0's connection "
              "error is collateral.",
    truth=T("failed", "external", 1, None, "killed_by_scheduler",
            "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).", 1,
            [(0, "Connection closed by peer [127.0.0.1]:50318")],
            "rank 1 SIGKILLed from outside mid-training (its log just stops); rank 0 loses its peer in backward "
            "(collateral); mpirun reports signal 9 for rank 1 and exits 137."))

JOBS["kc-fabric-run-faulthandler-ctypes-segv-r0"] = dict(
    source="`fabric run` (Lightning Fabric CLI, torchrun underneath), PYTHONFAULTHANDLER=1, TORCH_SHOW_CPP_STACKTRACES=1",
    cmd="`gcc -O2 -shared -fPIC -o libkctok.so kctok.c`, `python make_kc_shards.py shards 2 --text --empty-text "
        "0:200` (prep), then `PYTHONFAULTHANDLER=1 TORCH_SHOW_CPP_STACKTRACES=1 fabric run --accelerator cpu "
        "--strategy ddp --devices 2 kc_fabric.py > console.log 2>&1` under `timeout -s TERM 150 nice` (a first "
        "try whose script also called `fabric.launch()` under the CLI failed with Lightning's `Calling .launch() "
        "again is not allowed` on both ranks; the script was fixed and that try is not kept)",
    layout="`console.log`: one console: Lightning `Initializing distributed` banner, hydra-style records "
           "`[asctime][kc_fabric.rankR][LEVEL] - msg`, faulthandler's dump, torch's `[rankN]:` traceback, the "
           "torchrun agent lines and the `fabric` CLI traceback with the ChildFailedError table.",
    planted="record 200 of rank 0's shard has an empty text field; kc_fabric.py passes an empty string as None "
            "(NULL) to the ctypes helper libkctok.so, whose do/while loop reads s[0] before checking the length: a "
            "segfault in rank 0's native code.",
    happened="rank 0: `Fatal Python error: Segmentation fault` with the Python stack (`token_hashes` <- `main`) and "
             "the extension-module list (the dump does not name the rank); rank 1 finishes hashing and fails in "
             "DDP setup: `Read error [127.0.0.1]:20392: Connection reset by peer`; the agent SIGTERMs rank 1; table "
             "root cause rank 0 `exitcode : -11` (SIGSEGV).",
    exits="fabric = 1",
    judgement="code_exception for a crash in the job's own native helper (no category for crashes as such); "
              "initiating rank 0 - readable only from the agent's table (pid 18169 / SIGSEGV) and from which "
              "rank did not log `libkctok: hashed`.",
    truth=T("failed", "rank", 0, None, "code_exception", "Fatal Python error: Segmentation fault", 0,
            [(1, "Read error [127.0.0.1]:20392: Connection reset by peer"),
             (1, "exitcode  : -15 (pid: 18170)  (SIGTERM)")],
            "NULL dereference in the ctypes tokenizer helper on rank 0 (empty text field): SIGSEGV with the "
            "faulthandler dump; rank 1's connection reset in DDP setup and its SIGTERM are collateral."))
