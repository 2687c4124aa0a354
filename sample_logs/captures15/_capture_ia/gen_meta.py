#!/usr/bin/env python3
"""gen_meta.py [OUT]: write README.md, truth.json and .correlatorignore of every ia-* job (truths written from the
planted faults and the printed lines, without running the tool)."""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), numpy 2.4.6, "
       "lightning 2.6.6, transformers 5.25.0, ray 2.60.0, mpi4py 4.1.2, Open MPI 4.1.4, GNU parallel 20221122, GNU Make "
       "4.3, GNU findutils xargs 4.9.0")


def truth(status="failed", rank=None, node=None, all_ranks=False, kind="rank", cat=None, fd=None, fd_rank=None,
          coll=(), notes=""):
    if status != "failed":
        return {"schema_version": 1, "status": status,
                "initiating": {"rank": None, "node": None, "all_ranks": False, "kind": "unknown"},
                "root_cause": {"category": None, "rule_id": None}, "first_deviating": None, "collateral": [],
                "notes": notes}
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks, "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


J = {}
J["ia-parallel-tag-ddp-paramcount-r1"] = dict(
    command="`parallel --tag --line-buffer -j3 --colsep '\\t' 'RANK={1} LOCAL_RANK={1} exec python ia_train.py --steps 10 "
            "--pg-timeout 30 --config {2}' :::: ranks.tsv` with MASTER_ADDR=127.0.0.1 MASTER_PORT=29731 WORLD_SIZE=3 "
            "exported, under `timeout -s TERM 90 nice`",
    layout="`console.log`: all of GNU parallel's output. `--tag` prefixes every line with the job's arguments and a TAB "
           "(`0 configs/base.json<TAB>`, `1 configs/ablation-ln.json<TAB>`, `2 configs/base.json<TAB>`); `--line-buffer` "
           "passes lines through as they come, so the three ranks interleave. Worker lines are asctime records "
           "(`2026-12-06 08:18:09,937 INFO [rank 0] ia.train: ...`) plus torch's own `[rankN]:` traceback copies.",
    planted="the job table `ranks.tsv` (rank, model config) still has rank 1 on `configs/ablation-ln.json` (hidden 32, "
            "`\"layernorm\": true`) left from an ablation sweep; ranks 0 and 2 get `configs/base.json` (no LayerNorm). "
            "Rank 1's model therefore has 6 parameter tensors, the others 4.",
    happened="all three ranks form the gloo process group and log the config they read (rank 1: `'layernorm': True`). "
             "DDP's constructor (`_verify_param_shape_across_processes`) compares the parameter lists: every rank "
             "raises `RuntimeError: DDP expects same model across all ranks` - rank 1 `Rank 1 has 6 params, while rank 0 "
             "has inconsistent 4 params`, ranks 0 and 2 `Rank 0/2 has 4 params, while rank 1 has inconsistent 6 params`. "
             "No training step. parallel exit 3 (three failed jobs).",
    exits="parallel=3 (its count of failed jobs)",
    truth=truth(rank=1, cat="config_error",
                fd="RuntimeError: DDP expects same model across all ranks, but Rank 1 has 6 params, while rank 0 has inconsistent 4 params.",
                fd_rank=1,
                coll=[(0, "RuntimeError: DDP expects same model across all ranks, but Rank 0 has 4 params, while rank 1 has inconsistent 6 params."),
                      (2, "RuntimeError: DDP expects same model across all ranks, but Rank 2 has 4 params, while rank 1 has inconsistent 6 params.")],
                notes="one rank's stale per-rank config entry gives it a different model: config_error, rank 1. The three "
                      "RuntimeErrors are printed within 10 ms of each other (rank 2 first); rank 1 is named by every message "
                      "(`rank 1 has inconsistent 6 params`) and its config line (`model config from "
                      "configs/ablation-ln.json: {'hidden': 32, 'layernorm': True}`) is the earliest line that shows the "
                      "cause; first_deviating is rank 1's own exception line. Ranks 0 and 2 raise because of rank 1 "
                      "(collateral)."),
    calls="the config line of rank 1 (INFO) comes before the errors and already shows the cause; the exception line was "
          "chosen as first_deviating because it carries the meaning (mismatched parameter count). The job table's rank "
          "is readable from the parallel tag and from `[rank 1]` in the record.",
)

J["ia-mpi4py-stale-cachelock-straggler-r2"] = dict(
    command="`mpirun --allow-run-as-root --oversubscribe --merge-stderr-to-stdout -np 3 -x PYTHONUNBUFFERED -x "
            "OMP_NUM_THREADS python ia_train.py --init mpi --steps 10 --pg-timeout 20 --lock 'cache/shard-{rank}.lock' "
            "--lock-wait 60 --log-file 'logs/train-rank{rank}.log'` under `timeout -s TERM 120 nice`",
    layout="`console.log`: mpirun's output, untagged (no `--tag-output`), stderr merged; asctime records `... WARNING "
           "[rank 2] ia.train: ...`, Python tracebacks and torch's `[rankN]:` copies, then mpirun's boxed messages "
           "(`Primary job  terminated normally, but 1 process returned`, `Process name: [[7386,1],0]`). "
           "`logs/train-rank{0,1,2}.log`: each rank's RotatingFileHandler (same format).",
    planted="init from MPI: rank/size from mpi4py `COMM_WORLD`, rank 0 picks a free port and broadcasts "
            "MASTER_ADDR/PORT over MPI, then `init_process_group('gloo', timeout=20 s)`. Before building its data each "
            "rank waits (up to 60 s) for its dataset-cache lock to go away; a stale lock `cache/shard-2.lock` (`pid "
            "31337 host vm (cache build started 2026-12-06 07:41:12)`, a killed earlier run) is left for rank 2 only.",
    happened="all three ranks build the process group and the DDP model. Rank 2 logs `WARNING ... dataset cache "
             "cache/shard-2.lock is locked (...); waiting for the lock to be released` at 08:18:22 and sleeps; ranks 0 "
             "and 1 run their first step and wait in DDP's gradient all-reduce. After 20 s (08:18:42) rank 1 "
             "`Timed out waiting 20000ms for recv operation to complete`, rank 0 `Timed out waiting 20000ms for send "
             "operation to complete`; both exit 1. mpirun does not stop rank 2, which is still sleeping: at 08:19:22 "
             "rank 2 gives up on the lock (`cache lock still held after 60 s, removing stale lock...`), starts its first "
             "step and gets `Connection closed by peer [127.0.0.1]:57015`; then mpirun reports the job aborted, first "
             "non-zero exit `[[7386,1],0]` (rank 0). mpirun exit 1.",
    exits="mpirun=1",
    truth=truth(rank=2, cat="nccl_timeout_hang",
                fd="dataset cache cache/shard-2.lock is locked (pid 31337 host vm", fd_rank=2,
                coll=[(1, "Timed out waiting 20000ms for recv operation to complete"),
                      (0, "Timed out waiting 20000ms for send operation to complete")],
                notes="a straggler: rank 2 sits on a stale cache lock for 60 s, past the 20 s gloo timeout of its peers, "
                      "who time out in the first gradient all-reduce: nccl_timeout_hang (gloo), rank 2. Its WARNING is "
                      "the first deviating line; its own late `Connection closed by peer` is a consequence. mpirun names "
                      "rank 0 (`[[7386,1],0]`) as the first non-zero exit, a victim. The two timeout strings are rank "
                      "specific in this run (recv on rank 1, send on rank 0)."),
    calls="category nccl_timeout_hang (a collective timeout caused by a late rank) rather than storage_io: the lock file "
          "is stale bookkeeping, not an I/O error. mpirun let rank 2 run on for 40 s after ranks 0 and 1 had exited "
          "(mpirun waits for the process to end before it reports the abort).",
)

J["ia-torchrun-role-filter-collorder-r1"] = dict(
    command="`torchrun --standalone --nproc-per-node 3 --role trainer --log-dir logs --tee 3 --local-ranks-filter 0 "
            "ia_train.py --steps 12 --pg-timeout 20 --metrics-every 4 --throughput-rank 1` under `timeout -s TERM 120 "
            "nice`",
    layout="`console.log`: torchrun's console. Because of `--local-ranks-filter 0` only rank 0's tee'd lines appear "
           "there, prefixed with the custom role (`[trainer0]:`); then the agent's SIGTERM lines and the "
           "`ChildFailedError` table. `logs/<run_id>/attempt_0/{0,1,2}/{stdout,stderr}.log`: every rank's streams "
           "(stdout files are empty: the workers log to stderr) - the only place ranks 1 and 2 are visible.",
    planted="the metrics sync every 4 steps does `all_reduce(loss)` then `all_gather(throughput)` on every rank except "
            "the throughput reporter (`--throughput-rank 1`), whose branch gathers first (`step 4: collecting per-rank "
            "throughput`) and reduces second. No TORCH_DISTRIBUTED_DEBUG: the mismatched pair just hangs.",
    happened="4 steps on all ranks; at step 4 rank 1 enters all_gather, ranks 0 and 2 all_reduce. Nothing moves for 20 s, "
             "then (08:19:49) rank 1 gets `Connection closed by peer [127.0.0.1]:48520` (logged 13 ms before rank 0's error record; presumably a peer's timeout closed the pair), rank 0 `Timed out waiting 20000ms for recv operation to complete` in all_reduce, rank 2 "
             "`Timed out waiting 20000ms for send operation to complete`. The agent SIGTERMs pids 30518 (rank 0) and 30519 (rank 1) and names rank 2 (pid 30520, "
             "exit 1) as Root Cause (first observed failure). torchrun exit 1.",
    exits="torchrun=1",
    truth=truth(rank=1, cat="collective_mismatch",
                fd="step 4: collecting per-rank throughput", fd_rank=1,
                coll=[(0, "Timed out waiting 20000ms for recv operation to complete"),
                      (2, "Timed out waiting 20000ms for send operation to complete")],
                notes="rank 1 issues its collectives in a different order (all_gather before all_reduce): the ranks wait "
                      "on each other until the 20 s gloo timeout - collective_mismatch, rank 1. The only line showing "
                      "the divergence is rank 1's INFO `step 4: collecting per-rank throughput` in "
                      "logs/.../attempt_0/1/stderr.log (hidden from the console by --local-ranks-filter 0). The torchrun "
                      "table's Root Cause (rank 2) is just the first process the agent saw exit; rank 0's console "
                      "timeout is the only error in console.log."),
    calls="first_deviating is an INFO line (no error line carries the meaning: all three ranks only time out or lose "
          "their connection). The first attempt of this job (before the last script edit that only added "
          "`--grad-accum`) behaved the same except that rank 1 also timed out (send) instead of `Connection closed`; only "
          "the re-run is kept.",
)

J["ia-plspawn-tokenizer-v2-shard-r1"] = dict(
    command="`python ia_pl.py --make-data data --world 2 --v2-rank 1` (prep), then `python ia_pl.py --data data --vocab "
            "1000 --epochs 2` under `timeout -s TERM 120 nice`",
    layout="`console.log`: the script's stdout + stderr. Lightning `Trainer(accelerator='cpu', devices=2, "
           "strategy='ddp_spawn')` starts the second process itself with torch.multiprocessing.spawn (no external "
           "launcher): Lightning's rank-zero banner and model summary, `Initializing distributed: GLOBAL_RANK: R, MEMBER: "
           "R+1/2`, the script's `[shard] rank R: ...` prints, `[rank: 0] Received SIGTERM: 15`, and the parent's "
           "`ProcessRaisedException` with `-- Process 1 terminated with the following error:` and the child traceback.",
    planted="each process trains on its own pre-tokenized shard `data/shard-<RR>.npz`; rank 1's shard was made with the "
            "newer tokenizer (`wordpiece-1280-v2`, ids up to 1279) while the model's EmbeddingBag has the v1 vocabulary "
            "of 1000 rows (rank 0's shard: `wordpiece-1000-v1`).",
    happened="both ranks print their shard (rank 1: `tokenizer wordpiece-1280-v2 (vocab 1280)`); rank 1's first "
             "training_step fails in `F.embedding_bag`: `RuntimeError: Index 0 of input takes value 1216 which is not in "
             "the valid range [0, 1000)`; spawn terminates process 0 (pid 9306, `[rank: 0] Received SIGTERM: 15`) and "
             "the parent raises `ProcessRaisedException` for process 1. python exit 1.",
    exits="python=1",
    truth=truth(rank=1, cat="data_error",
                fd="RuntimeError: Index 0 of input takes value 1216 which is not in the valid range [0, 1000)", fd_rank=1,
                coll=[(0, "[rank: 0] Received SIGTERM: 15")],
                notes="rank 1's input shard was tokenized with a different (larger) vocabulary than the model: "
                      "out-of-range token ids, data_error, rank 1. The rank is readable from `-- Process 1 terminated "
                      "with the following error:` (spawn index = global rank here) and from the `[shard] rank 1: ... "
                      "wordpiece-1280-v2 (vocab 1280)` line, which is the earliest line hinting at the cause. Rank 0 is "
                      "SIGTERMed by spawn."),
    calls="data_error rather than config_error: the model config (vocab 1000) matches the rest of the data; one shard is "
          "the odd one out. The embedding error is a RuntimeError (not IndexError) in torch 2.13's embedding_bag.",
)

J["ia-make-j3-envfile-worldsize-r2"] = dict(
    command="`make -j3 train` (Makefile: `train: rank0 rank1 rank2`, each target `. env/$@.env && python ia_train.py "
            "--log-style plain --steps 10 --pg-timeout 25`) under `timeout -s TERM 120 nice`",
    layout="`console.log`: make's stdout + stderr, no output sync: make echoes the three recipe lines, then the ranks' "
           "print()ed lines (`rank R | LEVEL | msg`), unprefixed torch warnings/tracebacks, make's own `make: *** "
           "[Makefile:8: rank2] Error 1` lines.",
    planted="`env/rank2.env` was copied from a 4-process setup and still exports `WORLD_SIZE=4` (rank0/rank1.env: 3); "
            "everything else (MASTER_ADDR/PORT 127.0.0.1:29745) is the same.",
    happened="the start lines show `rank 2/4` vs `rank 0/3`, `rank 1/3`. Rank 2 registers in the store and waits for a "
             "fourth process: after 25 s c10d warns `waitForInput ... timed out after 25000ms` and rank 2 raises "
             "`torch.distributed.DistStoreError: wait timeout after 25000ms, keys: /default_pg/0//cpu//0/3` in "
             "`init_process_group`; make prints `make: *** [Makefile:8: rank2] Error 1` and `Waiting for unfinished "
             "jobs....`. Ranks 0 and 1 never print again (stuck in process-group setup) until the capture's 120 s "
             "`timeout` sends SIGTERM to make: `make: *** [Makefile:4: rank0] Terminated`. Exit 124.",
    exits="make under timeout=124 (the wall-clock limit of the capture; rank 2's python exit 1 is shown by make's "
          "`Error 1`)",
    truth=truth(rank=2, cat="config_error",
                fd="torch.distributed.DistStoreError: wait timeout after 25000ms, keys: /default_pg/0//cpu//0/3",
                fd_rank=2,
                coll=[(0, "make: *** [Makefile:4: rank0] Terminated")],
                notes="a wrong WORLD_SIZE in one rank's env file: config_error, rank 2. The earliest line that shows it "
                      "is rank 2's start line `rank 2/4 local_rank 2` (INFO); the first line carrying the error is the "
                      "DistStoreError, printed twice (the script's logged traceback and the uncaught one), whose key "
                      "`.../3` is the missing fourth rank. Ranks 0 and 1 hang silently; the job ends when the "
                      "capture's 120 s timeout kills make (the `Terminated` line for target rank0 is the only line of "
                      "a victim with a readable rank). rendezvous would be the second choice of category."),
    calls="the job ends by the capture's wall-clock `timeout` (exit 124), which acts like a scheduler limit on a hung "
          "job; it is not the root cause. The first capture (before the last script edit, which only added "
          "`--grad-accum`) behaved the same, with `[Makefile:6: rank1] Terminated` instead of rank0; only the re-run "
          "is kept.",
)

J["ia-elastic-1to2-gradaccum-lr-zerodiv-all"] = dict(
    command="`LOGLEVEL=INFO python -m torch.distributed.run --nnodes 1:2 --nproc-per-node 2 --rdzv-backend c10d "
            "--rdzv-endpoint 127.0.0.1:29760 --rdzv-id ia-elastic --rdzv-conf last_call_timeout=5 ia_train.py --steps 12 "
            "--pg-timeout 30 --epochs 1 --batch 16 --samples 512 --grad-accum 32 --warmup-ratio 0.1 --log-file "
            "'logs/rank{rank}.log'` under `timeout -s TERM 120 nice`",
    layout="`console.log`: the elastic agent's INFO records (launch config with `min_nodes 1`, `max_nodes 2`, the "
           "rendezvous result with `group_world_size=1`) and both workers' stderr (asctime records, tracebacks, "
           "`[rankN]:` copies), then the agent's SIGTERM line and failure table. `logs/rank{0,1}.log`: each worker's "
           "RotatingFileHandler.",
    planted="the run config's `--grad-accum 32` (from a larger setup) against 512 samples / 2 ranks / batch 16 = 16 "
            "batches per epoch: the LR schedule length `epochs*16//32` is 0 optimizer steps, warmup `int(0*0.1)` = 0, and "
            "the LambdaLR lambda evaluates its decay branch `(step - warmup) / (total - warmup)` = 0/0 when LambdaLR is "
            "constructed (it calls the lambda for step 0). (`--grad-accum` is used only for the schedule length in "
            "ia_train.py; the failure comes before any step.)",
    happened="the single agent waits out `last_call_timeout=5` and starts with one node (2 workers). Both ranks log "
             "`lr schedule: 0 optimizer steps (16 batches/epoch, grad accumulation 32), linear warmup 0 steps` and raise "
             "`ZeroDivisionError: division by zero` (rank 1 first, 08:11:31,768). The agent SIGTERMs pid 11758 (rank 0) "
             "and names rank 1 (pid 11759) Root Cause. Exit 1.",
    exits="launcher=1",
    truth=truth(rank=None, all_ranks=True, kind="all_ranks", cat="config_error",
                fd="ZeroDivisionError: division by zero", fd_rank=1, coll=[],
                notes="a job-wide configuration error (gradient accumulation larger than the per-rank batches per "
                      "epoch -> zero-length LR schedule): both ranks fail identically at scheduler construction, "
                      "all_ranks, config_error. first_deviating is the first printed ZeroDivisionError (rank 1, 6 ms "
                      "before rank 0's); the `lr schedule: 0 optimizer steps` INFO line just before it shows the cause. "
                      "No collateral: rank 0 fails on its own (its SIGTERM by the agent comes after its own error)."),
    calls="all_ranks although the agent's table names only rank 1 as Root Cause and rank 0 as SIGTERMed: rank 0 printed "
          "the same ZeroDivisionError before the SIGTERM. The elastic range `1:2` plays no part in the failure (one "
          "agent only).",
)

J["ia-2node-hosts-no-master-name-trn-b"] = dict(
    command="two simulated nodes, each `unshare -u -m` (own host name and /etc/hosts bind mount) inside the job's "
            "loopback-only network namespace: `torchrun --nnodes 2 --node-rank {0,1} --nproc-per-node 2 --rdzv-backend "
            "c10d --rdzv-endpoint trn-master:29770 --rdzv-id ia2node --rdzv-conf join_timeout=30,read_timeout=20 "
            "ia_train.py --steps 10 --pg-timeout 30`, each under `timeout -s TERM 150 nice`; trn-b started 1 s after "
            "trn-a",
    layout="`node-trn-a.log`, `node-trn-b.log`: each agent's console (agent + its workers; no worker ever started). The "
           "host name is only in the file name; no `[rankN]` prefix anywhere (no rank was assigned).",
    planted="trn-b's /etc/hosts (bind-mounted in its mount namespace) lists `localhost` and `trn-b` only - no "
            "`trn-master` alias (trn-a's lists `trn-a trn-master` and `trn-b`). No DNS is reachable in the namespace.",
    happened="trn-a resolves trn-master to itself, hosts the c10d store and waits for a second node. trn-b cannot resolve "
             "the endpoint: c10d warns `The IPv6 network addresses of (trn-master, 29770) cannot be retrieved (gai "
             "error: -3 - Temporary failure in name resolution).` repeatedly, `The client socket has timed out after "
             "20000ms while trying to connect to (trn-master, 29770).`, one retry, then `RendezvousConnectionError: The "
             "connection to the C10d store has failed.` (exit 1). trn-a's join timeout expires: "
             "`torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError` (exit 1).",
    exits="trn-a torchrun=1, trn-b torchrun=1",
    truth=truth(rank=None, node="trn-b", kind="rank", cat="rendezvous",
                fd="The IPv6 network addresses of (trn-master, 29770) cannot be retrieved (gai error: -3 - Temporary failure in name resolution).",
                fd_rank=None, coll=[],
                notes="a machine-level cause on one node of a two-node job (its resolver config lacks the master's "
                      "name): kind rank with node trn-b, rank null, as the earlier 2-node captures. rendezvous (the "
                      "rendezvous endpoint is unreachable from trn-b; config_error arguable). trn-a's "
                      "RendezvousTimeoutError is collateral but carries no rank, so collateral is empty. Both logs have "
                      "no rank numbers; the node is named by the file name (and by the `trn-master` endpoint text)."),
    calls="the first capture used the default read_timeout (60 s) and a 100 s capture timeout: trn-b was still retrying "
          "when the capture's timeout killed it (exit 124); it was re-run with `read_timeout=20` and a 150 s limit so "
          "that trn-b's agent gives up by itself; only the re-run is kept.",
)

J["ia-2node-nproc-ulimit-dlworkers-trn-b"] = dict(
    command="two simulated nodes (`unshare -u -m`, host names trn-a/trn-b, shared /etc/hosts) inside the job's network "
            "namespace, each agent run by a non-root account via `setpriv --reuid <uid> --regid <uid> --clear-groups "
            "--inh-caps +dac_read_search --ambient-caps +dac_read_search` (trn-a uid 1001, trn-b uid 1000, so their "
            "process counts are separate); trn-b additionally under `prlimit --nproc=16:16`: `timeout -s TERM 120 nice "
            "torchrun --nnodes 2 --node-rank {0,1} --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint "
            "127.0.0.1:29780 --rdzv-id ia2nproc --rdzv-conf join_timeout=60 ia_train.py --steps 10 --pg-timeout 30 "
            "--workers 2 --log-file '<host>/rank{rank}.log'`",
    layout="per node a folder: `trn-a/console.log`, `trn-b/console.log` (agent + its two workers' stderr: asctime records "
           "`... INFO [rank 2] ia.train: host trn-b ...`, tracebacks, `[rankN]:` copies, failure table) and "
           "`trn-*/rank<R>.log` (each worker's RotatingFileHandler). Ranks 0, 1 on trn-a; 2, 3 on trn-b.",
    planted="trn-b's account has `ulimit -u 16` (RLIMIT_NPROC, counted over all tasks - threads included - of the uid); "
            "trn-a keeps the default. Each rank starts 2 DataLoader worker processes at its first batch (plus their "
            "queue feeder threads).",
    happened="rendezvous, process group and model set-up work on both nodes (4 ranks). At the first batch (08:16:05) on "
             "trn-b: a DataLoader worker process fails (`Process Process-1:` traceback ending `RuntimeError: can't "
             "start new thread`), rank 2 and then rank 3 fail in `_MultiProcessingDataLoaderIter` with `RuntimeError: "
             "can't start new thread` (multiprocessing queue feeder thread). On trn-a ranks 0 and 1 get `Connection "
             "closed by peer [127.0.0.1]:58084` / `:4525` in the first all-reduce. Both agents report ChildFailedError, "
             "exit 1.",
    exits="trn-a torchrun=1, trn-b torchrun=1",
    truth=truth(rank=None, node="trn-b", kind="rank", cat="config_error",
                fd="RuntimeError: can't start new thread", fd_rank=2,
                coll=[(0, "Connection closed by peer [127.0.0.1]:58084"), (1, "Connection closed by peer [127.0.0.1]:4525")],
                notes="a per-node resource limit (max user processes) on trn-b breaks the DataLoader workers of both its "
                      "ranks: a machine-level cause in a two-node job -> kind rank, node trn-b, rank null; config_error, "
                      "the category the lead set for the corpus's job-wide open-files limit (c-spawn-fd-limit). "
                      "first_deviating: the first `can't start new thread` line (rank 2's, 08:16:05,282; "
                      "the worker-process traceback that prints the same text has no rank). The message does not name "
                      "the limit: `can't start new thread` is how RLIMIT_NPROC shows up when the threads, not the "
                      "forks, hit it first."),
    calls="I planned for a fork failure (`BlockingIOError: [Errno 11] Resource temporarily unavailable`); with 16 tasks "
          "the forks of the two worker processes succeeded and the thread creations right after failed, so the real "
          "message is `can't start new thread` (kept as printed). The task count of the node was measured in an "
          "unlimited trial run (about 12 tasks for the two ranks before the DataLoader starts, about 28 with 4 worker "
          "processes).",
)

J["ia-healthy-ray-maxfail1-sink-reset"] = dict(
    command="`python ia_ray.py --epochs 3 --steps 6 --sink-port 29790` with RAY_TMPDIR=/tmp/ray_ia, HOME=<scratch dir>, "
            "under `timeout -s TERM 240 nice`",
    layout="`console.log`: the driver's stdout + stderr with Ray's forwarded actor output (`(TrainController pid=N)`, "
           "`(RayTrainWorker pid=N)`, `(PlacementGroupCleaner pid=N)` prefixes with ANSI colour codes, Ray's log "
           "deduplication `[repeated 2x across cluster]`), the workers' asctime records `... INFO [rank R] ia.ray: ...`, "
           "the driver's `[driver]` lines.",
    planted="Ray Train TorchTrainer, 2 CPU workers (gloo), `RunConfig(failure_config=FailureConfig(max_failures=1))`, "
            "checkpoint per epoch. The driver's metrics sink on 127.0.0.1:29790 resets (SO_LINGER 0 close) the first "
            "connection it accepts, like a sink still starting up, and serves the later ones.",
    happened="attempt 1: after epoch 0 rank 1's post is the first connection: `ConnectionResetError: [Errno 104] "
             "Connection reset by peer` in `c.recv`, `Error in training function`; the controller prints `[FailurePolicy] "
             "RETRY ... Error count: 1 (max allowed: 1)` with `[Rank 1 Error Snippet]`, restarts the worker group (from "
             "scratch: no checkpoint had been reported yet), and attempt 2 runs epochs 0-2, reporting 3 checkpoints. "
             "Alarming lines all along: `network_util.cc:330: Failed to determine local IP ...` (no network), a "
             "`core_worker.cc:2465` E line about PreemptionWatcher, 31 `PlacementGroupCleaner ... Failed to query Ray "
             "Train Controller actor state` lines, c10d `hostname of the client socket cannot be retrieved`. Ends with "
             "`[driver] training finished: metrics={'epoch': 2, ...} checkpoint=Checkpoint(...)`, exit 0.",
    exits="python=0",
    truth=truth(status="healthy",
                notes="the run ends well: the driver prints `training finished` with the final metrics and checkpoint, "
                      "exit 0. The one planted transient (rank 1's ConnectionResetError from the metrics sink) is "
                      "retried by FailureConfig(max_failures=1) and the second attempt completes; the rest are Ray's "
                      "noisy but harmless warnings in a network-less sandbox."),
    calls="healthy although one attempt failed with a traceback: the job's own recovery policy absorbed it and the final "
          "result is complete. Ray printed `Generated new authentication token and saved to .../.ray/auth_token` (the "
          "path only, no token value); nothing masked.",
)

J["ia-healthy-xargs-slotvar-hftrainer-eachnode"] = dict(
    command="`printf '0\\n1\\n' | xargs -P 2 -n 1 --process-slot-var=RANK sh -c 'LOCAL_RANK=$RANK exec python ia_hf.py "
            "--epochs 2 --dashboard 127.0.0.1:8086' sh` with MASTER_ADDR=127.0.0.1 MASTER_PORT=29795 WORLD_SIZE=2 "
            "exported, under `timeout -s TERM 180 nice`",
    layout="`console.log`: both ranks' stdout + stderr through xargs, unprefixed: the script's asctime records "
           "(`... ERROR [rank 0] ia.hf: ...` + tracebacks), transformers' `[transformers]` info block (rank 0 only: "
           "`log_on_each_node=False`, replicas at warning), Trainer's metric dicts, deepspeed's accelerator WARNING, "
           "DDP's reducer warning with `[rank0]:`/`[rank1]:` prefixes. `logs/hf-rank{0,1}.log`: the script logger's "
           "RotatingFileHandler per rank (rank 1's has just its start and done lines).",
    planted="HF Trainer (CPU, gloo DDP from the env) with `log_on_each_node=False`, `log_level='info'`, "
            "`log_level_replica='warning'`; a TrainerCallback posts each log dict to a dashboard at 127.0.0.1:8086 where "
            "nothing listens: every push fails and is logged with `log.exception` (ERROR + traceback), training goes on.",
    happened="2 epochs, 24 steps: ten `ERROR [rank 0] ia.hf: dashboard push to 127.0.0.1:8086 failed at step N` with "
             "`ConnectionRefusedError: [Errno 111] Connection refused` tracebacks, `[WARNING] [real_accelerator.py:213:"
             "get_accelerator] Setting accelerator to CPU`, `reducer.cpp:1529] Warning: find_unused_parameters=True was "
             "specified ...`; loss 1.214 -> 0.789, eval_loss 0.910 -> 0.813; `Training completed.`; both ranks log "
             "`train done: ...`. xargs exit 0.",
    exits="xargs=0",
    truth=truth(status="healthy",
                notes="ends well: `Training completed.`, both ranks' `train done` lines with final train/eval metrics, "
                      "xargs exit 0. The ERROR records are caught dashboard-push failures (the training loop is not "
                      "affected); the warnings are routine."),
    calls="the xargs process-slot number is the rank; nothing in the console prefixes lines by rank except the asctime "
          "records and torch's `[rankN]:` warnings.",
)


def readme(name, d):
    t = d["truth"]
    head = f"# {name}\n\n"
    if t["status"] == "failed":
        i = t["initiating"]
        summary = (f"**Truth:** failed; initiating kind `{i['kind']}`, rank {i['rank']}, node {i['node']}, all_ranks "
                   f"{i['all_ranks']}; category `{t['root_cause']['category']}`.\n\n")
    else:
        summary = f"**Truth:** {t['status']}.\n\n"
    return (head + "Captured for real on this machine on 2026-12-06 (collector `ia`, round G): " + ENV + ". The job ran "
            f"from `_capture_ia/{name}.sh` in the scratch dir `/home/user/jobsG/{name}/` with `/home/user/venv`, under "
            "`nice`, in a private network namespace (loopback only, no resolver) and mount namespace (`unshare -n -m`, "
            "`_capture_ia/common.sh`). Log files copied out byte for byte with `_capture_ia/collect.py` (layout kept); "
            "no line edited, nothing masked, paths such as `/home/user/jobsG/...` left as printed.\n\n"
            + summary +
            f"## Source / command\n{d['command']}\n\n## Layout\n{d['layout']}\n\n## What was planted\n{d['planted']}\n\n"
            f"## What happened\n{d['happened']}\n\n## Exit codes\n{d['exits']}\n\n## Judgement calls\n{d['calls']}\n\n"
            f"Truth notes: {t['notes']}\n\n## Rerun\n`bash _capture_ia/{name}.sh && bash _capture_ia/collect_all.sh` "
            "(new pids, ports, times).\n")


for name, d in J.items():
    dst = os.path.join(OUT, name)
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(dst, "truth.json"), "w") as f:
        json.dump(d["truth"], f, indent=2, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(dst, "README.md"), "w") as f:
        f.write(readme(name, d))
    with open(os.path.join(dst, ".correlatorignore"), "w") as f:
        f.write("README.md\ntruth.json\n.correlatorignore\n")
print(f"{len(J)} jobs written to {os.path.abspath(OUT)}")
