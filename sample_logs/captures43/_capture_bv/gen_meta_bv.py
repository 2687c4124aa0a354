#!/usr/bin/env python3
"""write README.md + truth.json of every bv- capture folder from J below."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CLOSED = "Connection closed by peer"
GLOO = "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED
def fail(rank, node, kind, cat, fd, fd_rank, coll, notes):
    return {"schema_version": 1, "status": "failed",
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "rank": r} for c, r in coll], "notes": notes}
def ok(status, notes):
    return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
            "first_deviating": None, "collateral": [], "notes": notes}
HF = ("transformers 5.25 Trainer (use_cpu, ddp_backend gloo) on a small random-init BertForSequenceClassification "
      "from model_config.json, word-level tokenizer, JSONL train/val corpus (bv_hf.py); accelerate 1.16.0 launch with a "
      "MULTI_GPU YAML, which on this CPU box runs torchrun underneath with gloo; one combined console")
DS = ("DeepSpeed 0.19.8 launcher (`deepspeed --num_gpus N`, DS_ACCELERATOR=cpu, gloo) running bv_ds.py (MLP on per-rank "
      ".npz shards, engine.save_checkpoint every --save-every steps); the launcher's console")
PL = "Lightning 2.6.6 Trainer(accelerator=\"cpu\") running bv_pl.py (MLP on per-rank .npz shards, CSVLogger), one console"
J = {}
J["bv-accelerate-config-file-nproc2-hf-trainer-save-steps-20-rank0-checkpoint-mirror-callback-copytree-latest-exists-fileexistserror-r0"] = dict(
  run=f"`accelerate launch --config_file accelerate_config.yaml --num_processes 2 bv_hf.py --max-steps 80 --eval-steps 20 "
      f"--save-strategy steps --save-steps 20 --mirror mirror --lr 1e-3`: {HF}. 2 ranks.",
  fault="A TrainerCallback (CheckpointMirror.on_save, world process zero only) copies every new checkpoint to "
        "mirror/latest with shutil.copytree and no dirs_exist_ok. The step-20 save creates mirror/latest (logged "
        "'mirrored ...'); at the step-40 save the directory exists and copytree raises FileExistsError on rank 0 "
        "inside the callback. Rank 1, already in the next evaluation's all_gather, fails with Connection closed by "
        "peer; torchrun SIGTERMs it and names local_rank 0 as the root cause.",
  layout="console.log: the combined console (logging lines, tqdm bars, eval dicts, [rankN]: prefixed tracebacks, "
         "torchrun SIGTERM lines and ChildFailedError summary).",
  judge="A bug in the user's own callback on rank 0 (-> code_exception, kind rank, rank 0). Rank 1's gloo error and "
        "SIGTERM are consequences.",
  truth=fail(0, None, "rank", "code_exception", "FileExistsError: [Errno 17] File exists: 'mirror/latest'", 0,
             [("[rank1]: " + GLOO, 1), ("Sending process 16837 closing signal SIGTERM", 1)],
             "Rank 0's on_save callback copytree()s into an existing mirror/latest at the second save; rank 1 loses "
             "its all_gather peer and is SIGTERMed by torchrun."))
J["bv-accelerate-config-file-nproc3-hf-trainer-load-best-model-at-end-eval-steps-vs-save-strategy-epoch-valueerror-all"] = dict(
  run=f"`accelerate launch --config_file accelerate_config.yaml --num_processes 3 bv_hf.py --max-steps 100 --eval-steps 25 "
      f"--save-strategy epoch --load-best`: {HF}. 3 ranks.",
  fault="load_best_model_at_end=True with eval_strategy \"steps\" but save_strategy \"epoch\": TrainingArguments "
        "refuses the combination with ValueError on every rank before any training (two ranks' tracebacks made it to "
        "the console before torchrun SIGTERMed the rest).",
  layout="console.log: the combined console (tracebacks, torchrun SIGTERM lines and ChildFailedError summary).",
  judge="A job-wide configuration error refused identically by each rank (-> config_error, all_ranks).",
  truth=fail(None, None, "all_ranks", "config_error",
             "ValueError: --load_best_model_at_end requires the save and eval strategy to match", None,
             [("Sending process 18003 closing signal SIGTERM", 0), ("Sending process 18004 closing signal SIGTERM", 1)],
             "TrainingArguments rejects load_best_model_at_end with eval per steps and save per epoch on all ranks."))
J["bv-accelerate-config-file-nproc4-hf-trainer-requirements-file-require-version-torch-2-14-importerror-all"] = dict(
  run=f"`accelerate launch --config_file accelerate_config.yaml --num_processes 4 bv_hf.py --requirements requirements.txt "
      f"--max-steps 60 --eval-steps 20`: {HF}. 4 ranks.",
  fault="The script checks each line of requirements.txt with transformers.utils.versions.require_version at import "
        "(as the transformers example scripts do). The recipe asks for torch>=2.14.0; the environment has "
        "2.13.0+cpu, so each rank raises ImportError before any work (three of the four tracebacks reached the "
        "console; torchrun SIGTERMed ranks 0-2 after local_rank 3 exited first).",
  layout="console.log: the combined console (tracebacks, torchrun SIGTERM lines and ChildFailedError summary).",
  judge="A version requirement refused by every rank (-> version_mismatch, all_ranks); the SIGTERMs are cleanup.",
  truth=fail(None, None, "all_ranks", "version_mismatch",
             "ImportError: torch>=2.14.0 is required for a normal functioning of this module, but found torch==2.13.0+cpu.",
             None, [("Sending process 18312 closing signal SIGTERM", 0), ("Sending process 18313 closing signal SIGTERM", 1),
                    ("Sending process 18314 closing signal SIGTERM", 2)],
             "require_version('torch>=2.14.0') fails on the installed torch 2.13.0 in every rank at import."))
J["bv-healthy-accelerate-config-file-nproc4-hf-trainer-gradient-checkpointing-warmup-eval-every-15-final-eval-save-model"] = dict(
  run=f"`accelerate launch --config_file accelerate_config.yaml --num_processes 4 bv_hf.py --requirements requirements.txt "
      f"--max-steps 60 --eval-steps 15 --warmup-steps 10 --grad-ckpt --batch-size 8 --lr 1e-3`: {HF}. 4 ranks; the "
      "requirements file (torch>=2.10) is satisfied.",
  fault="None.",
  layout="console.log: the combined console (FutureWarning about gradient_checkpointing being renamed, c10d hostname "
         "warnings, DeepSpeed accelerator warning lines, tqdm, four eval dicts, train summary, eval metrics block, "
         "'done' from all four ranks).",
  judge="Training reaches 60/60 with evaluations, final evaluation and model save, every rank logs 'done', exit 0 "
        "-> healthy; the warnings are benign.",
  truth=ok("healthy", "HF Trainer run to max_steps under accelerate with 4 ranks; only deprecation/env warnings; exit 0."))
J["bv-accelerate-launch-multi-cpu-nproc4-own-loop-rank2-shard-inf-feature-rows-nonfinite-loss-guard-floatingpointerror-r2"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 4 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "bv_acc.py --epochs 3`: accelerate 1.16.0 (torchrun underneath), own training loop with Accelerator(cpu=True) "
      "(MULTI_CPU, gloo), MLP on per-rank .npz shards, accelerate.logging lines; a non-finite-loss guard raises "
      "FloatingPointError. 4 ranks, one console.",
  fault="Rank 2's shard holds 3 rows whose feature 3 overflowed to inf at export (bv_prep.py --inf-rows 2:3). The "
        "first rank-2 batch containing one gives a NaN loss at step 44 and the guard raises on rank 2 (the message "
        "shows the batch feature range [-3.16, inf]). Ranks 1 and 3 fail in the DDP allreduce with Connection closed "
        "by peer; torchrun SIGTERMs ranks 0, 1, 3 and names local_rank 2 as the root cause.",
  layout="console.log: the combined console (logging lines, [rankN]: tracebacks, torchrun SIGTERM lines, ChildFailedError).",
  judge="Corrupt input rows in one rank's shard produce the NaN (-> data_error, kind rank, rank 2); the NaN guard's "
        "exception is the first sign. The peers' gloo errors and SIGTERMs are collateral.",
  truth=fail(2, None, "rank", "data_error",
             "FloatingPointError: non-finite loss nan at epoch 0 step 44 on process 2 (batch feature range [-3.16, inf])", 2,
             [("[rank1]: " + GLOO, 1), ("[rank3]: " + GLOO, 3), ("Sending process 22779 closing signal SIGTERM", 0),
              ("Sending process 22789 closing signal SIGTERM", 1), ("Sending process 22791 closing signal SIGTERM", 3)],
             "inf features in rank 2's shard make its loss NaN; its guard raises; the other ranks lose the allreduce."))
J["bv-lightning-ddp-devices3-rank1-shard-reexported-400k-rows-pairwise-near-duplicate-filter-numpy-arraymemoryerror-r1"] = dict(
  run=f"`python bv_pl.py --devices 3 --strategy ddp --max-epochs 3 --dedup 1e-3 --progress`: {PL}; strategy ddp "
      "(ranks 1-2 re-launched by Lightning as subprocesses). 3 ranks.",
  fault="In DataModule.setup each rank runs an exact pairwise near-duplicate filter (an n x n float64 distance "
        "matrix) on its shard. Rank 1's shard was re-exported with 400000 rows instead of 2048 (bv_prep.py "
        "--big-shard 1:400000); its matrix would need 1.16 TiB and numpy raises _ArrayMemoryError (a MemoryError) on "
        "rank 1. Ranks 0 and 2 then fail in ModelCheckpoint.setup's broadcast with Connection closed by peer.",
  layout="console.log: Lightning's console (seed, accelerator lines, tips, the ranks' filter lines and [rankN]: tracebacks).",
  judge="A host-memory allocation failure on one rank (-> oom, kind rank, rank 1); the others' gloo errors are collateral.",
  truth=fail(1, None, "rank", "oom",
             "numpy._core._exceptions._ArrayMemoryError: Unable to allocate 1.16 TiB for an array with shape (400000, 400000) and data type float64", 1,
             [("[rank0]: " + GLOO, 0), ("[rank2]: " + GLOO, 2)],
             "Rank 1's oversized shard makes its O(n^2) dedup matrix unallocatable; peers lose the broadcast."))
J["bv-lightning-ddp-spawn-devices3-dl-workers2-packed-records-rank1-index-garbage-offset-native-memmove-worker-segfault-r1"] = dict(
  run=f"`python bv_pl.py --devices 3 --strategy ddp_spawn --max-epochs 3 --packed --workers 2 --progress`: {PL}; "
      "strategy ddp_spawn (torch.multiprocessing.spawn), each rank's DataLoader with 2 persistent worker processes "
      "reading packed binary records (shard_XX.bin + shard_XX.idx) through a ctypes memmove fast path. 3 ranks.",
  fault="Rank 1's index file has one garbage offset (bv_pack.py --bad-offset 1:1500, an uninitialised slot written "
        "by the packer). The DataLoader worker of rank 1 that fetches record 1500 reads unmapped memory and dies with "
        "SIGSEGV ('ERROR: Unexpected segmentation fault encountered in worker.'); rank 1's DataLoader raises "
        "'DataLoader worker (pid ...) is killed by signal: Segmentation fault.', spawn SIGTERMs ranks 0 and 2 and "
        "reports 'Process 1 terminated with the following error'.",
  layout="console.log: Lightning's console (model summary, pytree deprecation lines, progress bars, the segfault line, "
         "spawn's SIGTERM lines, the ProcessRaisedException traceback).",
  judge="A corrupt index entry in rank 1's data crashes its DataLoader worker (-> data_error, kind rank, rank 1, as "
        "spawn's 'Process 1' names it). The SIGTERMs of ranks 0 and 2 are collateral.",
  truth=fail(1, None, "rank", "data_error", "ERROR: Unexpected segmentation fault encountered in worker.", 1,
             [("[rank: 0] Received SIGTERM: 15", 0), ("[rank: 2] Received SIGTERM: 15", 2)],
             "Garbage offset in rank 1's record index -> out-of-bounds memmove -> worker SIGSEGV -> rank 1 fails."))
J["bv-inconclusive-lightning-ddp-spawn-devices2-progress-bar-modelcheckpoint-console-snapshot-mid-run"] = dict(
  run=f"`python bv_pl.py --devices 2 --strategy ddp_spawn --max-epochs 40 --ckpt --progress --step-sleep 0.03`: {PL}; "
      "ddp_spawn, ModelCheckpoint. 2 ranks. The console was copied 40 s after the start.",
  fault="None: the snapshot was taken while the job was still training (last line: epoch 4 of 0-39 validated); the job was stopped after the "
        "copy (not part of the snapshot).",
  layout="snapshot/console.log: the console at copy time (seed, model summary, pytree deprecation lines, per-epoch val lines).",
  judge="The log stops mid-training with no error and no end -> inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running Lightning ddp_spawn job; no end, no error."))
J["bv-deepspeed-launcher-num-gpus3-cpu-accel-zero1-ds-config-reduce-bucket-size-key-typo-pydantic-extra-forbidden-all"] = dict(
  run=f"`deepspeed --num_gpus 3 bv_ds.py --steps 150 --deepspeed --deepspeed_config ds_config.json`: {DS}. ZeRO 1, 3 ranks.",
  fault="The hand-edited zero_optimization block has a misspelt key \"reduce_bucket_szie\"; DeepSpeed's ZeRO config "
        "model forbids unknown keys and deepspeed.initialize raises a pydantic ValidationError (extra_forbidden) on "
        "every rank; the launcher kills the subprocesses.",
  layout="console.log: the DeepSpeed launcher's console (launcher INFO lines, shm comm op build, [rankN]: tracebacks, "
         "sigkill_handler lines).",
  judge="A config key error refused identically by all ranks (-> config_error, all_ranks).",
  truth=fail(None, None, "all_ranks", "config_error",
             "pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedZeroConfig", None,
             [("[launch.py:253:sigkill_handler] Killing subprocess", None)],
             "Unknown ZeRO config key reduce_bucket_szie rejected by DeepSpeed's config validation on every rank."))
J["bv-deepspeed-launcher-num-gpus2-cpu-accel-zero1-save-checkpoint-every-50-ckpt-dir-on-6m-tmpfs-enospc"] = dict(
  run=f"`deepspeed --num_gpus 2 bv_ds.py --steps 200 --save-every 50 --hidden 256 --ckpt-dir checkpoints --deepspeed "
      f"--deepspeed_config ds_config.json`: {DS}. ZeRO 1, 2 ranks.",
  fault="checkpoints/ is a 6 MiB tmpfs (mounted in the job's private mount namespace; each checkpoint is ~2.2 MB: "
        "rank 0's model states plus one optimizer partition per rank). The step-50 and step-100 checkpoints fit; "
        "during the step-150 save the volume fills and both ranks' torch.save of their optimizer partition fails "
        "(basic_ios::clear: iostream error, then inline_container 'unexpected pos'); the launcher kills the job.",
  layout="console.log: the DeepSpeed launcher's console (step lines, 'saved checkpoint' lines, [rankN]: tracebacks, "
         "sigkill_handler lines).",
  judge="The shared checkpoint volume ran out of space; both ranks hit it in the same save, so no single rank is "
        "to blame (-> storage_io, all_ranks).",
  truth=fail(None, None, "all_ranks", "storage_io", "RuntimeError: basic_ios::clear: iostream error", None,
             [("[launch.py:253:sigkill_handler] Killing subprocess", None)],
             "Checkpoint directory on a 6 MiB tmpfs fills at the third save; both ranks' torch.save fail; launcher kills."))
J["bv-healthy-deepspeed-launcher-num-gpus3-cpu-accel-zero0-adam-warmup-lr-scheduler-save-checkpoint-every-60-finished"] = dict(
  run=f"`deepspeed --num_gpus 3 bv_ds.py --steps 180 --save-every 60 --hidden 128 --deepspeed --deepspeed_config "
      f"ds_config.json`: {DS}. ZeRO 0, Adam, WarmupLR, gradient accumulation 2, clipping 1.0. 3 ranks.",
  fault="None.",
  layout="console.log: the DeepSpeed launcher's console (launcher INFO, shm comm op build, c10d hostname warnings, "
         "WarmupLR 'get_lr before it has started' warnings, step lines, three 'saved checkpoint' lines, 'finished' "
         "from all ranks, 'exits successfully' for each process).",
  judge="All ranks finish 180 steps, checkpoints saved, every process exits successfully -> healthy.",
  truth=ok("healthy", "DeepSpeed ZeRO-0 run to completion on CPU with checkpoints; only benign warnings."))
J["bv-healthy-ray-remote-actors4-gloo-ddp-driver-collects-epoch-loss-final-val-accuracy-shutdown"] = dict(
  run="`python bv_ray_actors.py --workers 4 --epochs 3`: Ray 2.60.0 (local instance, ray.init(num_cpus=2)), 4 "
      "@ray.remote Trainer actors forming a gloo process group (torch 2.13 CPU, DDP MLP on per-actor shards); the "
      "driver prints per-epoch losses and the final accuracy, then ray.shutdown(). 4 ranks.",
  fault="None.",
  layout="console.log: the driver's console (Ray token-auth and local-IP warnings, the actors' forwarded and "
         "deduplicated prints '(Trainer pid=...)', c10d hostname warnings, driver lines).",
  judge="All three epochs and the final evaluation complete, exit 0 -> healthy; the warnings are benign.",
  truth=ok("healthy", "Ray actors DDP run to completion; only Ray/c10d environment warnings."))
J["bv-ray-train-torchtrainer-workers3-recipe-lr-100-sgd-momentum-0-99-loss-explodes-nan-guard-floatingpointerror-all"] = dict(
  run="`python bv_ray_train.py --workers 3 --recipe recipe.json`: Ray 2.60.0 Train TorchTrainer (3 CPU workers, gloo, "
      "prepare_model -> DDP), hyper-parameters from recipe.json, a per-worker non-finite-loss check. 3 ranks, driver console.",
  fault="recipe.json was set to lr 100.0 with SGD momentum 0.99. Training diverges within 5 steps; since DDP keeps the "
        "replicas identical, every worker's check raises FloatingPointError at step 5; Ray Train reports "
        "'[Rank 0,1,2 Error Snippet]' and the driver raises WorkerGroupError.",
  layout="console.log: the driver's console (Ray warnings, PlacementGroupCleaner/TrainController lines, worker "
         "prints, the error snippets, the driver's traceback).",
  judge="A bad hyper-parameter makes the optimisation diverge to NaN on all ranks at once (-> nan_divergence, all_ranks).",
  truth=fail(None, None, "all_ranks", "nan_divergence",
             "FloatingPointError: worker 0: loss is nan at epoch 0 step 5 (lr=100.0, momentum=0.99)", None, [],
             "lr 100 with momentum 0.99 diverges within 5 steps; all three workers' NaN checks fire; Ray Train fails the run."))

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
