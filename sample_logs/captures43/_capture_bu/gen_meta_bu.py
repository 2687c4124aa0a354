#!/usr/bin/env python3
"""write README.md + truth.json of every bu- capture folder, README-bu.md, and append the slugs."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy, mpi4py and Open MPI 4.1.4 from an earlier round's virtualenv "
       "(/home/user/capBI/venv, used read-only); launchers: torchrun (standalone, c10d --nnodes 2 with two agents, "
       "--max-restarts, --log-dir/--tee/--redirects), torch.multiprocessing.spawn and mpirun. Every job ran in a "
       "private network namespace (loopback only), private mount namespace and UTS namespace (hostname trn-f03; the "
       "two-node jobs ran each agent in its own UTS namespace, trn-f05 / trn-f06, one also with its own mount "
       "namespace for node-local scratch) from a clean environment, one job at a time on a shared 2-CPU machine; the "
       "scratch dir and home paths in the logs were neutralised to /home/user/...")
def fail(rank, kind, cat, fd, fd_rank, coll, notes, node=None):
    return {"schema_version": 1, "status": "failed",
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "rank": r} for c, r in coll], "notes": notes}
def ok(status, notes):
    return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
            "first_deviating": None, "collateral": [], "notes": notes}
J = {}
TR = "torch/distributed/elastic/multiprocessing/api.py:1028] Sending process {} closing signal SIGTERM"
SP = "torch/multiprocessing/spawn.py:165] Terminating process {} via signal SIGTERM"
J["bu-torchrun-nproc3-plain-console-per-class-recall-bincount-no-minlength-rank1-val-split-lacks-class3-allreduce-size-mismatch-r1"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 bu_train.py --data data --style fmt --epochs 3 --log-every 16 --eval "
      "--class-report --pg-timeout 30` (no --log-dir, no --tee: every rank writes straight to the shared console; "
      "logging with time, host and rank in the format): 3 ranks, DDP over gloo.",
  fault="After training each rank builds per-class support/hit counts of its own val split with torch.bincount(y) "
        "(no minlength) and all-reduces them. Rank 1's val split (val_01.npz) was filtered to rows that are not "
        "class 3, so its support tensor has 3 elements while ranks 0 and 2 have 4: the two gloo all-reduces are "
        "posted with different sizes, the element counts never line up and the ranks sit until the 30 s timeout.",
  layout="console.log: torchrun's console, the ranks' own output interleaved ([rankN]: traceback prefixes).",
  judge="Rank 1 logs a 3-class support list where the others log 4; 30 s later the all-reduces time out (rank 1 "
        "waiting in the second one, ranks 0/2 in the first, rank 0 sees the closed connection); torchrun SIGTERMs "
        "the rest. Collective size mismatch started by rank 1's data: collective_mismatch, rank 1.",
  truth=fail(1, "rank", "collective_mismatch", "val_01.npz: 93 samples, class support [31, 34, 28]", 1,
             [("Timed out waiting 30000ms for recv operation to complete", 2),
              ("Connection closed by peer", 0)],
             "Ranks 0 and 2 log a 4-entry class support, rank 1 a 3-entry one (its val split has no class 3); the "
             "bincount tensors all-reduced have different sizes, so the collectives never match and time out after "
             "30 s; torchrun's root cause names local_rank 1 after the timeouts, ranks 0 and 2 are consequences."))
J["bu-torchrun-nproc4-redirects3-tee2-logdir-rank3-report-rank-per-sample-bootstrap-ci-loop-peers-val-allreduce-gloo-timeout-10s-r3"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 --redirects 3 --tee 2 --log-dir logs bu_train.py --data data "
      "--epochs 3 --log-every 16 --eval --report-rank 3 --bootstrap 12000 --pg-timeout 10`: 4 ranks, DDP over gloo, "
      "logging.basicConfig defaults (stderr, teed to the console).",
  fault="After training, rank 3 (the designated report rank) writes a per-sample eval report with bootstrap "
        "confidence intervals computed in a pure-Python loop (12000 rounds x 128 samples of tensor indexing, minutes "
        "of CPU) before joining the val-accuracy all-reduce. Ranks 0-2 wait in that all-reduce and hit the 10 s gloo "
        "timeout; torchrun then SIGTERMs rank 3, still in its loop.",
  layout="console.log: torchrun's console with the ranks' stderr teed (`[defaultN]:`). logs/<run id>/attempt_0/"
         "{0,1,2,3}/{stdout,stderr}.log: per-rank files (stdout empty).",
  judge="Rank 3's last line is 'writing per-sample eval report ... 12000 bootstrap rounds'; ranks 0-2 time out in "
        "the all-reduce 10 s later. Straggler rank 3: nccl_timeout_hang (gloo here), rank 3.",
  truth=fail(3, "rank", "nccl_timeout_hang", "writing per-sample eval report (128 samples, 12000 bootstrap rounds)", 3,
             [("Timed out waiting 10000ms for recv operation to complete", 0)],
             "All 4 ranks finish epoch 2; rank 3 then starts a per-sample bootstrap report (12000 rounds) in Python "
             "while ranks 0-2 enter the val all-reduce and time out after 10 s; rank 3 is SIGTERMed by torchrun "
             "without an error of its own. torchrun's root cause (a waiting rank) is a consequence."))
J["bu-spawn-nprocs4-logging-console-faulthandler-rank1-stale-feature-cache-rebuilt-fp16-in-place-under-own-fp32-mmap-sigbus-r1"] = dict(
  run="`python bu_train.py --nprocs 4 --master-port 29731 --data data --feature-cache cache --epochs 3 --log-every 16 "
      "--eval`: torch.multiprocessing.spawn, 4 ranks, DDP over gloo, logging.basicConfig defaults, faulthandler on.",
  fault="Each rank memory-maps its standardised-feature cache cache/feat_rank<r>.npy (float32, left by the previous "
        "run's script version). shard_01.npz was re-exported after that run, so rank 1 finds its cache stale and "
        "rebuilds it in place with np.save, with the current default cache dtype float16: the file is truncated and "
        "rewritten at half the size while rank 1 still reads through its float32 memory map. The first batch that "
        "touches rows past the new end of file raises SIGBUS in rank 1 (its own code); spawn SIGTERMs the others.",
  layout="console.log: the spawn parent's console (all ranks' logging, no rank in the format; faulthandler dump).",
  judge="Rank 1 warns its cache is stale and rebuilds it (float16) under its own float32 mmap; 'Fatal Python error: Bus "
        "error' in numpy memmap __getitem__ and 'process 1 terminated with signal SIGBUS'. Rank 1's own code: "
        "code_exception, rank 1.",
  truth=fail(1, "rank", "code_exception",
             "WARNING:train:feature cache cache/feat_rank1.npy is older than data/shard_01.npz, rebuilding", 1,
             [("Terminating process", None), ],
             "Rank 1 rebuilds its stale feature cache in place as float16 while keeping its float32 memory map of "
             "the same file; reading rows past the truncated end raises SIGBUS (faulthandler: 'Fatal Python error: "
             "Bus error'); spawn reports process 1 terminated with SIGBUS and SIGTERMs ranks 0, 2, 3."))
J["bu-healthy-spawn-nprocs2-logging-console-rank0-stale-feature-cache-rebuilt-warning-fp32-same-size-ckpt-final-eval"] = dict(
  run="`python bu_train.py --nprocs 2 --master-port 29761 --data data --feature-cache cache --cache-dtype float32 "
      "--epochs 4 --log-every 16 --ckpt-dir ckpt --eval`: torch.multiprocessing.spawn, 2 ranks, DDP over gloo, "
      "logging.basicConfig defaults; rank 0 saves a checkpoint every epoch.",
  fault="None. shard_00.npz was re-exported after the previous run built the feature caches: rank 0 logs a WARNING "
        "that its cache is stale and rebuilds it (same dtype and size, so its memory map stays valid). c10d socket "
        "hostname warnings at start.",
  layout="console.log: the spawn parent's console (both ranks' logging).",
  judge="4 epochs, 4 checkpoints, val accuracy and 'finished in' on both ranks, exit 0: healthy despite the warnings.",
  truth=ok("healthy", "Both ranks run 4 epochs, rank 0 saves each checkpoint, both log val accuracy and 'finished "
           "in'; the stale-cache WARNING and the c10d hostname warnings are benign; python exits 0."))
J["bu-inconclusive-2node-uts-torchrun-c10d-nnodes2-nproc2-tee3-node-consoles-fmt-logging-epoch-of-50-snapshot-mid-run"] = dict(
  run="Two \"nodes\" (UTS namespaces trn-f05 / trn-f06), each `torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend "
      "c10d --rdzv-endpoint 127.0.0.1:29420 --rdzv-id 6230 --tee 3 bu_train.py --data data --style fmt --show-total "
      "--epochs 50 --log-every 16 --step-sleep 0.03 --eval`: 4 ranks, DDP over gloo, lines 'epoch k/50'.",
  fault="None. ~30 s in (epoch ~20 of 50) both node consoles were copied as someone checking the job would; the job "
        "was stopped afterwards (not part of the capture).",
  layout="snapshot/trn-f05/console.log, snapshot/trn-f06/console.log: each node's torchrun console with its two ranks "
         "teed (`[defaultN]:`, local rank).",
  judge="Steady loss lines up to epoch 20/50 on all ranks, no error, no end: inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running 2-node job: all 4 ranks log steady progress up to epoch 20/50, "
           "no error and no completion."))
J["bu-healthy-mpirun-np4-tag-output-dl-workers3-suggested-max-workers-userwarning-hostname-socket-warnings-final-eval"] = dict(
  run="`mpirun --oversubscribe -np 4 --tag-output python bu_train.py --mpi --master-port 29751 --data data --style "
      "print --epochs 2 --log-every 8 --num-workers 3 --eval --pg-timeout 60`: 4 ranks (rank/size from mpi4py), DDP "
      "over gloo, `[rankN]` print lines, each rank's DataLoader with 3 worker processes.",
  fault="None. On this 2-CPU box every rank's DataLoader warns that 3 workers exceed the suggested maximum of 2; c10d "
        "warns it cannot retrieve the client socket's hostname.",
  layout="console.log: mpirun's console, every line tagged `[1,<rank>]<stdout|stderr>:`.",
  judge="2 epochs, val accuracy and 'finished in' on all 4 ranks, mpirun exits 0: healthy, the warnings are benign.",
  truth=ok("healthy", "All 4 ranks finish both epochs and log val accuracy and 'finished in'; the DataLoader worker "
           "count UserWarnings and c10d hostname warnings are benign; mpirun exits 0."))
J["bu-inconclusive-mpirun-np4-timestamp-output-print-style-step-lines-no-total-console-snapshot-mid-run"] = dict(
  run="`mpirun --oversubscribe -np 4 --timestamp-output python bu_train.py --mpi --master-port 29771 --data data "
      "--style print --epochs 400 --log-every 16 --step-sleep 0.02`: 4 ranks (mpi4py), DDP over gloo, `[rankN]` "
      "print lines giving epoch and step (no total in the lines).",
  fault="None. ~25 s in (epoch ~21) console.log was copied as someone tailing the job would; the job was stopped "
        "afterwards (not part of the capture).",
  layout="snapshot/console.log: mpirun's console, every line prefixed with Open MPI's timestamp and stream tag.",
  judge="Steady loss lines on all 4 ranks, no error, no end, no stated total: inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running job: steady epoch/step loss lines on all 4 ranks up to epoch 21, "
           "no error and no completion."))
J["bu-2node-uts-torchrun-c10d-nnodes2-nproc4-8ranks-tee3-node-consoles-nodeb-profile-pythonpath-shadows-trainlib-0-4-importerror-trn-f06"] = dict(
  run="Two \"nodes\" (UTS namespaces trn-f05 / trn-f06, same loopback network), each `torchrun --nnodes 2 "
      "--nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29400 --rdzv-id 4471 --tee 3 bu_train.py "
      "--data data --style fmt --epochs 3 --log-every 8 --eval --pg-timeout 20`: 8 ranks, DDP over gloo.",
  fault="The job's helper package trainlib 0.6 (WarmupCosine) is on PYTHONPATH on both nodes; trn-f06's login profile "
        "additionally prepends an old shared software tree (shared/pylib, trainlib 0.4 without WarmupCosine). All 4 "
        "ranks on trn-f06 fail at `from trainlib import WarmupCosine`; trn-f06's agent stops its node; trn-f05's "
        "ranks 0-3 wait in process-group init for ranks 4-7 and hit the 20 s store timeout.",
  layout="trn-f05/console.log, trn-f06/console.log: each node's torchrun console with its 4 ranks teed (`[defaultN]:`, "
         "local rank).",
  judge="Only trn-f06's ranks fail, with an ImportError from a different trainlib path than the job's; trn-f05's "
        "DistStoreError timeouts follow. A node-level environment cause on trn-f06: version_mismatch, node trn-f06.",
  truth=fail(None, "rank", "version_mismatch", "ImportError: cannot import name 'WarmupCosine' from 'trainlib'", None,
             [("torch.distributed.DistStoreError: wait timeout after 20000ms", 0)],
             "All four ranks on trn-f06 import an old trainlib (0.4) from the shared tree prepended to PYTHONPATH on "
             "that node and fail with ImportError; trn-f05's ranks never see ranks 4-7 join and time out in "
             "process-group init. The cause is trn-f06's environment, not one rank.", node="trn-f06"))
J["bu-mpirun-np3-output-filename-per-rank-ckpt-resume-rank2-file-overwritten-by-hidden96-sweep-load-state-dict-size-mismatch-r2"] = dict(
  run="`mpirun --oversubscribe -np 3 --output-filename out python bu_train.py --mpi --master-port 29743 --data data "
      "--epochs 5 --log-every 16 --per-rank-ckpt --ckpt-dir ckpt --resume --eval --pg-timeout 30`: 3 ranks (mpi4py), "
      "DDP over gloo, logging.basicConfig defaults; each rank resumes its own ckpt/rank<r>.pt.",
  fault="The per-rank checkpoints come from a previous 2-epoch run of the same job (hidden 64). ckpt/rank2.pt was then "
        "overwritten by a checkpoint of a hidden-size sweep run (hidden 96) that wrote into the same ckpt dir. Rank 2's "
        "load_state_dict fails with size mismatches; ranks 0 and 1 resumed at epoch 2 and fail in the DDP "
        "constructor's parameter-shape check when rank 2's connection closes. mpirun names process 0 as the first to "
        "exit non-zero.",
  layout="console.log: mpirun's console (all ranks, untagged). out/1/rank.<r>/{stdout,stderr}: mpirun "
         "--output-filename per-rank copies.",
  judge="Only rank 2 fails to load its checkpoint (96 vs 64 shapes); the other ranks' 'Connection closed by peer' "
        "and mpirun's process-0 message are consequences. Checkpoint from another configuration on rank 2: "
        "config_error, rank 2.",
  truth=fail(2, "rank", "config_error",
             "size mismatch for body.0.weight: copying a param with shape torch.Size([96, 16]) from checkpoint", 2,
             [("Connection closed by peer", 0), ("Connection closed by peer", 1),
              ("mpirun detected that one or more processes exited with non-zero status", None)],
             "Ranks 0 and 1 resume at epoch 2; rank 2's ckpt/rank2.pt holds a hidden-96 model and load_state_dict "
             "raises size mismatches. Ranks 0/1 then fail in DDP's parameter verification with 'Connection closed by "
             "peer'; mpirun's 'first process' (rank 0) is a consequence."))
J["bu-torchrun-elastic-maxrestarts1-nproc2-redirects3-tee3-logdir-loss-guard-rank1-shard-nan-feature-rows-attempt0-and-restart-fail-r1"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 --max-restarts 1 --redirects 3 --tee 3 --log-dir logs bu_train.py "
      "--data data --epochs 4 --log-every 8 --loss-guard --no-shuffle --ckpt-dir ckpt --resume --pg-timeout 30`: 2 "
      "ranks, DDP over gloo, logging.basicConfig defaults, elastic with one restart allowed.",
  fault="Rank 1's shard (shard_01.npz) holds 5 rows with a missing (nan) feature in its second half; the trainer's "
        "loss guard raises FloatingPointError on the first batch that contains one (epoch 0, step 11). The agent "
        "restarts the worker group (no checkpoint written yet, so from scratch); the restart dies in gloo "
        "connectFullMesh on rank 1 (connection refused to rank 0's address) and the agent gives up after "
        "max_restarts=1.",
  layout="console.log: torchrun's console, both ranks teed (`[defaultN]:`). logs/<run id>/attempt_{0,1}/{0,1}/"
         "{stdout,stderr}.log: per rank and attempt.",
  judge="Attempt 0: rank 1's non-finite loss from nan features; rank 0's 'Connection closed by peer' follows. "
        "Attempt 1: rank 1's connectFullMesh failure, a consequence of the restart. Bad input rows on rank 1: "
        "data_error, rank 1.",
  truth=fail(1, "rank", "data_error", "FloatingPointError: non-finite loss nan at epoch 0 step 11", 1,
             [("Connection closed by peer", 0),
              ("Gloo connectFullMesh failed with", 1)],
             "Attempt 0: both ranks start from scratch and log step 8; rank 1's loss guard raises on a batch of "
             "its shard holding nan feature rows (step 11); rank 0 fails with connection closed. The single restart "
             "fails in connectFullMesh (connection refused) on rank 1 before training, and torchrun stops."))
J["bu-torchrun-maxrestarts2-nproc3-tee3-logdir-tqdm-rank0-bar-wrapper-timeout-45s-sigterm-process-group-ext"] = dict(
  run="`timeout 45 torchrun --standalone --nproc-per-node 3 --max-restarts 2 --tee 3 --log-dir logs bu_train.py "
      "--data data --style tqdm --epochs 200 --step-sleep 0.03 --ckpt-dir ckpt --eval`: 3 ranks, DDP over gloo, tqdm "
      "bar on rank 0 (3200 steps), basicConfig logging on ranks 1-2, rank 0 saves a checkpoint every epoch.",
  fault="The job wrapper's time limit (coreutils timeout, 45 s) expires ~31% into training: timeout SIGTERMs its "
        "process group. The torchrun agent logs 'Received 15 death signal', SIGTERMs its workers and exits with "
        "SignalException; max_restarts does not apply. Exit status 124 (from timeout).",
  layout="console.log: torchrun's console with the ranks teed (`[defaultN]:`). logs/<run id>/attempt_0/{0,1,2}/"
         "{stdout,stderr}.log: per rank.",
  judge="Healthy progress up to ~988/3200 steps, then the agent receives SIGTERM from outside; no rank error before "
        "it. External kill: killed_by_scheduler, kind external.",
  truth=fail(None, "external", "killed_by_scheduler",
             "torch/distributed/elastic/agent/server/api.py:753] Received 15 death signal, shutting down workers", None,
             [(TR.format(5614), None), (TR.format(5615), None), (TR.format(5616), None),
              ("SignalException: Process 5575 got signal: 15", None)],
             "All 3 ranks train normally (epoch ~61 of 200, bar at 988/3200); the agent then receives signal 15 "
             "from outside (the wrapper's timeout), SIGTERMs the three workers and raises SignalException. No rank "
             "fails on its own."))
J["bu-2node-uts-mnt-torchrun-c10d-nnodes2-nproc2-maxrestarts1-redirects3-per-node-logdir-nodeb-stagein-lag-rank3-shard-missing-restart-connectfullmesh-refused-trn-f06"] = dict(
  run="Two \"nodes\" (UTS + mount namespaces trn-f05 / trn-f06, each with its own local scratch bound on scratch/), "
      "each `torchrun --nnodes 2 --nproc-per-node 2 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint "
      "127.0.0.1:29410 --rdzv-id 5120 --redirects 3 --log-dir <host>/logs bu_train.py --data scratch/data --style "
      "basic --epochs 4 --log-every 16 --step-sleep 0.01 --eval --pg-timeout 30`: 4 ranks, DDP over gloo.",
  fault="trn-f05's stage-in of its shards to local scratch finished before launch. trn-f06's stage-in (bu_stage.sh, "
        "log trn-f06/stagein.log) is still copying shard_03 when the job starts (shard_02 done, shard_03 still a "
        ".part file): attempt 0's rank 3 fails with FileNotFoundError. Both agents restart the worker group; the "
        "restarted workers die in gloo connectFullMesh (connection refused to the old rank addresses) before "
        "training; trn-f06's agent gives up after max_restarts=1 and trn-f05's agent ends with RendezvousClosedError.",
  layout="trn-f05/console.log, trn-f06/console.log: each node's torchrun console (agent lines only, --redirects 3 "
         "without tee). <host>/logs/<run id>/attempt_N/<local rank>/{stdout,stderr}.log: per-rank files "
         "(trn-f06 has attempts 0 and 1). trn-f06/stagein.log: the node's stage-in script.",
  judge="The first failure is rank 3 on trn-f06: its local shard is missing because the node's stage-in had not "
        "finished (stagein.log: shard_03 staged after the failure). The restart's connectFullMesh errors and "
        "trn-f05's RendezvousClosedError are consequences. A node-local data staging problem on trn-f06: data_error.",
  truth=fail(3, "rank", "data_error",
             "FileNotFoundError: [Errno 2] No such file or directory: 'scratch/data/shard_03.npz'", 3,
             [("Gloo connectFullMesh failed with", 2),
              ("torch.distributed.elastic.rendezvous.api.RendezvousClosedError", None)],
             "Attempt 0: ranks 0-2 initialise, rank 3 (trn-f06) fails to open scratch/data/shard_03.npz, which "
             "trn-f06's stage-in only finished copying afterwards. The restart fails in gloo connectFullMesh "
             "(connection refused) on the ranks, and both agents stop; node trn-f06's incomplete stage-in is the "
             "cause.", node="trn-f06"))
J["bu-healthy-torchrun-nproc3-redirects3-tee1-logdir-fmt-logging-resume-last-ckpt-from-epoch2-run-to-epoch6-final-eval"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --redirects 3 --tee 1 --log-dir logs bu_train.py --data data "
      "--style fmt --epochs 6 --log-every 16 --ckpt-dir ckpt --resume --eval`: 3 ranks, DDP over gloo, logging to "
      "stdout with time, host and rank (teed to the console).",
  fault="None. The job resumes ckpt/last.pt written by an earlier 3-epoch run of the same job (not captured) and "
        "trains epochs 3-5; c10d socket hostname warnings on stderr (files only).",
  layout="console.log: torchrun's console with the ranks' stdout teed (`[defaultN]:`). logs/<run id>/attempt_0/"
         "{0,1,2}/{stdout,stderr}.log: per rank.",
  judge="All ranks resume at epoch 3, train to epoch 5, log val accuracy and 'finished in', torchrun exits 0: healthy.",
  truth=ok("healthy", "All 3 ranks log 'resumed at epoch 3', train epochs 3-5, log val accuracy and 'finished in'; "
           "torchrun exits 0."))

if __name__ == "__main__":
    rows = []
    for name, j in J.items():
        d = os.path.join(OUT, name)
        assert os.path.isdir(d), name
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\n## What was run\n{j['run']}\n\nFault planted: {j['fault']}\n\nCaptured on this machine: "
                    f"{ENV}. Capture script: _capture_bu/{name}.sh.\n\n## Layout\n{j['layout']}\n\n## Judgement\n{j['judge']}\n")
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(j["truth"], f, indent=2); f.write("\n")
        t = j["truth"]
        if t["status"] == "failed":
            i = t["initiating"]; who = f"rank {i['rank']}" if i["rank"] is not None else (i["node"] or i["kind"])
            if i["node"] and i["rank"] is not None: who += f" on {i['node']}"
            rows.append(f"| {name} | failed / {t['root_cause']['category']} ({i['kind']}: {who}) |")
        else:
            rows.append(f"| {name} | {t['status']} |")
    with open(os.path.join(OUT, "README-bu.md"), "w") as f:
        f.write("# roundAK captures, collector bu\n\n" + ENV + ". Scripts, trainer and generators in _capture_bu/ "
                "(run_all.sh runs every job then collect_all.sh; gen_meta_bu.py writes READMEs and truths).\n\n"
                "| folder | status / category (initiator) |\n|---|---|\n" + "\n".join(sorted(rows)) + "\n")
    with open(os.path.join(OUT, "..", "..", "used_capture_slugs_new.txt"), "a") as f:
        for name in J:
            f.write(name + "\n")
    print(len(J), "jobs")
