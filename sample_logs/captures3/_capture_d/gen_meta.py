"""Write truth.json, README.md and .correlatorignore into each captured d-* incident.

    python gen_meta.py OUT      (OUT: the folder holding the d-* directories)

The truths below were written from what was injected and from what the ranks printed
(read by eye in the captured files), not from any tool's output. The "files" section
of each README is computed from the files themselves (line counts, exception lines).
"""
import json
import os
import re
import sys

VERSIONS = ("Python 3.11.7, torch 2.13.0+cpu (gloo), Open MPI 4.1.4 (Debian 12 `openmpi-bin`), "
            "ray 2.60.0 (`ray[train]`, Train v2 controller); 2-core CPU machine, host `vm`, 2026-12-05")
IGNORE = "# scenario documentation, not logs\nREADME.md\ntruth.json\n"


def failed(rank, category, contains, fd_rank, collateral, notes, all_ranks=False, kind="rank"):
    return {
        "schema_version": 1,
        "status": "failed",
        "initiating": {"rank": rank, "node": None, "all_ranks": all_ranks, "kind": kind},
        "root_cause": {"category": category, "rule_id": None},
        "first_deviating": {"contains": contains, "rank": fd_rank},
        "collateral": [{"contains": c, "ranks": r} for c, r in collateral],
        "notes": notes,
    }


def healthy(notes):
    return {
        "schema_version": 1,
        "status": "healthy",
        "initiating": {"rank": None, "node": None, "all_ranks": False, "kind": None},
        "root_cause": {"category": None, "rule_id": None},
        "first_deviating": {"contains": None, "rank": None},
        "collateral": [],
        "notes": notes,
    }


MPI = ("mpirun --allow-run-as-root --oversubscribe -np 4 -x MASTER_ADDR=127.0.0.1 "
       "-x MASTER_PORT={port} -x PYTHONUNBUFFERED=1")
RAY = ("RAY_USAGE_STATS_ENABLED=0 HOME=$PWD/home unshare -n sh -c 'ip link set lo up && exec nice \"$@\"' sh \\\n"
       "  python ray_train.py")
GLOO_CLOSED = "Connection closed by peer"
GLOO_RESET = "Connection reset by peer"

INCIDENTS = {
    "d-mpi-tag-jsonl-truncated": dict(
        launcher="Open MPI `mpirun -np 4 --tag-output` (4 ranks, rank from `OMPI_COMM_WORLD_RANK`)",
        layout="`console.log` (mpirun's stdout+stderr, every worker line prefixed `[1,N]<stdout>:` / `[1,N]<stderr>:`)",
        command="python make_shards.py data --world 4 --truncate-line 2:75\n"
                "nice " + MPI.format(port=29811) + " --tag-output \\\n"
                "  python dtrain.py --steps 20 > console.log 2>&1      # exit 1",
        injected="line 75 of rank 2's shard `data/shard-00002.jsonl` is cut in half (as a partial copy "
                 "leaves it); rank 2 reads lines 72-79 at step 10.",
        ranks="rank 2: `json.loads` raises `json.decoder.JSONDecodeError: Expecting value: line 2 column 1 "
              "(char 54)` at step 10 (traceback lines `[1,2]<stderr>:[rank2]: ...`). Ranks 1, 3 and 0 fail in "
              "DDP's backward all-reduce with gloo `Connection closed by peer` (in that order in the file; "
              "rank 0's comes after mpirun's `Primary job terminated normally, but 1 process returned a "
              "non-zero exit code` box). mpirun's closing box names `Process name: [[31535,1],2]` "
              "`Exit code: 1` as the first process to exit non-zero (the `,2` is the MPI rank).",
        hard="Four tracebacks; three of them are the gloo echo. Rank 0's echo is printed after mpirun's first "
             "box. The rank is in the `[1,N]` tag and in torch's `[rankN]:` prefix; mpirun names the "
             "culprit only as `[[jobid,1],2]`. The error text (`Expecting value: line 2 column 1`) does "
             "not say which file: only the traceback's `json.loads(line)` frame says it is input data.",
        truth=failed(2, "data_error", "JSONDecodeError: Expecting value: line 2 column 1 (char 54)", 2,
                     [(GLOO_CLOSED, [0, 1, 3])],
                     "a half-written JSONL line in rank 2's shard: JSONDecodeError at step 10; ranks 0, 1, 3 "
                     "gloo 'Connection closed by peer'; mpirun names [[31535,1],2] as the first non-zero exit."),
    ),
    "d-mpi-outfile-sigkill": dict(
        launcher="Open MPI `mpirun -np 4 --output-filename logs:nocopy` (4 ranks)",
        layout="`console.log` (mpirun's own console: only its boxes, the workers' output is not copied there) "
               "+ `logs/1/rank.N/{stdout,stderr}` (Open MPI's per-rank files; `1` is the job number)",
        command="python make_shards.py data --world 4\n"
                "nice " + MPI.format(port=29812) + " --output-filename logs:nocopy \\\n"
                "  python dtrain.py --steps 20 --fault sigkill --fail-rank 1 --fail-step 9 > console.log 2>&1   # exit 137",
        injected="rank 1 sends itself SIGKILL at the start of step 9 (what the host OOM killer does; no dmesg "
                 "on this machine).",
        ranks="rank 1: prints nothing: `logs/1/rank.1/stdout` stops after `process group ready`, "
              "`rank.1/stderr` is empty. Ranks 0 and 2 fail in the backward all-reduce with gloo `Read error "
              "[127.0.0.1]:NNNNN: Connection reset by peer` (`rank.0/stderr`, `rank.2/stderr`). Rank 3 prints "
              "nothing (empty stderr; killed by mpirun). `console.log`: `Primary job terminated normally, but "
              "1 process returned a non-zero exit code` and `mpirun noticed that process rank 1 with PID 0 on "
              "node vm exited on signal 9 (Killed).` (PID 0 is what mpirun printed).",
        hard="The initiator's own files are silent (one empty); the only line naming it is mpirun's in "
             "`console.log`, a different file from the ranks'. The per-rank files are named `stdout`/`stderr` "
             "in `rank.N` directories, with no rank inside the lines except torch's `[rankN]:` prefix on "
             "tracebacks. mpirun's `PID 0` is not the process's pid.",
        truth=failed(1, "oom", "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed)", 1,
                     [(GLOO_RESET, [0, 2])],
                     "rank 1 SIGKILLed at step 9 (the OOM killer's signature; the OOM is an inference from "
                     "signal 9, as in torchrun-logdir-tree) and silent; ranks 0, 2 gloo 'Connection reset by "
                     "peer'; rank 3 silent; only mpirun's console line names rank 1."),
    ),
    "d-mpi-timestamp-sigbus": dict(
        launcher="Open MPI `mpirun -np 4 --tag-output --timestamp-output` (4 ranks), `PYTHONFAULTHANDLER=1`",
        layout="`console.log` (worker lines prefixed `Sat Dec  5 10:17:39 2026[1,N]<stderr>:`, mpirun's "
               "boxes unprefixed)",
        command="python make_shards.py data --world 4 --features\n"
                "nice " + MPI.format(port=29813) + " --tag-output --timestamp-output -x PYTHONFAULTHANDLER=1 \\\n"
                "  python dtrain.py --steps 20 --features --fault sigbus --fail-rank 3 --fail-step 11 > console.log 2>&1   # exit 135",
        injected="each rank reads a feature row per sample from a `np.memmap` of `data/features-0000N.f32`; at "
                 "step 11 rank 3's file is truncated to 0 bytes under the mapping (as a rewrite of the file by "
                 "another job does), so the next read of a mapped page is a real SIGBUS.",
        ranks="rank 3: faulthandler prints `Fatal Python error: Bus error` and its stack (`numpy/_core/memmap.py` "
              "`__getitem__` <- `dtrain.py` `next_batch`) and an `Extension modules:` line, then dies of signal 7. "
              "Rank 2: gloo `Read error ...: Connection reset by peer` in backward; rank 0: gloo `Connection "
              "closed by peer` (printed 2 s later, after mpirun's `Primary job terminated normally` box). "
              "Rank 1 prints no error. Last line: `mpirun noticed that process rank 3 with PID 0 on node vm "
              "exited on signal 7 (Bus error).`",
        hard="A signal death with a faulthandler dump (no Python exception, no `[rank3]:` prefix); the words "
             "`Bus error` say nothing of a file or of storage: only the memmap frame does. The console "
             "timestamps have one-second resolution and put rank 0's echo after mpirun's box.",
        truth=failed(3, "storage_io", "Fatal Python error: Bus error", 3,
                     [(GLOO_RESET, [2]), (GLOO_CLOSED, [0])],
                     "rank 3's memmapped feature file was truncated under it: SIGBUS at step 11 "
                     "(faulthandler 'Fatal Python error: Bus error'); ranks 2, 0 gloo echoes; rank 1 silent. "
                     "storage_io: a file changed under a mapping (data_error arguable)."),
    ),
    "d-mpi-nccl-backend-all": dict(
        launcher="Open MPI `mpirun -np 4 --tag-output` (4 ranks)",
        layout="`console.log` (`[1,N]<stdout>:` / `[1,N]<stderr>:` tags)",
        command="python make_shards.py data --world 4\n"
                "nice " + MPI.format(port=29814) + " --tag-output \\\n"
                "  python dtrain.py --steps 20 --backend nccl > console.log 2>&1   # exit 1",
        injected="`--backend nccl` on this CPU-only torch build (a GPU-cluster recipe run on CPU nodes): "
                 "every rank's `init_process_group('nccl')` fails.",
        ranks="every rank: `RuntimeError: Distributed package doesn't have NCCL built in` from "
              "`init_process_group` (no `[rankN]:` prefix: the group never formed), in the order 2, 3, 1, 0. "
              "Rank 1's traceback tail is split by Open MPI's tagging into fragments on one line "
              "(`[1,1]<stderr>:RuntimeError[1,1]<stderr>:: [1,1]<stderr>:Distributed package ...`), as "
              "mpirun printed it. mpirun's box names `[[28703,1],2]` `Exit code: 1`.",
        hard="Every rank fails alike; mpirun names one (rank 2) as `the first process to do so`. One of the four "
             "copies of the error line is broken by interleaved tags, so a plain `^RuntimeError:` match after "
             "stripping one tag finds only three ranks.",
        truth=failed(None, "config_error", "Distributed package doesn't have NCCL built in", None, [],
                     "backend nccl on a CPU-only build: all 4 ranks raise at init_process_group; mpirun names "
                     "rank 2 only because it exited first.", all_ranks=True, kind="all_ranks"),
    ),
    "d-mpi-metric-shape-split": dict(
        launcher="Open MPI `mpirun -np 4 --tag-output` (4 ranks), stdout and stderr redirected apart",
        layout="`stdout.log` (the workers' log lines, `[1,N]<stdout>:`) + `stderr.log` (tracebacks, "
               "`[1,N]<stderr>:`, and mpirun's boxes)",
        command="python make_shards.py data --world 4\n"
                "nice " + MPI.format(port=29815) + " --tag-output \\\n"
                "  python dtrain.py --steps 20 --fault metric_shape --fail-rank 1 --fail-step 8 --pg-timeout 30 \\\n"
                "  > stdout.log 2> stderr.log      # exit 1",
        injected="every 2 steps each rank all-reduces a metrics tensor `[loss, acc]`; from step 8 rank 1 "
                 "appends a third entry (a 'skipped' counter only it keeps): its all_reduce has 3 floats, "
                 "the others' 2. Process-group timeout 30 s.",
        ranks="No size-mismatch message anywhere: gloo's ring all_reduce at step 8 completes on ranks 0 and 3 "
              "(rank 0 even logs `step 8/20 loss 1.3866 acc 0.312`) and they go on to step 9's backward; "
              "ranks 1 and 2 stay in the step-8 `dist.all_reduce(m)` (`dtrain.py` line 145) and after 30 s "
              "both raise `Timed out waiting 30000ms for send operation to complete` (unbound_buffer.cc). "
              "Ranks 0 and 3 then fail in backward with `Connection closed by peer`. stderr.log order: rank 0, "
              "2, 3, 1. mpirun names `[[29322,1],1]` as the first non-zero exit.",
        hard="The mismatch prints no mismatch: the culprit and one victim print the same timeout line at the "
             "same call, two victims a connection error at another call, and the culprit's traceback comes "
             "last in the file. Only mpirun's box (`[[29322,1],1]`) and the fact that rank 1 is one of the "
             "two ranks stuck in the metrics all_reduce point at it.",
        truth=failed(1, "collective_mismatch", "Timed out waiting 30000ms for send operation to complete", 1,
                     [("Timed out waiting 30000ms for send operation to complete", [2]), (GLOO_CLOSED, [0, 3])],
                     "rank 1 all-reduces 3 floats vs 2 on the others at step 8: ranks 1, 2 time out in that "
                     "all_reduce after 30 s, ranks 0, 3 get 'Connection closed by peer' in step 9's backward; no "
                     "line names the size mismatch."),
    ),
    "d-mpi-healthy-timestamp": dict(
        launcher="Open MPI `mpirun -np 4 --tag-output --timestamp-output` (4 ranks)",
        layout="`console.log` (as `d-mpi-timestamp-sigbus`)",
        command="python make_shards.py data --world 4\n"
                "nice " + MPI.format(port=29816) + " --tag-output --timestamp-output \\\n"
                "  python dtrain.py --steps 20 > console.log 2>&1      # exit 0",
        injected="nothing (baseline for the mpirun captures)",
        ranks="all 4 ranks start, join the gloo group, rank 0 logs steps 2..20, every rank logs `rank N done`; "
              "mpirun prints nothing of its own.",
        hard="Nothing fails; 22 lines. A tool must not call a failure where there is none.",
        truth=healthy("20 steps on 4 ranks under mpirun, exit 0; no warning or error line."),
    ),
    "d-ray-train-token-oob": dict(
        launcher="Ray Train `TorchTrainer` (`ScalingConfig(num_workers=3, use_gpu=False)`), local Ray on loopback",
        layout="`console.log` (the driver's stdout+stderr: Ray's `(RayTrainWorker pid=N)` / `(TrainController "
               "pid=N)` prefixed lines with ANSI colour codes, then the driver's traceback)",
        command="python make_shards.py data --world 3 --bad-token 1:90:100\n" + RAY +
                " --workers 3 --steps 20 > console.log 2>&1      # exit 1",
        injected="token id 100 in line 90 of rank 1's shard (vocabulary 0..99); rank 1 reads it at step 12.",
        ranks="rank 1 (`RayTrainWorker pid=14560`, world_rank=1 in the controller's `Started training worker "
              "group` table): `Error in training function:` and its traceback ending `IndexError: index out of "
              "range in self` (nn.Embedding). The TrainController reports `[FailurePolicy] RAISE` and "
              "`ray.train.WorkerGroupError: Training failed due to worker errors: [Rank 1 Error Snippet]:`; the "
              "driver's traceback repeats it (`raise result.error`), then Ray's log dedup prints the "
              "controller's copy again as `[repeated 2x across cluster]` lines. Ranks 0 and 2 print no error "
              "(Ray stops them); rank 0's last step line is `step 10/20`.",
        hard="Worker lines carry a pid, not a rank: the rank comes from the controller's pid table or from "
             "`[Rank 1 Error Snippet]`. The same traceback appears three times (worker, controller, driver) "
             "plus dedup echoes with ANSI codes inside the lines.",
        truth=failed(1, "data_error", "IndexError: index out of range in self", 1, [],
                     "an out-of-vocabulary token in rank 1's shard: IndexError in nn.Embedding at step 12; Ray "
                     "Train stops the other workers silently; no peer echo."),
    ),
    "d-ray-train-worker-sigkill": dict(
        launcher="Ray Train `TorchTrainer` (`num_workers=3`), local Ray on loopback",
        layout="`console.log` (driver's stdout+stderr, Ray prefixes, ANSI codes)",
        command="python make_shards.py data --world 3\n" + RAY +
                " --workers 3 --steps 20 --fault sigkill --fail-rank 2 --fail-step 9 > console.log 2>&1   # exit 1",
        injected="the worker of rank 2 (pid 16435) sends itself SIGKILL at step 9 (the OOM killer's way).",
        ranks="rank 2: prints nothing; the first line about it is the raylet's `(raylet) A worker died or was "
              "killed while executing a task by an unexpected system error. ... Worker ID: 4a3e24ad...` (no "
              "rank, no pid). Rank 0 (pid 16367) and rank 1 (pid 16348): `Error in training function:` with "
              "gloo `Read error [127.0.0.1]:63669: Connection reset by peer` in backward (rank 1's traceback "
              "only as Ray's `[repeated 4x across cluster]` dedup). The controller: `[Rank 0,1 Error Snippet]:` "
              "(the gloo error) and `[Rank 2 Error Snippet]: A worker health check failed. ... pid=16435 ... "
              "world_rank=2 ... The actor died unexpectedly ... Worker exit type: SYSTEM_ERROR ... (1) the process "
              "was killed by the OOM killer due to high memory usage, ...`; the driver repeats it.",
        hard="Two of three ranks have Python errors (the gloo echo); the dead rank has none. The `Rank 0,1` "
             "snippet comes first in the WorkerGroupError. The raylet's line names a worker ID that only the "
             "controller's `log_file_path` links to rank 2.",
        truth=failed(2, "oom", "A worker died or was killed while executing a task by an unexpected system error", 2,
                     [(GLOO_RESET, [0, 1])],
                     "rank 2 SIGKILLed at step 9 (OOM-killer signature; Ray itself lists the OOM killer first "
                     "among the causes); ranks 0, 1 gloo 'Connection reset by peer'."),
    ),
    "d-ray-train-healthy-warnings": dict(
        launcher="Ray Train `TorchTrainer` (`num_workers=2`), local Ray on loopback",
        layout="`console.log` (driver's stdout+stderr)",
        command="python make_shards.py data --world 2\n" + RAY +
                " --workers 2 --steps 20 --warnings > console.log 2>&1      # exit 0",
        injected="nothing fails: the loop calls the deprecated `torch.nn.utils.clip_grad_norm`.",
        ranks="both workers: `FutureWarning: torch.nn.utils.clip_grad_norm is now deprecated`, c10d `[W...] "
              "socket.cpp:207] ... The hostname of the client socket cannot be retrieved. err=-3`; Ray: "
              "`network_util.cc:330: Failed to determine local IP via external connectivity` (W), token-auth "
              "WARNING, a TrainController `[... E ...] core_worker.cc:2465: Actor with class name: "
              "'PreemptionWatcher' ...` error-level line, repeated `(PlacementGroupCleaner) Failed to query Ray "
              "Train Controller actor state` lines. Training reaches step 20, the driver prints `final metrics: "
              "None`, exit 0.",
        hard="Error-level (`E`) lines and `Failed to ...` warnings in a run that succeeded; no closing success "
             "line from Ray except `final metrics: None` (no metrics because no checkpoint/report reached the "
             "driver).",
        truth=healthy("Ray TorchTrainer, 2 workers, 20 steps, exit 0; FutureWarning, c10d hostname warning, Ray "
                      "E-level PreemptionWatcher line and PlacementGroupCleaner warnings are noise."),
    ),
    "d-ray-actors-eval-keyerror": dict(
        launcher="plain Ray actors (3 `Trainer` actors, gloo DDP set up by hand, no Ray Train), local Ray on loopback",
        layout="`console.log` (driver's stdout+stderr; actor lines `(Trainer pid=N)` and the logging format "
               "`%(asctime)s rankN LEVEL msg`)",
        command="python make_shards.py data --world 3\n"
                "RAY_USAGE_STATS_ENABLED=0 HOME=$PWD/home unshare -n sh -c 'ip link set lo up && exec nice \"$@\"' sh \\\n"
                "  python ray_actors.py --world 3 --port 29831 --steps 20 --fault eval_keyerror --fail-rank 0 --fail-step 10 \\\n"
                "  > console.log 2>&1      # exit 1",
        injected="rank 0's periodic evaluation (every 5 steps) logs `metrics['val_loss']` from step 10, a key its "
                 "`evaluate()` never fills (it returns `loss`): a code bug on one rank.",
        ranks="rank 0 (`Trainer pid=20089`): `KeyError: 'val_loss'` at step 10, seen only in the driver's "
              "`ray.exceptions.RayTaskError(KeyError): ray::Trainer.train() (pid=20089, ip=127.0.0.1, ...)` "
              "traceback. Ranks 1 and 2 logged their step-5 and step-10 eval lines (shown only as one "
              "`(Trainer pid=20182) ... rank2 INFO step 10 eval ... [repeated 4x across cluster]` line, printed "
              "after the driver's traceback) and are then blocked in step 11's all-reduce; the driver exits on "
              "the first error and Ray kills them silently: no echo.",
        hard="The only error is in the driver's traceback; the actor's rank is in the log format (`rank0`) of "
             "earlier lines with the same pid. A dedup line after the traceback shows other ranks still "
             "logging.",
        truth=failed(0, "code_exception", "KeyError: 'val_loss'", 0, [],
                     "rank 0's evaluation reads metrics['val_loss'] which evaluate() never sets: KeyError at "
                     "step 10 through ray.get in the driver; ranks 1, 2 are killed with the driver, silently."),
    ),
    "d-bashloop-stale-store-port": dict(
        launcher="a bash loop (`launch_ranks.sh`): 4 ranks started with `&`, `RANK`/`WORLD_SIZE`/`MASTER_PORT` "
                 "env, `wait`",
        layout="`rank0.out`/`rank0.err` ... `rank3.out`/`rank3.err` (stdout and stderr of each rank)",
        command="python make_shards.py data --world 4\n"
                "python stale_store.py 29841 120 &     # an earlier job's TCPStore, never shut down (output not kept)\n"
                "sleep 5\n"
                "PY=python ./launch_ranks.sh 4 29841 dtrain.py --steps 20 --pg-timeout 20 \\\n"
                "  --log-format '%(asctime)s %(levelname)s %(message)s'      # the loop's `wait` returns 0",
        injected="MASTER_PORT 29841 is still held by a stale TCPStore server of an earlier job (a leftover "
                 "process). Nothing else is wrong.",
        ranks="rank 0 (the store host under env://): `torch.distributed.DistNetworkError: The server socket has "
              "failed to listen on any local network address. port: 29841, useIpv6: false, code: -98, name: "
              "EADDRINUSE, message: address already in use` at once. Ranks 1-3 connect to the stale store, wait "
              "20 s for the gloo keys, and each prints c10d `waitForInput ... timed out after 20000ms` warnings "
              "and `torch.distributed.DistStoreError: wait timeout after 20000ms, keys: /default_pg/0//cpu//0/0`. "
              "Each `.out` has only the `starting` line. The loop's bare `wait` exits 0.",
        hard="Four per-rank file pairs, each with a failure, the three victims' later and alike; the real cause "
             "(a leftover process) is outside the job and only rank 0's EADDRINUSE hints at it. No launcher "
             "log; exit status 0 despite the failure.",
        truth=failed(0, "rendezvous",
                     "The server socket has failed to listen on any local network address. port: 29841", 0,
                     [("wait timeout after 20000ms, keys: /default_pg/0//cpu//0/0", [1, 2, 3])],
                     "MASTER_PORT held by a stale store from an earlier job: rank 0 EADDRINUSE at "
                     "init_process_group; ranks 1-3 joined the stale store and time out after 20 s."),
    ),
    "d-torchrun-role-filter-hidden-rank": dict(
        launcher="`torchrun --nproc-per-node 4 --role trainer --tee 3 --local-ranks-filter 0,3` (4 ranks)",
        layout="`console.log` (torchrun's console: only local ranks 0 and 3 shown, prefixed `[trainer0]:` / "
               "`[trainer3]:`; the launcher's failure table)",
        command="python make_shards.py data --world 4 --bad-token 1:75:100\n"
                "nice torchrun --nnodes 1 --nproc-per-node 4 --master-port 29851 --role trainer --tee 3 \\\n"
                "  --local-ranks-filter 0,3 dtrain.py --steps 20 > console.log 2>&1      # exit 1",
        injected="token id 100 (vocabulary 0..99) in line 75 of rank 1's shard, read at step 10; the console "
                 "filter hides ranks 1 and 2.",
        ranks="rank 1: `IndexError: index out of range in self` in nn.Embedding at step 10; its own output is "
              "filtered out, the traceback appears only in torchrun's `Root Cause (first observed failure)` "
              "entry (`rank : 1 (local_rank: 1)`, `exitcode : 1`; `dtrain.py` uses `@record`). Rank 0: gloo "
              "`Connection closed by peer` on the console (`[trainer0]:[rank0]:`) and in table entry [1]; rank "
              "2: the same error only in table entry [2] (filtered from the console); rank 3: SIGTERMed, "
              "`Signal 15 (SIGTERM) received by PID 22436` in entry [3]. All three victims show `exitcode : -15`.",
        hard="The initiator prints nothing visible; the earliest deviating console line is rank 0's gloo echo. "
             "The truth is only in the launcher's table, after `Failures:` entries [1]-[3] of the victims, and "
             "the `[trainerN]:` prefix is not the usual `[defaultN]:`.",
        truth=failed(1, "data_error", "IndexError: index out of range in self", 1,
                     [(GLOO_CLOSED, [0, 2])],
                     "out-of-vocabulary token on rank 1 at step 10; --local-ranks-filter 0,3 hides rank 1, so its "
                     "IndexError is only in torchrun's Root Cause entry; ranks 0, 2 gloo echoes (rank 2's only in "
                     "the table), rank 3 SIGTERMed."),
    ),
}

EXC = re.compile(r"([A-Za-z_][\w.]*(Error|Exception|Interrupt)(\([A-Za-z]+\))?:.*|Fatal Python error.*|"
                 r"mpirun (noticed|detected).*|A worker died.*)")


def file_summary(root):
    out = []
    for dirpath, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if name in ("README.md", "truth.json", ".correlatorignore"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            lines = open(path, encoding="utf-8", errors="replace").read().replace("\x1b", "\\x1b").splitlines()
            exc = []
            for ln in lines:
                m = EXC.search(ln)
                if m:
                    s = m.group(0)
                    s = s if len(s) <= 140 else s[:137] + "..."
                    if s not in exc:
                        exc.append(s)
            nonempty = [ln for ln in lines if ln.strip()]
            last = nonempty[-1] if nonempty else ""
            last = last if len(last) <= 160 else last[:157] + "..."
            e = "; ".join(f"`{x}`" for x in exc[:6]) or "no exception line"
            out.append(f"* `{rel}` ({len(lines)} lines): {e}. Last non-empty line: `{last}`")
    return "\n".join(out)


def main(out):
    for name, d in INCIDENTS.items():
        root = os.path.join(out, name)
        if not os.path.isdir(root):
            print("missing", name)
            continue
        t = d["truth"]
        ini = t["initiating"]
        who = ("none" if t["status"] == "healthy" else
               "all ranks" if ini["all_ranks"] else f"rank {ini['rank']}")
        readme = f"""# {name}

**Captured** {t['status']} run on this machine. {VERSIONS}.

* Launcher: {d['launcher']}
* Layout: {d['layout']}
* Injected: {d['injected']}
* Truth: status `{t['status']}`, initiator {who}, category `{t['root_cause']['category']}`, kind `{ini['kind']}`

## Command

Run in the scratch dir `/home/user/jobs/{name}/` with the scripts of `../_capture_d/` copied there
(`_capture_d/capture.sh OUT {name}`; `python` = `/home/user/venv/bin/python`, `torchrun` the venv's,
`mpirun` Open MPI 4.1.4 run as root):

```
{d['command']}
```

Log files copied unchanged, then `neutral_paths.py` (paths only).

## What happened, per rank

{d['ranks']}

## What is hard

{d['hard']}

## Files (exception lines, computed)

{file_summary(root)}

## Notes

{t['notes']}
"""
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write(readme)
        with open(os.path.join(root, "truth.json"), "w") as f:
            json.dump(t, f, indent=2, ensure_ascii=False)
            f.write("\n")
        with open(os.path.join(root, ".correlatorignore"), "w") as f:
            f.write(IGNORE)
        print("wrote", name)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
