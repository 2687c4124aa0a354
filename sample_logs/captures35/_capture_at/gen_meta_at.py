#!/usr/bin/env python3
"""write README.md + truth.json of every at- capture folder from JOBS below."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("torch 2.13.0+cpu (gloo), Python 3.11, run in a private network namespace (loopback only), private mount "
       "namespace and UTS namespace (hostname trn-01, or trn-a / trn-b for the two-node jobs) from a clean environment")
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
JOBS["at-torchrun-nproc3-redirects3-logdir-persistent-dl-workers-rank1-truncated-rec-shard-short-read-reshape-r1"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs at_train.py --data data --loader rec "
      "--workers 2 --persistent-workers --no-shuffle --epochs 3 --pg-timeout 60`, 3 ranks, DDP, logging module.",
  fault="Each rank reads fixed-size float32 records (16 features + label) from shard_XX.rec with seek/read inside a "
        "DataLoader (2 workers, persistent_workers=True). Rank 1's .rec file was cut short (truncate to 250 records + "
        "36 bytes, as by an interrupted copy) while its .idx still says 256 rows. In the last batch of epoch 0 a worker "
        "reads the partial record 250 (9 floats) and np.reshape(17) raises ValueError inside the DataLoader worker; the "
        "DataLoader re-raises it in rank 1 ('Caught ValueError in DataLoader worker process 1'). Ranks 0 and 2, in the "
        "DDP gradient allreduce of that step, get 'Connection closed by peer'; the agent SIGTERMs them.",
  layout="console.log: torchrun's console (agent only: --redirects 3 without --tee; the error summary); "
         "logs/<run id>/attempt_0/<local rank>/stdout.log + stderr.log: the workers' output (--log-dir tree).",
  judge="Rank 1's loader hits a short record in its own shard file (the data), before anything else goes wrong; the "
        "peers' closed connections and SIGTERMs follow. Truncated data file -> data_error, rank 1.",
  truth=fail(1, None, "rank", "data_error", "ValueError: cannot reshape array of size 9 into shape (17,)", 1,
             [("Connection closed by peer [127.0.1.1]:41357", 0), ("Connection closed by peer [127.0.1.1]:41357", 2),
              ("Sending process 550 closing signal SIGTERM", None)],
             "Rank 1's shard_01.rec is truncated mid-record (idx says 256 rows, file holds 250 and 9 floats): a "
             "persistent DataLoader worker's short read cannot be reshaped to a 17-float record and the ValueError is "
             "re-raised in rank 1; ranks 0 and 2 lose their peer in the allreduce and are SIGTERMed."))
JOBS["at-spawn-nprocs8-fp16-grad-allreduce-loss-scale-rank5-raw-unit-column-inf-grad-check-raises-r5"] = dict(
  run="`python at_train.py --data data --nprocs 8 --epochs 2 --grad-sync fp16-allreduce --loss-scale 1024 "
      "--pg-timeout 60 --step-sleep 0.02` = torch.multiprocessing.spawn(nprocs=8), logging module to one console.",
  fault="The trainer syncs gradients itself: (loss * 1024).backward(), gradients flattened and cast to float16 for the "
        "allreduce, with its own guard (any inf/nan in the fp16 buffer raises FloatingPointError). Rank 5's shard has "
        "column 3 left in raw sensor units (~4200 instead of standardised): its scaled input-layer gradients exceed the "
        "float16 range -> 179 inf elements at its first step; the guard raises on rank 5 (logged by the trainer's "
        "exception handler). Its peers, already in the fp16 allreduce, get Connection closed by peer; mp.spawn "
        "terminates the rest and reports process 5's error.",
  layout="console.log: stdout+stderr of the spawn parent (all eight ranks' log lines, exception logs, the spawn "
         "traceback).",
  judge="Only rank 5 produces non-finite gradients (from its unnormalised input column under loss scaling); the "
        "others fail only because rank 5 left the allreduce. Non-finite values detected and raised: nan_divergence, "
        "rank 5.",
  truth=fail(5, None, "rank", "nan_divergence",
             "FloatingPointError: non-finite gradient on rank 5 at epoch 0 step 0", 5,
             [("rank 4: training failed", 4), ("rank 6: training failed", 6),
              ("Connection closed by peer [127.0.1.1]:14762", None),
              ("Terminating process 30879 via signal SIGTERM", None)],
             "Rank 5's scaled gradients overflow float16 (raw-unit feature column in its shard) and the trainer's own "
             "inf/nan guard raises FloatingPointError there; ranks 4 and 6 then see Connection closed by peer in the "
             "fp16 allreduce and mp.spawn terminates the others; spawn reports process 5."))
JOBS["at-2node-uts-mnt-torchrun-c10d-per-host-dirs-rankfiles-nodeb-ckpt-scratch-readonly-remount-save-fails-node-b"] = dict(
  run="Two \"nodes\" (UTS + mount namespaces, hostnames trn-a / trn-b), each `torchrun --nnodes 2 --nproc-per-node 2 "
      "--rdzv-backend c10d --rdzv-endpoint trn-a:29731 --rdzv-id ckpt-run-88 at_train.py --data data --epochs 3 --ckpt "
      "<host>/ckpt --ckpt-mb 8 --log-dir <host>/ranklogs --pg-timeout 30`, 4 ranks (0-1 on trn-a, 2-3 on trn-b).",
  fault="Each node checkpoints to its node-local scratch <host>/ckpt (rank 0 the model, every rank its optimizer / RNG "
        "state). On trn-b the scratch is read-only (bind mount remounted ro in trn-b's mount namespace, as after a "
        "filesystem error). At the end of epoch 0 torch.save fails on ranks 2 and 3 ('open file failed with strerror: "
        "Read-only file system'); trn-b's agent stops; ranks 0 and 1 (whose saves succeeded) fail in the next "
        "allreduce with Connection closed by peer.",
  layout="One directory per node named after the host: trn-a/torchrun.log, trn-b/torchrun.log (each agent's console, "
         "workers' output included) and trn-a/ranklogs/rank0.log, rank1.log, trn-b/ranklogs/rank2.log, rank3.log (the "
         "trainer's per-rank log files).",
  judge="Both ranks of trn-b, and only they, fail writing to trn-b's node-local checkpoint directory; trn-a's ranks "
        "saved fine and fail only after losing their peers. Node-level storage fault on trn-b -> storage_io, node trn-b.",
  truth=fail(None, "trn-b", "rank", "storage_io",
             "open file failed with strerror: Read-only file system", 2,
             [("Connection closed by peer [127.0.0.1]:41608", 0), ("Connection closed by peer [127.0.0.1]:12445", 1),
              ("Sending process 901 closing signal SIGTERM", None)],
             "trn-b's checkpoint scratch is read-only: torch.save of ranks 2 and 3 fails at the end of epoch 0; "
             "ranks 0 and 1 on trn-a (their saves succeeded) then lose their peers in the next allreduce. Machine-level "
             "storage cause on node trn-b."))
JOBS["at-2node-uts-torchrun-static-combined-console-host-prefix-nodeb-stale-model-yaml-hidden-ddp-param-shape-mismatch-node-b"] = dict(
  run="Two \"nodes\" (UTS namespaces trn-a / trn-b), static rendezvous: `torchrun --nnodes 2 --node-rank {0,1} "
      "--nproc-per-node 2 --master-addr trn-a --master-port 29741 ../at_train.py --data ../data --config "
      "conf/model.yaml --epochs 3 --log-style print --pg-timeout 30`, run from each node's directory; 4 ranks.",
  fault="Each node reads the model config from its node-local copy conf/model.yaml; trn-b's copy is stale (hidden: "
        "128; the current config, on trn-a, says hidden: 96). DDP's constructor compares parameter shapes across "
        "ranks: ranks 2 and 3 raise RuntimeError (params[0] with sizes [128, 16] appears not to match ... process 0); "
        "ranks 0 and 1, already in DDP's initial parameter broadcast, get Connection closed by peer.",
  layout="console.log: ONE console with both agents' output, each line prefixed with the host name ('trn-a: ', "
         "'trn-b: ', like pdsh / clush -L).",
  judge="Ranks 2 and 3 log hidden=128 from trn-b's config while ranks 0 and 1 log hidden=96; DDP's shape check fails "
        "on trn-b's ranks and trn-a's ranks only lose their peers. Stale config file on node trn-b -> config_error, "
        "node trn-b.",
  truth=fail(None, "trn-b", "rank", "config_error", "/trn-b/conf/model.yaml: hidden=128 depth=2", 3,
             [("Connection closed by peer [127.0.0.1]:44230", 0), ("Connection closed by peer [127.0.0.1]:56553", 1)],
             "trn-b's node-local conf/model.yaml is stale (hidden 128 vs 96 on trn-a): ranks 2 and 3 build a wider "
             "model and DDP's cross-rank parameter shape check fails on them; ranks 0 and 1 see Connection closed by "
             "peer in the initial broadcast."))
JOBS["at-mpirun-np3-tag-output-tensorboard-flag-all-ranks-missing-optional-tensorboard-import-error-all"] = dict(
  run="`mpirun -np 3 --oversubscribe --bind-to none --tag-output -x ... python at_train.py --data data --epochs 3 "
      "--tensorboard tb --pg-timeout 60`, 3 ranks (mpirun only launches; gloo via MASTER_ADDR/PORT).",
  fault="The run command passes --tensorboard tb (from a launch template); the environment has no tensorboard "
        "package, so every rank fails at `from torch.utils.tensorboard import SummaryWriter` (ModuleNotFoundError: No "
        "module named 'tensorboard') before the process group is created; mpirun reports the failed ranks.",
  layout="console.log: mpirun's console, every line tagged [jobid,rank]<stdout|stderr>: (the trainer's error log line "
         "+ traceback on stdout, Python's traceback on stderr, mpirun's closing message).",
  judge="All three ranks fail identically at the same import, deterministically, before any communication: "
        "a missing optional dependency in the environment -> config_error, all ranks.",
  truth=fail(None, None, "all_ranks", "config_error", "ModuleNotFoundError: No module named 'tensorboard'", 0, [],
             "Every rank imports torch.utils.tensorboard because of --tensorboard and fails with ModuleNotFoundError "
             "(tensorboard not installed); job-wide environment/config fault, no rank to blame."))
JOBS["at-healthy-torchrun-nproc4-dictconfig-shared-rotatingfilehandler-ranks-rotate-each-other-eval"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 at_train.py --data data --epochs 3 --log-config at_logging.yaml "
      "--eval --ckpt ckpt --pg-timeout 60`, 4 ranks (no --log-dir / --tee).",
  fault="None. Logging comes from a dictConfig yaml: every rank logs INFO to the SAME logs/train.log through its own "
        "RotatingFileHandler (maxBytes 4096, backupCount 5) and WARNING+ to stderr, so the ranks rotate the file under "
        "each other (a rank keeps writing into a renamed train.log.N until it rotates itself). Lines are spread "
        "out of order across train.log .. train.log.4. The run trains 3 epochs, checkpoints, evaluates, finishes.",
  layout="console.log: torchrun's console (agent and workers' stderr: only startup warnings); logs/train.log, "
         "train.log.1 .. train.log.4: the shared rotating log files.",
  judge="Every rank logs 'eval: val accuracy' and 'training finished' (spread over the rotated files); torchrun "
        "exits 0 with nothing on its console beyond startup warnings. Healthy.",
  truth=ok("healthy", "4-rank torchrun job: 3 epochs, checkpoints, eval and 'training finished' on all ranks; the "
                      "only oddity is the ranks rotating the shared log file under each other (lines spread across "
                      "train.log*). Exit 0."))
JOBS["at-lightning-ddp-devices3-tqdm-progress-only-rank1-label-id-4-cross-entropy-target-out-of-bounds-r1"] = dict(
  run="`python at_pl.py --data data --devices 3 --max-epochs 3 --pg-timeout 30` = Lightning Trainer(accelerator='cpu', "
      "devices=3, strategy=DDPStrategy(timeout=30 s), callbacks=[TQDMProgressBar()]); Lightning re-launches the "
      "script for ranks 1 and 2; one console.",
  fault="No logging of its own: only Lightning's startup lines and the TQDM progress bar (rank 0). Rank 1's shard "
        "holds 3 rows labelled 4 (a fifth class added upstream; the model has 4 outputs): cross_entropy raises "
        "IndexError: Target 4 is out of bounds on rank 1 in epoch 0; ranks 0 and 2 fail in the gradient allreduce "
        "with Connection closed by peer.",
  layout="console.log: stdout+stderr of the Lightning job (tqdm bar with carriage returns, the ranks' tracebacks).",
  judge="Rank 1's own step fails on a label outside the model's classes (its data); ranks 0 and 2 fail only because "
        "rank 1 left. data_error, rank 1.",
  truth=fail(1, None, "rank", "data_error", "IndexError: Target 4 is out of bounds.", 1,
             [("Connection closed by peer [127.0.0.1]:17594", 0), ("Connection closed by peer [127.0.1.1]:34209", 2)],
             "Rank 1's shard contains label 4 for a 4-class model: cross_entropy raises 'Target 4 is out of bounds' "
             "on rank 1; ranks 0 and 2 then get Connection closed by peer. Only a tqdm bar and tracebacks in the log."))
JOBS["at-accelerate-cpu-nproc2-save-state-every-4-steps-walltime-wrapper-timeout-sigterm-during-save-ext"] = dict(
  run="`at_sbatch_wrap.sh accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no "
      "--dynamo_backend no --main_process_port 29771 at_acc.py --data data --epochs 4 --width 4096 --bank-mb 4096 "
      "--save-every 4 --output-dir out > slurm-70412.out 2>&1` with TIME_LIMIT=35 (the wrapper is "
      "`timeout -s TERM --kill-after=30 35 ...`, a batch job's wall-clock limit); 2 ranks (MULTI_CPU + gloo).",
  fault="Nothing in the job is at fault: the run saves accelerate state (model + AdamW, plus a 4 GB feature bank "
        "registered for checkpointing) every 4 steps, and the 35 s wall-clock limit expires while checkpoint-12's "
        "feature bank is being written: the launcher receives SIGTERM ('Received 15 death signal, shutting down "
        "workers') and SIGTERMs both ranks; the output ends there.",
  layout="slurm-70412.out: the job's output file (accelerate launch console: accelerate state, the trainer's log lines, "
         "the launcher's signal lines).",
  judge="No error from any rank: the last trainer lines are a checkpoint being saved, then the launcher reports a "
        "SIGTERM from outside (the time-limit wrapper). Killed externally, no rank to blame -> killed_by_scheduler, "
        "external.",
  truth=fail(None, None, "external", "killed_by_scheduler", "Received 15 death signal, shutting down workers", None,
             [("Sending process 19065 closing signal SIGTERM", None), ("Sending process 19066 closing signal SIGTERM", None)],
             "The wall-clock-limit wrapper (timeout -s TERM) signals the accelerate launcher mid-save "
             "(checkpoint-12 feature bank being written); the launcher forwards SIGTERM to both ranks. No rank-side "
             "error: external kill."))
JOBS["at-healthy-deepspeed-launcher-num-gpus4-cpu-accel-zero1-each-rank-log-dir-shm-comm-build"] = dict(
  run="`deepspeed --num_gpus 4 --master_port 29791 --enable_each_rank_log ranklogs at_ds.py --data data --epochs 3 "
      "--deepspeed --deepspeed_config at_ds_config.json`, 4 ranks (DeepSpeed 0.19.8, CPU accelerator, gloo, ZeRO "
      "stage 1, AdamW).",
  fault="None. DeepSpeed JIT-builds its shm comm op, warns about the missing GPU / pin_memory / a deprecated "
        "collective, trains 3 epochs; the launcher reports each process exiting successfully.",
  layout="console.log: the deepspeed runner + launcher console; ranklogs/<timestamp>_rankN.log: each rank's output "
         "(written by the launcher's --enable_each_rank_log).",
  judge="'training done' from rank 0, every rank's epoch lines, 'Process ... exits successfully' for all four. "
        "Healthy.",
  truth=ok("healthy", "DeepSpeed launcher on 4 CPU ranks (ZeRO-1, gloo): 3 epochs, 'training done', all processes "
                      "exit successfully; only accelerator / pin_memory / deprecation warnings."))
JOBS["at-healthy-spawn-nprocs3-print-console-dl-workers2-no-shuffle-eval-final-barrier"] = dict(
  run="`python at_train.py --data data --nprocs 3 --epochs 3 --workers 2 --log-style print --eval --ckpt ckpt "
      "--pg-timeout 60` = torch.multiprocessing.spawn(nprocs=3), print-style lines ([rankN] prefix), one console.",
  fault="None. DataLoader with 2 workers per rank; checkpoint each epoch; final evaluation; barrier; "
        "destroy_process_group.",
  layout="console.log: stdout+stderr of the spawn parent.",
  judge="All three ranks log eval accuracy and 'training finished'; exit 0. Healthy.",
  truth=ok("healthy", "3-rank mp.spawn run: 3 epochs, checkpoints, eval, 'training finished' on ranks 0-2."))
JOBS["at-inconclusive-accelerate-cpu-nproc2-save-state-console-snapshot-while-running"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--main_process_port 29801 at_acc.py --data data --epochs 40 --width 256 --save-every 16 --output-dir out "
      "--step-sleep 0.15`, 2 ranks (MULTI_CPU + gloo).",
  fault="None. The console was copied 25 s after the start while the job was still training (40 epochs planned); "
        "the job was then stopped (not part of the capture).",
  layout="snapshot/console.log: the launcher's console at the time of the copy.",
  judge="The log just stops mid-training (loss decreasing, checkpoints being saved) with no error and no end: "
        "inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running 40-epoch accelerate job taken after ~25 s: no error, no "
                           "completion; the log just stops."))

if __name__ == "__main__":
    for name, j in JOBS.items():
        d = os.path.join(OUT, name)
        assert os.path.isdir(d), d
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(j["truth"], f, indent=2); f.write("\n")
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\nEnvironment: {ENV}.\n\nRun: {j['run']}\n\nFault: {j['fault']}\n\n"
                    f"Layout: {j['layout']}\n\nJudgement: {j['judge']}\n\nScript: _capture_at/{name}.sh (logs "
                    "collected by _capture_at/collect.py: home-dir prefixes and the scratch dir neutralised).\n")
    print(len(JOBS), "jobs")
