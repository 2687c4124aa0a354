#!/usr/bin/env python3
"""write README.md + truth.json of every ba- capture folder from JOBS below."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("torch 2.13.0+cpu (gloo), Python 3.11.7, lightning 2.6.6, accelerate 1.16.0, Open MPI 4.1.4, numpy 2.4.6 "
       "(the previous round's virtualenv, used read-only); run in a private network namespace (loopback only), private "
       "mount namespace and UTS namespace (hostname trn-07, or trn-07 / trn-08 for the two-node job) from a clean "
       "environment, one job at a time on a 2-CPU machine")
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
JOBS["ba-torchrun-nproc4-redirects3-logdir-long-run-1000-steps-rank3-part-00010-csv-lost-separator-columns-changed-r3"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 --redirects 3 --log-dir logs ba_train.py --parts --data data --epochs 12 "
      "--batch-size 32 --log-every 25 --step-sleep 0.005 --pg-timeout 120`, 4 ranks, DDP over gloo, logging module.",
  fault="Each rank streams its own CSV parts (data/rank_XX/part-NNNNN.csv, 3200 rows each), one part per epoch, parsed "
        "with np.loadtxt at the start of the epoch. Ten epochs (1000 steps per rank) run normally. In rank 3's "
        "part-00010.csv one row (row 1878) lost the comma between features 7 and 8 in the export, so it has 16 "
        "columns instead of 17: at the start of epoch 10 np.loadtxt on rank 3 raises ValueError ('the number of "
        "columns changed from 17 to 16 at row 1878'). Ranks 0-2 have loaded their part-00010 and are in the first "
        "gradient allreduce of epoch 10: ranks 0 and 2 get gloo 'Connection closed by peer', and the agent SIGTERMs "
        "ranks 0, 1, 2.",
  layout="console.log: torchrun's console (agent only: --redirects 3 sends worker output to files); "
         "logs/<run id>/attempt_0/<local rank>/stdout.log + stderr.log: each worker's output (--log-dir).",
  judge="A long healthy run, then a malformed row in the one part file that only rank 3 reads at epoch 10. The "
        "ValueError on rank 3 is the origin (data_error, rank 3); the peers' connection errors and the SIGTERMs are "
        "consequences. torchrun also names rank 3 as root cause.",
  truth=fail(3, None, "rank", "data_error", "ValueError: the number of columns changed from 17 to 16 at row 1878", 3,
             [("Connection closed by peer [127.0.1.1]:29073", 0), ("Connection closed by peer [127.0.1.1]:29073", 2),
              ("Sending process 23477 closing signal SIGTERM", None)],
             "Rank 3's part-00010.csv has a row with a lost separator; np.loadtxt raises at the start of epoch 10 after "
             "1000 healthy steps. Ranks 0 and 2 fail with Connection closed by peer in the allreduce; the agent "
             "SIGTERMs ranks 0-2."))
JOBS["ba-spawn-nprocs3-logging-console-rank0-only-eval-loop-rare-class-never-predicted-precision-zerodivision-peers-at-barrier-r0"] = dict(
  run="`python ba_train.py --data data --nprocs 3 --epochs 6 --eval-every 2 --log-every 5 --step-sleep 0.02 "
      "--pg-timeout 60` = torch.multiprocessing.spawn(nprocs=3), DDP over gloo, logging module.",
  fault="Every 2 epochs rank 0 alone runs an evaluation loop over val.npz computing per-class precision / recall and "
        "macro-F1, while ranks 1 and 2 wait in dist.barrier(). The training shards keep only 1 in 50 of the class-3 "
        "rows (a filtered export), val.npz has its full share; after epoch 1 the model never predicts class 3, so "
        "tp + fp is 0 for that class and the unguarded `tp[c] / (tp[c] + fp[c])` raises ZeroDivisionError on rank 0. "
        "spawn's join() sees process 0 fail, SIGTERMs processes 1 and 2 (waiting in the barrier) and re-raises rank 0's "
        "traceback in the parent.",
  layout="console.log: the spawn parent's stdout+stderr (all ranks' logging lines, spawn's termination warnings, the "
         "parent's ProcessRaisedException with process 0's traceback).",
  judge="The exception is raised in code only rank 0 runs (the evaluation loop); the other ranks did nothing but wait "
        "at the barrier and were terminated by spawn. A bug in the metric code (no guard for a class that is never "
        "predicted) -> code_exception, rank 0.",
  truth=fail(0, None, "rank", "code_exception", "ZeroDivisionError: division by zero", 0,
             [("Terminating process 21470 via signal SIGTERM", None), ("Terminating process 21471 via signal SIGTERM", None)],
             "Rank 0's evaluation loop (run by rank 0 only) divides by tp+fp=0 for class 3, which the model never "
             "predicts; spawn terminates ranks 1 and 2, which were waiting in dist.barrier()."))
JOBS["ba-torchrun-nproc3-plain-console-rank2-slow-batch-fetch-straggler-peers-gloo-allreduce-timeout-r2"] = dict(
  run="`BA_SLOW_FETCH=2:1:100:60 torchrun --standalone --nproc-per-node 3 ba_train.py --data data --epochs 4 "
      "--fetch-watchdog 5 --log-style print --log-every 4 --pg-timeout 20`, 3 ranks, DDP over gloo, print logging.",
  fault="A sleep of 60 s is planted in the dataset's __getitem__ for one row of rank 2 in epoch 1 (as a slow remote "
        "read would stall). The trainer's data-loader watchdog on rank 2 warns after 5 s that batch 3 of epoch 1 is "
        "not ready. Ranks 0 and 1 are already in that step's DDP gradient allreduce; after the 20 s gloo timeout they "
        "raise 'Timed out waiting 20000ms' (rank 1 recv, rank 0 send). The agent then SIGTERMs ranks 0 and 2 (rank 2 "
        "still waiting for its batch).",
  layout="console.log: torchrun's console with the workers' stdout/stderr going straight to it (no --tee, no --log-dir).",
  judge="Nothing crashes on rank 2: it is a straggler stuck in data loading, and its peers time out in the collective "
        "waiting for it. A collective timeout caused by one slow rank -> nccl_timeout_hang (the gloo equivalent), "
        "initiated by rank 2; the timeouts on ranks 0/1, torchrun's root cause (rank 1) and the SIGTERMs are consequences.",
  truth=fail(2, None, "rank", "nccl_timeout_hang", "data loader: batch 3 of epoch 1 not ready after 5s, still waiting", 2,
             [("Timed out waiting 20000ms for recv operation to complete", 1),
              ("Timed out waiting 20000ms for send operation to complete", 0),
              ("Sending process 21814 closing signal SIGTERM", None)],
             "Rank 2 stalls fetching a batch in epoch 1 (planted 60 s sleep in data loading; its watchdog warns); ranks "
             "0 and 1 time out after 20 s in the gradient allreduce; the agent blames rank 1 and SIGTERMs the others."))
JOBS["ba-accelerate-cpu-nproc3-resume-save-state-rank1-data-state-pt-truncated-by-interrupted-sync-zip-central-directory-r1"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--main_process_port 29641 ba_acc.py --data data --epochs 5 --output-dir runs/exp-sync --resume-from "
      "runs/exp-sync/checkpoint-epoch1` (MULTI_CPU, gloo), 3 ranks, logging via accelerate.logging.",
  fault="A first 3-epoch run (not captured) wrote runs/exp/checkpoint-epoch{0,1,2} with accelerator.save_state() plus "
        "each rank's own data_state_<rank>.pt. The tree was copied to runs/exp-sync and data_state_1.pt there was cut "
        "to its first 700 bytes (a sync interrupted mid-file). In the captured resume run accelerator.load_state() "
        "succeeds on all ranks, ranks 0 and 2 load their data_state files and start epoch 2, and rank 1's "
        "torch.load of its truncated file raises 'PytorchStreamReader failed reading zip archive: failed finding "
        "central directory'. Ranks 0 and 2 get 'Connection closed by peer' in the first allreduce; the agent SIGTERMs them.",
  layout="console.log: accelerate launch's console (torchrun agent lines, all ranks' logging output and tracebacks, "
         "the agent's error summary).",
  judge="A corrupt (truncated) checkpoint file that only rank 1 reads; the other ranks' files load fine. Storage / "
        "file integrity -> storage_io, rank 1. The peers' connection errors and SIGTERMs are consequences.",
  truth=fail(1, None, "rank", "storage_io", "PytorchStreamReader failed reading zip archive: failed finding central directory", 1,
             [("Connection closed by peer [127.0.1.1]:906.", 0), ("Connection closed by peer [127.0.1.1]:906.", 2),
              ("Sending process 17856 closing signal SIGTERM", None)],
             "Rank 1's data_state_1.pt in the synced checkpoint is truncated; torch.load fails on rank 1 only while "
             "ranks 0 and 2 resume and then lose their peer in the allreduce."))
JOBS["ba-mpirun-np4-plain-interleaved-console-yaml-optimizer-nesterov-momentum-typo-sgd-typeerror-all"] = dict(
  run="`mpirun -np 4 --oversubscribe --bind-to none -x ... python ba_train.py --data data --config configs/run.yaml "
      "--epochs 4 --pg-timeout 60`, 4 ranks (RANK/WORLD_SIZE from OMPI_COMM_WORLD_*), DDP over gloo, logging module; "
      "no --tag-output, so the ranks' output is forwarded unlabelled and interleaves.",
  fault="configs/run.yaml's optimizer block has `nesterov_momentum: true` (meant `nesterov: true`). Every rank logs the "
        "loaded config, initialises the process group, loads its shard and calls torch.optim.SGD(params, "
        "**cfg['optimizer']), which raises TypeError: unexpected keyword argument 'nesterov_momentum'. mpirun aborts "
        "the job and names rank 3 as the first process to exit non-zero.",
  layout="console.log: mpirun's console (all four ranks' lines interleaved, the [rankN]: prefixes are torch's own "
         "traceback prefixes; mpirun's abort messages).",
  judge="The same deterministic error on every rank from a bad key in the shared run config -> config_error, all "
        "ranks. mpirun's 'first process' (rank 3) has no special role.",
  truth=fail(None, None, "all_ranks", "config_error",
             "TypeError: SGD.__init__() got an unexpected keyword argument 'nesterov_momentum'", None,
             [("Process name: [[63324,1],3]", None)],
             "A typo'd optimizer key in configs/run.yaml makes SGD(**cfg) raise TypeError on all four ranks; mpirun "
             "reports rank 3 only because it exited first."))
JOBS["ba-healthy-torchrun-nproc4-maxrestarts1-tee3-attempt0-vocab-cache-read-while-rank0-writes-restart-finishes"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 --max-restarts 1 --tee 3 ba_train.py --data data --vocab-cache "
      "cache/vocab.json --init-dir rdzv --epochs 3 --log-every 4 --pg-timeout 60`, 4 ranks, DDP over gloo (file:// "
      "init per elastic attempt), logging module.",
  fault="Rank 0 builds a label-vocab cache (cache/vocab.json, written in place in 4 KiB chunks) when it does not exist; "
        "ranks 1-3 wait for the file to appear and json.load it. In attempt 0 they read it while rank 0 is still "
        "writing and fail with JSONDecodeError on the partial file; the agent stops the worker group and restarts it "
        "(--max-restarts 1). In attempt 1 the cache is complete, all ranks load it, train 3 epochs and the job exits 0.",
  layout="console.log: torchrun's console (agent lines + every worker's output prefixed [defaultN]: via --tee 3, both attempts).",
  judge="The failure is confined to attempt 0 (a cache read race); the elastic restart recovers and the job completes "
        "('training finished' on every rank, torchrun exit 0) -> healthy.",
  truth=ok("healthy", "Attempt 0 fails on ranks 1-3 with JSONDecodeError reading the vocab cache while rank 0 is still "
                      "writing it; torchrun restarts the group once, attempt 1 loads the complete cache and all four "
                      "ranks finish training; exit 0."))
JOBS["ba-2node-uts-torchrun-static-tee3-node-consoles-nodeb-memcg-rank3-oversized-shard-hardneg-sim-matrix-oomkill-r3"] = dict(
  run="Two nodes (UTS namespaces trn-07 / trn-08), static rendezvous: per node `torchrun --nnodes 2 --node-rank {0,1} "
      "--nproc-per-node 2 --master-addr trn-07 --master-port 29671 --tee 3 ba_train.py --data data --epochs 3 "
      "--hard-negatives --log-every 4 --pg-timeout 60`, 4 ranks (trn-07: ranks 0, 1; trn-08: ranks 2, 3), DDP over gloo.",
  fault="trn-08's agent and workers run in a memory cgroup capped at 1100 MiB (a node/container limit). At the start of "
        "each epoch every rank mines hard negatives over its own shard with an N x N similarity matrix. Rank 3's shard "
        "(trn-08, local rank 1) is an unfiltered export of 16000 rows instead of 512 (logged at load): its 16000 x "
        "16000 matrix (~1 GB) pushes the cgroup over the limit and the kernel OOM killer SIGKILLs rank 3 (exitcode "
        "-9, see trn-08/dmesg.log). trn-08's agent SIGTERMs rank 2 (which already got 'Connection closed by peer'); "
        "ranks 0 and 1 on trn-07 fail in the allreduce with 'Connection closed by peer' and trn-07's agent reports "
        "rank 0 as its root cause.",
  layout="trn-07/console.log, trn-08/console.log: each node's torchrun console (agent lines + its two workers' output "
         "prefixed [defaultN]: via --tee 3); trn-08/dmesg.log: the tail of the kernel log after the job (memcg OOM report).",
  judge="Rank 3 is SIGKILLed by the memory-cgroup OOM killer (pid 17302 in both dmesg and trn-08's summary) right after "
        "logging a shard 30x larger than its peers' and starting the quadratic mining; nothing else fails first. A "
        "cgroup OOM kill of a named rank -> oom, rank 3 (node trn-08). trn-07's failures and trn-08's SIGTERM are "
        "consequences; trn-07's agent summary (root cause rank 0) is misleading.",
  truth=fail(3, "trn-08", "rank", "oom", "shard_03.npz: 16000 rows x 16 features", 3,
             [("Connection closed by peer [127.0.0.1]:46753", 0), ("Connection closed by peer [127.0.0.1]:62676", 1),
              ("Connection closed by peer [127.0.0.1]:47340", 2), ("Sending process 17300 closing signal SIGTERM", None)],
             "Rank 3 on trn-08 (oversized shard, 16000x16000 similarity matrix) is OOM-killed by trn-08's memory "
             "cgroup (SIGKILL, exitcode -9); rank 2 is SIGTERMed by its agent and ranks 0/1 on trn-07 lose their "
             "peers in the allreduce."))
JOBS["ba-script-typescript-append-ansi-color-logs-torchrun-nproc3-smoke-then-run-rank1-inf-feature-rows-nan-guard-r1"] = dict(
  run="Inside `script -q -f -a -c ... logs/session.log` (one typescript appended by two runs): first a smoke test "
      "`torchrun --standalone --nproc-per-node 3 ba_train.py --data data --log-style color --nan-guard --log-every 4 "
      "--pg-timeout 60 --epochs 1 --max-steps 6` (finishes), then the same with `--epochs 4`. 3 ranks, DDP over gloo, "
      "logging with ANSI-coloured levels.",
  fault="Rank 1's shard has 10 rows (300-309) whose feature 3 is +inf (an overflow in a unit conversion of the export). "
        "The smoke test stops after 6 steps and never reaches them. In the real run, batch 9 of epoch 0 on rank 1 "
        "contains them, the loss is nan and rank 1's nan guard logs an ERROR and raises FloatingPointError; ranks 0 "
        "and 2 fail with 'Connection closed by peer' and the agent SIGTERMs them.",
  layout="logs/session.log: the raw typescript (pty output with CRLF line ends and ANSI colour escapes, util-linux "
         "'Script started/done' header lines), holding the smoke run and the failing run one after the other.",
  judge="The smoke run ends cleanly (COMMAND_EXIT_CODE 0); the failing run is the second one. Non-finite inputs on one "
        "rank produce a nan loss caught by that rank's guard -> nan_divergence, rank 1. Peers' connection errors and "
        "the SIGTERMs are consequences.",
  truth=fail(1, None, "rank", "nan_divergence", "non-finite loss nan at epoch 0 step 9 (global step 10)", 1,
             [("Connection closed by peer [127.0.1.1]:35753", 0), ("Connection closed by peer [127.0.1.1]:35753", 2),
              ("Sending process 21218 closing signal SIGTERM", None)],
             "Second run in the appended typescript: rank 1 hits rows with +inf features at step 9 of epoch 0, the "
             "loss is nan, its guard raises FloatingPointError; ranks 0 and 2 lose their peer and are SIGTERMed. The "
             "earlier smoke run in the same file finished cleanly."))
JOBS["ba-healthy-lightning-ddp-devices3-warnings-always-per-step-userwarning-flood-fit-finished"] = dict(
  run="`python ba_pl.py --data data --devices 3 --strategy ddp --soft-targets --warnings-always --max-epochs 4 "
      "--pg-timeout 60`: Lightning Trainer(accelerator='cpu', devices=3, strategy=DDPStrategy(...)), Lightning "
      "re-launches the script for ranks 1 and 2; progress bar off.",
  fault="None planted that breaks the run: the module's hand-written label smoothing calls torch.tensor() on a tensor "
        "and F.log_softmax() without dim= every training step, and warnings.simplefilter('always') is set at fit "
        "start (a leftover debugging switch), so the three ranks print those UserWarnings over and over (a flood of "
        "~150 warning lines) besides Lightning's own warnings and tips. Fit runs 4 epochs with validation and rank 0 "
        "prints the final callback metrics; exit 0.",
  layout="console.log: the console of the `python` launch (Lightning's banners, all ranks' warnings, final metrics).",
  judge="Warnings only, no error; '`Trainer.fit` stopped: `max_epochs=4` reached.' and the final metrics line show a "
        "normal end -> healthy.",
  truth=ok("healthy", "A warnings flood (per-step UserWarnings on all ranks under simplefilter('always')), but the "
                      "fit reaches max_epochs=4 and prints final metrics; exit 0."))
JOBS["ba-lightning-ddp-devices3-dl-workers2-rank1-latin1-record-unicodedecodeerror-in-worker-r1"] = dict(
  run="`python ba_pl.py --data data --devices 3 --records --num-workers 2 --max-epochs 4 --pg-timeout 60`: Lightning "
      "Trainer(accelerator='cpu', devices=3, strategy=DDPStrategy(...)), Lightning re-launches the script for ranks 1 "
      "and 2; DataLoader with 2 worker processes per rank; progress bar off.",
  fault="Each rank reads its own directory of text records (one file per sample, decoded as utf-8 in the Dataset). One "
        "of rank 1's record files (000219.rec) was re-saved by a tool writing latin-1: a 0xb5 byte in the feature "
        "text. A DataLoader worker of rank 1 raises UnicodeDecodeError, re-raised in rank 1 as 'Caught "
        "UnicodeDecodeError in DataLoader worker process 0'; ranks 0 and 2 fail in the gradient allreduce with "
        "'Connection closed by peer'.",
  layout="console.log: the console of the `python` launch (Lightning banners, all ranks' tracebacks with torch's "
         "[rankN]: prefixes).",
  judge="A malformed input record read only by rank 1 -> data_error, rank 1. The peers' connection errors are consequences.",
  truth=fail(1, None, "rank", "data_error", "Caught UnicodeDecodeError in DataLoader worker process 0", 1,
             [("Connection closed by peer [127.0.1.1]:21933", 0), ("Connection closed by peer [127.0.1.1]:21933", 2)],
             "Rank 1's DataLoader worker fails to decode a latin-1 record as utf-8; rank 1 dies and ranks 0 and 2 "
             "lose their peer in the allreduce."))
JOBS["ba-inconclusive-spawn-nprocs4-tqdm-rank0-bar-print-ranks-console-snapshot-mid-epoch"] = dict(
  run="`python ba_train.py --data data --nprocs 4 --epochs 40 --log-style tqdm --step-sleep 0.05 --pg-timeout 60` = "
      "torch.multiprocessing.spawn(nprocs=4), DDP over gloo; rank 0 shows a tqdm bar per epoch, all ranks print "
      "epoch summaries.",
  fault="None. A long run (40 epochs); 20 s after the start console.log was copied while the job was still training "
        "(in the middle of an epoch); the job was stopped afterwards (not part of the capture).",
  layout="console.log: a snapshot of the spawn parent's console (stdout+stderr, tqdm bars with carriage returns), cut "
         "mid-epoch.",
  judge="The log just stops in the middle of training with no error and no end -> inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running 4-rank spawn job: epochs progressing, last line a tqdm bar mid-epoch; "
                           "no error, no completion."))
JOBS["ba-healthy-accelerate-cpu-nproc8-save-state-each-epoch-final-eval-gather-for-metrics"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 8 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--main_process_port 29661 ba_acc.py --data data --epochs 3 --final-eval --step-sleep 0.01` (MULTI_CPU, gloo), 8 ranks.",
  fault="None. 3 epochs, accelerator.save_state() after each epoch (plus per-rank data_state files), a final evaluation "
        "gathered with gather_for_metrics, 'training complete'; exit 0.",
  layout="console.log: accelerate launch's console (all ranks' logging output, main-process checkpoint messages).",
  judge="Runs to the end: final eval line and 'training complete', launcher exits 0 -> healthy.",
  truth=ok("healthy", "8-rank accelerate run with per-epoch save_state and a final gathered evaluation; completes "
                      "normally, exit 0."))

if __name__ == "__main__":
    for name, j in JOBS.items():
        d = os.path.join(OUT, name)
        assert os.path.isdir(d), name
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(j["truth"], f, indent=2, ensure_ascii=False); f.write("\n")
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\nEnvironment: {ENV}.\n\nWhat was run: {j['run']}\n\nFault planted: {j['fault']}\n\n"
                    f"Layout: {j['layout']}\n\nJudgement: {j['judge']}\n\nCapture script: "
                    f"_capture_ba/{name}.sh (logs copied by collect.py: home / top-directory prefixes and the per-job "
                    f"scratch dir neutralised, nothing else changed).\n")
    print(len(JOBS), "jobs")
