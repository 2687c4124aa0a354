#!/usr/bin/env python3
"""write README.md + truth.json of every bg- capture folder from JOBS below."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("torch 2.13.0+cpu (gloo), Python 3.11.7, lightning 2.6.6, accelerate 1.16.0, numpy 2.4.6 (an earlier round's "
       "virtualenv, used read-only); run in a private network namespace (loopback only), private mount namespace and "
       "UTS namespace (hostname trn-b12) from a clean environment, one job at a time on a 2-CPU machine")
def fail(rank, node, kind, cat, fd, fd_rank, coll, notes):
    return {"schema_version": 1, "status": "failed",
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "rank": r} for c, r in coll], "notes": notes}
def ok(status, notes):
    return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
            "first_deviating": None, "collateral": [], "notes": notes}
CLOSED = "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer"
JOBS = {}
JOBS["bg-torchrun-nproc4-tee3-logdir-print-style-rank2-long-seq-batch-own-memory-guard-cuda-oom-runtimeerror-r2"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 --tee 3 --log-dir logs bg_train.py --style print --data data --steps "
      "400 --mem-budget-gib 8 --log-every 25 --pg-timeout 60 --step-sleep 0.01`, 4 ranks, DDP over gloo, every rank "
      "printing to stdout.",
  fault="Each sample carries a sequence length; before each step the trainer's own memory guard estimates the "
        "attention-score memory of the batch (batch x len^2 x 4 heads x fp32) against an 8 GiB per-device budget and "
        "raises a CUDA-style 'CUDA out of memory. Tried to allocate ...' RuntimeError when it would not fit (the same "
        "code runs on the GPU cluster). Rank 2's shard holds one 6144-token document (planted; all other rows are "
        "64-512 tokens); the batch holding it comes at step 101, needs 18 GiB and rank 2 raises. The peers lose rank 2 "
        "in the allreduce (Connection closed by peer); rank 1 additionally aborts ('terminate called without an active "
        "exception', SIGABRT), so torchrun's summary names local_rank 1 (exitcode -6) as root cause.",
  layout="console.log: torchrun's console (--tee 3: every line prefixed [defaultN]:, the [rankN]: tracebacks, the "
         "agent's SIGTERM warnings and ChildFailedError summary); logs/<run id>/attempt_0/{0..3}/{stdout,stderr}.log: "
         "torchrun's per-rank copies.",
  judge="One rank's own memory guard refuses a batch that would not fit the device: an out-of-memory failure started "
        "by rank 2 (-> oom, rank 2). The peers' 'Connection closed by peer' errors, rank 1's SIGABRT and torchrun's "
        "'Root Cause' naming local_rank 1 are consequences.",
  truth=fail(2, None, "rank", "oom", "RuntimeError: CUDA out of memory. Tried to allocate 18.00 GiB (GPU 2;", 2,
             [("[default0]:[rank0]: " + CLOSED, 0), ("[default1]:[rank1]: " + CLOSED, 1), ("[default3]:[rank3]: " + CLOSED, 3),
              ("failed (exitcode: -6) local_rank: 1", 1)],
             "Rank 2's memory guard raises a CUDA-OOM-style RuntimeError for the batch holding a 6144-token document "
             "(18 GiB needed, 8 GiB budget) at step 101; the other ranks lose it in the allreduce; rank 1 aborts and "
             "torchrun's summary wrongly points at it."))
JOBS["bg-spawn-nprocs3-logging-console-resume-ckpt-from-hidden128-run-into-hidden64-model-load-state-dict-size-mismatch-all"] = dict(
  run="An earlier short run `python bg_train.py --nprocs 1 --hidden 128 --steps 64 --save ckpt/last.pt` "
      "(earlier_run.log), then the job: `python bg_train.py --nprocs 3 --data data --resume ckpt/last.pt --steps 300 "
      "--log-every 20 --pg-timeout 60` = torch.multiprocessing.spawn(nprocs=3), DDP over gloo, Python logging on the "
      "console from every rank.",
  fault="The checkpoint was written by a model with hidden width 128; the resumed job builds the default width 64. "
        "Every rank's model.load_state_dict raises RuntimeError 'Error(s) in loading state_dict for Net: size "
        "mismatch for body.0.weight ...'; spawn reports the first failed process (process 1) and SIGTERMs the others.",
  layout="earlier_run.log: the console of the earlier 1-process run that wrote ckpt/last.pt; console.log: the spawn "
         "parent's console (every rank's logging lines, spawn's SIGTERM warnings, process 1's traceback).",
  judge="A checkpoint/model-config mismatch that every rank hits identically at resume: a job-wide configuration "
        "error (-> config_error, all_ranks); spawn only shows process 1's copy.",
  truth=fail(None, None, "all_ranks", "config_error",
             "size mismatch for body.0.weight: copying a param with shape torch.Size([128, 16]) from checkpoint, the shape in current model is torch.Size([64, 16]).", None,
             [("Terminating process 7138 via signal SIGTERM", None), ("Terminating process 7140 via signal SIGTERM", None)],
             "ckpt/last.pt holds a hidden-128 model, the job builds hidden 64; load_state_dict raises size mismatch on "
             "every rank at resume; spawn shows process 1's traceback and SIGTERMs the rest."))
JOBS["bg-accelerate-cpu-nproc3-tqdm-train-files-in-processed-subdir-default-path-missing-filenotfound-all"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--main_process_port 29821 bg_acc.py --epochs 3` (MULTI_CPU, gloo), 3 ranks, accelerate.logging + tqdm.",
  fault="The preprocessing step wrote the per-rank training files to data/processed/train_XX.npz; the launch command "
        "relies on the script's default --train-file data/train_{rank:02d}.npz. Every rank raises FileNotFoundError "
        "in np.load right after printing its accelerate state; the agent SIGTERMs the survivors.",
  layout="console.log: accelerate launch's console (every rank's state banner, the three [rankN]: tracebacks, the "
         "agent's SIGTERM warnings and ChildFailedError summary).",
  judge="A bad data path, identical on every rank -> data_error, all_ranks.",
  truth=fail(None, None, "all_ranks", "data_error", "FileNotFoundError: [Errno 2] No such file or directory: 'data/train_0", None,
             [("closing signal SIGTERM", None)],
             "The training files are in data/processed/, the job reads data/train_XX.npz; every rank raises "
             "FileNotFoundError at start."))
JOBS["bg-spawn-nprocs3-logging-console-rank1-unlabelled-last-batch-skip-step-peers-gloo-timeout-r1"] = dict(
  run="`python bg_train.py --nprocs 3 --data data --steps 120 --save final.pt --eval-after --skip-unlabelled "
      "--log-every 20 --pg-timeout 45 --step-sleep 0.02` = torch.multiprocessing.spawn(nprocs=3), DDP over gloo (45 s "
      "timeout), Python logging on the console from every rank; shards read in stored order.",
  fault="The loop skips a batch whose labels are all -1 (ignore index) with `continue` before forward/backward, on "
        "the rank that has it only. Rank 1's shard has rows 3776-3807 unlabelled (planted): its step-119 batch. Rank 1 "
        "skips that step's gradient allreduce, so its step 120 pairs with the others' step 119; rank 1 then leaves the "
        "loop and polls for rank 0's final.pt, while ranks 0 and 2 wait in step 120's allreduce that rank 1 never "
        "joins. After 45 s gloo times out (rank 2's 'Timed out waiting 45000ms for send operation' is the traceback "
        "spawn shows); spawn SIGTERMs ranks 0 and 1.",
  layout="console.log: the spawn parent's console (all ranks' logging lines, rank 1's skip warning, spawn's SIGTERM "
         "warnings, process 2's timeout traceback).",
  judge="Rank 1 skipped one step's collective; the others hang in it and time out. A hang surfacing as peers' "
        "collective timeouts -> nccl_timeout_hang (the gloo equivalent), started by rank 1; its skip warning is the "
        "first sign. Rank 2's timeout and the SIGTERMs are consequences.",
  truth=fail(1, None, "rank", "nccl_timeout_hang", "step 119: batch has no labelled samples, skipping", 1,
             [("Timed out waiting 45000ms for send operation to complete", 2),
              ("Terminating process 28948 via signal SIGTERM", 0)],
             "Rank 1 skips step 119 (all labels -1) and so misses one gradient allreduce; ranks 0 and 2 wait in the "
             "last one while rank 1 waits for final.pt; gloo times out after 45 s on rank 2; spawn terminates the rest."))
JOBS["bg-torchrun-nproc3-perrank-filehandler-logdir-console-rank0-rank2-inf-feature-rows-loss-check-floatingpointerror-r2"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 bg_train.py --data data --log-dir logs --console rank0 "
      "--check-finite --steps 500 --log-every 25 --pg-timeout 60 --step-sleep 0.01`, 3 ranks, DDP over gloo; Python "
      "logging with one FileHandler per rank (logs/rank<r>.log), rank 0 also on the console.",
  fault="The loop raises FloatingPointError on a non-finite loss. Rank 2's shard has 3 rows whose features are "
        "~3e37 (planted, standing for a unit-conversion bug in one export); at step 219 (epoch 1) the batch holding "
        "them overflows and rank 2's loss is nan; rank 2 raises. Ranks 0 and 1 lose it in the allreduce (Connection "
        "closed by peer); torchrun SIGTERMs them and names local_rank 2.",
  layout="console.log: torchrun's console (rank 0's logging lines, the [rankN]: tracebacks, the agent's summary); "
         "logs/rank{0,1,2}.log: per-rank FileHandler logs (INFO lines only).",
  judge="A non-finite loss detected and raised on one rank -> nan_divergence, rank 2. The peers' connection errors "
        "and SIGTERMs are consequences.",
  truth=fail(2, None, "rank", "nan_divergence", "FloatingPointError: loss is nan at step 219 (rank 2); stopping", 2,
             [("[rank0]: " + CLOSED, 0), ("[rank1]: " + CLOSED, 1),
              ("Sending process 7454 closing signal SIGTERM", 0)],
             "Rank 2's loss is nan at step 219 (overflowing feature rows in its shard); its finite-loss check raises "
             "FloatingPointError; ranks 0 and 1 get Connection closed by peer; torchrun SIGTERMs them."))
JOBS["bg-torchrun-nproc3-plain-console-memwatch-script-log-rank0-keeps-all-logits-rss-over-limit-sigkill-r0"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 bg_train.py --data data --keep-preds --steps 1200 --log-every 50 "
      "--pg-timeout 60 --step-sleep 0.005` (Python logging on the console from every rank), with a memory watchdog "
      "script `memwatch.sh <torchrun pid> 1200` beside it (polls the RSS of torchrun's children every second, "
      "SIGKILLs any above 1200 MiB, logs to memwatch.log).",
  fault="Rank 0 keeps every step's full logits (512x1024 fp32) for an end-of-run report, growing ~2 MiB per step. "
        "Around step 450 its RSS passes 1200 MiB and the watchdog SIGKILLs it (pid 7875 = rank 0). Ranks 1 and 2 get "
        "'Connection reset by peer' in the allreduce; torchrun reports local_rank 0 exitcode -9 and SIGTERMs the rest.",
  layout="console.log: torchrun's console (all ranks' logging lines, the peers' [rankN]: tracebacks, the agent's "
         "summary); memwatch.log: the watchdog's own log.",
  judge="The kill comes from a memory watchdog acting like an OOM killer, on a process the logs name (pid 7875 is "
        "rank 0 in its 'initialized process group' line; torchrun names local_rank 0, exitcode -9): memory growth in "
        "rank 0's own code -> oom, rank 0. The peers' connection resets and SIGTERMs are consequences.",
  truth=fail(0, None, "rank", "oom", "rss 1216 MiB > 1200 MiB, sending SIGKILL", 0,
             [("[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error", 1),
              ("[rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error", 2),
              ("Sending process 7876 closing signal SIGTERM", 1)],
             "Rank 0 accumulates full logits every step; its RSS passes the watchdog's 1200 MiB limit around step 450 "
             "and it is SIGKILLed; ranks 1 and 2 see connection resets; torchrun reports rank 0 exit -9."))
JOBS["bg-accelerate-fsdp-config-yaml-from-gpu-cluster-nproc2-on-cpu-box-sync-module-states-runtimeerror-all"] = dict(
  run="`accelerate launch --config_file fsdp_config.yaml bg_acc.py --epochs 2`, 2 processes (gloo on CPU).",
  fault="fsdp_config.yaml was copied from the GPU cluster's recipe (distributed_type FSDP, FULL_SHARD, bf16, "
        "fsdp_sync_module_states and fsdp_cpu_ram_efficient_loading on) and only edited to num_processes 2 / use_cpu "
        "true for a CPU smoke test. Accelerator() builds the FSDP plugin from it on each rank and raises RuntimeError "
        "'FSDP parameter initialization with `sync_module_states=True` is not supported on cpu.' on both ranks.",
  layout="console.log: accelerate launch's console (both ranks' tracebacks, unprefixed; the agent's SIGTERM warning "
         "and ChildFailedError summary).",
  judge="A launcher config that does not match this machine, refused identically on every rank before training -> "
        "config_error, all_ranks.",
  truth=fail(None, None, "all_ranks", "config_error",
             "RuntimeError: FSDP parameter initialization with `sync_module_states=True` is not supported on cpu.", None,
             [("closing signal SIGTERM", None)],
             "The accelerate config (FSDP with sync_module_states, from the GPU cluster) cannot run on CPU; every rank "
             "raises in Accelerator() at start."))
JOBS["bg-lightning-ddp-devices3-console-val-check-interval-500-exceeds-128-train-batches-valueerror-all"] = dict(
  run="`python bg_pl.py --devices 3 --max-epochs 3 --val-check-interval 500` = Lightning Trainer(accelerator='cpu', "
      "devices=3, strategy='ddp', val_check_interval=500, max_epochs=3); Lightning's launcher re-runs the script for "
      "ranks 1 and 2; one combined console.",
  fault="Each rank's shard gives 128 training batches per epoch, fewer than val_check_interval=500; after the sanity "
        "check, every rank raises ValueError '`val_check_interval` (500) must be less than or equal to the number of "
        "the training batches (128)'.",
  layout="console.log: the combined console (Lightning banners, sanity-check progress bar, three [rankN]: tracebacks).",
  judge="A bad Trainer argument hit identically on every rank -> config_error, all_ranks.",
  truth=fail(None, None, "all_ranks", "config_error",
             "`val_check_interval` (500) must be less than or equal to the number of the training batches (128)", None, [],
             "val_check_interval=500 exceeds the 128 training batches per epoch; every rank raises ValueError at the "
             "start of fit."))
JOBS["bg-healthy-torchrun-nproc4-plain-console-print-style-final-ckpt-rank0-save-others-wait-eval"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 bg_train.py --style print --data data --steps 300 --log-every 30 "
      "--save final.pt --eval-after --pg-timeout 60`, 4 ranks, DDP over gloo, every rank printing.",
  fault="None. Rank 0 saves final.pt, the others wait for it, every rank evaluates it and prints 'done'.",
  layout="console.log: torchrun's console (c10d hostname warnings, every rank's lines).",
  judge="All four ranks reach 'done: 300 steps' after evaluating the final checkpoint -> healthy.",
  truth=ok("healthy", "4-rank torchrun job trains 300 steps, saves and evaluates final.pt on every rank, all ranks print done."))
JOBS["bg-healthy-accelerate-cpu-nproc2-tqdm-gather-for-metrics-epochs3-save-model"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--main_process_port 29841 bg_acc.py --epochs 3` (MULTI_CPU, gloo), 2 ranks, accelerate.logging + tqdm.",
  fault="None.",
  layout="console.log: accelerate launch's console (state banners, tqdm bar interleaved with rank 0's epoch lines).",
  judge="Three epochs with validation, model saved, tqdm reaches 288/288, exit 0 -> healthy.",
  truth=ok("healthy", "2-rank accelerate job runs 3 epochs (288 steps), validates each epoch and saves out/model.pt."))
JOBS["bg-healthy-lightning-ddp-devices2-progress-bar-console-max-epochs3-fit-finished"] = dict(
  run="`python bg_pl.py --devices 2 --max-epochs 3` = Lightning Trainer(accelerator='cpu', devices=2, strategy='ddp', "
      "max_epochs=3) with the default progress bar and default logger (CSV fallback: tensorboard not installed); one "
      "combined console.",
  fault="None (the usual Lightning warnings and tips are printed).",
  layout="console.log: the combined console (banners, warnings, progress bars with carriage returns, the final "
         "'`Trainer.fit` stopped: `max_epochs=3` reached.' and metrics line).",
  judge="Fit reaches max_epochs and prints its final metrics -> healthy.",
  truth=ok("healthy", "2-rank Lightning DDP fit runs 3 epochs to max_epochs=3 and prints final metrics; only warnings."))
JOBS["bg-inconclusive-torchrun-nproc2-tee3-logdir-console-snapshot-mid-run"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bg_train.py --data data --steps 6000 "
      "--log-every 50 --pg-timeout 60 --step-sleep 0.01`, 2 ranks, Python logging on the console from both ranks.",
  fault="None. ~20 s in (step ~1100 of 6000) console.log and the logs/ tree were copied as a snapshot, as someone "
        "looking at a running job would; the job was stopped afterwards (not captured).",
  layout="snapshot/console.log: torchrun's console at the time; snapshot/logs/<run id>/attempt_0/{0,1}/"
         "{stdout,stderr}.log: torchrun's per-rank files at that time.",
  judge="The logs stop mid-run with no error and no completion -> inconclusive.",
  truth=ok("inconclusive", "Snapshot of a 2-rank torchrun job still running (step ~1100 of 6000); nothing failed, nothing finished."))
if __name__ == "__main__":
    for name, j in JOBS.items():
        d = os.path.join(OUT, name)
        assert os.path.isdir(d), name
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(j["truth"], f, indent=2); f.write("\n")
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\nCaptured on this machine: {ENV}. Scripts in ../_capture_bg/ ({name}.sh).\n\n"
                    f"## What was run\n\n{j['run']}\n\n## Fault planted\n\n{j['fault']}\n\n## Layout\n\n{j['layout']}\n\n"
                    f"Logs are verbatim except home-dir / top-directory prefixes neutralised and the per-job scratch "
                    f"dir shown as /home/user/project/.\n\n## Judgement\n\n{j['judge']}\n")
    print(len(JOBS), "jobs")
