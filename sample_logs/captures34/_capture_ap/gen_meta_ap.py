#!/usr/bin/env python3
"""write README.md + truth.json of every ap- capture folder from JOBS below."""
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
JOBS["ap-torchrun-nproc3-logdir-tee3-actckpt-custom-autograd-backward-odd-batch-view-error-r2"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --log-dir logs --tee 3 ap_train.py --data data --epochs 2 --act-ckpt "
      "--pg-timeout 60`, 3 ranks, plain DDP trainer (logging module).",
  fault="The hidden block runs under torch.utils.checkpoint (use_reentrant=False) and uses a custom autograd Function "
        "(PairSiLU) whose backward processes the batch two rows at a time with grad.view(-1, 2, h): a bug for odd batch "
        "sizes. Shards 0 and 1 have 256 rows (8 full batches); shard 2 has 253 rows, so rank 2's last batch has 29 rows "
        "and its backward raises RuntimeError (shape '[-1, 2, 64]' is invalid) at step 7 of epoch 0. Ranks 0 and 1, "
        "in the DDP gradient allreduce, get 'Connection closed by peer'; the agent SIGTERMs them.",
  layout="console.log: torchrun's console (workers' output teed with [defaultN]: prefixes, agent lines, error "
         "summary); logs/<run id>/attempt_0/<local rank>/stdout.log + stderr.log: the --log-dir tree.",
  judge="Rank 2 raises in its own code (the custom autograd backward) first; the peers' closed connections and "
        "SIGTERMs are consequences. A bug in user code -> code_exception, rank 2.",
  truth=fail(2, None, "rank", "code_exception", "RuntimeError: shape '[-1, 2, 64]' is invalid for input of size 1856", 2,
             [("Connection closed by peer [127.0.1.1]:6049", 1), ("Connection closed by peer [127.0.0.1]:25310", 0),
              ("Sending process 2607 closing signal SIGTERM", None)],
             "Rank 2's custom autograd Function backward (inside an activation-checkpointed block) views the grad in row "
             "pairs and fails on its odd-sized last batch (29 rows); ranks 0 and 1 then see Connection closed by peer "
             "in the DDP allreduce and are SIGTERMed; torchrun's summary names rank 2 as root cause."))
JOBS["ap-spawn-nprocs3-rankfiles-rank1-skips-unknown-label-batch-ddp-allreduce-count-mismatch-r1"] = dict(
  run="`python ap_train.py --data data --nprocs 3 --epochs 3 --skip-unknown --pg-timeout 30 --log-dir ranklogs` = "
      "torch.multiprocessing.spawn(nprocs=3), logging module to the console and to per-rank files.",
  fault="The trainer skips (continue, no forward/backward) any batch that holds a label not in classes.txt. Shard 1 has "
        "3 rows labelled 'unknown' in batch 5, so rank 1 runs one DDP gradient allreduce fewer than ranks 0 and 2 in "
        "epoch 0: when rank 1 reaches the epoch-end loss all_reduce (1 float, 4 bytes) its peers are still in the "
        "gradient-bucket allreduce of their last step (3672 bytes). Gloo's size check aborts rank 1 "
        "(gloo::EnforceNotMet, 'Is there a distributed collective mismatch in your code?'); mp.spawn terminates the "
        "others and reports process 1 terminated with SIGABRT.",
  layout="console.log: stdout+stderr of the spawn parent (all ranks' log lines, the gloo abort message, the spawn "
         "traceback); ranklogs/rank0.log .. rank2.log: each rank's own log file.",
  judge="Only rank 1 skips a batch (its WARNING), and the abort is the mismatch that skip creates between the "
        "collectives of rank 1 and its peers. Collective-count mismatch started by rank 1.",
  truth=fail(1, None, "rank", "collective_mismatch", "epoch 0 step 5: skipping batch with 3 rows of unknown label", 1,
             [("Terminating process 4997 via signal SIGTERM", None), ("Terminating process 4999 via signal SIGTERM", None)],
             "Rank 1 skips a batch with unknown labels, so it issues one gradient allreduce fewer than its peers; its "
             "epoch-end 4-byte all_reduce receives a peer's 3672-byte bucket and gloo aborts it (op.preamble.length <= "
             "op.nbytes, collective mismatch). mp.spawn then terminates ranks 0 and 2."))
JOBS["ap-accelerate-cpu-nproc3-jsonlines-rank0-class-weights-float64-broadcast-dtype-mismatch-r0"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--main_process_port 29621 ap_acc.py --data data --epochs 2 --class-weights --pg-timeout 30` (no GPU: accelerate "
      "falls back to MULTI_CPU + gloo), 3 ranks; the script logs JSON lines (logging + a JSON formatter).",
  fault="Rank 0 computes inverse-frequency class weights from its shard with numpy and wraps them with torch.from_numpy "
        "(float64) before dist.broadcast(src=0); ranks 1 and 2 receive into torch.empty(4) (float32). Rank 0 sends 32 "
        "bytes, the receivers expect 16: gloo aborts ranks 1 and 2 (EnforceNotMet ... 32 vs 16); the launcher SIGTERMs "
        "rank 0, whose own broadcast had already returned.",
  layout="console.log: accelerate launch's console (the workers' JSON lines, the interleaved gloo abort messages of "
         "ranks 1 and 2, the torchrun-style error summary).",
  judge="The two receivers die, but the payload they got is twice what they allocated: the sender (rank 0, the only "
        "src of the broadcast) put a float64 tensor in; its class-weights line is the last thing before the abort. "
        "Collective mismatch (dtype) started by rank 0; the summary's 'root cause' rank 1 is a receiver.",
  truth=fail(0, None, "rank", "collective_mismatch", "op.preamble.length <= op.nbytes. 32 vs 16", None,
             [("Sending process 6916 closing signal SIGTERM", None)],
             "Rank 0 broadcasts float64 class weights (torch.from_numpy of a numpy float64 array) while ranks 1 and 2 "
             "receive into float32 buffers: gloo's size check aborts both receivers (32 vs 16 bytes); the launcher "
             "SIGTERMs rank 0. The fault is the sender's dtype, rank 0."))
JOBS["ap-2node-uts-torchrun-c10d-nnodes2-logdir-per-node-nodeb-cuda-visible-devices-one-entry-device-check-node-b"] = dict(
  run="Two \"nodes\" (UTS namespaces trn-a / trn-b), each `torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d "
      "--rdzv-endpoint trn-a:29630 --rdzv-id job-4417 --redirects 3 --log-dir <node>/logs ap_train.py --data data "
      "--epochs 2 --device-check --pg-timeout 30`, 4 ranks (0-1 on trn-a, 2-3 on trn-b).",
  fault="Each node sources its node environment file before launching; trn-b's carries CUDA_VISIBLE_DEVICES=0 (left "
        "from a single-device debug session) instead of 0,1. The trainer's startup device check (one visible device per "
        "local rank) raises RuntimeError on both trn-b ranks before init_process_group; trn-b's agent stops; trn-a's "
        "ranks 0 and 1 wait in init_process_group for ranks 2/3 until the 30 s store timeout (DistStoreError).",
  layout="trn-a/console.log, trn-b/console.log: each agent's console; trn-a/logs/..., trn-b/logs/...: each node's "
         "--log-dir tree (attempt_0/<local rank>/stdout.log + stderr.log).",
  judge="Both of trn-b's ranks fail the same environment check at start-up (a node-level misconfiguration), 30 s "
        "before trn-a's ranks time out waiting for them. Config error on node trn-b; the trn-a agent's summary "
        "(rank 0 root cause) only shows the timeout.",
  truth=fail(None, "trn-b", "rank", "config_error", "RuntimeError: local rank 0 on trn-b: 1 visible device(s)", 2,
             [("torch.distributed.DistStoreError: wait timeout after 30000ms, keys: /default_pg/0//cpu//0/2", 0),
              ("Sending process 8329 closing signal SIGTERM", None)],
             "Node trn-b's environment has CUDA_VISIBLE_DEVICES=0 for 2 local ranks; the device check raises on ranks 2 "
             "and 3 (trn-b) at start-up; trn-a's ranks then time out in init_process_group (DistStoreError). Machine-"
             "level config on trn-b."))
JOBS["ap-torchrun-nproc8-redirects3-logdir-resume-rank5-state-file-nul-block-weights-only-unpicklingerror-r5"] = dict(
  run="8 ranks. A first run (`torchrun --standalone --nproc-per-node 8 ap_train.py --epochs 1 --ckpt ckpt`, not "
      "captured) wrote ckpt/model.pt and one per-rank state file ckpt/rank_XX_state.pt (RNG + optimizer state) per rank. "
      "Captured: the resume `torchrun --standalone --nproc-per-node 8 --redirects 3 --log-dir logs ap_train.py --data "
      "data --resume ckpt --epochs 3 --pg-timeout 60`.",
  fault="Between the runs a block of NUL bytes landed in rank 5's state file (bytes 64-255 zeroed: the start of the "
        "pickle stream inside the zip archive, a lost block). Rank 5's torch.load (weights_only default) fails with "
        "_pickle.UnpicklingError (WeightsUnpickler: Unsupported operand 0); the agent SIGTERMs the 7 other ranks.",
  layout="console.log: the agent's console only (workers redirected); logs/<run id>/attempt_0/<0..7>/stdout.log + "
         "stderr.log: each rank's output.",
  judge="Rank 5 alone fails loading its own file; the others had restored theirs and are stopped by the agent. The "
        "error text points at weights_only, but the file is corrupted (re-running with weights_only=False would not "
        "help): corrupted file on disk -> storage_io, rank 5.",
  truth=fail(5, None, "rank", "storage_io", "_pickle.UnpicklingError: Weights only load failed.", 5,
             [("Sending process 9194 closing signal SIGTERM", None), ("Sending process 9201 closing signal SIGTERM", None)],
             "Rank 5's per-rank resume state file has a block of NUL bytes over the pickle stream; torch.load raises "
             "UnpicklingError (Unsupported operand 0, reported as a weights-only failure). The torchrun agent SIGTERMs "
             "ranks 0-4, 6, 7 and names rank 5 as root cause."))
JOBS["ap-mpirun-np4-output-filename-rlimit-wrapper-rank2-as-limit-dropped-digit-emb-cache-alloc-oom-r2"] = dict(
  run="`mpirun -np 4 --oversubscribe --bind-to none --output-filename logs -x ... ./ap_rlimit.sh python ap_train.py "
      "--data data --epochs 2 --emb-cache-mb 1024 --pg-timeout 60`, 4 ranks (torch env:// from the OMPI_* variables).",
  fault="ap_rlimit.sh applies `ulimit -v` per rank from rank-limits.conf; rank 2's entry lost a digit (1600000 KB "
        "instead of 16000000 KB). Each rank allocates a 1024 MB embedding cache after init: rank 2's allocation fails "
        "(DefaultCPUAllocator: can't allocate memory, error 12); ranks 0, 1, 3 fail in the first DDP allreduce "
        "(Connection closed by peer); mpirun names rank 2 as the first non-zero exit.",
  layout="mpirun.console: mpirun's console (it echoes the ranks' output too) and its banners; logs/1/rank.N/stdout + "
         "stderr: the --output-filename per-rank files.",
  judge="Only rank 2 fails to allocate; the others build the same cache and then lose their peer. Out of memory "
        "(address-space cap) on rank 2.",
  truth=fail(2, None, "rank", "oom", "DefaultCPUAllocator: can't allocate memory: you tried to allocate 1073741824 bytes", 2,
             [("Connection closed by peer [127.0.0.1]:36993", 1), ("Connection closed by peer [127.0.0.1]:31909", 3),
              ("Connection closed by peer [127.0.0.1]:9905", 0)],
             "Rank 2 runs under a mistyped 1.6 GB address-space limit and cannot allocate its 1 GB embedding cache "
             "(RuntimeError DefaultCPUAllocator, ENOMEM); ranks 0, 1, 3 then hit Connection closed by peer and mpirun "
             "aborts the job."))
JOBS["ap-spawn-nprocs4-print-console-rank1-short-shard-guard-silent-sys-exit-3-r1"] = dict(
  run="`python ap_train.py --data data --nprocs 4 --epochs 3 --log-style print --pg-timeout 60` = "
      "torch.multiprocessing.spawn(nprocs=4), print-style log lines, one console.",
  fault="Shard 1 has only 20 rows, fewer than one batch of 32. The trainer's shard guard calls sys.exit(3) without "
        "printing anything; mp.spawn sees process 1 exit with code 3, SIGTERMs the other three and raises "
        "ProcessExitedException.",
  layout="console.log: stdout+stderr of the spawn parent.",
  judge="Rank 1's 'loaded shard_01.npz: 20 rows' is the only anomaly, and rank 1 is the process that exits (code 3) "
        "with no traceback. Too-short data shard -> data_error, rank 1.",
  truth=fail(1, None, "rank", "data_error", "loaded shard_01.npz: 20 rows, 1 batches of 32", 1,
             [("Terminating process 9998 via signal SIGTERM", None), ("Terminating process 10000 via signal SIGTERM", None),
              ("Terminating process 10001 via signal SIGTERM", None)],
             "Rank 1's shard has 20 rows (< batch 32); a silent sys.exit(3) guard ends it; spawn reports 'process 1 "
             "terminated with exit code 3' and terminates the other ranks."))
JOBS["ap-2node-netns-veth-torchrun-c10d-elastic-maxrestarts1-nodeb-link-down-agent-store-connection-lost-node-b"] = dict(
  run="Two \"nodes\": UTS namespaces trn-a / trn-b, trn-b also in its own network namespace wired to trn-a by a veth pair "
      "(10.77.0.1 / 10.77.0.2). One elastic agent per node: `torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d "
      "--rdzv-endpoint trn-a:29650 --rdzv-id ft-7731 --max-restarts 1 --rdzv-conf join_timeout=40,read_timeout=30 "
      "ap_train.py --data data --epochs 3 --pg-timeout 20 --step-sleep 0.1`, 4 ranks (0-1 trn-a, 2-3 trn-b); the c10d "
      "store is hosted by trn-a's agent.",
  fault="14 s after launch (epoch 1) trn-b's interface goes down (`ip link set vb down` in its netns: link/NIC "
        "failure). All four workers time out in the gloo allreduce (20 s); trn-a's agent restarts its workers but the "
        "re-rendezvous never sees trn-b and ends with RendezvousTimeoutError; trn-b's agent loses its store connection "
        "(c10d waitForInput timed out after 30000ms) and then hangs; 60 s after trn-a's agent exited the operator "
        "SIGTERMs and then SIGKILLs it (no output).",
  layout="node-a.log, node-b.log: each agent's console (workers' log lines and tracebacks, agent messages).",
  judge="The worker timeouts are symmetric (both nodes' ranks time out at once); what tells the nodes apart is that "
        "trn-b's agent loses its socket to the store on trn-a while trn-a's agent (store host) carries on to a new "
        "rendezvous that trn-b never joins. Network loss at node trn-b -> nccl_network (the network-failure category; "
        "gloo here), node trn-b.",
  truth=fail(None, "trn-b", "rank", "nccl_network",
             "[c10d] waitForInput: poll for socket SocketImpl(fd=4, addr=[ac4b:223b:387f:0:506a:223b:387f:0]:24166", None,
             [("Timed out waiting 20000ms for send operation to complete", 0),
              ("Timed out waiting 20000ms for recv operation to complete", 1),
              ("torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError", None)],
             "trn-b's link went down mid-training: all ranks' gloo allreduces time out, trn-b's agent loses its store "
             "connection (waitForInput timed out), and trn-a's restart waits in rendezvous for trn-b until "
             "RendezvousTimeoutError. Node-level network loss on trn-b."))
JOBS["ap-healthy-lightning-ddp-devices4-console-json-lines-activation-checkpointing-sync-dist"] = dict(
  run="`python ap_pl.py --data data --devices 4 --max-epochs 3` = Lightning Trainer(accelerator='cpu', devices=4, "
      "strategy='ddp'); Lightning re-launches the script for ranks 1-3; one console.",
  fault="None. The hidden block runs under torch.utils.checkpoint (use_reentrant=False); the script's own messages "
        "are JSON lines; metrics logged with sync_dist=True.",
  layout="console.log: stdout+stderr of the Lightning job (rank 0 and its child processes share it).",
  judge="All ranks finish 3 epochs; `Trainer.fit` stopped: `max_epochs=3` reached and final metrics printed; only "
        "deprecation / tip lines. Healthy.",
  truth=ok("healthy", "Lightning DDP run on 4 CPU ranks reaches max_epochs=3 and prints final metrics; only "
                      "warnings (LeafSpec deprecation, litlogger tip)."))
JOBS["ap-healthy-torchrun-nproc3-redirects3-tee1-logdir-uneven-shards-ddp-join-context"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --log-dir logs --redirects 3 --tee 1 ap_train.py --data data --epochs 3 "
      "--join --ckpt ckpt --pg-timeout 60`, 3 ranks.",
  fault="None. Shards are uneven (256 / 200 / 256 rows -> 8 / 7 / 8 batches); each epoch runs inside DDP's "
        "model.join() context so the rank with fewer batches shadows its peers' allreduces.",
  layout="console.log: the agent console with the workers' stdout teed ([defaultN]: prefix); logs/<run id>/attempt_0/"
         "<rank>/stdout.log + stderr.log: the --log-dir tree.",
  judge="All three ranks log 'training finished' after epoch 2; torchrun exits 0. Healthy.",
  truth=ok("healthy", "Uneven shards handled by DDP join(); 3 epochs complete on all ranks, checkpoints saved, "
                      "'training finished' on ranks 0-2.")) 
JOBS["ap-inconclusive-spawn-nprocs2-json-logging-rankfiles-snapshot-while-running"] = dict(
  run="`python ap_train.py --data data --nprocs 2 --epochs 30 --log-style json --log-dir ranklogs --step-sleep 0.15 "
      "--ckpt ckpt` = torch.multiprocessing.spawn(nprocs=2), JSON-lines logging to the console and per-rank files.",
  fault="None. The console and rank files were copied 20 s after the start (during epoch 2 of 30) while the job was "
        "still training; the job was then stopped (not part of the capture).",
  layout="snapshot/console.log: the spawn parent's console at the time of the copy; snapshot/ranklogs/rank0.log, "
         "rank1.log: the per-rank files at the same time.",
  judge="The log just stops mid-training with no error and no end: inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running 30-epoch job taken in epoch 2: loss decreasing, no error, no "
                           "completion; the log just stops."))

if __name__ == "__main__":
    for name, j in JOBS.items():
        d = os.path.join(OUT, name)
        assert os.path.isdir(d), d
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(j["truth"], f, indent=2); f.write("\n")
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\nEnvironment: {ENV}.\n\nRun: {j['run']}\n\nFault: {j['fault']}\n\n"
                    f"Layout: {j['layout']}\n\nJudgement: {j['judge']}\n\nScript: _capture_ap/{name}.sh (logs "
                    "collected by _capture_ap/collect.py: home-dir prefixes and the scratch dir neutralised).\n")
    print(len(JOBS), "jobs")
