#!/usr/bin/env python3
"""gen_meta.py [OUT]: write README.md, truth.json and .correlatorignore of every da-* job (truths written from the
planted faults and the printed lines)."""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("host `vm` (2 cores, CPU only), Python 3.11.7, torch 2.13.0+cpu (gloo), lightning 2.6.6, torchx 0.7.0, "
       "submitit 1.5.4, util-linux 2.38.1 `logger`, mawk `strftime`")


def truth(status="failed", rank=None, node=None, all_ranks=False, kind="rank", cat=None, fd=None, fd_rank=None,
          coll=(), notes=""):
    if status != "failed":
        return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
                "first_deviating": None, "collateral": [], "notes": notes}
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks, "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "ranks": r} for c, r in coll], "notes": notes}


J = {}
J["da-torchx-ddp-label-range-r1"] = dict(
    launcher="`torchx run --scheduler local_cwd --scheduler_args log_dir=$J/tx_logs dist.ddp -j 1x2 --script da_train.py "
             "-- --steps 12 --pg-timeout 30 --fault bad_label --fault-rank 1 --fault-step 6` under `timeout -s TERM 90` "
             "(torchx's built-in DDP component: one replica `da_train/0` running torchrun with 2 workers)",
    layout="`console.log` (torchx's own `torchx YYYY-MM-DD HH:MM:SS INFO` lines, then every line of the replica prefixed "
           "`da_train/0 ` and, for workers, `[R]:`; the torchrun agent's lines and failure table too) + torchx's log dir "
           "`tx_logs/torchx/<app id>/da_train/0/{combined,stdout,stderr}.log` (the replica's streams, no `da_train/0` prefix) "
           "and `tx_logs/torchx/<app id>/torchelastic/da_train/<run id>/attempt_0/<R>/{stdout,stderr}.log` (each worker's "
           "own streams, unprefixed). Worker lines: `%(asctime)s LEVEL [rank R] da.train: msg`.",
    planted="rank 1's batch at step 6 carries the label 7 in a 4-class problem (a corrupt label in its shard).",
    happened="5 steps on both ranks; rank 1 `IndexError: Target 7 is out of bounds.` in `F.cross_entropy`; rank 0, "
             "waiting in DDP's gradient all-reduce, `Connection closed by peer [127.0.0.1]:51429`; the agent sends "
             "`Sending process 7686 closing signal SIGTERM` (pid 7686 = rank 0) and names rank 1 as Root Cause (exit 1), "
             "rank 0 under Failures with `-15 (SIGTERM)`; torchx `Job finished: FAILED`, `state: FAILED (5)`. Exit 1.",
    exits="torchx=1",
    truth=truth(rank=1, cat="data_error", fd="IndexError: Target 7 is out of bounds.", fd_rank=1,
                coll=[("Connection closed by peer [127.0.0.1]:51429", [0]),
                      ("Sending process 7686 closing signal SIGTERM", [0])],
                notes="a label outside the class range in rank 1's batch: data_error (the fix is the data). The same lines "
                      "appear three times (console.log with the torchx prefix, the replica's combined/stderr.log, the "
                      "worker's own stderr.log). pid 7686 = rank 0 (its 'process group ready' line)."))
J["da-healthy-torchx-json-warnings"] = dict(
    launcher="`torchx run --scheduler local_cwd --scheduler_args log_dir=$J/tx_logs dist.ddp -j 1x3 --script da_train.py "
             "-- --steps 10 --pg-timeout 30 --log-style json --warnings` under `timeout -s TERM 90`",
    layout="`console.log` (torchx lines + `da_train/0 [R]:`-prefixed worker lines) + `tx_logs/...` as in "
           "`da-torchx-ddp-label-range-r1`; worker records are one JSON object per line "
           "(`{\"ts\", \"level\", \"logger\", \"rank\", \"pid\", \"msg\"[, \"exc\"]}`, a logging.Formatter subclass), the "
           "traceback of a logged exception is inside the `exc` field (escaped newlines).",
    planted="nothing wrong. Every rank prints harmless alarming lines before training: a `UserWarning: torch.cuda.amp."
            "GradScaler is enabled, but CUDA is not available.  Disabling.`, a WARNING (`dataset has 3 duplicate sample "
            "ids`), an ERROR record with a caught `TimeoutError` traceback (`metrics push failed (attempt 1/3), will "
            "retry`) followed by `metrics push ok on attempt 2`.",
    happened="10 steps on 3 ranks, `training done: 10 steps, final mean loss 1.4334` on every rank, torchx `Job finished: "
             "SUCCEEDED`. Exit 0.",
    exits="torchx=0",
    truth=truth(status="healthy", notes="healthy: the UserWarning, WARNING and ERROR-with-traceback (inside JSON) are "
                                        "harmless; every rank logs 'training done' and torchx reports SUCCEEDED."))
J["da-fabric-busyloop-lock-r1"] = dict(
    launcher="`python da_fabric.py --steps 12 --pg-timeout 30 --fault busy_lock --fault-rank 1 --fault-step 5` -- "
             "Lightning Fabric `Fabric(accelerator=\"cpu\", devices=2, strategy=DDPStrategy(process_group_backend=\"gloo\", "
             "timeout=30 s))`, `fabric.launch(main)` re-runs the script for rank 1 -- under `unshare -p -f timeout -s TERM 90` "
             "(a PID namespace, so the pids printed are 2 and 3)",
    layout="one `console.log`: Fabric's `Initializing distributed: GLOBAL_RANK: R, MEMBER: m/2`, `[rank: R] Seed set to "
           "42`, worker lines `%(asctime)s LEVEL [rank R] da.train: msg`, `[rank0]:` traceback.",
    planted="at step 5 rank 1 'refreshes its feature cache' and waits for `cache/shard-00001.lock`, which the capture "
            "script created and nobody removes, in a busy loop (`while os.path.exists(lock): pass`: 100% CPU, no sleep, "
            "no timeout, no further output).",
    happened="4 steps on both ranks; rank 1 logs `step 5: refreshing feature cache, waiting for cache/shard-00001.lock` "
             "and falls silent; rank 0 blocks in DDP's gradient all-reduce and after 30 s raises `RuntimeError: ... "
             "unbound_buffer.cc:78] Timed out waiting 30000ms for recv operation to complete`. Fabric prints nothing about "
             "rank 1; the log ends with rank 0's traceback (rank 1 is killed when the PID namespace ends). Exit 1.",
    exits="launcher (rank 0) = 1",
    truth=truth(rank=1, cat="nccl_timeout_hang",
                fd="step 5: refreshing feature cache, waiting for cache/shard-00001.lock", fd_rank=1,
                coll=[("Timed out waiting 30000ms for recv operation to complete", [0])],
                notes="rank 1 spins forever on a stale lock file (busy loop, silent); rank 0's collective times out after "
                      "30 s. nccl_timeout_hang with rank 1 the culprit (its last line names the lock); storage_io/other "
                      "arguable. Only rank 0 reports an error."))
J["da-fabric-temp-anneal-inf-all"] = dict(
    launcher="`DA_DEVICES=3 python da_fabric.py --steps 14 --pg-timeout 30 --fault temp_anneal` (Lightning Fabric, "
             "3 CPU processes, `fabric.launch`) under `unshare -p -f timeout -s TERM 90`",
    layout="one `console.log` (as `da-fabric-busyloop-lock-r1`); step lines carry `temp <T>`.",
    planted="every rank (same code) halves a softmax temperature each step (`temp = 0.5 ** step`) and computes the loss "
            "by hand as `-log(softmax(logits / temp)[y])`: once the temperature is small the target probability "
            "underflows to 0 and log(0) = -inf. Every rank guards the all-reduced mean loss (`FloatingPointError`).",
    happened="loss 1.61, 1.77, 2.26, 3.48, 21.13 (steps 1-5, the same on every rank: the printed loss is the all-reduced "
             "mean, Fabric's all_reduce works in place on the detached loss), then `step 6/14 loss inf mean inf temp "
             "1.56e-02` on all three ranks and `FloatingPointError: mean loss is inf at step 6` on all three. Exit 1.",
    exits="launcher (rank 0) = 1",
    truth=truth(all_ranks=True, kind="all_ranks", cat="nan_divergence", fd="step 6/14 loss inf mean inf", fd_rank=None,
                notes="a numerically unstable loss (-log of an underflowed softmax probability under a collapsing "
                      "temperature schedule) diverges to inf on every rank at the same step: nan_divergence, all ranks "
                      "(deterministic, same code everywhere); config_error/code_exception arguable. The loss grows before "
                      "(21.1 at step 5) but is finite; first deviating = the first non-finite loss line (every rank "
                      "prints it). No collateral: each rank raises on its own guard."))
J["da-healthy-fabric-warnings"] = dict(
    launcher="`python da_fabric.py --steps 12 --pg-timeout 30 --warnings` (Lightning Fabric, 2 CPU processes) under "
             "`unshare -p -f timeout -s TERM 90`",
    layout="one `console.log` (as `da-fabric-busyloop-lock-r1`).",
    planted="nothing wrong. Each rank prints a `UserWarning: The \\`srun\\` command is available on your system but is not "
            "used...`, a WARNING (`checkpoint dir ckpt/ not empty: 2 old files will be overwritten`) and an ERROR with a "
            "`ConnectionRefusedError: [Errno 111] Connection refused` traceback (`could not reach experiment tracker at "
            "127.0.0.1:5000, falling back to offline mode`).",
    happened="12 steps, `training done: 12 steps, final mean loss 1.3976` on both ranks. Exit 0.",
    exits="launcher=0",
    truth=truth(status="healthy", notes="healthy: the srun UserWarning, the WARNING and the caught ConnectionRefusedError "
                                        "logged at ERROR are harmless; both ranks log 'training done'; exit 0."))
J["da-submitit-replay-cache-oomkill-r1"] = dict(
    launcher="`python da_submit.py --tasks 2 --timeout-min 5 -- --steps 40 --pg-timeout 30 --fault leak --fault-rank 1` "
             "(submitit `LocalExecutor`, `tasks_per_node=2`, one job of two tasks running `da_train.run`) under "
             "`timeout -s TERM 90`, the whole job inside a cgroup-v1 memory cgroup limited to 1100 MiB (no swap on the "
             "machine)",
    layout="`console.log` (the submitting driver: `submitted job ...`, then submitit's `FailedJobError` with the task's "
           "trace) + submitit's per-task files `sublogs/<jobid>/<jobid>_<task>_log.out` (submitit INFO lines, task "
           "banner) and `..._log.err` (worker lines `%(asctime)s LEVEL [rank R] da.train: msg`, each with `rss N MB`; "
           "`[rankN]:` tracebacks) + `dmesg.txt` (the kernel's contiguous OOM-killer report for the kill, taken from "
           "`dmesg` after the job: `invoked oom-killer` .. `Killed process`).",
    planted="rank 1 keeps every decoded batch (a 40 MB tensor per step) in a 'replay cache' (`replay cache enabled: "
            "keeping decoded batches in memory`).",
    happened="rank 1's RSS grows 342 -> 915 MB over 16 steps (rank 0 stays at 305 MB); the kernel's memory-cgroup OOM "
             "killer SIGKILLs it (`Memory cgroup out of memory: Killed process 11462 (python)`, pid 11462 = rank 1). "
             "Rank 1's files just stop; rank 0 `Connection closed by peer [127.0.0.1]:30942` and submitit reports "
             "`Job (task=0) failed during processing` with that trace in console.log; submitit says nothing about task 1. "
             "Exit 1.",
    exits="driver=1",
    truth=truth(rank=1, cat="oom", fd="Memory cgroup out of memory: Killed process 11462 (python)", fd_rank=1,
                coll=[("Connection closed by peer [127.0.0.1]:30942", [0])],
                notes="rank 1's own unbounded cache exhausts the job's memory limit and the kernel OOM killer SIGKILLs "
                      "it: oom, rank 1 (the job's own doing, not external). pid 11462 = rank 1 ('process group ready ... "
                      "pid=11462'). First deviating: the kernel's kill line in dmesg.txt (dmesg time stamps are seconds "
                      "since boot, not wall time); rank 1's 'replay cache enabled' line and its growing 'rss' values are "
                      "the earlier hints. Collateral: rank 0's Connection closed (in its .err file and console.log)."))
J["da-submitit-timeout-min-ext"] = dict(
    launcher="`python da_submit.py --tasks 2 --timeout-min 1 --port 29613 -- --steps 300 --pg-timeout 30` (submitit "
             "`LocalExecutor`, `tasks_per_node=2`, `timeout_min=1`) under `timeout -s TERM 100`",
    layout="`console.log` (driver) + `sublogs/<jobid>/<jobid>_<task>_log.{out,err}` as in "
           "`da-submitit-replay-cache-oomkill-r1`; submitit's own log records appear twice in `.err` (its `submitit LEVEL "
           "(time) - msg` handler and the root handler's `[rank R] submitit:` format).",
    planted="nothing wrong with the training (300 steps x 0.3 s, ~95 s); the job's time limit (`timeout_min=1`) is shorter.",
    happened="after step 77 submitit's local executor signals the tasks: `Job has timed out. Ran 1 minutes out of "
             "requested 1 minutes.` / `Caught signal SIGUSR2 on vm: this job is timed-out.` on both tasks (printed about "
             "32 s after the ranks' start, as printed); task 0 `Job not requeued because: timed-out and not "
             "checkpointable.` -> `UncompletedJobError`; task 1 `Not checkpointing nor requeuing since I am a slave "
             "(procid=1).`, then `Connection closed by peer [127.0.0.1]:30618` when task 0 leaves. The driver raises "
             "`FailedJobError` with task 0's trace. Exit 1.",
    exits="driver=1",
    truth=truth(kind="external", cat="killed_by_scheduler",
                fd="Job has timed out. Ran 1 minutes out of requested 1 minutes.", fd_rank=None,
                coll=[("Connection closed by peer [127.0.0.1]:30618", [1])],
                notes="the scheduler's time limit (submitit timeout_min=1) ends a healthy run: external / "
                      "killed_by_scheduler. The timeout lines are printed by both tasks (rank null). Rank 0's "
                      "UncompletedJobError is the scheduler's doing itself; rank 1's Connection closed is collateral."))
J["da-submitit-ckpt-tmpfs-full-r0"] = dict(
    launcher="`python da_submit.py --tasks 3 --timeout-min 5 --port 29614 -- --steps 15 --pg-timeout 30 --hidden 50000 "
             "--lr 0.002 --ckpt-every 3 --ckpt-dir ckpt` (submitit `LocalExecutor`, `tasks_per_node=3`) under "
             "`timeout -s TERM 90`",
    layout="`console.log` (driver) + `sublogs/<jobid>/<jobid>_<task>_log.{out,err}` (3 tasks) as in the other submitit jobs.",
    planted="`ckpt/` is a 10 MiB tmpfs (a small scratch volume); the model is 1.05 M params (~4.2 MB per checkpoint), "
            "rank 0 saves every 3 steps and keeps all of them.",
    happened="`saved ckpt/step_00003.pt (4.2 MB)`, `saved ckpt/step_00006.pt (4.2 MB)`, then `saving checkpoint "
             "ckpt/step_00009.pt` and rank 0 `RuntimeError: basic_ios::clear: iostream error` in torch.save's zip writer, "
             "`During handling of the above exception, another exception occurred:` `RuntimeError: [enforce fail at "
             "inline_container.cc:672] . unexpected pos 1280 vs 1174` (no ENOSPC text anywhere; `df` afterwards: 100% "
             "used). Ranks 1, 2 (waiting at the barrier) `Connection closed by peer`. The driver raises `FailedJobError` "
             "(task 0). Exit 1.",
    exits="driver=1",
    truth=truth(rank=0, cat="storage_io", fd="RuntimeError: basic_ios::clear: iostream error", fd_rank=0,
                coll=[("Connection closed by peer [127.0.0.1]:33683", [1]),
                      ("Connection closed by peer [127.0.0.1]:47841", [2])],
                notes="checkpoint volume full: torch.save fails with the stream error (the message never says 'No space "
                      "left'). storage_io, rank 0 (the only rank that writes). The line before it, 'saving checkpoint "
                      "ckpt/step_00009.pt', is ordinary. Collateral: ranks 1, 2 Connection closed."))
J["da-startproc-jsonl-eval-allreduce-r0"] = dict(
    launcher="`python da_startproc.py --nprocs 3 --port 29631 -- --steps 10 --pg-timeout 30 --manual-sync --log-style "
             "json --log-file 'logs/rank{rank}.jsonl' --fault eval_rank0 --fault-step 4` "
             "(`torch.multiprocessing.start_processes(..., nprocs=3, start_method=\"forkserver\")`) under `timeout -s TERM 90`",
    layout="`console.log` (the parent: start_processes' report, plus what C++ writes to stderr) + `logs/rank{0,1,2}.jsonl` "
           "(each rank's Python logging, file only, one JSON object per line with `rank` and `pid`).",
    planted="after step 4 rank 0 alone runs a validation pass and all-reduces its accuracy (`[correct, total]`, 2 floats); "
            "ranks 1, 2 go straight on to step 5, whose gradients are all-reduced by hand as one flat tensor (676 floats).",
    happened="rank 0 logs `step 4: running validation on rank 0`; its 2-float all_reduce meets the peers' gradient "
             "all_reduce: `terminate called after throwing an instance of 'gloo::EnforceNotMet'` / `op.preamble.length "
             "<= op.nbytes. 452 vs 4. Received data size doesn't match expected size. Is there a distributed collective "
             "mismatch in your code?` (SIGABRT of process 0); start_processes `Terminating process 14503 via signal "
             "SIGTERM`, `Terminating process 14504 via signal SIGTERM` (pids of ranks 1, 2) and raises "
             "`ProcessExitedException: process 0 terminated with signal SIGABRT`. Exit 1.",
    exits="parent=1",
    truth=truth(rank=0, cat="collective_mismatch", fd="step 4: running validation on rank 0", fd_rank=0,
                coll=[("Terminating process 14503 via signal SIGTERM", [1]),
                      ("Terminating process 14504 via signal SIGTERM", [2])],
                notes="a rank-0-only validation with a collective inside: rank 0 is the one that called an extra "
                      "collective (its 'running validation on rank 0' line in logs/rank0.jsonl); the gloo enforce in "
                      "console.log is rank 0's own abort (process 0, no rank printed on the line). pids 14503/14504 = "
                      "ranks 1/2 (JSON 'pid'). code_exception arguable."))
J["da-2node-uts-devshm-node-trn-b"] = dict(
    launcher="two torchrun agents as two simulated nodes: `torchrun --nnodes 2 --node-rank {0,1} --nproc-per-node 2 "
             "--rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29641 --rdzv-id da2node da_train.py --steps 10 --pg-timeout 30 "
             "--fault shm --workers 1`, each under `unshare -u -m` with its own host name (`trn-a`, `trn-b`) and "
             "`/etc/hosts` bind-mounted (both names on 127.0.0.1), each agent's output to one per-node file",
    layout="`node-trn-a.log` (ranks 0, 1 + agent), `node-trn-b.log` (ranks 2, 3 + agent); worker lines `%(asctime)s LEVEL "
           "[rank R] da.train: msg` with `host=<name>` in the first one; `[rankN]:` tracebacks; each agent's failure table "
           "(its `host :` field says `localhost`, from /etc/hosts).",
    planted="node trn-b's `/dev/shm` is a 1 MiB tmpfs (as in a container started without --shm-size); trn-a has the "
            "host's. DataLoader `num_workers=1` hands 4 MiB batches from the worker through shared memory.",
    happened="both trn-b ranks: `RuntimeError: Caught RuntimeError in DataLoader worker process 0.` ... `RuntimeError: "
             "unable to allocate shared memory(shm) for file </torch_...>: No space left on device (28)` before step 1; "
             "trn-b's agent `Sending process 15182 closing signal SIGTERM` (rank 3, already failing), Root Cause rank 2; "
             "trn-a's ranks 1, 0 `Connection closed by peer` in DDP's backward, trn-a's agent `Sending process 15179 "
             "closing signal SIGTERM` (rank 0), Root Cause rank 1. Exit 1 / 1.",
    exits="trn-a=1, trn-b=1",
    truth=truth(node="trn-b", kind="node", cat="config_error",
                fd="unable to allocate shared memory(shm) for file", fd_rank=2,
                coll=[("Connection closed by peer [127.0.0.1]:34504", [1]),
                      ("Connection closed by peer [127.0.0.1]:2703", [0]),
                      ("Sending process 15179 closing signal SIGTERM", [0])],
                notes="node-level: trn-b's /dev/shm is too small for the DataLoader's shared-memory batches; both its "
                      "ranks (2, 3) fail alike, trn-a's ranks are collateral. config_error as the corpus's docker-shm "
                      "samples (the fix is the container's shm size); oom/storage_io arguable. The node name is read from "
                      "the file name and the 'host=trn-b' lines (the agent tables say localhost). first_deviating rank 2 "
                      "(rank 3 prints the same line)."))
J["da-healthy-2node-uts-warnings"] = dict(
    launcher="two torchrun agents (`--nnodes 2 --nproc-per-node 2`, c10d at 127.0.0.1:29642, rdzv id da2nodeok) in "
             "their own UTS + mount namespaces (`trn-a`, `trn-b`), `da_train.py --steps 10 --pg-timeout 30 --warnings`",
    layout="`node-trn-a.log`, `node-trn-b.log` as in `da-2node-uts-devshm-node-trn-b`.",
    planted="nothing wrong. Every rank prints the UserWarning (GradScaler), a WARNING (duplicate sample ids) and an ERROR "
            "with a caught `TimeoutError` traceback (`metrics push failed (attempt 1/3), will retry`); trn-b's agent "
            "prints `node_rank is only used for static rdzv_backend. It will be ignored for rdzv_backend=c10d.`",
    happened="10 steps, `training done: 10 steps, final mean loss 1.4568` on all 4 ranks; both agents exit 0.",
    exits="trn-a=0, trn-b=0",
    truth=truth(status="healthy", notes="healthy: warnings and a caught, retried TimeoutError logged at ERROR on every "
                                        "rank; all 4 ranks log 'training done'; both agents exit 0."))
J["da-xargs-ts-stale-cfg-pickle-r1"] = dict(
    launcher="`xargs -P 2 -L 1 sh -c 'cd $1 && RANK=$0 PYTHONPATH=. exec nice python da_train.py --steps 10 --pg-timeout "
             "30 --log-style plain --fault cfg_pickle 2>&1 | awk -W interactive \"{ print strftime(...), \\$0 }\" > "
             "../logs/rank$0.log' < ranks.txt` (ranks.txt: `0 checkout-r0`, `1 checkout-r1`; env:// on 127.0.0.1:29651, "
             "WORLD_SIZE=2) under `timeout -s TERM 90`",
    layout="`logs/rank0.log`, `logs/rank1.log`: every line stamped by a ts(1)-style filter (`Mon DD HH:MM:SS `), worker "
           "lines bare `LEVEL msg` (no rank in them), tracebacks `[rankN]:`.",
    planted="rank 1 runs from a stale code copy `checkout-r1/` whose `dacfg` module is 2.2.1 (no `AugmentConfig` class); "
            "rank 0 runs `checkout-r0/` with dacfg 2.3.0. Rank 0 broadcasts its `TrainConfig` object with "
            "`dist.broadcast_object_list` (pickled by reference).",
    happened="`INFO dacfg 2.3.0 from .../checkout-r0/dacfg.py` (rank 0), `INFO dacfg 2.2.1 from .../checkout-r1/dacfg.py` "
             "(rank 1); rank 1 cannot unpickle: `AttributeError: Can't get attribute 'AugmentConfig' on <module 'dacfg' "
             "from '.../checkout-r1/dacfg.py'>`; rank 0 (config printed, in DDP's parameter check) `Connection closed by "
             "peer [127.0.0.1]:23427`. xargs exits 0 (each rank's pipeline status is awk's).",
    exits="xargs=0 (pipes hide the python exit codes)",
    truth=truth(rank=1, cat="version_mismatch", fd="INFO dacfg 2.2.1 from", fd_rank=1,
                coll=[("Connection closed by peer [127.0.0.1]:23427", [0])],
                notes="rank 1 runs an older release of the config module than rank 0: the pickled config from rank 0 "
                      "names a class rank 1's copy lacks. version_mismatch, rank 1 (the stale side, file logs/rank1.log); "
                      "first deviating its 'dacfg 2.2.1' line (rank 0 prints 2.3.0); code_exception/config_error "
                      "arguable. The launcher exit (0) hides the failure; the logs show it."))
J["da-xargs-logger-syslog-data-root-env-r2"] = dict(
    launcher="`xargs -P 3 -L 1 sh -c '. env/rank$0.sh; RANK=$0 exec nice python da_train.py --steps 10 --pg-timeout 30 "
             "--log-style plain --fault data_root 2>&1 | logger -n 127.0.0.1 -P 5514 -d --rfc3164 -t train-rank$0' < "
             "ranks.txt` (env:// on 127.0.0.1:29661, WORLD_SIZE=3) under `timeout -s TERM 90`, with a UDP syslog "
             "collector (`da_syslogd.py 5514 syslog/train.log`) writing every datagram as received",
    layout="one shared `syslog/train.log`: RFC 3164 lines `<13>Mon  D HH:MM:SS vm train-rankR: <line>` in arrival order "
           "(rank only in the syslog tag and in `[rankN]:` tracebacks; worker lines bare `LEVEL msg`).",
    planted="rank 2's env file `env/rank2.sh` (not copied) still exports the old dataset location "
            "`DA_DATA_ROOT=/mnt/datasets-v1/shards`; ranks 0, 1 point at the job's `data/` (holding manifest.txt).",
    happened="rank 2 `INFO data root /mnt/datasets-v1/shards` then `FileNotFoundError: [Errno 2] No such file or "
             "directory: '/mnt/datasets-v1/shards/manifest.txt'`; ranks 0, 1 read `manifest: 4 shards` and fail in DDP's "
             "parameter check with `Connection closed by peer`. xargs exits 0 (logger's status).",
    exits="xargs=0 (pipes hide the python exit codes)",
    truth=truth(rank=2, cat="config_error", fd="INFO data root /mnt/datasets-v1/shards", fd_rank=2,
                coll=[("Connection closed by peer [127.0.0.1]:47000", [1]),
                      ("Connection closed by peer [127.0.0.1]:26269", [0])],
                notes="a rank whose environment differs: rank 2's stale DA_DATA_ROOT points at a path that does not "
                      "exist. config_error, rank 2 (data_error arguable: it surfaces as a missing dataset file). First "
                      "deviating: rank 2's 'data root' line naming the wrong path; ranks 0, 1 Connection closed."))


def readme(name, d):
    files = []
    base = os.path.join(OUT, name)
    for r, _, fs in os.walk(base):
        for f in sorted(fs):
            if f not in ("README.md", "truth.json", ".correlatorignore"):
                files.append(os.path.relpath(os.path.join(r, f), base))
    t = d["truth"]
    verdict = t["status"] if t["status"] != "failed" else (
        f"failed, {t['initiating']['kind']}"
        + (f" {t['initiating']['rank']}" if t['initiating']['rank'] is not None else "")
        + (f" {t['initiating']['node']}" if t['initiating']['node'] else "")
        + f", {t['root_cause']['category']}")
    return f"""# {name}

Captured for real on this machine on 2026-12-06 ({ENV}) by `_capture_da/{name}.sh` in a scratch dir
`/home/user/jobs12da/{name}/`, under `nice`, in a private network namespace (loopback only, no resolver) and mount
namespace (`unshare -n -m`, `_capture_da/common.sh`). Logs copied out byte for byte (`_capture_da/collect.py`); no line
edited, nothing masked.

- **Source / command**: {d['launcher']}
- **Layout**: {d['layout']}
- **Planted**: {d['planted']}
- **What happened**: {d['happened']}
- **Exit codes**: {d['exits']}
- **Files**: {', '.join('`' + f + '`' for f in sorted(files))}
- **Verdict written**: {verdict}
- **Judgement calls**: {t['notes']}

Rerun: `cd ../_capture_da && ./{name}.sh && ./collect_all.sh && python3 gen_meta.py` (pids, ports, time stamps, job
ids and random log-dir names differ on a rerun; check the truths with `../../../main/sample_logs/_capture/check_truths.py`).
"""


for name, d in J.items():
    base = os.path.join(OUT, name)
    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, "truth.json"), "w") as f:
        json.dump(d["truth"], f, indent=2); f.write("\n")
    with open(os.path.join(base, "README.md"), "w") as f:
        f.write(readme(name, d))
    with open(os.path.join(base, ".correlatorignore"), "w") as f:
        f.write("README.md\ntruth.json\n.correlatorignore\n")
print(len(J), "jobs")
