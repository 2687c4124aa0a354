#!/usr/bin/env python3
"""write README.md + truth.json of every bd- capture folder from JOBS below."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("torch 2.13.0+cpu (gloo), Python 3.11.7, lightning 2.6.6, accelerate 1.16.0, Open MPI 4.1.4 + mpirun, numpy "
       "2.4.6 (an earlier round's virtualenv, used read-only); run in a private network namespace (loopback only), "
       "private mount namespace and UTS namespace (hostname ml-a03; the two-node job: ml-a03 / ml-a04) from a clean "
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
JOBS["bd-spawn-nprocs3-perrank-filehandler-shared-logdir-long-run-rank1-zero-padded-rows-whiten-autograd-fn-cholesky-r1"] = dict(
  run="`python bd_train.py --nprocs 3 --data data --steps 800 --no-shuffle --whiten --log-every 25 --step-sleep 0.01 "
      "--pg-timeout 60` = torch.multiprocessing.spawn(nprocs=3), DDP over gloo; Python logging with one FileHandler "
      "per rank in the shared logs/ dir, rank 0 also on the console.",
  fault="The model's first layer is a batch-whitening step written as a custom torch.autograd.Function (Whiten: "
        "Cholesky of the batch covariance in forward, triangular solves in forward/backward). Shards are read in "
        "stored order. Rank 1's shard (12800 rows) has a block of 64 all-zero rows at rows 9600-9663 (padding an "
        "exporter wrote in place of a missing part; planted by zeroing those rows). 300 healthy steps run on all "
        "ranks; at global step 301 rank 1's batch is all zeros, its covariance is singular and "
        "torch.linalg.cholesky raises _LinAlgError inside Whiten.forward. Ranks 0 and 2 are waiting in that step's "
        "gradient allreduce; spawn's join sees process 1 fail, SIGTERMs processes 0 and 2 and re-raises rank 1's "
        "traceback in the parent.",
  layout="console.log: the spawn parent's stdout+stderr (rank 0's logging lines, spawn's SIGTERM warnings, the "
         "ProcessRaisedException with process 1's traceback); logs/train_rank{0,1,2}.log: each rank's FileHandler "
         "(INFO lines only; all three stop at step 300).",
  judge="The exception comes from one rank's custom autograd Function, but what triggers it is the content of rank 1's "
        "shard (a block of zero-padded rows that makes the batch covariance singular); the code path is the same on "
        "every rank and only rank 1's data hits it -> data_error, rank 1. The SIGTERMs are spawn's clean-up.",
  truth=fail(1, None, "rank", "data_error",
             "torch._C._LinAlgError: linalg.cholesky: The factorization could not be completed", 1,
             [("Terminating process 14337 via signal SIGTERM", None), ("Terminating process 14339 via signal SIGTERM", None)],
             "Rank 1 reaches a block of all-zero (padding) rows in its shard at step 301; the whitening Function's "
             "Cholesky fails on the singular covariance; spawn terminates ranks 0 and 2, waiting in the allreduce."))
JOBS["bd-nohup-out-torchrun-nproc4-perrank-filehandler-logdir-rank2-metrics-rotate-nonreentrant-lock-selfdeadlock-peers-barrier-timeout-r2"] = dict(
  run="`nohup torchrun --standalone --nproc-per-node 4 bd_train.py --data data --steps 1000 --metrics-dir metrics "
      "--log-every 50 --pg-timeout 30 --step-sleep 0.005 &` typed in an interactive shell (a pty from util-linux "
      "`script`), so torchrun's console (agent + all workers' stdout/stderr) went to ./nohup.out; 4 ranks, DDP over "
      "gloo, Python logging with a FileHandler per rank in logs/ (rank 0 also on the console).",
  fault="At the end of each 200-step epoch every rank flushes its per-step metrics to metrics/rank_<r>.jsonl and then "
        "enters dist.barrier(). MetricsWriter.flush() holds a non-reentrant threading.Lock and calls rotate() once the "
        "file is over 64 KiB; rotate() logs 'rotating' and takes the same lock again: a self-deadlock (no collective "
        "involved). metrics/rank_2.jsonl was left over (~34 KB) from an earlier run in the same directory (planted), so "
        "rank 2 is the first to cross the limit, at the end of epoch 3 (step 800 of 1000), and hangs in its own flush. "
        "Ranks 0, 1 and 3 wait in the barrier and time out after 30 s (gloo recv/send timeouts); torchrun then SIGTERMs "
        "ranks 1 and 2 and names rank 0 as root cause.",
  layout="nohup.out: torchrun's console (rank 0's logging lines, the three peers' barrier-timeout tracebacks, the "
         "agent's SIGTERM warnings and ChildFailedError summary); logs/train_rank{0..3}.log: each rank's FileHandler "
         "(rank 2's ends with the 'rotating' line).",
  judge="Rank 2 never crashes: it stops making progress inside its own code (a lock taken twice), and the other three "
        "ranks time out in the barrier waiting for it. A hang of one rank surfacing as peers' collective timeouts -> "
        "nccl_timeout_hang (the gloo equivalent), initiated by rank 2; its last line (the rotation message) is the "
        "first sign. torchrun's 'root cause' rank 0 and the SIGTERMs are consequences.",
  truth=fail(2, None, "rank", "nccl_timeout_hang", "metrics file metrics/rank_2.jsonl over 65536 bytes, rotating", 2,
             [("Timed out waiting 30000ms for recv operation to complete", 0),
              ("Timed out waiting 30000ms for send operation to complete", 1),
              ("Sending process 16873 closing signal SIGTERM", None)],
             "Rank 2 self-deadlocks on a non-reentrant lock while rotating its metrics file at the end of epoch 3 "
             "(step 800); ranks 0, 1, 3 time out in dist.barrier after 30 s; torchrun SIGTERMs the rest."))
JOBS["bd-torchrun-nproc4-tee3-logdir-dcp-save-every-200-tmpfs-ckpt-rank3-noisy-shard-hard-cache-enospc-checkpointexception-r3"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 --tee 3 --log-dir logs bd_train.py --data data --steps 1000 "
      "--dcp-every 200 --hard-cache --log-dir '' --console all --log-every 50 --pg-timeout 60`, 4 ranks, DDP over gloo, "
      "every rank logging to stdout (no per-rank files of its own).",
  fault="Every 200 steps the ranks save a torch.distributed.checkpoint (dcp.save) to ckpt/step_NNNNNN, ckpt/ being a "
        "1600 KiB tmpfs (planted: the job's scratch quota). Besides model and optimizer, each rank stores its own "
        "hard-example cache (rows with loss > 1.0). Rank 3's shard has 35% flipped labels (planted), so its cache grows "
        "~4x faster. The step-200 and step-400 saves succeed; during the step-600 save the tmpfs fills while rank 3 "
        "writes __3_0.distcp: the short write shows up in PyTorch's zip writer as 'unexpected pos 704 vs 598' on "
        "rank 3; dcp's collective finish turns it into CheckpointException ranks:dict_keys([3]) on all four ranks "
        "(each printing rank 3's traceback); rank 0 then aborts (terminate called without an active exception, "
        "SIGABRT) and the agent SIGTERMs ranks 1-3.",
  layout="console.log: torchrun's console with every worker's output teed and prefixed ([defaultN]:); "
         "logs/<run id>/attempt_0/<r>/{stdout,stderr}.log: the per-worker copies (--log-dir).",
  judge="The failing operation is rank 3's write of its checkpoint file on a full filesystem; the other ranks only "
        "re-raise rank 3's error through dcp's collective. The message never says 'No space left', but the failure "
        "is a short write into the checkpoint storage -> storage_io, rank 3. torchrun's 'root cause' (rank 0, SIGABRT) "
        "is a consequence.",
  truth=fail(3, None, "rank", "storage_io", "RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 704 vs 598", 3,
             [("terminate called without an active exception", 0),
              ("Sending process 21789 closing signal SIGTERM", None)],
             "dcp.save at step 600 fills the 1600 KiB checkpoint tmpfs while rank 3 (whose hard-example cache is "
             "largest) writes its file; the short write is reported on rank 3 and re-raised by all ranks as "
             "CheckpointException ranks:[3]; rank 0 aborts, the agent SIGTERMs the rest."))
JOBS["bd-torchrun-nproc3-redirects3-logdir-file-timer-watchdog-perrank-filehandler-launcher-sigkilled-midrun-orphans-brokenpipe-ext"] = dict(
  run="`TORCHELASTIC_ENABLE_FILE_TIMER=1 torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir "
      "elastic_logs bd_train.py --data data --steps 1500 --step-timer 120 --log-every 50 --pg-timeout 60` in the "
      "background, 3 ranks, DDP over gloo; the trainer wraps each step in "
      "torch.distributed.elastic.timer.expires(after=120) (client of the agent's FileTimerServer FIFO) and logs "
      "through Python logging with a per-rank FileHandler in logs/ (rank 0 also to its stdout).",
  fault="About 14 s in (step ~600 of 1500) the torchrun process itself was sent SIGKILL from outside "
        "(`kill -9 <torchrun pid>`, standing for a node-cleanup script or a kill of the launcher); the agent dies "
        "silently, leaving its three workers orphaned. At their next step the timer client cannot open the watchdog "
        "FIFO (no reader any more: ENXIO), retries 10 times (ERROR lines) and every rank raises BrokenPipeError "
        "'FileTimerServer is not available'. Nobody is left to collect the workers' exit codes.",
  layout="console.log: the agent's own console (--redirects 3 sends the workers' output to files): a single "
         "warning line, then nothing (the agent was killed); elastic_logs/<run id>/attempt_0/<r>/{stdout,stderr}.log: "
         "each worker's output; logs/train_rank{0,1,2}.log: the trainer's per-rank FileHandler logs.",
  judge="No rank did anything wrong: the launcher was killed from outside, and the workers' failure is the direct "
        "consequence of their agent (which hosts the timer server) having vanished. A kill from outside with no rank "
        "to blame -> kind external; the closest category for an external kill is killed_by_scheduler. The first "
        "sign in the logs is the timer client's first 'Error running _open_non_blocking. Retrying...' (rank 0, "
        "ENXIO on the FIFO); the BrokenPipeErrors on all ranks are consequences.",
  truth=fail(None, None, "external", "killed_by_scheduler", "Error running _open_non_blocking. Retrying...", None,
             [("BrokenPipeError: Could not send the FileTimerRequest because FileTimerServer is not available.", 0),
              ("BrokenPipeError: Could not send the FileTimerRequest because FileTimerServer is not available.", 1),
              ("BrokenPipeError: Could not send the FileTimerRequest because FileTimerServer is not available.", 2)],
             "The torchrun agent was SIGKILLed from outside mid-run; its console stops; the orphaned workers fail at "
             "the next step because the agent's FileTimerServer FIFO has no reader (ENXIO -> BrokenPipeError)."))
JOBS["bd-accelerate-cpu-nproc3-gradaccum4-manifest-step-count-rank1-short-shard-next-iter-stopiteration-midrun-r1"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--main_process_port 29741 bd_acc.py --data data --grad-accum 4 --micro-batch 16` (MULTI_CPU, gloo), 3 ranks, "
      "logging via accelerate.logging (main_process_only for step lines).",
  fault="A plain accelerate loop with gradient_accumulation_steps=4: each optimizer step pulls 4 micro-batches with "
        "next(train_iter) from the rank's own shard; the step count (150) comes from data/manifest.json "
        "(9600 rows per shard). Rank 1's shard holds 8000 rows (planted: re-exported after a de-duplication pass, "
        "manifest not updated), so its iterator is exhausted during optimizer step 125 and next() raises a bare "
        "StopIteration on rank 1. Ranks 0 and 2 lose rank 1 in the gradient allreduce of that accumulation boundary "
        "(Connection closed by peer); the elastic agent under accelerate SIGTERMs them.",
  layout="console.log: accelerate launch's console (all ranks' output, [rankN]: prefixed tracebacks, the agent's "
         "SIGTERM warnings and ChildFailedError summary naming rank 1).",
  judge="Rank 1 alone runs out of data because its shard is shorter than the manifest says; the others fail only "
        "because rank 1 left the collective -> data_error, rank 1.",
  truth=fail(1, None, "rank", "data_error", "[rank1]: StopIteration", 1,
             [("Connection closed by peer [127.0.1.1]:53645", 0), ("Connection closed by peer [127.0.1.1]:53645", 2),
              ("Sending process 635 closing signal SIGTERM", None)],
             "Rank 1's shard is 1600 rows shorter than the manifest; next(train_iter) raises StopIteration at "
             "optimizer step 125; peers get Connection closed by peer; the agent SIGTERMs them."))
JOBS["bd-lightning-ddp-devices3-yaml-cosine-schedule-decay-key-typo-lambdalr-keyerror-after-warmup-300-all"] = dict(
  run="`python bd_pl.py --config run.yaml --devices 3` = Lightning Trainer(strategy=DDPStrategy, devices=3, "
      "accelerator=cpu, max_steps=800), Lightning's own launcher re-running the script for ranks 1 and 2; one "
      "combined console.",
  fault="The LR schedule is a LambdaLR (linear warmup, then cosine decay) built from run.yaml's schedule block. The "
        "YAML (planted, as if edited from an older recipe) names the decay length `decay_step:` while the code reads "
        "`decay_steps`. Warmup never touches that key: 300 steps train normally; at step 300 the lambda's first "
        "post-warmup call raises KeyError: 'decay_steps' inside the scheduler step, on every rank.",
  layout="console.log: the combined console of the three ranks (Lightning banners, rank 0's step lines, the three "
         "[rankN]: tracebacks).",
  judge="A deterministic run-config error hit by every rank at the same step -> config_error, all_ranks (no rank "
        "started it).",
  truth=fail(None, None, "all_ranks", "config_error", "KeyError: 'decay_steps'", 0, [],
             "run.yaml says decay_step, the schedule reads decay_steps; after the 300 warmup steps every rank raises "
             "KeyError in the LR lambda."))
JOBS["bd-mpirun-np3-perrank-filehandler-shared-logdir-rank1-prefetch-thread-dies-na-record-queue-get-blocks-peers-allreduce-timeout-r1"] = dict(
  run="`mpirun --allow-run-as-root --oversubscribe -np 3 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29751 ... python "
      "bd_train.py --data data --prefetch --steps 1600 --log-every 25 --pg-timeout 30` (Open MPI only starts the "
      "ranks; DDP over gloo, env:// from OMPI_COMM_WORLD_*), 3 ranks; Python logging with a per-rank FileHandler in "
      "logs/, rank 0 also on the console.",
  fault="Each rank decodes its text records (records_XX.txt, 'f1,...,f16|label') in a prefetch thread that feeds a "
        "queue.Queue; the training loop blocks on q.get(). Rank 1's records file has one record (line 14419) whose "
        "12th feature is 'NA' (planted missing value). Around step 450 rank 1's prefetch thread dies with ValueError "
        "(printed by threading's excepthook as 'Exception in thread prefetch-1'), never puts the end marker, and "
        "rank 1's main thread waits in q.get() forever (no collective). Ranks 0 and 2 time out after 30 s in the next "
        "gradient allreduce and exit 1; mpirun then aborts the job (kills rank 1).",
  layout="console.log: mpirun's console (rank 0's logging lines, the thread exception from rank 1's stderr, the "
         "peers' [rankN]: timeout tracebacks, mpirun's abort notice naming rank 0 as the first to exit); "
         "logs/train_rank{0,1,2}.log: per-rank FileHandler logs (all stop around step 450).",
  judge="A bad record in rank 1's data kills its loader thread; rank 1 then hangs on the queue and the peers time out "
        "waiting for it. The origin is rank 1's data -> data_error, rank 1; the thread's ValueError is the first "
        "line showing it; the peers' timeouts and mpirun's 'first process' (rank 0) are consequences.",
  truth=fail(1, None, "rank", "data_error", "ValueError: could not convert string to float: 'NA'", 1,
             [("Timed out waiting 30000ms for recv operation to complete", 0),
              ("Timed out waiting 30000ms for send operation to complete", 2)],
             "Rank 1's prefetch thread dies on an 'NA' feature; its main thread blocks in q.get(); ranks 0 and 2 time "
             "out in the allreduce after 30 s; mpirun aborts the job."))
JOBS["bd-healthy-2node-uts-nohup-out-per-node-torchrun-static-nnodes2-nproc4-8ranks-metrics-push-conn-refused-error-lines-recovers"] = dict(
  run="Two 'nodes' (UTS namespaces, hostnames ml-a03 / ml-a04), each in its own directory running, in an interactive "
      "shell (pty from util-linux `script`), `nohup torchrun --nnodes 2 --node-rank {0,1} --nproc-per-node 4 "
      "--master-addr ml-a03 --master-port 29761 ../bd_train.py --data ../data --steps 480 --log-every 20 "
      "--metrics-push http://127.0.0.1:9091/push &`; 8 ranks, DDP over gloo; per-rank FileHandler logs in each "
      "node's logs/ dir, rank 0 also on the console.",
  fault="None planted in training. Rank 0 pushes metrics to a sink at http://127.0.0.1:9091/push every 20 steps; the "
        "sink was only started ~15 s into the run, so rank 0 logs 14 ERROR lines 'metrics push ... failed: "
        "URLError(ConnectionRefusedError(111, 'Connection refused')); N records buffered, will retry', then "
        "'metrics push ... recovered, flushed 15 buffered records'. All 8 ranks finish 480 steps.",
  layout="ml-a03/nohup.out, ml-a04/nohup.out: each node's torchrun console (node ml-a04's holds only c10d warnings: "
         "its ranks do not log to the console); ml-a03/logs/train_rank{0..3}.log, ml-a04/logs/train_rank{4..7}.log: "
         "per-rank FileHandler logs.",
  judge="The ERROR lines are about an auxiliary metrics sink that was not up yet; the trainer buffers and recovers, "
        "and every rank logs 'training finished: 480 steps' -> healthy.",
  truth=ok("healthy", "8 ranks on two nodes finish 480 steps; rank 0's ERROR lines about the metrics sink (connection "
                      "refused) are recovered from once the sink comes up."))
JOBS["bd-healthy-spawn-nprocs4-perrank-filehandler-shared-logdir-rank2-corrupt-chunk-logged-exception-replica-fallback-finishes"] = dict(
  run="`python bd_train.py --nprocs 4 --data data --chunks --steps 640 --log-every 40` = "
      "torch.multiprocessing.spawn(nprocs=4), DDP over gloo; Python logging with one FileHandler per rank in the "
      "shared logs/ dir, rank 0 also on the console.",
  fault="None fatal. Each rank's shard is 8 chunk files with a replica tree; rank 2's primary chunk_05.npz is "
        "truncated to a third (planted: a partial sync). Loading it raises zipfile.BadZipFile, which the loader logs "
        "with logger.exception (ERROR + traceback) and an ERROR 'falling back to replica copy', then loads the "
        "replica (800 rows) and continues. All ranks train 640 steps and finish.",
  layout="console.log: the spawn parent's console (rank 0's lines only); logs/train_rank{0..3}.log: per-rank "
         "FileHandler logs (rank 2's holds the ERROR lines and the BadZipFile traceback).",
  judge="The traceback is logged and handled; the data is read from the replica and every rank ends with "
        "'training finished: 640 steps' -> healthy.",
  truth=ok("healthy", "Rank 2 logs an ERROR + BadZipFile traceback for a truncated chunk, falls back to the replica "
                      "copy and trains on; all 4 ranks finish 640 steps."))
JOBS["bd-healthy-lightning-ddp-spawn-devices2-report-callback-latest-symlink-fileexists-logged-exception-each-val-finishes"] = dict(
  run="`python bd_pl.py --config run.yaml --devices 2 --strategy ddp_spawn --report-dir results` = Lightning "
      "Trainer(strategy=DDPStrategy(start_method='spawn'), devices=2, accelerator=cpu, max_steps=600, "
      "val_check_interval=100); one console.",
  fault="None fatal. A report callback on rank 0 writes results/val_<step>.json after every validation and points "
        "results/latest at it with os.symlink; from the second report on the link exists, os.symlink raises "
        "FileExistsError, which the callback logs with logger.exception and then replaces the link via rename (a "
        "second ERROR line). Logging is not configured in the spawned workers, so these records print bare "
        "(message + traceback, no level/time prefix) via Python's last-resort handler, five times. Fit stops at "
        "max_steps=600 and prints its final metrics ('fit finished at step 0' is the parent process's copy of the "
        "trainer, as usual with ddp_spawn).",
  layout="console.log: the combined console (Lightning banners, rank 0's step lines, the bare ERROR messages with "
         "FileExistsError tracebacks, the final 'Trainer.fit stopped: max_steps=600 reached').",
  judge="Every traceback is caught and handled by the callback (the link is replaced, every report written); the "
        "run reaches max_steps and prints final metrics -> healthy.",
  truth=ok("healthy", "Rank 0's report callback logs a FileExistsError traceback at each validation after the first "
                      "and recovers by renaming; fit reaches max_steps=600 and finishes."))
JOBS["bd-inconclusive-mpirun-np6-perrank-filehandler-shared-logdir-console-snapshot-mid-run"] = dict(
  run="`mpirun --allow-run-as-root --oversubscribe -np 6 ... python bd_train.py --data data --steps 3000 "
      "--log-every 50 --pg-timeout 120` (Open MPI starts the ranks; DDP over gloo via env://), 6 ranks; per-rank "
      "FileHandler logs in logs/, rank 0 also on the console.",
  fault="None. ~25 s in (around step 550 of 3000) console.log and logs/ were copied as a snapshot, as someone looking "
        "at a running job would; the job was stopped afterwards (not captured).",
  layout="snapshot/console.log: mpirun's console at the time of the snapshot; snapshot/logs/train_rank{0..5}.log: the "
         "per-rank FileHandler logs at that time.",
  judge="The logs just stop mid-run with no error, no completion -> inconclusive.",
  truth=ok("inconclusive", "Snapshot of a 6-rank mpirun job still running (step ~550 of 3000); nothing failed, nothing "
                           "finished."))
if __name__ == "__main__":
    for name, j in JOBS.items():
        d = os.path.join(OUT, name)
        assert os.path.isdir(d), name
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(j["truth"], f, indent=2); f.write("\n")
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\nCaptured on this machine: {ENV}. Scripts in ../_capture_bd/ ({name}.sh).\n\n"
                    f"## What was run\n\n{j['run']}\n\n## Fault planted\n\n{j['fault']}\n\n## Layout\n\n{j['layout']}\n\n"
                    f"Logs are verbatim except home-dir / top-directory prefixes neutralised and the per-job scratch "
                    f"dir shown as /home/user/project/.\n\n## Judgement\n\n{j['judge']}\n")
    print(len(JOBS), "jobs")
