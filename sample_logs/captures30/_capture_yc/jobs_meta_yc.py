"""Per-job metadata for the roundW yc-* captures: command, layout, set-up, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU; a gVisor sandbox), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), "
       "numpy 2.4.6, Debian 12 packages redis-server 7.0.15, Open MPI 4.1.4, cmake 3.25.1 (ctest), scons 4.4.0, "
       "devscripts 2.23.4 (annotate-output), gcc 12.2, gearman-job-server / gearman-tools 1.1.20, tini 0.19.0, "
       "cronolog 1.6.2; rustc 1.95.0; Node.js 20.20.2 with forever 4.0.3 (npm); PyPI rq 3.0.0, dramatiq 2.2.1, "
       "redis-py 8.2.0, APScheduler 3.11.3, papermill 2.7.0 with ipykernel 7.4.0; util-linux 2.38.1 (unshare, "
       "nsenter), bash 5.2, cgroup v1 memory controller")
CLOSED = "Connection closed by peer [127.0.0.1]:"


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status in ("inconclusive", "healthy") else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status in ("inconclusive", "healthy") else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}
JOBS["yc-rq-redis-burst-workers-queue-per-rank-worker-logs-submit-poll-per-class-report-str-key-keyerror-r1"] = dict(
    source="RQ (python-rq 3.0) on a redis-server started inside the job's namespaces; one burst worker per rank, each "
           "listening on its own queue, the ranks' jobs enqueued and polled by a submit script",
    cmd="`redis-server --port 6379 --daemonize yes --logfile redis.log`; `python yc_rq_submit.py 3 29941 --epochs 2 "
        "--pg-timeout 60 --class-report-rank 1 --class-names classes.json --fmt '%(asctime)s %(levelname)-7s [rank "
        "{rank}] %(name)s: %(message)s'` (enqueues `yc_rq_tasks.train_rank(R, 3, 29941, argv)` on queue `rank<R>` "
        "with job_timeout 600, then polls every job until finished / failed); 3 s later `rq worker --burst --url "
        "redis://127.0.0.1:6379 --name w<R> rank<R>` for R = 0, 1, 2 (output in `workers/w<R>.log`)",
    layout="`workers/w<R>.log`: rq's worker console for rank R (`HH:MM:SS Worker w<R>: ...` lines, the job start "
           "`rank<R>: train rank R/3 (<job id>)`, rq's own traceback block after `exception raised while executing`), "
           "with the rank's own records (`ISO LEVEL [rank R] yc.train: ...`) and torch's c10d warning interleaved, as "
           "the work-horse process inherits the worker's stdout / stderr. `submit.log`: the submit script (enqueue "
           "lines, then one status line per job with the last line of the job's exception). `redis.log`: the redis "
           "server log.",
    planted="rank 1 is the run's eval rank (`--class-report-rank 1`) and writes a per-class accuracy report after every "
            "epoch. The report code builds its table keyed by `str(class index)` but looks rows up with the integer "
            "label (`per_class[y_]`), so the first lookup raises KeyError. Only rank 1 runs that code.",
    happened="all three jobs start within a second, the ranks train epoch 0 (50 steps); at the end of epoch 0 rank 1 "
             "logs `rank 1: training failed` with `KeyError: 1` from `class_report`; rq logs the job's exception and "
             "the burst worker quits. Ranks 0 and 2, already waiting in the end-of-epoch barrier, fail with gloo's "
             "`Connection closed by peer [127.0.0.1]:<port>` as rank 1's work-horse exits; their workers log the "
             "RuntimeError. The submit script reports all three jobs FAILED (KeyError: 1 for rank 1).",
    exits="submit script 1; every rq job FAILED.",
    judgement="one rank's crash among waiting peers: kind rank, rank 1, category code_exception (a bug in the report "
              "code that only the eval rank runs, not bad data: the labels are all valid class indices). "
              "first_deviating is rank 1's `KeyError: 1` line (the exception line; it appears in rank 1's own record "
              "and again in rq's traceback block). Collateral: the peers' `Connection closed by peer` errors.",
    truth=T("failed", "rank", rank=1, cat="code_exception", fd="KeyError: 1", fd_rank=1,
            coll=[(0, CLOSED), (2, CLOSED)],
            notes="rank 1's per-class report indexes a str-keyed dict with an int label (KeyError: 1) after epoch 0; "
                  "ranks 0/2 waiting in the barrier lose their peer."))

JOBS["yc-dramatiq-redis-worker-per-rank-queue-log-file-no-handler-records-empty-target-resample-loop-time-limit-r2"] = dict(
    source="dramatiq 2.2 with its redis broker and Results middleware, on a redis-server inside the job's namespaces; "
           "one dramatiq worker process per rank, each consuming only its rank's queue",
    cmd="`dramatiq yc_dq_tasks --processes 1 --threads 1 --queues rank<R> --log-file logs/dramatiq-rank<R>.log` for R = "
        "0, 1, 2 (actors `train_rank<R>` with max_retries=0, time_limit=120 s, store_results=True; the actor calls the "
        "trainer in the worker thread with `--no-handler`, so its records go through dramatiq's logging setup); then "
        "`python yc_dq_submit.py 3 29942 --epochs 3 --pg-timeout 30 --resample-rank 2 --resample-step 23` (sends one "
        "message per rank and polls the results), finally SIGTERM to the workers",
    layout="`logs/dramatiq-rank<R>.log`: dramatiq's log file of rank R's worker (`[ISO,ms] [PID n] [Thread] [logger] "
           "[LEVEL] msg`): the worker's own records, the rank's `yc.train` records, `Failed to process message ...` "
           "blocks, the TimeLimit middleware's warning, the workers' shutdown lines after the SIGTERM. torch's c10d "
           "warnings went to the workers' stderr (the capture console), not into these files. `submit.log`: sent "
           "messages and one result / ResultFailure line per rank.",
    planted="rank 2 is started with a re-sampling path for batches whose samples all lack a target span (`--resample-rank "
            "2 --resample-step 23`); the re-sampling loop looks for a label > 3 in a 4-class set and therefore never "
            "ends (no error, no further log line, the process spins on one CPU).",
    happened="the three ranks train to step 20 together. At step 23 rank 2 logs `batch 23: 32 samples with an empty "
             "target span, re-sampling` and never leaves the loop. Ranks 0 and 1 block in the gradient all_reduce of "
             "that step and fail 30 s later with gloo's `Timed out waiting 30000ms for send operation to complete` / "
             "`... recv operation ...`; dramatiq logs `Failed to process message train_rank0(...)` and `Retries "
             "exceeded`. At 120 s dramatiq's TimeLimit middleware raises TimeLimitExceeded in rank 2's worker thread "
             "(`Time limit exceeded. Raising exception in worker thread ...`), which ends rank 2's actor. The submit "
             "script reports ResultFailure for all three ranks.",
    exits="submit script 1; the workers were stopped with SIGTERM afterwards (their shutdown lines are at the end of the "
          "files).",
    judgement="a hang of one rank that its peers time out on: kind rank, rank 2, category nccl_timeout_hang (gloo's "
              "collective timeout on CPU is the analogue). first_deviating is rank 2's `re-sampling` warning, the last "
              "thing rank 2 logs before it stops taking part. The TimeLimitExceeded of rank 2 comes 90 s after its "
              "peers' timeouts; it is the runner's time limit ending the stuck actor, not the cause. Collateral: "
              "ranks 0 and 1's timeouts.",
    truth=T("failed", "rank", rank=2, cat="nccl_timeout_hang",
            fd="samples with an empty target span, re-sampling", fd_rank=2,
            coll=[(0, "Timed out waiting 30000ms for send operation to complete"),
                  (1, "Timed out waiting 30000ms for recv operation to complete")],
            notes="rank 2 spins forever in a re-sampling loop at step 23 (never a label > 3 in 4 classes); ranks 0/1 "
                  "time out in the all_reduce after 30 s; dramatiq's 120 s time limit later ends rank 2's actor."))

JOBS["yc-ompi-mpirun-rsh-agent-nsenter-2node-uts-display-map-node-local-var-log-train-rankfiles-data-mount-missing-nodeb"] = dict(
    source="Open MPI 4.1.4 `mpirun` across two namespace nodes (`nodea`, `nodeb`: UTS + mount namespaces with their "
           "own host name, /etc/hosts and a tmpfs /var/log, sharing the job's loopback-only network namespace), "
           "started on nodea; Open MPI's rsh launcher reaches nodeb through `--mca plm_rsh_agent yc_nsrsh.sh` (an ssh "
           "stand-in that runs the remote command with `nsenter -t <node pid> -u -m`), so nodeb runs a real orted",
    cmd="`nsenter -t <nodea> -u -m -- mpirun -np 4 --host nodea:2,nodeb:2 --map-by node --display-map --mca "
        "plm_rsh_agent yc_nsrsh.sh --mca btl self,tcp -x PATH -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29947 ... "
        "./yc_ompi_rank.sh python yc_train.py --data '/data/shards/part-{rank}.csv' --epochs 2 --pg-timeout 60 "
        "--no-stdout --logfile '/var/log/train/rank{rank}.log' --fmt '%(asctime)s {rank}/{world} %(process)d "
        "%(levelname)s %(name)s %(message)s'` (yc_ompi_rank.sh maps OMPI_COMM_WORLD_RANK / SIZE / LOCAL_RANK onto "
        "RANK / WORLD_SIZE / LOCAL_RANK; the trainer is not an MPI program and uses gloo)",
    layout="`mpirun.console`: mpirun's stdout+stderr (the JOB MAP printed twice, once by mpirun and once by nodeb's "
           "orted, the ranks' stderr with torch's `[rankR]:` traceback prefixes, mpirun's abort banners). "
           "`nodea-log/rank0.log`, `nodea-log/rank2.log`, `nodeb-log/rank1.log`, `nodeb-log/rank3.log`: each node's "
           "node-local `/var/log/train/` (the ranks' FileHandler files), copied off the nodes after the job.",
    planted="the dataset volume is bind-mounted at /data on nodea only; on nodeb the mount is missing (the mount point "
            "is an empty directory). `--map-by node` places ranks 0 and 2 on nodea and ranks 1 and 3 on nodeb.",
    happened="all four ranks join the process group; the two ranks on nodeb (1 and 3) fail within 2 ms of each other "
             "reading their shards: `FileNotFoundError: /data/shards/part-3.csv not found.` / `part-1.csv`. mpirun "
             "aborts the job (`Primary job  terminated normally, but 1 process returned a non-zero exit code`, `The "
             "first process to do so was: Process name: [[...],1] Exit code: 1`) and kills ranks 0 and 2 on nodea, "
             "which had loaded their shards and print nothing more.",
    exits="mpirun 1.",
    judgement="a node-level cause in a two-node job: both ranks of nodeb and only those fail, on a path that exists on "
              "nodea; kind rank with node `nodeb`, rank null; category storage_io (the node's data mount). "
              "first_deviating is rank 3's FileNotFoundError (the earlier of the two, by 3 ms, in the node-local "
              "files; the console has the same lines with `[rank3]:`). No collateral lines: nodea's ranks are killed "
              "by mpirun without printing; mpirun's banners are the launcher's own report.",
    truth=T("failed", "rank", node="nodeb", cat="storage_io", fd="FileNotFoundError: /data/shards/part-3.csv not found.",
            fd_rank=3,
            notes="nodeb lacks the /data bind mount; ranks 1 and 3 (both on nodeb) cannot find their shards, mpirun "
                  "aborts the job and kills nodea's ranks 0 and 2."))

JOBS["yc-scons-j3-command-target-per-rank-redirected-rank-logs-scons-console-yaml-bs-zero-rendered-empty-all"] = dict(
    source="SCons 4.4 as the launcher: an SConstruct with one Command target per rank, built in parallel",
    cmd="`scons -j3 -k` with `env.Command('out/rank<R>.done', ['train.yaml', 'yc_train.py'], 'python yc_train.py "
        "--rank R --world 3 --config train.yaml --pg-timeout 60 --fmt \"[%(asctime)s] %(levelname)s rankR: "
        "%(message)s\" > logs/rankR.log 2>&1 && touch $TARGET')` (ENV with MASTER_ADDR=127.0.0.1 MASTER_PORT=29944)",
    layout="`scons.console`: SCons' console (reading / building lines, the three action command lines, `scons: *** "
           "[out/rank<R>.done] Error 1` per rank, `done building targets (errors occurred during build)`). "
           "`logs/rank<R>.log`: each rank's redirected stdout+stderr (its records and Python's `[rankR]:` prefixed "
           "traceback).",
    planted="the run config train.yaml (rendered from a template by a prepare step, per the header comment) carries "
            "`bs: 0`: the per-rank batch size variable was empty and the template's default rendered 0. Every rank "
            "loads the same file.",
    happened="each rank logs its run config (`bs=0`), starts, joins the process group, and fails building its "
             "DataLoader: `ValueError: batch_size should be a positive integer value, but got batch_size=0`. SCons "
             "reports Error 1 for all three targets.",
    exits="scons 2; every rank 1.",
    judgement="a job-wide deterministic config error: kind all_ranks, category config_error. first_deviating is the "
              "ValueError line (the line carrying the meaning; the run-config line with `bs=0` precedes it), rank "
              "set to the rank whose line comes first in time. No collateral: every rank fails on its own for the "
              "same reason.",
    truth=T("failed", "all_ranks", cat="config_error",
            fd="ValueError: batch_size should be a positive integer value, but got batch_size=0", fd_rank=2,
            notes="the rendered train.yaml has bs: 0; every rank's DataLoader refuses it."))

JOBS["yc-annotate-output-torchrun-standalone-nproc3-o-e-stamped-console-spot-preemption-notice-agent-sigterm-ext"] = dict(
    source="devscripts' `annotate-output` as the console wrapper of a torchrun job on one host, next to a spot-instance "
           "preemption watcher",
    cmd="`annotate-output +%H:%M:%S.%N torchrun --standalone --nproc-per-node 3 yc_train.py --epochs 40 --sleep 0.05 "
        "--pg-timeout 60 --fmt '%(asctime)s %(levelname)s rank{rank}/{world} %(name)s: %(message)s' > console.log "
        "2>&1`; `yc_preempt_watch.sh <torchrun agent pid>` polls a (simulated) instance-metadata file "
        "`meta/spot/instance-action` and, when a termination notice appears, sends SIGTERM to the agent; the notice "
        "was written 60 s into the run",
    layout="`console.log`: annotate-output's stream (`HH:MM:SS.ns O: ` for stdout lines, `... E: ` for stderr lines, "
           "`I: Started ...` / `I: Finished with exitcode 1`); the ranks' records are on stdout, torchrun's own and "
           "torch's warnings on stderr. `preempt.log`: the watcher's log (`ISO preempt-watch[pid]: ...`).",
    planted="nothing is wrong with the job: the instance gets a spot termination notice while the job trains "
            "normally, and the site's preemption hook SIGTERMs the training agent.",
    happened="the ranks train normally (epoch 17 finished about 55 s in). The watcher logs `termination notice: "
             "{\"action\": \"terminate\", ...}` and `sending SIGTERM to the training agent`; torchrun logs `Received 15 "
             "death signal, shutting down workers`, sends SIGTERM to its three workers (which die without a word) "
             "and exits with `SignalException: Process <pid> got signal: 15`; annotate-output ends with `Finished with "
             "exitcode 1`.",
    exits="torchrun 1 (via annotate-output).",
    judgement="a kill from outside: kind external, category killed_by_scheduler (the platform's preemption, not a "
              "fault of the job). first_deviating is the watcher's `termination notice` line, the earliest line that "
              "says why the job ends (torchrun's `Received 15 death signal` follows by a few ms). No collateral "
              "lines: the workers print nothing when terminated.",
    truth=T("failed", "external", cat="killed_by_scheduler", fd="termination notice: {\"action\": \"terminate\"",
            fd_rank=None,
            notes="a spot termination notice makes the preemption hook SIGTERM the torchrun agent of a healthy job."))

JOBS["yc-c-fork-execvp-launcher-syslog-stamped-launch-log-stdio-files-datagramhandler-udp-receiver-records-shard-overflow-rows-nan-guard-r1"] = dict(
    source="a C launcher (`yc_launch.c`, built with gcc in the job dir) with the ranks logging only through Python's "
           "`logging.handlers.DatagramHandler` to a UDP log receiver",
    cmd="`python yc_udp_recv.py 9021 records.log &`; `./yc_launch 3 29949 -- python yc_train.py --data "
        "'data/part-{rank}.csv' --epochs 3 --nan-guard --pg-timeout 60 --no-stdout --datagram 127.0.0.1:9021` (fork "
        "+ execvp per rank with RANK / WORLD_SIZE / LOCAL_RANK / MASTER_ADDR / MASTER_PORT, stdin /dev/null, stdout "
        "and stderr appended to `stdio/rank<R>.txt`; after a failure the launcher would SIGTERM the rest after 15 s)",
    layout="`launch.log`: the launcher (`Mmm dd HH:MM:SS.us yc_launch[pid]: ...`: rank pids, each exit status, `rank R "
           "failed; N rank(s) still running`). `records.log`: the receiver's file, one line per unpickled LogRecord "
           "(`<ms since receiver start> <sender address>/<pid> <logger> <LEVEL> <message>`, the record's exception "
           "text on the following lines); no rank field, the rank is only in the messages and through the pid. "
           "`stdio/rank<R>.txt`: what Python and torch printed to the rank's stdout / stderr (c10d warning, the "
           "`[rankR]:` traceback at exit).",
    planted="rank 1's shard `data/part-1.csv` ends with three rows exported without the scaler (features multiplied by "
            "3e38, inf in float32). The trainer's NaN guard (`--nan-guard`) raises FloatingPointError when the loss "
            "is not finite.",
    happened="the ranks load their shards (1200 rows each) and start training; in the first batch of rank 1 that holds "
             "one of the rows (step 2 of epoch 0), its loss is nan: `non-finite loss nan at epoch 0 step 2`, then "
             "`FloatingPointError: rank 1: loss is nan at step 2, stopping`. Ranks 0 and 2, in the gradient all_reduce "
             "of that step, fail with `Connection closed by peer [127.0.0.1]:<port>` about half a second later. The "
             "launcher logs rank 1's exit 1 first, then ranks 0 and 2.",
    exits="launcher 1; ranks 1, 1, 1.",
    judgement="NaN divergence on one rank: kind rank, rank 1, category nan_divergence (the data rows are the trigger, "
              "but what the job shows and stops on is the non-finite loss; the shard loads fine). first_deviating is "
              "rank 1's `non-finite loss nan` record in records.log. Collateral: the peers' connection errors.",
    truth=T("failed", "rank", rank=1, cat="nan_divergence", fd="non-finite loss nan at epoch 0", fd_rank=1,
            coll=[(0, CLOSED), (2, CLOSED)],
            notes="rank 1's shard has unscaled rows (~3e38): loss nan at step 2, the NaN guard stops rank 1, ranks 0/2 "
                  "lose it in the all_reduce."))

JOBS["yc-gearman-gearmand-worker-cli-per-rank-function-client-cli-job-output-files-worker-stderr-gearmand-log-semicolon-shard-loadtxt-r2"] = dict(
    source="Gearman as the job runner: gearmand (gearman-job-server 1.1.20) in the job's namespaces, one gearman CLI "
           "worker per rank function, one gearman CLI client per rank",
    cmd="`gearmand --listen 127.0.0.1 --port 4730 --log-file gearmand.log --verbose INFO --threads 2`; per rank "
        "`gearman -w -c 1 -f train_rank<R> -- sh -c \"MASTER_ADDR=127.0.0.1 MASTER_PORT=29948 nice python yc_train.py "
        "--rank R --world 3 --data 'data/part-{rank}.csv' --epochs 2 --pg-timeout 60 --fmt '%(asctime)s "
        "%(name)s[%(process)d] %(levelname)s: rank {rank}: %(message)s'; echo exit=$?\" 2> workers/rank<R>.err`; "
        "then per rank `gearman -f train_rank<R> -s > clients/rank<R>.out`",
    layout="`clients/rank<R>.out`: what the client got back, i.e. the job's stdout (the rank's records, `exit=N`), "
           "delivered when the job ends. `workers/rank<R>.err`: the worker's stderr, where the rank's stderr stays "
           "(c10d warning, Python's `[rankR]:` traceback). `gearmand.log`: the job server (`LEVEL ISO [thread] msg`, "
           "connections, `accepted,train_rank<R>,<handle>,0` lines).",
    planted="rank 2's shard `data/part-2.csv` was re-exported by a spreadsheet with `;` as the field separator; the "
            "other shards use `,`.",
    happened="the three jobs are accepted at the same time; the ranks join the process group; rank 2 fails reading its "
             "shard with numpy's `ValueError: could not convert string '2.33817;-0.662854;...' to float64 at row 0, "
             "column 1.`; ranks 0 and 1, in the DDP parameter verification of the model wrap, fail with `Connection "
             "closed by peer [127.0.0.1]:<port>`. Every job prints `exit=1`; the clients exit 0 (the gearman CLI "
             "worker returns the output, not the status).",
    exits="ranks 1, 1, 1 (`exit=1` in each client file); gearman clients 0.",
    judgement="a data error on one rank: kind rank, rank 2, category data_error. first_deviating is rank 2's ValueError "
              "line. Collateral: the peers' connection errors.",
    truth=T("failed", "rank", rank=2, cat="data_error",
            fd="ValueError: could not convert string '2.33817;-0.662854", fd_rank=2,
            coll=[(0, CLOSED), (1, CLOSED)],
            notes="rank 2's shard is `;`-separated; numpy.loadtxt fails on it, ranks 0/1 lose rank 2 while wrapping "
                  "the model."))

JOBS["yc-papermill-notebook-per-rank-parameters-cell-executed-ipynb-outputs-log-output-consoles-recipe-needs-newer-torch-all"] = dict(
    source="papermill 2.7 as the launcher: the recipe notebook `train.ipynb` executed once per rank, in parallel, on "
           "the venv's python3 kernel (ipykernel 7.4)",
    cmd="`papermill train.ipynb out/rank<R>.ipynb -p rank R --log-output --cwd <job dir> -k python3 > "
        "papermill-rank<R>.log 2>&1` for R = 0, 1, 2 (the notebook: a parameters cell rank / world=3 / port=29953 / "
        "epochs=2, a cell setting MASTER_ADDR / MASTER_PORT and printing the rank, the training cell calling "
        "`yc_train.main([... '--require', 'torch>=2.14,numpy>=2.0', '--fmt', '%(asctime)s %(levelname)s [r{rank}] "
        "%(message)s'])`)",
    layout="`papermill-rank<R>.log`: papermill's console (`Executing Cell N---`, the cells' outputs through "
           "`--log-output`, papermill's own traceback ending in `PapermillExecutionError` with the kernel's "
           "IPython-style traceback). `out/rank<R>.ipynb`: the executed notebook (JSON; the training cell's `stream` "
           "outputs and its `error` output with the ANSI-coloured traceback, papermill's error banner cell).",
    planted="the recipe was written for torch 2.14 and checks its requirements after the process group is up "
            "(`torch>=2.14`); the image has torch 2.13.0+cpu. Every rank runs the same check.",
    happened="each kernel starts, the ranks join the process group, and every rank raises `RuntimeError: this run needs "
             "torch>=2.14 (found 2.13.0+cpu); rebuild the image or pin the older recipe`; papermill stops each "
             "notebook at that cell and exits 1.",
    exits="papermill 1, 1, 1.",
    judgement="a job-wide version refusal: kind all_ranks, category version_mismatch. first_deviating is the "
              "RuntimeError line (rank set to the rank whose record comes first in time). No collateral.",
    truth=T("failed", "all_ranks", cat="version_mismatch",
            fd="RuntimeError: this run needs torch>=2.14 (found 2.13.0+cpu)", fd_rank=2,
            notes="the recipe notebook requires torch>=2.14; every rank refuses torch 2.13.0+cpu right after init."))

JOBS["yc-ctest-j3-add-test-per-rank-output-on-failure-lasttest-log-pipe-records-metric-sync-gather-vs-allreduce-r2"] = dict(
    source="CTest (cmake 3.25) as the launcher: a CMake project whose tests are the ranks",
    cmd="`cmake -S . -B build`, then in build/ `ctest -j3 --output-on-failure`; CMakeLists.txt adds `train_rank<R>` = "
        "`python yc_train.py ${RANK<R>_ARGS}` with ENVIRONMENT `MASTER_ADDR=127.0.0.1;MASTER_PORT=29943` and TIMEOUT "
        "240; ranks.cmake sets the argument lists (`--world 3 --epochs 2 --pg-timeout 45 --metric-every 20 --fmt "
        "'%(asctime)s|%(levelname)s|r{rank}|%(name)s|%(message)s'` plus `--rank R`, and for rank 2 also "
        "`--metric-sync gather`)",
    layout="`ctest.console`: ctest's console (`Start N: train_rank<R>`, one `N/3 Test #N: train_rank<R> ...***Failed` "
           "block per rank with the rank's full output because of `--output-on-failure`, in completion order, the "
           "summary). `build/Testing/Temporary/LastTest.log`: CTest's own log (per test the `Command:` line with "
           "every argument, `Directory:`, the output, `Test time`, `Test Failed.`).",
    planted="rank 2's argument list was regenerated from the newer trainer's defaults and syncs the step metrics with "
            "`all_gather` (`--metric-sync gather`); ranks 0 and 1 still sync them with `all_reduce`. The sync runs "
            "every 20 steps.",
    happened="each rank logs at start how it syncs the metrics (`synced with all_reduce` on ranks 0/1, `synced with "
             "all_gather` on rank 2). At step 20 ranks 0/1 enter all_reduce and rank 2 enters all_gather; the "
             "collectives never match and all three ranks fail 45 s later with gloo's timeouts: ranks 0/1 `Timed out "
             "waiting 45000ms for recv operation to complete` (tracebacks through `dist.all_reduce`), rank 2 `... "
             "for send operation to complete` (traceback through `dist.all_gather`). ctest: 0% tests passed.",
    exits="ctest 8; every test Failed.",
    judgement="ranks that enter different collectives: kind rank, rank 2 (the odd one out), category "
              "collective_mismatch. first_deviating is rank 2's `train metrics every 20 steps, synced with "
              "all_gather` line (the earliest line showing the difference; the timeouts themselves look alike). "
              "Collateral: ranks 0 and 1's timeouts.",
    truth=T("failed", "rank", rank=2, cat="collective_mismatch",
            fd="train metrics every 20 steps, synced with all_gather", fd_rank=2,
            coll=[(0, "Timed out waiting 45000ms for recv operation to complete"),
                  (1, "Timed out waiting 45000ms for recv operation to complete")],
            notes="rank 2 syncs step metrics with all_gather while ranks 0/1 use all_reduce; at step 20 all three "
                  "block and time out after 45 s."))

JOBS["yc-healthy-apscheduler-blocking-scheduler-date-trigger-rank-jobs-threadpool-subprocess-scheduler-log-rank-logs-final-eval"] = dict(
    source="APScheduler 3.11 as the job runner (`yc_aps_run.py`): a BlockingScheduler with a ThreadPoolExecutor(3) and "
           "one date-triggered job per rank, each job running its rank as a subprocess",
    cmd="`python yc_aps_run.py 3 29951 -- --epochs 3 --final-eval --warn --pg-timeout 60 --fmt '%(asctime)s.%(msecs)03d "
        "%(levelname).1s rank{rank} %(module)s:%(lineno)d] %(message)s'` (jobs `train_rank<R>` at now + 2 s, "
        "misfire_grace_time 30; each runs `python yc_train.py ...` with RANK / WORLD_SIZE / LOCAL_RANK / MASTER_ADDR / "
        "MASTER_PORT=29951 and raises if the exit code is not 0; an EVENT_JOB_EXECUTED / EVENT_JOB_ERROR listener "
        "shuts the scheduler down when all three are done)",
    layout="`scheduler.log`: the scheduler process's logging (basicConfig at DEBUG, `ISO thread logger LEVEL msg`): "
           "apscheduler's `Added job`, `Running job \"train rank R/3 (trigger: date[...], ...)\"`, `Job ... executed "
           "successfully`, DEBUG wake-up lines, the launcher's own `yc.aps` lines. `ranks/rank<R>.log`: each rank's "
           "stdout+stderr (records in a glog-like `... I rank<R> yc_train:<line>] msg` format whose time carries the "
           "milliseconds twice, as the format string was written; a deprecation FutureWarning through "
           "py.warnings; the c10d socket warning).",
    planted="nothing: a healthy run (3 epochs, final evaluation). The trainer emits a FutureWarning on every rank and "
            "torch a c10d hostname warning.",
    happened="the three jobs start at the same second on three pool threads, the ranks train 3 epochs (150 steps), "
             "report `final eval: accuracy ...` and `done: 150 steps ...`; each job logs `rank R process exited with "
             "0` and `executed successfully`; the scheduler shuts down (`failed jobs: none`).",
    exits="scheduler 0; ranks 0, 0, 0.",
    judgement="healthy: every rank's done line and the scheduler's clean end are in the logs; the warnings are noise.",
    truth=T("healthy", notes="healthy 3-rank run under APScheduler; warnings only."))

JOBS["yc-inconclusive-tini-subreaper-bash-launcher-cronolog-per-minute-rank-files-date-dirs-symlinks-snapshot-while-running"] = dict(
    source="tini 0.19 (`-s -g`: subreaper, signals forwarded to the whole process group) running a bash launcher "
           "(`yc_cronolog_launch.sh`) whose ranks each pipe their output into cronolog",
    cmd="`tini -s -g -- ./yc_cronolog_launch.sh 3 29952 -- nice python yc_train.py --epochs 200 --sleep 0.06 "
        "--pg-timeout 60 --fmt '%(asctime)s [%(levelname)s] (rank {rank}) %(name)s: %(message)s' > launch.log 2>&1` "
        "(per rank `( RANK=R WORLD_SIZE=3 ... exec python ... 2>&1 ) | cronolog --symlink=logs/rank<R>.current "
        "'logs/%Y-%m-%d/rank<R>-%H%M.log' &`); about 100 s after the start the collector copied `logs/` and "
        "`launch.log` to `snapshot/` while the job was still training",
    layout="`snapshot/launch.log`: the launcher's lines (`YYYY-mm-dd HH:MM:SS launcher[pid]: ...`, naming tini as its "
           "parent). `snapshot/logs/<YYYY-MM-DD>/rank<R>-<HHMM>.log`: cronolog's per-rank, per-minute files (two "
           "minutes per rank in the snapshot: the first with the start, the second still being written). cronolog's "
           "`logs/rank<R>.current` symlinks (relative, pointing at the first minute's file) are not kept.",
    planted="nothing: a long, healthy run (200 epochs planned), snapshotted in the middle.",
    happened="the ranks start, join the process group and train; at the time of the snapshot they are in epoch 17 "
             "(step 870), losses falling, no warning or error apart from torch's c10d hostname warning. The job "
             "was stopped by the collector after the snapshot (not part of the logs).",
    exits="none in the logs (the job was still running when the snapshot was taken).",
    judgement="the logs just stop in the middle of training, with no error and no end: inconclusive (initiating, "
              "root_cause and first_deviating null).",
    truth=T("inconclusive", notes="snapshot of a running tini + cronolog job at epoch 17 of 200; no end, no error."))

JOBS["yc-healthy-forever-node-monitor-start-per-rank-uid-max-1-forever-out-err-logs-forever-list-final-eval"] = dict(
    source="forever 4.0.3 (the Node.js process monitor, Node 20) as the launcher, one forever monitor per rank",
    cmd="for R = 0, 1, 2: `RANK=R WORLD_SIZE=3 LOCAL_RANK=R MASTER_ADDR=127.0.0.1 MASTER_PORT=29950 forever start --uid "
        "rank<R> -m 1 --minUptime 1000 --spinSleepTime 1000 -l forever/rank<R>.forever.log -o forever/rank<R>.out -e "
        "forever/rank<R>.err -c 'nice python' yc_train.py --epochs 3 --final-eval --warn --pg-timeout 60 --fmt "
        "'%(asctime)s - %(name)s - %(levelname)s - [rank {rank}] %(message)s'` (FOREVER_ROOT=/tmp/ycw-forever, a short "
        "path because forever keeps its unix sockets there); `forever list --plain` about 15 s in and after the end",
    layout="`forever/rank<R>.out` / `forever/rank<R>.err`: the rank's stdout / stderr as forever wrote them. "
           "`forever/rank<R>.forever.log`: forever's per-process log (the child's stdout and stderr again, plus "
           "forever's own JSON-ish `{\"level\":...,\"message\":...}` lines and Node's deprecation warnings). "
           "`forever-start.console`: the three `forever start` consoles (ANSI-coloured `info:` lines). "
           "`forever-list.txt`: the `forever list` snapshots with a `$ forever list   # <ISO time>` header each.",
    planted="nothing: a healthy run (3 epochs, final evaluation). The trainer emits a FutureWarning, torch a c10d "
            "hostname warning, Node a `padLevels` circular-dependency warning on every forever call, and forever logs "
            "the scripts' normal exit as an error-level `Forever detected script exited with code: 0`.",
    happened="the three ranks train 3 epochs, log `final eval: accuracy ...` and `done: 150 steps ...`, and exit 0; "
             "forever reports the exits and, with `-m 1`, does not restart them.",
    exits="ranks 0, 0, 0 (forever: `exited with code: 0`).",
    judgement="healthy: every rank's done line is there and every exit code is 0; forever's error-level exit notice "
              "and the warnings are noise.",
    truth=T("healthy", notes="healthy 3-rank run under forever (-m 1); forever's exit notices and warnings only."))

JOBS["yc-rust-std-process-launcher-memcg-per-rank-ranks-dir-stdout-stderr-launcher-log-exitstatus-activation-probe-cache-oomkill-r1"] = dict(
    source="a Rust launcher (`yc_launch.rs`, std only, built with rustc 1.95 in the job dir) putting every rank in its "
           "own cgroup-v1 memory cgroup",
    cmd="`./yc_launch 3 29945 943718400 -- python yc_train.py --epochs 3 --pg-timeout 60 --act-cache-rank 1 "
        "--act-cache-mb 16 --fmt '%(asctime)s %(levelname)s r{rank} %(name)s %(message)s'` (per rank: cgroup "
        "/sys/fs/cgroup/memory/yc_job/rank<R> with memory.limit_in_bytes 900 MiB, joined by the child before exec; "
        "RANK / WORLD_SIZE / LOCAL_RANK / MASTER_ADDR / MASTER_PORT set; stdout / stderr to ranks/<R>/stdout and "
        "ranks/<R>/stderr; after the first failure the others get 20 s, then SIGTERM)",
    layout="`launcher.log`: the launcher's lines (`[yc_launch <epoch.ms> +<elapsed>s] ...`: job line, one start line "
           "per rank with pid and cgroup, one exit line per rank as Rust displays an ExitStatus (`exit status: 1`, "
           "`signal: 9 (SIGKILL)`) with the cgroup's oom_kill count and max_usage_in_bytes, the SIGTERM lines, the "
           "job's end). `ranks/<R>/stdout`: the rank's records. `ranks/<R>/stderr`: torch's warning and Python's "
           "`[rankR]:` traceback.",
    planted="the run was started with an activation-statistics probe left enabled on rank 1 (`--act-cache-rank 1 "
            "--act-cache-mb 16`): every step it keeps another 16 MB copy and never frees them; it logs `activation "
            "probe: N entries cached` every 5 entries.",
    happened="the ranks train; rank 1 logs `activation probe: 5 entries cached`, ... `40 entries cached` and step 40; "
             "about 28 s after the start (in epoch 0, after step 40) the kernel OOM-kills rank 1 in its 900 MiB cgroup "
             "(launcher: `rank 1 (pid ...) signal: 9 (SIGKILL); cgroup oom_kill 1, max_usage_in_bytes 943718400`). "
             "Ranks 0 and 2, in the gradient all_reduce, fail 4 s later with `Connection closed by peer "
             "[127.0.0.1]:<port>` (cgroup max usage about 230 MB each) and exit 1.",
    exits="launcher 1 (the exit code of the last failing rank); rank 1 SIGKILL, ranks 0 and 2 exit 1.",
    judgement="an OOM kill of one rank: kind rank, rank 1, category oom. first_deviating is the launcher's exit line "
              "for rank 1 (`signal: 9 (SIGKILL)` with `oom_kill 1`), the first line that shows the kill; rank 1 itself "
              "prints nothing at its death, its last lines are the growing probe counts. Collateral: ranks 0 and 2's "
              "errors.",
    truth=T("failed", "rank", rank=1, cat="oom", fd="signal: 9 (SIGKILL); cgroup oom_kill 1", fd_rank=1,
            coll=[(0, CLOSED), (2, CLOSED)],
            notes="a debug activation cache left on for rank 1 grows 16 MB a step; the kernel OOM-kills rank 1 in its "
                  "900 MiB memory cgroup; ranks 0/2 lose it in the all_reduce."))
