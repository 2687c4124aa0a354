"""Per-job metadata for the roundJ lc-* captures: command, layout, planted fault, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), numpy 2.4.6, "
       "hydra-core 1.3.8 (omegaconf 2.3.1), pytorch-ignite 0.5.5, deepspeed 0.19.8, tqdm 4.70.1, Open MPI 4.1.4, "
       "util-linux 2.38.1 (script, logger), tmux 3.3a, libfaketime 0.9.10")

def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}

JOBS = {}

JOBS["lc-hydra-torchrun-rank-rundirs-numclasses-all"] = dict(
    source="Hydra app (`@hydra.main`, conf/config.yaml) launched by torchrun --standalone --nproc-per-node 2",
    cmd="`torchrun --standalone --nproc-per-node 2 lc_hydra.py > console.log 2>&1` (LOGLEVEL=INFO) under "
        "`timeout -s TERM 150 nice`",
    layout="`console.log`: torchrun agent (INFO) + both ranks' Hydra console lines (`[time][__main__][INFO] - msg`, "
           "no rank field; the config dump is multi-line) and Hydra's `Error executing job with overrides: []` + "
           "short traceback on stderr. `outputs/run/rank0/lc_hydra.log`, `outputs/run/rank1/lc_hydra.log`: Hydra's "
           "job log file per rank (run dir `outputs/run/rank${oc.env:RANK}`, chdir); Hydra writes only the logging "
           "records there, not the exception (it prints that to stderr), so the per-rank files just stop. Hydra's "
           "`.hydra/*.yaml` snapshots were not copied (configs, not logs).",
    planted="conf/config.yaml, read by every rank: `model.num_classes: 5` while the data generator uses "
            "`data.label_classes: 6` (a head shrunk after a class merge, the data config left behind).",
    happened="both ranks build the 5-class head (`model ready: 1253 parameters, head 5 classes`) and fail in the first "
             "cross_entropy with `IndexError: Target 5 is out of bounds.` (Hydra: `Error executing job with "
             "overrides: []`, `Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.`). "
             "torchrun names rank 0 (exitcode 1) root cause and rank 1 SIGTERM (-15) although rank 1 printed the "
             "same IndexError.",
    exits="torchrun = 1",
    judgement="config_error, all_ranks: one shared config value, both ranks fail identically; the error lines carry no "
              "rank, so first_deviating.rank is null. torchrun's SIGTERM of rank 1 is not listed as collateral (rank 1 "
              "had already failed on its own).",
    truth=T("failed", "all_ranks", None, None, "config_error", "IndexError: Target 5 is out of bounds.", None, [],
            "model.num_classes 5 vs 6 label classes in the shared Hydra config; every rank raises the same IndexError "
            "in the first loss."))

JOBS["lc-ignite-parallel-jsonl-short-row-r1"] = dict(
    source="pytorch-ignite `idist.Parallel(backend=\"gloo\", nproc_per_node=2)` spawning its own workers",
    cmd="`python lc_make_jsonl.py data 2 --short 1:93` (prep), then `python lc_ignite.py > console.log 2>&1` under "
        "`timeout -s TERM 150 nice`",
    layout="`console.log`: ignite's launcher lines (`ignite.distributed.launcher.Parallel INFO: ...`), the rank-0 "
           "loggers (`lc.ignite rank0 INFO:`, `ignite.engine.Engine INFO:`; ignite's setup_logger silences non-zero "
           "ranks' loggers, so rank 1 prints no log lines of its own) and torch.multiprocessing's "
           "`ProcessRaisedException` carrying rank 1's traceback (`-- Process 1 terminated with the following error:`).",
    planted="record 93 of rank 1's `data/part-1.jsonl` has 23 features instead of 24 (a row cut by the exporter).",
    happened="rank 1's batch holding record 93 fails in default_collate: `RuntimeError: stack expects each tensor to be "
             "equal size, but got [24] at entry 0 and [23] at entry 13`; rank 0 is in the DDP allreduce and ignite's "
             "Engine logs `Current run is terminating due to exception: ... Connection closed by peer` ; the spawn "
             "context SIGTERMs rank 0 and re-raises process 1's error in the parent.",
    exits="python lc_ignite.py = 1",
    judgement="data_error, rank 1 (the rank number comes from `Process 1 terminated` - the spawn index equals the rank "
              "here, nproc_per_node=2 on one node). Rank 0's Engine errors are collateral.",
    truth=T("failed", "rank", 1, None, "data_error",
            "RuntimeError: stack expects each tensor to be equal size, but got [24] at entry 0 and [23] at entry 13",
            1, [(0, "Current run is terminating due to exception: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer")],
            "a short (23-feature) JSON row in rank 1's file breaks collate on rank 1; rank 0 loses its peer."))

JOBS["lc-deepspeed-launcher-rank-logs-fifo-stall-r1"] = dict(
    source="DeepSpeed's launcher on CPU (`deepspeed --num_gpus 2 --enable_each_rank_log`), gloo process group",
    cmd="`mkfifo run/throughput.fifo` (prep), then `deepspeed --num_gpus 2 --master_port 29533 --enable_each_rank_log "
        "rank_logs lc_train.py --steps 14 --pg-timeout 20 --stall-fifo run/throughput.fifo --stall-rank 1 "
        "--stall-step 5 > console.log 2>&1` under `timeout -s TERM 150 nice`",
    layout="`console.log`: the deepspeed runner and `deepspeed.launcher.launch` lines (`[time] [LEVEL] [file:line:func] "
           "msg`; DeepSpeed falls back to its CPU accelerator). `rank_logs/20261206123120_rank0.log`, `..._rank1.log`: "
           "DeepSpeed's per-rank files from --enable_each_rank_log (each rank's stdout+stderr: asctime logging with "
           "`[rankN]`, torch's `[rankN]:` traceback copies).",
    planted="at step 5 rank 1 opens the named pipe `run/throughput.fifo` to read a throughput hint; its writer (a "
            "monitoring sidecar) is not running, so open() blocks forever. Process-group timeout 20 s.",
    happened="rank 1 logs `reading throughput hint from run/throughput.fifo` and goes silent; rank 0 finishes step 4 and "
             "waits in the step-5 DDP allreduce until gloo gives up: `Timed out waiting 20000ms for recv operation to "
             "complete`, exits 1. The DeepSpeed launcher's sigkill_handler kills both subprocesses and then prints the "
             "command line of local_rank=1 with `exits with return code = 1` (it labels the last process it looked at, "
             "not the one that failed first).",
    exits="deepspeed = 1",
    judgement="nccl_timeout_hang (gloo timeout on CPU), initiating rank 1 (the stalled rank; the last line it printed "
              "is first_deviating). Rank 0's timeout is collateral. The launcher's `local_rank=1 ... return code = 1` "
              "line is misleading about which process exited with 1.",
    truth=T("failed", "rank", 1, None, "nccl_timeout_hang", "reading throughput hint from run/throughput.fifo", 1,
            [(0, "Timed out waiting 20000ms for recv operation to complete")],
            "rank 1 blocks opening a FIFO with no writer at step 5; rank 0 times out in the allreduce after 20 s."))

JOBS["lc-c10d-three-agents-uts-node-scratch-missing-cn03"] = dict(
    source="three `python -m torch.distributed.run` agents, c10d rendezvous backend, each agent a 'node' in its own UTS "
           "+ mount namespace",
    cmd="`python -m torch.distributed.run --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:29455 --rdzv-id=lcjob42 "
        "--nnodes=3 --nproc-per-node=1 --rdzv-conf timeout=60 lc_train.py --data-dir scratch/lcdata --steps 12 "
        "--pg-timeout 30` on cn-01, cn-02, cn-03 (started 1 s apart, each `>> nodes/<host>/agent.log 2>&1`, "
        "LOGLEVEL=INFO) under `timeout -s TERM 150 nice unshare -u -m`",
    layout="`nodes/cn-0N/agent.log` per node: first a prolog line `[prolog <time>] host cn-0N job lcjob42 scratch <dir> "
           "staged K files`, then that node's agent (INFO) and its one worker's stderr (asctime logging, `[rankN]:` "
           "copies, the agent's failure table). Ranks were assigned by the rendezvous: cn-01 rank 0, cn-02 rank 1, "
           "cn-03 rank 2. The failure tables print `host : localhost`. A first attempt of this job failed in "
           "rendezvous because the node names did not resolve (no hosts file yet) and was discarded; the kept run "
           "bind-mounts a cluster hosts file on /etc/hosts in every node.",
    planted="node-local scratch: each node mounts its own tmpfs on `scratch/` and the prolog copies the files in its "
            "stage list from shared/lcdata; cn-03's stage list is empty (node added to the allocation after the list "
            "was built), so its scratch is empty (`staged 0 files`).",
    happened="rank 2 on cn-03: `FileNotFoundError: [Errno 2] No such file or directory: 'scratch/lcdata/part-00002.npz'`"
             " right after the process group forms; ranks 0 and 1 fail in DDP's parameter verification with "
             "`Connection closed by peer`; each agent prints its own failure table and exits 1.",
    exits="cn-01 = 1, cn-02 = 1, cn-03 = 1",
    judgement="a node-level cause in a multi-node job: kind rank with node cn-03, rank null (schema: machine-level "
              "causes name the node). Category storage_io (a missing node-local file, staging) - data_error or "
              "config_error would also be arguable. first_deviating.rank 2 (the worker on cn-03).",
    truth=T("failed", "rank", None, "cn-03", "storage_io",
            "FileNotFoundError: [Errno 2] No such file or directory: 'scratch/lcdata/part-00002.npz'", 2,
            [(0, "Connection closed by peer [127.0.0.1]:40120"), (1, "Connection closed by peer [127.0.0.1]:5351")],
            "cn-03's node-local scratch was never staged; its rank 2 cannot open its shard; ranks 0/1 on cn-01/cn-02 "
            "lose the peer."))

JOBS["lc-script-typescript-orphan-store-port-inuse"] = dict(
    source="util-linux `script -q -f typescript.log -c \"torchrun ...\"` (a typescript of the console), torchrun static "
           "rendezvous on a fixed master port",
    cmd="`python -c \"...TCPStore('127.0.0.1', 29500, 1, True ...); time.sleep(120)\" &` (the orphan, started first), "
        "then `script -q -f typescript.log -c \"torchrun --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 "
        "--master-port 29500 lc_train.py --steps 10 --pg-timeout 30\"` (LOGLEVEL=INFO) under `timeout -s TERM 120 nice`",
    layout="`typescript.log`: script's typescript (header `Script started on ... [COMMAND=...]`, the pty's output with "
           "\\r\\n line ends, trailer `Script done on ... [COMMAND_EXIT_CODE=\"1\"]`). The orphan's own output is not "
           "part of the incident (not copied).",
    planted="an orphaned TCPStore server from an earlier run (a python process left behind) still listens on "
            "127.0.0.1:29500, the job's master port.",
    happened="the torchrun agent tries to host the static rendezvous store on 29500 and fails before starting any "
             "worker: `torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
             "address. port: 29500, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use`.",
    exits="torchrun = 1 (COMMAND_EXIT_CODE in the typescript); `script` itself returned 0 (no -e)",
    judgement="rendezvous; initiating all_ranks (job-wide: the launch itself fails, no rank ever runs; the cause is "
              "outside the job - a stray process - but it is not a kill, so not `external`). No collateral.",
    truth=T("failed", "all_ranks", None, None, "rendezvous",
            "The server socket has failed to listen on any local network address. port: 29500, useIpv6: false, "
            "code: -98, name: EADDRINUSE", None, [],
            "master port held by an orphaned TCPStore of an earlier run; the agent cannot bind, no worker starts."))

JOBS["lc-logger-syslog-bashloop-ulimit-cache-oom-r1"] = dict(
    source="own bash launcher (one background process per rank) piping each rank into util-linux `logger`, collected "
           "by a local syslog daemon",
    cmd="`python lc_syslogd.py $J/log.sock $J/syslog &`, then per rank r in 0 1: `( [r=1: ulimit -v 2300000]; "
        "RANK=r LOCAL_RANK=r timeout -s TERM 150 nice python lc_train.py --cache-mb 1536 --steps 12 --pg-timeout 30; "
        "echo $? > rank$r.status ) 2>&1 | logger -u $J/log.sock -t lctrain.rank$r -i &` with MASTER_ADDR=127.0.0.1 "
        "MASTER_PORT=29571 WORLD_SIZE=2",
    layout="`syslog`: rsyslog-style traditional lines `Mmm dd HH:MM:SS vm lctrain.rank<R>[<logger pid>]: <line>` (each "
           "line a rank printed, incl. tracebacks line by line; the pid in brackets is logger's, not the worker's). "
           "`launcher.log`: the bash launcher's own `<date> launcher: ...` lines (ranks started, exit statuses).",
    planted="rank 1 runs under `ulimit -v 2300000` (2.2 GiB address space, a limit left in the node's limits.conf for "
            "that slot); every rank allocates a 1536 MiB prefetch cache (torch.empty, pages untouched).",
    happened="the cache allocation itself succeeds on rank 1 (`prefetch cache ready`), but the address space left is "
             "too small: building DDP imports torch._dynamo and rank 1 dies with a bare `MemoryError`; rank 0 gets "
             "`Connection closed by peer [127.0.0.1]:20383` in DDP's parameter verification. Both exit 1.",
    exits="rank0 = 1, rank1 = 1 (launcher.log); logger pipelines 0",
    judgement="oom (host memory / address-space limit), initiating rank 1 (tag lctrain.rank1 and `[rank1]` lines). "
              "first_deviating is the bare MemoryError line (the log.exception ERROR line before it carries no cause). "
              "Rank 0's connection error is collateral.",
    truth=T("failed", "rank", 1, None, "oom", "lctrain.rank1[22502]: MemoryError", 1,
            [(0, "Connection closed by peer [127.0.0.1]:20383")],
            "rank 1's address-space ulimit is exhausted after its 1.5 GiB cache: MemoryError while DDP initialises; "
            "rank 0 loses the peer."))

JOBS["lc-faketime-two-nodes-redirects3-logdir-nan-r2"] = dict(
    source="two torchrun agents as two nodes (UTS namespaces gpu-n1 / gpu-n2), --redirects 3 --log-dir per node, node "
           "gpu-n2 under libfaketime",
    cmd="`python lc_make_data.py data 4 --n 240 --nan 2:58` (prep), then per node `torchrun --nnodes 2 --node-rank "
        "0|1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29588 --rdzv-id lcnan --redirects 3 --log-dir "
        "nodes/<host>/logs lc_train.py --data-dir data --steps 14 --sleep 0.1 --final-check --pg-timeout 30 > "
        "nodes/<host>/agent.log 2>&1`, gpu-n2's agent prefixed with `faketime -f +97s`; under "
        "`timeout -s TERM 150 nice unshare -u`",
    layout="`nodes/<host>/agent.log`: the agent's own output (INFO, failure table with `host : gpu-n1|gpu-n2`). "
           "`nodes/<host>/logs/<rdzv-id>_<random>/attempt_0/<local_rank>/{stdout,stderr}.log`: torchrun's redirected "
           "worker files (stdout empty; logging on stderr with `[rankN]`). Local ranks 0/1 on gpu-n1 are global ranks "
           "0/1, on gpu-n2 global ranks 2/3. Every timestamp written on gpu-n2 (agent and its workers) is 97 s ahead "
           "of gpu-n1's.",
    planted="record 58 of rank 2's shard `data/part-00002.npz` has a NaN feature (a missing CSV value).",
    happened="rank 2 logs `epoch 0 step 8 loss nan` (step 8 is the batch holding record 58); the DDP allreduce spreads "
             "NaN into every replica's weights, so ranks 0, 1, 3 log `loss nan` from step 9 on. Training runs to step "
             "14; rank 0's final check raises `RuntimeError: final training loss is nan; refusing to export the "
             "model`, and ranks 1, 2, 3 fail in the final barrier with `Connection closed by peer`. gpu-n1's agent "
             "names rank 0 root cause, gpu-n2's agent rank 2 (both exit 1).",
    exits="gpu-n1 agent = 1, gpu-n2 agent = 1",
    judgement="nan_divergence, initiating rank 2: the only rank with nan at step 8; the others' nan from step 9 and "
              "rank 0's final-check error are consequences (rank 0's error is the first failure torchrun reports - "
              "a trap). The root cause is a bad input value (data_error would be defensible). The 97 s clock skew "
              "makes gpu-n2's step-8 line look later than gpu-n1's step-9 lines.",
    truth=T("failed", "rank", 2, None, "nan_divergence", "[rank2] lc.train:205 - epoch 0 step 8 loss nan", 2,
            [(0, "RuntimeError: final training loss is nan; refusing to export the model"),
             (3, "Connection closed by peer [127.0.0.1]:54453")],
            "NaN feature in rank 2's shard -> rank 2 nan at step 8, all ranks nan from step 9, rank 0 refuses the "
            "final model, the rest lose the peer in the final barrier."))

JOBS["lc-mpirun-tagoutput-timestamp-eval-skip-order-r1"] = dict(
    source="Open MPI `mpirun -np 2 --tag-output --timestamp-output` (no mpi4py; gloo rendezvous via -x MASTER_ADDR/PORT)",
    cmd="`python lc_make_data.py data 2 --n 400` and a cut of rank 1's shard to 45 records (prep), then `mpirun "
        "--allow-run-as-root --oversubscribe -np 2 --tag-output --timestamp-output -x MASTER_ADDR=127.0.0.1 -x "
        "MASTER_PORT=29577 -x PYTHONUNBUFFERED -x OMP_NUM_THREADS -x PATH python lc_train.py --data-dir data "
        "--eval-every 4 --eval-frac 0.02 --epochs 10 --steps 12 --pg-timeout 30 > console.log 2>&1` under "
        "`timeout -s TERM 150 nice`",
    layout="`console.log`: every line prefixed by Open MPI with `<ctime>[jobid,rank]<stdout|stderr>:`; a C++ "
           "`terminate called ...` message printed in pieces gets several prefixes inside one line; mpirun's own "
           "`----` banners unprefixed.",
    planted="rank 1's shard is a short tail shard (45 records): with eval-frac 0.02 its eval split is empty and the "
            "code skips the eval (and its all_reduce) on that rank.",
    happened="at step 4 rank 0 enters the eval all_reduce (2 floats) while rank 1 logs `eval split is empty on this "
             "rank, skipping evaluation` and goes on into the step-5 DDP gradient allreduce (6150 floats); gloo on "
             "rank 0 aborts: `terminate called after throwing an instance of 'gloo::EnforceNotMet'` ... "
             "`op.preamble.length <= op.nbytes. 6152 vs 4. Received data size doesn't match expected size`; rank 1 "
             "then fails with `Read error [127.0.0.1]:40851: Connection reset by peer`. mpirun: `process rank 0 ... "
             "exited on signal 6 (Aborted)`.",
    exits="mpirun = 134",
    judgement="collective_mismatch, initiating rank 1 (its collective sequence deviates: it skips the eval "
              "all_reduce); rank 0 is the one that aborts, mpirun names rank 0 - a trap. first_deviating is rank 1's "
              "skip warning (the `eval split 0 records` line before it shows the condition, not the mismatch).",
    truth=T("failed", "rank", 1, None, "collective_mismatch", "eval split is empty on this rank, skipping evaluation",
            1, [(0, "op.preamble.length <= op.nbytes. 6152 vs 4")],
            "rank 1 skips the eval all_reduce (empty eval split) so its next allreduce meets rank 0's eval all_reduce; "
            "gloo aborts rank 0."))

JOBS["lc-torchrun-pidonly-warnings-flood-worker-segv-r1"] = dict(
    source="torchrun --standalone --nproc-per-node 2, logging with %(process)d only, PYTHONWARNINGS=always",
    cmd="`python lc_make_data.py data 2 --n 400 --raw --bad-len 1:150` (prep), then `PYTHONWARNINGS=always "
        "LOGLEVEL=INFO torchrun --standalone --nproc-per-node 2 lc_train.py --data-dir data --fast-decode "
        "--num-workers 2 --log-style pid --steps 12 --pg-timeout 30 > console.log 2>&1` under "
        "`timeout -s TERM 150 nice`",
    layout="`console.log`: torchrun agent (INFO) + both ranks' stderr. Log lines are `<asctime> [<pid>] LEVEL lc.train: "
           "msg` - no rank field; only the first line of each process (`host vm pid P: rank R/2 ...`), torch's "
           "`[rankN]:` traceback copies and torchrun's failure table tie pids to ranks. ~490 `UserWarning: To copy "
           "construct from a tensor ...` lines (plus their source lines) from the DataLoader worker processes "
           "(pids not printed) interleave with the training lines. A NUL byte printed by the crashing worker starts "
           "the line after `ERROR: Unexpected segmentation fault encountered in worker.`",
    planted="record 150 of rank 1's raw records has a corrupt length header (0x7fff0000 instead of 96); the Dataset's "
            "ctypes decoder memmoves that many bytes into a 96-byte buffer.",
    happened="after step 10 a DataLoader worker of rank 1 segfaults (`ERROR: Unexpected segmentation fault encountered in "
             "worker.`); rank 1 (pid 26339) gets `RuntimeError: DataLoader worker (pid 26429) is killed by signal: "
             "Segmentation fault.` at its next batch and exits 1; rank 0 (pid 26338) fails with `Connection closed "
             "by peer [127.0.0.1]:39824`; torchrun: root cause rank 1 (pid 26339) exitcode 1, rank 0 SIGTERM.",
    exits="torchrun = 1",
    judgement="code_exception, initiating rank 1 (readable through pid 26339 and the torchrun table; the segfault line "
              "itself carries neither pid nor rank). The underlying cause is a corrupt record that an unchecked "
              "native decoder trusts - data_error is defensible; the log shows only the crash. The warning flood is "
              "noise, not a cause. Rank 0's connection error is collateral.",
    truth=T("failed", "rank", 1, None, "code_exception", "ERROR: Unexpected segmentation fault encountered in worker.",
            1, [(0, "Connection closed by peer [127.0.0.1]:39824")],
            "rank 1's DataLoader worker segfaults in a ctypes decoder on a corrupt record; rank 1 raises the "
            "worker-killed error, rank 0 loses its peer."))

JOBS["lc-healthy-tmux-pipepane-tqdm-ckpt-enospc-retry"] = dict(
    source="torchrun --standalone --nproc-per-node 2 typed into a detached tmux session, pane logged with "
           "`tmux pipe-pane`",
    cmd="`tmux -L lc new-session -d -s train -x 160 -y 48 \"bash --norc -i\"`, `tmux -L lc pipe-pane -t train -o "
        "'cat >> tmux-pane.log'`, then send-keys `timeout -s TERM 150 nice torchrun --standalone --nproc-per-node 2 "
        "lc_train.py --log-style tqdm --steps 18 --sleep 0.5 --ckpt-dir ckpt --ckpt-every 6 --ckpt-retries 8 "
        "--ckpt-backoff 5 --pg-timeout 120; echo \"exit status $?\"; tmux -L lc wait-for -S done` (LOGLEVEL=INFO, "
        "TERM=xterm-256color)",
    layout="`tmux-pane.log`: the raw bytes of the pane - the echoed command line, bracketed-paste escapes, \\r\\n line "
           "ends, two tqdm bars (`rank0 train`, `rank1 train`, position=rank) redrawn in place with \\r and ANSI "
           "cursor-up sequences, the logging lines written through tqdm.write between bar redraws (so many log lines "
           "start after a bar fragment and a run of spaces on the same physical line), torchrun's agent lines, the "
           "final `exit status 0` and the shell prompt.",
    planted="(transient, recovered) ckpt/ is a 320 KiB tmpfs still holding a previous run's 260 KiB checkpoint that a "
            "background cleaner deletes ~25 s into the job; rank 0 retries a failed checkpoint write up to 8 times, "
            "5 s apart (the pg timeout is 120 s so rank 1 can wait at the barrier).",
    happened="step-6 checkpoint: torch.save fails on the full tmpfs three times (`WARNING ... checkpoint write failed: "
             "[enforce fail at inline_container.cc:672] . unexpected pos 58048 vs 57936; retrying in 5s (1/8)` ... "
             "(3/8)); attempt 4 succeeds after the cleaner ran (`checkpoint ckpt/step-000006.pt saved (81555 bytes)`); "
             "steps 12 and 18 save on the first attempt; both ranks `training done: 18 steps`, the agent reports "
             "`WorkerState.SUCCEEDED`, `exit status 0`.",
    exits="torchrun = 0",
    judgement="healthy: the run ends with both ranks' done lines, all checkpoints saved and a clean launcher exit; "
              "the three caught ENOSPC-style errors (torch reports the full disk as an `unexpected pos` enforce "
              "failure) were retried successfully and are not a failure. An earlier attempt with a 192 KiB tmpfs "
              "(the step-18 checkpoint did not fit: retries exhausted, rank 0 failed) and one where the retry "
              "caught only OSError (torch.save raises RuntimeError) were discarded; this is the third run.",
    truth=T("healthy", notes="transient full checkpoint dir at step 6, caught and retried 3 times, then saved; "
                             "training completes on both ranks, torchrun exits 0."))
