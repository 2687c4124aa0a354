#!/usr/bin/env python3
"""write README.md + truth.json of every bi- capture folder from JOBS below."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CLOSED = "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer"
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
J["bi-accelerate-cpu-nproc3-tqdm-custom-collate-torch-stack-rank2-one-31-token-window-stack-size-runtimeerror-r2"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "bi_acc.py --epochs 2 --batch-size 16` (accelerate 1.16.0 -> torchrun underneath, CPU, gloo), 3 ranks; a "
      "bag-of-tokens classifier, each rank reads its own JSONL file of 32-token windows through a DataLoader whose "
      "custom collate_fn torch.stack()s the windows; tqdm on the main process, accelerate.logging to stdout.",
  fault="Rank 2's data file holds one window (row 517) that is 31 tokens long (planted: a tokenizer edge case at a "
        "document end). The batch holding it makes the collate_fn's torch.stack raise RuntimeError on rank 2 in epoch "
        "0 (step ~10); ranks 0 and 1 lose it in the gradient allreduce (Connection closed by peer) and torchrun "
        "SIGTERMs them.",
  layout="console.log: the launcher's combined console (every rank's logging lines, the tqdm bar, [rankN]: "
         "tracebacks, torchrun's SIGTERM warnings and ChildFailedError summary).",
  judge="A malformed record in one rank's data breaks that rank's collate_fn: a data error started by rank 2 (-> "
        "data_error, rank 2). The peers' 'Connection closed by peer' errors and the SIGTERMs are consequences.",
  truth=fail(2, None, "rank", "data_error",
             "RuntimeError: stack expects each tensor to be equal size, but got [31] at entry 0 and [32] at entry 1", 2,
             [("[rank0]: " + CLOSED, 0), ("[rank1]: " + CLOSED, 1),
              ("Sending process 29572 closing signal SIGTERM", 0), ("Sending process 29573 closing signal SIGTERM", 1)],
             "Rank 2's file has one 31-token window; its collate_fn's torch.stack raises; ranks 0/1 then fail in the "
             "allreduce with Connection closed by peer and are SIGTERMed; torchrun's root cause is rank 2."))
J["bi-lightning-ddp-devices3-rank-zero-metrics-history-callback-epoch-end-json-dump-tensor-not-serializable-typeerror-r0"] = dict(
  run="`python bi_pl.py --devices 3 --strategy ddp --max-epochs 3 --history metrics_history.json`: Lightning 2.6.6 "
      "Trainer(accelerator=\"cpu\", devices=3, strategy=\"ddp\") (Lightning's subprocess script launcher starts ranks "
      "1 and 2), no progress bar, CSVLogger, one combined console.",
  fault="No planted data fault: a code bug in a custom callback. MetricsHistory.on_train_epoch_end is "
        "@rank_zero_only and json.dump()s trainer.callback_metrics, whose values are tensors; at the end of epoch 0 "
        "rank 0 raises TypeError 'Object of type Tensor is not JSON serializable'. Ranks 1 and 2 go on into "
        "ModelCheckpoint's barrier and lose rank 0 (Connection closed by peer).",
  layout="console.log: the combined console of the 3 ranks (Lightning banners, warnings, the rank0/rank1/rank2 "
         "tracebacks).",
  judge="An exception in rank 0's own callback code (-> code_exception, rank 0); the other ranks' gloo errors in the "
        "checkpoint callback's barrier are consequences.",
  truth=fail(0, None, "rank", "code_exception", "TypeError: Object of type Tensor is not JSON serializable", 0,
             [("[rank1]: " + CLOSED, 1), ("[rank2]: " + CLOSED, 2)],
             "Rank-zero-only MetricsHistory callback json.dumps tensor metrics at epoch end and raises TypeError on "
             "rank 0; ranks 1/2 then fail in ModelCheckpoint's barrier with Connection closed by peer."))
J["bi-lightning-ddp-spawn-devices2-datamodule-jitter-augment-local-lambda-transform-cant-pickle-spawn-attributeerror-all"] = dict(
  run="`python bi_pl.py --devices 2 --strategy ddp_spawn --max-epochs 3 --augment jitter --progress`: Lightning "
      "Trainer(accelerator=\"cpu\", devices=2, strategy=\"ddp_spawn\"), progress bar, CSVLogger, one console.",
  fault="--augment jitter makes the LightningDataModule hold its train-time transform as a local lambda. ddp_spawn "
        "starts its 2 workers with the multiprocessing 'spawn' method and must pickle the trainer/module/datamodule; "
        "pickling the lambda fails in the parent before any rank starts (AttributeError: Can't pickle local object).",
  layout="console.log: the single console of the launching process (Lightning banners, the parent's traceback).",
  judge="A deterministic job-wide failure of the code under the chosen strategy: no rank ever started, nothing "
        "rank-specific (-> code_exception, all_ranks).",
  truth=fail(None, None, "all_ranks", "code_exception",
             "AttributeError: Can't pickle local object 'ShardData.__init__.<locals>.<lambda>'", None, [],
             "ddp_spawn cannot pickle the datamodule's local lambda transform; the parent fails in process.start() "
             "before any worker runs."))
J["bi-torchrun-nproc2-hf-trainer-eval-steps-30-model-config-output-hidden-states-compute-metrics-tuple-argmax-attributeerror-all"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 bi_hf.py --max-steps 90 --eval-steps 30`: transformers 5.25 Trainer "
      "(use_cpu, ddp_backend gloo) on a tiny random-init BertForSequenceClassification built from model_config.json, "
      "evaluation every 30 steps with compute_metrics doing eval_pred.predictions.argmax(-1); 2 ranks, one console.",
  fault="The model_config.json (copied from an analysis notebook) has \"output_hidden_states\": true, so the model "
        "returns (logits, hidden_states) and the Trainer hands compute_metrics a tuple of predictions. At the first "
        "evaluation (step 30) both ranks raise AttributeError: 'tuple' object has no attribute 'argmax'; rank 0 then "
        "aborts ('terminate called without an active exception', SIGABRT) and torchrun names it as root cause.",
  layout="console.log: torchrun's console (tqdm bars, Trainer log dicts, both ranks' tracebacks, the agent's SIGTERM "
         "warning and ChildFailedError summary).",
  judge="A configuration setting that makes every rank fail identically at the first evaluation: a job-wide config "
        "error (-> config_error, all_ranks). Rank 0's SIGABRT and the SIGTERM of rank 1 are consequences.",
  truth=fail(None, None, "all_ranks", "config_error", "AttributeError: 'tuple' object has no attribute 'argmax'", None,
             [("terminate called without an active exception", None),
              ("Sending process 31729 closing signal SIGTERM", 1), ("exitcode  : -6 (pid: 31728)  (SIGABRT)", 0)],
             "output_hidden_states=true in the model config turns predictions into a tuple; compute_metrics' "
             ".argmax fails on both ranks at the step-30 evaluation."))
J["bi-healthy-torchrun-nproc3-tee3-logdir-hf-trainer-tiny-bert-eval-every-30-final-eval-save-model"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --tee 3 --log-dir logs bi_hf.py --max-steps 90 --eval-steps 30`: "
      "transformers Trainer (use_cpu, gloo) on a tiny random-init BERT classifier, 3 ranks, evaluation every 30 "
      "steps, a final evaluate() and save_model().",
  fault="None.",
  layout="console.log: torchrun's console (--tee 3: every line prefixed [defaultN]:); logs/<run id>/attempt_0/"
         "{0,1,2}/{stdout,stderr}.log: torchrun's per-rank copies.",
  judge="Ran to the end (train_runtime summary, final eval metrics, model shards written, exit 0) with only warnings "
        "(DeepSpeed accelerator detection, DDP find_unused_parameters) -> healthy.",
  truth=ok("healthy", "90 steps, three evaluations, final eval and save_model; torchrun exit 0; only warnings."))
J["bi-deepspeed-launcher-num-gpus3-cpu-accel-zero2-resume-checkpoint-saved-by-2-ranks-dp-world-size-mismatch-all"] = dict(
  run="An earlier run `deepspeed --num_gpus 2 bi_ds.py --steps 60 --save-every 60 --deepspeed --deepspeed_config "
      "ds_config.json` (earlier_run.log) wrote checkpoints/global_step60; the job then is `deepspeed --num_gpus 3 "
      "bi_ds.py --steps 120 --resume ...`. DeepSpeed 0.19.8 launcher, DS_ACCELERATOR=cpu, gloo, ZeRO stage 2, "
      "AdamW; 3 ranks.",
  fault="The ZeRO-2 checkpoint was written by 2 data-parallel ranks and is resumed with 3: every rank's "
        "engine.load_checkpoint raises ZeRORuntimeException (DP world size 2 vs 3); the launcher kills the "
        "subprocesses.",
  layout="earlier_run.log: the console of the earlier 2-rank run that wrote the checkpoint; console.log: the "
         "launcher's combined console of the resumed 3-rank job.",
  judge="A resume with a world size the checkpoint does not support: a job-wide configuration error that every rank "
        "hits identically (-> config_error, all_ranks); the launcher's kills and its ERROR line naming local_rank=2 "
        "are consequences.",
  truth=fail(None, None, "all_ranks", "config_error",
             "ZeRORuntimeException: The checkpoint being loaded used a DP world size of 2 but the current world size is 3.", None,
             [("Killing subprocess 5942", None), ("Killing subprocess 5943", None), ("Killing subprocess 5944", None),
              ("exits with return code = 1", None)],
             "ZeRO-2 checkpoint from 2 ranks resumed on 3: every rank's load_checkpoint refuses the optimizer "
             "partitioning."))
J["bi-mpirun-np3-tag-output-mpi4py-rank0-sqlite-metrics-backend-exporter-holds-read-txn-database-is-locked-r0"] = dict(
  run="`mpirun --allow-run-as-root --oversubscribe -np 3 --tag-output -x MASTER_ADDR -x MASTER_PORT ... python "
      "bi_ddp.py --mpi --steps 600 --log-every 20 --metrics-db metrics.db` (Open MPI 4.1.4, rank/size from mpi4py, "
      "DDP over gloo, Python logging; only rank 0 logs step lines), 3 ranks. Beside it a metrics exporter sidecar "
      "(bi_exporter.py, its own exporter.log).",
  fault="Rank 0 writes its scalars to a sqlite metrics db (busy timeout 2 s) every 20 steps. The exporter snapshots "
        "the db inside a read transaction and streams the rows slowly to its spool; while it holds the shared lock, "
        "rank 0's commit waits 2 s and raises sqlite3.OperationalError: database is locked (after step 120). Ranks 1 "
        "and 2 lose rank 0 in the allreduce; mpirun aborts the job and names rank 2 as first non-zero exit.",
  layout="console.log: mpirun's console (--tag-output: [1,N]<stdout>/<stderr>: prefixes, tracebacks, mpirun's abort "
         "banners); exporter.log: the exporter sidecar's own lines.",
  judge="Rank 0's metrics backend (a file-backed sqlite store) could not be written: a storage/IO failure started by "
        "rank 0 (-> storage_io, rank 0). The peers' Connection closed errors and mpirun pointing at rank 2 are "
        "consequences.",
  truth=fail(0, None, "rank", "storage_io", "sqlite3.OperationalError: database is locked", 0,
             [("[1,1]<stderr>:[rank1]: " + CLOSED, 1), ("[1,2]<stderr>:[rank2]: " + CLOSED, 2),
              ("Process name: [[38021,1],2]", 2)],
             "Rank 0's sqlite metrics commit times out while the exporter holds a read transaction; rank 0 raises, "
             "ranks 1/2 fail with Connection closed by peer; mpirun names rank 2."))
J["bi-srun-label-wrapper-ntasks4-rank0-ckpt-save-config-object-holds-open-metrics-csv-cannot-pickle-textiowrapper-r0"] = dict(
  run="`./bi_srunlike.sh -n 4 --label -- python bi_ddp.py --slurm --style print --steps 400 --ckpt-every 100 "
      "--metrics-file metrics.csv` with SLURM_JOB_ID=418822: a real wrapper script standing in for `srun --label` "
      "(sets SLURM_PROCID/SLURM_NTASKS per task, merges each task's output prefixed '<task>: ', prints srun-style "
      "error lines and kills the remaining tasks once one fails). 4 ranks, DDP over gloo, print-style logs from "
      "every rank.",
  fault="Rank 0 keeps the open metrics.csv file object on the run's Config object; every 100 steps rank 0 "
        "torch.save()s {model, optim, config}, and pickling the Config's file object fails at the first checkpoint "
        "(step 100): TypeError: cannot pickle '_io.TextIOWrapper' object. Ranks 1 and 3 lose rank 0 in the next "
        "allreduce (Connection closed by peer); the wrapper then terminates the step.",
  layout="console.log: the wrapper's merged console (task-prefixed lines, [rankN]: tracebacks, the wrapper's "
         "'srun: error: ... task N: Exited with exit code' lines and bash's 'Terminated' notices).",
  judge="A checkpoint-save bug in rank 0's own code (-> code_exception, rank 0); the peers' gloo errors and the "
        "wrapper's kills (exit 143) are consequences.",
  truth=fail(0, None, "rank", "code_exception", "TypeError: cannot pickle '_io.TextIOWrapper' object", 0,
             [("1: [rank1]: " + CLOSED, 1), ("3: [rank3]: " + CLOSED, 3),
              ("task 1: Exited with exit code 143", 1), ("task 2: Exited with exit code 143", 2),
              ("task 3: Exited with exit code 143", 3)],
             "Rank 0's torch.save of a checkpoint dict holding a Config with an open file object raises TypeError at "
             "step 100; peers fail with Connection closed by peer and are terminated by the wrapper."))
J["bi-spawn-nprocs4-logging-console-local-val-early-stopping-rank2-noisy-val-split-returns-exit-0-peers-conn-closed-r2"] = dict(
  run="`python bi_ddp.py --nprocs 4 --steps 400 --eval-every 25 --val-file 'data/val_{rank}.npz' "
      "--early-stop-patience 3` = torch.multiprocessing.spawn(nprocs=4), DDP over gloo, Python logging on the "
      "console (rank 0 logs step lines, every rank its eval lines).",
  fault="Each rank evaluates on its own validation split every 25 steps and applies early stopping (patience 3) on "
        "its local val loss; the decision is not synchronised across ranks. Rank 2's validation split has scrambled "
        "labels (planted), its val loss never improves, and at step 100 rank 2 logs 'early stopping' and returns from "
        "the training function (exit 0) while ranks 0, 1, 3 continue into the next allreduce and fail with Connection "
        "closed by peer; spawn reports process 3's error and SIGTERMs the others.",
  layout="console.log: the spawn parent's console (every rank's logging lines, spawn's SIGTERM warnings, process 3's "
         "traceback).",
  judge="Rank 2 leaves the collective sequence early (a clean exit 0) while its peers go on: a collective mismatch "
        "started by rank 2 (-> collective_mismatch, rank 2). The peers' gloo errors and spawn's blame of process 3 "
        "are consequences.",
  truth=fail(2, None, "rank", "collective_mismatch",
             "early stopping at step 100: val_loss has not improved for 3 evals (best 1.3996)", 2,
             [(CLOSED, 3), ("-- Process 3 terminated with the following error:", 3),
              ("Terminating process 9767 via signal SIGTERM", 0), ("Terminating process 9774 via signal SIGTERM", 1)],
             "Unsynchronised early stopping on rank 2 (scrambled local val labels) makes it return with exit 0 at "
             "step 100; ranks 0/1/3 then fail in the next allreduce; spawn shows process 3."))
J["bi-2node-uts-torchrun-static-nnodes2-nproc2-tee3-node-consoles-nodeb-stagein-empty-val-split-eval-zerodivision-cn-a02"] = dict(
  run="Two \"nodes\" (UTS namespaces with hostnames cn-a01 / cn-a02), each running `torchrun --nnodes 2 --node-rank "
      "{0,1} --nproc-per-node 2 --master-addr cn-a01 --master-port 29688 --tee 3 ../bi_ddp.py --data data "
      "--eval-every 50 --val-file data/val.npz` in its own directory; 4 ranks (0,1 on cn-a01; 2,3 on cn-a02), DDP "
      "over gloo, Python logging (rank 0 logs step lines).",
  fault="Each node evaluates on its node-local copy of the validation split. The stage-in on cn-a02 left an empty "
        "val.npz (0 rows; planted), so both ranks on cn-a02 raise ZeroDivisionError in their first evaluation (step "
        "50). The cn-a01 ranks lose them in the next allreduce (Connection closed by peer); each torchrun agent "
        "SIGTERMs its other worker and prints its own ChildFailedError summary.",
  layout="cn-a01/console.log, cn-a02/console.log: each node's torchrun console (--tee 3: [defaultN]: prefixes).",
  judge="Node-local data on cn-a02 is bad (empty val split after stage-in): both ranks there fail identically, the "
        "cn-a01 ranks only lose their peers. A node-level data error (-> data_error, kind rank, node cn-a02, rank "
        "null).",
  truth=fail(None, "cn-a02", "rank", "data_error", "ZeroDivisionError: float division by zero", None,
             [("[default1]:[rank1]: " + CLOSED, 1), ("[default0]:[rank0]: " + CLOSED, 0),
              ("Sending process 11510 closing signal SIGTERM", 3), ("Sending process 11507 closing signal SIGTERM", 0)],
             "cn-a02's node-local val.npz is empty; ranks 2 and 3 divide by zero in the step-50 evaluation; cn-a01's "
             "ranks then fail with Connection closed by peer."))
J["bi-healthy-mpirun-np8-output-filename-mpi4py-ddp-gloo-rank0-step-lines-final-allreduce-barrier"] = dict(
  run="`mpirun --allow-run-as-root --oversubscribe -np 8 --output-filename mpilogs -x MASTER_ADDR -x MASTER_PORT ... "
      "python bi_ddp.py --mpi --steps 150 --log-every 25` (Open MPI 4.1.4, rank/size from mpi4py, DDP over gloo, "
      "Python logging), 8 ranks.",
  fault="None.",
  layout="console.log: mpirun's console; mpilogs/1/rank.N/{stdout,stderr}: Open MPI's per-rank files.",
  judge="All 8 ranks log 'training done' after the final allreduce, exit 0 -> healthy.",
  truth=ok("healthy", "150 steps on 8 ranks, final allreduce and barrier, every rank logs training done; mpirun exit 0."))
J["bi-healthy-lightning-ddp-spawn-devices2-progress-bar-modelcheckpoint-top2-last-csvlogger-max-epochs3"] = dict(
  run="`python bi_pl.py --devices 2 --strategy ddp_spawn --max-epochs 3 --ckpt --progress`: Lightning "
      "Trainer(accelerator=\"cpu\", devices=2, strategy=\"ddp_spawn\"), progress bar, CSVLogger, "
      "ModelCheckpoint(monitor val_acc, top 2 + last).",
  fault="None.",
  layout="console.log: the combined console; runs/clf/version_0/metrics.csv: the CSVLogger's metrics file.",
  judge="'`Trainer.fit` stopped: `max_epochs=3` reached.' and the final metrics line, exit 0, only deprecation "
        "warnings -> healthy.",
  truth=ok("healthy", "3 epochs with ddp_spawn on 2 processes, checkpoints and metrics written, fit stopped at "
                      "max_epochs; only warnings."))
J["bi-inconclusive-deepspeed-launcher-num-gpus2-cpu-accel-zero1-console-snapshot-mid-run"] = dict(
  run="`deepspeed --num_gpus 2 bi_ds.py --steps 3000 --save-every 500 --deepspeed --deepspeed_config ds_config.json` "
      "(DS_ACCELERATOR=cpu, gloo, ZeRO stage 1), 2 ranks.",
  fault="None planted: the console was copied ~30 s into the run while the job was still training (it was stopped "
        "afterwards; that part is not in the capture).",
  layout="snapshot/console.log: the launcher's combined console as it was at the snapshot.",
  judge="The log just stops mid-training (step 1140 of 3000) with no error and no end -> inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running DeepSpeed job: step lines up to 1140/3000, no error, no end."))

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
