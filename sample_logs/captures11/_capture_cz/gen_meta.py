#!/usr/bin/env python3
"""gen_meta.py [OUT]: write README.md, truth.json and .correlatorignore of every cz-* job (truths written from the
planted faults and the printed lines)."""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("Python 3.11.7, torch 2.13.0+cpu (gloo), lightning 2.6.6, accelerate 1.15.0, loguru 0.7.3, "
       "Open MPI 4.1.4")


def truth(status="failed", rank=None, node=None, all_ranks=False, kind="rank", cat=None, fd=None, fd_rank=None,
          coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks, "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "ranks": r} for c, r in coll], "notes": notes}


HEALTHY = dict(status="healthy", kind=None)
J = {}
J["cz-spawn-rankfiles-gather-shape-r2"] = dict(
    launcher="`python cz_train.py --spawn 3 --port 29981 --steps 10 --pg-timeout 20 --log-file 'logs/rank_{rank}.txt' "
             "--fault gather_shape --fault-rank 2 --fault-step 5` (torch.multiprocessing.spawn, 3 processes) under "
             "`timeout -s TERM 60`",
    layout="`console.log` (the parent: spawn's report and what C++ writes to stderr) + `logs/rank_{0,1,2}.txt` "
           "(each process's Python logging, file only, `%(asctime)s | %(levelname)-8s | %(name)s:%(lineno)d | rank R | msg`)",
    planted="at step 5 every rank all_gathers its per-class label counts; rank 2's class table has an extra "
            "'unknown' bucket, so it contributes 5 floats where ranks 0, 1 allocate 4 per peer.",
    happened="rank 2 logs `gathering per-class counts (5 classes)` (ranks 0, 1: `(4 classes)`); rank 0's gloo pair "
             "receives more bytes than expected: `terminate called after throwing an instance of 'gloo::EnforceNotMet'` "
             "/ `op.preamble.length <= op.nbytes. 10 vs 8. Received data size doesn't match expected size. Is there a "
             "distributed collective mismatch in your code?` (SIGABRT); spawn SIGTERMs the other two processes and raises "
             "`ProcessExitedException: process 0 terminated with signal SIGABRT`. Exit 1.",
    exits="spawn parent=1",
    files=["console.log", "logs/rank_0.txt", "logs/rank_1.txt", "logs/rank_2.txt"],
    truth=truth(rank=2, cat="collective_mismatch", fd="gathering per-class counts (5 classes)", fd_rank=2,
                coll=[("Received data size doesn't match expected size", [0])],
                notes="rank 2's class table has 5 entries vs 4: its all_gather contribution is larger than the peers' "
                      "buffers; rank 0's gloo enforce aborts the process (the C++ message in console.log carries no "
                      "rank; spawn names process 0). First deviating line: rank 2's own '(5 classes)' line in "
                      "logs/rank_2.txt. data_error/config_error arguable (stale class table on one rank)."))
J["cz-bashloop-envfile-masteraddr-r1"] = dict(
    launcher="bash loop, one background process per rank: `( set -a; . env/rank$R.env; set +a; exec nohup timeout -s TERM 45 "
             "nice python cz_train.py --log-style syslog --steps 10 --pg-timeout 20 > out.$R 2>&1 ) &`, then `wait` on "
             "both (env:// rendezvous from the per-rank env file)",
    layout="`out.0`, `out.1` (each rank's stdout+stderr; syslog-like worker lines `Mon DD HH:MM:SS vm train[pid]: <rankR> LEVEL msg`)",
    planted="rank 1's env file (`env/rank1.env`, not copied) still names the old head node "
            "`MASTER_ADDR=trainer-head-0.cluster.internal` (rank 0's says 127.0.0.1; same MASTER_PORT 29982); the "
            "network namespace has no resolver, 20 s store/process-group timeout.",
    happened="rank 1 cannot resolve the name: repeated `The IPv6 network addresses of (trainer-head-0.cluster.internal, 29982) "
             "cannot be retrieved (gai error: -3 - Temporary failure in name resolution)`, `The client socket has timed out "
             "after 20000ms while trying to connect to (trainer-head-0.cluster.internal, 29982)` (two tries), "
             "`DistNetworkError`; rank 0 (hosting the TCPStore) `DistStoreError: Timed out after 21 seconds waiting "
             "for clients. 1/2 clients joined.` Neither rank logs a single line of its own. Exit 1 / 1.",
    exits="rank0=1, rank1=1",
    files=["out.0", "out.1"],
    truth=truth(rank=1, cat="rendezvous",
                fd="The IPv6 network addresses of (trainer-head-0.cluster.internal, 29982) cannot be retrieved",
                fd_rank=1,
                coll=[("Timed out after 21 seconds waiting for clients. 1/2 clients joined.", [0])],
                notes="wrong MASTER_ADDR on rank 1 only (stale per-rank env file): rank 1 never reaches the store "
                      "(name resolution fails), rank 0 times out waiting for the second client. rendezvous, as the "
                      "corpus's stale-port jobs; config_error arguable. out.N names the rank only by file name."))
J["cz-run-static-detail-extra-barrier-r0"] = dict(
    launcher="`TORCH_DISTRIBUTED_DEBUG=DETAIL python -m torch.distributed.run --rdzv-backend static --rdzv-endpoint "
             "127.0.0.1:29983 --nnodes 1 --node-rank 0 --nproc-per-node 2 cz_train.py --log-style loguru --pg-timeout 20 "
             "--steps 8 --manual-sync --fault extra_barrier --fault-rank 0 --fault-step 4` under `timeout -s TERM 60`",
    layout="one `console.log` (agent + both workers unprefixed, no --tee; loguru lines "
           "`YYYY-MM-DD HH:mm:ss.SSS LEVEL rR module:function:line - msg`; uncaught tracebacks with `[rankN]:`)",
    planted="rank 0 alone takes the 'wait for async checkpoint writer' branch after step 4's optimizer step: an extra "
            "`dist.barrier()` the other rank never calls (gradients are all-reduced by hand, no DDP wrapper).",
    happened="rank 0 logs `step 4: waiting for async checkpoint writer`; DETAIL's collective fingerprint check fails on "
             "both ranks: rank 1 `RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: "
             "CollectiveFingerPrint(SequenceNumber=19, OpType=ALLREDUCE, ...), but Rank 0 is running collective: ...REDUCE`, "
             "rank 0 `... Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=19OpType=BARRIER), but Rank 1 "
             "is running collective: ...ALLGATHER_COALESCED`; both ranks exit 1 (no SIGTERM needed), the agent's table lists rank 1 "
             "under Failures and rank 0 as Root Cause. Exit 1.",
    exits="launcher=1",
    files=["console.log"],
    truth=truth(rank=0, cat="collective_mismatch", fd="step 4: waiting for async checkpoint writer", fd_rank=0,
                coll=[("Rank 1 is running collective: CollectiveFingerPrint(SequenceNumber=19, OpType=ALLREDUCE", [1])],
                notes="one rank takes a different code path (an extra barrier): DETAIL reports the mismatch on both "
                      "ranks, each naming itself first; the only line that shows the extra path is rank 0's 'waiting for "
                      "async checkpoint writer'. The agent's table happens to call rank 0 the Root Cause (a test run of the same "
                      "job named rank 1: both fail within ms). Rank 0's own mismatch "
                      "error is its echo, not collateral. A first try with the DDP wrapper segfaulted both ranks at DDP "
                      "construction under DETAIL (not kept)."))
J["cz-standalone-role-fifo-stall-r1"] = dict(
    launcher="`torchrun --standalone --nproc-per-node 2 --role loader --log-dir logs --redirects 3 --tee 3 cz_train.py "
             "--log-style pipe --steps 12 --pg-timeout 60 --fault fifo_stall --fault-rank 1 --fault-step 5` under "
             "`timeout -s TERM 100`",
    layout="`console.log` (agent + `[loaderN]:` copies of every worker line) + "
           "`logs/<uuid>_<rand>/attempt_0/<lr>/{stdout,stderr}.log` (stdout.log empty: all worker output is logging on stderr)",
    planted="before step 5 rank 1's prefetch queue is empty and it reads its next shard part from a named pipe "
            "(`stream/part-00001.fifo`, made with mkfifo) that no writer ever opens: blocked in open(), silent; "
            "60 s process-group timeout.",
    happened="rank 1 logs `prefetch queue empty, reading next shard part from stream/part-00001.fifo` and nothing "
             "more; 61 s of silence; rank 0 (in step 5's all-reduce) `RuntimeError: ... Timed out waiting 60000ms for "
             "recv operation to complete`; agent SIGTERMs rank 1, table Root Cause rank 0 (exitcode 1). Exit 1 after ~65 s.",
    exits="launcher=1",
    files=["console.log", "logs/79c623e4-..._oybzsjti/attempt_0/{0,1}/{stdout,stderr}.log"],
    truth=truth(rank=1, cat="nccl_timeout_hang",
                fd="prefetch queue empty, reading next shard part from stream/part-00001.fifo", fd_rank=1,
                coll=[("Timed out waiting 60000ms for recv operation to complete", [0])],
                notes="rank 1 stalls in I/O (open() of a FIFO with no writer) and prints nothing after its 'reading next "
                      "shard part' line; rank 0's recv times out after 60 s; rank 1 is SIGTERMed by the agent without a "
                      "line. The agent's table names rank 0 Root Cause. storage_io arguable (the stall is in I/O); the "
                      "corpus files silent stragglers under nccl_timeout_hang."))
J["cz-torchrun-module-json-tensor-r0"] = dict(
    launcher="`torchrun --nnodes 1 --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29984 -m cz_train "
             "--log-style syslog --steps 10 --pg-timeout 20 --fault json_metrics --fault-rank 0 --fault-step 6 > train.log 2>&1` "
             "(module mode) under `timeout -s TERM 60`",
    layout="one `train.log` (agent + all workers unprefixed, no --tee; syslog-like lines; uncaught tracebacks with `[rankN]:`)",
    planted="after step 6 rank 0 (the only writer) dumps its metrics with the loss still a tensor (`loss.detach()`, not "
            "`.item()`) into metrics.json.",
    happened="rank 0 `TypeError: Object of type Tensor is not JSON serializable`; ranks 1, 2 (in step 7's all-reduce) "
             "`RuntimeError: [.../pair.cc:553] Connection closed by peer ... This is typically caused by a remote worker "
             "crashing.`; agent SIGTERMs ranks 1, 2, Root Cause rank 0. Exit 1.",
    exits="launcher=1",
    files=["train.log"],
    truth=truth(rank=0, cat="code_exception", fd="TypeError: Object of type Tensor is not JSON serializable", fd_rank=0,
                coll=[("Connection closed by peer", [1, 2])],
                notes="a plain bug on the metrics-writing rank (tensor passed to json.dump); the peers die of the closed "
                      "connection. Agent table agrees (Root Cause rank 0)."))
J["cz-redirects2-dlworker-segv-r1"] = dict(
    launcher="`PYTHONFAULTHANDLER=1 torchrun --nproc-per-node 2 --master-port 29985 --log-dir logs --redirects 2 cz_train.py "
             "--log-style print --steps 10 --pg-timeout 20 --workers 2 --fault dl_segv --fault-rank 1 --fault-step 57` "
             "under `timeout -s TERM 60`",
    layout="`console.log` (agent + both workers' stdout, unprefixed `print()` progress without a rank) + "
           "`logs/none_<rand>/attempt_0/<lr>/stderr.log` (each worker's stderr; no stdout.log with --redirects 2)",
    planted="rank 1's sample 57 (batch 8) is stored in a legacy packed format handed to a 'native decoder' inside "
            "`Dataset.__getitem__` (a ctypes NULL read): SIGSEGV in one of rank 1's DataLoader worker processes "
            "(num_workers=2).",
    happened="after 4 logged steps (prefetching reaches sample 57 early), rank 1's stderr.log: `ERROR: Unexpected "
             "segmentation fault encountered in worker.` (followed by a NUL byte, as written), then "
             "`RuntimeError: DataLoader worker (pid N) is killed by signal: Segmentation fault.` in the main loop; rank 0 "
             "`Connection closed by peer`; agent SIGTERMs rank 0, Root Cause rank 1. Exit 1.",
    exits="launcher=1",
    files=["console.log", "logs/none_2vs3znpl/attempt_0/0/stderr.log", "logs/none_2vs3znpl/attempt_0/1/stderr.log"],
    truth=truth(rank=1, cat="other", fd="ERROR: Unexpected segmentation fault encountered in worker.", fd_rank=1,
                coll=[("Connection closed by peer", [0])],
                notes="native crash (SIGSEGV) in a DataLoader worker of rank 1, triggered by one sample: other, as the "
                      "corpus's ctypes segfault (s-spawn-logfiles-segv); data_error arguable (the sample's format). The "
                      "worker's faulthandler dump does not appear (DataLoader installs its own SIGSEGV handler). "
                      "stderr.log of rank 1 contains a NUL byte right after the ERROR line."))
J["cz-plnotebook-anomaly-lr-all"] = dict(
    launcher="`python cz_pl.py --strategy ddp_notebook --devices 2 --lr 0.01 --epochs 3 --anomaly` (Lightning "
             "`Trainer(accelerator='cpu', devices=2, strategy='ddp_notebook', detect_anomaly=True)`, forked processes, "
             "gloo) under `timeout -s TERM 60`",
    layout="one `console.log` (Lightning banners/model summary, Python logging `%(asctime)s %(levelname)s [%(processName)s] "
           "%(name)s - msg` with `rank R` in the message, spawn's report)",
    planted="learning rate 0.01 with momentum 0.9 for an MLP regression on un-normalised inputs (x*3, targets ~N(5, 12)): "
            "the learning rate is far too large for the data scale; same on both ranks (DDP keeps them in lockstep).",
    happened="logged losses grow on both ranks (batch 0 ~200, batch 10 ~3e+05, batch 12 ~1e+27); at the next backward "
             "anomaly mode fires on both: `UserWarning: Error detected in AddmmBackward0. Traceback of forward call that "
             "caused the error:`; spawn SIGTERMs the other process (`Terminating process 22586 via signal SIGTERM`) and reports `-- Process 0 terminated with the following error:` "
             "`RuntimeError: Function 'AddmmBackward0' returned nan values in its 2th output.` Exit 1.",
    exits="python=1",
    files=["console.log"],
    truth=truth(rank=None, all_ranks=True, kind="all_ranks", cat="nan_divergence",
                fd="UserWarning: Error detected in AddmmBackward0", fd_rank=None,
                notes="too-large learning rate: the loss diverges identically on every rank and autograd's anomaly "
                      "mode raises on nan in the backward; both ranks print the anomaly warning, the spawn report "
                      "shows process 0's RuntimeError only. First deviating: the anomaly warning (first line that shows "
                      "non-finite values; the exploding 'loss 3.265e+05' / '1.149e+27' lines precede it). config_error "
                      "arguable (the cause is a config value)."))
J["cz-nblauncher-csv-row-r1"] = dict(
    launcher="`python cz_acc.py --mode notebook --nproc 2 --data csv --steps 12` "
             "(`accelerate.notebook_launcher(main, num_processes=2, use_port='29976')` from a plain script; "
             "`Accelerator(cpu=True)` -> MULTI_CPU/gloo; torch elastic `start_processes`, fork) under `timeout -s TERM 60`",
    layout="one `console.log` (`Launching training on 2 CUDAs.` as printed on this CPU-only machine; Python logging "
           "`[asctime] {file:line} LEVEL - [rank R] msg`; torch elastic's `E... api.py:836]`-prefixed failure report)",
    planted="rank 1's CSV shard `data/part-1.csv` (written by make_csv.py) has data row 53 with features f6 and f7 "
            "joined by ';' (a locale export): one field reads `0.3819;-2.6826`.",
    happened="rank 1 logs `reading data/part-1.csv`, then `float()` fails; the launcher SIGTERMs rank 0 (`Terminating "
             "process 23388 via signal SIGTERM`) and reports `-- Process 1 terminated with the following error:` "
             "`ValueError: could not convert string to float: '0.3819;-2.6826'` (each line prefixed `E1206 ... api.py:836]`), "
             "then `ChildFailedError` / `main FAILED`. Exit 1.",
    exits="python=1",
    files=["console.log"],
    truth=truth(rank=1, cat="data_error", fd="could not convert string to float: '0.3819;-2.6826'", fd_rank=1,
                coll=[("Terminating process 23388 via signal SIGTERM", [0])],
                notes="malformed row in one rank's data shard. Rank 0 prints nothing after its shard was read; the "
                      "launcher's 'Terminating process 23388' line is about rank 0 (pid 23388; rank 1 is pid 23389). "
                      "The first try of this job lost rank 1's error: rank 0 died first of 'Connection closed by peer' "
                      "in DDP's parameter check and the report showed only process 0 (race; not kept)."))
J["cz-mpirun-timeout-sigterm-ext"] = dict(
    launcher="`timeout -s TERM 25 mpirun --allow-run-as-root --bind-to none -np 2 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29986 "
             "-x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS python cz_train.py --log-style syslog --steps 400 --pg-timeout 20` "
             "(Open MPI 4.1.4; rank from OMPI_COMM_WORLD_RANK, env:// rendezvous)",
    layout="one `console.log` (mpirun's console, no tags; syslog-like worker lines with `<rankR>`)",
    planted="a healthy 400-step run under a 25 s wall-clock limit (`timeout -s TERM 25`, as a batch allocation's time "
            "limit): mpirun gets SIGTERM and forwards it to the ranks.",
    happened="steps 1..74 logged normally by both ranks, then the output stops: neither mpirun nor the workers print "
             "anything about the signal. `timeout` exits 124.",
    exits="timeout(mpirun)=124",
    files=["console.log"],
    truth=truth(kind="external", cat="killed_by_scheduler", fd=None, fd_rank=None,
                notes="healthy job terminated from outside by its wall-clock limit; Open MPI 4.1 prints nothing on a "
                      "forwarded SIGTERM and the ranks have no handler, so the log just ends mid-run (step 74/400 of "
                      "400) with no error line; only the exit status 124 (not in the log) records it. First deviating "
                      "null."))
J["cz-mpirun-logfiles-empty-ckpt-r2"] = dict(
    launcher="`mpirun --allow-run-as-root --bind-to none --oversubscribe -np 3 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29987 "
             "-x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS python cz_train.py --log-style pipe --log-file 'logs/train.{rank}.log' "
             "--steps 10 --pg-timeout 20 --fault ckpt_resume` (Open MPI 4.1.4) under `timeout -s TERM 60`",
    layout="`console.log` (mpirun's banners + what the ranks write to stderr: uncaught tracebacks with `[rankN]:`) + "
           "`logs/train.{0,1,2}.log` (each rank's Python logging, file only)",
    planted="every rank resumes from its own checkpoint `ckpt/rank{R}.pt` written by a previous run (prep_ckpt.py); "
            "rank 2's file is empty (0 bytes: its writer was killed mid-save).",
    happened="rank 2 logs `resuming from ckpt/rank2.pt (0 bytes)`, then `torch.load` -> bare `EOFError` (weights-only "
             "unpickler); ranks 0, 1 resumed at step 5 and die in DDP's parameter check: `Connection closed by peer`; "
             "mpirun `Primary job  terminated normally, but 1 process returned a non-zero exit code...` and `mpirun "
             "detected that one or more processes exited with non-zero status` (names process [[...],2]). Exit 1.",
    exits="mpirun=1",
    files=["console.log", "logs/train.0.log", "logs/train.1.log", "logs/train.2.log"],
    truth=truth(rank=2, cat="storage_io", fd="resuming from ckpt/rank2.pt (0 bytes)", fd_rank=2,
                coll=[("Connection closed by peer", [0, 1])],
                notes="per-rank checkpoint empty on rank 2 only (interrupted save): storage_io as the corpus's truncated "
                      "checkpoints; data_error arguable. The exception itself is a bare 'EOFError' line; the first "
                      "line that shows the cause is rank 2's own '(0 bytes)' resume line in logs/train.2.log."))
J["cz-mpmd-stale-checkout-r1"] = dict(
    launcher="Open MPI MPMD (colon syntax): `mpirun --allow-run-as-root --bind-to none -np 1 $X python app/cz_train.py "
             "--log-style pipe --steps 10 --pg-timeout 20 : -np 1 $X python app-stale/cz_train.py ...` with "
             "`X='-x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29989 -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS'` "
             "under `timeout -s TERM 60`",
    layout="one `console.log` (mpirun's console, no tags; worker logging on stderr; tracebacks with `[rankN]:`, whose "
           "file paths show `app/` vs `app-stale/`)",
    planted="rank 1 runs a stale copy of the training code (`app-stale/cz_train.py`, one release older): its model "
            "still has a LayerNorm after the first Linear (6 parameter tensors vs 4).",
    happened="both ranks fail in DDP's construction-time check: rank 1 `RuntimeError: DDP expects same model across all "
             "ranks, but Rank 1 has 6 params, while rank 0 has inconsistent 4 params.`, rank 0 `... Rank 0 has 4 params, "
             "while rank 1 has inconsistent 6 params.`; mpirun names process [[...],0] first. Exit 1.",
    exits="mpirun=1",
    files=["console.log"],
    truth=truth(rank=1, cat="version_mismatch", fd="Rank 1 has 6 params, while rank 0 has inconsistent 4 params", fd_rank=1,
                coll=[("Rank 0 has 4 params, while rank 1 has inconsistent 6 params", [0])],
                notes="code-version skew between ranks (a stale checkout on one host): the two DDP messages are "
                      "symmetric; which rank is stale shows only in the traceback paths (app-stale/ on rank 1) and the "
                      "planted setup. mpirun names process 0 first. config_error arguable."))
J["cz-healthy-standalone-role-tee-warnings"] = dict(
    launcher="`torchrun --standalone --nproc-per-node 3 --role trainer --log-dir logs --redirects 3 --tee 3 cz_train.py "
             "--log-style pipe --steps 8 --pg-timeout 20 --warnings` under `timeout -s TERM 60`",
    layout="`console.log` (agent + `[trainerN]:` copies) + `logs/<uuid>_<rand>/attempt_0/<lr>/{stdout,stderr}.log` "
           "(stdout.log empty)",
    planted="nothing wrong; noise on every rank: a `UserWarning: torch.cuda.amp.GradScaler is enabled, but CUDA is not "
            "available.  Disabling.`, a `max_grad_norm=None` WARNING, an ERROR-level `metrics push ... failed (attempt 1/3), "
            "retrying` with a `ConnectionResetError: [Errno 104] Connection reset by peer` traceback, then "
            "`metrics push succeeded on attempt 2`.",
    happened="8 steps, `training done` on all three ranks. Exit 0.",
    exits="launcher=0",
    files=["console.log", "logs/d32a6300-..._jiukrqxp/attempt_0/{0,1,2}/{stdout,stderr}.log"],
    truth=truth(**HEALTHY, notes="healthy: warnings and a caught, retried ConnectionResetError logged at ERROR with its "
                                 "traceback on every rank; exit 0."))
J["cz-healthy-mpirun-loguru"] = dict(
    launcher="`mpirun --allow-run-as-root --bind-to none -np 2 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29988 -x PATH "
             "-x PYTHONUNBUFFERED -x OMP_NUM_THREADS python cz_train.py --log-style loguru --steps 12 --pg-timeout 20 "
             "--warnings` under `timeout -s TERM 60`",
    layout="one `console.log` (mpirun console, loguru lines on stderr; loguru's ERROR traceback is its 'diagnose' format "
           "with variable values, including a truncated `environ({...})` repr)",
    planted="nothing wrong; the same noise as cz-healthy-standalone-role-tee-warnings (UserWarning, WARNING, caught "
            "ConnectionResetError logged at ERROR with traceback).",
    happened="12 steps, `training done` on both ranks. Exit 0.",
    exits="mpirun=0",
    files=["console.log"],
    truth=truth(**HEALTHY, notes="healthy mpirun run with loguru's verbose ERROR traceback of a caught, retried "
                                 "ConnectionResetError; exit 0."))
J["cz-healthy-plnotebook-anomaly-on"] = dict(
    launcher="`python cz_pl.py --strategy ddp_notebook --devices 2 --lr 1e-4 --epochs 3 --anomaly` (Lightning ddp_notebook, "
             "CPU, gloo) under `timeout -s TERM 90`",
    layout="one `console.log` (as cz-plnotebook-anomaly-lr-all)",
    planted="nothing wrong: the same script and data as cz-plnotebook-anomaly-lr-all with a small learning rate; "
            "detect_anomaly left on (its slow-down warning), LeafSpec deprecation warnings, Lightning tip.",
    happened="3 epochs, losses fall (~200 -> ~70), `Trainer.fit` stopped: `max_epochs=3` reached. Exit 0.",
    exits="python=0",
    files=["console.log"],
    truth=truth(**HEALTHY, notes="healthy Lightning ddp_notebook run; large but decreasing losses, anomaly-mode warning; "
                                 "exit 0."))

for name, j in J.items():
    d = os.path.join(OUT, name)
    assert os.path.isdir(d), d
    json.dump(j["truth"], open(os.path.join(d, "truth.json"), "w"), indent=2)
    open(os.path.join(d, "truth.json"), "a").write("\n")
    t = j["truth"]
    if t["status"] == "healthy":
        tl = "healthy"
    else:
        who = {"rank": f"rank {t['initiating']['rank']}", "all_ranks": "all ranks", "external": "external"}[t["initiating"]["kind"]]
        tl = f"failed, {who}, `{t['root_cause']['category']}`"
    readme = f"""# {name}

Captured for real on this machine on 2026-12-06 (host `vm`, 2 cores, CPU only, gloo; {ENV}), scratch dir
`/home/user/jobs11/{name}/`, under `nice`, in a private network namespace (loopback only) and mount namespace
(`unshare -n -m`, `_capture_cz/common.sh`). Log files copied out byte for byte (`_capture_cz/collect.py`, layout kept).

* **Launcher:** {j['launcher']}
* **Layout:** {j['layout']}
* **Planted:** {j['planted']}
* **What happened:** {j['happened']}
* **Exit codes:** {j['exits']}
* **Truth:** {tl} (see `truth.json`; written from the planted fault and the printed lines, without running the tool)

Files:
""" + "".join(f"* `{f}`\n" for f in j["files"]) + f"""
Rerun: `captures11/_capture_cz/{name}.sh` (as root; it re-executes itself under `unshare -n -m`), then
`captures11/_capture_cz/collect_all.sh` (or the job's line of it). Pids, ports, time stamps and random log-dir names
differ on a rerun; check the truths (`python3 ../_capture/check_truths.py .`) after recapturing.
"""
    open(os.path.join(d, "README.md"), "w").write(readme)
    open(os.path.join(d, ".correlatorignore"), "w").write("# scenario documentation, not logs\nREADME.md\ntruth.json\n")
print(f"{len(J)} jobs")
