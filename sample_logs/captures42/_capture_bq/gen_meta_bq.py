#!/usr/bin/env python3
"""write README.md + truth.json of every bq- capture folder from J below."""
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
HF = ("transformers 5.25 Trainer (use_cpu, ddp_backend gloo) on a small random-init BertForSequenceClassification "
      "from model_config.json, word-level tokenizer, JSONL train/val corpus; accelerate 1.16.0 with a MULTI_GPU YAML, "
      "which on this CPU box runs torchrun underneath with gloo")
DS = "DeepSpeed 0.19.8 launcher (`deepspeed --num_gpus N`, DS_ACCELERATOR=cpu, gloo) running bq_ds.py (small MLP, per-rank .npz shards)"
J = {}
J["bq-healthy-accelerate-config-file-nproc2-hf-trainer-save-steps-30-save-total-limit-final-eval-save-model"] = dict(
  run=f"`accelerate launch --config_file accelerate_config.yaml --num_processes 2 bq_hf.py --max-steps 90 --eval-steps 30 "
      f"--save-steps 30 --lr 1e-3`: {HF}. 2 ranks; checkpoint every 30 steps, final evaluate and save_model.",
  fault="None.",
  layout="console.log: the combined console of accelerate launch (tqdm bars, DDP find_unused_parameters warning, "
         "eval dicts, train summary, eval metrics block, 'done' from both ranks).",
  judge="Training reaches 90/90, final evaluation and model save, both ranks log 'done', exit 0 -> healthy.",
  truth=ok("healthy", "Trainer run to max_steps with evals and checkpoints, final eval + save, exit 0; only warnings."))
J["bq-accelerate-config-file-nproc2-hf-trainer-save-steps-30-finishes-then-rank1-terminate-called-at-exit-sigabrt-r1"] = dict(
  run=f"The same command as the healthy accelerate job (`accelerate launch --config_file accelerate_config.yaml "
      f"--num_processes 2 bq_hf.py --max-steps 90 --eval-steps 30 --save-steps 30 --lr 1e-3`): {HF}. 2 ranks. This "
      "was the first try of that job; the rerun a minute later ended cleanly.",
  fault="None planted. Both ranks finished training, evaluation and save and logged 'done'; then one process died at "
        "interpreter shutdown with the C++ runtime message 'terminate called without an active exception' (SIGABRT, "
        "exit -6). torchrun reports local_rank 1 (pid 29662) as the root cause and SIGTERMs rank 0.",
  layout="console.log: the combined console of accelerate launch (tqdm, eval dicts, metrics, 'done' x2, the terminate "
         "line, torchrun's SIGTERM/failure lines and ChildFailedError summary).",
  judge="The job exits non-zero and the launcher marks it FAILED, so it is not healthy even though the work completed. "
        "The crash is rank 1's own abort at exit (named by torchrun as the first observed failure); nothing in the "
        "data or configuration: category other, kind rank, rank 1. Rank 0's SIGTERM is only the launcher's cleanup.",
  truth=fail(1, None, "rank", "other", "terminate called without an active exception", 1,
             [("Sending process 29661 closing signal SIGTERM", 0)],
             "After both ranks logged done, rank 1 (local_rank 1, pid 29662) aborted at shutdown with std::terminate "
             "(SIGABRT); torchrun SIGTERMed rank 0 and reported the job failed."))
J["bq-accelerate-config-file-nproc3-hf-trainer-train-jsonl-null-text-record-tokenizer-valueerror-r0"] = dict(
  run=f"`accelerate launch --config_file accelerate_config.yaml bq_hf.py --max-steps 60 --eval-steps 30`: {HF}. 3 ranks.",
  fault="train.jsonl holds one record (train-00700) whose \"text\" is null (planted with bq_textprep.py --null-text 700). "
        "The dataset's __getitem__ passes it to the tokenizer; the rank whose batch contains it (rank 0 here, around "
        "step 14) raises ValueError 'You need to specify either `text` or `text_target`.'. Ranks 1 and 2 then fail in "
        "the gradient allreduce with Connection closed by peer and torchrun SIGTERMs them.",
  layout="console.log: the combined console of accelerate launch ([rankN]: prefixed tracebacks, tqdm, torchrun "
         "SIGTERM lines and ChildFailedError summary naming local_rank 0).",
  judge="One bad record in the training data hit by one rank (-> data_error, kind rank, rank 0); the peers' gloo "
        "errors and SIGTERMs are consequences.",
  truth=fail(0, None, "rank", "data_error", "ValueError: You need to specify either `text` or `text_target`.", 0,
             [("[rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 2),
              ("[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 1),
              ("Sending process 29551 closing signal SIGTERM", 1), ("Sending process 29552 closing signal SIGTERM", 2)],
             "A train record with null text reaches rank 0's tokenizer call; peers lose the allreduce and are SIGTERMed."))
J["bq-healthy-deepspeed-launcher-num-gpus2-cpu-accel-zero2-steps-per-print-finished"] = dict(
  run=f"`deepspeed --num_gpus 2 bq_ds.py --steps 150 --rss-budget-mb 1024 --deepspeed --deepspeed_config ds_config.json`: "
      f"{DS}; ZeRO stage 2, AdamW, steps_per_print 50. 2 ranks.",
  fault="None.",
  layout="console.log: the DeepSpeed launcher's console (launcher INFO lines, shm comm op build, c10d socket warnings, "
         "DeepSpeed engine info, step lines, 'finished 150 steps' from both ranks, 'exits successfully').",
  judge="Both ranks finish 150 steps and the launcher reports each process exiting successfully -> healthy.",
  truth=ok("healthy", "ZeRO-2 run to completion on CPU, both processes exit 0."))
J["bq-deepspeed-launcher-num-gpus2-cpu-accel-ds-config-train-batch-size-64-vs-micro16-x-world2-assertion-all"] = dict(
  run=f"`deepspeed --num_gpus 2 bq_ds.py --steps 150 --deepspeed --deepspeed_config ds_config.json`: {DS}; ZeRO 1. 2 ranks.",
  fault="ds_config.json copied from a 4-GPU run: train_batch_size 64, train_micro_batch_size_per_gpu 16, "
        "gradient_accumulation_steps 1. With world size 2 the product is 32, and deepspeed.initialize's batch "
        "assertion fails on both ranks; the launcher kills the subprocesses.",
  layout="console.log: the DeepSpeed launcher's console ([rankN]: tracebacks, launcher sigkill_handler lines).",
  judge="A configuration that does not fit the world size, refused identically by every rank (-> config_error, all_ranks).",
  truth=fail(None, None, "all_ranks", "config_error",
             "AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size 64 != 16 * 1 * 2",
             None, [("[launch.py:253:sigkill_handler] Killing subprocess", None)],
             "DeepSpeed batch-size arithmetic 64 != 16*1*2 on both ranks at initialize."))
J["bq-deepspeed-launcher-num-gpus3-cpu-accel-zero1-rank1-shard-reexported-float64-linear-dtype-runtimeerror-r1"] = dict(
  run=f"`deepspeed --num_gpus 3 bq_ds.py --steps 150 --deepspeed --deepspeed_config ds_config.json`: {DS}; ZeRO 1. 3 ranks.",
  fault="Rank 1's shard was re-exported with float64 features (bq_prep.py --f64-shard 1); bq_ds.py uses the arrays as "
        "stored, so rank 1's first forward raises 'mat1 and mat2 must have the same dtype, but got Double and Float'. "
        "Ranks 0 and 2 fail in the ZeRO gradient allreduce with Connection closed by peer; the launcher kills all.",
  layout="console.log: the DeepSpeed launcher's console ([rankN]: tracebacks, launcher sigkill_handler lines).",
  judge="One rank's input shard has the wrong dtype (-> data_error, kind rank, rank 1); peers' gloo errors are collateral.",
  truth=fail(1, None, "rank", "data_error", "RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float", 1,
             [("[rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 2),
              ("[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 0)],
             "float64 shard on rank 1 hits the float32 Linear; the other ranks lose their allreduce peer."))
J["bq-mpirun-np3-tag-output-mpi4py-ddp-batchnorm-rank2-shard-2049-rows-last-batch-size-1-valueerror-r2"] = dict(
  run="`mpirun --oversubscribe -np 3 --tag-output python bq_ddp.py --mpi --epochs 2 --bn --log-every 16` (Open MPI "
      "4.1.4, mpi4py 4.1.2 for rank/size, DDP over gloo, Python logging). Model with BatchNorm1d; each rank walks "
      "its shard in order in batches of 32 and keeps the last partial batch. 3 ranks.",
  fault="Rank 2's shard has 2049 rows (bq_prep.py --rows-shard 2:2049; its startup lines say 2049 rows, 65 batches), "
        "so its 65th batch holds one row and BatchNorm1d raises 'Expected more than 1 value per channel when "
        "training'. Ranks 0 and 1 (already in the next epoch's first step) fail in the allreduce with Connection closed "
        "by peer; mpirun aborts the job naming process [[...,1],2].",
  layout="console.log: mpirun's console with --tag-output ([1,R]<stdout>/<stderr>: prefixes), the ranks' logging lines "
         "and tracebacks, mpirun's abort banners.",
  judge="A shard-size quirk on one rank meeting BatchNorm's batch>1 requirement (-> data_error, kind rank, rank 2).",
  truth=fail(2, None, "rank", "data_error",
             "ValueError: Expected more than 1 value per channel when training, got input size torch.Size([1, 64])", 2,
             [("[1,0]<stderr>:[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 0),
              ("[1,1]<stderr>:[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] " + CLOSED, 1)],
             "Rank 2's 2049-row shard leaves a 1-row last batch; BatchNorm1d refuses it; peers lose the allreduce."))
J["bq-lightning-ddp-devices2-manual-optimization-with-gradient-clip-val-misconfiguration-all"] = dict(
  run="`python bq_pl.py --devices 2 --strategy ddp --max-epochs 3 --manual-opt --clip 1.0 --progress`: Lightning 2.6.6 "
      "Trainer(accelerator=\"cpu\", devices=2, strategy=\"ddp\", gradient_clip_val=1.0), one combined console.",
  fault="The LightningModule was switched to manual optimization (automatic_optimization = False) while the Trainer "
        "still sets gradient_clip_val=1.0; Lightning's configuration validator raises MisconfigurationException on "
        "both ranks at fit start.",
  layout="console.log: Lightning's console (seed, accelerator lines, tips, the two ranks' tracebacks).",
  judge="An incompatible Trainer/module configuration refused identically by both ranks (-> config_error, all_ranks).",
  truth=fail(None, None, "all_ranks", "config_error",
             "MisconfigurationException: Automatic gradient clipping is not supported for manual optimization.", None, [],
             "gradient_clip_val with manual optimization is rejected by Lightning on every rank before training."))
J["bq-inconclusive-lightning-ddp-devices3-progress-bar-console-snapshot-mid-run"] = dict(
  run="`python bq_pl.py --devices 3 --strategy ddp --max-epochs 30 --progress --ckpt --step-sleep 0.03`: Lightning "
      "2.6.6 DDP on CPU, 3 ranks, ModelCheckpoint, one console. The console was copied 45 s after the start.",
  fault="None: the snapshot was taken while the job was still training (around epoch 15 of 30); the job was stopped "
        "after the copy (the stop is not in the snapshot).",
  layout="snapshot/console.log: the console as it stood at copy time (model summary, warnings, per-epoch val lines).",
  judge="The log just stops mid-training with no error and no end -> inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running Lightning DDP job; no end, no error."))

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
