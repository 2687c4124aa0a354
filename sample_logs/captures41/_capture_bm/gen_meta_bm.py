#!/usr/bin/env python3
"""write README.md + truth.json of every bm- capture folder from J below."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CLOSED = "Connection closed by peer"
def fail(rank, node, kind, cat, fd, fd_rank, coll, notes):
    return {"schema_version": 1, "status": "failed",
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "rank": r} for c, r in coll], "notes": notes}
def ok(status, notes):
    return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
            "first_deviating": None, "collateral": [], "notes": notes}
J = {}
J["bm-accelerate-config-file-nproc3-hf-trainer-tokenizer-v2-1000-words-vs-model-vocab-512-embedding-indexerror-all"] = dict(
  run="`accelerate launch --config_file accelerate_config.yaml bm_hf.py --max-steps 60 --eval-steps 20` (accelerate "
      "1.16.0; the YAML says distributed_type MULTI_GPU, num_processes 3, which on this CPU box runs torchrun "
      "underneath with gloo); transformers 5.25 Trainer (use_cpu, ddp_backend gloo) on a small random-init "
      "BertForSequenceClassification from model_config.json, word-level tokenizer from tokenizer/tokenizer.json. 3 ranks.",
  fault="tokenizer/ was refreshed to the v2 word-level tokenizer (1000 entries) and the corpus re-tokenized with it, "
        "but model_config.json still says vocab_size 512. Each rank's first training batch holds ids >= 512, and the "
        "BERT embedding lookup raises IndexError: index out of range in self on all three ranks; torchrun SIGTERMs the "
        "survivors and names local_rank 2.",
  layout="console.log: the launcher's combined console (each rank's startup line 'tokenizer: 1000 tokens; model: "
         "vocab_size=512', tqdm, [rankN]: tracebacks, torchrun's SIGTERM warnings and ChildFailedError summary).",
  judge="A tokenizer/model mismatch in the run's configuration: every rank fails identically at step 1 (-> "
        "config_error, all_ranks). The SIGTERMs and the blamed local_rank 2 are only launcher bookkeeping.",
  truth=fail(None, None, "all_ranks", "config_error", "IndexError: index out of range in self", None,
             [("Sending process 1704 closing signal SIGTERM", 0), ("Sending process 1705 closing signal SIGTERM", 1)],
             "Tokenizer with 1000 ids vs model vocab_size 512 (both logged at startup); every rank's embedding lookup "
             "raises IndexError on the first batch."))
J["bm-accelerate-config-file-multi-cpu-type-nproc3-without-mpirun-simple-launcher-one-process-trainer-gloo-default-pg-not-initialized-all"] = dict(
  run="`accelerate launch --config_file accelerate_config.yaml bm_hf.py` where the YAML was written by `accelerate "
      "config` answering multi-CPU (distributed_type MULTI_CPU, num_processes 3, use_cpu true). transformers Trainer "
      "with TrainingArguments(use_cpu=True, ddp_backend=\"gloo\").",
  fault="A MULTI_CPU config is meant to be started through mpirun (an MPI hostfile); launched plainly, accelerate "
        "uses its simple launcher and starts ONE python process without RANK/WORLD_SIZE. TrainingArguments with "
        "ddp_backend gloo then asks for the world size of a process group that was never created: ValueError "
        "'Default process group has not been initialized', and accelerate reports CalledProcessError.",
  layout="console.log: the console of accelerate launch (the one training process's log lines and traceback, "
         "accelerate's own traceback ending in CalledProcessError).",
  judge="The launch configuration does not match how it is launched; deterministic, nothing rank-specific (-> "
        "config_error, all_ranks).",
  truth=fail(None, None, "all_ranks", "config_error",
             "ValueError: Default process group has not been initialized, please make sure to call init_process_group.",
             None, [("returned non-zero exit status 1.", None)],
             "MULTI_CPU accelerate config launched without mpirun: one process, no process group; the Trainer's "
             "device setup fails."))
J["bm-healthy-accelerate-config-file-nproc2-hf-trainer-early-stopping-callback-patience2-stops-before-max-steps"] = dict(
  run="`accelerate launch --config_file accelerate_config.yaml --num_processes 2 bm_hf.py --max-steps 400 "
      "--eval-steps 20 --lr 1e-3 --early-stopping 2 --early-stopping-threshold 0.02` (MULTI_GPU config on CPU -> "
      "torchrun, gloo): transformers Trainer with EarlyStoppingCallback(patience 2, threshold 0.02 on eval_loss), "
      "checkpoint every 20 steps, load_best_model_at_end. 2 ranks.",
  fault="None.",
  layout="console.log: the launcher's combined console (tqdm bars, Trainer log dicts, eval dicts, final metrics).",
  judge="The callback ends training cleanly around step 160 of 400 (eval_loss improvements below the 0.02 threshold "
        "twice); train_runtime summary, final evaluate, model saved, 'done' on both ranks, exit 0 -> healthy.",
  truth=ok("healthy", "Early stopping through the Trainer callback before max_steps, final eval and save, exit 0."))
J["bm-torchrun-nproc2-redirects3-logdir-hf-trainer-train-export-label-column-renamed-category-model-returns-no-loss-valueerror-all"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 --redirects 3 --log-dir logs bm_hf.py --max-steps 60 --eval-steps "
      "20`: transformers Trainer (use_cpu, gloo), small BERT classifier, JSONL corpus. 2 ranks.",
  fault="The train/val JSONL were re-exported by a new pipeline that writes the class under \"category\" instead of "
        "\"label\". The Dataset passes a label through only when the record has one, so the batches carry only "
        "input_ids/attention_mask; at the first step both ranks raise ValueError 'The model did not return a loss "
        "from the inputs, only the following keys: logits'.",
  layout="console.log: torchrun's agent console (only the agent's lines with --redirects 3: SIGTERM warning, "
         "ChildFailedError summary); logs/<run id>/attempt_0/{0,1}/{stdout,stderr}.log: each rank's redirected output.",
  judge="A dataset column missing from the data given to every rank: job-wide, deterministic (-> data_error, "
        "all_ranks). The SIGTERM of rank 0 is the agent's cleanup.",
  truth=fail(None, None, "all_ranks", "data_error",
             "ValueError: The model did not return a loss from the inputs, only the following keys: logits.", None,
             [("Sending process 7767 closing signal SIGTERM", 0)],
             "Label column renamed to 'category' in the export; no labels reach the model on either rank; the Trainer "
             "raises at step 1."))
J["bm-lightning-ddp-devices2-val-epoch-end-macro-f1-torchmetrics-multiclass-num-classes-missing-valueerror-all"] = dict(
  run="`python bm_pl.py --devices 2 --strategy ddp --max-epochs 3 --val-f1 --progress`: Lightning 2.6.6 "
      "Trainer(accelerator=\"cpu\", devices=2, strategy=\"ddp\") (Lightning's subprocess launcher starts rank 1), "
      "progress bar, CSVLogger, one combined console.",
  fault="A macro-F1 added to on_validation_epoch_end calls torchmetrics.functional.f1_score(preds, target, "
        "task=\"multiclass\", average=\"macro\") without num_classes; torchmetrics raises ValueError in the sanity-check "
        "validation on both ranks before training starts.",
  layout="console.log: the combined console of both ranks (Lightning banners, [rankN]: tracebacks).",
  judge="A metric computation bug in the evaluation code, identical on every rank (-> code_exception, all_ranks).",
  truth=fail(None, None, "all_ranks", "code_exception",
             "ValueError: `num_classes` is expected to be `int` but `<class 'NoneType'> was passed.`", None, [],
             "f1_score(task='multiclass') without num_classes fails in the sanity-check validation on both ranks."))
J["bm-lightning-ddp-spawn-devices3-label-audit-callback-rank1-shard-relabelled-5-class-scheme-label-4-valueerror-r1"] = dict(
  run="`python bm_pl.py --devices 3 --strategy ddp_spawn --max-epochs 3 --label-audit`: Lightning "
      "Trainer(accelerator=\"cpu\", devices=3, strategy=\"ddp_spawn\"), no progress bar, one console; each rank trains "
      "on its own shard_0N.npz.",
  fault="A LabelAudit callback (on_train_batch_start) checks labels against the 4-class head. Rank 1's shard was "
        "re-labelled with a 5-class scheme (class id 4 present; planted): the callback raises ValueError on rank 1's "
        "first batch. torch.multiprocessing.spawn SIGTERMs processes 0 and 2 (which print gloo Connection closed "
        "errors) and reports process 1's traceback.",
  layout="console.log: the spawn parent's console (Lightning banners, SIGTERM notices, the peers' tracebacks, "
         "'-- Process 1 terminated with the following error:' and rank 1's traceback).",
  judge="Bad labels in one rank's shard, caught by a callback on that rank (-> data_error, rank 1). The peers' "
        "Connection closed errors and SIGTERMs are consequences.",
  truth=fail(1, None, "rank", "data_error",
             "ValueError: label audit: batch 0 of epoch 0 on rank 1 has 4 label(s) outside [0, 4): [4]", 1,
             [(CLOSED, None), ("Terminating process 7338 via signal SIGTERM", None),
              ("Terminating process 7340 via signal SIGTERM", None), ("[rank: 2] Received SIGTERM: 15", 2),
              ("[rank: 0] Received SIGTERM: 15", 0)],
             "Rank 1's shard carries label 4 for a 4-class head; the LabelAudit callback raises on rank 1; spawn "
             "terminates the others."))
J["bm-lightning-ddp-devices2-fit-ckpt-path-last-ckpt-from-hidden256-sweep-run-into-hidden64-model-size-mismatch-all"] = dict(
  run="An earlier sweep run `python bm_pl.py --devices 2 --strategy ddp --hidden 256 --max-epochs 1 --ckpt --root "
      "sweep` (earlier_run.log) wrote sweep/clf/version_0/checkpoints/last.ckpt. The job: `python bm_pl.py --devices 2 "
      "--strategy ddp --hidden 64 --max-epochs 4 --ckpt --ckpt-path sweep/clf/version_0/checkpoints/last.ckpt` "
      "(Lightning Trainer, strategy ddp, 2 ranks, one console).",
  fault="Resuming from a checkpoint of another model size (hidden 256 into hidden 64): restoring the state dict "
        "fails on both ranks with size mismatch errors.",
  layout="earlier_run.log: the console of the earlier run that wrote the checkpoint (healthy); console.log: the "
         "resumed job's combined console.",
  judge="A resume configured with the wrong model size: job-wide deterministic (-> config_error, all_ranks).",
  truth=fail(None, None, "all_ranks", "config_error",
             "size mismatch for net.0.weight: copying a param with shape torch.Size([256, 16]) from checkpoint", None, [],
             "last.ckpt from the hidden-256 sweep run restored into a hidden-64 model; both ranks fail in "
             "load_state_dict."))
J["bm-deepspeed-launcher-num-gpus3-cpu-accel-zero1-rank1-shard-reexported-1m-rows-float64-own-rss-memory-guard-memoryerror-r1"] = dict(
  run="`deepspeed --num_gpus 3 bm_ds.py --steps 200 --rss-budget-mb 256 --deepspeed --deepspeed_config "
      "ds_config.json` (DeepSpeed 0.19.8 launcher, DS_ACCELERATOR=cpu, gloo, ZeRO stage 1, AdamW), 3 ranks.",
  fault="bm_ds.py has the team's own host-memory guard (RSS growth per rank must stay under 256 MiB, checked after "
        "loading and every 20 steps). Rank 1's shard was re-exported with 1,000,000 rows as float64 (planted); with "
        "the float32 copy and the two-view cache rank 1 grows by ~332 MiB and its guard raises MemoryError at step 20. "
        "Ranks 0 and 2 lose it in the gradient allreduce (Connection closed by peer); the launcher kills all "
        "subprocesses and names local_rank 2.",
  layout="console.log: the DeepSpeed launcher's combined console (launcher INFO lines, each rank's shard line, "
         "[rankN]: tracebacks, sigkill_handler lines).",
  judge="Rank 1 exceeded its memory budget (its own guard, not the kernel's OOM killer) because of its oversized "
        "shard (-> oom, rank 1). The peers' gloo errors and the launcher's kills/blame of local_rank 2 are "
        "consequences.",
  truth=fail(1, None, "rank", "oom",
             "MemoryError: host memory guard: rank 1 RSS grew by 332 MiB at step 20 (budget 256 MiB per rank)", 1,
             [("[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 0),
              ("[rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 2),
              ("Killing subprocess 2446", None), ("Killing subprocess 2447", None), ("Killing subprocess 2448", None)],
             "Rank 1's memory guard raises after its 1M-row float64 shard pushes RSS over budget; ranks 0/2 fail in "
             "the allreduce; DeepSpeed's launcher kills the rest."))
J["bm-healthy-mpirun-np8-tag-output-mpi4py-ddp-gloo-synced-early-stopping-mean-val-loss-ends-before-max-steps"] = dict(
  run="`mpirun --allow-run-as-root --oversubscribe -np 8 --tag-output -x MASTER_ADDR -x MASTER_PORT ... python "
      "bm_ddp.py --mpi --steps 1000 --eval-every 25 --early-stop-patience 2 --sync-early-stop --min-delta 0.01` "
      "(Open MPI 4.1.4, rank/size from mpi4py, DDP over gloo, Python logging), 8 ranks.",
  fault="None.",
  layout="console.log: mpirun's console ([1,N]<stdout>: tags).",
  judge="Val loss averaged over the ranks, the same early-stopping decision on all ranks at step 350; every rank "
        "logs 'training done' after the final allreduce, mpirun exit 0 -> healthy.",
  truth=ok("healthy", "Synchronised early stopping at step 350 of 1000 on 8 ranks; all ranks finish; exit 0."))
J["bm-inconclusive-srun-label-wrapper-ntasks3-print-style-console-snapshot-mid-run"] = dict(
  run="`./bm_srunlike.sh -n 3 --label -- python bm_ddp.py --slurm --style print --steps 5000 --log-every 50` "
      "(SLURM_JOB_ID=52117): a real wrapper script standing in for `srun --label` (SLURM_PROCID/SLURM_NTASKS per "
      "task, merged output prefixed '<task>: '). 3 ranks, DDP over gloo, print-style step lines from every rank.",
  fault="None planted: the console was copied ~25 s into the run while the job was still training (it was stopped "
        "afterwards; that part is not in the capture).",
  layout="snapshot/console.log: the wrapper's merged console as it was at the snapshot.",
  judge="The log just stops mid-training (step ~1500 of 5000), no error, no end -> inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running 3-task job: step lines up to ~1500/5000, no error, no end."))
J["bm-healthy-lightning-ddp-devices3-progress-bar-modelcheckpoint-pytree-deprecation-lines-fit-finished"] = dict(
  run="`python bm_pl.py --devices 3 --strategy ddp --max-epochs 3 --ckpt --progress`: Lightning "
      "Trainer(accelerator=\"cpu\", devices=3, strategy=\"ddp\"), progress bar, CSVLogger, ModelCheckpoint(val_loss, "
      "top 1 + last), one combined console.",
  fault="None.",
  layout="console.log: the combined console; runs/clf/version_0/metrics.csv: the CSVLogger's metrics.",
  judge="'`Trainer.fit` stopped: `max_epochs=3` reached.' and the final metrics line, exit 0; only deprecation lines "
        "from Lightning internals and c10d hostname warnings -> healthy.",
  truth=ok("healthy", "3 epochs on 3 ddp processes, checkpoints and metrics written, fit stopped at max_epochs."))

J["bm-fabric-run-cli-ddp-devices3-fabric-save-every-50-ckpt-dir-on-small-tmpfs-rank0-write-fails-enospc-r0"] = dict(
  run="`fabric run --accelerator cpu --strategy ddp --devices 3 bm_fabric.py --steps 300 --save-every 50 --ckpt-dir "
      "ckpt` (Lightning 2.6.6 Fabric CLI launcher -> torchrun underneath, gloo), 3 ranks; fabric.print on rank 0, "
      "fabric.save every 50 steps (rank 0 writes).",
  fault="ckpt/ is a 2 MiB tmpfs (planted: the node-local scratch quota) and each checkpoint is ~0.86 MB: the third save "
        "(step 150) fails on rank 0 with OSError [Errno 28] No space left on device; ranks 1 and 2 lose rank 0 in the "
        "save's barrier (Connection closed by peer) and the launcher SIGTERMs them.",
  layout="console.log: the launcher's combined console (rank 0's step/saved lines, [rankN]: tracebacks, torchrun's "
         "SIGTERM warnings and ChildFailedError summary naming local_rank 0).",
  judge="A checkpoint write on a full directory by rank 0 (-> storage_io, rank 0); the peers' gloo errors and "
        "SIGTERMs are consequences.",
  truth=fail(0, None, "rank", "storage_io", "OSError: [Errno 28] No space left on device", 0,
             [("[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 1),
              ("[rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 2),
              ("Sending process 8460 closing signal SIGTERM", 1), ("Sending process 8461 closing signal SIGTERM", 2)],
             "Third fabric.save (step 150) runs out of space on the 2 MiB ckpt tmpfs on rank 0; peers fail in the "
             "barrier and are SIGTERMed."))
J["bm-fabric-run-cli-devices3-script-written-for-python-launch-own-fabric-devices-kwarg-conflicts-with-cli-valueerror-all"] = dict(
  run="`fabric run --accelerator cpu --strategy ddp --devices 3 bm_fabric.py --launch --devices 3 --steps 300` "
      "(Lightning Fabric CLI launcher, 3 processes, gloo).",
  fault="The run command was assembled from a recipe meant for `python bm_fabric.py --launch --devices 3`: with "
        "--launch the script builds its own Fabric(accelerator=\"cpu\", strategy=\"ddp\", devices=args.devices) and "
        "calls launch(). Under the CLI, each of the 3 processes' Fabric arguments are checked against the CLI's "
        "settings; the code's devices value (1) conflicts with --devices=3 and every process raises ValueError before "
        "training. torchrun SIGTERMs the others and names local_rank 2.",
  layout="console.log: the launcher's combined console (three identical tracebacks, SIGTERM warnings, "
         "ChildFailedError summary).",
  judge="A launch/configuration conflict between the script and the CLI, identical on all processes (-> "
        "config_error, all_ranks).",
  truth=fail(None, None, "all_ranks", "config_error",
             "ValueError: Your code has `Fabric(devices=1, ...)` but it conflicts with the value `--devices=3` set through the CLI.",
             None, [("Sending process 8350 closing signal SIGTERM", None), ("Sending process 8351 closing signal SIGTERM", None)],
             "Script-side Fabric(devices=...) under `fabric run --devices 3`: Fabric refuses the conflict in every process."))
J["bm-2node-uts-torchrun-static-nnodes2-nproc2-hf-trainer-save-on-each-node-nodeb-scratch-output-dir-readonly-cn-b02"] = dict(
  run="Two \"nodes\" (UTS namespaces with hostnames cn-b01 / cn-b02), each running `torchrun --nnodes 2 --node-rank "
      "{0,1} --nproc-per-node 2 --master-addr cn-b01 --master-port 29734 --tee 3 ../bm_hf.py --output-dir scratch/out "
      "--max-steps 60 --eval-steps 20 --save-steps 20 --save-on-each-node` in its own directory; 4 ranks (0,1 on "
      "cn-b01; 2,3 on cn-b02), transformers Trainer (use_cpu, gloo).",
  fault="With save_on_each_node each node writes checkpoints to its node-local scratch/out. On cn-b02 scratch/ is a "
        "read-only bind mount (planted: the node's scratch came back read-only). At the first checkpoint (step 20) "
        "ranks 2 and 3 raise OSError [Errno 30] Read-only file system: 'scratch/out/checkpoint-20'; cn-b01's ranks "
        "lose them (Connection closed by peer) and each agent prints its own ChildFailedError summary.",
  layout="cn-b01/console.log, cn-b02/console.log: each node's torchrun console (--tee 3: [defaultN]: prefixes).",
  judge="A node-level storage problem on cn-b02 (its scratch is read-only): both ranks there fail identically, "
        "cn-b01's ranks only lose their peers (-> storage_io, kind rank, node cn-b02, rank null).",
  truth=fail(None, "cn-b02", "rank", "storage_io", "OSError: [Errno 30] Read-only file system: 'scratch/out/checkpoint-20'", None,
             [("[default1]:[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 1),
              ("[default0]:[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 0),
              ("Sending process 8529 closing signal SIGTERM", None)],
             "cn-b02's node-local checkpoint dir is read-only; ranks 2/3 fail saving checkpoint-20; cn-b01's ranks "
             "then fail with Connection closed by peer."))

if __name__ == "__main__":
    for name, j in J.items():
        d = os.path.join(OUT, name)
        assert os.path.isdir(d), name
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\n## What was run\n{j['run']}\n\nFault: {j['fault']}\n\n## Layout\n{j['layout']}\n\n"
                    f"## Judgement\n{j['judge']}\n")
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(j["truth"], f, indent=2); f.write("\n")
    print(len(J), "folders")
