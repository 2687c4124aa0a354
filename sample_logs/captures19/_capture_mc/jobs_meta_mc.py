"""Per-job metadata for the roundK mc-* captures: command, layout, planted fault, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), numpy 2.4.6, "
       "lightning 2.6.6, accelerate 1.16.0, transformers 5.25.0, ray 2.60.0, rich 15.0.0, mpi4py 4.1.2, "
       "jsonargparse 4.53.0, Open MPI 4.1.4, GNU findutils 4.9.0 (xargs), util-linux 2.38.1 (unshare)")


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}

JOBS["mc-spawn-jsonl-rankfield-fileshard-uneven-r1"] = dict(
    source="`torch.multiprocessing.spawn(nprocs=3)` launcher script, JSON-lines logging with a rank field",
    cmd="`python mc_spawn_jsonl.py 3 > console.log 2>&1` under `timeout -s TERM 150 nice` (data made first by "
        "`python mc_make_files.py data 320,96,320,320,96,320`)",
    layout="`console.log`: everything the job printed. Each rank logs one JSON object per line on stderr "
           "(`{\"ts\": ..., \"level\": ..., \"rank\": N, \"logger\": \"train\", \"msg\": ...}`, built by a "
           "logging.Formatter format string and a rank filter); c10d warnings, the C++ `terminate called` lines, "
           "mp.spawn's `Terminating process ...` warnings and the launcher traceback are plain text in between.",
    planted="the 6 source files in data/ have uneven sizes; the site's FileShardSampler gives whole files to ranks "
            "(file k -> rank k % 3) without padding, so rank 1 (src-01 + src-04, 96 rows each) gets 6 batches per "
            "epoch against 20 on ranks 0 and 2. After its local pass a rank all_reduces the 1-element epoch loss.",
    happened="all ranks log their sampler share (rank 1: `192 samples ... -> 6 batches/epoch`). After batch 5 rank 1 "
             "logs `epoch 0: local pass done after 6 batches, reducing epoch loss` and enters the epoch-end "
             "all_reduce while ranks 0 and 2 are in DDP's gradient all_reduce of batch 6: gloo's size check fails "
             "in rank 1 (`op.preamble.length <= op.nbytes. 944 vs 4. Received data size doesn't match expected "
             "size. Is there a distributed collective mismatch in your code?`, `terminate called after throwing an "
             "instance of 'gloo::EnforceNotMet'`), spawn terminates pids 11776 / 11778 (ranks 0 / 2, pids from "
             "their `process group ready` lines) and raises `process 1 terminated with signal SIGABRT`.",
    exits="python (mp.spawn parent) 1.",
    judgement="the crash message is printed by rank 1's process without a rank (the C++ abort is not a JSON line); "
              "mp.spawn names process 1. I set the first deviating line to rank 1's sampler line, which is the "
              "first sign of the uneven per-rank batch count (the cause of the mismatched collectives); the "
              "`local pass done after 6 batches` line and the gloo enforce line follow. Category "
              "collective_mismatch (different collectives on different ranks), not data_error: every record is "
              "valid, only the per-rank partition is uneven.",
    truth=T("failed", "rank", rank=1, cat="collective_mismatch",
            fd="FileShardSampler: 192 samples from files ['src-01', 'src-04'] -> 6 batches/epoch", fd_rank=1,
            coll=[(0, "Terminating process 11776 via signal SIGTERM"),
                  (2, "Terminating process 11778 via signal SIGTERM")],
            notes="rank 1 gets 6 batches/epoch (ranks 0, 2: 20) from the unpadded whole-file sampler, leaves the "
                  "loop and calls the epoch-end all_reduce while peers are in DDP's gradient all_reduce; gloo "
                  "size enforce aborts rank 1 (SIGABRT), spawn SIGTERMs ranks 0 and 2."))

JOBS["mc-healthy-fabric-launch-rich-warnings-final-eval"] = dict(
    source="Lightning Fabric `Fabric(accelerator=\"cpu\", strategy=\"ddp\", devices=2)` + `fabric.launch()` "
           "(plain python, Fabric's subprocess launcher), rich Console / RichHandler output",
    cmd="`python mc_fabric_rich.py > console.log 2>&1` with `PYTHONWARNINGS=always`, under `timeout -s TERM 170 nice`",
    layout="`console.log`: Fabric's `Initializing distributed` banner, rich console lines (`[HH:MM:SS] message ... "
           "file:line`, continuation lines without the time column, a `done` rule) from both ranks (rank only in "
           "the message text where the script puts it), and the warnings flood: a FutureWarning from a deprecated "
           "input helper and torch's copy-construct UserWarning, each with its source line, on every step of both "
           "ranks (240 FutureWarning + 240 UserWarning records, each followed by its source line), plus one ResourceWarning at the metrics.json write.",
    planted="nothing (healthy run); the deprecated helper in the input path warns on every call.",
    happened="both ranks train 3 epochs (60 steps), run a final distributed evaluation (all_reduce'd accuracy and "
             "loss), rank 0 logs `final eval: {'val_acc': 0.9031, 'val_loss': 0.5097, 'steps': 60}` and a `done` "
             "rule, both ranks log `exiting cleanly`; exit 0.",
    exits="python 0.",
    judgement="healthy: the log shows the final eval metrics and clean exits on both ranks; the warnings are noise.",
    truth=T("healthy", notes="Fabric ddp on CPU, 60 steps, final eval val_acc 0.9031, both ranks exit cleanly; "
                             "480 FutureWarning/UserWarning records from a deprecated helper are noise."))

JOBS["mc-accelerate-multigpu-mainport-hftrainer-evaluate-label-r1"] = dict(
    source="`accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 29631` on a CPU "
           "host, HF Trainer (report_to=\"none\", eval_strategy=\"steps\")",
    cmd="`accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 29631 "
        "--mixed_precision no --dynamo_backend no mc_hf_eval.py > console.log 2>&1` under `timeout -s TERM 170 nice` "
        "(data: `python mc_make_text_jsonl.py data --bad-eval-label 25:4`)",
    layout="`console.log`: accelerate/torchrun agent, both processes' python logging on stdout "
           "(`time | LEVEL | rank=N | name | msg`), transformers' `[transformers]` INFO lines and the Trainer's "
           "metric dicts (no rank), the `[rankN]:`-prefixed tracebacks and torchrun's ChildFailedError summary.",
    planted="data/eval.jsonl record 25 carries label 4 (re-exported from a newer labelling with a 5th class); the "
            "model has 4 outputs. Training data is clean.",
    happened="40 training steps planned; training runs fine to step 20 (loss dicts every 5 steps), then the first "
             "in-loop evaluation (`***** Running Evaluation *****`): the process whose eval shard holds record 25 "
             "(rank 1) fails in cross_entropy with `IndexError: Target 4 is out of bounds.`; torchrun SIGTERMs rank 0 "
             "(exitcode -15) before it prints anything, and names rank 1 (exitcode 1) root cause.",
    exits="accelerate 1.",
    judgement="an earlier attempt logged each dataset's label set on every rank (`labels [0, 1, 2, 3, 4]`), which "
              "made the bad label visible on both ranks before the crash; I replaced that log line with a record "
              "count and reran (discarded run not kept). The label error is in a file every rank reads, but only "
              "the process whose eval shard holds the record fails, so the initiator is rank 1 (not all_ranks).",
    truth=T("failed", "rank", rank=1, cat="data_error", fd="IndexError: Target 4 is out of bounds.", fd_rank=1,
            coll=[(0, "exitcode  : -15 (pid: 12535)  (SIGTERM)")],
            notes="eval record 25 has label 4 for a 4-class head; rank 1's eval shard holds it, the first evaluation "
                  "at step 20 fails there; rank 0 is SIGTERMed by the agent."))

JOBS["mc-healthy-elastic13-three-uts-nodes-node-sigkill-rejoin2"] = dict(
    source="three torchrun agents `--nnodes 1:3` (c10d rendezvous, `--max-restarts 2`) as three nodes in separate "
           "UTS + mount + PID namespaces; one node crashed (SIGKILL of its PID-namespace init)",
    cmd="per node: `torchrun --nnodes 1:3 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint node-a01:29477 "
        "--rdzv-id mcel13 --rdzv-conf last_call_timeout=5,join_timeout=60 --max-restarts 2 --monitor-interval 1 "
        "mc_elastic.py --steps 60 > nodes/<host>/agent.log 2>&1` (LOGLEVEL=INFO), each under "
        "`timeout -k 10 -s TERM 170 nice unshare -u -m -p --fork --kill-child`, hostnames node-a01..a03 with a "
        "hosts file giving 127.0.1.1..3",
    layout="`nodes/<host>/agent.log` per node: the torchrun agent (pid 1 in its PID namespace) and its worker "
           "(`time host=<h> rank=<r>/<world> restart=<n> LEVEL msg`, `[rankN]:` tracebacks).",
    planted="when node-a03's worker had logged step 25, the harness sent SIGKILL to node-a03's PID-namespace init "
            "(its agent), which took the agent and its worker down at once (a node crash; harness note at "
            "15:59:28, not a job log).",
    happened="3-node world (ranks 0/1/2 on a01/a02/a03) trains, rank 0 checkpoints every 10 steps to the shared "
             "dir. node-a03's log stops after `step 25/60`. ranks 0 and 1 fail in backward with `Connection closed "
             "by peer`; both agents log `Worker group FAILED. 2/2 attempts left; will restart worker group`, "
             "re-rendezvous as 2 nodes (`group_world_size=2`), the workers `resumed from shared/ckpt/last.pt at "
             "step 20 (saved with world_size 3)`, train to step 60 (`training complete`) and both agents log "
             "`worker group successfully finished`.",
    exits="node-a01 0, node-a02 0, node-a03 1 (killed).",
    judgement="healthy: the job recovered by itself (elastic restart with 2 nodes) and the surviving agents show a "
              "successful finish; the peer-crash tracebacks and the silent end of node-a03's log are the recovered "
              "incident. Discarded attempts (harness bugs, not kept): (1) no hosts entries for the node names and a "
              "`timeout` that could not stop a PID-namespace init (hung until I killed my own pids); (2) endpoint "
              "127.0.0.1 / all nodes on 127.0.0.1: every agent believed it hosted the store and each node formed "
              "its own 1-node job. Fixed with one loopback address per node and the endpoint node-a01.",
    truth=T("healthy", notes="node-a03 crashed (SIGKILL of its namespace) at step 25; the two surviving nodes "
                             "restarted, re-rendezvoused as 2 nodes, resumed from the step-20 checkpoint and finished "
                             "60 steps; both agents report success."))

JOBS["mc-ray-actors-gloo-manual-allreduce-f64-override-r1"] = dict(
    source="hand-rolled data parallelism on Ray actors (not Ray Train): local `ray.init`, 3 `RankWorker` actors "
           "each joining a gloo group and all_reducing every .grad by hand",
    cmd="`python mc_ray_actors.py > console.log 2>&1` with RAY_DEDUP_LOGS=0, under `timeout -s TERM 170 nice` "
        "(conf.json: world 3, rank_overrides {\"1\": {\"precision\": \"64\"}})",
    layout="`console.log`: the driver's logging (`time LEVEL driver msg`), Ray's own lines, and the actors' output "
           "as Ray forwards it (`(RankWorker pid=N)` prefix with ANSI colour codes, then the actor's "
           "`time LEVEL rank=R msg` records; the C++ terminate/abort dump of the dying actor), `(raylet)` lines, and "
           "the driver's ActorDiedError traceback.",
    planted="conf.json's rank_overrides give rank 1 `\"precision\": \"64\"` (left from a numerics debugging "
            "session): rank 1's model is float64, its gradient all_reduce sends float64 tensors while ranks 0 and "
            "2 send float32.",
    happened="all three actors join (rank 1: `param dtype torch.float64, cfg {... 'precision': '64'}`); in the "
             "first gradient all_reduce rank 0's actor (pid 20384) hits gloo's size enforce (`op.preamble.length "
             "<= op.nbytes` ... `Received data size doesn't match`), Ray's terminate handler dumps the stack and "
             "the process aborts; raylet reports the dead worker; the driver logs `training failed: "
             "ActorDiedError` and re-raises.",
    exits="python (driver) 1.",
    judgement="the process that dies is rank 0 (receiver of the bigger float64 messages), the cause is rank 1's "
              "override, shown by its dtype line. Category collective_mismatch (same collective, different dtypes "
              "across ranks). Discarded attempts: the first run failed before Ray started (AF_UNIX socket path too "
              "long under the job dir); the second worked but the script then ran `ray stop --force`, which I "
              "removed (it kills Ray processes by name) and reran; the kept run is the third.",
    truth=T("failed", "rank", rank=1, cat="collective_mismatch",
            fd="param dtype torch.float64, cfg {'lr': 0.05, 'batch': 32, 'precision': '64'}", fd_rank=1,
            coll=[(0, "logging.cc:118: Unhandled exception: N4gloo13EnforceNotMetE")],
            notes="rank 1 runs a float64 replica (per-rank config override) and all_reduces float64 gradients "
                  "against float32 peers; rank 0's gloo size check aborts its actor (pid 20384), the driver gets "
                  "ActorDiedError."))

JOBS["mc-nohup-bg-stderr-to-launcher-rank-env-typo-r2"] = dict(
    source="site shell launcher run with `nohup ... &`, ranks started in the background with "
           "`nohup env ... python mc_envtrain.py 2>&1 > logs/rank$i.out &` (env:// rendezvous)",
    cmd="`nohup bash launch.sh > launch.log 2>&1 &` under `timeout -s TERM 170 nice`; launch.sh exports "
        "MASTER_ADDR=127.0.0.1 MASTER_PORT=29541 WORLD_SIZE=3 and starts ranks 0-1 in a loop and rank 2 on its "
        "own line with `taskset -c 1`",
    layout="`launch.log`: launch.sh's own lines (pids of the 3 ranks) and - because of the redirection order "
           "`2>&1 > file` - every rank's stderr (c10d warnings, tracebacks), with no rank label. "
           "`logs/rank0.out` ... `logs/rank2.out`: only each rank's stdout (a start line with host, pid and the "
           "RANK / LOCAL_RANK / WORLD_SIZE it found).",
    planted="in launch.sh's separate line for the last rank RANK was mistyped as `RNAK=$i`.",
    happened="rank 2's process (pid 20560, `RANK=None LOCAL_RANK=2` in logs/rank2.out) fails at once in "
             "init_process_group with `ValueError: Error initializing torch.distributed using env:// rendezvous: "
             "environment variable RANK expected, but not set`. Ranks 0 and 1 wait for the third member for the 40 s "
             "timeout: rank 1 (store client) `DistStoreError: wait timeout after 40000ms, keys: "
             "/default_pg/0//cpu//0/0`, rank 0 (store server) `DistStoreError: Timed out after 41 seconds waiting "
             "for clients. 2/3 clients joined.`; launch.sh logs `all ranks exited`.",
    exits="launch.sh 0 (`wait` without arguments), ranks not collected.",
    judgement="the tracebacks in launch.log carry no rank; rank 2 is identified through logs/rank2.out (pid 20560, "
              "RANK=None, LOCAL_RANK=2). The rank-2 start line already shows RANK=None; I took the ValueError line "
              "as the first deviating line (the line that states the cause). Category config_error (a launcher "
              "environment typo), initiator rank 2; the store timeouts of ranks 0 and 1 are collateral. Which "
              "store error belongs to which rank follows from TCPStore roles (the server waits for clients).",
    truth=T("failed", "rank", rank=2, cat="config_error",
            fd="ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable RANK "
               "expected, but not set", fd_rank=2,
            coll=[(0, "Timed out after 41 seconds waiting for clients. 2/3 clients joined."),
                  (1, "wait timeout after 40000ms, keys: /default_pg/0//cpu//0/0")],
            notes="RANK mistyped as RNAK on the launcher line for rank 2: rank 2 dies in env:// init; ranks 0 and 1 "
                  "time out waiting for it after 40 s."))

JOBS["mc-pdsh-style-xargs-hostprefix-2node-scratch-enospc-cn18"] = dict(
    source="pdsh-style fan-out without ssh: `xargs -P 2` over hosts.txt, each host a UTS + mount namespace node "
           "running torchrun (static rendezvous, 2 nodes x 2 procs), output prefixed `<host>: ` by `sed -u`",
    cmd="`xargs -P 2 -I{} unshare -u -m --fork --kill-child sh -c 'bash node.sh {} 2>&1 | sed -u \"s/^/{}: /\"' "
        "< hosts.txt > console.log 2>&1` under `timeout -s TERM 170 nice` (LOGLEVEL=INFO); node.sh sets the "
        "hostname, bind-mounts the cluster hosts file (cn17=127.0.2.17, cn18=127.0.2.18), mounts the node-local "
        "scratch tmpfs and execs `torchrun --nnodes 2 --node-rank N --nproc-per-node 2 --master-addr cn17 "
        "--master-port 29563 mc_envtrain.py --steps 40 --ckpt-dir scratch/ckpt --ckpt-every 10 --ckpt-keep 3`",
    layout="`console.log`: the merged fan-out, every line prefixed `cn17: ` or `cn18: ` (node setup line, agents, "
           "workers' stdout progress `[step N] loss ...`, stderr logging `time LEVEL pid=N name: msg` without rank, "
           "`[rankN]:` tracebacks, ChildFailedError summaries). Two ranks of a node share one pipe, so one line "
           "holds two `[step 15]` records.",
    planted="cn18's scratch tmpfs was mounted with size=2m (cn17: 64m); each node's local rank 0 (ranks 0 and 2) "
            "keeps the last 3 full training-state checkpoints (~1.03 MB each) there.",
    happened="setup lines show `scratch 64M total` (cn17) and `scratch 2.0M total` (cn18). Checkpoints at steps 10 "
             "and 20 are written on both nodes; at step 30 rank 2's torch.save on cn18 fails with `RuntimeError: "
             "basic_ios::clear: iostream error` then `unexpected pos 2560 vs 2454` (no errno text); ranks 0, 1, 3 "
             "fail in the checkpoint barrier with `Connection closed by peer`; cn18's agent SIGTERMs rank 3 and names "
             "rank 2 root cause, cn17's agent names its rank 0.",
    exits="xargs 0 (the `| sed` pipeline hides torchrun's status).",
    judgement="a machine-level cause on one node (its scratch filesystem too small), so initiating kind rank with "
              "node `cn18` and rank null per the brief; the first deviating line is rank 2's torch.save error on "
              "cn18. The log never says `No space left on device`; the 2.0M scratch line and the checkpoint sizes "
              "are the evidence. Category storage_io.",
    truth=T("failed", "rank", node="cn18", cat="storage_io",
            fd="cn18: [rank2]: RuntimeError: basic_ios::clear: iostream error", fd_rank=2,
            coll=[(0, "Connection closed by peer [127.0.0.1]:65213"),
                  (1, "Connection closed by peer [127.0.0.1]:4767"),
                  (3, "Connection closed by peer [127.0.0.1]:51927")],
            notes="cn18's node-local scratch tmpfs is 2 MB; the third ~1 MB checkpoint of rank 2 (cn18 local rank 0) "
                  "fails in torch.save at step 30; the other ranks lose their peer in the barrier."))

JOBS["mc-elastic-launch-api-redirect-logspecs-truncated-rankstate-r1"] = dict(
    source="the programmatic torchelastic launcher (`LaunchConfig` + `elastic_launch` with a Python function "
           "entrypoint decorated with `@record`), `DefaultLogsSpecs(log_dir=\"runlogs\", redirects=Std.ALL)`",
    cmd="`python mc_elastic_api.py 3 > console.log 2>&1` (LOGLEVEL=INFO) under `timeout -s TERM 170 nice` "
        "(resume state made by `python mc_make_resume.py resume 3 --truncate 1:60000`)",
    layout="`console.log`: the driver's line, the agent's INFO lines and its error report (the worker's traceback "
           "re-logged with `E... api.py:836]` prefixes, then the ChildFailedError summary with the error file). "
           "`runlogs/<run_id>/attempt_0/<local_rank>/stdout.log` (worker logging `time [LEVEL] worker[rank R]: "
           "msg`), `stderr.log` (c10d warning only), `error.json` (@record's error file, one JSON line).",
    planted="resume/rank-1.pt, the per-rank optimizer/RNG/cursor state written by the previous job, was truncated "
            "to 60000 of 87529 bytes (an interrupted copy); model.pt and the other ranks' files are intact.",
    happened="ranks 0 and 2 load their 87529-byte state and log `resumed at step 200`; rank 1 logs `loading "
             "per-rank state resume/rank-1.pt (60000 bytes)` and torch.load fails with `OSError: [Errno 22] Invalid "
             "argument` (zip reader on the truncated file); the agent terminates pids 21796 / 21798 (ranks 0 / 2), "
             "whose error.json files hold `Connection closed by peer`, and reports rank 1 as root cause with "
             "runlogs/.../1/error.json.",
    exits="python (driver) 1.",
    judgement="the exception text says nothing about truncation; the 60000-byte size against 87529 on the other "
              "ranks is the evidence. I chose storage_io (a file damaged by an interrupted copy) over data_error. "
              "The worker's traceback is not in its stderr.log (the function entrypoint's exception travels to the "
              "agent), only in console.log and error.json.",
    truth=T("failed", "rank", rank=1, cat="storage_io", fd="OSError: [Errno 22] Invalid argument", fd_rank=1,
            coll=[(0, "Terminating process 21796 via signal SIGTERM"),
                  (2, "Terminating process 21798 via signal SIGTERM"),
                  (0, "Connection closed by peer [127.0.0.1]:2447"),
                  (2, "Connection closed by peer [127.0.0.1]:2447")],
            notes="rank 1's resume state file is truncated (60000 of 87529 bytes); torch.load raises OSError "
                  "Errno 22 on rank 1; ranks 0 and 2 lose their peer and are terminated by the agent."))

JOBS["mc-mpirun-outputfilename-mpi4py-bcast-init-nan-abort-r2"] = dict(
    source="`mpirun -np 3 --output-filename mpilogs` with mpi4py programs that set up torch.distributed (gloo) "
           "from MPI (rank 0 broadcasts the tcp:// init URL); a per-rank NaN guard calls `comm.Abort(3)`",
    cmd="`mpirun --allow-run-as-root --oversubscribe -np 3 --bind-to none --mca btl self,vader --mca "
        "oob_tcp_if_include lo --output-filename mpilogs -x PYTHONUNBUFFERED -x OMP_NUM_THREADS -x PATH "
        "python mc_mpi_nan.py > console.log 2>&1` under `timeout -s TERM 170 nice` (data: `python "
        "mc_make_npy_shards.py data 3 --outliers 2:6:1e19`)",
    layout="`console.log`: mpirun's console (all ranks' output forwarded, unlabelled; stdout records of several "
           "ranks can share a line) and mpirun's own message. `mpilogs/1/rank.N/stdout` (progress print "
           "`epoch E step S loss L`) and `mpilogs/1/rank.N/stderr` (logging `time LEVEL [mpi rank R/3] msg`, "
           "tracebacks) per rank.",
    planted="6 rows of rank 2's shard hold raw, unnormalised values (x 1e19) from an export that skipped "
            "standardisation.",
    happened="rank 2 logs `feature abs max 2.16e+19` for its shard (others ~4). At step 5 rank 2's loss is "
             "71696198309773312.0 (others ~1.6); the averaged gradients blow up all replicas (step 10 losses ~1e31 "
             "on all ranks); at step 12 rank 2's guard logs `non-finite loss nan ... aborting the MPI job` and calls "
             "MPI Abort; mpirun fails to print its MPI_ABORT help text (`ORTE_ERROR_LOG: Data unpack would read past "
             "end of buffer`); rank 0 dies in backward with `Connection closed by peer`.",
    exits="mpirun 3.",
    judgement="category nan_divergence (the failure is a diverged, then NaN loss that the guard aborts on) with "
              "rank 2 as initiator: its loss explodes first (step 5) and its guard fires first. The unnormalised "
              "rows are the underlying reason, visible in rank 2's `feature abs max` line; I set the first "
              "deviating line to the first exploding loss. Ranks 0 and 1 diverge only through the averaged "
              "gradients (collateral).",
    truth=T("failed", "rank", rank=2, cat="nan_divergence", fd="epoch 0 step 5 loss 71696198309773312.0000",
            fd_rank=2,
            coll=[(0, "epoch 0 step 10 loss 12311018712793120864353162100736.0000"),
                  (1, "epoch 0 step 10 loss 10699061203435366615383441145856.0000"),
                  (0, "Connection closed by peer [127.0.0.1]:1931")],
            notes="unnormalised 1e19 rows in rank 2's shard make its loss explode at step 5 and turn NaN at step 12; "
                  "the per-rank guard on rank 2 calls MPI Abort; peers diverged through gradient averaging and "
                  "rank 0 loses its peer."))

JOBS["mc-mp-process-queuelistener-sharedlog-early-exit0-r1"] = dict(
    source="home-grown launcher: plain `multiprocessing` (spawn) Process per rank, all ranks logging through a "
           "QueueHandler to the launcher's QueueListener (one shared train.log)",
    cmd="`python mc_mp_queue.py 3 > console.log 2>&1` under `timeout -s TERM 170 nice` (gloo over "
        "tcp://127.0.0.1:29593)",
    layout="`train.log`: one shared file written by the launcher's QueueListener, "
           "`time | processName | LEVEL | logger | msg` with processName rank-0..rank-2 / MainProcess (launcher "
           "lines with each rank's pid and exit code). `console.log`: the launcher's stdout/stderr: c10d "
           "warnings and multiprocessing's own `Process rank-N:` + traceback for ranks that raised.",
    planted="rank 1's shard manifest has no part newer than its last trained step (its upstream export produced "
            "nothing this round); the incremental trainer's per-rank `nothing to do` check makes rank 1 call "
            "sys.exit(0) after it has joined the process group.",
    happened="rank 1 logs `0 newer than last trained step 4000` and `no new records for shard 1 since step 4000: "
             "nothing to train, exiting` and exits 0; ranks 0 and 2 go into DDP construction and fail in "
             "_verify_params_across_processes with `Connection closed by peer` (console.log); the launcher logs "
             "exit codes rank-0 1, rank-1 0, rank-2 1 and `job finished, exit status 1`.",
    exits="python (launcher) 1.",
    judgement="the initiator exits with code 0 and prints no error; the failing ranks are 0 and 2. I chose "
              "collective_mismatch: a per-rank decision took rank 1 out of the collective sequence the others "
              "continued (not an exception, not bad data).",
    truth=T("failed", "rank", rank=1, cat="collective_mismatch",
            fd="no new records for shard 1 since step 4000: nothing to train, exiting", fd_rank=1,
            coll=[(0, "rank-0 (pid 25315) exited with code 1"), (2, "rank-2 (pid 25317) exited with code 1"),
                  (0, "Connection closed by peer [127.0.0.1]:4001"), (2, "Connection closed by peer [127.0.0.1]:4001")],
            notes="rank 1 finds nothing new in its shard and sys.exit(0)s after joining the group; ranks 0 and 2 "
                  "fail in DDP's first collective with Connection closed by peer."))

JOBS["mc-torchrun-nopython-cgroup-wrapper-dlworker-oomkill-r1"] = dict(
    source="`torchrun --standalone --nproc-per-node 2 --no-python ./rank_env.sh python mc_dl_train.py` (a per-rank "
           "site wrapper puts each rank in a cgroup-v1 memory cgroup sized from mem_limits.conf, then execs)",
    cmd="`torchrun --standalone --nproc-per-node 2 --no-python ./rank_env.sh python mc_dl_train.py --records 1200 "
        "--cache-items 2000 --workers 2 --epochs 2 > console.log 2>&1` (LOGLEVEL=INFO) under "
        "`timeout -s TERM 170 nice`",
    layout="`console.log`: torchrun agent, one `rank_env.sh:` line per rank (rank, pid, cgroup, limit), the "
           "workers' logging `[time] {rank R} LEVEL name - msg`, `[rankN]:` tracebacks and the ChildFailedError "
           "summary (binary `./rank_env.sh`).",
    planted="mem_limits.conf still held the 400M limit for local rank 1 left from a smoke test (local rank 0: 4G); "
            "each rank's 2 persistent DataLoader workers keep a decode cache (~0.8 MB per image).",
    happened="the wrapper lines show `limit 400M (419430400 bytes)` for rank 1 and 4G for rank 0. After step 5 the "
             "memory-cgroup OOM killer kills one of rank 1's DataLoader workers (cgroup failcnt 274, max usage at the "
             "limit, read by the harness afterwards): rank 1 `RuntimeError: DataLoader worker (pid 28037) is killed "
             "by signal: Killed.`; rank 0 fails with `Connection closed by peer`; torchrun SIGTERMs rank 0 and names "
             "rank 1 root cause.",
    exits="torchrun 1.",
    judgement="category oom (a memory limit kill of a rank's DataLoader worker), initiator rank 1. No kernel "
              "message is in the logs (no dmesg copy); the 400M wrapper line and `killed by signal: Killed` are "
              "the evidence.",
    truth=T("failed", "rank", rank=1, cat="oom",
            fd="RuntimeError: DataLoader worker (pid 28037) is killed by signal: Killed.", fd_rank=1,
            coll=[(0, "Connection closed by peer [127.0.0.1]:25481"), (0, "exitcode  : -15 (pid: 27872)  (SIGTERM)")],
            notes="rank 1 runs in a 400M memory cgroup (stale per-rank limit); its DataLoader worker's decode cache "
                  "outgrows it and the cgroup OOM killer kills the worker; rank 0 loses its peer and is SIGTERMed."))

JOBS["mc-lightning-ddp-jsonargparse-cfg-stagein-wait-timeout-r2"] = dict(
    source="Lightning Trainer with `DDPStrategy(process_group_backend=\"gloo\", timeout=30 s)` on CPU, devices 3 "
           "(subprocess launcher), configured through `jsonargparse.CLI` with a YAML config",
    cmd="`python mc_pl_jsonarg.py --config train.yaml > console.log 2>&1` under `timeout -s TERM 170 nice unshare -p "
        "--fork --kill-child` (own PID namespace: when rank 0's process exits, leftover ranks are killed, as a job-step "
        "cleanup would), with a stand-in stage-in sidecar (`stagein.sh`) copying shards and writing data/ready-<rank> markers",
    layout="`console.log`: Lightning's banners (GPU/TPU, `Initializing distributed: GLOBAL_RANK: N, MEMBER: n/3`), "
           "the DataModule's logging `time LEVEL [rank R] mc.stagein: msg`, `[rankN]:` tracebacks.",
    planted="the sidecar's copy list (stagein.list) lacks rank 2's shard (generated for a 2-process run), so "
            "data/ready-2 never appears; setup() polls with stage_in_timeout 600 s from the config.",
    happened="ranks 0 and 1 log `stage-in complete` and wait in Lightning's post_setup barrier; rank 2 logs "
             "`waiting for stage-in marker data/ready-2 (0s elapsed, timeout 600s)` every 5 s. After 30 s the "
             "barrier times out: rank 1 `Timed out waiting 30000ms for send operation to complete`, rank 0 `Timed "
             "out waiting 30000ms for recv operation to complete`; rank 2's last poll line is `30s elapsed`; "
             "it is killed with the PID namespace when rank 0's process exits (no message).",
    exits="python (rank 0 / launcher) 1.",
    judgement="a straggler-induced collective timeout: initiator rank 2 (its stage-in never completed), category "
              "nccl_timeout_hang (the gloo barrier timeout is what ends the job; the missing shard is the reason "
              "rank 2 never arrived). First deviating line: rank 2's first `waiting for stage-in marker` line. Discarded attempt: the first run had "
              "no PID namespace; Lightning left rank 2 orphaned, still polling and appending to console.log after "
              "the job had failed (I killed it by pid); rerun with `unshare -p --fork --kill-child`.",
    truth=T("failed", "rank", rank=2, cat="nccl_timeout_hang",
            fd="waiting for stage-in marker data/ready-2 (0s elapsed, timeout 600s)", fd_rank=2,
            coll=[(1, "Timed out waiting 30000ms for send operation to complete"),
                  (0, "Timed out waiting 30000ms for recv operation to complete")],
            notes="rank 2 waits for a stage-in marker that never comes (its shard missing from the sidecar's list); "
                  "ranks 0 and 1 time out in the post-setup barrier after 30 s."))
