"""Per-job metadata for the roundP rc-* captures: command, layout, planted fault, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), typer 0.29.2, "
       "util-linux 2.38.1 (unshare, flock), mawk 1.3.4, GNU coreutils (stdbuf, timeout), bash 5.2")
GLOO = "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status in ("inconclusive", "healthy") else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status in ("inconclusive", "healthy") else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}

JOBS["rc-osfork-dup2-argparse-rankfiles-collate-keyerror-r1"] = dict(
    source="home-grown argparse launcher CLI `rc_fork_launch.py` (`rc-launch`): `os.fork` per rank, `os.dup2` of fds 1 "
           "and 2 onto `logs/rank<R>.log`, `os.execvpe` of the trainer (env://)",
    cmd="`timeout -s TERM 150 nice python rc_fork_launch.py --nproc 3 --logdir logs -- python rc_train.py --rows 1200 "
        "--epochs 2 --drop-key 1:777 --pg-timeout 60 > launcher.out 2>&1`",
    layout="`launcher.out`: the launcher's `rc-launch <date> <time> ...` lines (fork, reap, SIGTERM). `logs/rank<R>.log`: "
           "everything a rank printed (records `YYYY-mm-dd HH:MM:SS,mmm | LEVEL | rank R/3 | msg`, c10d warnings, "
           "tracebacks with torch's `[rank<R>]:` prefix).",
    planted="sample 777 of rank 1's shard carries its label under the key `label` instead of `y` (an export glitch); "
            "the DataLoader's custom collate function reads `b[\"y\"]` for every sample.",
    happened="all ranks train through step 20; the shuffled batch holding sample 777 reaches rank 1's collate function "
             "and raises `KeyError: 'y'`; rank 1 exits 1; ranks 0 and 2, waiting in DDP's gradient all_reduce, get "
             "`Connection closed by peer` from gloo; the launcher reaps rank 1, SIGTERMs ranks 0 and 2 (reaped as killed "
             "by signal 15) and reports the job FAILED.",
    exits="launcher 1 (rank 1 exit 1, ranks 0 and 2 signal 15).",
    judgement="category data_error (one malformed sample in one rank's shard); initiator rank 1. First deviating line is "
              "rank 1's `KeyError: 'y'`. The gloo `Connection closed by peer` errors of ranks 0 and 2 are collateral.",
    truth=T("failed", "rank", 1, cat="data_error", fd="[rank1]: KeyError: 'y'", fd_rank=1,
            coll=[(0, "[rank0]: RuntimeError: " + GLOO + "pair.cc:553] Connection closed by peer"),
                  (2, "[rank2]: RuntimeError: " + GLOO + "pair.cc:553] Connection closed by peer")],
            notes="Rank 1's collate function hits a sample without the 'y' key (KeyError); ranks 0 and 2 lose their "
                  "gloo peer in the gradient all_reduce and are then SIGTERMed by the fork launcher."))

JOBS["rc-flock-serialized-launch-envfiles-master-port-typo-r2"] = dict(
    source="bash launcher with `flock -x`-serialized launch steps: per rank a background subshell takes an exclusive "
           "lock on `launch.lock`, sources `env/rank<R>.env`, logs its rendezvous settings to `launch.log`, stages, "
           "releases the lock and execs the trainer (env://); `wait -n` reaping",
    cmd="see `_capture_rc/rc-flock-serialized-launch-envfiles-master-port-typo-r2.sh` (each rank: `exec timeout -s TERM "
        "120 nice python rc_train.py --rows 800 --pg-timeout 30 > out/rank<R>.log 2>&1`)",
    layout="`launch.log`: the lock holders' lines (`<date> <time> rank R: ...`, in lock order 2, 0, 1) and the "
           "launcher's `wait -n` lines. `out/rank<R>.log`: each rank's stdout+stderr (records `... | rank R/3 | ...`, "
           "c10d warnings / errors with C++ frames, Python tracebacks).",
    planted="`env/rank2.env` has `MASTER_PORT=29852` (two digits swapped); ranks 0 and 1 use 29582. Process-group "
            "timeout 30 s so the store waits end.",
    happened="rank 0 hosts the TCPStore on 29582, rank 1 joins it; rank 2 tries to connect to 127.0.0.1:29852, where "
             "nothing listens: `The client socket has timed out after 30000ms while trying to connect to (127.0.0.1, "
             "29852)`, retries once, and fails with DistNetworkError after ~70 s. Rank 0 gives up first: `Timed out after "
             "31 seconds waiting for clients. 2/3 clients joined.`; rank 1 times out waiting for the gloo key of rank 0 "
             "(`wait timeout after 30000ms, keys: /default_pg/0//cpu//0/0`).",
    exits="all three ranks 1; the launcher script exited 1.",
    judgement="category config_error (a per-rank env file typo), initiator rank 2. First deviating line: rank 2's first "
              "connect-timeout line naming port 29852 (the earlier `launch.log` line showing `MASTER_PORT=29852` is the "
              "cause's only other trace and needs the comparison with the other ranks' lines). Ranks 0 and 1's store "
              "timeouts are collateral. Alternative category: rendezvous.",
    truth=T("failed", "rank", 2, cat="config_error",
            fd="[c10d] The client socket has timed out after 30000ms while trying to connect to (127.0.0.1, 29852).",
            fd_rank=2,
            coll=[(0, "torch.distributed.DistStoreError: Timed out after 31 seconds waiting for clients. 2/3 clients joined."),
                  (1, "torch.distributed.DistStoreError: wait timeout after 30000ms, keys: /default_pg/0//cpu//0/0")],
            notes="Rank 2's env file carries MASTER_PORT=29852 instead of 29582; it never reaches the store, so rank 0's "
                  "store waits for 3 clients and rank 1's gloo setup wait both time out."))

JOBS["rc-torchrun-watchedfh-date-jobid-rankfiles-allgather-listsize-r2"] = dict(
    source="`torchrun --standalone --nproc-per-node 3`, trainer logging only through `logging.handlers.WatchedFileHandler` "
           "into a site layout `logs/<date>/<jobid>/rank<R>.log`; torchrun's console in `torchrun.out`",
    cmd="`JOBID=73114 timeout -s TERM 150 nice torchrun --standalone --nproc-per-node 3 rc_train.py --rows 900 --epochs 2 "
        "--pg-timeout 30 --logto watched:logs/2026-12-06/73114/rank{rank}.log --gather-list 2:2 > torchrun.out 2>&1`",
    layout="`logs/2026-12-06/73114/rank<R>.log`: records `<date> <time>,ms <pid> rank=R LEVEL rc.train msg` (no "
           "tracebacks: those go to stderr). `torchrun.out`: c10d warnings, the ranks' tracebacks (`[rank<R>]:` prefix), "
           "torchrun's SIGTERM / failure lines and its ChildFailedError summary.",
    planted="at each epoch end every rank all_gathers `[loss, step]`; rank 2 (a stale metrics patch) sizes its output "
            "list to 2 tensors instead of the world size 3.",
    happened="epoch 0 trains on all ranks; rank 2 logs `gathering epoch metrics into 2 slots` (the others 3) and its "
             "all_gather raises at once `ProcessGroupGloo::allgather: invalid output tensor list at index 0 (expected "
             "length 3, got 2)`; ranks 0 and 1, inside the all_gather, get `Connection closed by peer`; torchrun "
             "SIGTERMs them and names rank 2 (exitcode 1) as the root cause.",
    exits="torchrun 1.",
    judgement="category collective_mismatch (one rank calls the collective with arguments that do not match the group); "
              "initiator rank 2. First deviating line: rank 2's RuntimeError (the earlier `into 2 slots` record is not "
              "an error by itself). Ranks 0 and 1's `Connection closed by peer` errors are collateral. Alternative "
              "category: code_exception.",
    truth=T("failed", "rank", 2, cat="collective_mismatch",
            fd="ProcessGroupGloo::allgather: invalid output tensor list at index 0 (expected length 3, got 2)", fd_rank=2,
            coll=[(0, "[rank0]: RuntimeError: " + GLOO + "pair.cc:553] Connection closed by peer"),
                  (1, "[rank1]: RuntimeError: " + GLOO + "pair.cc:553] Connection closed by peer")],
            notes="Rank 2 passes an all_gather output list of 2 tensors in a world of 3; gloo refuses it on rank 2, the "
                  "other ranks lose their peer inside the same all_gather."))

JOBS["rc-forloop-awk-stamped-rankfiles-rank0-only-barrier-deadlock-r0"] = dict(
    source="bash launcher: a `for` loop starts three rank subshells with `&` (env://), each piping the rank's output "
           "through `stdbuf -oL` into a `mawk` filter that stamps every line with the wall time (a `ts` stand-in, "
           "moreutils is not installed) into `stamped/rank<R>.log`; `wait -n -p` reaping, launcher lines in `launcher.log`",
    cmd="see `_capture_rc/rc-forloop-awk-stamped-rankfiles-rank0-only-barrier-deadlock-r0.sh` (each rank: `timeout -s "
        "TERM 120 nice stdbuf -oL -eL python rc_train.py --rows 800 --epochs 2 --ckpt ckpt/model.pt --rank0-barrier "
        "--pg-timeout 20 2>&1 | mawk -W interactive ... > stamped/rank<R>.log`)",
    layout="`stamped/rank<R>.log`: every line prefixed `Mon DD HH:MM:SS rR ` by mawk, then the rank's own text (records "
           "`... | rank R/3 | ...`, tracebacks with `[rank<R>]:`). `launcher.log`: start / `wait -n` lines with shell pids.",
    planted="the trainer's epoch-end checkpoint block has `dist.barrier()` inside the `if rank == 0` branch "
            "(indentation bug): rank 0 enters a barrier no other rank calls. Process-group timeout 20 s (short, so the "
            "deadlock ends).",
    happened="epoch 0 ends; rank 0 writes the checkpoint, logs `waiting for all ranks after checkpoint` and blocks in the "
             "barrier; ranks 1 and 2 go on into epoch 1 and block in DDP's gradient all_reduce. 20 s later all three "
             "time out: rank 0 in `dist.barrier()` (`Timed out waiting 20000ms for recv operation`), ranks 1 and 2 in "
             "backward (send / recv timeouts); all exit 1.",
    exits="all three rank shells 1.",
    judgement="category collective_mismatch (rank 0 alone calls a barrier: the ranks' collective sequences diverge), "
              "initiator rank 0. First deviating line: rank 0's `waiting for all ranks after checkpoint` record, the "
              "point where its collective sequence leaves the others' (no rank prints an error until the timeout, and "
              "all three timeouts look alike). The timeouts of ranks 1 and 2 are collateral. Alternative category: "
              "nccl_timeout_hang.",
    truth=T("failed", "rank", 0, cat="collective_mismatch", fd="| rank 0/3 | waiting for all ranks after checkpoint",
            fd_rank=0,
            coll=[(1, "r1 [rank1]: RuntimeError: " + GLOO + "unbound_buffer.cc:129] Timed out waiting 20000ms for send operation to complete"),
                  (2, "r2 [rank2]: RuntimeError: " + GLOO + "unbound_buffer.cc:78] Timed out waiting 20000ms for recv operation to complete")],
            notes="dist.barrier() sits in rank 0's checkpoint-only branch; rank 0 waits in the barrier while ranks 1 and "
                  "2 wait in the next gradient all_reduce; all time out after 20 s."))

JOBS["rc-pym-distrun-restart1-redirects1-tee2-logdir-segv-restart-stale-mesh-r1"] = dict(
    source="`python -m torch.distributed.run --standalone --nproc-per-node 3 --max-restarts 1 --redirects 1 --tee 2 "
           "--log-dir tlogs` (workers' stdout only to the log-dir files, stderr to the files and, prefixed, the console)",
    cmd="`timeout -s TERM 200 nice python -m torch.distributed.run --standalone --nproc-per-node 3 --max-restarts 1 "
        "--redirects 1 --tee 2 --log-dir tlogs rc_train.py --rows 700 --epochs 1 --segv 1:15 --pg-timeout 30 --summary "
        "> console.log 2>&1`",
    layout="`console.log`: the agent's own lines and the workers' stderr with `[default<R>]:` prefixes (worker stdout "
           "records are NOT in the console). `tlogs/<run id>/attempt_<N>/<R>/stdout.log` and `stderr.log` per attempt "
           "and local rank.",
    planted="on the first attempt only (TORCHELASTIC_RESTART_COUNT=0) rank 1 reads a staging buffer at address 0 with "
            "`ctypes.string_at(0)` at step 15 (SIGSEGV, no Python traceback). Planned as a healthy restart: "
            "`--max-restarts 1` should rerun the group cleanly.",
    happened="attempt 0: rank 1 logs `step 15: reading pinned staging buffer through libstage shim` (stdout.log only) "
             "and dies of SIGSEGV; ranks 0 and 2 get `Read error ... Connection reset by peer` in backward; the agent "
             "SIGTERMs them and logs `failed (exitcode: -11) local_rank: 1`. Attempt 1 (restart): rank 2's gloo full-mesh "
             "connect goes to the address `[127.0.0.1]:5540` that rank 1 had in attempt 0 (connection refused, 4 tries), "
             "rank 0's mesh setup gets `Connection closed by peer`; rank 2 exits 1, the agent SIGTERMs the others, the "
             "restart budget is spent and torch.distributed.run raises ChildFailedError (root cause: rank 2 of attempt 1). "
             "The run did not recover (not what was planned; kept as it happened).",
    exits="python -m torch.distributed.run 1.",
    judgement="status failed. Initiator rank 1 (its SIGSEGV in attempt 0 started the chain; the second attempt's gloo "
              "mesh failure is the restart tripping over a stale address of the dead attempt, reported by torchrun as "
              "the final 'root cause' rank 2). Category code_exception for a native crash in the job's own code path "
              "(alternative: other). First deviating line: the agent's `failed (exitcode: -11) local_rank: 1` line — "
              "rank 1 printed nothing about the crash itself (its last stdout record is an ordinary info line). "
              "Collateral: the attempt-0 read errors of ranks 0 and 2 and attempt 1's mesh errors.",
    truth=T("failed", "rank", 1, cat="code_exception", fd="failed (exitcode: -11) local_rank: 1 (pid: 8644)", fd_rank=1,
            coll=[(0, "[default0]:[rank0]: RuntimeError: " + GLOO + "pair.cc:537] Read error [127.0.0.1]:5540: Connection reset by peer."),
                  (2, "[default2]:[rank2]: RuntimeError: " + GLOO + "pair.cc:537] Read error [127.0.0.1]:5540: Connection reset by peer."),
                  (2, "RuntimeError: Gloo connectFullMesh failed with " + GLOO + "pair.cc:152] timed out connecting: SO_ERROR: Connection refused"),
                  (0, "RuntimeError: Gloo connectFullMesh failed with " + GLOO + "pair.cc:553] Connection closed by peer")],
            notes="Rank 1 segfaults (ctypes NULL read) in attempt 0; its peers fail on the reset connection; the single "
                  "restart then fails in gloo mesh setup (rank 2 connects to rank 1's old attempt-0 address), so the job "
                  "fails for good."))

JOBS["rc-healthy-posix-spawn-slots-summary"] = dict(
    source="home-grown slot launcher `rc_spawn_launch.py`: reads `slots.conf` (`slot VAR=VALUE ...` per process), starts "
           "each slot with `os.posix_spawnp` whose file_actions open `spawn/<slot>.out` on fd 1 and dup2 it onto fd 2",
    cmd="`timeout -s TERM 150 nice python rc_spawn_launch.py slots.conf python rc_train.py --rows 800 --epochs 2 "
        "--summary > launch.out 2>&1`",
    layout="`launch.out`: `HH:MM:SS spawn-launch: ...` lines (slot env, exit codes, job result). `spawn/s<N>.out`: each "
           "slot's stdout+stderr; rank 0's ends with a `run summary` block printed with print().",
    planted="nothing (healthy control).",
    happened="2 epochs, 50 steps on 3 ranks; every rank logs `done: 50 steps, train acc 0.2646`, rank 0 prints the run "
             "summary; all slots exit 0; `job completed, all slots exit 0`.",
    exits="launcher 0.",
    judgement="healthy: final done lines, the summary block and a clean launcher exit. The c10d `hostname of the client "
              "socket cannot be retrieved` warnings come from the network namespace without a resolver and are "
              "harmless. (The summary's `wall time` counts only from the start of the loop and is what the program "
              "printed.)",
    truth=T("healthy", notes="Healthy control: posix_spawn slot launcher, 3 ranks finish 2 epochs; rank 0 prints a run "
                             "summary; the launcher reports all slots exit 0."))

JOBS["rc-posix-spawn-slots-duplicated-rank-r1"] = dict(
    source="the same `os.posix_spawnp` slot launcher (`rc_spawn_launch.py`, `slots.conf`, `spawn/<slot>.out`)",
    cmd="`timeout -s TERM 150 nice python rc_spawn_launch.py slots.conf python rc_train.py --rows 800 --epochs 2 "
        "--pg-timeout 30 > launch.out 2>&1`",
    layout="as in rc-healthy-posix-spawn-slots-summary: `launch.out` and `spawn/s0.out`, `s1.out`, `s2.out`.",
    planted="`slots.conf` was hand-edited and slot s2 still carries `RANK=1` (with `LOCAL_RANK=2`): rank 1 twice, no "
            "process with rank 2. Process-group timeout 30 s.",
    happened="three clients reach the TCPStore, so the store barrier passes; in gloo setup every process waits for the key "
             "of rank 2 (`wait timeout after 30000ms, keys: /default_pg/0//cpu//0/2`) — printed by all three processes, "
             "two of which call themselves `rank 1/3`. Slot s2 exits first (code 1), the launcher SIGTERMs s0 and s1 "
             "(code -15).",
    exits="launcher 1.",
    judgement="category config_error (duplicated RANK in the launcher's slot table). The job's own lines name the bad "
              "process `rank 1` (slot s2's output says `rank 1/3`), so initiator rank 1 as printed; the first deviating "
              "line is the launcher's slot-s2 line showing `RANK=1 LOCAL_RANK=2`. Alternative category: rendezvous. "
              "Collateral: rank 0's gloo key timeout.",
    truth=T("failed", "rank", 1, cat="config_error", fd="slot s2: pid 11354 RANK=1 LOCAL_RANK=2 WORLD_SIZE=3", fd_rank=1,
            coll=[(0, "torch.distributed.DistStoreError: wait timeout after 30000ms, keys: /default_pg/0//cpu//0/2")],
            notes="Two processes start with RANK=1 (slot s2's env duplicates slot s1's rank); nobody registers rank 2, so "
                  "all processes time out waiting for rank 2's gloo address."))

JOBS["rc-typer-tasks-torchrun-dataset-cache-race-r1"] = dict(
    source="project task runner `tasks.py` (invoke-style, on typer): `python tasks.py prepare` then `python tasks.py train` "
           "which echoes and runs `python -m torch.distributed.run --standalone --nproc-per-node=3 rc_train.py ...`; "
           "one console file",
    cmd="`{ python tasks.py prepare && timeout -s TERM 150 nice python tasks.py train --nproc 3 --rows 800 --cache "
        "cache/vocab.pt --pg-timeout 60; } > tasks.log 2>&1`",
    layout="`tasks.log`: the runner's `[tasks HH:MM:SS] $ <command>` / `exit status N` lines, all ranks' records "
           "interleaved (`... | rank R/3 | ...`), tracebacks (`[rank<R>]:`), torchrun's failure lines and summary, and the "
           "runner's `task 'train' failed` line.",
    planted="the trainer's dataset cache `cache/vocab.pt` is built by rank 0 in place (no temp file + rename), written "
            "in 256 KiB chunks; ranks 1 and 2 load it as soon as the file exists (no barrier).",
    happened="rank 0 logs `building dataset cache`; 10 ms later ranks 1 and 2 find the (still short) file and torch.load "
             "fails with a bare `EOFError` on both; rank 0 finishes writing (3201641 bytes), loads it fine and starts; "
             "torchrun SIGTERMs rank 0 and reports rank 2 (first observed) with rank 1 also exit 1.",
    exits="tasks.py train 1 (torchrun 1).",
    judgement="category storage_io (a reader of a shared cache file sees it half written; alternative data_error or "
              "code_exception for the missing barrier / atomic rename). Ranks 1 and 2 fail the same way; initiator rank "
              "1, whose EOFError is printed first (torchrun's summary names rank 2 as root cause by exit order). First "
              "deviating line: rank 1's `dataset cache cache/vocab.pt found, loading` is not an error; the EOFError line "
              "is. Collateral: rank 0's SIGTERM entry.",
    truth=T("failed", "rank", 1, cat="storage_io", fd="[rank1]: EOFError", fd_rank=1,
            coll=[(0, "exitcode  : -15 (pid: 14163)  (SIGTERM)")],
            notes="Ranks 1 and 2 torch.load the dataset cache while rank 0 is still writing it in place; both get "
                  "EOFError; rank 0 is SIGTERMed by torchrun."))

JOBS["rc-inconclusive-typer-tasks-tee3-logdir-snapshot-running"] = dict(
    source="project task runner `tasks.py train --logdir tlogs --tee` (typer) running `python -m torch.distributed.run "
           "--standalone --nproc-per-node=3 --log-dir tlogs --tee 3`; snapshot of the logs copied while the job was "
           "still training",
    cmd="`timeout -s TERM 150 nice python tasks.py train --nproc 3 --logdir tlogs --tee --rows 1600 --epochs 40 --sleep "
        "0.05 > tasks.log 2>&1 &`, then after 25 s `cp tasks.log snapshot/; cp -r tlogs snapshot/`",
    layout="`snapshot/tasks.log`: the runner's `[tasks ...] $ ...` line and the workers' output with `[default<R>]:` "
           "prefixes; `snapshot/tlogs/<run id>/attempt_0/<R>/stdout.log`, `stderr.log`.",
    planted="nothing; the job (40 epochs) was still running when the snapshot was taken (epoch 3 of 40). After the "
            "snapshot the job was stopped by its own pid (not part of the kept files).",
    happened="the snapshot ends mid-epoch 3 with ordinary step records on all ranks; no error, no end line.",
    exits="n/a for the snapshot (the job was SIGTERMed afterwards, 143).",
    judgement="inconclusive: the logs just stop while training, without error or completion.",
    truth=T("inconclusive", notes="Snapshot of a job still training (epoch 3 of 40); no error and no end of run in the "
                                  "logs."))

JOBS["rc-healthy-mp-pool-runpy-rankfiles-compile-cxx-env-unused"] = dict(
    source="home-grown `multiprocessing.Pool` launcher `rc_pool_launch.py` (fork, one pool task per rank, "
           "maxtasksperchild=1, the trainer run in the pool worker with `runpy.run_path`, per-rank env files "
           "`env/rank<R>.env`), trainer logging through `WatchedFileHandler` into `logs/rank<R>.log`",
    cmd="`TORCHINDUCTOR_COMPILE_THREADS=1 timeout -s TERM 200 nice python rc_pool_launch.py 3 rc_train.py --rows 600 "
        "--compile --pg-timeout 60 --logto watched:logs/rank{rank}.log > pool.out 2>&1`",
    layout="`pool.out`: `pool-launch[HH:MM:SS] ...` lines, c10d warnings and torch.compile's `[rank<R>]:`-prefixed "
           "warnings from the workers. `logs/rank<R>.log`: `<date> <time>,ms <pid> rank=R LEVEL rc.train msg` records.",
    planted="planned as a torch.compile failure on one rank: all ranks `torch.compile` the DDP model, and "
            "`env/rank2.env` sets `CXX=/opt/toolchain/gcc-13.2/bin/g++` (absent on this host).",
    happened="no rank failed: rank 2 logs `compiling model with torch.compile (inductor, cxx=/opt/toolchain/gcc-13.2/bin/g++)` "
             "and trains like the others; each worker prints dynamo's `Profiler record function ... will be ignored` "
             "warning; all ranks log `done: 19 steps, train acc 0.2544`; the pool reports every rank finished OK and "
             "`job finished`. A rerun with an empty TORCHINDUCTOR_CACHE_DIR (not kept) also finished and left that dir "
             "empty; why the bad CXX was never used was not investigated further. Kept as a healthy run.",
    exits="launcher 0.",
    judgement="healthy: done lines on all ranks and a clean launcher end. The CXX line of rank 2 and the profiler "
              "warnings are red herrings, not failures.",
    truth=T("healthy", notes="All three pool-run ranks compile and train one epoch and finish; the bad CXX in rank 2's "
                             "env file had no effect in this run; the launcher reports job finished."))

JOBS["rc-script-q-c-per-rank-typescripts-world-size-too-big-all"] = dict(
    source="bash launcher wrapping every rank in util-linux `script -q -e -c` (one pty per rank) writing "
           "`typescripts/rank<R>.typescript`; ranks started with `&` from a loop over `ranks.list`, env from a shared "
           "launch profile `job.env`, reaped with a plain `wait`",
    cmd="see `_capture_rc/rc-script-q-c-per-rank-typescripts-world-size-too-big-all.sh` (each rank: `RANK=R LOCAL_RANK=R "
        "script -q -e -c \"timeout -s TERM 120 nice python rc_train.py --rows 800 --pg-timeout 30\" "
        "typescripts/rank<R>.typescript`)",
    layout="`typescripts/rank<R>.typescript`: script's `Script started on ... [COMMAND=...]` header, the rank's terminal "
           "output with CR LF line ends (records `... | rank R/4 | ...`, c10d warnings with C++ frames, tracebacks), "
           "and script's `Script done on ... [COMMAND_EXIT_CODE=\"1\"]` trailer.",
    planted="the shared launch profile `job.env` says `WORLD_SIZE=4` while `ranks.list` starts only ranks 0, 1, 2. "
            "Process-group timeout 30 s.",
    happened="every rank starts with `world=4`; rank 0's TCPStore waits for 4 clients and gives up: `Timed out after 31 "
             "seconds waiting for clients. 3/4 clients joined.`; ranks 1 and 2 then lose the store (`Failed to recv, got "
             "0 bytes. Connection was likely closed. Did the remote server shutdown or crash?`); every typescript ends "
             "with `COMMAND_EXIT_CODE=\"1\"`.",
    exits="each rank 1 (per the typescripts); the launcher's plain `wait` returned 0 (exit_code.launcher 0).",
    judgement="category config_error, kind all_ranks (the job-wide launch profile is wrong for every rank; no single "
              "rank is at fault). First deviating line: rank 0's store timeout `3/4 clients joined` (the `world=4` start "
              "records are the only earlier trace and are not errors). Ranks 1 and 2's store losses are collateral. "
              "Alternative category: rendezvous.",
    truth=T("failed", "all_ranks", None, cat="config_error",
            fd="Timed out after 31 seconds waiting for clients. 3/4 clients joined.", fd_rank=0,
            coll=[(1, "torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed."),
                  (2, "torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed.")],
            notes="WORLD_SIZE=4 in the shared launch profile but only 3 ranks started: rank 0's store times out waiting "
                  "for the 4th client and ranks 1 and 2 lose the store."))

JOBS["rc-selectors-launcher-onefile-jsonl-streams-rlimit-as-buffer-oom-r1"] = dict(
    source="home-grown launcher `rc_sel_launch.py`: Popen per rank (env://), the ranks' stdout and stderr pipes "
           "multiplexed with `selectors` into one JSON-lines file, per-rank `RLIMIT_AS` from `limits.conf` applied in "
           "`preexec_fn`",
    cmd="`timeout -s TERM 150 nice python rc_sel_launch.py 3 python rc_train.py --rows 800 --epochs 2 --buffer-gb 8 "
        "--pg-timeout 60 > launcher.out 2>&1` (launcher.out stayed empty and was not kept)",
    layout="`job.jsonl`: one JSON object per line `{\"ts\", \"src\": \"rank<R>\"|\"launcher\", \"stream\": "
           "\"stdout\"|\"stderr\"|\"event\", \"line\"}`; `ts` is the launcher's read time, the rank records inside "
           "`line` carry their own time stamps. The launcher reads one line per ready pipe per select round, so a rank's "
           "stdout records can appear after its later stderr lines (e.g. rank 1's `allocating feature replay buffer` "
           "record after its traceback).",
    planted="`limits.conf` gives rank 1 an address-space limit of 6 GiB; after epoch 0 every rank allocates an 8 GiB "
            "feature replay buffer (`torch.empty`).",
    happened="epoch 0 runs on all ranks; ranks 0 and 2 get their buffer (`replay buffer ready: 2147483648 floats`), rank 1 "
             "raises `DefaultCPUAllocator: can't allocate memory: you tried to allocate 8589934592 bytes. Error code 12` "
             "and exits 1; ranks 0 and 2, already in epoch 1's gradient all_reduce, get `Connection closed by peer`; the "
             "launcher SIGTERMs them (exit -15) and logs `job FAILED (first failure rank 1)`.",
    exits="launcher 1 (rank 1 exit 1, ranks 0 and 2 -15).",
    judgement="category oom (host-memory allocation refused under the rank's address-space limit), initiator rank 1. "
              "First deviating line: rank 1's allocator RuntimeError. Ranks 0 and 2's gloo errors are collateral.",
    truth=T("failed", "rank", 1, cat="oom",
            fd="DefaultCPUAllocator: can't allocate memory: you tried to allocate 8589934592 bytes.", fd_rank=1,
            coll=[(0, "[rank0]: RuntimeError: " + GLOO + "pair.cc:553] Connection closed by peer [127.0.0.1]:16074."),
                  (2, "[rank2]: RuntimeError: " + GLOO + "pair.cc:553] Connection closed by peer [127.0.0.1]:52136.")],
            notes="Rank 1 (RLIMIT_AS 6 GiB) cannot allocate the 8 GiB replay buffer; its peers lose it in the next "
                  "gradient all_reduce and are SIGTERMed by the launcher."))
