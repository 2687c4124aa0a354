#!/usr/bin/env python3
"""write README.md + truth.json of every bh- capture folder from JOBS below."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6 in a fresh virtualenv (/home/user/capBH/venv); run in a "
       "private network namespace (loopback only), private mount namespace and UTS namespace (hostname gpu-n07; the "
       "two-node job adds one UTS namespace per node) from a clean environment, one job at a time on a 2-CPU machine")
def fail(rank, node, kind, cat, fd, fd_rank, coll, notes):
    return {"schema_version": 1, "status": "failed",
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "rank": r} for c, r in coll], "notes": notes}
def ok(status, notes):
    return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
            "first_deviating": None, "collateral": [], "notes": notes}
TR = "torch/distributed/elastic/multiprocessing/api.py:1028] Sending process {} closing signal SIGTERM"
SP = "torch/multiprocessing/spawn.py:165] Terminating process {} via signal SIGTERM"
CLOSED = "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer"
JOBS = {}
JOBS["bh-torchrun-nproc3-redirects3-logdir-rank1-shard-left-as-git-lfs-pointer-np-load-pickle-refused-r1"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bh_train.py --data data --steps 200 "
      "--log-every 20 --pg-timeout 60`: 3 ranks, DDP over gloo, Python logging to stdout.",
  fault="The data directory comes from a git-lfs repository; shard_01.npz was left as the LFS pointer text (version / "
        "oid sha256 / size lines) instead of the real file. Rank 1's np.load of it refuses it as pickled data "
        "(ValueError); torchrun SIGTERMs ranks 0 and 2, which had loaded their shards.",
  layout="console.log: torchrun's console (agent lines only: SIGTERM warnings, ChildFailedError summary); "
         "logs/<run id>/attempt_0/{0,1,2}/{stdout,stderr}.log: every rank's output (--redirects 3), rank 1's traceback "
         "in 1/stderr.log.",
  judge="One rank's input file is not the data it should be (an unfetched LFS pointer): a data error started by "
        "rank 1. The SIGTERMs to ranks 0 and 2 are the launcher's cleanup.",
  truth=fail(1, None, "rank", "data_error",
             "ValueError: This file contains pickled (object) data. If you trust the file you can load it unsafely", 1,
             [(TR.format(31679), 0), (TR.format(31681), 2)],
             "Rank 1's shard_01.npz is a git-lfs pointer text file; np.load refuses it (pickled data not allowed) right "
             "after 'loading training shard data/shard_01.npz'; torchrun names local_rank 1 as root cause and "
             "SIGTERMs the other two ranks."))
JOBS["bh-spawn-nprocs3-print-console-pretrain-script-module-level-mp-spawn-no-main-guard-bootstrapping-runtimeerror-all"] = dict(
  run="`NPROCS=3 STEPS=150 python bh_pretrain.py`: a short pre-training script that calls "
      "torch.multiprocessing.spawn(worker, nprocs=3) at module level; print-style output.",
  fault="The script has no `if __name__ == \"__main__\":` guard. Each spawned child (spawn start method) re-runs the "
        "main module while bootstrapping, reaches mp.spawn again and raises multiprocessing's 'An attempt has been "
        "made to start a new process before the current process has finished its bootstrapping phase' RuntimeError. "
        "The parent reports process 2 and SIGTERMs the others.",
  layout="console.log: the parent's console (the script banner printed again by each child, the children's "
         "tracebacks, spawn's SIGTERM warnings and ProcessExitedException).",
  judge="Every worker fails identically on the script's structure before any training: a job-wide code error "
        "(-> code_exception, all_ranks).",
  truth=fail(None, None, "all_ranks", "code_exception",
             "An attempt has been made to start a new process before the", None,
             [(SP.format(32013), None), (SP.format(32014), None)],
             "mp.spawn at module level without a main guard: each child re-imports the main module, calls mp.spawn "
             "during bootstrap and raises RuntimeError; spawn reports process 2 (exit code 1) and terminates the rest."))
JOBS["bh-torchrun-nproc4-tee3-logdir-resume-ckpt-exported-from-ddp-wrapper-module-prefix-keys-load-state-dict-all"] = dict(
  run="An earlier 1-process run `torchrun --standalone --nproc-per-node 1 bh_train.py --steps 60 --save-wrapped --save "
      "ckpt/last.pt` (earlier_run.log), then the job `torchrun --standalone --nproc-per-node 4 --tee 3 --log-dir logs "
      "bh_train.py --data data --resume ckpt/last.pt --steps 400 --log-every 25 --pg-timeout 60`: 4 ranks, DDP over "
      "gloo, logging from every rank.",
  fault="The earlier run's exporter saved the DDP wrapper's state_dict (keys prefixed 'module.'); the resuming job "
        "loads it into the bare model before wrapping. Every rank's load_state_dict raises 'Missing key(s) ... "
        "Unexpected key(s) \"module.body.0.weight\" ...'.",
  layout="earlier_run.log: console of the run that wrote ckpt/last.pt; console.log: torchrun's console (--tee 3: "
         "[defaultN]: prefixes, all four tracebacks, ChildFailedError summary); logs/<run id>/attempt_0/{0..3}/"
         "{stdout,stderr}.log.",
  judge="A checkpoint key-layout mismatch hit identically by all ranks at resume: job-wide code error "
        "(-> code_exception, all_ranks). torchrun names local_rank 0 as root cause only because it was observed first.",
  truth=fail(None, None, "all_ranks", "code_exception",
             'Unexpected key(s) in state_dict: "module.body.0.weight"', None,
             [(TR.format(32742), 1), (TR.format(32744), 3)],
             "ckpt/last.pt holds 'module.'-prefixed keys (saved from the DDP wrapper); load_state_dict into the "
             "unwrapped Net fails on all 4 ranks."))
JOBS["bh-2node-uts-torchrun-static-nnodes2-per-node-consoles-nodeb-launch-line-copied-node-rank-0-store-port-taken-nodeb"] = dict(
  run="Two 'nodes' (UTS namespaces with hostnames gpu-n07 and gpu-n08 sharing one loopback network), each running "
      "`torchrun --nnodes 2 --nproc-per-node 2 --node-rank R --master-addr 127.0.0.1 --master-port 29400 --rdzv-conf "
      "timeout=30 bh_train.py --style print ...` (static rendezvous, 4 ranks planned), node b started 4 s after node a.",
  fault="Node b's launch line was copied from node a's and still says --node-rank 0. Node b's agent therefore tries to "
        "host the static rendezvous TCPStore on port 29400, which node a's agent already serves: DistNetworkError "
        "EADDRINUSE, node b exits. Node a's store waits for the second agent and times out after 31 s "
        "(DistStoreError '1/2 clients joined'). No worker ever started.",
  layout="gpu-n07/console.log and gpu-n08/console.log: each node's torchrun console (one directory per host name).",
  judge="A launch-configuration error on node gpu-n08 (duplicate node rank) -> config_error started by that node "
        "(rank null, no worker ran). Node gpu-n07's store timeout is the consequence.",
  truth=fail(None, "gpu-n08", "rank", "config_error",
             "The server socket has failed to listen on any local network address. port: 29400", None,
             [("Timed out after 31 seconds waiting for clients. 1/2 clients joined.", None)],
             "Node gpu-n08 was launched with --node-rank 0 (copied line), so its agent tried to bind the static "
             "rendezvous store port already held by gpu-n07's agent (EADDRINUSE) and exited; gpu-n07's store then "
             "timed out waiting for the second agent."))
JOBS["bh-torchrun-nproc2-redirects2-tee1-logdir-gpu-recipe-syncbatchnorm-on-cpu-gloo-ddp-wrap-valueerror-all"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 --redirects 2 --tee 1 --log-dir logs bh_train.py --data data --norm "
      "syncbn --steps 300 --log-every 25 --pg-timeout 60`: 2 ranks, gloo, stdout tee'd to the console and logs/, "
      "stderr only into logs/.",
  fault="The training recipe comes from the GPU cluster and converts BatchNorm to SyncBatchNorm. On this CPU-only box "
        "the DDP wrapper refuses it on every rank: 'ValueError: SyncBatchNorm layers only work with GPU modules'. "
        "Rank 1 also aborts (SIGABRT) on the way out; torchrun names it as root cause.",
  layout="console.log: torchrun's console with the ranks' stdout ([defaultN]: prefixed logging lines up to 'converted "
         "BatchNorm layers to SyncBatchNorm') and the ChildFailedError summary; logs/<run id>/attempt_0/{0,1}/"
         "{stdout,stderr}.log (the tracebacks only in stderr.log).",
  judge="A GPU-only model option used on a CPU/gloo job, refused identically by all ranks: job-wide config error "
        "(-> config_error, all_ranks).",
  truth=fail(None, None, "all_ranks", "config_error",
             "ValueError: SyncBatchNorm layers only work with GPU modules", None,
             [(TR.format(10278), 0)],
             "SyncBatchNorm on CPU modules is rejected by DDP construction on both ranks; the SIGABRT exit of rank 1 "
             "and torchrun's root-cause pick are incidental."))
JOBS["bh-torchrun-nproc3-redirects3-logdir-rankfiles-rank0-ckpt-runstate-holds-filehandler-torch-save-pickle-typeerror-r0"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bh_train.py --data data --log-dir "
      "ranklogs --save-every 100 --steps 400 --log-every 25 --pg-timeout 60 --step-sleep 0.01`: 3 ranks, DDP over "
      "gloo, Python logging into per-rank files ranklogs/rankN.log and stdout (redirected by torchrun into logs/).",
  fault="Rank 0 saves a checkpoint every 100 steps that includes a RunState bookkeeping object; RunState keeps a "
        "reference to the rank's logging FileHandler, so the first torch.save (step 100) fails: 'TypeError: cannot "
        "pickle '_thread.RLock' object'. Ranks 1 and 2, already in the next step's backward allreduce, get "
        "'Connection closed by peer'; torchrun SIGTERMs them.",
  layout="console.log: torchrun's console (agent lines only); logs/<run id>/attempt_0/{0,1,2}/{stdout,stderr}.log: "
         "torchrun's per-rank files; ranklogs/rank{0,1,2}.log: the trainer's own per-rank log files.",
  judge="A bug in rank 0's checkpoint code (unpicklable object in the saved dict) -> code_exception started by rank 0; "
        "the peers' gloo errors and SIGTERMs are consequences.",
  truth=fail(0, None, "rank", "code_exception", "TypeError: cannot pickle '_thread.RLock' object", 0,
             [("[rank1]: " + CLOSED, 1), ("[rank2]: " + CLOSED, 2), (TR.format(3763), 1), (TR.format(3764), 2)],
             "Rank 0's torch.save at step 100 fails to pickle the RunState's logging FileHandler (RLock); ranks 1 and "
             "2 lose it in the allreduce; torchrun correctly names local_rank 0."))
JOBS["bh-spawn-nprocs4-logging-console-rank3-shard-reexported-int32-labels-cross-entropy-target-dtype-r3"] = dict(
  run="`python bh_train.py --nprocs 4 --data data --steps 300 --log-every 25 --pg-timeout 60` = "
      "torch.multiprocessing.spawn(nprocs=4), DDP over gloo, Python logging from every rank on the console.",
  fault="Shard 3 was re-exported by another preprocessing step that wrote its labels as int32 (the other shards int64). "
        "Rank 3's first CrossEntropyLoss raises 'expected target dtype to be Long or Byte, but got Int'; spawn "
        "SIGTERMs processes 0-2.",
  layout="console.log: the spawn parent's console (all ranks' logging lines, spawn's SIGTERM warnings, process 3's "
         "traceback inside ProcessRaisedException).",
  judge="One rank's input shard has the wrong label dtype: a data error started by rank 3.",
  truth=fail(3, None, "rank", "data_error", "RuntimeError: expected target dtype to be Long or Byte, but got Int", 3,
             [(SP.format(4340), 0), (SP.format(4341), 1), (SP.format(4342), 2)],
             "Shard 3's labels are int32; rank 3's cross_entropy refuses them at step 1 ('Process 3 terminated with "
             "the following error'); the others are terminated by spawn."))
JOBS["bh-spawn-nprocs3-logging-console-rank1-local-early-stop-destroys-pg-then-final-allreduce-default-pg-not-initialized-r1"] = dict(
  run="`python bh_train.py --nprocs 3 --data data --steps 600 --early-stop 2 --eval-every 25 --log-every 25 "
      "--pg-timeout 60 --step-sleep 0.01` = torch.multiprocessing.spawn(nprocs=3), DDP over gloo, logging on the console.",
  fault="Early stopping is decided per rank on that rank's own held-out split (not synchronised). When it fires, the "
        "rank calls dist.destroy_process_group() and leaves the loop, then reaches the final all_reduce of the best "
        "held-out loss without a process group. Shard 1 has 35% flipped labels, so rank 1's held-out loss stops "
        "improving first (step 75): it raises 'ValueError: Default process group has not been initialized'; spawn "
        "SIGTERMs ranks 0 and 2.",
  layout="console.log: the spawn parent's console (all ranks' logging lines including rank 1's 'early stopping' "
         "warning, spawn's SIGTERM warnings, process 1's traceback).",
  judge="A code bug (unsynchronised early stop tearing down the process group on one rank) triggered on rank 1 -> "
        "code_exception, rank 1. The first line showing it is rank 1's early-stopping warning.",
  truth=fail(1, None, "rank", "code_exception", "[rank1] train - early stopping at step 75: no improvement in 2 evals", 1,
             [(SP.format(5453), 0), (SP.format(5455), 2)],
             "Rank 1 alone early-stops, destroys the default process group and then calls all_reduce -> ValueError "
             "'Default process group has not been initialized'; spawn terminates ranks 0 and 2."))
JOBS["bh-healthy-torchrun-nproc3-redirects1-logdir-find-unused-true-no-unused-params-ddp-warning-final-eval"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --redirects 1 --log-dir logs bh_train.py --data data --find-unused "
      "--eval-after --steps 240 --log-every 30 --pg-timeout 60`: 3 ranks, DDP over gloo.",
  fault="None. DDP is built with find_unused_parameters=True although every parameter is used; each rank prints DDP's "
        "reducer warning about it. Training finishes 240 steps, evaluates (val accuracy 0.9531) and exits 0.",
  layout="console.log: torchrun's console (stderr of the ranks: socket hostname warnings and the three reducer "
         "warnings); logs/<run id>/attempt_0/{0,1,2}/stdout.log: each rank's training log (--redirects 1).",
  judge="Ran to completion on every rank ('done: 240 steps'); the warnings are performance advice -> healthy.",
  truth=ok("healthy", "All three ranks log final val accuracy and 'done: 240 steps'; torchrun exits 0. The "
                      "find_unused_parameters warnings are harmless."))
JOBS["bh-healthy-spawn-nprocs2-logging-console-rank0-atexit-metrics-json-dir-missing-exception-ignored-exit0"] = dict(
  run="`python bh_train.py --nprocs 2 --data data --eval-after --metrics-file results/metrics.json --steps 256 "
      "--log-every 32 --pg-timeout 60` = torch.multiprocessing.spawn(nprocs=2), DDP over gloo, logging on the console.",
  fault="None for the training: 256 steps, eval, final barrier all complete. At interpreter exit rank 0's atexit hook "
        "tries to write results/metrics.json into a directory never created: Python prints 'Exception ignored in "
        "atexit callback' and a FileNotFoundError traceback; the process still exits 0 and spawn returns normally "
        "(exit status 0).",
  layout="console.log: the spawn parent's console.",
  judge="The run ended well (both ranks 'done', exit 0); the ignored atexit exception only loses a side file -> healthy.",
  truth=ok("healthy", "Both ranks finish training and eval ('done: 256 steps'); the atexit FileNotFoundError for "
                      "results/metrics.json is ignored by Python and the job exits 0."))
JOBS["bh-healthy-torchrun-nproc8-tee1-logdir-print-style-warmup-lambdalr-stepped-before-optimizer-userwarning-final-eval"] = dict(
  run="`torchrun --standalone --nproc-per-node 8 --tee 1 --log-dir logs bh_train.py --style print --data data "
      "--warmup-sched --eval-after --steps 160 --log-every 40 --pg-timeout 90`: 8 ranks on a 2-CPU box, DDP over gloo.",
  fault="None. The warmup LambdaLR is stepped at the top of each step, before the first optimizer.step(): every rank "
        "prints PyTorch's 'Detected call of lr_scheduler.step() before optimizer.step()' UserWarning. 160 steps, "
        "final eval, exit 0.",
  layout="console.log: torchrun's console (stdout tee'd with [defaultN]: prefixes, stderr warnings unprefixed); "
         "logs/<run id>/attempt_0/{0..7}/stdout.log.",
  judge="Every rank reaches 'done: 160 steps'; the scheduler warning is benign -> healthy.",
  truth=ok("healthy", "8 ranks train 160 steps, report final val accuracy and 'done'; torchrun exits 0. The "
                      "lr_scheduler-order UserWarning is harmless."))
JOBS["bh-inconclusive-torchrun-nproc3-redirects3-logdir-no-tee-agent-only-console-snapshot-mid-run"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bh_train.py --data data --steps 5000 "
      "--log-every 50 --pg-timeout 60 --step-sleep 0.01`: 3 ranks, DDP over gloo.",
  fault="None planted. About 25 s in (step ~1100 of 5000) console.log and the logs/ tree were copied to snapshot/, as "
        "someone looking at the running job would; the job was then stopped (not part of the capture).",
  layout="snapshot/console.log: torchrun's console at that moment (one warning line only, --redirects 3); "
         "snapshot/logs/<run id>/attempt_0/{0,1,2}/{stdout,stderr}.log.",
  judge="The logs stop mid-training with no error and no end: inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running job: per-rank logs reach step ~1100/5000 with normal losses, no "
                           "error and no completion."))

if __name__ == "__main__":
    for name, j in JOBS.items():
        d = os.path.join(OUT, name)
        assert os.path.isdir(d), name
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(j["truth"], f, indent=2); f.write("\n")
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\nCaptured on this machine ({ENV}).\n\n## What was run\n{j['run']}\n\n"
                    f"## Fault planted / what happened\n{j['fault']}\n\n## Layout\n{j['layout']}\n\n"
                    f"## Judgement\n{j['judge']}\n\nScripts: _capture_bh/{name}.sh (+ common.sh, helper programs bh_*.py).\n")
    print(len(JOBS), "jobs")
