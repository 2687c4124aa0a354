"""Per-job metadata for the roundR tc-* captures: command, layout, set-up, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), lightning 2.6.6, "
       "perl 5.36, runit 2.1.2, daemontools 0.76, task-spooler 1.0.1, nq 0.3.1, MPICH 4.0.2 (Hydra), node 20.20.2 + "
       "pm2 7.0.4, ninja 1.13.2, e2fsprogs 1.47.0 (logsave), joblib 1.6.0, py-spy 0.4.3, tokenizers 0.23.3 / 0.19.1, "
       "util-linux 2.38.1 (unshare, taskset)")
GLOO = "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
CLOSED = GLOO + "pair.cc:553] Connection closed by peer"


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status in ("inconclusive", "healthy") else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status in ("inconclusive", "healthy") else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}

JOBS["tc-perl-open3-select-epochms-streams-onefile-runcfg-lambda-bcast-r0"] = dict(
    source="site launcher written in Perl (`tc_launch.pl`): `IPC::Open3` per rank (separate stdout / stderr pipes), "
           "`IO::Select` multiplexing into one job log, env:// variables per rank, SIGTERM to the rest after a grace "
           "period when a rank fails",
    cmd="`timeout -s TERM 150 nice perl tc_launch.pl --nproc 3 --port 29731 --log job.log --grace 10 -- python "
        "tc_train.py --run-cfg --rows 1600 --epochs 2 --pg-timeout 60 --fmt '...'`",
    layout="one file `job.log`: every line `<epoch seconds.millis> <tag> <text>`, tag `r<R> O` (rank R's stdout), "
           "`r<R> E` (its stderr) or `launch -` (the launcher's own lines: pids, exits, job verdict). Rank stdout "
           "carries the logging records `YYYY-mm-dd HH:MM:SS,mmm [LEVEL] tc.train (rank R/3): msg` with "
           "`log.exception` tracebacks; stderr carries c10d warnings and torch's `[rankR]:` traceback.",
    planted="rank 0 builds the run config (run name, warm-up steps and the LambdaLR warm-up factor as a `lambda` "
            "defined inside the training function) and shares it with `dist.broadcast_object_list`. A local lambda "
            "cannot be pickled.",
    happened="all ranks set up gloo; rank 0 logs the config it built and raises `AttributeError: Can't pickle local "
             "object '_run.<locals>.<lambda>'` inside broadcast_object_list before sending anything; ranks 1 and 2, "
             "waiting in the size broadcast, get gloo `Connection closed by peer` when rank 0 exits. The launcher "
             "records rank 0's exit 1 first, then ranks 2 and 1 (exit 1), and reports `job FAILED (first failure: "
             "rank 0)`.",
    exits="launcher 1; ranks 0, 1, 2 exit 1.",
    judgement="category code_exception (a programming error: an unpicklable object put into a broadcast payload); "
              "not config_error, the YAML values are fine. Initiator rank 0; first deviating line is rank 0's "
              "`AttributeError` (printed twice, by the logging handler on stdout and by torch on stderr). The "
              "`Connection closed by peer` errors of ranks 1 and 2 are collateral.",
    truth=T("failed", "rank", 0, cat="code_exception",
            fd="AttributeError: Can't pickle local object '_run.<locals>.<lambda>'", fd_rank=0,
            coll=[(1, "r1 E [rank1]: RuntimeError: " + CLOSED), (2, "r2 E [rank2]: RuntimeError: " + CLOSED)],
            notes="Rank 0 cannot pickle the run config (a local lambda) in broadcast_object_list; ranks 1 and 2 "
                  "lose their peer in the broadcast."))

JOBS["tc-runit-sv-once-svlogd-tt-taskset-bind-cpu-out-of-range-r2"] = dict(
    source="runit supervision as the launcher: `runsvdir -P service/` with one service per rank (run script: `chpst "
           "-e <envdir> taskset -c $LOCAL_RANK python tc_train.py ...`, the site's one-core-per-local-rank binding), a "
           "`svlogd -tt` log service per rank, `down` files and `sv once` so that no rank is restarted",
    cmd="see `_capture_tc/tc-runit-sv-once-svlogd-tt-taskset-bind-cpu-out-of-range-r2.sh` (3 ranks on a 2-CPU "
        "host, MASTER_PORT 29742, process-group timeout 40 s)",
    layout="`service/rank<R>/log/main/current`: svlogd's file for rank R, each line prefixed by svlogd's "
           "`YYYY-mm-dd_HH:MM:SS.xxxxx` stamp (run script echo, logging records `... INFO  tc.train rR: msg`, c10d "
           "warnings, tracebacks). `launcher.log`: the launcher's lines and its `sv status` polls every 3 s.",
    planted="the run script binds each rank to CPU number LOCAL_RANK; the host has CPUs 0 and 1 only, the job 3 "
            "ranks, so rank 2 is bound to CPU 2.",
    happened="`taskset` refuses for rank 2 (`failed to set pid ...'s affinity: Invalid argument`) and rank 2 never "
             "starts (sv shows it down from the first poll); ranks 0 and 1 wait in init_process_group. After the "
             "40 s timeout rank 0 (the TCPStore server) fails with `DistStoreError: Timed out after 41 seconds "
             "waiting for clients. 2/3 clients joined.` and rank 1 with `DistStoreError: wait timeout after "
             "40000ms`; the launcher sees no rank running and stops runsvdir.",
    exits="rank 2: taskset exit 1 (never ran python); ranks 0 and 1 exit 1; runsvdir 111 after SIGHUP.",
    judgement="category config_error (site CPU-binding policy does not fit the host: more ranks than cores); "
              "initiator rank 2, whose only line is taskset's refusal. The rendezvous timeouts of ranks 0 and 1 are "
              "collateral (they are not a rendezvous fault of their own).",
    truth=T("failed", "rank", 2, cat="config_error", fd="affinity: Invalid argument", fd_rank=2,
            coll=[(0, "Timed out after 41 seconds waiting for clients. 2/3 clients joined."),
                  (1, "DistStoreError: wait timeout after 40000ms")],
            notes="Rank 2's run script binds it to CPU 2 on a 2-CPU host; taskset refuses and rank 2 never joins; "
                  "ranks 0 and 1 time out in the rendezvous."))

JOBS["tc-mpich-hydra-prepend-rank-tiedblock-reentrant-ckpt-ddp-ready-twice-all"] = dict(
    source="MPICH's Hydra process manager as the rank launcher for a non-MPI PyTorch program: the trainer reads "
           "PMI_RANK / PMI_SIZE and sets up gloo over env://",
    cmd="`timeout -s TERM 150 nice mpiexec.hydra -launcher fork -n 3 -prepend-rank -genv MASTER_ADDR 127.0.0.1 -genv "
        "MASTER_PORT 29753 ... python tc_train.py --model tied-ckpt --rows 1600 --epochs 2 --pg-timeout 60 --fmt "
        "'%(asctime)s - %(name)s - %(levelname)s - %(message)s' > mpiexec.out 2>&1`",
    layout="one console `mpiexec.out`: every line of every rank prefixed by Hydra with `[R] ` (stdout and stderr "
           "alike): logging records, the `log.exception` traceback and torch's `[rankR]:` traceback.",
    planted="the model applies one weight-tied block twice, each application wrapped in "
            "`torch.utils.checkpoint.checkpoint(..., use_reentrant=True)`, under plain DDP.",
    happened="on the first backward every rank raises DDP's `RuntimeError: Expected to mark a variable ready only "
             "once ... Parameter at index 3 with name block.0.bias has been marked as ready twice`; all three ranks "
             "exit 1 at once and mpiexec returns 1.",
    exits="mpiexec.hydra 1; all ranks exit 1.",
    judgement="category code_exception (the model code combines reentrant activation checkpointing with a reused "
              "block under DDP), all_ranks: deterministic, every rank fails the same way at the same step. First "
              "deviating line: rank 2's RuntimeError (the ranks print within a few ms; rank 2's block comes first "
              "in the file). No collateral.",
    truth=T("failed", "all_ranks", cat="code_exception",
            fd="[2] RuntimeError: Expected to mark a variable ready only once.", fd_rank=2,
            notes="Reentrant activation checkpointing of a weight-tied block under DDP: every rank hits 'Expected to "
                  "mark a variable ready only once' on the first backward."))

JOBS["tc-tsp-queue-tmpdir-leak-loader-af-unix-path-too-long-all"] = dict(
    source="task-spooler (`tsp`) as the launcher: a private tsp server (TS_SOCKET=/tmp/tsp-tc.sock) with `tsp -S 3` "
           "slots, one queued job per env:// rank (`tsp -L rank<R> ...`); TMPDIR is set to the run's spool dir so "
           "that tsp keeps its output files with the run",
    cmd="see `_capture_tc/tc-tsp-queue-tmpdir-leak-loader-af-unix-path-too-long-all.sh` (each job: `timeout -s TERM "
        "150 nice python tc_train.py --data-dir data --workers 2 --dl-timeout 20 --epochs 2 --pg-timeout 90 ...`)",
    layout="`spool/tsp-output/ts-out.XXXXXX`: tsp's output file of each rank's job (stdout and stderr together; "
           "records `[YYYY-mm-dd HH:MM:SS,mmm][tc.train][LEVEL] - msg`, which rank only in the `start ... rank=R` "
           "line and torch's `[rankR]:` prefixes). `tsp-list.txt`: `tsp -l` after the queue drained (job id, "
           "E-Level, times, `[rankR]` label, command); `tsp-info.txt`: `tsp -i` of the three jobs (exit status, "
           "times).",
    planted="TMPDIR (the long spool path under the run dir) is inherited by the jobs. The DataLoader workers hand "
            "batches back through torch's file-descriptor sharing, which opens an AF_UNIX listener socket under "
            "TMPDIR; the resulting socket path is longer than the 107-byte AF_UNIX limit.",
    happened="every rank sets up gloo and its loader; in every rank the workers' queue feeder threads fail with "
             "`OSError: AF_UNIX path too long` (printed per worker and batch), no batch ever arrives, and after "
             "20 s each rank raises `RuntimeError: DataLoader timed out after 20.0 seconds` and exits 1 (tsp "
             "E-Level 1 for all three).",
    exits="tsp jobs 0, 1, 2: exit 1.",
    judgement="category config_error (environment set-up: an inherited TMPDIR too long for Unix sockets), all_ranks "
              "(every rank fails by itself the same way). Alternatives considered: storage_io (no disk fault) and "
              "data_error (the data is fine). First deviating line: `OSError: AF_UNIX path too long` (the earliest "
              "error in every rank's file; the files carry no per-line time, rank 0's file is named). The "
              "DataLoader timeouts are the same ranks' consequences, not collateral of another rank.",
    truth=T("failed", "all_ranks", cat="config_error", fd="OSError: AF_UNIX path too long", fd_rank=0,
            notes="TMPDIR set for tsp's output leaks into the ranks; torch's DataLoader fd sharing cannot bind its "
                  "AF_UNIX socket there (path too long), so every rank's loader times out."))

JOBS["tc-logsave-fabric-run-cli-yaml-stage2-resume-frozen-embed-optim-groups-all"] = dict(
    source="Lightning Fabric's own CLI as the launcher (`fabric run`, which starts the ranks through torchrun's "
           "elastic agent), the console kept by e2fsprogs' `logsave -a`",
    cmd="`timeout -s TERM 200 nice logsave -a finetune-console.log fabric run --accelerator cpu --strategy ddp "
        "--devices 3 tc_fabric_resume.py --config tc_stage2.yaml` (MASTER_PORT 29776); before it, not captured, "
        "stage 1 `fabric run ... --config tc_stage1.yaml` wrote `ckpt/pretrain-last.ckpt`",
    layout="one console `finetune-console.log` written by logsave: header `Log of <command>` and the start date, "
           "then everything the ranks and the agent printed (Fabric's `Initializing distributed` lines, `[rank: R] "
           "Seed set`, logging records `... INFO [gR] stage.finetune: msg`, torch's `[rankR]:` tracebacks, the "
           "agent's SIGTERM lines and `ChildFailedError` summary), then the end date and logsave's dashes trailer.",
    planted="stage 2 (fine-tuning) freezes the embedding layer, so its AdamW optimizer holds fewer parameters than "
            "stage 1's, and resumes the full state (model + optimizer + step) from stage 1's checkpoint with "
            "`fabric.load`.",
    happened="each rank logs `resuming from ckpt/pretrain-last.ckpt` and fails in `optimizer.load_state_dict` with "
             "`ValueError: loaded state dict contains a parameter group that doesn't match the size of optimizer's "
             "group` (rank 1 first, then 2, then 0, within 15 ms); the agent reaps local rank 2 first, SIGTERMs the "
             "other two (already failing) and prints the ChildFailedError summary naming rank 2 as root cause; "
             "`fabric exited with status code 1`.",
    exits="fabric run 1 (logsave passes it on); stage 1 exited 0.",
    judgement="category config_error (the stage-2 config resumes a full optimizer state into a different set of "
              "trainable parameters), all_ranks (deterministic, every rank raises it). The agent's `Root Cause` "
              "names rank 2 only because its exit was reaped first; the SIGTERM (-15) entries for ranks 0 and 1 are "
              "the agent's clean-up of ranks that had already raised the same error, so no collateral is listed. "
              "First deviating line: rank 1's ValueError, the first printed.",
    truth=T("failed", "all_ranks", cat="config_error",
            fd="ValueError: loaded state dict contains a parameter group that doesn't match the size of optimizer's group",
            fd_rank=1,
            notes="Stage-2 fine-tuning freezes the embedding but resumes stage 1's full optimizer state: "
                  "optimizer.load_state_dict refuses on every rank."))

JOBS["tc-joblib-loky-pool-pyspy-stall-watchdog-zero-consolidate-rank0-only-r0"] = dict(
    source="in-house launcher on joblib's loky process pool (`tc_joblib_launch.py`, joblib 1.6.0): one loky task per "
           "rank calling `tc_train.main()` in the worker with env:// variables; a stall watchdog thread runs "
           "`py-spy dump` on every rank when no rank log has grown for 20 s",
    cmd="`timeout -s TERM 200 nice python tc_joblib_launch.py --nproc 3 --port 29786 --stall 20 -- --zero "
        "--ckpt-every 60 --rows 1600 --epochs 3 --pg-timeout 60 --log-file 'logs/rank{rank}.log' --fmt '...' > "
        "launcher.out 2>&1` (PYTHONPATH for joblib)",
    layout="`logs/rank<R>.log`: each rank's FileHandler records `YYYY-mm-dd HH:MM:SS,mmm.mmm L pid rR tc.train] msg` "
           "(the format repeats the milliseconds) with `log.exception` tracebacks. `stacks/rank<R>.txt`: the "
           "watchdog's py-spy dumps (`Process <pid>: ...`, `Thread <pid> (idle): \"MainThread\"`, frames). "
           "`launcher.out`: the launcher's `[launch]` lines, joblib's verbose line, c10d warnings of the workers, "
           "the re-raised worker exception (`_RemoteTraceback`).",
    planted="the trainer uses ZeroRedundancyOptimizer and writes a checkpoint every 60 steps; the checkpoint code "
            "calls `consolidate_state_dict(to=0)` (a collective) only on rank 0.",
    happened="at step 60 rank 0 logs `consolidating optimizer state on rank 0 for the checkpoint` and enters the "
             "consolidation broadcasts while ranks 1 and 2 go on into step 61's DDP all_reduce; nothing is logged "
             "for 20 s, the watchdog dumps the stacks (rank 0 in `ZeroRedundancyOptimizer.consolidate_state_dict` "
             "-> broadcast, ranks 1 and 2 in backward); after the 60 s timeout rank 0 fails with gloo `Timed out "
             "waiting 60000ms for recv operation to complete` and rank 1 with `Connection closed by peer`; joblib "
             "re-raises rank 1's exception in the launcher and tears down the pool, so rank 2's worker is killed "
             "before it logs anything (its log ends at step 60).",
    exits="launcher 1.",
    judgement="category collective_mismatch (rank 0 alone calls a collective: the ranks' collective sequences "
              "diverge); alternative nccl_timeout_hang. Initiator rank 0; first deviating line is rank 0's "
              "`consolidating optimizer state on rank 0` record, where its sequence leaves the others' (its "
              "`Timed out waiting 60000ms` error comes 60 s later). Rank 1's failure is collateral (rank 2 "
              "printed none). joblib re-raises rank 1's error in the launcher, not rank 0's.",
    truth=T("failed", "rank", 0, cat="collective_mismatch",
            fd="step 60: consolidating optimizer state on rank 0 for the checkpoint", fd_rank=0,
            coll=[(1, "r1 tc.train] rank 1: training failed")],
            notes="ZeroRedundancyOptimizer.consolidate_state_dict called on rank 0 only: rank 0 waits in its "
                  "broadcasts while ranks 1 and 2 wait in DDP's all_reduce; gloo timeout after 60 s; joblib kills rank 2's "
                  "worker before it logs."))

JOBS["tc-pm2-ecosystem-fork-apps-time-prefixed-logs-max-memory-restart-rank0-preds-r0"] = dict(
    source="pm2 (the node.js process manager) as the launcher: ecosystem file `tc_pm2.config.js` with one fork-mode "
           "app per env:// rank (`train-r0` .. `train-r2`, pm2 ids 0 .. 2), the team template's `max_memory_restart: "
           "700M`, `autorestart: false`, `time: true`",
    cmd="`pm2 start tc_pm2.config.js` (PM2_HOME in the run dir, PM2_WORKER_INTERVAL=5000; each app runs `python "
        "tc_train.py --epoch-auc --hidden 4096 --bs 128 --rows 25600 --epochs 2 --pg-timeout 60 ...`), polled with "
        "`pm2 jlist` until no app is online, then `pm2 kill`",
    layout="`pm2logs/train-r<R>.out.log` / `.err.log`: pm2's files of each app's stdout / stderr, each line "
           "prefixed by pm2 with `YYYY-mm-ddTHH:MM:SS: `; the app's own records follow (`... INFO tc.train rankR: "
           "msg`). `pm2home/pm2.log`: the pm2 daemon's log (`<stamp>: PM2 log: ...`: start banner, app starts, the "
           "memory guard, kills, exits).",
    planted="the trainer's epoch-end metric runs a fixed probe set through `model.module` on rank 0 every step, "
            "outside `torch.no_grad()`, and keeps the outputs until the end of the epoch; every kept output holds "
            "its autograd graph and activations, so rank 0's memory grows by several MB per step.",
    happened="about 10 s into training pm2's worker logs `[PM2][WORKER] Process 0 restarted because it exceeds "
             "--max-memory-restart value (current_memory=... max_memory_limit=734003200 [octets])` and stops app 0 "
             "(train-r0) with SIGINT: rank 0 prints a `KeyboardInterrupt` traceback; ranks 1 and 2 get gloo "
             "`Connection closed by peer` in their all_reduce and exit 1. pm2 restarts rank 0 despite "
             "`autorestart: false`; the new rank 0 waits alone in the rendezvous and fails after 61 s (`Timed out "
             "after 61 seconds waiting for clients. 1/3 clients joined.`).",
    exits="all apps stopped; pm2 records exit code 1 for each (`via signal [SIGINT]` in its wording).",
    judgement="category oom: a process manager's memory guard (not the kernel) killed the rank whose memory grew; "
              "initiator rank 0 (pm2 app id 0 = `train-r0`, RANK=0 in the ecosystem file). First deviating line is "
              "pm2's memory-guard line in `pm2home/pm2.log` (rank 0's own log shows only a KeyboardInterrupt, a "
              "misleading symptom). Ranks 1 and 2's `Connection closed by peer` errors are collateral; the "
              "restarted rank 0's rendezvous timeout is a further consequence on rank 0 itself.",
    truth=T("failed", "rank", 0, cat="oom",
            fd="[PM2][WORKER] Process 0 restarted because it exceeds --max-memory-restart value", fd_rank=0,
            coll=[(1, "[rank1]: RuntimeError: " + CLOSED), (2, "[rank2]: RuntimeError: " + CLOSED)],
            notes="Rank 0 keeps probe-set outputs with their autograd graphs every step; pm2's max_memory_restart "
                  "guard SIGINTs and restarts it; ranks 1 and 2 lose their peer; the restarted rank 0 times out "
                  "alone in the rendezvous."))

JOBS["tc-healthy-daemontools-svscan-multilog-tai64n-final-eval"] = dict(
    source="daemontools supervision as the launcher: `svscan service/` with one service per env:// rank (run "
           "script with `down` file, started once with `svc -o`) and a log service per rank `multilog t s1000000 "
           "./main`; the launcher polls `svstat` and stops svscan at the end",
    cmd="see `_capture_tc/tc-healthy-daemontools-svscan-multilog-tai64n-final-eval.sh` (each rank: `nice python -W "
        "default tc_train.py --rows 1600 --epochs 3 --warn --final-eval --pg-timeout 60 --fmt "
        "'%(levelname)s:%(name)s:rank{rank}:%(message)s'`, MASTER_PORT 29808)",
    layout="`service/rank<R>/log/main/current`: multilog's file of rank R, every line prefixed by a TAI64N label "
           "`@4000...` (24 hex digits; no human-readable time), records `LEVEL:tc.train:rankR:msg`, a c10d warning "
           "and a `WARNING:py.warnings:rankR:... FutureWarning` with its source line. `launcher.log`: the "
           "launcher's lines and `svstat` polls (`up (pid N) S seconds, normally down`, finally `down 0 seconds`).",
    planted="nothing; a legacy `torch.cpu.amp.autocast(enabled=False)` call emits a FutureWarning on every rank.",
    happened="3 ranks train 3 epochs (150 steps), run the final evaluation (`final eval: accuracy 0.2935 over 4800 "
             "samples`), log `done: 150 steps ...` and exit 0; svstat shows all three down, svscan is stopped.",
    exits="all ranks 0.",
    judgement="healthy: every rank's log ends with the final evaluation and `done` lines and the supervisor reports "
              "the services down normally; the FutureWarning and the c10d hostname warning are noise.",
    truth=T("healthy", notes="Three ranks finish 3 epochs, the final evaluation and their done lines; only "
                             "warnings (FutureWarning, c10d hostname)."))

JOBS["tc-nodejs-childproc-launcher-jobspec-split-streams-tokenizer-json-newer-than-pinned-all"] = dict(
    source="site launcher written in Node.js (`tc_launch.js`, node 20): reads a JSON job spec (`job.json`: ranks, "
           "port, env, command), spawns each env:// rank with `child_process.spawn`, pipes its stdout and stderr "
           "into separate files, SIGTERMs the other ranks when one fails",
    cmd="`python tc_make_tokenizer.py assets/tokenizer.json > prep.log` (data-prep step), then `timeout -s TERM 150 "
        "nice node tc_launch.js job.json` (each rank: `python tc_train.py --tokenizer assets/tokenizer.json --rows "
        "1600 --epochs 2 --pg-timeout 60 --fmt ...`)",
    layout="`logs/rank-<R>.stdout.log`: rank R's logging records `YYYY-mm-dd HH:MM:SS,mmm | LEVEL | tc.train | "
           "rank R | msg` and the `log.exception` traceback; `logs/rank-<R>.stderr.log`: c10d warnings and torch's "
           "`[rankR]:` traceback. `launcher.log`: the launcher's ISO-8601 `...Z [launch.js]` lines (spawns, exits, "
           "SIGTERMs, verdict). `prep.log`: the data-prep step's one line.",
    planted="the data-prep step runs in the workstation venv (tokenizers 0.23.3) and saves a BPE tokenizer.json in "
            "the current serialization; the job spec's env pins the cluster image's older tokenizers 0.19.1 "
            "(PYTHONPATH), which cannot read that format.",
    happened="every rank sets up gloo, logs `loading tokenizer assets/tokenizer.json (tokenizers 0.19.1)` and raises "
             "`Exception: data did not match any variant of untagged enum ModelWrapper at line 302 column 3`; the "
             "launcher sees one rank exit 1 first, SIGTERMs the other two (which had raised the same exception) "
             "and reports the job failed.",
    exits="launcher 1.",
    judgement="category version_mismatch (a file written by a newer tokenizers release read by an older one; "
              "`prep.log` names 0.23.3, the ranks 0.19.1), all_ranks (every rank raises it by itself). The "
              "launcher's `first failure: rank N` only reflects which exit it reaped first; the SIGTERMs hit ranks "
              "that had already failed, so no collateral is listed. First deviating line: the tokenizers "
              "exception; rank 2's ERROR record is the earliest (01:39:17,456).",
    truth=T("failed", "all_ranks", cat="version_mismatch",
            fd="Exception: data did not match any variant of untagged enum ModelWrapper", fd_rank=2,
            notes="tokenizer.json saved by tokenizers 0.23.3 in the data-prep venv; the job pins tokenizers 0.19.1, "
                  "which cannot parse it on any rank."))

JOBS["tc-ninja-build-graph-per-rank-edges-buffered-output-dataloader-timeout-stalled-mount-r2"] = dict(
    source="ninja as the launcher: `build.ninja` with one edge per env:// rank (rule `train`, stamp files "
           "`out/rank<R>.ok`), run with `ninja -j 3`",
    cmd="`timeout -s TERM 200 ninja -j 3 > ninja.out 2>&1` (each edge: `env RANK=R ... nice python tc_train.py "
        "--data-dir data --workers 2 --dl-timeout 20 --epochs 2 --pg-timeout 90 --fmt '%(asctime)s rank{rank} "
        "%(levelname)s %(message)s' && touch out/rankR.ok`)",
    layout="one console `ninja.out`: ninja buffers each edge's output and prints it whole when the edge ends, in "
           "order of completion: `[N/3] train rank R`, for a failed edge `FAILED: [code=1] out/rankR.ok` and the "
           "command line, then the rank's records `YYYY-mm-dd HH:MM:SS,mmm rankR LEVEL msg`, tracebacks and "
           "torch's `[rankR]:` traceback; last `ninja: build stopped: subcommand failed.`",
    planted="float32 shard files under data/rank<R>/; one of rank 2's shard files sits on a stalled mount whose "
            "open() never returns (stand-in: the path is a FIFO with no writer, as a hard-mounted NFS file whose "
            "server stopped answering). The DataLoader has 2 workers and `timeout=20`.",
    happened="rank 2's workers block opening the stalled file; after 20 s rank 2 raises `RuntimeError: DataLoader "
             "timed out after 20.0 seconds` and exits 1; ranks 0 and 1, waiting in the first DDP all_reduce, get "
             "gloo `Connection closed by peer` and exit 1. ninja prints rank 2's edge first, then ranks 0 and 1.",
    exits="ninja 1; all ranks exit 1.",
    judgement="category storage_io (a shard read that never returns: the storage, not the data, is at fault); "
              "alternative data_error. Initiator rank 2; first deviating line is its DataLoader timeout. Ranks 0 "
              "and 1's `Connection closed by peer` errors are collateral.",
    truth=T("failed", "rank", 2, cat="storage_io", fd="RuntimeError: DataLoader timed out after 20.0 seconds",
            fd_rank=2,
            coll=[(1, "[rank1]: RuntimeError: " + CLOSED), (0, "[rank0]: RuntimeError: " + CLOSED)],
            notes="One of rank 2's shard files hangs on open (stalled mount); its DataLoader times out after 20 s "
                  "and ranks 0 and 1 lose their peer in DDP's all_reduce."))

JOBS["tc-inconclusive-nq-queue-per-rank-memoryhandler-rankfiles-job-vanishes"] = dict(
    source="nq (a tiny job queue) as the launcher, one queue dir per rank slot (`NQDIR=queue/rank<R> nq ...`), "
           "env:// ranks; the job runs in its own PID namespace",
    cmd="see `_capture_tc/tc-inconclusive-nq-queue-per-rank-memoryhandler-rankfiles-job-vanishes.sh` (each rank: "
        "`nice python tc_train.py --rows 3200 --epochs 40 --sleep 0.03 --pg-timeout 120 --log-file "
        "'logs/rank{rank}.log' --memory-handler 64 --fmt ...`)",
    layout="`queue/rank<R>/,<hex time>.<pid>`: nq's output file of rank R's job (nq's `exec nq ...` header line, "
           "then what the process printed to stdout / stderr: only a c10d warning). `logs/rank<R>.log`: the "
           "rank's records `YYYY-mm-dd HH:MM:SS,mmm <pid> LEVEL [rankR] msg`, written through a "
           "`logging.handlers.MemoryHandler` (capacity 64 records, flushed when full or on ERROR).",
    planted="40 s into the run the job's PID namespace is SIGKILLed from outside (a stand-in for the VM being "
            "reclaimed); nothing gets to run any handler.",
    happened="the three ranks train normally (epoch 5 of 40 when the last buffer was flushed); then every process "
             "is gone. The rank logs end at the last full 64-record flush (01:36:40), about 11 s before the kill (01:36:52); nq's files "
             "have no exit trailer.",
    exits="no exit status recorded anywhere (SIGKILL of the namespace).",
    judgement="inconclusive: the logs just stop mid-training without an error, a signal message or an end line, "
              "and nothing in them says why (the kill is known only from the harness).",
    truth=T("inconclusive", notes="The logs stop mid-training (epoch 5 of 40) with no error and no end of run; "
                                  "buffered log records were lost with the processes."))
