"""Per-job metadata for the roundL nc-* captures: command, layout, planted fault, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), numpy 2.4.6, "
       "lightning 2.6.6, accelerate 1.16.0, util-linux 2.38.1 (unshare)")


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}

JOBS["nc-torchrun-logdir-tee3-ddp-aux-branch-unfinished-reduction-r1"] = dict(
    source="`torchrun --standalone --nproc-per-node 2 --log-dir tlogs --tee 3` (per-attempt per-rank files AND the "
           "prefixed console at once), DDP with `find_unused_parameters=False`",
    cmd="`torchrun --standalone --nproc-per-node 2 --log-dir tlogs --tee 3 nc_twohead.py > console.log 2>&1` under "
        "`timeout -s TERM 150 nice`",
    layout="`console.log`: torchrun's console, the ranks' lines tee'd with `[default0]:` / `[default1]:` prefixes, "
           "the agent's SIGTERM / failure lines and its ChildFailedError summary. `tlogs/<run id>/attempt_0/<R>/"
           "stdout.log` and `stderr.log`: the same rank output as written by torchrun's --log-dir (stdout is empty: "
           "the script logs on stderr).",
    planted="a two-head model (main head + auxiliary head) wrapped in DDP with find_unused_parameters=False; the aux "
            "loss is only added on batches that carry aux targets. Rank 1's data shard was exported with aux targets "
            "on every 4th batch only (`aux_every=4`, rank 0: 1), so on step 1 rank 1's aux head gets no gradient.",
    happened="both ranks log `ready` (rank 1 `shard aux_every=4`), step 1 runs; on step 2's forward rank 1's DDP "
             "raises `RuntimeError: Expected to have finished reduction in the prior iteration before starting a new "
             "one ... Parameter indices which did not receive grad for rank 1: 4 5`. Rank 0, waiting in step 1's "
             "gradient all_reduce for rank 1's bucket, gets `Connection closed by peer` when rank 1 exits; the agent "
             "sends SIGTERM to rank 0 (pid 22631) and names rank 1 (pid 22632, exitcode 1) as root cause.",
    exits="torchrun 1.",
    judgement="first deviating line = rank 1's RuntimeError (the `aux_every=4` ready line only hints at it). Category "
              "code_exception: the training code skips a module on one rank while DDP is told every parameter is used "
              "(a DDP usage error raised as an exception), not a collective of different size/order issued by the "
              "user. Rank 0's gloo `Connection closed by peer` is collateral. The agent's summary lists rank 0's "
              "SIGTERM under Failures and rank 1 as Root Cause.",
    truth=T("failed", "rank", rank=1, cat="code_exception",
            fd="RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one",
            fd_rank=1,
            coll=[(0, "Connection closed by peer [127.0.0.1]:46287")],
            notes="rank 1 skips the aux head (its shard has aux targets only every 4th batch) under DDP "
                  "find_unused_parameters=False; its next forward raises 'Expected to have finished reduction'; rank 0 "
                  "loses its peer in the gradient all_reduce and is SIGTERMed by torchrun."))

JOBS["nc-legacy-launch-useenv-rankstdout-redirect-monitored-barrier-val-straggler-r2"] = dict(
    source="deprecated `python -m torch.distributed.launch --use-env --nproc-per-node 3`, each rank dup2()s its own "
           "stdout/stderr into logs/rank<R>.out at start-up",
    cmd="`python -m torch.distributed.launch --use-env --nproc-per-node 3 --master-port 29671 nc_valstraggler.py > "
        "console.log 2>&1` under `timeout -s TERM 150 nice`",
    layout="`console.log`: the launcher's deprecation FutureWarning, one c10d socket warning, the agent's SIGTERM / "
           "failure lines and ChildFailedError summary. `logs/rank0.out`, `rank1.out`, `rank2.out`: everything each "
           "rank printed (`YYYY-mm-dd HH:MM:SS rankR | msg` lines, c10d's C++ log lines, the `[rankR]:` tracebacks).",
    planted="after each epoch every rank validates, then calls `dist.monitored_barrier(timeout=15 s, "
            "wait_all_ranks=True)` (process-group timeout also 15 s). Rank 2 reads a legacy eval override "
            "(val_shards=1) and validates the whole 1.2M-sample set alone (ranks 0/1: 18750 samples each).",
    happened="epoch 0 trains on all ranks; ranks 0 and 1 validate 18750 samples in 0.3 s, rank 2 logs `validation: "
             "1200000 samples` and needs 15.3 s. Rank 0's monitored barrier fails first (`Rank 2 failed to pass "
             "monitoredBarrier in 15000 ms`), rank 1 reports `successfully reached monitoredBarrier, but received "
             "errors ... from rank 0` (gloo recv timeout), rank 2 reaches the barrier as rank 0 is leaving and gets "
             "`Connection closed by peer`. The launcher SIGTERMs rank 1 and names rank 0 (exitcode 1) as root cause.",
    exits="launcher 1.",
    judgement="the launcher's Root Cause (rank 0, the barrier's monitor) is not the initiator: rank 2 is the straggler "
              "that the monitored barrier names. First deviating line = rank 2's `epoch 0 validation: 1200000 samples` "
              "(the first line that shows it doing 64x the work). Category nccl_timeout_hang (a collective timeout "
              "caused by one slow rank; gloo, not NCCL).",
    truth=T("failed", "rank", rank=2, cat="nccl_timeout_hang",
            fd="rank2 | epoch 0 validation: 1200000 samples", fd_rank=2,
            coll=[(0, "Ranks 2 failed to pass monitoredBarrier in 15000 ms"),
                  (1, "Rank 1 successfully reached monitoredBarrier, but received errors while waiting for send/recv "
                      "from rank 0")],
            notes="rank 2 validates the full 1.2M-sample set alone (legacy eval override) and misses the 15 s "
                  "monitored_barrier; rank 0's barrier names rank 2, rank 1 times out waiting for rank 0; the "
                  "launcher's root-cause entry (rank 0) is the detector, not the initiator."))

JOBS["nc-spawn-rotatingfilehandler-rankfiles-inf-feature-nan-guard-r1"] = dict(
    source="`torch.multiprocessing.spawn(nprocs=3)` launcher script; per-rank `logging.handlers.RotatingFileHandler` "
           "files that rotate mid-run (rank<R>.log, .log.1, .log.2)",
    cmd="`python nc_spawn_rotating.py 3 > console.log 2>&1` under `timeout -s TERM 150 nice` (data made first by "
        "`python nc_make_feats.py data 3 1:1390`)",
    layout="`console.log`: the launcher's stdout/stderr: `spawning 3 ranks`, c10d socket warnings, the ranks' WARNING+ "
           "records (`[rank R] LEVEL msg`), spawn's `Terminating process` warnings and its ProcessRaisedException. "
           "`logs/rank<R>.log` + `.log.1` + `.log.2`: each rank's DEBUG+ records "
           "(`YYYY-mm-dd HH:MM:SS.mmm rank=R LEVEL trainer: msg`), rotated at 2500 bytes (backupCount 3), so the "
           "oldest records are in `.log.2` and the last ones in `.log`.",
    planted="rank 1's float32 feature shard has one +inf value (row 1390, column 3; an overflow in the export), which "
            "enters its loss at step 43 (batch rows 1376-1407); a loss guard raises FloatingPointError on a "
            "non-finite loss.",
    happened="all ranks train 43 steps; rank 1 logs `step 43 batch rows 1376-1407 loss inf` and `non-finite loss inf "
             "at step 43` (also on the console as `[rank 1] ERROR ...`) and raises `FloatingPointError: rank 1: loss "
             "is inf at step 43`; spawn terminates pids 24809 and 24811 (ranks 0 and 2) and reports process 1's "
             "traceback.",
    exits="python (spawn parent) 1.",
    judgement="first deviating line = rank 1's DEBUG record with `loss inf` (in `logs/rank1.log`, after the rotation). "
              "Category nan_divergence (a non-finite loss, here inf, from one bad input value; not a data parsing "
              "error). The pids 24809 / 24811 are not printed with a rank: spawn starts ranks 0, 1, 2 in order and "
              "terminates the two that did not fail, so they are taken as ranks 0 and 2.",
    truth=T("failed", "rank", rank=1, cat="nan_divergence",
            fd="step 43 batch rows 1376-1407 loss inf", fd_rank=1,
            coll=[(0, "Terminating process 24809 via signal SIGTERM"),
                  (2, "Terminating process 24811 via signal SIGTERM")],
            notes="one +inf value in rank 1's feature shard makes its loss inf at step 43; the loss guard raises "
                  "FloatingPointError on rank 1; spawn SIGTERMs ranks 0 and 2."))

JOBS["nc-healthy-accelerate-multicpu-gradaccum4-final-metrics-json"] = dict(
    source="`accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 29697` on a CPU host "
           "with `Accelerator(cpu=True, gradient_accumulation_steps=4)` (MULTI_CPU, gloo)",
    cmd="`accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 29697 --mixed_precision "
        "no --dynamo_backend no nc_acc_gradaccum.py > console.log 2>&1` under `timeout -s TERM 170 nice`",
    layout="`console.log`: everything printed: c10d socket warnings, accelerate's `get_logger` records "
           "(`mm/dd/YYYY HH:MM:SS - INFO - gradaccum - [RANK R] msg`, multi-line state dumps), a final JSON metrics "
           "line from the main process.",
    planted="nothing.",
    happened="both processes report `DistributedType.MULTI_CPU  Backend: gloo`, `gradient_accumulation_steps=4`, "
             "3 epochs of 56 micro-batches (42 optimizer updates), eval RMSE 2.60 -> 2.32 -> 1.92, the final JSON "
             "`{\"final_eval_rmse\": 1.9249, \"optimizer_updates\": 42, ...}` and `training complete` on both ranks.",
    exits="accelerate 0.",
    judgement="healthy: final metrics line, `training complete` on both ranks, launcher exit 0. Only c10d's socket "
              "hostname warnings appear (network namespace without a resolver).",
    truth=T("healthy", notes="clean run, 3 epochs with gradient accumulation 4 on 2 CPU processes; nothing planted."))

JOBS["nc-lightning-ddp-subprocess-ckpt-every50-timeout-sigterm-ext"] = dict(
    source="Lightning Trainer `strategy=\"ddp\", accelerator=\"cpu\", devices=2` (Lightning's subprocess launcher), "
           "ModelCheckpoint every 50 steps, killed by a wall-clock limit (`timeout -s TERM -k 30 45`)",
    cmd="`nice unshare -p --fork --kill-child timeout -s TERM -k 30 45 python nc_pl_slow.py > console.log 2>&1`",
    layout="`console.log`: everything both ranks printed: Lightning's banners and model summary, two deprecation "
           "warnings, `[rank R] epoch E batch B loss L` lines every 40 batches, Lightning's `[rank: R] Received "
           "SIGTERM: 15` lines; the file ends there (no traceback).",
    planted="external: the job needs ~2 min for 3 epochs; the wall-clock limit sends SIGTERM to the launching (rank 0) "
            "process at 45 s and SIGKILL 30 s later if it is still alive. The job runs in its own PID namespace "
            "(`timeout` as its init) so processes left behind die with it, like a job step's cleanup.",
    happened="training runs to batch 280 of epoch 0 (checkpoints at steps 50 ... 250 written); at 45 s rank 0 logs "
             "`[rank: 0] Received SIGTERM: 15`, Lightning forwards the signal to rank 1 (`[rank: 1] Received SIGTERM: "
             "15`); the processes end within ~4 s and `timeout` exits 124.",
    exits="unshare/timeout 124 (the command was timed out).",
    judgement="initiator external, category killed_by_scheduler (a wall-clock limit, no fault in the job). First "
              "deviating line = rank 0's SIGTERM line; rank 1's is collateral (forwarded by Lightning).",
    truth=T("failed", "external", cat="killed_by_scheduler",
            fd="[rank: 0] Received SIGTERM: 15", fd_rank=0,
            coll=[(1, "[rank: 1] Received SIGTERM: 15")],
            notes="45 s wall-clock limit (timeout -s TERM) hits the Lightning DDP job mid-epoch; rank 0 receives "
                  "SIGTERM and Lightning forwards it to rank 1."))

JOBS["nc-2node-uts-tee3-nodeconsoles-torch-version-refusal-cn-b07"] = dict(
    source="two torchrun agents (static rendezvous `--nnodes 2 --node-rank N --nproc-per-node 2 --master-addr cn-a03 "
           "--master-port 29733 --tee 3`) as two nodes cn-a03 / cn-b07 in separate UTS + mount namespaces, one "
           "console file per node",
    cmd="per node: `unshare -u -m --fork --kill-child bash node.sh <host> <node-rank> <manifest>` (node.sh: hostname, "
        "hosts file bind-mounted on /etc/hosts, the node's image manifest on /opt/stack/manifest.txt, then `exec "
        "torchrun --nnodes 2 --node-rank N --nproc-per-node 2 --master-addr cn-a03 --master-port 29733 --tee 3 "
        "nc_2node.py --steps 40 > nodes/<host>/console.log 2>&1`), both nodes started together under `timeout -s "
        "TERM 150 nice`",
    layout="`nodes/cn-a03/console.log` (ranks 0, 1) and `nodes/cn-b07/console.log` (ranks 2, 3): each node's torchrun "
           "console with `[default<local rank>]:` prefixed rank lines (`YYYY-mm-dd HH:MM:SS,mmm LEVEL <host> "
           "rank<R>: msg`), the `[rankR]:` tracebacks and the agent's ChildFailedError summary.",
    planted="cn-b07 runs an older image (manifest `torch==2.12.1+cpu`, image hpc-ml-2026.10) than cn-a03 "
            "(`torch==2.13.0+cpu`, hpc-ml-2026.11). The worker logs its node's stack, all-gathers the torch version "
            "and refuses to start on a mismatch (a version string check standing in for two real torch builds).",
    happened="all four ranks log their stack (cn-b07's ranks 2 and 3: `torch 2.12.1+cpu ... image hpc-ml-2026.10`); "
             "after the all_gather every rank raises `RuntimeError: torch version mismatch across nodes: 2.12.1+cpu "
             "on ['cn-b07'], 2.13.0+cpu on ['cn-a03'] ...`; both agents report the failure and exit 1.",
    exits="both torchrun agents 1 (harness wrapper 0).",
    judgement="every rank raises the same error, but the cause is one node's image: kind `rank` with node cn-b07 and "
              "rank null (a machine-level cause in a multi-node job), category version_mismatch. First deviating "
              "line = rank 2's stack line on cn-b07 (earliest of the two cn-b07 lines by timestamp). cn-a03's agent "
              "line for its failed local rank 0 (global rank 0) is listed as collateral.",
    truth=T("failed", "rank", node="cn-b07", cat="version_mismatch",
            fd="INFO cn-b07 rank2: stack: torch 2.12.1+cpu, numpy 2.4.6, image hpc-ml-2026.10", fd_rank=2,
            coll=[(0, "failed (exitcode: 1) local_rank: 0 (pid: 9509)")],
            notes="node cn-b07 carries torch 2.12.1+cpu (older image) while cn-a03 has 2.13.0+cpu; the workers' "
                  "version check refuses to start on every rank."))

JOBS["nc-2node-uts-tee3-nodeconsoles-dcp-save-rofs-ckpt-gpu-n12"] = dict(
    source="two torchrun agents (static rendezvous `--nnodes 2 --nproc-per-node 2 --master-addr gpu-n11 --tee 3`) as "
           "two nodes gpu-n11 / gpu-n12 in separate UTS + mount namespaces, one console file per node; "
           "`torch.distributed.checkpoint.save` to a shared directory",
    cmd="per node: `unshare -u -m --fork --kill-child bash node.sh <host> <node-rank> nodes/manifest.txt [ro]` "
        "(node.sh as in the version job; with `ro` it bind-remounts ckpt/ read-only in the node's mount namespace), "
        "then `exec torchrun --nnodes 2 --node-rank N --nproc-per-node 2 --master-addr gpu-n11 --master-port 29733 "
        "--tee 3 nc_2node.py --steps 60 --ckpt-every 20 > nodes/<host>/console.log 2>&1`; under `timeout -s TERM "
        "150 nice`",
    layout="`nodes/gpu-n11/console.log` (ranks 0, 1) and `nodes/gpu-n12/console.log` (ranks 2, 3), as in the version "
           "job.",
    planted="on gpu-n12 the shared checkpoint directory is mounted read-only (as after a storage fail-over that "
            "remounted it ro on that node only); gpu-n11 sees it read-write. DCP writes one file per rank "
            "(`__<R>_0.distcp`) at step 20.",
    happened="all ranks train to step 20 and call dcp.save; ranks 0 and 1 write their files, ranks 2 and 3 fail "
             "with `OSError: [Errno 30] Read-only file system: 'ckpt/step00020/__2_0.distcp'` (and `__3_0`); DCP "
             "gathers the errors and raises `CheckpointException ranks:dict_keys([2, 3])` on every rank, each "
             "printing both OSErrors; both agents fail.",
    exits="both torchrun agents 1 (harness wrapper 0).",
    judgement="machine-level cause on one node: kind `rank` with node gpu-n12, rank null; category storage_io. The "
              "OSError lines are printed by all four ranks (DCP re-raises the gathered failures), so the first "
              "deviating string is the OSError of rank 2's file; gpu-n11's CheckpointException is collateral.",
    truth=T("failed", "rank", node="gpu-n12", cat="storage_io",
            fd="OSError: [Errno 30] Read-only file system: 'ckpt/step00020/__2_0.distcp'", fd_rank=2,
            coll=[(0, "[rank0]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException "
                      "ranks:dict_keys([2, 3])")],
            notes="gpu-n12 has the shared checkpoint dir read-only; its ranks' DCP shard writes fail with EROFS and "
                  "DCP raises CheckpointException on all ranks."))

JOBS["nc-healthy-2node-uts-tee3-nodeconsoles-stack-check-dcp-ckpts"] = dict(
    source="two torchrun agents (static rendezvous `--nnodes 2 --nproc-per-node 2 --master-addr cn-c01 --tee 3`) as "
           "two nodes cn-c01 / cn-c02 in separate UTS + mount namespaces, one console file per node, DCP checkpoints",
    cmd="per node: `unshare -u -m --fork --kill-child bash node.sh <host> <node-rank> nodes/manifest.txt`, then "
        "`exec torchrun --nnodes 2 --node-rank N --nproc-per-node 2 --master-addr cn-c01 --master-port 29733 --tee 3 "
        "nc_2node.py --steps 60 --ckpt-every 20 > nodes/<host>/console.log 2>&1`; under `timeout -s TERM 150 nice`",
    layout="`nodes/cn-c01/console.log` (ranks 0, 1) and `nodes/cn-c02/console.log` (ranks 2, 3), as in the version "
           "and DCP jobs.",
    planted="nothing (same image manifest on both nodes, checkpoint dir read-write on both).",
    happened="stack check passes, 60 steps, DCP checkpoints at steps 20, 40, 60 saved by all ranks, `finished 60 "
             "steps` on all four ranks; both agents exit 0.",
    exits="both torchrun agents 0.",
    judgement="healthy: every rank logs `finished 60 steps` and every checkpoint `saved`; only c10d's socket "
              "hostname warnings appear (namespaces without a resolver).",
    truth=T("healthy", notes="clean 2-node run, 60 steps and three DCP checkpoints; nothing planted."))

JOBS["nc-torchrun-redirects1-tee2-logdir-fsdp-rank-override-sharding-mismatch-r1"] = dict(
    source="`torchrun --standalone --nproc-per-node 2 --log-dir trlogs --redirects 1 --tee 2` (stdout only in files, "
           "stderr in files and on the console), FullyShardedDataParallel on CPU (gloo)",
    cmd="`torchrun --standalone --nproc-per-node 2 --log-dir trlogs --redirects 1 --tee 2 nc_fsdp_cfg.py > "
        "console.log 2>&1` under `timeout -s TERM 150 nice`",
    layout="`console.log`: torchrun's console with the ranks' stderr tee'd (`[default<R>]:` prefixes: c10d warnings, "
           "a FutureWarning, the `[rankR]:` tracebacks) and the agent's lines. `trlogs/<run id>/attempt_0/<R>/"
           "stdout.log`: each rank's stdout (`HH:MM:SS [fsdp rR] msg` lines), only there; `stderr.log`: the same "
           "stderr as on the console, without prefixes.",
    planted="conf/train.json sets sharding_strategy FULL_SHARD (pg timeout 30 s); a debug override "
            "conf/override.rank1.json (`{\"sharding_strategy\": \"NO_SHARD\"}`) left from an earlier experiment is "
            "applied by rank 1 only, so the two ranks wrap with different FSDP strategies and issue different "
            "collectives (all_gather of flat params vs. gradient all_reduce).",
    happened="rank 1 prints `applied conf/override.rank1.json` and `config: sharding_strategy=NO_SHARD` (stdout file), "
             "rank 0 `sharding_strategy=FULL_SHARD`; both wrap (85002 vs 42501 local params) and hang in the first "
             "step; after 30 s rank 1 fails with gloo `Timed out waiting 30000ms for recv operation to complete`, "
             "rank 0 with `Connection closed by peer`; torchrun SIGTERMs and reports.",
    exits="torchrun 1.",
    judgement="initiator rank 1 (its stray override). Category config_error: a per-rank configuration difference, "
              "which shows up as a collective hang/timeout; first deviating line = rank 1's `config: "
              "sharding_strategy=NO_SHARD` (in its stdout.log only). Rank 0's `Connection closed by peer` is "
              "collateral; rank 1's own recv timeout is its symptom.",
    truth=T("failed", "rank", rank=1, cat="config_error",
            fd="[fsdp r1] config: sharding_strategy=NO_SHARD", fd_rank=1,
            coll=[(0, "Connection closed by peer [127.0.0.1]:13710")],
            notes="stray conf/override.rank1.json makes rank 1 wrap FSDP with NO_SHARD while rank 0 uses FULL_SHARD; "
                  "mismatched collectives hang until the 30 s gloo timeout on rank 1; rank 0 loses its peer."))
