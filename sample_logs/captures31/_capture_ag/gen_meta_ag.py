"""Write README.md and truth.json into every captures31/ag-* folder (run after collect_all.sh)."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("host `vm` (2 cores, CPU only, no GPU; gVisor sandbox), Python 3.11.7, torch 2.13.0+cpu (gloo), lightning 2.6.6, "
       "accelerate 1.16.0, numpy 2.4.6, Open MPI 4.1.4 (Debian 12) with mpi4py; each job in private network (loopback "
       "only), mount and UTS namespaces, clean environment")
CLOSED = "Connection closed by peer [127.0.0.1]"


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status in ("inconclusive", "healthy") else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status in ("inconclusive", "healthy") else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


J = {}
J["ag-torchrun-logdir-tee3-ddp-comm-hook-bucket-rebuild-indexerror-r1"] = dict(
    cmd="`torchrun --nproc-per-node 3 --log-dir logs --tee 3 ag_train.py --epochs 2 --steps 40 --hidden 256 --comm-hook "
        "--grad-stats-rank 1 --bucket-cap-mb 0.004 --pg-timeout 60` (console to `console.log`), 3 ranks",
    planted="the trainer registers a DDP comm hook (`allreduce_with_stats`) that, on the grad-stats rank (rank 1), records "
            "each bucket's gradient norm in a per-bucket list. The list is sized from the default 25 MB bucket cap (1 "
            "bucket) although DDP was built with `bucket_cap_mb=0.004`; DDP rebuilds its buckets after the first "
            "iteration (2 buckets), so at step 1 the hook on rank 1 indexes bucket 1 and raises IndexError inside "
            "backward. The other ranks don't run that code.",
    layout="`console.log`: the agent's console with `--tee 3` (`[defaultN]:` prefixed worker lines, agent warnings, "
           "torchrun's ChildFailedError summary). `logs/<run id>/attempt_0/<local rank>/{stdout,stderr}.log`: the "
           "per-rank files written by `--log-dir`.",
    happened="step 0 runs on all ranks; at step 1 rank 1 fails with `IndexError: list index out of range` from the comm "
             "hook; its process aborts (`terminate called without an active exception`, SIGABRT). Ranks 0 and 2, in the "
             "bucket all-reduce, get gloo's `Connection closed by peer` from the hook's future and are SIGTERMed / abort; "
             "torchrun names rank 1 (exitcode -6) as root cause.",
    judgement="one rank's own code raised first: kind rank, rank 1, code_exception. Peers' gloo errors are collateral.",
    truth=T("failed", "rank", rank=1, cat="code_exception", fd="IndexError: list index out of range", fd_rank=1,
            coll=[(0, CLOSED), (2, CLOSED)],
            notes="rank 1's DDP comm hook indexes a per-bucket list sized for one bucket after DDP rebuilt 2 buckets "
                  "(IndexError at step 1); ranks 0/2 lose their peer in the all-reduce."))
J["ag-spawn-nprocs4-print-prefetch-thread-selfdeadlock-gloo-timeout-r2"] = dict(
    cmd="`python ag_train.py --spawn 4 --port 29633 --style print --epochs 2 --steps 40 --prefetch --prefetch-bug-rank 2 "
        "--prefetch-bug-step 31 --pg-timeout 20` (torch.multiprocessing.spawn, 4 ranks, gloo timeout 20 s; stdout+stderr "
        "to `spawn.log`)",
    planted="each rank reads batches through a background prefetch thread. On rank 2, at its 31st refill, the thread "
            "takes its (non re-entrant) stats lock twice while holding the queue condition: it deadlocks, so rank 2's "
            "training loop never gets another batch. The loader logs a `data loader stalled` warning every 5 s.",
    layout="`spawn.log`: the one console of the spawn parent (print-style `[rankN]` lines of every rank, "
           "spawn's SIGTERM warnings and its ProcessRaisedException naming the process that raised).",
    happened="all ranks train to step 20+; rank 2 stalls (`[rank2] WARNING data loader stalled: no batch for 5s` ... "
             "20s). The other ranks wait in DDP's gradient all-reduce; after the 20 s gloo timeout one of them "
             "(`Process 1` in this capture) raises `Timed out waiting 20000ms for recv operation to complete`; spawn "
             "terminates the rest.",
    judgement="a hang with a culprit rank: kind rank, rank 2 (the only rank that reports a stall; the timeout is raised "
              "by a peer waiting for it), category nccl_timeout_hang (collective timeout, gloo here). first_deviating "
              "is rank 2's first stall warning; collateral the peer's timeout.",
    truth=T("failed", "rank", rank=2, cat="nccl_timeout_hang", fd="WARNING data loader stalled: no batch for 5s",
            fd_rank=2, coll=[(1, "Timed out waiting 20000ms for recv operation to complete")],
            notes="rank 2's prefetch thread self-deadlocks; rank 2 stops feeding DDP, peers time out after 20 s in the "
                  "gradient all-reduce."))
J["ag-accelerate-cpu-nproc3-resume-optim-shard-stale-hidden-shape-r1"] = dict(
    cmd="`accelerate launch --multi_gpu --num_processes 3 --main_process_port 29640 ag_acc.py --hidden 256 --steps 240 "
        "--resume ckpt/step_120` (Accelerator(cpu=True) -> MULTI_CPU, gloo; 3 ranks; console to `train.log`)",
    planted="the script saves one optimizer-state shard per rank (`optim_rank<R>.pt`) next to `model.pt`. Before the "
            "captured run, the capture script made two earlier runs into the same dir: a `--hidden 128` run and then "
            "a `--hidden 256` run whose rank-1 shard was moved away and the 128-wide shard from the first run put back, "
            "so `ckpt/step_120/optim_rank1.pt` has 128-wide Adam moments while the model is 256-wide. The "
            "earlier runs' consoles are not part of the capture.",
    layout="`train.log`: accelerate launch's console (its defaults notice, torch.distributed.run's lines, "
           "`[RANK n]` records of the accelerate logger, torch's `[rankN]:` tracebacks, the ChildFailedError summary).",
    happened="all three ranks log `restored model + optimizer shard`, and at the first optimizer step rank 1 fails in "
             "AdamW: `RuntimeError: The size of tensor a (128) must match the size of tensor b (256)`; rank 1 aborts; "
             "rank 0 gets a gloo `Connection reset by peer` in the next forward's bucket rebuild; the agent SIGTERMs "
             "ranks 0 and 2 and names rank 1 as root cause.",
    judgement="one rank resumed a checkpoint shard of the wrong shape: kind rank, rank 1. Category config_error (a resume "
              "that points at state from a different model config; not a code bug, not a storage fault). first_deviating: "
              "the size-mismatch line (rank 1); the restore line itself looks normal.",
    truth=T("failed", "rank", rank=1, cat="config_error",
            fd="The size of tensor a (128) must match the size of tensor b (256)", fd_rank=1,
            coll=[(0, "Connection reset by peer")],
            notes="rank 1 loaded a stale 128-wide optimizer shard into a 256-wide model; AdamW fails on the first step; "
                  "rank 0 loses its peer."))
J["ag-healthy-lightning-ddp-spawn-devices2-earlystop-modelckpt-console-warnings"] = dict(
    cmd="`python ag_pl.py --strategy ddp_spawn --devices 2 --epochs 12 --early-stop --csv --workers 1` (Lightning "
        "Trainer(accelerator='cpu', devices=2, strategy='ddp_spawn'), ModelCheckpoint + EarlyStopping, CSVLogger; "
        "console to `console.log`)",
    planted="nothing: a healthy run.",
    layout="`console.log`: Lightning's console (GPU/TPU banner, tip, `Initializing distributed` per rank, model summary, "
           "deprecation and persistent_workers warnings, `Trainer.fit stopped: max_epochs=12 reached`, the script's final "
           "line with best checkpoint and metrics). `logs/ag/version_0/{metrics.csv,hparams.yaml}`: the CSVLogger files.",
    happened="12 epochs ran, early stopping did not trigger, val_acc ~0.95; exit 0.",
    judgement="healthy: the run reached max_epochs and printed its final metrics; the warnings are benign.",
    truth=T("healthy", notes="Lightning ddp_spawn on 2 CPU ranks runs 12 epochs and exits 0; only benign warnings."))
J["ag-lightning-ddp-devices3-dlworkers2-jsonl-short-feature-record-r2"] = dict(
    cmd="`python ag_pl.py --strategy ddp --devices 3 --epochs 4 --workers 2 --csv` (Lightning Trainer strategy='ddp': "
        "the script re-launches itself per rank; 3 ranks, 2 DataLoader workers each; console to `console.log`)",
    planted="the JSONL training file has one record (id 1377) whose feature list lost its last two values (10 instead "
            "of 12). The dataset raises ValueError for it in the DataLoader worker. Which rank reads it follows from "
            "the random split and DistributedSampler: rank 2 here.",
    layout="`console.log`: the one console of the job (Lightning banner and summary, `[rankN]:` prefixed tracebacks of "
           "all ranks); the CSVLogger had not written any file yet.",
    happened="in epoch 0 rank 2's worker raises `ValueError: record 1377 of data/train.jsonl: expected 12 features, got "
             "(10,)`, re-raised as `Caught ValueError in DataLoader worker process 0`; ranks 0 and 1, in the "
             "sync_dist barrier of `self.log`, fail with gloo `Connection closed by peer`.",
    judgement="bad data read by one rank: kind rank, rank 2, data_error. The first line that shows it is the "
              "`Caught ValueError in DataLoader worker process 0` line of rank 2 (followed by the record error).",
    truth=T("failed", "rank", rank=2, cat="data_error", fd="Caught ValueError in DataLoader worker process 0", fd_rank=2,
            coll=[(0, CLOSED), (1, CLOSED)],
            notes="a truncated JSONL record (10 of 12 features) raises in rank 2's DataLoader worker; ranks 0/1 lose "
                  "their peer in the metric sync."))
J["ag-2node-uts-torchrun-c10d-nnodes2-nodeconsoles-local-scratch-ckpt-full-node-b"] = dict(
    cmd="two torchrun agents, each in its own UTS + mount namespace (hostnames `node-a`, `node-b`, a shared /etc/hosts "
        "naming both), sharing the job's loopback network: `torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d "
        "--rdzv-endpoint node-a:29655 --rdzv-id ag2n ag_train.py --epochs 3 --steps 30 --hidden 256 --ckpt-every 1 "
        "--ckpt-per-rank --ckpt-dir <job>/scratch/ckpt --pg-timeout 60`; node-b started 2 s after node-a; 4 ranks "
        "(node-a: 0, 1; node-b: 2, 3)",
    planted="every rank writes its own checkpoint shard to node-local scratch at the end of each epoch. On node-b the "
            "scratch dir is a 16 KiB tmpfs mounted in node-b's mount namespace (a node whose local scratch is full / "
            "too small); node-a's scratch is normal disk.",
    layout="`node-a/console.log`, `node-b/console.log`: each agent's console (no --tee: worker output unprefixed, "
           "`[rankN]:` tracebacks, the agent's ChildFailedError summary; the summary's `host` reads `localhost`).",
    happened="after epoch 0 both node-b ranks fail in torch.save with `RuntimeError: basic_ios::clear: iostream error` "
             "followed by `[enforce fail at inline_container.cc:672] . unexpected pos ...`; node-a's ranks, in the "
             "end-of-epoch barrier, get `Connection closed by peer`.",
    judgement="a machine-level cause on one node: kind rank with node `node-b`, rank null (both of its ranks hit it), "
              "category storage_io. first_deviating: the iostream error (rank 3 prints it first).",
    truth=T("failed", "rank", rank=None, node="node-b", cat="storage_io", fd="basic_ios::clear: iostream error", fd_rank=3,
            coll=[(0, CLOSED), (1, CLOSED)],
            notes="node-b's node-local scratch (16 KiB tmpfs) cannot hold the per-rank checkpoint shards; both node-b "
                  "ranks fail in torch.save, node-a's ranks lose their peers in the barrier."))
J["ag-healthy-torchrun-maxrestarts2-tee3-rank1-transient-shard-conn-reset-resume-ckpt"] = dict(
    cmd="`torchrun --standalone --nproc-per-node 2 --max-restarts 2 --tee 3 ag_train.py --epochs 3 --steps 30 "
        "--log-every 10 --ckpt-every 1 --resume --shard-url-rank 1 --shard-url-step 47 --final-eval` (2 ranks; console "
        "to `console.log`). Captured with the trainer version before the final barrier / faulthandler lines were added "
        "(no effect on this run's path).",
    planted="on the first attempt only (TORCHELASTIC_RESTART_COUNT=0), rank 1 raises `ConnectionResetError` at global "
            "step 47 as if its data shard stream was reset; rank 0 saves a checkpoint after every epoch and restarts "
            "resume from it.",
    layout="`console.log`: the agent's console with `--tee 3` (`[defaultN]:` worker lines, agent warnings).",
    happened="attempt 0: rank 1 fails in epoch 1 (`ConnectionResetError: [Errno 104] Connection reset by peer: "
             "'http://shards.internal:8080/train/part-00001.tar'`), rank 0 aborts on the gloo error, the agent restarts. "
             "Attempt 1 (not planted): both workers' `init_process_group` sits ~10 minutes and fails with `Gloo "
             "connectFullMesh failed with ... Connect timeout`; the agent restarts again. Attempt 2 resumes from "
             "`ckpt/last.pt` (epoch 0, restart_count=2), trains epochs 1-2, `final eval: acc 0.953`, `training "
             "finished`; torchrun exits 0.",
    judgement="healthy: the elastic job recovered (within --max-restarts 2) and ran to the end with exit 0; the "
              "failures of attempts 0 and 1 are recovered transients.",
    truth=T("healthy", notes="two failed attempts (transient shard connection reset on rank 1, then a gloo connect "
                             "timeout at re-init) are absorbed by --max-restarts 2; attempt 2 resumes and finishes."))
J["ag-healthy-torchrun-nproc8-redirects3-logdir-console-agent-only-warnings"] = dict(
    cmd="`torchrun --standalone --nproc-per-node 8 --redirects 3 --log-dir logs ag_train.py --epochs 2 --steps 20 "
        "--sleep 0.05 --sched cosine --warn --final-eval` (8 ranks; console to `console.log`)",
    planted="nothing: a healthy run; the trainer emits a GradScaler/CUDA UserWarning on every rank.",
    layout="`console.log`: the agent console only (with `--redirects 3` nothing of the workers reaches it). "
           "`logs/<run id>/attempt_0/<0..7>/{stdout,stderr}.log`: the per-rank files (records in stdout, warnings in "
           "stderr).",
    happened="all 8 ranks train 2 epochs, log `final eval: acc ...` and `training finished`; exit 0.",
    judgement="healthy: the run ends well on every rank; the warnings are benign.",
    truth=T("healthy", notes="8 CPU ranks under torchrun --redirects 3 finish 2 epochs with final eval; exit 0."))
J["ag-mpirun-np3-plain-console-mpi4py-rank1-raw-features-nan-guard-r1"] = dict(
    cmd="`mpirun --allow-run-as-root --oversubscribe -np 3 python ag_train.py --mpi --port 29661 --style print "
        "--epochs 3 --steps 40 --lr 0.05 --feature-scale 1:1e4 --nan-guard` (Open MPI, rank/size from mpi4py, torch "
        "gloo process group; console to `mpirun.log`)",
    planted="rank 1's input features are not normalised (x1e4, as a shard read without its scaler); the trainer's "
            "NaN guard raises FloatingPointError when the loss is not finite.",
    layout="`mpirun.log`: mpirun's combined console (print-style `[rankN]` lines, torch's `[rankN]:` tracebacks, "
           "Open MPI's abort notices naming the first process to exit).",
    happened="rank 1's first loss is 3374.7 (others ~1.4); at step 10 its loss is NaN and it raises `FloatingPointError: "
             "loss is nan at epoch 0 step 10 (rank 1)`; ranks 0 and 2 fail with gloo `Connection closed by peer`; "
             "mpirun aborts the job.",
    judgement="kind rank, rank 1, nan_divergence. first_deviating: rank 1's step-0 loss line (the divergence is "
              "visible there, before the guard fires).",
    truth=T("failed", "rank", rank=1, cat="nan_divergence", fd="[rank1] epoch 0 step 0/40 loss 3374.7432", fd_rank=1,
            coll=[(0, CLOSED), (2, CLOSED)],
            notes="unnormalised features on rank 1 blow up its loss (3374 at step 0, NaN at step 10); the NaN guard "
                  "raises; peers lose the connection."))
J["ag-torchrun-redirects3-logdir-argparse-sched-invalid-choice-all"] = dict(
    cmd="`torchrun --standalone --nproc-per-node 2 --redirects 3 --log-dir logs ag_train.py --epochs 3 --steps 40 "
        "--sched cosine_warmup --lr 0.1` (2 ranks; console to `console.log`)",
    planted="`--sched cosine_warmup` is not one of the script's choices (constant, cosine, step).",
    layout="`console.log`: agent console only. `logs/<run id>/attempt_0/<r>/{stdout,stderr}.log`: per-rank files; the "
           "argparse usage + error are in each rank's stderr.log.",
    happened="both ranks exit 2 from argparse (`ag_train.py: error: argument --sched: invalid choice: 'cosine_warmup'`); "
             "the agent SIGTERMs the other and reports ChildFailedError.",
    judgement="a job-wide deterministic config error: kind all_ranks, config_error.",
    truth=T("failed", "all_ranks", cat="config_error", fd="error: argument --sched: invalid choice: 'cosine_warmup'",
            fd_rank=None, notes="every rank rejects the --sched value at argparse; nothing trains."))
J["ag-inconclusive-lightning-ddp-devices2-tqdm-csvlogger-snapshot-while-running"] = dict(
    cmd="`python ag_pl.py --strategy ddp --devices 2 --epochs 20 --step-sleep 0.15 --csv --progress` (Lightning ddp, "
        "2 ranks, TQDM progress bar; console to `console.log`), started with setsid; after 40 s the console and the "
        "CSVLogger files were copied to `snapshot/`, then the job was killed (not part of the capture)",
    planted="nothing; the capture is a snapshot of a job that was still running.",
    layout="`snapshot/console.log`: Lightning's console up to that moment (banner, summary, the progress bar's "
           "carriage-return updates, mid-epoch 4). `snapshot/logs/ag/version_0/`: metrics.csv (flushed rows up to "
           "step ~214) and hparams.yaml.",
    happened="the run was training normally (train_loss ~0.2, val_acc ~0.91) when the snapshot was taken.",
    judgement="inconclusive: the log just stops mid-run, no error and no end.",
    truth=T("inconclusive", notes="snapshot of a running Lightning ddp job; no failure, no completion."))
J["ag-torchrun-nproc4-logdir-no-tee-walltime-timeout-sigterm-ext"] = dict(
    cmd="`timeout -s TERM 30 torchrun --standalone --nproc-per-node 4 --log-dir logs ag_train.py --epochs 10 --steps 60 "
        "--sleep 0.05 --sched step --ckpt-every 1` (4 ranks; console to `console.log`)",
    planted="a 30 s wall-clock limit (timeout(1) as the job wrapper) for a run that needs longer.",
    layout="`console.log`: the agent console with the workers' output (no --tee / --redirects, so worker lines are "
           "unprefixed; `--log-dir` created only empty per-rank dirs, not collected).",
    happened="training proceeds normally through epoch 6 into epoch 7; the agent logs `Received 15 death signal, "
             "shutting down workers`, SIGTERMs its 4 workers and ends with `SignalException: Process <pid> got "
             "signal: 15`; exit 124 from timeout.",
    judgement="killed from outside, no rank to blame: kind external, category killed_by_scheduler. first_deviating: the "
              "agent's death-signal line; collateral: the SIGTERMs to the workers.",
    truth=T("failed", "external", cat="killed_by_scheduler", fd="Received 15 death signal, shutting down workers",
            fd_rank=None, coll=[(None, "closing signal SIGTERM")],
            notes="a healthy run is stopped by the wrapper's 30 s timeout (SIGTERM to torchrun)."))
J["ag-torchrun-nproc3-redirects2-logdir-faulthandler-native-hash-segv-r2"] = dict(
    cmd="`torchrun --standalone --nproc-per-node 3 --redirects 2 --log-dir logs ag_train.py --epochs 2 --steps 40 "
        "--hash-ext-rank 2 --hash-ext-step 52 --pg-timeout 60` (3 ranks; faulthandler enabled in the trainer; console "
        "to `console.log`)",
    planted="at global step 52, rank 2 hashes its raw batch through a native helper via ctypes with a stale buffer "
            "address (0xdead0000): a segmentation fault in its own process.",
    layout="`console.log`: agent console with the workers' stdout (records); with `--redirects 2` the workers' stderr "
           "goes only to `logs/<run id>/attempt_0/<r>/stderr.log` (tracebacks, faulthandler dump); "
           "stdout.log files are empty there.",
    happened="rank 2 dies with `Fatal Python error: Segmentation fault` (faulthandler stack in `string_at` / main, in "
             "its stderr.log); ranks 0/1 get gloo `Connection closed by peer` / `Connection reset by peer`; torchrun "
             "reports rank 2 exitcode -11 (SIGSEGV) as root cause.",
    judgement="kind rank, rank 2. Category code_exception: the crash is in the job's own code (a bad pointer handed to "
              "a native call), not hardware and not data.",
    truth=T("failed", "rank", rank=2, cat="code_exception", fd="Fatal Python error: Segmentation fault", fd_rank=2,
            coll=[(0, CLOSED)],
            notes="rank 2 segfaults in a ctypes call with a stale pointer; its peers lose the connection; torchrun "
                  "names rank 2 (SIGSEGV)."))

for name, m in J.items():
    d = os.path.join(OUT, name)
    assert os.path.isdir(d), name
    with open(os.path.join(d, "truth.json"), "w") as f:
        json.dump(m["truth"], f, indent=2); f.write("\n")
    with open(os.path.join(d, ".correlatorignore"), "w") as f:
        f.write("README.md\ntruth.json\n.correlatorignore\n")
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(f"# {name}\n\nCaptured on this machine (round Y, ag). Environment: {ENV}.\n\n"
                f"## What was run\n{m['cmd']}\n\n## Fault planted\n{m['planted']}\n\n## Layout\n{m['layout']}\n\n"
                f"## What happened\n{m['happened']}\n\n## Judgement\n{m['judgement']}\n\n"
                "Collection note: log files copied as written; only the capturing account's home / interpreter and "
                "work-dir prefixes were rewritten to neutral `/home/user/...` ones (collect.py).\n")
print(len(J), "jobs")
