"""Per-job metadata for the roundO qc-* captures: command, layout, planted fault, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), lightning 2.6.6, "
       "hydra-core 1.3.8, deepspeed 0.19.8 (CPU accelerator), tmux 3.3a, logrotate 3.21.0, util-linux 2.38.1, bash 5.2")
GLOO = "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status in ("inconclusive", "healthy") else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status in ("inconclusive", "healthy") else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}

JOBS["qc-popen-stdbuf-hostrank-prefix-classcount-allreduce-shape-r1"] = dict(
    source="home-grown Python launcher `qc_popen_launch.py`: `subprocess.Popen` per env:// rank under `stdbuf -oL -eL`, "
           "one reader thread per child prefixing `[host:rank]`, one console file",
    cmd="`timeout -s TERM 120 nice python qc_popen_launch.py 3 python qc_train.py --rows 1200 --classes 4,3,4 --epochs 2 "
        "--class-counts --pg-timeout 30 > job.log 2>&1`",
    layout="`job.log`: the launcher's `[launcher HH:MM:SS]` lines and every rank line prefixed `[vm:<R>] ` by the "
           "launcher's reader threads; rank records `YYYY-mm-dd HH:MM:SS,mmm LEVEL [rank R] logger: msg`; tracebacks "
           "carry torch's `[rank<R>]:` prefix after the launcher's prefix.",
    planted="rank 1's shard holds only 3 of the 4 label classes (`--classes 4,3,4`); at each epoch end every rank "
            "all_reduces `torch.bincount(labels)` (length = highest label + 1), so rank 1 contributes a 3-element tensor "
            "where ranks 0 and 2 contribute 4 elements. Process-group timeout 30 s.",
    happened="epoch 0 trains normally; at the epoch end rank 1 logs `class counts (local) [425.0, 404.0, 371.0]` (3 "
             "entries, the others 4); gloo's all_reduce of mismatched lengths returns on rank 1 with wrong sums "
             "(`class counts (global) [565.0, 1072.0, 948.0]`) while ranks 0 and 2 stay in the all_reduce; rank 1 goes "
             "on into epoch 1 and blocks in DDP's gradient all_reduce. 30 s later all three time out "
             "(`Timed out waiting 30000ms for recv operation to complete`; rank 1 in backward, ranks 0 and 2 in the "
             "class-count all_reduce); rank 1 exits first and the launcher SIGTERMs ranks 0 and 2 (returncode -15).",
    exits="launcher 1 (rank 1 exit 1, ranks 0 and 2 -15).",
    judgement="category collective_mismatch (same collective, different tensor lengths across ranks); initiator rank 1, "
              "whose local tensor has the odd length. The first deviating line is rank 1's `class counts (local)` line "
              "(3 entries where the others print 4) rather than its earlier `labels 0..2` data line (which alone is "
              "not an error). All three ranks print the same gloo timeout; those of ranks 0 and 2 are collateral.",
    truth=T("failed", "rank", 1, cat="collective_mismatch",
            fd="class counts (local) [425.0, 404.0, 371.0]", fd_rank=1,
            coll=[(0, "[rank0]: RuntimeError: " + GLOO + "unbound_buffer.cc:78] Timed out waiting 30000ms for recv"),
                  (2, "[rank2]: RuntimeError: " + GLOO + "unbound_buffer.cc:78] Timed out waiting 30000ms for recv")],
            notes="rank 1's shard lacks class 3, so its bincount all_reduce tensor has 3 elements vs 4 on the other "
                  "ranks; gloo desyncs, rank 1 gets wrong global counts and all ranks later time out."))

JOBS["qc-forkserver-queuelistener-onefile-ckpt-read-too-soon-r1"] = dict(
    source="`torch.multiprocessing.start_processes(start_method=\"forkserver\")` launcher (`qc_forkserver_ql.py`), every "
           "rank logging through a `QueueHandler`, the parent's `logging.handlers.QueueListener` writing one train.log",
    cmd="`timeout -s TERM 150 nice python qc_forkserver_ql.py 3 --rows 3000 --epochs 1 --ckpt ckpt/last.pt --ckpt-every 40 "
        "--eval-from-ckpt 1 --pg-timeout 30 > launcher.out 2> launcher.err`",
    layout="`train.log`: one combined file, records `YYYY-mm-dd HH:MM:SS,mmm rank<R>(<pid>) LEVEL logger - msg` (the "
           "process name is set to `rank<R>`; the parent is `MainProcess`); records appear in the order the listener "
           "received them, so timestamps are not strictly ordered. `launcher.err`: the parent's stderr (c10d warnings, "
           "torch.multiprocessing's `Terminating process ... via signal SIGTERM`, the ProcessRaisedException "
           "traceback). launcher.out was empty and is not kept.",
    planted="every 40 steps rank 0 `torch.save`s a ~40 MB state straight to `ckpt/last.pt` (no tmp file + rename) and "
            "rank 1, the evaluation rank, polls for the file and `torch.load`s it as soon as it exists (no barrier).",
    happened="steps 10..40 on all ranks; at step 40 rank 1 sees `ckpt/last.pt` while rank 0 is still writing it and "
             "fails in `torch.load` with `EOFError: Ran out of input` (logged by the worker wrapper at 21:51:50,763); "
             "rank 0 logs `checkpoint step 40 written` at 21:51:50,784; start_processes SIGTERMs ranks 0 and 2 (pids "
             "7424, 7426) and re-raises rank 1's error as ProcessRaisedException.",
    exits="launcher 1.",
    judgement="category storage_io (a truncated / half-written checkpoint read; the cause is the missing write-then-"
              "rename / barrier, so code_exception would also be defensible); initiator rank 1, whose load fails "
              "(rank 0's write itself succeeded). Collateral: the SIGTERMs of ranks 0 and 2 (pids 7424 and 7426 are "
              "rank0 and rank2 in train.log's process names).",
    truth=T("failed", "rank", 1, cat="storage_io", fd="EOFError: Ran out of input", fd_rank=1,
            coll=[(0, "Terminating process 7424 via signal SIGTERM"), (2, "Terminating process 7426 via signal SIGTERM")],
            notes="rank 1 loads ckpt/last.pt while rank 0 is still writing it (no atomic rename, no barrier): EOFError "
                  "in torch.load; the launcher terminates the other ranks."))

JOBS["qc-threadpool-launcher-rotating-rankfiles-uneven-batches-early-exit-r1"] = dict(
    source="`concurrent.futures.ThreadPoolExecutor` launcher (`qc_pool_launch.py`, one thread per env:// rank running it as "
           "a subprocess), ranks log only through size-based `RotatingFileHandler` files",
    cmd="`timeout -s TERM 150 nice python qc_pool_launch.py 3 python qc_train.py --rows 2000,1400,2000 --epochs 1 "
        "--log-every 1 --log 'rotating:logs/rank{rank}.log:1500' --pg-timeout 30`",
    layout="`logs/rank<R>.log` plus rotated `rank<R>.log.1`, `.log.2` (RotatingFileHandler maxBytes 1500, backupCount 3; "
           "`.2` is the oldest kept), records `HH:MM:SS.mmm|pid|r<R>|LEVEL|logger|msg`; `logs/rank<R>.stderr`: each "
           "rank's stderr (c10d warnings, tracebacks, gloo's abort); `launcher.log`: the pool launcher's per-thread "
           "records (`rank_<R>` thread names, exit codes, summary). The first rotated-away records are gone (only "
           "3 backups kept).",
    planted="rank 1's shard is shorter: 1400 rows (43 batches) against 2000 rows (62 batches) on ranks 0 and 2; the "
            "loop all_reduces the loss every step and there is no join / uneven-input handling.",
    happened="all ranks step in lockstep to step 43; rank 1 then leaves the loop (`epoch 0 finished: 43 batches in "
             "1.2s`) and enters the final accuracy all_reduce while ranks 0 and 2 are in DDP's gradient all_reduce of "
             "step 44; gloo aborts rank 1 (`op.preamble.length <= op.nbytes. 900 vs 4. ... Is there a distributed "
             "collective mismatch in your code?`, rc -6); ranks 0 and 2 fail with `Connection closed by peer` / "
             "`Connection reset by peer`.",
    exits="launcher 1 (rank0=1, rank1=-6, rank2=1).",
    judgement="category collective_mismatch (uneven inputs: one rank runs out of batches and its next collective "
              "pairs with a different one on its peers); initiator rank 1. First deviating line: rank 1's `epoch 0 "
              "finished: 43 batches` (ranks 0 and 2 have 62 batches per epoch), the earliest line where rank 1 leaves "
              "the common sequence. The peers' connection errors are collateral.",
    truth=T("failed", "rank", 1, cat="collective_mismatch", fd="epoch 0 finished: 43 batches in 1.2s", fd_rank=1,
            coll=[(0, "Connection closed by peer [127.0.0.1]:40339"), (2, "Connection reset by peer")],
            notes="rank 1 has 43 batches vs 62 on the other ranks, leaves the loop early, its final all_reduce meets "
                  "the peers' gradient all_reduce (gloo size mismatch abort), peers see connection errors."))

JOBS["qc-healthy-hydra-multirun-lr-sweep-torchrun-joblogs-warnings"] = dict(
    source="Hydra 1.3 multirun (basic launcher) over `lr=0.05,0.2`; each Hydra job runs `torchrun --standalone "
           "--nproc-per-node=2` and keeps its console in the Hydra job dir",
    cmd="`timeout -s TERM 200 nice python qc_hydra_sweep.py --multirun lr=0.05,0.2 > sweep.out 2>&1` (config "
        "`conf/sweep.yaml`)",
    layout="`sweep.out`: Hydra's console (`[ts][HYDRA] Launching 2 jobs locally`, `#0 : lr=0.05`, the app's "
           "`[ts][__main__][INFO]` records); `multirun/2026-12-06/21-52-37/<job>/qc_hydra_sweep.log`: Hydra's per-job "
           "log file; `multirun/.../<job>/torchrun.log`: that job's torchrun + worker output (`... INFO [rank R] "
           "qc.train: ...`). Hydra's `.hydra/*.yaml` and `multirun.yaml` are config snapshots and not kept.",
    planted="nothing; the trainer (`--warn`) prints per rank a `py.warnings` UserWarning about GradScaler / CUDA and a "
            "WARNING about gloo being slow, and every process prints c10d's `The hostname of the client socket cannot "
            "be retrieved` warning (no resolver in the network namespace).",
    happened="both sweep jobs train 2 epochs (92 steps) on 2 ranks, all_reduce class counts, print `done: 92 steps, "
             "train acc 0.2760` / `0.2967`; Hydra's app logs `job <n>: finished`; the sweep exits 0.",
    exits="hydra sweep 0.",
    judgement="healthy: both jobs reach their `done` line and the sweep ends with exit 0; the warnings are harmless. "
              "The accuracy is low (random labels from synthetic features), which is not a failure.",
    truth=T("healthy", notes="Hydra multirun of two torchrun jobs; both finish (done lines, exit 0) despite "
                              "alarming-looking CUDA/gloo/c10d warnings."))

JOBS["qc-torchrun-stallwatch-sigkill-stale-flock-metrics-r1"] = dict(
    source="`torchrun --standalone --nproc-per-node 3` console plus a site stall watchdog's log (`stallwatch.sh`)",
    cmd="`timeout -s TERM 150 nice torchrun --standalone --nproc-per-node 3 qc_train.py --rows 3000 --epochs 2 --sleep "
        "0.05 --metrics-lock 'metrics/rank{rank}.csv' --pg-timeout 60 > console.log 2>&1`, with `stallwatch.sh` "
        "(STALL_S=15) > stallwatch.log in the background",
    layout="`console.log`: torchrun's and the workers' output (records `... INFO [rank R] qc.train: ...`, tracebacks "
           "with `[rank<R>]:`, torchrun's ChildFailedError summary); `stallwatch.log`: the watchdog's dated lines.",
    planted="every 10 steps each rank appends a metrics row to `metrics/rank<R>.csv` under an exclusive `flock`; a "
            "leftover exporter from an earlier job (`flock metrics/rank1.csv sleep 600`) still holds the lock on rank "
            "1's file. The watchdog SIGKILLs a rank whose metrics file has not changed for 15 s.",
    happened="all ranks log step 10 (21:53:25); rank 1 then blocks in `flock` (non-collective) and writes nothing "
             "more; ranks 0 and 2 block in DDP's gradient all_reduce of step 11. At 21:53:30 the watchdog logs "
             "`rank 1 (pid 11563) no metrics for 15s (metrics/rank1.csv) -> SIGKILL`; ranks 0 and 2 fail with `Connection "
             "closed by peer`; torchrun SIGTERMs them and names rank 1 (`Signal 9 (SIGKILL) received by PID 11563`) "
             "as root cause.",
    exits="torchrun 1.",
    judgement="category nccl_timeout_hang (a stuck rank that would have timed out its peers; it hangs in a file lock, "
              "not in a collective, and the watchdog ends it before the 60 s process-group timeout; `other` would be "
              "the alternative). Initiator rank 1 (the watchdog's line names rank 1 and its pid, torchrun's summary "
              "the same pid). The first deviating line is the watchdog's kill line (rank 1's own log simply stops "
              "after step 10). The peers' connection errors are collateral.",
    truth=T("failed", "rank", 1, cat="nccl_timeout_hang",
            fd="stallwatch: rank 1 (pid 11563) no metrics for 15s (metrics/rank1.csv) -> SIGKILL", fd_rank=1,
            coll=[(0, "[rank0]: RuntimeError: " + GLOO + "pair.cc:553] Connection closed by peer [127.0.0.1]:399"),
                  (2, "[rank2]: RuntimeError: " + GLOO + "pair.cc:553] Connection closed by peer [127.0.0.1]:399")],
            notes="rank 1 hangs on a file lock held by a leftover process (no progress after step 10); the stall "
                  "watchdog SIGKILLs it; peers fail with connection errors; torchrun tears down."))

JOBS["qc-inconclusive-setsid-daemon-ranks-jsonl-snapshot-running"] = dict(
    source="site detach launcher: each env:// rank started with `setsid -f stdbuf -oL python qc_train.py --log json`, "
           "one JSON-lines file per rank; a snapshot copied while the job was still running",
    cmd="for r in 0 1 2: `RANK=$r WORLD_SIZE=3 ... setsid -f stdbuf -oL python qc_train.py --rows 6000 --epochs 6 "
        "--sleep 0.05 --log json > logs/rank-$r.jsonl 2>&1`; `sleep 14; cp -r logs snapshot`",
    layout="`snapshot/rank-<R>.jsonl`: one JSON object per record (`t` epoch seconds, `lvl`, `rank`, `pid`, `logger`, "
           "`msg`) plus c10d's plain-text warning line; copied 14 s after the start.",
    planted="nothing; the run (6 epochs of 187 batches) needs several minutes, the snapshot was taken after ~120 "
            "steps. The harness stopped the ranks after the snapshot (not part of the capture).",
    happened="the snapshot shows all three ranks up to `epoch 0 step 120 batch 120/187` with matching global losses; "
             "nothing after.",
    exits="none (snapshot of a running job).",
    judgement="inconclusive: the log just stops mid-epoch without an error or a final line.",
    truth=T("inconclusive", notes="snapshot of a running job: the logs stop mid-training with no error and no end line."))

JOBS["qc-tmux-window-per-rank-pipepane-label-offset-r2"] = dict(
    source="tmux session with one window per env:// rank, each window's pane output captured with `tmux pipe-pane -o "
           "'cat >> logs/win-r<R>.log'`",
    cmd="`tmux new-session -d -s train -n r0 ...; tmux new-window ... r1, r2`; per window `tmux pipe-pane -o` and "
        "`send-keys` of `RANK=<R> WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29866 python qc_train.py --rows 2000 "
        "--epochs 2 --label-offset 2:1 --pg-timeout 30; echo \"rank R exit $?\"`",
    layout="`logs/win-r<R>.log`: raw pane text of window rR: the typed command line, terminal control sequences "
           "(bracketed paste `ESC[?2004l/h`), CR LF line ends, the rank's records (`... INFO [rank R] qc.train: ...`), "
           "its traceback (`[rank<R>]:`), the `rank R exit N` echo and the next prompt `[root@vm rR]# `.",
    planted="rank 2's shard was exported with labels shifted by one (`--label-offset 2:1`: labels 1..4 for a 4-way "
            "classifier head).",
    happened="all ranks start; rank 2 logs `labels 1..4` and fails in its first forward/backward with `IndexError: "
             "Target 4 is out of bounds.`; ranks 0 and 1 fail in DDP's all_reduce with `Connection closed by peer`; "
             "each window echoes `rank R exit 1`.",
    exits="each rank 1.",
    judgement="category data_error (an out-of-range label in one rank's shard); initiator rank 2 (window r2, "
              "`[rank2]:` traceback). First deviating line: the IndexError (rank 2's earlier `labels 1..4` data line "
              "only becomes an error with the 4-way head). Ranks 0 and 1's connection errors are collateral.",
    truth=T("failed", "rank", 2, cat="data_error", fd="IndexError: Target 4 is out of bounds.", fd_rank=2,
            coll=[(0, "Connection closed by peer [127.0.0.1]:48285"), (1, "Connection closed by peer [127.0.0.1]:23989")],
            notes="rank 2's labels are shifted to 1..4 for a 4-class head; cross_entropy raises IndexError on rank 2, "
                  "peers lose the connection."))

JOBS["qc-bash-waitn-launcher-sed-prefix-ckpt-erofs-r0"] = dict(
    source="bash launcher using `wait -n -p`: ranks in the background, each through `sed -u \"s/^/r<R>| /\"` into one "
           "job.log with the launcher's own lines; SIGTERM to the rest on the first failure",
    cmd="`_capture_qc/qc-bash-waitn-launcher-sed-prefix-ckpt-erofs-r0.sh` (per rank: `RANK=$r WORLD_SIZE=3 ... timeout "
        "-s TERM 120 nice python qc_train.py --rows 2500 --epochs 1 --ckpt ckpt/last.pt --ckpt-every 30 --pg-timeout "
        "30 > >(sed -u \"s/^/r$r| /\") 2>&1 &`)",
    layout="`job.log`: `launcher: ...` lines (start, pids, exits via `wait -n`, `job FAILED`) and rank lines prefixed "
           "`r<R>| ` (records `... INFO [rank R] qc.train: ...`, tracebacks `[rank<R>]:`). The pids the launcher "
           "prints are the `timeout` wrappers, the ranks' own pids are in their `start pid=` records.",
    planted="`ckpt/` is a read-only bind mount (the checkpoint volume remounted read-only); rank 0 checkpoints every "
            "30 steps.",
    happened="steps 10..30 on all ranks; at step 30 rank 0's `torch.save` fails with `RuntimeError: [enforce fail at "
             "inline_container.cc:747] . open file failed with strerror: Read-only file system`; ranks 1 and 2 fail in "
             "the next all_reduce with `Connection closed by peer`; the launcher reports rank 0 exit 1, SIGTERMs the "
             "others (exit 143) and prints `job FAILED`.",
    exits="rank 0: 1, ranks 1, 2: 143 (SIGTERM from the launcher after their own errors).",
    judgement="category storage_io (read-only checkpoint filesystem); initiator rank 0. Collateral: the connection "
              "errors of ranks 1 and 2.",
    truth=T("failed", "rank", 0, cat="storage_io", fd="open file failed with strerror: Read-only file system", fd_rank=0,
            coll=[(1, "Connection closed by peer [127.0.0.1]:9618"), (2, "Connection closed by peer [127.0.0.1]:61079")],
            notes="rank 0's checkpoint save hits a read-only filesystem (EROFS); peers fail on the lost connection."))

JOBS["qc-popen-stderr-pipe-never-drained-nan-row-warnings-r1"] = dict(
    source="Python launcher `qc_pipe_launch.py`: `subprocess.Popen` per env:// rank, stdout to `out/rank<R>.txt`, "
           "stderr to a pipe drained only by `communicate()` rank by rank after the fact",
    cmd="`timeout -s TERM 150 nice python qc_pipe_launch.py 3 python qc_train.py --rows 3000 --epochs 2 "
        "--nan-rows-rank 1 --pg-timeout 20`",
    layout="`out/rank<R>.txt`: each rank's stdout records (`... INFO [rank R] qc.train: ...`); `launcher.log`: the "
           "launcher's dated lines and, per rank after it exited, the last 40 stderr lines prefixed `  rank<R> stderr| "
           "` (so rank 1's earliest warnings are not in the capture).",
    planted="rank 1's shard has NaN features in some rows; the trainer repairs them and writes one warning line per "
            "repaired row to stderr (~5 lines, ~700 bytes per batch). The launcher reads nobody's stderr while the "
            "job runs (it waits on rank 0 first), so rank 1's stderr pipe (64 KiB) fills. Process-group timeout 20 s.",
    happened="all ranks log steps up to 70 (21:55:11); rank 1's stderr write blocks at `epoch 0 batch 71 row 2302` (the "
             "last warning line that got out), so rank 1 stops; 20 s later rank 0 fails with `Timed out waiting "
             "20000ms for recv operation to complete` and rank 2 with `... for send operation ...`; once rank 0 has "
             "exited, the launcher drains rank 1's pipe, rank 1 continues into the collective and gets `Connection "
             "closed by peer`. All three exit 1.",
    exits="launcher 1 (ranks [1, 1, 1]).",
    judgement="category nccl_timeout_hang (rank 1 is stuck outside any collective, in a blocked write to a full pipe; "
              "the peers time out); initiator rank 1. The first deviating line is rank 1's last stderr warning "
              "(`batch 71 row 2302`), the last thing rank 1 printed before it stalled (no line states the blocked "
              "write); the timeouts of ranks 0 and 2 are collateral. `other` (launcher bug) would be the alternative "
              "category.",
    truth=T("failed", "rank", 1, cat="nccl_timeout_hang",
            fd="rank 1 epoch 0 batch 71 row 2302: feature vector has NaN", fd_rank=1,
            coll=[(0, "[rank0]: RuntimeError: " + GLOO + "unbound_buffer.cc:78] Timed out waiting 20000ms for recv"),
                  (2, "[rank2]: RuntimeError: " + GLOO + "unbound_buffer.cc:129] Timed out waiting 20000ms for send")],
            notes="rank 1 floods stderr with per-row NaN-repair warnings into a pipe the launcher does not drain; it "
                  "blocks writing, the other ranks time out in gloo after 20 s."))

JOBS["qc-lightning-ddp-subprocess-allgather-uneven-valfiles-r2"] = dict(
    source="Lightning 2.6 `Trainer(accelerator=\"cpu\", devices=3, strategy=DDPStrategy(process_group_backend=\"gloo\", "
           "timeout=30 s))` started with plain `python` (Lightning's subprocess launcher), one console",
    cmd="`timeout -s TERM 150 nice python qc_pl_eval.py > train.out 2>&1`",
    layout="`train.out`: Lightning's banner and model summary, the script's `[rank R] val preds ...` prints, Lightning "
           "deprecation warnings, gloo's C++ abort with the `[vm:<pid>] *** Process received signal ***` stack, "
           "tracebacks of the surviving ranks with `[rank<R>]:`.",
    planted="validation data is read per rank from per-rank split files of 600, 600 and 587 rows (rank 2's file is "
            "short); at the validation epoch end each rank `self.all_gather`s its prediction tensor.",
    happened="the sanity check (2 batches, 128 predictions per rank) gathers fine; after the first training epoch "
             "ranks 0 and 1 hold 200 predictions, rank 2 `(196,)`; gloo aborts a process (`op.preamble.length <= "
             "op.nbytes. 800 vs 784. ... collective mismatch`, SIGABRT of pid 19241, the rank with the smaller "
             "buffer: rank 2 prints no Python traceback), ranks 0 and 1 fail with `Connection reset by peer`.",
    exits="python 1.",
    judgement="category collective_mismatch (all_gather of different-length tensors); initiator rank 2 (its local "
              "tensor is the odd one; the abort line has only a pid). First deviating line: rank 2's `val preds "
              "local: (196,)`. The connection errors of ranks 0 and 1 are collateral.",
    truth=T("failed", "rank", 2, cat="collective_mismatch", fd="[rank 2] val preds local: (196,)", fd_rank=2,
            coll=[(0, "Read error [127.0.0.1]:27806: Connection reset by peer"),
                  (1, "Read error [127.0.0.1]:32926: Connection reset by peer")],
            notes="rank 2's validation split is shorter (196 predictions vs 200); self.all_gather of unequal sizes "
                  "aborts in gloo; other ranks lose their connection."))

JOBS["qc-torchrun-logrotate-copytruncate-walltime-sigterm-ext"] = dict(
    source="`torchrun --standalone --nproc-per-node 3`, ranks logging only to per-rank FileHandler files rotated mid-run "
           "by logrotate `copytruncate`, plus a walltime guard's log",
    cmd="`timeout -s KILL 150 nice torchrun --standalone --nproc-per-node 3 qc_train.py --rows 4000 --epochs 4 --sleep "
        "0.05 --qc-log 'file:logs/train.r{rank}.log' --pg-timeout 60 > torchrun.out 2>&1 &`; after 12 s `logrotate -v "
        "-s logrotate.state logrotate.conf > logrotate.out` (copytruncate, rotate 3, size 1, nocompress); walltime "
        "guard: after 25 s `kill -TERM` the job (log walltime.log)",
    layout="`logs/train.r<R>.log.1` (records up to the rotation at ~12 s) and `logs/train.r<R>.log` (the rest, written "
           "into the truncated file), records `[YYYY-mm-dd HH:MM:SS,mmm] [vm:<R>] LEVEL - msg`; `torchrun.out`: "
           "torchrun's console (c10d warnings, `Received 15 death signal`, `Sending process ... closing signal "
           "SIGTERM`, its SignalException traceback); `logrotate.out`: logrotate's verbose output; `walltime.log`.",
    planted="nothing in the training; the job needs ~35 s and the walltime guard allows 25 s.",
    happened="the ranks train normally (epoch 2, step 290 at 21:57:25); logrotate copies and truncates the three rank "
             "logs at ~21:57:12; at 21:57:25 the walltime guard logs `limit reached, sending SIGTERM to 22728` (the "
             "`timeout` wrapper, which forwards it to torchrun pid 22732); torchrun logs `Received 15 death signal, "
             "shutting down workers`, SIGTERMs its workers and exits with `SignalException: Process 22732 got signal: "
             "15`. The rank logs just stop (no worker output on SIGTERM).",
    exits="torchrun 1 (via timeout).",
    judgement="category killed_by_scheduler, initiating kind external (a wall-clock limit from outside the job; the "
              "ranks were healthy). First deviating line: the walltime guard's SIGTERM line. No rank-specific "
              "collateral (the agent's SIGTERM lines name pids only). The log rotation is a layout feature, not a "
              "fault.",
    truth=T("failed", "external", cat="killed_by_scheduler",
            fd="walltime: limit reached, sending SIGTERM to 22728", fd_rank=None,
            notes="the job's walltime guard SIGTERMs torchrun at 25 s while training is healthy; torchrun shuts the "
                  "workers down. Rank logs were rotated by logrotate copytruncate mid-run."))

JOBS["qc-ds-launcher-launch-module-direct-batch-config-all"] = dict(
    source="DeepSpeed's per-node launcher module run directly (`python -m deepspeed.launcher.launch --world_info=<b64> "
           "--node_rank=0 ...`, without the `deepspeed` runner), CPU accelerator, one console",
    cmd="`DS_ACCELERATOR=cpu timeout -s TERM 200 nice python -u -m deepspeed.launcher.launch --world_info=<b64 of "
        "{\"localhost\":[0,1,2]}> --node_rank=0 --master_addr=127.0.0.1 --master_port=29899 qc_ds_train.py --steps 60 "
        "> ds_launch.log 2>&1`",
    layout="`ds_launch.log`: DeepSpeed launcher lines `[ts] [INFO] [launch.py:N:main] ...` (world info, spawned "
           "commands with `--local_rank=R`), the ranks' output (shm comm op build, c10d warnings, tracebacks with "
           "`[rank<R>]:`), the launcher's `sigkill_handler` lines.",
    planted="ds_config.json copied from a 4-GPU job: `train_batch_size` 32 with `train_micro_batch_size_per_gpu` 8 and "
            "`gradient_accumulation_steps` 1, run with 3 processes.",
    happened="all three ranks fail in `deepspeed.initialize` with `AssertionError: Check batch related parameters. "
             "train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size 32 != 8 * 1 * 3`; "
             "the launcher kills the subprocesses and reports `exits with return code = 1`.",
    exits="launcher 1.",
    judgement="category config_error, initiating kind all_ranks (the same config check fails deterministically on "
              "every rank). First deviating line: the AssertionError (rank 2's copy printed first; rank given as "
              "null since all ranks print it). No collateral.",
    truth=T("failed", "all_ranks", cat="config_error",
            fd="AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu",
            fd_rank=None,
            notes="DeepSpeed batch-size config (32 != 8 * 1 * 3) copied from a 4-GPU job; every rank fails the same "
                  "assertion in deepspeed.initialize."))
