#!/usr/bin/env python3
"""write README.md + truth.json of every am- capture folder from JOBS below."""
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
JOBS["am-torchrun-nproc4-plain-console-rank2-vocab-keyerror-nondaemon-pusher-thread-peers-gloo-timeout-r2"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 am_train.py --data data --epochs 2 --pg-timeout 30 --metrics-pusher`, "
      "4 ranks, plain DDP trainer (logging module).",
  fault="shard_02.npz holds one record whose label name ('ferret') is not in classes.txt -> KeyError on rank 2 at "
        "step 4 of epoch 0. Each rank runs a non-daemon metrics-pusher thread whose stop event is only set on the normal "
        "path (and on RuntimeError), so rank 2's interpreter does not exit after its traceback: its gloo sockets stay "
        "open and ranks 0, 1, 3 wait in the DDP gradient allreduce until the 30 s gloo timeout. The torchrun agent "
        "then SIGTERMs rank 2; its error summary names rank 0 as 'first observed failure'.",
  layout="console.log: torchrun's stdout+stderr (workers' [rankN]: tracebacks, agent lines, error summary).",
  judge="Rank 2's KeyError is the first failure, 30 s before the peers' gloo timeouts; the agent's root-cause rank 0 "
        "is only the first peer to time out. A bad record in the data -> data_error.",
  truth=fail(2, None, "rank", "data_error", "KeyError: np.str_('ferret')", 2,
             [("Timed out waiting 30000ms for recv operation to complete", 0),
              ("Timed out waiting 30000ms for send operation to complete", 3),
              ("Sending process 912 closing signal SIGTERM", None)],
             "Rank 2 hits a label name not in the class vocabulary (KeyError 'ferret') mid-epoch; a non-daemon thread "
             "keeps it alive so ranks 0,1,3 block in the allreduce and time out 30 s later; the agent SIGTERMs rank 2 "
             "and its summary misleadingly calls rank 0 the root cause."))
JOBS["am-mpirun-np3-timestamp-output-memcg-per-rank-evalcache-rank1-oomkill-r1"] = dict(
  run="`mpirun -np 3 --oversubscribe --timestamp-output --bind-to none -x ... ./am_memcg.sh python am_train.py "
      "--eval-cache-mb 240,1100,240`, 3 ranks (torch env:// from the OMPI_* variables), one console.",
  fault="am_memcg.sh puts each rank in its own cgroup-v1 memory cgroup capped at 900M (a per-task memory cap). The "
        "per-rank eval feature caches are uneven: rank 1 builds a 1100 MB cache -> the kernel OOM killer SIGKILLs "
        "rank 1 (no Python traceback); ranks 0 and 2, already in the first training step, get 'Connection closed by "
        "peer'; mpirun reports rank 1 killed by signal 9.",
  layout="console.log: mpirun's console with --timestamp-output (each worker line prefixed with the date and "
         "<stdout>/<stderr>), and mpirun's own banners.",
  judge="Rank 1 starts a 1100 MB cache and never reports it ready; it is the process mpirun says was Killed "
        "(signal 9) while peers report a closed connection: an OOM kill of rank 1 (memory cap).",
  truth=fail(1, None, "rank", "oom", "building eval feature cache (1100 MB)", 1,
             [("Connection closed by peer [127.0.0.1]:36551", 2), ("Connection closed by peer [127.0.0.1]:32971", 0)],
             "Rank 1 builds an eval cache larger than its 900M memory cgroup and is SIGKILLed by the OOM killer "
             "(mpirun: rank 1 exited on signal 9 (Killed)); ranks 0 and 2 fail with Connection closed by peer."))
JOBS["am-lightning-ddp-devices3-console-rank1-stuck-sensor-col-zero-std-nan-guard-r1"] = dict(
  run="`python am_pl.py --devices 3 --max-epochs 3 --normalize shard --nan-guard` = Lightning "
      "Trainer(accelerator='cpu', devices=3, strategy='ddp'); Lightning re-launches the script for ranks 1 and 2; "
      "one console.",
  fault="shard_01.npz has a constant feature column (stuck sensor); the data module standardises features per "
        "shard, so rank 1's column is 0/0 = NaN and its loss is NaN at the first step; the training_step NaN guard "
        "raises FloatingPointError on rank 1; ranks 0 and 2 fail in the DDP allreduce (Connection closed by peer).",
  layout="console.log: stdout+stderr of the Lightning job (rank 0 and its child processes share it).",
  judge="Only rank 1 sees a non-finite loss; the peers' errors are consequences of its exit.",
  truth=fail(1, None, "rank", "nan_divergence", "FloatingPointError: rank 1: loss is nan at step 0", 1,
             [("Connection closed by peer [127.0.0.1]:41106", 0), ("Connection closed by peer [127.0.1.1]:52624", 2)],
             "Rank 1's shard has a constant feature column; per-shard standardisation divides by a zero std, the "
             "loss is NaN at step 0 and the NaN guard raises on rank 1; ranks 0 and 2 see the peer's connection close."))
JOBS["am-accelerate-cpu-nproc4-final-eval-pad-loop-empty-val-split-wait-for-everyone-hang-r3"] = dict(
  run="`accelerate launch --multi_gpu --num_processes 4 --num_machines 1 --mixed_precision no --dynamo_backend no "
      "--main_process_port 29561 am_acc.py --epochs 2 --pg-timeout 30` (no GPU: Accelerator(cpu=True), MULTI_CPU + "
      "gloo), 4 ranks, one console.",
  fault="The final evaluation splits the 6-row val set contiguously (ceil(6/4) = 2 rows per rank), so rank 3 gets 0 "
        "rows; pad_batch() then loops forever extending an empty list. Ranks 0-2 wait at the end of the run in "
        "accelerator.wait_for_everyone() (gloo barrier) and time out after 30 s; the torchrun agent inside accelerate "
        "SIGTERMs the rest, rank 3 included. The agent's 'first observed failure' is rank 2.",
  layout="console.log: accelerate launch's stdout+stderr (workers' log lines, [rankN]: tracebacks, agent lines, "
         "error summary).",
  judge="Rank 3 is the only rank that says 'final eval on 0 val rows' and never reaches the barrier; it shows no "
        "error and is SIGTERMed (a hang at exit), while the other three time out in the barrier.",
  truth=fail(3, None, "rank", "nccl_timeout_hang", "rank 3: final eval on 0 val rows", 3,
             [("Timed out waiting 30000ms for recv operation to complete", 0),
              ("Timed out waiting 30000ms for send operation to complete", 2),
              ("Signal 15 (SIGTERM) received by PID 9266", 3)],
             "Hang at the end of the run: rank 3's empty val split makes pad_batch() spin forever, ranks 0-2 time out "
             "after 30 s in wait_for_everyone(); the agent blames rank 2 (first to exit) and SIGTERMs rank 3."))
JOBS["am-2node-uts-accelerate-cpu-2machines-node-local-scratch-stagein-incomplete-shards-missing-node-b"] = dict(
  run="Two nodes (unshare -u hostnames trn-a / trn-b, each with its own private tmpfs node-local /mnt), one "
      "`accelerate launch --multi_gpu --num_machines 2 --machine_rank {0,1} --num_processes 4 --main_process_ip trn-a "
      "--main_process_port 29570 am_acc.py --data /mnt/scratch/data` per node (2 ranks each; MULTI_CPU + gloo).",
  fault="Each node's stage-in copies the dataset into its node-local /mnt/scratch/data; trn-b's stage-in list only "
        "had the metadata files (classes.txt, stats.pkl, val.npz), so ranks 2 and 3 (both on trn-b) fail with "
        "FileNotFoundError for their shards; ranks 0 and 1 on trn-a fail in the first collective.",
  layout="node-a.log, node-b.log: each node's console (stage-in lines, accelerate / torchrun agent output, workers).",
  judge="A node-local data problem on trn-b: both of its ranks miss their shard while trn-a's ranks load theirs.",
  truth=fail(None, "trn-b", "rank", "data_error", "stage-in done: 3 files", None,
             [("Connection closed by peer [127.0.0.1]:58562", 1), ("Connection closed by peer [127.0.0.1]:64186", 0)],
             "trn-b's node-local scratch got only 3 of the 7 dataset files at stage-in; ranks 2 and 3 on trn-b fail "
             "with FileNotFoundError for shard_02/shard_03.npz; trn-a's ranks then see closed connections."))
JOBS["am-2node-uts-torchrun-static-tee3-nodeb-stale-venv-numpy124-stats-pickle-numpy-core-node-b"] = dict(
  run="Two nodes (unshare -u hostnames trn-a / trn-b), `torchrun --nnodes 2 --node-rank {0,1} --nproc-per-node 2 "
      "--master-addr trn-a --master-port 29580 --tee 3 am_train.py` on each (static rendezvous, 4 ranks).",
  fault="trn-b runs from an older virtualenv (same torch 2.13.0 but numpy 1.24.4) while the dataset's stats.pkl was "
        "written with numpy 2.x: ranks 2 and 3 fail to unpickle it (ModuleNotFoundError: No module named "
        "'numpy._core'); trn-a's ranks 0 and 1 fail with Connection closed by peer.",
  layout="node-a.log, node-b.log: each node's torchrun console (--tee 3: worker lines prefixed [defaultN]:).",
  judge="Version mismatch between the nodes' environments (numpy 1.24 on trn-b, visible in the venv_old binary path "
        "of its agent); both trn-b ranks fail identically, trn-a's failures are consequences.",
  truth=fail(None, "trn-b", "rank", "version_mismatch", "ModuleNotFoundError: No module named 'numpy._core'", 2,
             [("Connection closed by peer [127.0.0.1]:45274", 1), ("Connection closed by peer [127.0.0.1]:49831", 0)],
             "Node trn-b's virtualenv has numpy 1.24.4, the stats.pickle was written by numpy 2.x; unpickling fails "
             "on both trn-b ranks (No module named 'numpy._core'), trn-a's ranks see the peers' connections close."))
JOBS["am-spawn-nprocs-auto-2-config-world-size-3-store-wait-timeout-all"] = dict(
  run="`python am_train.py --nprocs $(nproc) --world-size 3 --pg-timeout 30 --log-style print` (torch.multiprocessing"
      ".spawn inside the script; nprocs = 2 local CPUs, world_size 3 read from run.yaml), one console.",
  fault="World size mismatch: the run config says world_size 3 (copied from a 3-worker box) but only 2 processes are "
        "spawned; rank 0's TCPStore waits for a third client and times out after 30 s; spawn reports process 0's error.",
  layout="console.log: the script's stdout+stderr (spawn's ProcessRaisedException with the child traceback).",
  judge="A job-wide configuration error (wrong world size): no rank is to blame.",
  truth=fail(None, None, "all_ranks", "config_error",
             "Timed out after 31 seconds waiting for clients. 1/3 clients joined.", 0, [],
             "world_size 3 from the config with only 2 spawned processes: the store never sees the third client "
             "and init_process_group times out on rank 0 (DistStoreError 1/3 clients joined)."))
JOBS["am-healthy-mpirun-np4-output-filename-lightning-mpi-environment-ddp-warnings"] = dict(
  run="`mpirun -np 4 --oversubscribe --bind-to none --output-filename logs -x ... python am_pl.py --devices 4 "
      "--max-epochs 3`: Lightning Trainer(strategy='ddp', devices=4) detects the MPI environment through mpi4py and "
      "does not re-launch; 4 ranks.",
  fault="None (healthy). The run prints the usual noise: litlogger tip, c10d hostname warnings, pytree deprecation, "
        "sync_dist recommendations.",
  layout="mpirun.console: mpirun's console (all ranks interleaved); logs/1/rank.N/stdout and stderr: mpirun's "
         "--output-filename per-rank copies.",
  judge="All 4 ranks train 3 epochs, Lightning prints '`Trainer.fit` stopped: `max_epochs=3` reached.', rank 0 prints "
        "final metrics, mpirun exits 0.",
  truth=ok("healthy", "Lightning DDP under mpirun ran 3 epochs to completion on 4 ranks with only warnings."))
JOBS["am-healthy-torchrun-maxrestarts1-logdir-redirects3-stagein-race-partial-shard-restart-recovers"] = dict(
  run="`torchrun --nnodes 1 --rdzv-backend c10d --rdzv-endpoint localhost:29640 --nproc-per-node 3 --max-restarts 1 "
      "--log-dir logs --redirects 3 am_train.py --epochs 3 --ckpt ckpt`, 3 ranks.",
  fault="The job is started while the stage-in of shard_02.npz is still writing it in place (half written, the rest "
        "7 s later). Attempt 0: rank 2 fails reading the truncated npz (BadZipFile); the agent restarts the worker "
        "group; by then the stage-in is complete and attempt 1 trains to the end.",
  layout="console.log: the torchrun agent's console; logs/<run_id>/attempt_{0,1}/<rank>/stdout.log, stderr.log: the "
         "workers' redirected output; stagein.log: the stage-in tool's line.",
  judge="The elastic restart recovers: attempt 1's ranks log 'training finished' and torchrun exits 0.",
  truth=ok("healthy", "Transient failure of rank 2 in attempt 0 (half-written shard), recovered by the elastic "
           "restart; attempt 1 finishes and the launcher exits 0."))
JOBS["am-inconclusive-mpirun-np3-tag-output-print-console-snapshot-while-running"] = dict(
  run="`mpirun -np 3 --oversubscribe --bind-to none --tag-output -x ... python am_train.py --epochs 40 "
      "--step-sleep 0.2 --log-style print --ckpt ckpt`, 3 ranks.",
  fault="None: the console was copied 25 s after start while the job was still training (snapshot).",
  layout="snapshot/console.log: the copy of mpirun's --tag-output console ([1,N]<stdout>: prefixes).",
  judge="The log just stops mid-training with no error and no end: inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running job: training lines up to the copy, no error, no completion."))
JOBS["am-healthy-spawn-nprocs3-logging-console-ckpt-each-epoch-final-barrier"] = dict(
  run="`python am_train.py --nprocs 3 --epochs 4 --ckpt ckpt` (torch.multiprocessing.spawn inside the script), 3 "
      "ranks, logging module, one console.",
  fault="None (healthy).",
  layout="console.log: the script's stdout+stderr.",
  judge="All ranks log 'training finished' after 4 epochs and checkpoints; exit 0.",
  truth=ok("healthy", "mp.spawn DDP run of 4 epochs finished on all 3 ranks."))

if __name__ == "__main__":
    for name, j in JOBS.items():
        d = os.path.join(OUT, name)
        if not os.path.isdir(d):
            print("missing", name); continue
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(j["truth"], f, indent=2); f.write("\n")
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\nEnvironment: {ENV}.\n\nWhat was run: {j['run']}\n\nFault planted: {j['fault']}\n\n"
                    f"Layout: {j['layout']}\n\nJudgement: {j['judge']}\n\nScript: _capture_am/{name}.sh\n")
    print(len(JOBS), "jobs")
