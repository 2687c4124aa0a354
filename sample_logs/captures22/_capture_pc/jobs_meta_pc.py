"""Per-job metadata for the roundN pc-* captures: command, layout, planted fault, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), accelerate 1.16.0, GNU make 4.3, "
       "util-linux 2.38.1 (unshare, script), GNU coreutils 9.1 (nohup, timeout), bash 5.2")


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status == "inconclusive" else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status == "inconclusive" else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}

JOBS["pc-makefile-torchrun-dictconfig-jsonl-cut-row-r1"] = dict(
    source="a site Makefile target (`make train`: prerequisite `check-data` lists the data dir, then the recipe runs "
           "`torchrun --standalone --nproc-per-node 3`), make's console in one file",
    cmd="`timeout -s TERM 120 nice make train > make.log 2>&1` (Makefile = `_capture_pc/Makefile.pc`; recipe "
        "`torchrun --standalone --nproc-per-node 3 pc_train.py --data data/v3 --steps 150 --fmt plain`; data made first "
        "by `python pc_make_data.py data/v3 3 800 1:516`)",
    layout="`make.log`: make's output (the `ls` of check-data, the echoed torchrun command, `make: *** [Makefile:12: "
           "train] Error 1`) with torchrun's and the workers' stdout/stderr; workers log `YYYY-mm-dd HH:MM:SS,mmm "
           "[rank<R>/<W>] LEVEL logger: msg` through `logging.config.dictConfig` with a rank filter; tracebacks carry "
           "torchrun's `[rank<R>]:` prefix.",
    planted="rank 1's shard `data/v3/shard-00001.jsonl` has its record at line 517 cut in half (an interrupted export); "
            "the other shards are whole.",
    happened="all three ranks start and form the gloo group; rank 1 fails while loading its shard with "
             "`json.decoder.JSONDecodeError: Expecting ',' delimiter: line 2 column 1 (char 87)` (the cut record plus "
             "its newline); ranks 0 and 2 load 800 rows each; torchrun SIGTERMs ranks 0 and 2 (pids 15148, 15150), "
             "reports rank 1 (exitcode 1) as root cause, and make prints `make: *** [Makefile:12: train] Error 1`.",
    exits="make 2 (torchrun 1).",
    judgement="category data_error (a corrupt record in one rank's input shard); initiator rank 1 (printed in the "
              "`[rank1]:` traceback and torchrun's summary). The SIGTERMs of ranks 0 and 2 are collateral.",
    truth=T("failed", "rank", 1, cat="data_error",
            fd="json.decoder.JSONDecodeError: Expecting ',' delimiter: line 2 column 1 (char 87)", fd_rank=1,
            coll=[(0, "Signal 15 (SIGTERM) received by PID 15148"), (2, "Signal 15 (SIGTERM) received by PID 15150")],
            notes="rank 1's JSONL shard has a record cut in half; rank 1 dies in json.loads while loading; torchrun "
                  "SIGTERMs the others; make reports Error 1."))

JOBS["pc-torchrun-jsonfiles-prefetch-lock-inversion-faulthandler-hang"] = dict(
    source="torchrun `--standalone --nproc-per-node 3`, console plus per-rank JSON-lines files written by a "
           "dictConfig FileHandler with a rank filter; ranks register `faulthandler` for SIGTERM (all threads)",
    cmd="`timeout -s TERM 120 nice torchrun --standalone --nproc-per-node 3 pc_train.py --data data --steps 400 "
        "--sleep 0.0 --prefetch --faulthandler --pg-timeout 20 --fmt json --logfile 'logs/train-rank{rank}.jsonl' > "
        "console.log 2>&1` (shards: 4000 rows for ranks 0 and 2, 1500 rows for rank 1)",
    layout="`console.log`: torchrun's and the workers' output; every worker record is one JSON object "
           "(`ts`, `rank`, `level`, `logger`, `msg`); tracebacks carry `[rank<R>]:`; the faulthandler dump (`Thread "
           "0x... (most recent call first):`) has no rank prefix. `logs/train-rank<R>.jsonl`: the same JSON records "
           "of rank R only.",
    planted="the trainer's background prefetch thread takes the queue lock and then, at the end of each pass over its "
            "local shard, the stats lock; the main loop's `next()` takes the stats lock and then the queue lock (a "
            "lock-order inversion; the thread also sleeps 2 ms under the queue lock). Rank 1 has the short shard, so it "
            "reaches the end of a shard pass first (~batch 46). Process-group timeout 20 s.",
    happened="all ranks log steps 0..40 (last records 19:58:32); rank 1's prefetch thread and main thread deadlock "
             "(rank 1 prints nothing more; its `prefetch: shard pass` record is never written, as it is logged under "
             "the lock). 20 s later rank 2 fails in DDP's backward with `Timed out waiting 20000ms for send operation "
             "to complete` and rank 0 with `Timed out waiting 20000ms for recv operation to complete`; torchrun sends "
             "SIGTERM to pids 16509 (rank 0) and 16510 (rank 1); the one faulthandler dump printed (rank 1, the only "
             "rank still alive and not in a traceback) shows the prefetch thread at `pc_train.py\", line 81 in run` "
             "(the stats lock) and the main thread at `line 90 in next` (the queue lock). torchrun's summary names "
             "rank 2 as the root cause (first observed failure).",
    exits="torchrun 1.",
    judgement="initiator rank 1 (the hung rank: its step records stop, it has no timeout traceback, and the thread "
              "dump, whose main thread sits in the data loader's `next` instead of a collective, can only be rank 1's: "
              "ranks 0 and 2 had already raised in backward). Category nccl_timeout_hang (a hung rank surfacing as "
              "collective timeouts on its peers; the cause is an application deadlock, not the network). First "
              "deviating line: the dump's prefetch-thread frame at line 81 (the first line that shows the deadlock; the "
              "hang itself leaves no line). torchrun's `Root Cause` (rank 2, the first process to exit) is left as "
              "printed.",
    truth=T("failed", "rank", 1, cat="nccl_timeout_hang",
            fd="pc_train.py\", line 81 in run", fd_rank=1,
            coll=[(2, "Timed out waiting 20000ms for send operation to complete"),
                  (0, "Timed out waiting 20000ms for recv operation to complete")],
            notes="rank 1 deadlocks between its prefetch thread and main loop (lock-order inversion) after step 40; "
                  "ranks 0 and 2 time out in gloo after 20 s; the faulthandler dump at SIGTERM shows the two threads."))

JOBS["pc-nohup-out-2node-uts-static-memwatch-sigkill-hardbatch-cache-r3"] = dict(
    source="two nodes cn-a / cn-b (UTS + mount namespaces), each agent started as `nohup torchrun ... &` from an "
           "interactive shell (pty from util-linux `script`), static rendezvous, each node's own `nohup.out`; a "
           "node-local memory watchdog on cn-b",
    cmd="on each node: `script -qfc \"nohup torchrun --nnodes 2 --node-rank N --nproc-per-node 2 --rdzv-backend static "
        "--master-addr cn-a --master-port 29917 pc_train.py --data data --steps 400 --sleep 0.1 --pg-timeout 30 "
        "--cache-features --fmt host &\"`; on cn-b also `LIMIT_MB=1200 memwatch.sh > memwatch.log` (every second, "
        "SIGKILL any process of the node over 1200 MiB RSS); whole job under `timeout -s TERM 150 nice`",
    layout="`nodes/<host>/nohup.out`: that node's torchrun agent and its two workers (records `YYYY-mm-dd "
           "HH:MM:SS,mmm <host> r<R> <L> logger | msg`, tracebacks with `[rank<R>]:`); `nodes/cn-b/memwatch.log`: the "
           "watchdog's start and kill lines (pid, RSS, limit; no rank).",
    planted="rank 3's shard (`shard-00003.jsonl`) was exported with inverted labels. The trainer keeps an 8 MiB "
            "feature view of every hard batch (loss > 0.9) for a later replay pass; on rank 3 nearly every batch stays "
            "hard, so its RSS grows ~8 MiB per step.",
    happened="all four ranks train; rank 3's local loss stays near 1 (step 150: 0.9762, others ~0.45) while the "
             "global loss falls; at 20:00:21 memwatch on cn-b logs `pid 20961 (python3) rss 1288 MiB > limit 1200 MiB, "
             "sending SIGKILL` (pid 20961 = rank 3 by its `starting pid=` record); cn-b's agent reports `failed "
             "(exitcode: -9) local_rank: 1 (pid: 20961)`, root cause rank 3 SIGKILL, and SIGTERMs rank 2 (which had "
             "already hit `Read error ... Connection reset by peer`); on cn-a rank 0 gets `Read error ... Connection "
             "reset by peer`, rank 1 `Connection closed by peer`, and cn-a's agent fails with both ranks exit 1.",
    exits="the harness's node shells exit 0 (the nohup'd agents' codes are not collected; their summaries are in "
          "nohup.out).",
    judgement="category oom (killed for memory by the node's watchdog, not by the kernel; the cause is the growing "
              "hard-batch cache driven by rank 3's inverted labels, which could also be argued data_error, but the "
              "failure the log shows is a memory kill); initiator rank 3 (torchrun's summary on cn-b: `rank : 3 "
              "(local_rank: 1)`, SIGKILL). First deviating line: the watchdog's kill line (the earliest line that "
              "shows the cause; rank 3 by pid).",
    truth=T("failed", "rank", 3, cat="oom",
            fd="pid 20961 (python3) rss 1288 MiB > limit 1200 MiB, sending SIGKILL", fd_rank=3,
            coll=[(2, "[rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error"),
                  (0, "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error"),
                  (1, "Connection closed by peer [127.0.0.1]:24802")],
            notes="rank 3 (cn-b local rank 1) grows its hard-batch feature cache (inverted labels) until cn-b's memory "
                  "watchdog SIGKILLs it; the other three ranks lose their gloo peers."))

JOBS["pc-torchrun-maxrestarts1-tmpfs-ckpt-tmpreaper"] = dict(
    source="torchrun `--standalone --nproc-per-node 2 --max-restarts 1`, console through `tee`, per-rank append-mode "
           "dictConfig files, a tmp reaper's log",
    cmd="`timeout -s TERM 120 nice torchrun --standalone --nproc-per-node 2 --max-restarts 1 pc_train.py --data data "
        "--steps 250 --sleep 0.05 --ckpt-dir ckpt --ckpt-every 50 --fmt host --logfile 'logs/rank{rank}.log' 2>&1 | tee "
        "console.log`; `ckpt/` is a 1 MiB tmpfs holding a stale 1020 KiB `old-run-7f3a.pt`; a reaper removes "
        "`ckpt/old-run-*` 15 s after the start (`tmpreaper.log`)",
    layout="`console.log`: torchrun's output and both workers' records (`YYYY-mm-dd HH:MM:SS,mmm vm r<R> <L> logger | "
           "msg`) with `[rank<R>]:` tracebacks, both attempts; `logs/rank<R>.log`: rank R's records only (no "
           "tracebacks), both attempts appended; `tmpreaper.log`: the reaper's scan and `removed` lines.",
    planted="the checkpoint tmpfs is full (a stale checkpoint of an earlier run leaves ~4 KiB free); rank 0 writes "
            "`last.pt.tmp` at step 50 between two barriers.",
    happened="attempt 0: both ranks reach step 50; rank 0's `torch.save` fails with `RuntimeError: basic_ios::clear: "
             "iostream error` and then `RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 1280 "
             "vs 1174` (the write hit the full tmpfs); rank 1 fails at the barrier with `Connection closed by peer`; "
             "torchrun restarts the group (new pids 670, 671). The reaper frees the tmpfs at 20:03:02, but the "
             "restarted workers never finish `init_process_group` (their `process group ready` record never comes) "
             "until the harness's `timeout` SIGTERMs torchrun at 20:04:47 (`Received 15 death signal, shutting down "
             "workers`, `SignalException: Process 439 got signal: 15`).",
    exits="torchrun 124 (the harness's timeout).",
    judgement="initiator rank 0, category storage_io: the first failure is rank 0's checkpoint write on the full "
              "tmpfs (the log shows it only as the iostream error / `unexpected pos`, not as ENOSPC). The restarted "
              "attempt's stall in init and the final SIGTERM from the timeout are counted as consequences of that "
              "failure, not as a separate external cause (the stall itself is unexplained by the log; in earlier "
              "tries of the same setup the restart either recovered or failed in `Gloo connectFullMesh ... Connection "
              "refused`, see the batch README). Rank 1's `Connection closed by peer` in attempt 0 is collateral.",
    truth=T("failed", "rank", 0, cat="storage_io",
            fd="RuntimeError: basic_ios::clear: iostream error", fd_rank=0,
            coll=[(1, "Connection closed by peer [127.0.0.1]:5027")],
            notes="rank 0's checkpoint save fails on a full tmpfs (stale file); torchrun restarts once; the restarted "
                  "workers stall in init until the harness timeout SIGTERMs the agent."))

JOBS["pc-healthy-nohup-out-2node-uts-static-memwatch-hardbatch-cache"] = dict(
    source="two nodes cn-a / cn-b (UTS + mount namespaces), `nohup torchrun ... &` from an interactive shell (pty "
           "from `script`) on each, static rendezvous, each node's own `nohup.out`, cn-b's memory watchdog",
    cmd="same as pc-nohup-out-2node-uts-static-memwatch-sigkill-hardbatch-cache-r3 (master port 29927, addresses "
        "127.0.6.x), all four shards exported correctly",
    layout="`nodes/<host>/nohup.out` per node (agent + two workers), `nodes/cn-b/memwatch.log` (start line only).",
    planted="nothing.",
    happened="all four ranks train 400 steps; no watchdog action; every rank logs `done: 400 steps, final train acc "
             "0.9848`; both agents exit normally.",
    exits="node shells 0.",
    judgement="healthy: final `done` record on all four ranks, no error lines besides the usual c10d hostname "
              "warnings.",
    truth=T("healthy", None, notes="healthy two-node run (4 ranks), done records on all ranks, watchdog idle."))

JOBS["pc-runjob-xtrace-envfile-c10d-torchrun-dataroot-all"] = dict(
    source="a site job wrapper `runjob.sh` (`set -euo pipefail`, sources `job.env`, `exec >> logs/run-<JOB_ID>.log "
           "2>&1`, `set -x`) running torchrun with a c10d rendezvous endpoint",
    cmd="`timeout -s TERM 120 nice bash runjob.sh`; inside: `torchrun --nnodes 1 --nproc-per-node 3 --rdzv-backend c10d "
        "--rdzv-endpoint localhost:29947 --rdzv-id 48377 pc_train.py --data \"$DATA_ROOT\" --steps 200 --fmt plain`",
    layout="`logs/run-48377.log`: bash xtrace lines (`+ cmd`) of the wrapper, the output of `date`, `hostname`, the "
           "torch version check, then torchrun's and the workers' output (`[rank<R>/<W>]` records, `[rank<R>]:` "
           "tracebacks).",
    planted="`job.env` was edited for a new dataset release (`DATA_ROOT=.../datasets/clicks-v6`) but only "
            "`datasets/clicks-v5` exists on this machine.",
    happened="all three ranks form the group and each fails opening its own shard under clicks-v6 with "
             "`FileNotFoundError: [Errno 2] No such file or directory` (rank 2 first, then 1, then 0); torchrun "
             "reports rank 1 as root cause; the wrapper stops there (`set -e`, no closing `date`).",
    exits="runjob.sh 1.",
    judgement="all_ranks config_error: a wrong data root in the job's env file hits every rank the same way (not a "
              "data corruption; the data exists under the old release). First deviating line: rank 2's "
              "FileNotFoundError (the earliest printed). No collateral: each rank fails on its own.",
    truth=T("failed", "all_ranks", None, cat="config_error",
            fd="No such file or directory: '/home/user/jobsN/pc-runjob-xtrace-envfile-c10d-torchrun-dataroot-all/datasets/clicks-v6/shard-00002.jsonl'",
            fd_rank=2,
            notes="DATA_ROOT in job.env points to a dataset release not on the machine; every rank fails to open "
                  "its shard."))

JOBS["pc-accelerate-fsdp-cpu-yaml-sync-module-states-all"] = dict(
    source="`accelerate launch --config_file` with an FSDP config file on a CPU host (distributed_type FSDP, "
           "use_cpu true, num_processes 2), console to one file",
    cmd="`timeout -s TERM 120 nice accelerate launch --config_file fsdp_cpu_sync.yaml --main_process_port 29955 "
        "pc_acc_fsdp.py --steps 300 --sleep 0.2 > train.out 2>&1` (`fsdp_cpu_sync.yaml`: FULL_SHARD, SIZE_BASED_WRAP "
        "min 10000 params, BACKWARD_PRE, SHARDED_STATE_DICT, use_orig_params true, sync_module_states true, rdzv "
        "static)",
    layout="`train.out`: accelerate's torchrun-based launcher output, the two workers' tracebacks (no rank prefix) and "
           "the elastic `ChildFailedError` summary.",
    planted="the FSDP config has `fsdp_sync_module_states: true` while the run is a CPU run (`use_cpu: true`).",
    happened="both workers raise in `Accelerator()` (FullyShardedDataParallelPlugin.__post_init__): `RuntimeError: "
             "FSDP parameter initialization with `sync_module_states=True` is not supported on cpu.`; the launcher "
             "SIGTERMs one and reports the other (local_rank 0, exitcode 1) as root cause; accelerate exits 1.",
    exits="accelerate 1.",
    judgement="all_ranks config_error (the launch config is refused identically by every process). The tracebacks "
              "carry no rank, so first_deviating has rank null.",
    truth=T("failed", "all_ranks", None, cat="config_error",
            fd="RuntimeError: FSDP parameter initialization with `sync_module_states=True` is not supported on cpu.",
            fd_rank=None,
            notes="accelerate's FSDP plugin refuses sync_module_states on a CPU run in every process."))

JOBS["pc-inconclusive-accelerate-fsdp-cpu-yaml-snapshot-running"] = dict(
    source="`accelerate launch --config_file` with an FSDP config on a CPU host (num_processes 2), the console file "
           "copied off while the job was still running",
    cmd="`timeout -s TERM 120 nice accelerate launch --config_file fsdp_cpu.yaml --main_process_port 29956 "
        "pc_acc_fsdp.py --steps 300 --sleep 0.2 > train.out 2>&1`; 25 s after the start `cp train.out "
        "snapshot/train.out` (`fsdp_cpu.yaml` as in pc-accelerate-fsdp-cpu-yaml-sync-module-states-all but "
        "`fsdp_sync_module_states: false`)",
    layout="`snapshot/train.out`: the first 47 lines of the console (c10d warnings, accelerate-logging records "
           "`YYYY-mm-dd HH:MM:SS,mmm - INFO - fsdp_train - [RANK 0] msg`), as copied at 20:09:43.",
    planted="nothing; the log is a snapshot of a running job.",
    happened="both processes start; each logs `distributed_type=DistributedType.NO num_processes=1` (with `use_cpu` "
             "and FSDP this accelerate 1.16.0 set-up ran the two processes as independent single-process runs, both "
             "logging as RANK 0) and trains; the snapshot ends at step 95. The job itself went on to `training "
             "complete` on both processes at 20:10:25 and accelerate exited 0 (not part of the kept log).",
    exits="accelerate 0 (after the snapshot).",
    judgement="inconclusive: the kept log just stops mid-training without an error or an end line. The "
              "`DistributedType.NO` records are odd (two processes that do not form a group) but nothing in the "
              "snapshot shows a failure.",
    truth=T("inconclusive", notes="snapshot of a running job's console; it stops at step 95 with no error and no end "
                                  "line."))
