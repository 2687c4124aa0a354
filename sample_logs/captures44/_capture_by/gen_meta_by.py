#!/usr/bin/env python3
"""write README.md + truth.json of every by- capture folder from J below."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
GLOO = "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer"
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
      "from model_config.json, word-level tokenizer, JSONL train/val corpus (by_hf.py); accelerate 1.16.0, which on this "
      "CPU box runs torchrun underneath with gloo")
PL = "Lightning 2.6.6 Trainer(accelerator='cpu') on a small MLP classifier over per-rank .npz shards (by_pl.py)"
DS = "DeepSpeed 0.19.8 launcher (`deepspeed --num_gpus N`, DS_ACCELERATOR=cpu, gloo) running by_ds.py (small MLP, per-rank .npz shards)"
RAY = "Ray 2.60.0 local cluster started by ray.init(num_cpus=2) in the driver (by_ray.py), torch 2.13 CPU, gloo"
J = {}
J["by-healthy-accelerate-launch-no-config-multi-gpu-flag-nproc3-hf-trainer-throughput-callback-warmup-final-eval-save-model"] = dict(
  run=f"`accelerate launch --multi_gpu --num_processes 3 by_hf.py --max-steps 60 --eval-steps 30 --warmup-steps 10 "
      f"--callbacks throughput` (no config file): {HF}. 3 ranks; a TrainerCallback logs samples/s on rank 0.",
  fault="None.",
  layout="console.log: the combined console of accelerate launch (its 'values were not passed' defaults warning, c10d "
         "hostname warnings, DDP find_unused_parameters warnings, tqdm, loss/eval dicts, throughput lines, eval metrics "
         "block, 'done' from every rank).",
  judge="60/60 steps, two evaluations, final evaluate and save_model, every rank logs 'done', exit 0 -> healthy.",
  truth=ok("healthy", "Trainer run to max_steps with evals, final eval + save, exit 0; only benign warnings."))
J["by-healthy-accelerate-launch-fsdp-cli-flags-nproc2-accelerator-cpu-true-resolves-multi-cpu-own-loop-gather-for-metrics-save"] = dict(
  run="`accelerate launch --use_fsdp --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--fsdp_sharding_strategy FULL_SHARD --fsdp_auto_wrap_policy SIZE_BASED_WRAP --fsdp_min_num_params 2000 "
      "--fsdp_state_dict_type FULL_STATE_DICT --fsdp_cpu_ram_efficient_loading false --fsdp_sync_module_states false "
      "by_acc.py --epochs 3`: own accelerate loop (MLP on per-rank .npz shards, gather_for_metrics eval each epoch, "
      "state dict saved at the end), 2 ranks, torchrun underneath. The script builds Accelerator(cpu=True), so the "
      "state resolves to MULTI_CPU (gloo DDP); the FSDP flags are accepted but not applied.",
  fault="None.",
  layout="console.log: the combined console (c10d hostname warnings, accelerate logger lines prefixed [RANK n]).",
  judge="3 epochs with val accuracy ~0.95, 'training complete', exit 0 -> healthy.",
  truth=ok("healthy", "Own accelerate loop finishes 3 epochs on 2 ranks, saves, exits 0."))
J["by-healthy-lightning-ddp-devices2-tensorboard-logger-onecycle-step-scheduler-modelcheckpoint-fit-finished"] = dict(
  run=f"`python by_pl.py --devices 2 --strategy ddp --max-epochs 4 --logger tb --sched onecycle --ckpt --progress`: {PL}; "
      "TensorBoardLogger, OneCycleLR stepped per batch, ModelCheckpoint on val_loss, rich progress bar. 2 ranks.",
  fault="None.",
  layout="console.log: the console (Lightning banner and tips, c10d warnings, pytree deprecation warnings, model "
         "summary, per-epoch val lines, progress bar, final metrics); runs/clf/version_0/hparams.yaml from the logger.",
  judge="`Trainer.fit` stopped: `max_epochs=4` reached, final metrics printed, exit 0 -> healthy.",
  truth=ok("healthy", "Lightning DDP fit to max_epochs with TensorBoard logging; only warnings."))
J["by-inconclusive-ray-train-torchtrainer-workers3-console-snapshot-mid-run"] = dict(
  run=f"`python by_ray.py --mode train --workers 3 --epochs 40 --step-sleep 0.02`: ray.train.torch.TorchTrainer, {RAY}. "
      "3 workers. The console was copied 50 s after the start (snapshot/console.log) while training was running; "
      "the job was then stopped.",
  fault="None.",
  layout="snapshot/console.log: the driver console as it was at the snapshot (Ray startup lines, TrainController / "
         "RayTrainWorker prefixed lines, training reports of the first epochs).",
  judge="The log ends mid-training with no end and no error -> inconclusive.",
  truth=ok("inconclusive", "Snapshot of a Ray Train job still running; nothing shows how it ended."))
J["by-accelerate-config-file-nproc3-hf-trainer-dynamic-pad-collator-train-record-label-exported-as-class-name-string-tensor-valueerror-r2"] = dict(
  run=f"`accelerate launch --config_file accelerate_config.yaml by_hf.py --max-steps 60 --eval-steps 30 --dynamic-pad` "
      f"(MULTI_GPU yaml, 3 processes): {HF}; DataCollatorWithPadding pads each batch. 3 ranks.",
  fault="One train record (train-00500) had its label exported as the class name \"sports\" instead of the class id "
        "(by_textprep.py --str-label 500:sports). The rank whose batch holds it (rank 2 in this run, step 9) fails in "
        "the collator's tensor conversion (TypeError new(): invalid data type 'str' -> ValueError Unable to create "
        "tensor). Ranks 0 and 1 lose the gradient allreduce (gloo Connection closed by peer) and torchrun SIGTERMs them.",
  layout="console.log: the combined console of accelerate launch ([rankN]: prefixed tracebacks, tqdm, torchrun SIGTERM "
         "lines and the ChildFailedError summary naming local_rank 2 as root cause).",
  judge="One malformed record reached one rank's batch -> data_error, kind rank, rank 2; peers' gloo errors and "
        "SIGTERMs are consequences.",
  truth=fail(2, None, "rank", "data_error", "[rank2]: TypeError: new(): invalid data type 'str'", 2,
             [("[rank0]: " + GLOO, 0), ("[rank1]: " + GLOO, 1),
              ("Sending process 8774 closing signal SIGTERM", 0), ("Sending process 8775 closing signal SIGTERM", 1)],
             "A train record with a string label reaches rank 2's collator; peers lose the allreduce and are SIGTERMed."))
J["by-accelerate-config-file-nproc4-hf-trainer-rank0-eval-history-callback-reads-eval-acc-key-metric-named-accuracy-keyerror-r0"] = dict(
  run=f"`accelerate launch --config_file accelerate_config.yaml --num_processes 4 by_hf.py --max-steps 60 --eval-steps 20 "
      f"--batch-size 8 --callbacks throughput,metrics-file`: {HF}. 4 ranks.",
  fault="The eval-history TrainerCallback (acts on the world process zero only) reads metrics[\"eval_acc\"], while "
        "compute_metrics reports \"accuracy\" (-> eval_accuracy). At the first evaluation (step 20) rank 0 raises "
        "KeyError: 'eval_acc'; ranks 1-3 continue into the next allreduce and fail with gloo Connection closed by peer; "
        "torchrun SIGTERMs them.",
  layout="console.log: the combined console of accelerate launch ([rankN]: prefixed tracebacks, tqdm, torchrun SIGTERM "
         "lines, ChildFailedError summary naming local_rank 0).",
  judge="A bug in code that only rank 0 runs -> code_exception, kind rank, rank 0; the other ranks' errors are consequences.",
  truth=fail(0, None, "rank", "code_exception", "[rank0]: KeyError: 'eval_acc'", 0,
             [("[rank1]: " + GLOO, 1), ("[rank2]: " + GLOO, 2), ("[rank3]: " + GLOO, 3),
              ("Sending process 9489 closing signal SIGTERM", 1), ("Sending process 9490 closing signal SIGTERM", 2),
              ("Sending process 9491 closing signal SIGTERM", 3)],
             "Rank-0-only callback reads a metric key that does not exist; peers lose the collective and are SIGTERMed."))
J["by-accelerate-config-file-nproc2-hf-trainer-hf-datasets-json-val-export-without-label-column-best-metric-eval-accuracy-missing-at-first-eval-keyerror-all"] = dict(
  run=f"`accelerate launch --config_file accelerate_config.yaml --num_processes 2 by_hf.py --max-steps 75 --eval-steps 25 "
      f"--hf-datasets --best-metric eval_accuracy`: {HF}; the JSONL files are loaded with datasets.load_dataset('json') "
      "and tokenized with .map; load_best_model_at_end on eval_accuracy. 2 ranks.",
  fault="val.jsonl was written by the inference exporter and has no \"label\" column (by_textprep.py --val-no-label). "
        "Training runs; the first evaluation (step 25) has no labels, so neither eval_loss nor eval_accuracy is "
        "produced, and the Trainer's best-metric bookkeeping raises KeyError (metric_for_best_model 'eval_accuracy' "
        "not found) on both ranks.",
  layout="console.log: the combined console of accelerate launch (datasets map progress, tqdm, an eval dict with only "
         "runtime fields, [rankN]: tracebacks, torchrun SIGTERM line and ChildFailedError summary).",
  judge="A missing column in the validation data breaks every rank at the same evaluation -> data_error, all_ranks.",
  truth=fail(None, None, "all_ranks", "data_error", "KeyError: 'eval_accuracy'", None,
             [("Sending process 10243 closing signal SIGTERM", 1)],
             "Validation split without labels: evaluation yields no eval_accuracy and the best-model tracking raises "
             "KeyError on both ranks at the first evaluation."))
J["by-lightning-ddp-devices4-tensorboard-logger-detect-anomaly-sgd-lr-3e1-typo-for-3e-3-weights-diverge-nan-backward-runtimeerror-all"] = dict(
  run=f"`python by_pl.py --devices 4 --strategy ddp --max-epochs 3 --logger tb --optim sgd --lr 3e1 --detect-anomaly`: "
      f"{PL}; TensorBoardLogger, Trainer(detect_anomaly=True). 4 ranks.",
  fault="The learning rate on the command line is 3e1 (a typo for 3e-3). SGD with momentum blows the weights up in the "
        "first epoch on every rank; autograd's anomaly mode reports 'Error detected in LogSoftmaxBackward0' and raises "
        "RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output on all 4 ranks.",
  layout="console.log: the console (Lightning banner, detect_anomaly warning, model summary, anomaly-mode warnings with "
         "forward tracebacks, [rankN]: tracebacks); runs/clf/version_0/hparams.yaml.",
  judge="Divergence to NaN on every rank from a bad hyperparameter -> nan_divergence, all_ranks.",
  truth=fail(None, None, "all_ranks", "nan_divergence", "UserWarning: Error detected in LogSoftmaxBackward0", None, [],
             "lr 3e1 diverges; anomaly detection raises on the NaN gradient on all ranks."))
J["by-lightning-ddp-spawn-devices3-csvlogger-onecycle-lr-scheduler-dict-interval-batch-misconfiguration-all"] = dict(
  run=f"`python by_pl.py --devices 3 --strategy ddp_spawn --max-epochs 4 --sched onecycle --sched-interval batch "
      f"--progress`: {PL}; CSVLogger, DDP-spawn. 3 ranks.",
  fault="configure_optimizers returns the OneCycleLR in an lr_scheduler dict with \"interval\": \"batch\"; Lightning "
        "accepts only \"step\" or \"epoch\" and raises MisconfigurationException when it sets up the optimizers in the "
        "spawned processes; torch.multiprocessing.spawn terminates the other processes and re-raises process 0's error.",
  layout="console.log: the console (Lightning banner, distributed init lines, SIGTERM lines from spawn, "
         "ProcessRaisedException with process 0's traceback).",
  judge="A configuration value rejected by the framework, the same in every process -> config_error, all_ranks.",
  truth=fail(None, None, "all_ranks", "config_error",
             'MisconfigurationException: The "interval" key in lr scheduler dict must be "step" or "epoch" but is "batch"',
             None, [("Terminating process 13799 via signal SIGTERM", None), ("Terminating process 13800 via signal SIGTERM", None)],
             "Lightning rejects lr_scheduler interval 'batch' at optimizer setup; spawn terminates the rest."))
J["by-deepspeed-launcher-num-gpus4-cpu-accel-zero1-ds-config-scheduler-type-warmupcosine-not-a-deepspeed-or-torch-scheduler-assertion-all"] = dict(
  run=f"`deepspeed --num_gpus 4 by_ds.py --steps 150 --rss-budget-mb 1024 --deepspeed --deepspeed_config ds_config.json`: "
      f"{DS}; ZeRO 1, AdamW. 4 ranks.",
  fault="ds_config.json names the LR scheduler \"WarmupCosine\" (DeepSpeed's class is WarmupCosineLR; torch has no such "
        "scheduler either): deepspeed.initialize raises AssertionError 'DeepSpeed does not recognize LR scheduler "
        "WarmupCosine' on every rank; the launcher kills the subprocesses.",
  layout="console.log: the DeepSpeed launcher's console (runner/launch INFO lines, shm comm op build, [rankN]: tracebacks, "
         "sigkill_handler lines).",
  judge="An unknown scheduler name in the config, refused identically by all ranks -> config_error, all_ranks.",
  truth=fail(None, None, "all_ranks", "config_error", "AssertionError: DeepSpeed does not recognize LR scheduler WarmupCosine",
             None, [("[launch.py:253:sigkill_handler] Killing subprocess", None)],
             "Unknown DeepSpeed scheduler type at initialize on all 4 ranks."))
J["by-ray-train-torchtrainer-workers2-rank1-shard-relabelled-5-class-scheme-label-4-cross-entropy-target-out-of-bounds-r1"] = dict(
  run=f"`python by_ray.py --mode train --workers 2 --epochs 4`: ray.train.torch.TorchTrainer, {RAY}. 2 workers.",
  fault="Rank 1's shard was re-labelled with a 5-class scheme (by_prep.py --extra-class-shard 1: class id 4 present) "
        "while the model head has 4 classes. cross_entropy raises IndexError: Target 4 is out of bounds on worker rank 1; "
        "the TrainController applies its failure policy (RAISE) and trainer.fit raises WorkerGroupError in the driver.",
  layout="console.log: the driver console (Ray startup, (TrainController)/(RayTrainWorker)/(PlacementGroupCleaner) "
         "prefixed lines, the rank 1 error snippet, driver traceback, deduplicated repeats).",
  judge="Labels outside the class range in one worker's data -> data_error, kind rank, rank 1.",
  truth=fail(1, None, "rank", "data_error", "IndexError: Target 4 is out of bounds.", 1, [],
             "Worker rank 1's shard holds label 4 for a 4-class head; Ray Train reports the rank 1 error and fails."))
J["by-ray-remote-actors3-driver-gloo-ddp-job-memcg-2500m-rank2-shard-reexported-200k-rows-aug-cache-40-copies-actor-oomkill-r2"] = dict(
  run=f"`python by_ray.py --mode actors --workers 3 --epochs 4 --aug-copies 40`: three ray.remote RankWorker actors "
      f"(ranks 0-2) form a gloo group and train a DDP MLP, driven by the driver; {RAY}. The whole job ran inside a "
      "memory cgroup (v1) limited to 2500 MiB, the job's memory allocation.",
  fault="Rank 2's shard was re-exported with 200 000 rows instead of 1024 (by_prep.py --rows-shard 2:200000). Building "
        "the 40-copy augmentation cache in its actor's constructor pushes the cgroup over its limit; the kernel OOM "
        "killer kills that actor process (pid 18719, SIGKILL). Ranks 0 and 1 (pids 18659, 18660), waiting in the DDP "
        "constructor's parameter check, get gloo Connection closed by peer; the driver's ray.get raises ActorDiedError.",
  layout="console.log: the driver console (Ray startup, (RankWorker pid=N) prefixed actor output, raylet worker-died "
         "line, driver ActorDiedError, actor creation-task errors); kern_oom.log: the node's kernel log (dmesg -T) of "
         "the OOM event (oom-killer invocation, memcg stats, task table, kill line).",
  judge="The kernel OOM killer killed one named process, the actor of rank 2 (pid 18719; ranks 0 and 1 print their "
        "pids) -> oom, kind rank, rank 2. The peers' gloo errors are consequences.",
  truth=fail(2, None, "rank", "oom", "ray::RankWorker invoked oom-killer", 2,
             [("Connection closed by peer [127.0.0.1]:34461", 0), ("Connection closed by peer [127.0.1.1]:45440", 1)],
             "Rank 2's actor exceeds the job memcg while caching an oversized shard and is OOM-killed; peers fail in DDP init."))

for name, m in J.items():
    d = os.path.join(OUT, name)
    assert os.path.isdir(d), name
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(f"# {name}\n\n## What was run\n{m['run']}\n\n## Fault\n{m['fault']}\n\n## Layout\n{m['layout']}\n\n"
                f"## Judgement\n{m['judge']}\n\nScript: _capture_by/{name}.sh (harness: common.sh, collect.py).\n")
    with open(os.path.join(d, "truth.json"), "w") as f:
        json.dump(m["truth"], f, indent=2); f.write("\n")
print(len(J), "folders")
