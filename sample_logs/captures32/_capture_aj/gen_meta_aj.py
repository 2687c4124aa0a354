#!/usr/bin/env python3
"""gen_meta_aj.py: write README.md and truth.json for every aj- capture folder (from the JOBS table below)."""
import json, os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("CPU-only Linux VM (2 cores), Python 3.11, torch 2.13.0+cpu (gloo), lightning 2.6.6, accelerate 1.16.0, "
       "mpi4py 4.1.2 with the system Open MPI; each job ran in private network (loopback only) and mount namespaces "
       "from a clean environment; scripts in _capture_aj/.")

JOBS = [
 dict(name="aj-2node-uts-torchrun-c10d-tee3-stale-cache-lock-gloo-timeout-r3",
  run="Two torchrun agents as two \"nodes\" (each in its own UTS namespace with hostname trn-a / trn-b, own working "
      "dir; the job's /etc/hosts maps both names to 127.0.0.1): `torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend "
      "c10d --rdzv-endpoint 127.0.0.1:29400 --rdzv-id aj-2node-0412 --tee 3 ../aj_train.py --pg-timeout 25 --cache-dir "
      "'scratch/cache/rank{rank}' --epochs 2 --log-style print`. 4 ranks (0,1 on trn-a; 2,3 on trn-b).",
  fault="Before the launch, trn-b's node-local cache dir for rank 3 was given a stale `.lock` file (content `trn-b 48213`, "
        "as left by a killed earlier run). Rank 3 loops waiting for that lock; ranks 0-2 enter DDP's first collective "
        "(parameter shape verification) and time out after the 25 s gloo timeout; the agents tear down, trn-b's agent "
        "SIGTERMs rank 3.",
  layout="`trn-a.console`, `trn-b.console`: each agent's console (stdout+stderr) with `--tee 3` `[defaultN]:` prefixes "
         "(local rank) on worker lines.",
  judge="Rank 3 never reaches the collective: its lines are only 'dataset cache ... is locked by trn-b 48213; waiting'. "
        "Every other rank's error is a gloo send/recv timeout in DDP construction, a consequence. Both torchrun summaries "
        "name another rank as 'Root Cause (first observed failure)' (rank 0 on trn-a, rank 2 on trn-b) and list rank 3 only "
        "as SIGTERMed, so the launcher's root cause is misleading here.",
  truth=dict(status="failed", initiating=dict(rank=3, node="trn-b", all_ranks=False, kind="rank"),
   root_cause=dict(category="nccl_timeout_hang", rule_id=None),
   first_deviating=dict(contains="[3/4] dataset cache scratch/cache/rank3 is locked by trn-b 48213; waiting (0s)", rank=3),
   collateral=[dict(contains="[default0]:[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 25000ms for recv operation to complete", rank=0),
               dict(contains="[default1]:[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] Timed out waiting 25000ms for send operation to complete", rank=1),
               dict(contains="[default0]:[rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] Timed out waiting 25000ms for send operation to complete", rank=2),
               dict(contains="traceback : Signal 15 (SIGTERM) received by PID 4383", rank=3)],
   notes="Rank 3 (node trn-b) is stuck before DDP construction waiting on a stale dataset-cache lock left by a dead "
         "process; ranks 0-2 time out (gloo, 25 s) in DDP's parameter verification collective. Their timeouts and the "
         "launcher's 'Root Cause' entries (ranks 0 and 2) are consequences; rank 3 is the straggler that caused the hang.")),
 dict(name="aj-2node-uts-torchrun-c10d-rdzv-id-typo-join-timeout-trn-d",
  run="Two torchrun agents as two \"nodes\" (UTS namespaces, hostnames trn-c / trn-d, /etc/hosts maps both to "
      "127.0.0.1), `LOGLEVEL=INFO torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint trn-c:29420 "
      "--rdzv-id <ID> --rdzv-conf join_timeout=45 ../aj_train.py --epochs 2`; trn-c started 3 s before trn-d.",
  fault="trn-d's launch line has the rendezvous id mistyped: `ft-run-0419` instead of `ft-run-0491` (trn-c). Both agents "
        "reach the same c10d store but wait in different rendezvous; trn-c (which hosts the store) hits the 45 s join "
        "timeout (RendezvousTimeoutError) and exits, after which trn-d's agent loses the store connection "
        "(RendezvousConnectionError). No worker process ever starts.",
  layout="`trn-c.console`, `trn-d.console`: each agent's console (INFO-level launcher log including the launch config "
         "with run_id, then the traceback).",
  judge="The only difference between the two launch configs printed is run_id (ft-run-0491 vs ft-run-0419): node trn-d "
        "joined a rendezvous no one else was in. trn-c's RendezvousTimeoutError and trn-d's store connection error are "
        "both consequences. A node-level (agent) misconfiguration, no worker rank involved: kind rank with node trn-d, "
        "rank null.",
  truth=dict(status="failed", initiating=dict(rank=None, node="trn-d", all_ranks=False, kind="rank"),
   root_cause=dict(category="rendezvous", rule_id=None),
   first_deviating=dict(contains="run_id                   : ft-run-0419", rank=None),
   collateral=[dict(contains="torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError", rank=None),
               dict(contains="torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed", rank=None)],
   notes="Rendezvous id mismatch: trn-d was launched with --rdzv-id ft-run-0419 while trn-c used ft-run-0491, so each "
         "agent waited alone for a 2-node rendezvous. trn-c timed out (join_timeout 45 s) and shut its store down, which "
         "made trn-d fail with a store connection error. Initiator: node trn-d's launch configuration.")),
 dict(name="aj-accelerate-multigpu-on-cpu-save-state-ulimit-f-ckpt-r0",
  run="`ulimit -f 6144; accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --main_process_port 29561 "
      "--mixed_precision no --dynamo_backend no aj_acc.py --hidden 1024 --steps 60 --save-every 20` on a CPU-only box "
      "(accelerate runs torchrun underneath; Accelerator(cpu=True) -> MULTI_CPU, gloo). 3 ranks.",
  fault="The whole job ran under a 6 MiB file-size limit (`ulimit -f 6144`). At step 20 the main process's "
        "accelerator.save_state() writes model.safetensors (4.3 MiB, fits) then optimizer.bin (AdamW state, ~8.5 MiB): "
        "the write stops at the limit (Python ignores SIGXFSZ, so write() fails with EFBIG) and torch.save raises on "
        "rank 0; ranks 1 and 2, already in the next step's allreduce, get 'Connection closed by peer'.",
  layout="`console.log`: accelerate launch's combined console (all ranks, torchrun's `[rankN]:` traceback prefixes, the "
         "agent's summary).",
  judge="Rank 0 fails inside accelerator.save_state -> torch.save while writing the optimizer file "
        "('basic_ios::clear: iostream error', then 'unexpected pos'): a storage write failure. Ranks 1-2 fail afterwards "
        "with gloo connection-closed errors and are SIGTERMed; torchrun's summary names rank 0 as root cause, correctly.",
  truth=dict(status="failed", initiating=dict(rank=0, node=None, all_ranks=False, kind="rank"),
   root_cause=dict(category="storage_io", rule_id=None),
   first_deviating=dict(contains="[rank0]: RuntimeError: basic_ios::clear: iostream error", rank=0),
   collateral=[dict(contains="[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer", rank=1),
               dict(contains="[rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer", rank=2),
               dict(contains="exitcode  : -15 (pid: 5486)  (SIGTERM)", rank=1),
               dict(contains="exitcode  : -15 (pid: 5487)  (SIGTERM)", rank=2)],
   notes="The checkpoint write on rank 0 (accelerator.save_state, optimizer.bin) hit the job's file-size limit "
         "(ulimit -f 6 MiB): torch.save's stream write failed. Peers died on the closed gloo connection and were "
         "SIGTERMed by the launcher: consequences.")),
 dict(name="aj-healthy-lightning-ddp-devices3-resume-last-ckpt-two-invocations",
  run="Lightning `Trainer(accelerator=\"cpu\", devices=3, strategy=\"ddp\")` (subprocess launcher, gloo) on a small MLP "
      "classifier, run twice as a job split into two allocations: `python aj_pl.py --devices 3 --strategy ddp "
      "--max-epochs 3 --version 0 --progress 0` then the same with `--max-epochs 10 --ckpt-path "
      "lightning_logs/clf/version_0/checkpoints/last.ckpt`. EarlyStopping(val_loss, patience 3), ModelCheckpoint top-2 + "
      "last, CSVLogger.",
  fault="None.",
  layout="`train-1.log`, `train-2.log`: each invocation's combined console (progress bar off); "
         "`lightning_logs/clf/version_0/metrics.csv`, `hparams.yaml` (CSVLogger; the second run reused version_0, "
         "so metrics.csv holds the resumed run).",
  judge="Run 1 stops at max_epochs=3; run 2 restores all states from last.ckpt, trains to max_epochs=10 with val_loss "
        "improving, then validates the best checkpoint (val_acc ~0.96). Only warnings (deprecated LeafSpec, "
        "log dir / checkpoint dir not empty, DistributedSampler during validate).",
  truth=dict(status="healthy", initiating=None, root_cause=None, first_deviating=None, collateral=[],
   notes="Both invocations end normally ('Trainer.fit stopped: max_epochs=... reached'); the resumed run restores "
         "last.ckpt and finishes with a best-checkpoint validation. Warnings only.")),
 dict(name="aj-healthy-spawn-8ranks-rankfiles-bucketcap1-final-eval",
  run="`python aj_spawn.py 8 -- --hidden 384 --bucket-cap-mb 1 --epochs 3 --rows 512 --bs 32 --log-every 8 --warn "
      "--final-eval --logfile 'logs/rank{rank}.log' ...`: torch.multiprocessing.spawn of 8 ranks, DDP (gloo) MLP.",
  fault="None.",
  layout="`spawn.console` (the spawner's console: its own start/finish lines and the c10d hostname warnings from the "
         "workers' stderr), `logs/rank0.log` .. `logs/rank7.log` (one logging.FileHandler per rank).",
  judge="All 8 ranks log 3 epochs, a final eval and 'done'; the spawner prints 'all processes exited cleanly'. "
        "Warnings only (c10d hostname, a UserWarning about the per-rank batch size).",
  truth=dict(status="healthy", initiating=None, root_cause=None, first_deviating=None, collateral=[],
   notes="8-rank spawn run finished: every rank file ends with the final eval and 'done', the spawner exits cleanly.")),
 dict(name="aj-healthy-torchrun-nproc4-tee3-local-ranks-filter0-logdir-channels-last-conv",
  run="`torchrun --standalone --nproc-per-node 4 --tee 3 --local-ranks-filter 0 --log-dir logs aj_train.py --model "
      "conv --classes 4 --rows 384 --bs 32 --epochs 6 --lr 0.1 --log-every 6 --warn --final-eval`: 4 ranks, DDP (gloo), "
      "channels_last conv net.",
  fault="None.",
  layout="`console.log`: the agent console, showing only local rank 0's teed lines (`[default0]:`) because of "
         "--local-ranks-filter 0; `logs/<run_id>/attempt_0/<rank>/stdout.log|stderr.log` for all 4 ranks.",
  judge="Every rank's stdout.log ends with 6 epochs, 'final eval: accuracy 0.7409', 'done'; torchrun exited 0 with no "
        "failure summary. Warnings only (c10d hostname, UserWarning about the per-rank batch).",
  truth=dict(status="healthy", initiating=None, root_cause=None, first_deviating=None, collateral=[],
   notes="4-rank torchrun run completed: all ranks logged the final eval and 'done'; the console filter hides ranks 1-3, "
         "whose files are in the log dir.")),
 dict(name="aj-inconclusive-torchrun-tee3-logdir-snapshot-while-running",
  run="`torchrun --standalone --nproc-per-node 3 --tee 3 --log-dir logs aj_train.py --epochs 40 --rows 2048 --bs 64 "
      "--sleep 0.03 --log-every 10`: 3 ranks, DDP (gloo) MLP.",
  fault="None: a long run whose console and log dir were copied 12 s after the start, while it was still training "
        "(epoch 7 of 40); only that snapshot is kept.",
  layout="`console.log` (agent console with `[defaultN]:` teed lines), `logs/<run_id>/attempt_0/<rank>/stdout.log|"
         "stderr.log` as they were at the snapshot.",
  judge="The logs stop mid-training with no error, no completion line and no launcher summary: inconclusive.",
  truth=dict(status="inconclusive", initiating=None, root_cause=None, first_deviating=None, collateral=[],
   notes="Snapshot of a running job: training progresses normally and the logs just stop (epoch 7 of 40); nothing "
         "shows an end, good or bad.")),
 dict(name="aj-lightning-ddp-devices3-ontrainstart-commhook-fp16guard-outlier-r1",
  run="`python aj_pl.py --devices 3 --strategy ddp --comm-hook fp16_guard --per-rank-data 1536 --outlier "
      "1:913:5:41000000 --max-epochs 6 --progress 0`: Lightning Trainer(accelerator=\"cpu\", devices=3, strategy=\"ddp\"), "
      "gloo; each rank trains on its own shard (use_distributed_sampler=False). An fp16-compression DDP comm hook with a "
      "range guard is registered on the DDP wrapper in on_train_start.",
  fault="Rank 1's training shard has one outlier feature value (row 913, feature 5 = 4.1e7). When a batch holding it "
        "is trained, rank 1's gradient bucket exceeds the fp16 range and the comm hook raises OverflowError inside "
        "DDP's reducer (surfacing from loss.backward()); ranks 0 and 2, waiting in the bucket allreduce, fail with "
        "gloo 'Connection closed by peer'.",
  layout="`console.log`: the combined console of the three rank processes (Lightning's subprocess launcher; "
         "`[rankN]:` traceback prefixes); `lightning_logs/clf/version_0/hparams.yaml` (no metrics.csv was flushed).",
  judge="Rank 1's OverflowError from the comm hook is the first failure; the peers' errors are the allreduce "
        "callback failing on the closed connection. Cause: a numeric blow-up (gradient far out of range) from an "
        "outlier row on rank 1, caught by the guard.",
  truth=dict(status="failed", initiating=dict(rank=1, node=None, all_ranks=False, kind="rank"),
   root_cause=dict(category="nan_divergence", rule_id=None),
   first_deviating=dict(contains="[rank1]: OverflowError: fp16_guard: bucket 0 (3556 elems) has max |grad| 1.632e+05, out of fp16 range", rank=1),
   collateral=[dict(contains="[rank0]: RuntimeError: Got the following error when running the callback: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer", rank=0),
               dict(contains="[rank2]: RuntimeError: Got the following error when running the callback: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer", rank=2)],
   notes="Rank 1's gradient (driven by an outlier feature in its shard) overflowed the fp16 range and the DDP comm hook's "
         "guard raised OverflowError during backward. Ranks 0 and 2 only show the consequent gloo connection-closed "
         "errors in the allreduce callback.")),
 dict(name="aj-mpirun-np4-tag-output-mpi4py-label-check-mpi-abort-r1",
  run="`mpirun --allow-run-as-root --oversubscribe --tag-output -np 4 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29577 ... "
      "python aj_train.py --data 'data/shard-{rank}.csv' --check-labels --classes 10 --epochs 3 ...`: Open MPI, mpi4py "
      "for rank/size and MPI Abort, torch gloo env:// process group. 4 ranks.",
  fault="Rank 1's CSV shard has label 12 at row 77 (10 classes). Rank 1's label check logs an error and calls "
        "MPI_COMM_WORLD.Abort(3); mpirun kills the job.",
  layout="`mpirun.console`: mpirun's combined console with `[jobid,rank]<stdout|stderr>:` tags, plus Open MPI's "
         "MPI_ABORT banner.",
  judge="Rank 1 is the only rank whose label check fails; its error line precedes the MPI_ABORT banner, which names "
        "rank 1. Ranks 0, 2, 3 report 'label check ok'. A data error in one rank's shard.",
  truth=dict(status="failed", initiating=dict(rank=1, node=None, all_ranks=False, kind="rank"),
   root_cause=dict(category="data_error", rule_id=None),
   first_deviating=dict(contains="label check failed: 1 of 480 labels outside [0, 10) (first at row 77: 12); aborting job", rank=1),
   collateral=[],
   notes="Rank 1's shard holds an out-of-range label (12 with 10 classes); its check aborts the MPI job (errorcode 3). "
         "The other ranks were healthy and were killed by mpirun.")),
 dict(name="aj-spawn-3ranks-logging-console-dataloader-worker-valueerror-na-field-r2",
  run="`python aj_spawn.py 3 -- --data 'data/shard-{rank}.csv' --workers 2 --epochs 3 --bs 32 --log-every 4 --fmt ...`: "
      "torch.multiprocessing.spawn of 3 ranks, DDP (gloo) MLP, DataLoader(num_workers=2) parsing CSV rows lazily.",
  fault="Rank 2's shard has the field `NA` (feature f11, row 301). The DataLoader worker that fetches it raises "
        "ValueError, re-raised in rank 2's training loop; spawn SIGTERMs ranks 0 and 1 and raises "
        "ProcessRaisedException for process 2.",
  layout="`console.log`: the spawner's combined console (logging lines with pid and rank, the spawn traceback).",
  judge="'-- Process 2 terminated with the following error' with the DataLoader worker's "
        "\"could not convert string to float: 'NA'\": a data error in rank 2's shard. The SIGTERMs of the other two "
        "processes are consequences.",
  truth=dict(status="failed", initiating=dict(rank=2, node=None, all_ranks=False, kind="rank"),
   root_cause=dict(category="data_error", rule_id=None),
   first_deviating=dict(contains="ValueError: could not convert string to float: 'NA'", rank=2),
   collateral=[dict(contains="Terminating process 7936 via signal SIGTERM", rank=0),
               dict(contains="Terminating process 7937 via signal SIGTERM", rank=1)],
   notes="An unparsable field ('NA') in rank 2's CSV shard made a DataLoader worker raise ValueError in rank 2; "
         "torch.multiprocessing.spawn then terminated ranks 0 and 1 (pids 7936, 7937 per the log).")),
]

for j in JOBS:
    d = os.path.join(OUT, j["name"])
    assert os.path.isdir(d), d
    t = dict(schema_version=1, **j["truth"])
    with open(os.path.join(d, "truth.json"), "w") as f:
        json.dump(t, f, indent=2); f.write("\n")
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(f"# {j['name']}\n\nCaptured run (not a public thread). Environment: {ENV}\n\n"
                f"## What was run\n{j['run']}\n\n## Fault planted\n{j['fault']}\n\n## Layout\n{j['layout']}\n\n"
                f"## Judgement\n{j['judge']}\n")
print(len(JOBS), "folders")
