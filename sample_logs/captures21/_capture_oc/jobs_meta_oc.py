"""Per-job metadata for the roundM oc-* captures: command, layout, planted fault, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), numpy 2.4.6, "
       "lightning 2.6.6, rich 15.0.0, honcho 2.0.0, supervisor 4.3.0, pytest 9.2.0 (+ expecttest 0.3.0, hypothesis "
       "6.170.27), GNU parallel 20221122, pdsh 2.34, GNU screen 4.09.00, start-stop-daemon 1.21.22 (dpkg), gcc 12.2.0, "
       "util-linux 2.38.1 (unshare)")


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status == "inconclusive" else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status == "inconclusive" else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}

JOBS["oc-honcho-procfile-rpc-tensorpipe-ps-remote-exception-trainer2"] = dict(
    source="honcho (Foreman clone) `Procfile` with `ps`, `trainer1`, `trainer2`: a torch.distributed.rpc parameter "
           "server (TensorPipe backend, ranks 0..2), honcho's merged time- and name-prefixed console",
    cmd="`honcho start --no-colour > console.log 2>&1` under `timeout -s TERM 150 nice` (Procfile: `ps: python "
        "oc_rpc_ps.py ps 0 3`, `trainer1: python oc_rpc_ps.py trainer1 1 3`, `trainer2: python oc_rpc_ps.py trainer2 "
        "2 3`; data made first by `python oc_make_rpc_data.py data 2 3 1280 trainer2:0:40 trainer2:1:40 "
        "trainer2:2:40`; `TP_SOCKET_IFNAME=lo`)",
    layout="`console.log`: honcho's output: `HH:MM:SS <proc>.1 | <line>` for each process's stdout/stderr and "
           "`HH:MM:SS system | ...` for honcho's own start/stop/SIGTERM lines. The processes log `YYYY-mm-dd "
           "HH:MM:SS,mmm INFO <role>: msg` and print c10d/TensorPipe warnings and tracebacks.",
    planted="the parameter server holds an MLP for 32 input features (`in_dim=32`); trainer2's shard files were "
            "exported with 40 feature columns (a newer feature set), trainer1's with 32. Each trainer builds its "
            "local replica from its data's width (same seed) and pushes its gradients to the server with `rpc_sync`.",
    happened="all three report `rpc ready` (rank 0 ps, rank 1 trainer1, rank 2 trainer2); trainer2 logs `open "
             "part-0000.npz rows=1280 cols=40`; its first push fails on the server: the ps process prints the remote "
             "exception `RuntimeError(\"attempting to assign a gradient of size '[64, 40]' to a tensor of size '[64, "
             "32]'...\")`, trainer2 gets `RuntimeError: RuntimeError: On WorkerInfo(id=0, name=ps):` with the same "
             "message and exits 1. trainer1 keeps training (steps 0..20), ps logs `applied 20 updates` and a "
             "TensorPipe `eof` from trainer2; honcho sees trainer2 stop (rc=1) and SIGTERMs ps.1 and trainer1.1 "
             "(both rc=-15).",
    exits="honcho 1.",
    judgement="initiator rank 2 (trainer2; its rank is printed in `rpc ready (rank 2 of 3 ...)`). Category data_error: "
              "the trainer's data has a different feature width than the model served by the parameter server (a "
              "data export mismatch, surfacing as a shape error on the server). First deviating line = trainer2's "
              "copy of the remote error message (the ps copy of the same message is printed a few lines earlier in "
              "the same second; trainer2's `cols=40` line is the earliest hint). ps and trainer1 only die from "
              "honcho's SIGTERM (collateral); the ps `eof` warning is also a consequence.",
    truth=T("failed", "rank", rank=2, cat="data_error",
            fd="trainer2.1 | RuntimeError(\"attempting to assign a gradient of size '[64, 40]' to a tensor of size "
               "'[64, 32]'", fd_rank=2,
            coll=[(0, "ps.1 stopped (rc=-15)"), (1, "trainer1.1 stopped (rc=-15)")],
            notes="trainer2 (rank 2) trains on 40-column shards while the parameter server's model takes 32 features; "
                  "its first gradient push raises a remote RuntimeError on the server (size [64, 40] vs [64, 32]); "
                  "trainer2 exits 1 and honcho SIGTERMs ps and trainer1."))

JOBS["oc-parallel-results-tree-pipelining-gpipe-3stage-label-oob-r2"] = dict(
    source="GNU parallel `--results res -j 3 --line-buffer` (one job per pipeline stage, env:// rendezvous, its "
           "`--results` tree res/1/<rank>/{stdout,stderr}); torch.distributed.pipelining ScheduleGPipe, 3 stages",
    cmd="`parallel --results res -j 3 --line-buffer 'RANK={} exec python oc_pipe_stages.py data 120' ::: 0 1 2 > "
        "console.log 2>&1` under `timeout -s TERM 150 nice` (MASTER_ADDR=127.0.0.1 MASTER_PORT=29823 WORLD_SIZE=3; "
        "data made by `python oc_make_pipe_data.py data 8000 5601:10`)",
    layout="`res/1/<R>/stderr`: everything rank R printed (`HH:MM:SS.mmm [stage R/3] LEVEL msg` logging, c10d "
           "warning, the `[rankR]:` traceback); `res/1/<R>/stdout`: empty (nothing printed on stdout). `console.log`: "
           "what parallel itself printed on its stdout with --results (here only the three stdout file names). "
           "(parallel's `seq` files in the tree, holding the job number, were not copied.)",
    planted="the label file was merged with a relabelled export: row 5601 holds class id 10 while the head has 10 "
            "classes (0..9); it falls in step 87's batch (rows 5568-5631) of 120 steps. Only the last stage (rank 2) "
            "reads labels and computes the loss.",
    happened="stage 2 logs its loss every 5 steps up to `step 85`; at step 87 its loss function raises `IndexError: "
             "Target 10 is out of bounds.` inside ScheduleGPipe's `_compute_loss`. Stages 0 and 1, waiting in the "
             "schedule's batched p2p recv, get gloo `Connection closed by peer` when rank 2 exits.",
    exits="parallel 3 (three failed jobs).",
    judgement="initiator rank 2 (the only rank that reads labels). Category data_error (an out-of-range class id in "
              "the labels). Ranks 0 and 1 only fail because their pipeline peer died (collateral). The console.log "
              "of parallel carries no log lines, kept as the launcher printed it.",
    truth=T("failed", "rank", rank=2, cat="data_error",
            fd="IndexError: Target 10 is out of bounds.", fd_rank=2,
            coll=[(0, "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
                      "Connection closed by peer [127.0.0.1]:60638"),
                  (1, "[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
                      "Connection closed by peer [127.0.0.1]:52352")],
            notes="a relabelled row carries class 10 for a 10-class head; the last pipeline stage (rank 2) raises "
                  "IndexError in its loss at step 87; stages 0 and 1 lose their peer in the p2p exchange."))

JOBS["oc-supervisord-programs-fsdp2-fullyshard-ffn-override-r1"] = dict(
    source="supervisord (nodaemon) with one `[program:rankR]` per rank (own `environment=` line, own stdout / stderr "
           "files), FSDP2 `fully_shard` over a 1-D DeviceMesh on CPU / gloo",
    cmd="`supervisord -c supervisord.conf > console.log 2>&1` under `timeout -s TERM 150 nice`; a shell watcher polls "
        "`supervisorctl status` every 2 s and runs `supervisorctl shutdown` when no program is STARTING/RUNNING; "
        "each program runs `python oc_fsdp2.py` with RANK, WORLD_SIZE=3, MASTER_ADDR, MASTER_PORT=29851, STEPS=80",
    layout="`logs/supervisord.log`: supervisord's own log (spawned / RUNNING / exited lines with pids and exit "
           "status). `logs/rank<R>.out`: the rank's stdout (`YYYY-mm-ddTHH:MM:SS rank=R msg` lines); "
           "`logs/rank<R>.err`: its stderr (c10d warning, `[rankR]:` tracebacks, gloo's C++ abort message). "
           "(console.log, a copy of supervisord's log on stdout, was not copied.)",
    planted="configs/model.json says d_model 128, d_ff 512, 4 layers; the `[program:rank1]` section's environment= "
            "line still carries `MODEL_D_FF=\"640\"` (left over from an ablation), which the script honours as an "
            "override, so rank 1 builds its blocks with d_ff 640.",
    happened="each rank logs its mesh and config (rank 1: `\"d_ff\": 640`) and `fully_shard done` (rank 1 222439 "
             "local elements, ranks 0/2 ~176-178k). On the first forward the FSDP2 all-gathers disagree in size: rank 2 "
             "aborts in gloo (`terminate called after throwing an instance of 'gloo::EnforceNotMet'` ... `Received "
             "data size doesn't match expected size. Is there a distributed collective mismatch in your code?`, "
             "SIGABRT), rank 1 gets `Read error ... Connection reset by peer`, rank 0 `Connection closed by peer` in "
             "`all_gather_single`. supervisord logs `exited: rank2 (terminated by SIGABRT; not expected)`, then rank1 "
             "and rank0 with exit status 1.",
    exits="supervisord 0 (shut down by the watcher); programs: rank2 SIGABRT, rank1 1, rank0 1.",
    judgement="initiator rank 1 (its program environment overrides d_ff). Category config_error (a stale per-rank "
              "config override; the collective size mismatch is how it shows). First deviating line = rank 1's config "
              "line with `\"d_ff\": 640`. Rank 2's gloo abort and rank 0's closed connection are collateral; which "
              "peer detects the size mismatch first is incidental.",
    truth=T("failed", "rank", rank=1, cat="config_error",
            fd="rank=1 mesh DeviceMesh((dp=3), 'cpu', stride=(1,)) cfg {\"d_ff\": 640", fd_rank=1,
            coll=[(2, "Received data size doesn't match expected size. Is there a distributed collective mismatch"),
                  (0, "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
                      "Connection closed by peer [127.0.0.1]:34018")],
            notes="rank 1's supervisord program keeps MODEL_D_FF=640, so its FSDP2 shards differ in size from ranks "
                  "0/2 (d_ff 512); the first all-gather aborts rank 2 in gloo (size mismatch) and closes rank 0's "
                  "connection."))

JOBS["oc-pytest-dtensor-multiprocesstestcase-shard-rows-offbyone-r3"] = dict(
    source="pytest running distributed unit tests built on torch's DTensorTestBase / MultiProcessTestCase (4 ranks "
           "spawned per test, gloo, file:// rendezvous) on a CPU CI runner",
    cmd="`python -m pytest -v -rfE -p no:cacheprovider oc_test_sharded_embedding.py > console.log 2>&1` under "
        "`timeout -s TERM 170 nice`",
    layout="`console.log`: pytest's console: the per-test PASSED/FAILED lines, one FAILURES section per failed test "
           "(the parent's `RuntimeError: Process N exited with error code 10 and exception:` with the rank's "
           "traceback, then `Captured stdout call`, `Captured stderr call` with each spawned rank's glog-style "
           "`E1206 ... <pid> torch/testing/_internal/common_distributed.py:1068]` lines, `Captured log call`), the "
           "short test summary and `2 failed, 2 passed`. MultiProcessTestCase calls the spawned processes "
           "`process 0..3` (= ranks).",
    planted="the project helper `oc_shardutil.local_row_range` clamps a shard's end row to `n_rows - 1` (off by one), "
            "so the last rank's range loses the table's final row.",
    happened="test_local_rows_match_dtensor fails on process 3 only (`Expected 64 but got 63.` ... `n_rows=64 "
             "rank=3`); the test harness then sees processes 0-2 fail with gloo `Connection closed by peer` inside "
             "`distribute_tensor`'s scatter (their peer exited). test_shard_sizes_sum then fails on all four processes "
             "(`Expected 256 but got 252.`, the all_reduced shard sizes are 63 per rank short by one row each). The "
             "other two tests pass.",
    exits="pytest 1.",
    judgement="initiator rank 3 (process 3, the only rank whose row range is wrong in the first failing test). "
              "Category code_exception (a bug in the project's helper that the test catches). First deviating line = "
              "`Expected 64 but got 63.` (printed in the parent's report and in rank 3's captured stderr). The "
              "`Connection closed by peer` errors of processes 0-2 in the same test are collateral. The second test's "
              "failure on every rank comes from the same bug (not listed as collateral).",
    truth=T("failed", "rank", rank=3, cat="code_exception",
            fd="Expected 64 but got 63.", fd_rank=3,
            coll=[(0, "8813 torch/testing/_internal/common_distributed.py:1068] RuntimeError:"),
                  (1, "8814 torch/testing/_internal/common_distributed.py:1068] RuntimeError:"),
                  (2, "8815 torch/testing/_internal/common_distributed.py:1068] RuntimeError:")],
            notes="off-by-one in local_row_range: rank 3's shard range ends one row early; its assertion fails in "
                  "test_local_rows_match_dtensor and the other processes lose their peer; test_shard_sizes_sum fails "
                  "on all ranks for the same reason."))

JOBS["oc-asyncio-launcher-stamped-ctypes-gather-assert-sigabrt-r1"] = dict(
    source="the lab's asyncio launcher (`oc_asyncio_launch.py`: 3 workers with env:// variables, every worker line "
           "stamped `YYYY-mm-dd HH:MM:SS.mmm [wR]`), DDP over gloo with a ctypes-loaded native helper",
    cmd="`python oc_asyncio_launch.py 3 29861 -- python oc_ctypes_train.py > launcher.log 2>&1` under `timeout -s "
        "TERM 150 nice` (helper built first: `gcc -O2 -shared -fPIC -o libfusedgather.so oc_fused_gather.c`; data: "
        "`python oc_make_items.py data 50000 2048,2000,2048`)",
    layout="`launcher.log`: the launcher's own `[launcher]` lines (pids, each worker's end: exit code or signal, "
           "first failure) and every line the workers printed on stdout/stderr, stamped with the time the launcher "
           "read it and `[wR]` (R = rank); the workers log `LEVEL rankR itemclf: msg`.",
    planted="input rows are fetched from a frozen feature table (50000 items) by the native `gather_rows`, which "
            "asserts `r >= 0 && r < nrows`; the Python side pads a short last batch with id == n_items (one past the "
            "table). Only rank 1's index shard is uneven (2000 items: 15 full batches + 80).",
    happened="all ranks train (batches 0, 8 logged); rank 1 logs `epoch 0 batch 15: short batch of 80, padding to "
             "128 with id 50000`, then glibc prints `python: oc_fused_gather.c:10: gather_rows: Assertion `r >= 0 && "
             "r < nrows' failed.` and the process dies by SIGABRT; ranks 0 and 2, in DDP's gradient all_reduce, get "
             "gloo `Read error ... Connection reset by peer`. The launcher reports `w1 ... killed by SIGABRT (-6)`, "
             "then w2 and w0 exit 1, `first failure: w1`.",
    exits="launcher 1.",
    judgement="initiator rank 1 (w1 = RANK 1). Category code_exception: the padding id is a bug in the Python caller "
              "that the native helper's assertion catches (the data itself is valid). First deviating line = the "
              "assertion line (the padding line just before it is the hint). Ranks 0 and 2 are collateral.",
    truth=T("failed", "rank", rank=1, cat="code_exception",
            fd="python: oc_fused_gather.c:10: gather_rows: Assertion `r >= 0 && r < nrows' failed.", fd_rank=1,
            coll=[(0, "[w0] [rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:"
                      "537] Read error"),
                  (2, "[w2] [rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:"
                      "537] Read error")],
            notes="rank 1 pads its short last batch with an out-of-table id; the native gather asserts and aborts "
                  "(SIGABRT); ranks 0/2 lose their peer in the DDP all_reduce."))

JOBS["oc-2node-uts-timedrotating-rankfiles-cgroup-cpu-throttle-eval-timeout-cn-q2"] = dict(
    source="two torchrun agents (static rendezvous `--nnodes 2 --node-rank N --nproc-per-node 2 --master-addr cn-q1 "
           "--master-port 29871`) as two nodes cn-q1 / cn-q2 in separate UTS + mount namespaces; ranks log only "
           "through per-rank `logging.handlers.TimedRotatingFileHandler` files (rotated every 20 s)",
    cmd="per node: `torchrun --nnodes 2 --node-rank N --nproc-per-node 2 --master-addr cn-q1 --master-port 29871 "
        "oc_2node_rot.py --steps 300 --eval-every 100 --pg-timeout 20 > nodes/<host>/agent.log 2>&1`, each inside "
        "`unshare -u -m --fork --kill-child` (own host name, cluster hosts file on /etc/hosts: cn-q1 127.0.4.21, "
        "cn-q2 127.0.4.22), both under `timeout -s TERM 170 nice`",
    layout="`logs/<host>/rank<R>.log` plus rotated backups `rank<R>.log.YYYY-mm-dd_HH-MM-SS` (the suffix is the "
           "rotation interval's start): `YYYY-mm-dd HH:MM:SS,mmm LEVEL [host:rank/local_rank] msg` (step lines with "
           "forward time, median forward time and step time; eval lines). `nodes/<host>/agent.log`: each torchrun "
           "agent's stdout/stderr (c10d warnings, the ranks' `[rankR]:` tracebacks, the agent's failure lines and "
           "ChildFailedError summary).",
    planted="cn-q2 becomes a degraded node: once its rank 2 has logged step 190, the cgroup (cgroup-v1 cpu) holding "
            "cn-q2's agent and ranks gets `cpu.cfs_quota_us` 3000 / period 100000 (3 % of one core, like a node "
            "under a power cap or a noisy neighbour). The process-group timeout is 20 s; every 100 steps each rank "
            "evaluates 8192 held-out samples locally, then all_reduces the metric.",
    happened="steps 10-190 run at ~40-100 ms per step on both nodes (forward ~5-20 ms), eval at step 100 takes "
             "0.2-0.3 s everywhere. After the cut, cn-q2's ranks log `step 200 ... fwd 203.0 ms ... step 1304.2 ms` "
             "(cn-q1's forward stays ~13 ms, its step time grows as it waits). cn-q1's ranks finish eval step 200 in "
             "0.3 s and wait in the eval all_reduce; rank 0 fails `Timed out waiting 20000ms for recv operation to "
             "complete`, rank 1 `Connection closed by peer`. cn-q2's rank 2 logs `eval step 200: local pass 20.1 s`, "
             "then also times out in the all_reduce; rank 3 gets `Connection closed by peer`. Both agents print "
             "ChildFailedError and exit 1.",
    exits="agents: cn-q1 1, cn-q2 1 (the wrapper shell exits 0).",
    judgement="initiator node cn-q2 (a machine-level slowdown of both its ranks; kind rank with node set, rank null). "
              "Category nccl_timeout_hang (a collective timeout caused by a slow node; gloo, not NCCL). First "
              "deviating line = rank 2's (cn-q2) `step 200` line with a 203 ms forward (the first line showing the "
              "node's slowdown); rank 2's own later timeout is part of the slow node. cn-q1's ranks 0 and 1 are "
              "collateral. The throttle itself is not in any log (the harness set it).",
    truth=T("failed", "rank", node="cn-q2", cat="nccl_timeout_hang",
            fd="[cn-q2:2/0] step 200 loss 2.3050 fwd 203.0 ms", fd_rank=2,
            coll=[(0, "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
                      "unbound_buffer.cc:78] Timed out waiting 20000ms for recv operation to complete"),
                  (1, "[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
                      "Connection closed by peer")],
            notes="node cn-q2 is CPU-throttled to 3 % from step ~190; its ranks need 20 s for the local eval pass at "
                  "step 200, so cn-q1's ranks time out (20 s) in the eval all_reduce and the job fails on both "
                  "nodes."))

JOBS["oc-healthy-torchrun-csv-metrics-only-stderr-warnings"] = dict(
    source="`torchrun --standalone --nproc-per-node 3`; the workers keep their metrics only in per-rank CSV files and "
           "print nothing on stdout; warnings and a closing summary go to stderr",
    cmd="`torchrun --standalone --nproc-per-node 3 oc_csv_train.py > console.log 2>&1` under `timeout -s TERM 150 "
        "nice`",
    layout="`console.log`: torchrun's console without --tee / prefixes: c10d socket warnings, the ranks' Python "
           "UserWarnings (lr_scheduler order) and C++ reducer warnings (`[rankR]:[W...] ... find_unused_parameters"
           "=True ...`), the three `rank R: training complete ...` lines. `metrics/rank<R>.csv`: header `time,epoch,"
           "step,phase,loss,lr,grad_norm,samples_per_s`, a train row every 10 steps (epoch-seconds timestamps) and "
           "a val row per epoch.",
    planted="nothing broken: a kept `find_unused_parameters=True` (DDP warns that no parameter was unused) and an "
            "`lr_scheduler.step()` before the first `optimizer.step()` (PyTorch warns about the order).",
    happened="3 epochs x 60 steps on 3 ranks; val_loss 7.35 -> 0.083 -> 0.065 on every rank; each rank prints "
             "`training complete, 180 steps, final val_loss 0.06519`; torchrun exits 0.",
    exits="torchrun 0.",
    judgement="healthy: final summary lines on all ranks, final val rows, launcher exit 0; the warnings are benign.",
    truth=T("healthy", None, notes="healthy 3-rank run; only benign warnings (find_unused_parameters, scheduler "
                                   "order, c10d hostname); final val_loss 0.06519 on all ranks, torchrun exit 0."))

JOBS["oc-startstopdaemon-pidfiles-detail-earlystop-allgather-vs-allreduce-r2"] = dict(
    source="an init-script style launcher: Debian `start-stop-daemon --start --background --make-pidfile --output` "
           "per rank (env:// variables from the caller's environment), polling `start-stop-daemon --status`; "
           "TORCH_DISTRIBUTED_DEBUG=DETAIL",
    cmd="`bash launch.sh > launcher.log 2>&1` under `timeout -s TERM 170 nice`; launch.sh runs for each rank "
        "`RANK=$r LOCAL_RANK=$r start-stop-daemon --start --background --make-pidfile --pidfile $PWD/run/rank$r.pid "
        "--output $PWD/logs/rank$r.log --chdir $PWD --exec python -- oc_earlystop.py` (MASTER_ADDR=127.0.0.1 "
        "MASTER_PORT=29881 WORLD_SIZE=3 TORCH_DISTRIBUTED_DEBUG=DETAIL), then logs the ranks' status every 5 s",
    layout="`launcher.log`: `YYYY-mm-dd HH:MM:SS launcher: ...` (start-stop-daemon return codes, pids, a status line "
           "every 5 s: 0 = running, 1 = not running but pid file exists). `logs/rank<R>.log`: each rank's stdout and "
           "stderr (`YYYY-mm-dd HH:MM:SS,mmm [rank R] LEVEL msg`, c10d warning, `[rankR]:` traceback).",
    planted="data parallelism by hand (one all_reduce per parameter gradient); early stopping is decided on each "
            "rank's own validation shard (no all_reduce of val_loss); rank 2's shard is the noisiest, so it runs out "
            "of patience first and goes on to the final `all_gather_object` of the run summary while ranks 0/1 keep "
            "training.",
    happened="epochs 0-8 on all ranks; rank 2's val_loss stays ~3.2 and at epoch 8 it logs `patience 3/3` and "
             "`early stopping at epoch 8`; ranks 0 and 1 (patience 0/3 and 2/3) start epoch 9. The DETAIL wrapper "
             "then raises on every rank: ranks 0/1 `Detected mismatch between collectives on ranks. Rank 0 (1) is "
             "running collective: CollectiveFingerPrint(SequenceNumber=1080, OpType=ALLREDUCE, ...` vs rank 2's "
             "`OpType=GATHER`; rank 2 `... Rank 2 is running collective: ... OpType=ALLGATHER ...`. The launcher's "
             "status shows all three gone within 5 s.",
    exits="launcher 0 (it only reports status); ranks' exit codes are not seen by the launcher.",
    judgement="initiator rank 2 (it leaves the training loop alone and issues a different collective). Category "
              "collective_mismatch. First deviating line = rank 2's `early stopping at epoch 8` (the other ranks do "
              "not stop). The mismatch errors of ranks 0 and 1 are collateral (each rank's DETAIL check reports the "
              "mismatch at the same moment).",
    truth=T("failed", "rank", rank=2, cat="collective_mismatch",
            fd="[rank 2] INFO early stopping at epoch 8", fd_rank=2,
            coll=[(0, "Detected mismatch between collectives on ranks. Rank 0 is running collective"),
                  (1, "Detected mismatch between collectives on ranks. Rank 1 is running collective")],
            notes="per-rank early stopping: rank 2 stops after epoch 8 and calls all_gather_object while ranks 0/1 "
                  "all_reduce gradients of epoch 9; TORCH_DISTRIBUTED_DEBUG=DETAIL reports the mismatch on all "
                  "ranks."))

JOBS["oc-lightning-ddp-subprocess-tqdm-ctrl-c-pgrp-sigint-ext"] = dict(
    source="Lightning Trainer `strategy=\"ddp\", accelerator=\"cpu\", devices=2` (Lightning's subprocess launcher) "
           "run as a foreground job and interrupted with Ctrl-C (SIGINT to its whole process group)",
    cmd="`python oc_pl_ctrlc.py > console.log 2>&1 &` with bash job control on (own process group, SIGINT not "
        "ignored), `nice`; once console.log shows `epoch 4: val_loss`, 2.3 s later `kill -INT -- -<pgid>` (what "
        "the terminal does on Ctrl-C); a SIGKILL fallback after 60 s was not needed",
    layout="`console.log`: Lightning's messages (seed, GPU/TPU availability, `Initializing distributed`, the model "
           "summary table), warnings, rank 0's `epoch N: val_loss X` prints, Lightning's interrupt message, and the "
           "rich progress bar's final render (rich is installed; with no terminal it is drawn once at the end).",
    planted="the user presses Ctrl-C during epoch 5 of 30.",
    happened="epochs 0-4 complete (val_loss 3.08 -> 0.081); the SIGINT reaches the launcher process (rank 0) and the "
             "rank 1 child; Lightning prints `Detected KeyboardInterrupt, attempting graceful shutdown ...`; the "
             "progress bar shows `Epoch 5/29 ... 21/32`; the script exits 1 without `fit finished`.",
    exits="python 1.",
    judgement="kind external (a user's Ctrl-C), rank null. Category killed_by_scheduler: the vocabulary has no "
              "user-interrupt category and this is the one for a job ended from outside. First deviating line = "
              "Lightning's KeyboardInterrupt message; no collateral lines (no peer error was printed).",
    truth=T("failed", "external", cat="killed_by_scheduler",
            fd="Detected KeyboardInterrupt, attempting graceful shutdown ...", fd_rank=None,
            notes="Ctrl-C (SIGINT to the foreground process group) during epoch 5; Lightning shuts down gracefully; "
                  "nothing failed inside the job."))

JOBS["oc-inconclusive-processpool-launcher-rankfiles-logs-stop"] = dict(
    source="a `concurrent.futures.ProcessPoolExecutor` launcher (spawn context, one rank per pool worker, tcp:// "
           "init, process-group timeout 30 min), per-rank `logging.FileHandler` files",
    cmd="`python oc_pool_launch.py 3 29891 > console.log 2>&1 &` (own process group, `nice`), killed by the collector "
        "with `kill -KILL -- -<pgid>` 75 s after the start (data: `python oc_make_pool_shards.py data 3 6 1024 "
        "1:4:1000`)",
    layout="`launcher.log`: the launcher's logging (`... INFO launcher: ...`); `console.log`: the pool's inherited "
           "stdout/stderr (c10d warnings); `logs/rank<R>.log`: `YYYY-mm-dd HH:MM:SS,mmm pid=P rank=R LEVEL msg` "
           "(join line, a step line every 10 steps).",
    planted="rank 1's 5th shard file has a ragged row count (1000 rows, not a multiple of the batch size 64). The "
            "prefetch thread's ragged-shard bookkeeping takes the prefetcher's non-reentrant lock a second time and "
            "deadlocks silently; rank 1's main thread waits on an empty queue, ranks 0/2 wait in DDP's all_reduce "
            "(30 min timeout).",
    happened="all ranks log steps 10..60 (18:47:03-18:47:05), then nothing more for 66 s until the collector killed "
             "the process group; no rank and not the launcher printed an error.",
    exits="launcher 137 (SIGKILL by the collector).",
    judgement="inconclusive: the logs stop without an error on every rank and the launcher says nothing; the "
              "deadlock and the kill are not visible in them.",
    truth=T("inconclusive", notes="all ranks' logs stop after step 60 with no error; the launcher log stops after "
                                  "`submitted ranks`; nothing tells what happened (a silent deadlock in rank 1's "
                                  "prefetch thread, then a kill by the collector)."))

JOBS["oc-screen-logfile-torchrun-ddp-detail-debug-segv-all"] = dict(
    source="a detached GNU screen session (`screen -L -Logfile screen.log -dmS train`) running `torchrun --standalone "
           "--nproc-per-node 3` with TORCH_DISTRIBUTED_DEBUG=DETAIL; the site profile sets PYTHONFAULTHANDLER=1",
    cmd="`screen -c screenrc -L -Logfile screen.log -dmS train bash run.sh` (screenrc: `logfile flush 1`; TERM=xterm; "
        "run.sh echoes the command line, runs `TORCH_DISTRIBUTED_DEBUG=DETAIL nice torchrun --standalone "
        "--nproc-per-node 3 oc_ddp_detail.py` and echoes `[exit N]`)",
    layout="`screen.log`: screen's log of the window, as the terminal saw it (CR LF line ends): the echoed command "
           "line, c10d warnings, the ranks' `[time] rank R: msg` lines, three faulthandler dumps (`Fatal Python "
           "error: Segmentation fault` + Python stack + `Extension modules: ...`, with no rank in them), the "
           "torchrun agent's SIGTERM / failure lines and ChildFailedError summary (exitcode -11, SIGSEGV, for ranks "
           "0, 1, 2), `[exit 1]`.",
    planted="the user re-runs a plain DDP job with TORCH_DISTRIBUTED_DEBUG=DETAIL. On this build (torch 2.13.0+cpu) "
            "DistributedDataParallel's constructor segfaults whenever DETAIL is set (checked separately: one process, "
            "world size 1: DETAIL -> SIGSEGV in `_ddp_init_helper`; INFO -> fine).",
    happened="all three ranks log `process group up (world 3), TORCH_DISTRIBUTED_DEBUG=DETAIL` and `wrapping model in "
             "DDP`; then three `Fatal Python error: Segmentation fault` dumps, each pointing at "
             "`torch/nn/parallel/distributed.py\", line 1473 in _ddp_init_helper`; torchrun reports all three ranks "
             "with exitcode -11 (SIGSEGV).",
    exits="torchrun 1 (`[exit 1]` in the log); screen 0.",
    judgement="all_ranks: every rank crashes at the same place for the same job-wide reason (a debug setting that "
              "triggers a crash in this torch build). Category other: a crash inside the framework (neither the "
              "user's code, nor data, nor a version mismatch; the setting itself is valid). First deviating line = "
              "the first `Fatal Python error: Segmentation fault` (no rank printed in it). No collateral.",
    truth=T("failed", "all_ranks", cat="other",
            fd="Fatal Python error: Segmentation fault", fd_rank=None,
            notes="TORCH_DISTRIBUTED_DEBUG=DETAIL makes DDP's constructor segfault on every rank in torch 2.13.0+cpu "
                  "(reproduced with one process); torchrun reports SIGSEGV for ranks 0-2."))

JOBS["oc-pdsh-exec-fsdp2-tp-2dmesh-clipgradnorm-mixed-mesh-all"] = dict(
    source="pdsh as the launcher on one host (`pdsh -R exec -f 4 -w r[0-3]`, one \"host\" per rank, every line "
           "prefixed `rN: `), 2-D parallel FSDP2 x tensor parallel on a 2x2 DeviceMesh (CPU / gloo)",
    cmd="`pdsh -R exec -f 4 -w 'r[0-3]' sh -c 'RANK=${0#r} exec python oc_tp2d.py --clip' %h > console.log 2>&1` "
        "under `timeout -s TERM 150 nice` (MASTER_ADDR=127.0.0.1 MASTER_PORT=29901 WORLD_SIZE=4)",
    layout="`console.log`: pdsh's merged output, `rN: ` + each line the rank printed on stdout or stderr (`[HH:MM:SS] "
           "rank R: msg`, c10d warnings, `[rankR]:` tracebacks), and pdsh's own `pdsh@vm: rN: sh exited with exit "
           "code 1` lines.",
    planted="the new `--clip` option calls `torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)` over all "
            "parameters; the tensor-parallel blocks are DTensors on the 2-D (dp, tp) mesh while the output head is "
            "only fully_shard'ed over the 1-D dp mesh.",
    happened="all four ranks log their mesh coordinates, then on the first step each raises in clip_grad_norm_: "
             "`ValueError: All operands in aten.stack.default must have the same mesh, but got DeviceMesh((dp=2), "
             "...) and DeviceMesh((dp=2, tp=2), ...)` re-raised as RuntimeError (`Sharding propagation failed for "
             "aten.stack.default`); pdsh reports exit code 1 for r0..r3.",
    exits="pdsh 0 (pdsh's own status ignores remote failures without -S).",
    judgement="all_ranks: a deterministic failure of the job's code path on every rank. Category code_exception "
              "(global norm clipping over parameters on different meshes is not supported; the code must clip per "
              "mesh). First deviating line = the first ValueError line (rank 0 prints it first, rank null as it is "
              "job-wide). No collateral.",
    truth=T("failed", "all_ranks", cat="code_exception",
            fd="ValueError: All operands in aten.stack.default must have the same mesh", fd_rank=None,
            notes="clip_grad_norm_ over FSDP2+TP parameters living on a 1-D and a 2-D mesh raises on every rank at "
                  "the first step."))

JOBS["oc-healthy-pdsh-dshbak-fsdp2-tp-2dmesh-dcp-weightsonly-retry"] = dict(
    source="pdsh as the launcher on one host (`pdsh -R exec -f 4 -w r[0-3]`), stdout grouped per rank by `dshbak -c`; "
           "2-D parallel FSDP2 x tensor parallel on a 2x2 DeviceMesh (CPU / gloo) with DCP checkpoints",
    cmd="`pdsh -R exec -f 4 -w 'r[0-3]' sh -c 'RANK=${0#r} exec python oc_tp2d.py --init init/head.pt' %h 2>> "
        "console.log | dshbak -c >> console.log` under `timeout -s TERM 150 nice` (MASTER_PORT=29902, WORLD_SIZE=4; "
        "init file made by `python oc_make_head_init.py init/head.pt`)",
    layout="`console.log`: first the ranks' stderr lines as pdsh passed them on its stderr (`rN: ` prefix, in arrival "
           "order: c10d warnings, the WARNING lines of the weights_only retry with torch's multi-line explanation), "
           "then dshbak's blocks, one per rank (`----------------` / `rN` / `----------------` header, the rank's "
           "stdout lines without prefix).",
    planted="nothing broken; the warm-start file was written by an old exporter with numpy scalars in its metadata, so "
            "`torch.load` with the default weights_only=True refuses it (long UnpicklingError text) and the code "
            "retries with weights_only=False.",
    happened="each rank prints the two-line WARNING with torch's `Weights only load failed ...` explanation, then "
             "`warm-started head from init/head.pt`; 120 steps, DCP checkpoints ckpt/step0060 and ckpt/step0120 saved, "
             "`done: 120 steps, final loss ...` on all four ranks.",
    exits="pdsh 0.",
    judgement="healthy: every rank logs its final `done` line after the last checkpoint; the WARNING / "
              "UnpicklingError text is handled (retry succeeds).",
    truth=T("healthy", None, notes="healthy 4-rank 2-D parallel run; the weights_only load refusal is retried "
                                   "successfully on every rank; both DCP checkpoints saved, `done` on all ranks."))
