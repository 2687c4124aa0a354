#!/usr/bin/env python3
"""gen_meta.py [OUT]: write README.md, truth.json and .correlatorignore of every ga-* job (truths written from the
planted faults and the printed lines)."""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("host `vm` (2 cores, CPU only), Python 3.11.7, torch 2.13.0+cpu (gloo), numpy 2.4.6, Open MPI 4.1.4, 23 GiB RAM, no swap, "
       "vm.overcommit_memory=0")


def truth(status="failed", rank=None, node=None, all_ranks=False, kind="rank", cat=None, fd=None, fd_rank=None,
          coll=(), notes=""):
    if status != "failed":
        return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
                "first_deviating": None, "collateral": [], "notes": notes}
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks, "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "ranks": r} for c, r in coll], "notes": notes}



J = {}
J["ga-torchrun-basiclog-eval-squeeze-r2"] = dict(
    launcher="`torchrun --standalone --nproc-per-node 3 ga_train.py --steps 10 --sleep 0.2 --pg-timeout 30 --log-style basic "
             "--log-file 'logs/rank{rank}.log' --eval-every 4 --val-size 49` under `timeout -s TERM 90`",
    layout="`console.log` (torchrun agent + all workers' stderr): the workers use `logging.basicConfig(level=INFO)`, i.e. "
           "Python's default `LEVEL:logger:message` format with no rank or time in it (the step lines of the three ranks "
           "are identical), plus uncaught tracebacks with torch's `[rankN]:` prefix; `logs/rank{0,1,2}.log`: a bare "
           "`logging.FileHandler` per rank with no formatter (message only), so the rank is only in the file name. "
           "Rank 0 was SIGTERMed before it logged its error, so `logs/rank0.log` just stops after step 4.",
    planted="the validation split gives the last rank the remainder: 49 samples -> 16/16/17, so rank 2's last eval batch "
            "holds one sample; the eval loop (under `torch.no_grad()`) does `model(xb).squeeze()` and then "
            "`argmax(dim=1)`, which fails once the batch dimension is squeezed away.",
    happened="4 training steps on all ranks; at the step-4 evaluation rank 2 raises `IndexError: Dimension out of range "
             "(expected to be in range of [-1, 0], but got 1)` (logged as `ERROR:ga.train:training failed` + traceback, "
             "and again `[rank2]:`-prefixed); rank 1, waiting in the eval metric all-reduce, gets `Connection closed by "
             "peer [127.0.0.1]:16537`; the agent SIGTERMs pids 7643 (rank 0) and 7644 (rank 1) and names rank 2 (pid "
             "7645, exit 1) Root Cause. Exit 1.",
    exits="torchrun=1",
    truth=truth(rank=2, cat="code_exception",
                fd="IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)", fd_rank=2,
                coll=[("Connection closed by peer [127.0.0.1]:16537", [1]),
                      ("Sending process 7643 closing signal SIGTERM", [0]),
                      ("Sending process 7644 closing signal SIGTERM", [1])],
                notes="a bug in the eval loop (`.squeeze()` drops the batch dim of a 1-sample batch) that only rank 2's "
                      "uneven validation shard triggers: code_exception, rank 2 (data_error arguable: the uneven split). "
                      "In console.log the unprefixed `ERROR:ga.train:training failed` traceback carries no rank; the "
                      "`[rank2]:` copy and logs/rank2.log name it. pids from the init lines: 7643 = rank 0, 7644 = rank 1, "
                      "7645 = rank 2."))
J["ga-mpirun-tag-ddp-unused-aux-r1"] = dict(
    launcher="`mpirun --allow-run-as-root --oversubscribe --tag-output -np 3 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29781 "
             "... python ga_train.py --steps 10 --pg-timeout 25 --log-style print --fault unused_aux --fault-rank 1 "
             "--fault-step 5` under `timeout -s TERM 90` (ga_train.py maps OMPI_COMM_WORLD_* to RANK/WORLD_SIZE)",
    layout="one `console.log`: every line tagged `[1,R]<stdout>:` / `[1,R]<stderr>:` by Open MPI (partial writes get "
           "their own tags, so some lines carry two or three tags, e.g. the C++ `terminate called after throwing an "
           "instance of '[1,1]<stderr>:gloo::EnforceNotMet[1,1]<stderr>:'`); the trainer print()s `[r<R>] msg`; "
           "mpirun's own boxed messages are untagged.",
    planted="DDP (gloo) without `find_unused_parameters`; the model's aux head is used only when the batch carries aux "
            "labels; rank 1's batch at step 5 carries none, so rank 1 skips the aux loss and its DDP bucket never "
            "becomes ready (its gradient all-reduce is never launched).",
    happened="4 steps on all ranks; rank 1 prints `WARNING rank 1: step 5: no aux-labelled samples in batch, skipping aux "
             "loss`, skips the gradient all-reduce and enters the loss all-reduce (4 bytes) while ranks 0 and 2 are in "
             "the gradient bucket all-reduce (496 bytes): gloo aborts rank 1 (`op.preamble.length <= op.nbytes. 496 vs 4. "
             "Received data size doesn't match expected size. Is there a distributed collective mismatch in your "
             "code?`, `terminate called`, SIGABRT); rank 2 `Read error [127.0.0.1]:54428: Connection reset by peer`, "
             "rank 0 `Connection closed by peer [127.0.0.1]:38791`; mpirun: `process rank 1 ... exited on signal 6 "
             "(Aborted)`. Exit 134.",
    exits="mpirun=134",
    truth=truth(rank=1, cat="collective_mismatch",
                fd="WARNING rank 1: step 5: no aux-labelled samples in batch, skipping aux loss", fd_rank=1,
                coll=[("Read error [127.0.0.1]:54428: Connection reset by peer", [2]),
                      ("Connection closed by peer [127.0.0.1]:38791", [0])],
                notes="DDP's unused-parameter trap: the aux head gets no gradient on rank 1 only, so rank 1 skips the "
                      "bucket all-reduce and its next collective meets the peers' gradient all-reduce: "
                      "collective_mismatch (gloo's own words), rank 1; code_exception arguable (the fix is "
                      "find_unused_parameters=True or a zero-weighted aux loss). No `Expected to have finished reduction` "
                      "error is ever printed. First deviating: rank 1's skip warning (the cause, before the gloo abort "
                      "line `Received data size doesn't match expected size`)."))
J["ga-torchrun-glog-simmatrix-memerr-r1"] = dict(
    launcher="`torchrun --nnodes 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29791 --rdzv-id "
             "ga-mine-7 ga_train.py --steps 10 --sleep 0.2 --pg-timeout 30 --log-style glog --mine --shard-rows "
             "4096,600000 --fault sim_matrix` under `timeout -s TERM 90`",
    layout="one `console.log`: the agent's lines + the workers' glog-style records (`I1206 06:37:16.911723 7875 "
           "ga_train.py:126] rank 0/2 ...`) + `[rankN]:` tracebacks + agent failure table.",
    planted="before training each rank mines hard negatives by building a dense n x n float32 similarity matrix of its "
            "shard; the shard index gives rank 1 600000 rows (rank 0: 4096): 1.31 TiB, far over the 23 GiB RAM.",
    happened="rank 1 logs `building 600000x600000 similarity matrix for hard negatives` and dies with "
             "`numpy._core._exceptions._ArrayMemoryError: Unable to allocate 1.31 TiB for an array with shape (600000, "
             "600000) and data type float32` (a MemoryError subclass; only the `[rank1]:` traceback, no glog record); "
             "rank 0 finishes its 4096-row mining, enters step 1's gradient all-reduce and gets `Connection closed by "
             "peer [127.0.0.1]:384`; the agent SIGTERMs pid 7875 (rank 0) and names rank 1 (pid 7876, exit 1) Root "
             "Cause. Exit 1.",
    exits="torchrun=1",
    truth=truth(rank=1, cat="oom",
                fd="Unable to allocate 1.31 TiB for an array with shape (600000, 600000)", fd_rank=1,
                coll=[("Connection closed by peer [127.0.0.1]:384.", [0]),
                      ("Sending process 7875 closing signal SIGTERM", [0])],
                notes="host-memory exhaustion of one rank's own allocation (numpy's MemoryError), refused up front "
                      "(no OOM killer): oom, rank 1 (its shard is the big one; data/config skew arguable as the "
                      "deeper cause). The preceding `building 600000x600000 similarity matrix` line is a hint, the "
                      "error line is the first to show the failure."))
J["ga-bashloop-rankfiles-csv-nan-r1"] = dict(
    launcher="bash loop, 3 ranks, env:// (`MASTER_ADDR=127.0.0.1 MASTER_PORT=29801 WORLD_SIZE=3`, `RANK=$R LOCAL_RANK=$R`): "
             "`timeout -s TERM 90 nice python ga_train.py --steps 12 --sleep 0.2 --pg-timeout 30 --log-style print "
             "--data-dir data > logs/r$R.txt 2>&1 &`, then `wait` per pid; `make_data.py data 3 192 --nan-rank 1 "
             "--nan-row 100 --nan-col 3` first",
    layout="`logs/r0.txt`, `logs/r1.txt`, `logs/r2.txt`: each rank's stdout+stderr; print()ed `[r<R>] ...` lines with "
           "the local and the all-reduced mean loss per step, then Python's `[rankN]:` traceback. No launcher output.",
    planted="rank 1's CSV shard `data/train-01.csv` has the literal `nan` in row 100 (feature f3): the batch of step 7.",
    happened="6 clean steps; at step 7 rank 1 logs `local_loss=nan mean_loss=nan`, ranks 0 and 2 a finite local loss "
             "but `mean_loss=nan` (the loss all-reduce); all three raise `FloatingPointError: rank R: mean loss is nan at "
             "step 7, stopping` in the same step. Each rank exits 1.",
    exits="rank0=1, rank1=1, rank2=1",
    truth=truth(rank=1, cat="nan_divergence", fd="[r1] rank 1: step 7/12 local_loss=nan mean_loss=nan", fd_rank=1,
                coll=[("FloatingPointError: rank 0: mean loss is nan at step 7, stopping", [0]),
                      ("FloatingPointError: rank 2: mean loss is nan at step 7, stopping", [2])],
                notes="a NaN in rank 1's input shard: its local loss is nan, the all-reduce spreads it and all three "
                      "ranks stop with the same FloatingPointError in the same step. nan_divergence, rank 1 (as the "
                      "corpus's s-ray-tempdir-nan-spread, inf in one rank's batch); data_error arguable (the fix is the "
                      "data). Rank 1's own FloatingPointError is its own failure, not collateral."))
J["ga-spawn-basiclog-resume-ws3-r2"] = dict(
    launcher="`python ga_train.py --spawn-procs 3 --steps 14 --sleep 0.2 --pg-timeout 30 --log-style basic --resume "
             "ckpt/step_6` (`torch.multiprocessing.spawn`, env:// with MASTER_PORT=29812) under `timeout -s TERM 90`; "
             "before it, in the same scratch dir, `--spawn-procs 2 --steps 6 --save-dir ckpt/step_6` (exit 0, its output "
             "`prep_run.log` not kept)",
    layout="one `console.log`: `logging.basicConfig()` defaults (`INFO:ga.train:rank R: ...`, the rank only inside the "
           "messages), each process's `ERROR:ga.train:process <i>: training failed` + traceback (a try/except in the "
           "spawn entry), mp.spawn's `Terminating process N via signal SIGTERM` and its `ProcessRaisedException` "
           "(`-- Process 2 terminated with the following error:`).",
    planted="the checkpoint was written by a 2-process run (model.pt + rng_state_rank{0,1}.pt); the job is resumed with "
            "3 processes, so rank 2 has no `rng_state_rank2.pt`.",
    happened="all ranks load model/optimizer state (`saved with world_size=2`); rank 2's RNG-state load fails: "
             "`FileNotFoundError: [Errno 2] No such file or directory: 'ckpt/step_6/rng_state_rank2.pt'`; ranks 0 and "
             "1 restore theirs, enter step 7's gradient all-reduce and get `Connection closed by peer` "
             "([127.0.0.1]:16528 on process 0, :23194 on process 1); mp.spawn terminates pids 8080 (rank 0) and 8081 "
             "(rank 1) and re-raises process 2's error. Exit 1.",
    exits="prep=0, launcher=1",
    truth=truth(rank=2, cat="config_error",
                fd="FileNotFoundError: [Errno 2] No such file or directory: 'ckpt/step_6/rng_state_rank2.pt'", fd_rank=2,
                coll=[("Connection closed by peer [127.0.0.1]:16528", [0]),
                      ("Connection closed by peer [127.0.0.1]:23194", [1]),
                      ("Terminating process 8080 via signal SIGTERM", [0]),
                      ("Terminating process 8081 via signal SIGTERM", [1])],
                notes="resuming a 2-process checkpoint with 3 processes (a launch-config change): config_error; kind "
                      "rank 2 (only rank 2 fails, its rank is readable: `process 2`, `rng_state_rank2.pt`); all_ranks "
                      "arguable (the world-size change is job-wide), storage_io arguable (a missing file). The `saved "
                      "with world_size=2` lines printed by every rank are an earlier hint; the first line showing the "
                      "failure is the FileNotFoundError (printed twice, in the logged traceback and in mp.spawn's "
                      "report). pids from the init lines: 8080 = rank 0, 8081 = rank 1, 8082 = rank 2."))
J["ga-mpirun-stdin-overwrite-prompt-r0"] = dict(
    launcher="`mpirun --allow-run-as-root --oversubscribe -np 3 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29821 ... python "
             "ga_train.py --steps 10 --pg-timeout 20 --log-style basic --out-dir out < stdin.fifo` under `timeout -s "
             "TERM 90`; the FIFO is held open by a `sleep 150` writer (like a terminal nobody types into); Open MPI "
             "forwards stdin to rank 0 only",
    layout="one `console.log` (no tagging): `logging.basicConfig()` defaults (`INFO:ga.train:rank R: ...`), unprefixed "
           "`ERROR:ga.train:training failed` tracebacks, their `[rankN]:` copies, mpirun's boxed messages. Rank 0's "
           "prompt has no newline, so the next line of another rank is glued to it.",
    planted="the output directory `out/` already holds a previous run's `metrics.json`; rank 0 asks `Overwrite? [y/N]` "
            "with `input()` and waits for an answer; ranks 1 and 2 wait in a barrier for rank 0 (process-group timeout "
            "20 s).",
    happened="rank 0 prints `Output directory out already exists and is not empty. Overwrite? [y/N] ` and blocks on "
             "stdin; 20 s later ranks 1 and 2 fail in the barrier (`Timed out waiting 20000ms for recv operation to "
             "complete` on rank 1, `... for send operation to complete` on rank 2); mpirun aborts the job, closing "
             "stdin, and rank 0 then dies with `EOFError: EOF when reading a line`. mpirun reports process "
             "`[[29523,1],2]` (rank 2) as the first non-zero exit. Exit 1.",
    exits="mpirun=1",
    truth=truth(rank=0, cat="nccl_timeout_hang",
                fd="Output directory out already exists and is not empty. Overwrite? [y/N]", fd_rank=0,
                coll=[("Timed out waiting 20000ms for recv operation to complete", [1]),
                      ("Timed out waiting 20000ms for send operation to complete", [2])],
                notes="rank 0 blocked on an interactive prompt inside a distributed job; the peers time out in the "
                      "barrier: nccl_timeout_hang, rank 0 (the stuck rank, as the corpus's stale-lock busy loop); "
                      "config_error arguable (stale output dir / missing --overwrite). Rank 0's later `EOFError` is its "
                      "own consequence of mpirun closing stdin at the abort (not listed as collateral of others). "
                      "mpirun names rank 2 first."))
J["ga-healthy-torchrun-restart1-cache-reset"] = dict(
    launcher="`torchrun --standalone --nproc-per-node 2 --max-restarts 1 ga_train.py --steps 10 --sleep 0.2 --pg-timeout "
             "30 --log-style basic --log-file 'logs/rank{rank}.log' --fault transient --fault-rank 1 --fault-step 4 "
             "--attempt-store --warnings` under `timeout -s TERM 120`",
    layout="`console.log` (agent + workers' `LEVEL:ga.train:msg` records and `[rankN]:` tracebacks, both attempts) + "
           "`logs/rank{0,1}.log` (bare FileHandler, append mode: both attempts in one file per rank, message only).",
    planted="rank 1 raises `ConnectionResetError: [Errno 104] Connection reset by peer (shard cache daemon)` at step 4 "
            "of attempt 0 only; alarming but harmless lines in attempt 1: a FutureWarning, a caught "
            "ConnectionRefusedError logged at ERROR with traceback (metrics push), a grad-norm-spike WARNING. The "
            "process group is built over `PrefixStore('attempt-<restart>')` on the agent's store.",
    happened="attempt 0: rank 1 fails at step 4, rank 0 `Connection closed by peer`, the agent SIGTERMs rank 0 and "
             "restarts the group (`failed (exitcode: 1) local_rank: 1`); attempt 1 trains 10 steps and both ranks log "
             "`training done: 10 steps`; torchrun exits 0 (it prints no summary on success).",
    exits="torchrun=0",
    truth=truth(status="healthy",
                notes="the restart recovered: the last attempt ran to its end and the launcher exited 0 (as the corpus's "
                      "cx-restart2-transient-recovers / p-restart-late-shard-recovers); the attempt-0 traceback, the "
                      "agent's `failed (exitcode: 1)` line and the ERROR lines are not the job's outcome."))
J["ga-healthy-mpirun-outfile-glog-warnings"] = dict(
    launcher="`mpirun --allow-run-as-root --oversubscribe -np 3 --output-filename mpilogs -x MASTER_ADDR=127.0.0.1 -x "
             "MASTER_PORT=29831 ... python ga_train.py --steps 12 --sleep 0.2 --pg-timeout 30 --log-style glog --mine "
             "--shard-rows 4096,80000,4096 --warnings` under `timeout -s TERM 100`",
    layout="`console.log` (mpirun's console: all ranks' output, untagged) + `mpilogs/1/rank.{0,1,2}/{stdout,stderr}` "
           "(Open MPI's per-rank copies; stdout files are empty, the glog records go to stderr).",
    planted="nothing fatal: rank 0's FutureWarning, each rank's caught ConnectionRefusedError logged at ERROR (`E...`) "
            "with its traceback, a grad-norm-spike WARNING, and rank 1's similarity matrix (80000 x 80000 float32, "
            "23.8 GiB) refused with MemoryError, logged at WARNING, mining falls back to sampled chunks.",
    happened="all three ranks train 12 steps and log `training done: 12 steps`; mpirun exits 0.",
    exits="mpirun=0",
    truth=truth(status="healthy",
                notes="a clean end (`training done` on every rank, exit 0) after alarming lines: a MemoryError text in a "
                      "WARNING (handled fallback), ERROR records with a ConnectionRefusedError traceback, a FutureWarning."))


def readme(name, d):
    t = d["truth"]
    if t["status"] == "failed":
        i = t["initiating"]
        verdict = (f"failed; initiating kind `{i['kind']}`, rank {i['rank']}, node {i['node']}; category "
                   f"`{t['root_cause']['category']}`")
    else:
        verdict = t["status"]
    files = []
    for r, _, fs in os.walk(os.path.join(OUT, name)):
        for f in sorted(fs):
            if f not in ("README.md", "truth.json", ".correlatorignore"):
                files.append(os.path.relpath(os.path.join(r, f), os.path.join(OUT, name)))
    return f"""# {name}

Captured for real on this machine on 2026-12-06 ({ENV}), in a scratch dir `/home/user/jobs14ga/{name}/`, under
`nice`, in a private network namespace (loopback only) and mount namespace (`unshare -n -m`). Log files copied byte for
byte (`_capture_ga/collect.py`); nothing edited or masked.

**Source / command:** `captures14/_capture_ga/{name}.sh`: {d['launcher']}

**Layout:** {d['layout']}

**Planted:** {d['planted']}

**What happened:** {d['happened']}

**Exit codes:** {d['exits']}

**Files:** {', '.join('`' + f + '`' for f in sorted(files))}

**Verdict (truth.json):** {verdict}.

**Judgement calls:** {t['notes']}

**Rerun:** `cd captures14/_capture_ga && ./{name}.sh && ./collect_all.sh && python3 gen_meta.py` (pids, ports, times
differ on a rerun; re-check the truth's collateral strings).
"""


for name, d in J.items():
    p = os.path.join(OUT, name)
    os.makedirs(p, exist_ok=True)
    with open(os.path.join(p, "truth.json"), "w") as f:
        json.dump(d["truth"], f, indent=2); f.write("\n")
    with open(os.path.join(p, ".correlatorignore"), "w") as f:
        f.write("README.md\ntruth.json\n.correlatorignore\n")
    with open(os.path.join(p, "README.md"), "w") as f:
        f.write(readme(name, d))
print(len(J), "jobs")
