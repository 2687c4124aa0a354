#!/usr/bin/env python3
"""write README.md + truth.json of every aw- capture folder from JOBS below."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("torch 2.13.0+cpu (gloo), Python 3.11.7, own virtualenv; run in a private network namespace (loopback only), "
       "private mount namespace and UTS namespace (hostname ml-n01, or ml-n01 / ml-n02 for the two-node job) from a "
       "clean environment")
def fail(rank, node, kind, cat, fd, fd_rank, coll, notes):
    return {"schema_version": 1, "status": "failed",
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "rank": r} for c, r in coll], "notes": notes}
def ok(status, notes):
    return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
            "first_deviating": None, "collateral": [], "notes": notes}
JOBS = {}
JOBS["aw-torchrun-nproc3-logdir-tee3-rank2-unsynced-early-stop-exits-0-peers-conn-closed-r2"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --log-dir logs --tee 3 aw_train.py --data data --holdout 0.2 "
      "--early-stop-patience 2 --epochs 8 --pg-timeout 20`, 3 ranks, DDP over gloo, logging module.",
  fault="Each rank keeps the last 20% of its own shard as a validation holdout, and the trainer's early stopping "
        "(patience 2, min delta 0.01) is decided per rank on that local val loss and never synchronised across ranks. "
        "Rank 2's holdout labels were replaced by noise (a bad relabelling batch): its val loss never improves after "
        "epoch 0, so at the end of epoch 2 rank 2 logs 'early stopping', leaves the loop, logs 'training finished', "
        "destroys its process group and exits 0. Ranks 0 and 1 (val loss still improving) start epoch 3 and block in "
        "the DDP gradient allreduce on the departed rank 2: gloo reports 'Connection closed by peer' on both; the "
        "agent SIGTERMs rank 0 after rank 1 fails. Rank 2's exit 0 is not in torchrun's failure summary.",
  layout="console.log: torchrun's console (agent lines + every worker's output prefixed [defaultN]: via --tee 3); "
         "logs/<run id>/attempt_0/<local rank>/stdout.log + stderr.log: the same worker output per rank (--log-dir).",
  judge="Nothing fails on rank 2: it just stops taking part in the collectives after a rank-local early-stopping "
        "decision, while its peers continue into the next epoch's allreduce. The ranks no longer agree on the number "
        "of collectives -> collective_mismatch, initiated by rank 2. The peers' connection errors and the SIGTERM are "
        "consequences; torchrun's 'Root Cause' (rank 1, exit 1) is misleading.",
  truth=fail(2, None, "rank", "collective_mismatch", "early stopping at epoch 2: best val loss 1.3902", 2,
             [("Connection closed by peer [127.0.1.1]:7597", 0), ("Connection closed by peer [127.0.0.1]:59063", 1),
              ("Sending process 30776 closing signal SIGTERM", None)],
             "Rank 2 early-stops on its own (unsynchronised) holdout loss at the end of epoch 2 and exits 0; ranks 0 "
             "and 1 enter epoch 3's DDP allreduce without it and fail with Connection closed by peer; the agent "
             "SIGTERMs rank 0 and reports rank 1 as root cause, which is only a victim."))
JOBS["aw-mpirun-np4-tag-output-rank1-nan-row-drop-metric-dict-order-allgather-vs-allreduce-deadlock-r1"] = dict(
  run="`mpirun -np 4 --oversubscribe --bind-to none --tag-output ... python aw_train.py --data data --epochs 3 "
      "--drop-nan-rows --epoch-metrics --pg-timeout 30 --log-style print`, 4 ranks (rank/world from "
      "OMPI_COMM_WORLD_*), DDP over gloo, print logging.",
  fault="At the end of each epoch the trainer syncs a metrics dict in insertion order: tensors (loss sum, correct "
        "count) with all_reduce, the per-rank dropped-row count (an int) with all_gather_object. Rank 1's shard has 7 "
        "rows with missing (nan) features, dropped at load time, which inserts 'dropped_rows' into rank 1's dict "
        "before the tensors; on the other ranks it is inserted last (setdefault). So at the end of epoch 0 rank 1 "
        "calls all_gather_object first while ranks 0, 2, 3 call all_reduce: the collectives never match, and after "
        "the 30 s gloo timeout every rank raises 'Timed out waiting 30000ms'. mpirun reports rank 2 as the first "
        "process to exit non-zero.",
  layout="console.log: mpirun's console, every line tagged [jobid,rank]<stdout|stderr>: (ranks' prints and "
         "tracebacks, mpirun's abort messages).",
  judge="All four ranks time out together; the only rank whose traceback stands in a different collective "
        "(all_gather_object, from the metrics loop) is rank 1, the one whose dict order differs because of the rows "
        "it dropped. Mismatched collective order on one rank -> collective_mismatch, rank 1. The timeouts on ranks "
        "0, 2, 3 and mpirun's choice of rank 2 are consequences.",
  truth=fail(1, None, "rank", "collective_mismatch", "dist.all_gather_object(out_l, v); synced[k] = out_l", 1,
             [("Timed out waiting 30000ms for recv operation to complete", 0),
              ("Timed out waiting 30000ms for send operation to complete", 2),
              ("Timed out waiting 30000ms for recv operation to complete", 3),
              ("Process name: [[42567,1],2]", None)],
             "Rank 1 (which dropped 7 nan rows, so its metrics dict has dropped_rows first) enters all_gather_object "
             "while ranks 0, 2, 3 enter all_reduce at the end of epoch 0; the job deadlocks until the 30 s gloo "
             "timeout fires everywhere. Rank 1's traceback is the only one in a different collective; mpirun's "
             "'first process' (rank 2) is a victim."))
JOBS["aw-accelerate-cpu-nproc3-job-memcg-limit-rank1-oversized-shard-aug-cache-oomkill-r1"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--main_process_port 29771 aw_acc.py --data data --epochs 3 --aug-cache-copies 160` (MULTI_CPU, gloo), 3 ranks, "
      "run inside a cgroup-v1 memory cgroup limited to 1400 MiB (the whole job, like a container limit).",
  fault="Before training, each rank materialises 160 augmented copies of its shard in memory. Rank 1's shard was "
        "re-exported without de-duplication: 40000 rows instead of 2000 (logged at load time), so its cache is ~780 "
        "MiB instead of 39 MiB. While rank 1 builds it, the cgroup reaches its limit and the kernel OOM killer "
        "SIGKILLs rank 1 (the largest process in the cgroup); the agent reports exitcode -9 for local rank 1 and "
        "SIGTERMs ranks 0 and 2. No Python error is printed by rank 1.",
  layout="console.log: accelerate launch's console (torchrun agent lines, all ranks' logging output, the agent's "
         "error summary).",
  judge="Rank 1 is killed by SIGKILL (-9) during its cache build, right after logging a shard 20x larger than its "
        "peers'; ranks 0 and 2 had finished theirs and are only SIGTERMed by the agent. A memory-cgroup OOM kill of "
        "a named rank -> oom, rank 1.",
  truth=fail(1, None, "rank", "oom", "[RANK 1] loaded shard_01.npz: 40000 rows x 32 features", 1,
             [("Sending process 8421 closing signal SIGTERM", None), ("Sending process 8423 closing signal SIGTERM", None)],
             "The job's memory cgroup (1400 MiB) is exhausted by rank 1's augmentation cache (its shard holds 40000 "
             "rows, 20x the others); the OOM killer SIGKILLs rank 1 (exitcode -9) and the agent SIGTERMs ranks 0 and "
             "2."))
JOBS["aw-2node-uts-torchrun-static-redirects3-per-node-logdir-trees-nodeb-local-data-stagein-one-shard-missing-node-b"] = dict(
  run="Two \"nodes\" (UTS namespaces ml-n01 / ml-n02), static rendezvous: on each `torchrun --nnodes 2 --node-rank "
      "{0,1} --nproc-per-node 2 --master-addr ml-n01 --master-port 29781 --redirects 3 --log-dir <host>/logs "
      "aw_train.py --data <host>/data --epochs 3 --pg-timeout 30`, 4 ranks (0-1 on ml-n01, 2-3 on ml-n02).",
  fault="Each node reads its shards from node-local scratch <host>/data, filled by a stage-in copy before launch. "
        "On ml-n02 the stage-in copied shard_02.npz (and val.npz) but not shard_03.npz. Rank 3 (ml-n02, local rank 1) "
        "raises FileNotFoundError for ml-n02/data/shard_03.npz right after the process group is up; ml-n02's agent "
        "SIGTERMs rank 2; ranks 0 and 1 on ml-n01, in DDP's parameter verification, get Connection closed by peer "
        "and ml-n01's agent stops.",
  layout="One directory per node named after the host: <host>/agent.log (the agent's console: with --redirects 3 "
         "only agent lines and the error summary) and <host>/logs/<run id>/attempt_0/<local rank>/stdout.log + "
         "stderr.log (the workers' output, --log-dir tree; local ranks are per node).",
  judge="Only rank 3 fails on its own, on a file missing from ml-n02's node-local data; rank 2 on the same node "
        "loaded its shard and was SIGTERMed, ml-n01's ranks failed after losing their peers. Missing input file from "
        "an incomplete stage-in on one node -> data_error, initiated by rank 3 on node ml-n02.",
  truth=fail(3, "ml-n02", "rank", "data_error",
             "FileNotFoundError: [Errno 2] No such file or directory: 'ml-n02/data/shard_03.npz'", 3,
             [("Connection closed by peer [127.0.0.1]:38599", 0), ("Connection closed by peer [127.0.0.1]:19613", 1),
              ("Sending process 9266 closing signal SIGTERM", None), ("Sending process 9265 closing signal SIGTERM", None)],
             "ml-n02's stage-in left out shard_03.npz: rank 3 (ml-n02) dies with FileNotFoundError; its node's "
             "agent SIGTERMs rank 2, and ranks 0-1 on ml-n01 fail with Connection closed by peer. Root cause is the "
             "node-local data of ml-n02, seen through rank 3."))
JOBS["aw-lightning-ddp-devices3-no-progress-bar-rank1-wide-range-shard-inplace-activation-cap-autograd-version-error-r1"] = dict(
  run="`python aw_pl.py --data data --devices 3 --max-epochs 3 --act-cap 4 --pg-timeout 30`: Lightning "
      "Trainer(accelerator='cpu', devices=3, strategy=DDPStrategy(timeout=30 s), enable_progress_bar=False), Lightning "
      "re-launches the script for ranks 1-2; 3 ranks, one console.",
  fault="The model caps hidden activations of outlier batches with an in-place clamp_ on the ReLU output (only when a "
        "value exceeds 4). Only rank 1's shard has features in a wider range (x6, exported before standardisation): "
        "its first batch takes the clamp_ branch, and the backward raises 'one of the variables needed for gradient "
        "computation has been modified by an inplace operation ... output 0 of Relu, is at version 1' on rank 1. "
        "Ranks 0 and 2, in the DDP gradient allreduce, get Connection closed by peer.",
  layout="console.log: stdout+stderr of the launching process (Lightning banners and model summary, warnings, the "
         "three ranks' [rankN]:-prefixed tracebacks).",
  judge="Rank 1 raises an autograd error from the model code path its data triggers; the peers only lose their "
        "connection to it. Autograd in-place modification error -> code_exception, rank 1.",
  truth=fail(1, None, "rank", "code_exception",
             "one of the variables needed for gradient computation has been modified by an inplace operation", 1,
             [("Connection closed by peer [127.0.1.1]:2970", 0), ("Connection closed by peer [127.0.1.1]:2970", 2)],
             "Rank 1's wide-range batch takes the in-place clamp_ branch on a ReLU output needed for backward; "
             "autograd raises the version-counter RuntimeError on rank 1 and ranks 0 and 2 see Connection closed by "
             "peer in the gradient allreduce."))
JOBS["aw-healthy-accelerate-cpu-nproc4-gradaccum2-metrics-sink-down-error-lines-warnings-finishes"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 4 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--main_process_port 29801 aw_acc.py --data data --epochs 3 --grad-accum 2 --metrics-sink 127.0.0.1:8125` "
      "(MULTI_CPU, gloo), 4 ranks.",
  fault="None planted in training. The main process pushes a loss sample every 4 steps to a metrics endpoint that is "
        "not running: each push logs an ERROR line 'metrics push failed ... ConnectionRefusedError(111, 'Connection "
        "refused'); dropping sample' and training continues. Usual c10d hostname warnings.",
  layout="console.log: accelerate launch's console (all ranks' logging output).",
  judge="All 3 epochs run, the model is saved and 'training complete' is logged; the launcher exits 0. The ERROR "
        "lines concern a best-effort metrics sink, not the training -> healthy.",
  truth=ok("healthy", "Training ran to the end (3 epochs, model saved, 'training complete', exit 0); the repeated "
                      "ERROR 'metrics push failed ... Connection refused' lines are a down metrics endpoint, dropped "
                      "samples only."))
JOBS["aw-torchrun-nproc4-logdir-tee3-tqdm-rank0-ctrl-c-sigint-process-group-mid-epoch-ext"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 --log-dir logs --tee 3 aw_train.py --data data --epochs 20 "
      "--step-sleep 0.1 --log-style tqdm --pg-timeout 60`, 4 ranks, run as a foreground job (job control on); rank 0 "
      "draws a tqdm bar per epoch, the others print.",
  fault="None in the job. 14 s in (epoch 5), the user presses Ctrl-C: SIGINT to the whole foreground process group "
        "(`kill -INT -- -<pgid>`). The agent logs 'Received 2 death signal, shutting down workers', forwards SIGINT "
        "to the workers, every worker raises KeyboardInterrupt, and torchrun exits with SignalException (signal 2).",
  layout="console.log: torchrun's console (agent lines + workers' output prefixed [defaultN]:, tqdm redraws included); "
         "logs/<run id>/attempt_0/<local rank>/stdout.log + stderr.log (--log-dir).",
  judge="Training was healthy until an interactive interrupt from outside; all ranks stop at the same moment with "
        "KeyboardInterrupt, none is to blame -> external stop (killed_by_scheduler category, kind external).",
  truth=fail(None, None, "external", "killed_by_scheduler", "Received 2 death signal, shutting down workers", None,
             [("Sending process 25596 closing signal SIGINT", None), ("[rank0]: KeyboardInterrupt", 0),
              ("[rank1]: KeyboardInterrupt", 1), ("[rank2]: KeyboardInterrupt", 2), ("[rank3]: KeyboardInterrupt", 3),
              ("SignalException: Process 25535 got signal: 2", None)],
             "A user Ctrl-C (SIGINT to the job's process group) mid epoch 5: the agent shuts the workers down with "
             "SIGINT, each raises KeyboardInterrupt, torchrun exits with SignalException. External stop, no rank "
             "at fault."))
JOBS["aw-healthy-spawn-nprocs8-logging-console-final-eval-clean-exit"] = dict(
  run="`python aw_train.py --data data --nprocs 8 --epochs 3 --eval --step-sleep 0.02 --pg-timeout 60` = "
      "torch.multiprocessing.spawn(nprocs=8), DDP over gloo, logging module to one console.",
  fault="None.",
  layout="console.log: stdout+stderr of the spawn parent (all eight ranks' log lines).",
  judge="Three epochs, a final evaluation on every rank, 'training finished' from all eight ranks, exit 0 -> healthy.",
  truth=ok("healthy", "All 8 ranks train 3 epochs, evaluate and log 'training finished'; the spawn parent exits 0."))
JOBS["aw-inconclusive-mpirun-np2-output-filename-per-rank-dirs-snapshot-while-running"] = dict(
  run="`mpirun -np 2 --oversubscribe --bind-to none --output-filename out ... python aw_train.py --data data "
      "--epochs 60 --step-sleep 0.1 --pg-timeout 60`, 2 ranks, DDP over gloo, logging module.",
  fault="None. The output files are copied 15 s after the start while the job is still training (epoch 6 of 60); "
        "the job was stopped afterwards (not part of the capture).",
  layout="snapshot/launcher.log: mpirun's console at the time of the copy (Open MPI also echoes the ranks' output "
         "there); snapshot/out/1/rank.N/stdout + stderr: Open MPI's per-rank output files (--output-filename).",
  judge="The logs end mid epoch 6 with normal step lines and no error, no end of training -> inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running job: both ranks are training normally (epoch 6 of 60) when the "
                           "logs end; no error and no completion."))
JOBS["aw-torchrun-nproc2-plain-console-torch-compile-rank1-float64-shard-linear-dtype-error-r1"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 aw_train.py --data data --epochs 3 --compile --pg-timeout 60`, "
      "2 ranks, plain console (no --log-dir / --tee), model = torch.compile(DDP(net)) with the default backend.",
  fault="Rank 1's shard was re-exported with float64 features (rank 0's is float32). On rank 1's first batch the "
        "compiled DDP forward (DDP's forward runs outside the compiled graph) reaches nn.Linear with a float64 input "
        "and float32 weights: 'RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float'. Rank 0 "
        "gets Connection closed by peer in the DDP allreduce and is SIGTERMed by the agent.",
  layout="console.log: torchrun's console (the workers' output and tracebacks prefixed [rankN]: by torch, agent lines, "
         "the error summary).",
  judge="Only rank 1 fails, on its own input data's dtype; rank 0 is a victim. Wrong dtype in one rank's data "
        "shard -> data_error, rank 1.",
  truth=fail(1, None, "rank", "data_error", "mat1 and mat2 must have the same dtype, but got Double and Float", 1,
             [("Connection closed by peer [127.0.0.1]:38067", 0), ("Sending process 31113 closing signal SIGTERM", None)],
             "Rank 1's shard holds float64 features: its first compiled forward fails in F.linear with a dtype "
             "mismatch; rank 0 loses its peer in the allreduce and is SIGTERMed."))
JOBS["aw-healthy-lightning-ddp-devices2-no-progress-bar-deprecation-warnings-fit-finished"] = dict(
  run="`python aw_pl.py --data data --devices 2 --max-epochs 4 --pg-timeout 60`: Lightning Trainer(accelerator='cpu', "
      "devices=2, strategy=DDPStrategy, enable_progress_bar=False); 2 ranks, one console.",
  fault="None.",
  layout="console.log: stdout+stderr of the launching process (Lightning banners, tip, model summary, deprecation "
         "warnings, the end-of-fit message and final metrics).",
  judge="'`Trainer.fit` stopped: `max_epochs=4` reached.' and the final metrics print, exit 0; the warnings are "
        "benign -> healthy.",
  truth=ok("healthy", "Lightning DDP fit runs 4 epochs and stops on max_epochs; rank 0 prints the final callback "
                      "metrics; exit 0. Only the usual deprecation warning and tips."))

if __name__ == "__main__":
    for name, j in JOBS.items():
        d = os.path.join(OUT, name)
        assert os.path.isdir(d), d
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(j["truth"], f, indent=2); f.write("\n")
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\n## What was run\n\nEnvironment: {ENV}.\n\nLauncher / command: {j['run']}\n\n"
                    f"Fault planted and how: {j['fault']}\n\nCapture script: _capture_aw/{name}.sh\n\n"
                    f"## Layout\n\n{j['layout']}\n\n## Judgement\n\n{j['judge']}\n")
        with open(os.path.join(d, ".correlatorignore"), "w") as f:
            f.write("README.md\ntruth.json\n.correlatorignore\n")
    print(len(JOBS), "jobs")
