"""Per-job metadata for the roundV xc-* captures: command, layout, set-up, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU; a gVisor sandbox), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), "
       "numpy 2.4.6, Debian 12 packages slurm-wlm 22.05.8 with munge 0.5.15, s6 2.11.3.2, ruby 3.1.2, cwltool "
       "3.1.20230209161050, pexec 1.0~rc8, erlang-base (OTP 25), lua5.3 5.3.6 with lua-posix 33.4.0, monit 5.33.0, "
       "gcc 12.2; PyPI celery 5.7.0 / kombu 5.7.0, huey 3.5.4, parsl 2026.10.26, ipyparallel 9.2.0, opentelemetry-sdk "
       "1.45.2; util-linux 2.38.1 (unshare), bash 5.2, cgroup v1 memory controller")
CLOSED = "Connection closed by peer [127.0.0.1]:"


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status in ("inconclusive", "healthy") else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status in ("inconclusive", "healthy") else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}
JOBS["xc-slurm-sbatch-srun-slurm-jobid-out-slurmctld-slurmd-logs-jobcomp-time-limit-1min-copied-from-smoke-test-ext"] = dict(
    source="a real Slurm 22.05 cluster of one node (host `vm`: munged, slurmctld, slurmd brought up by "
           "`xc_slurm_up.sh` inside the job's namespaces, auth/munge, proctrack/linuxproc, KillWait=5), the job "
           "submitted with sbatch, its batch script running the ranks with srun (rank = SLURM_PROCID)",
    cmd="`sbatch train.sbatch` with `#SBATCH --ntasks=3 --cpus-per-task=1 --time=00:01:00 --output=slurm-%j.out`; the "
        "script exports MASTER_ADDR (first host of the allocation) / MASTER_PORT=29921 and runs `srun "
        "--kill-on-bad-exit=1 python xc_train.py --epochs 30 --sleep 0.06 --pg-timeout 60 --warn --fmt "
        "'%(asctime)s [%(process)d] r{rank} %(levelname)s %(name)s - %(message)s'`; the capture script waits for the "
        "job to leave squeue and keeps `scontrol show job`",
    layout="`slurm-1.out`: the batch script's stdout+stderr (its own `[ISO] job ...` line, all three tasks' lines "
           "unlabelled, srun's and slurmstepd's messages). `slurm/log/slurmctld.log`, `slurm/log/slurmd-vm.log`: the "
           "daemons' logs (`[ISO.ms] msg`). `slurm/log/jobcomp.txt`: the jobcomp/filetxt record. `scontrol-job.txt`: "
           "`scontrol show job 1` after the end. `sbatch.txt`: sbatch's answer.",
    planted="the batch script was copied from the smoke-test script and still asks for `--time=00:01:00`; the full run "
            "(30 epochs) needs about 2 minutes. Nothing is wrong in the job itself.",
    happened="the three ranks train normally (epoch 22 of 30 finished at 78 s). At the one-minute limit (checked by "
             "slurmctld's periodic scan, 87 s after the start) slurmctld logs `Time limit exhausted for JobId=1`; "
             "slurmstepd cancels step and batch (`*** STEP 1.0 ON vm CANCELLED AT ... DUE TO TIME LIMIT ***`, `*** "
             "JOB 1 ...`), srun forwards the termination and reports `srun: error: vm: tasks 0-2: Terminated`. No "
             "rank prints an error of its own (SIGTERM ends them silently). JobState=TIMEOUT.",
    exits="job state TIMEOUT (scontrol / jobcomp), tasks terminated by signal; the capture script's own exit codes are "
          "not part of the logs.",
    judgement="a kill from outside by the scheduler's time limit: kind external, category killed_by_scheduler. "
              "first_deviating is slurmctld's `Time limit exhausted for JobId=1` (the first line, by a few "
              "milliseconds, that says why the job ends; slurmstepd's CANCELLED lines follow). No collateral lines: "
              "the ranks print nothing when terminated; srun's `tasks 0-2: Terminated` is the scheduler's own "
              "report.",
    truth=T("failed", "external", cat="killed_by_scheduler", fd="Time limit exhausted for JobId=1", fd_rank=None,
            notes="sbatch --time=00:01:00 left over from a smoke test; slurmctld ends the healthy 3-rank job at its "
                  "time limit (DUE TO TIME LIMIT, JobState=TIMEOUT)."))

JOBS["xc-slurm-2node-uts-nodes-sbcast-ext-lib-node-local-tmp-srun-label-noexec-tmp-on-nodeb"] = dict(
    source="a real Slurm 22.05 cluster of two nodes (`nodea`, `nodeb`: one slurmd each in its own UTS + mount "
           "namespace with its own node-local /tmp tmpfs, one slurmctld; `xc_slurm_up.sh nodea,nodeb`), the job "
           "submitted with sbatch",
    cmd="`sbatch train.sbatch` (`--nodes=2 --ntasks-per-node=2 --time=00:10:00 --output=slurm-%j.out`); the script "
        "builds the site's custom-op library (`gcc -shared -fPIC -O2 -o ext/libxcops.so xc_xcops.c`), stages it with "
        "`sbcast --force ext/libxcops.so /tmp/libxcops-$SLURM_JOB_ID.so` and runs `srun --label --kill-on-bad-exit=1 "
        "python xc_train.py --ext-lib /tmp/libxcops-$SLURM_JOB_ID.so --epochs 2 --pg-timeout 30 --fmt "
        "'%(asctime)s %(levelname)s [rank {rank}/{world}] %(message)s'` (MASTER_ADDR 127.0.0.1, MASTER_PORT 29922)",
    layout="`slurm-1.out`: the batch script's lines plus every task's output with srun's `--label` prefix `<task>: ` "
           "(tasks 0-1 on nodea, 2-3 on nodeb), srun's and slurmstepd's messages. `slurm/log/slurmd-nodea.log`, "
           "`slurm/log/slurmd-nodeb.log` (sbcast and launch requests per node), `slurm/log/slurmctld.log`, "
           "`slurm/log/jobcomp.txt`, `scontrol-job.txt`, `sbatch.txt`.",
    planted="nodeb's image mounts its node-local /tmp `noexec,nosuid,nodev` (site hardening applied to that node "
            "only); nodea's /tmp is a plain tmpfs. The job stages the shared library into /tmp on every node and each "
            "rank loads it with `torch.ops.load_library` after the process group is up.",
    happened="all four ranks join the process group. On nodeb both ranks fail to load the library: `OSError: "
             "/tmp/libxcops-1.so: failed to map segment from shared object` (then torch's `OSError: Could not load "
             "this library`), task 2 first. srun reports `nodeb: task 2: Exited with exit code 1` and, with "
             "--kill-on-bad-exit, terminates the step: `slurmstepd-nodea: error: *** STEP 1.0 ON nodea CANCELLED "
             "AT ... ***`, `nodea: tasks 0-1: Terminated`. nodea's ranks had loaded the library and were building the "
             "model; they print no error of their own.",
    exits="JobState=FAILED, ExitCode 1 (scontrol / jobcomp); nodeb's task 2 exit 1, task 3 terminated after its own "
          "error, nodea's tasks terminated by srun.",
    judgement="a machine-level cause in a two-node job (one node's /tmp mount options): kind rank with node `nodeb`, "
              "rank null. Category storage_io: the node-local filesystem refuses to map the staged file executable "
              "(the same family as the permission errors on a checkpoint directory earlier batches filed as "
              "storage_io; config_error would also be defensible, the cause is the node image's mount "
              "configuration). first_deviating is task 2's `OSError ... failed to map segment from shared object` "
              "line (labelled `2: `). Collateral: nodea's step cancellation and terminated tasks.",
    truth=T("failed", "rank", None, node="nodeb", cat="storage_io",
            fd="2: OSError: /tmp/libxcops-1.so: failed to map segment from shared object", fd_rank=2,
            coll=[(0, "0: slurmstepd-nodea: error: *** STEP 1.0 ON nodea CANCELLED AT"),
                  (1, "srun: error: nodea: tasks 0-1: Terminated")],
            notes="nodeb's node-local /tmp is mounted noexec; the custom-op library staged there by sbcast cannot be "
                  "mapped; nodeb's ranks fail, srun kills nodea's ranks."))

JOBS["xc-celery-prefork-worker-filesystem-broker-rank-tasks-worker-logfile-fd-stderr-console-cut-csv-row-loadtxt-r1"] = dict(
    source="Celery 5.7 as the job runner (`xc_celery_app.py`): one worker `celery -A xc_celery_app worker --pool "
           "prefork --concurrency 3 -O fair --max-tasks-per-child 1 --loglevel INFO --logfile worker.log --hostname "
           "xcw1@%h` on kombu's filesystem transport, results in the file backend; `xc_celery_submit.py` sends one "
           "`xcjobs.train_rank` task per rank and polls the results",
    cmd="`python xc_make_data.py data 3 1600 --bad-row '1:914:0.318211,-1.027345,0.552'`; the worker as above "
        "(`> worker.console 2>&1`); `python xc_celery_submit.py 3 29923 90 -- --no-handler --data "
        "'data/shard-{rank}.csv' --epochs 2 --pg-timeout 30 > submit.log`; then the worker is stopped (SIGTERM, warm "
        "shutdown)",
    layout="`worker.log`: celery's worker log file (`[YYYY-mm-dd HH:MM:SS,mmm: LEVEL/ProcessName] msg`; the trainer "
           "adds no handler, so its records propagate into it with the pool process name, e.g. `ForkPoolWorker-2`, "
           "and the rank only in the message text; multi-line tracebacks; celery's `Task ...[id] raised "
           "unexpected: ...` blocks). `worker.console`: the worker's fd-level stdout/stderr (celery's banner, the "
           "root SecurityWarning, c10d's C++ warnings). `submit.log`: the submitter's task ids and final states.",
    planted="the export step cut rank 1's shard short in the middle of line 914 (`0.318211,-1.027345,0.552`, three "
            "fields instead of 17: the writer was stopped mid-row and the next part appended). Each rank reads its "
            "shard with `numpy.loadtxt` after the process group is up.",
    happened="rank 1 (pool process ForkPoolWorker-2) fails to read its shard: `ValueError: the number of columns "
             "changed from 17 to 3 at row 913; use `usecols` to select a subset and avoid this error`; celery logs the "
             "task failure and recycles the pool process (max-tasks-per-child 1). Ranks 2 and 0, in DDP's parameter "
             "check, get `Connection closed by peer` about 3 s later; their tasks fail too. The submitter reports "
             "`failed ranks: [0, 1, 2]`.",
    exits="submitter 1; all three tasks FAILURE; worker exit 0 after the collector's SIGTERM.",
    judgement="a data error on one rank (a malformed row in its shard): kind rank, rank 1, category data_error. "
              "first_deviating is the ValueError line (its first occurrence is in the trainer's own `rank 1: training "
              "failed` record; celery's task-failure block repeats it). Ranks 0/2's connection-closed errors are "
              "collateral. Note the pool process numbers do not match the ranks.",
    truth=T("failed", "rank", 1, cat="data_error",
            fd="ValueError: the number of columns changed from 17 to 3 at row 913", fd_rank=1,
            coll=[(0, CLOSED + "29080"), (2, CLOSED + "50396")],
            notes="rank 1's CSV shard has a cut row (3 fields) at line 914; numpy.loadtxt refuses it; the peers lose "
                  "the connection in DDP's first collective."))

JOBS["xc-huey-consumer-process-workers-sqlite-rank-tasks-perrank-filehandler-logs-hardneg-fetch-no-timeout-hang-r2"] = dict(
    source="huey 3.5 as the job runner (`xc_huey_app.py`, SqliteHuey in huey.db): `huey_consumer xc_huey_app.huey -w 3 "
           "-k process -l consumer.log`, one `train_rank` task per rank enqueued by `xc_huey_enqueue.py`, which polls "
           "the result store for 75 s",
    cmd="`python xc_stall_server.py 8808 mining-svc.log &` (the mining service in the state it was in); the consumer as "
        "above (`> consumer.console 2>&1`); `python xc_huey_enqueue.py 3 29924 75 -- --no-stdout --logfile "
        "'logs/rank{rank}.log' --epochs 2 --pg-timeout 20 --hardneg-url 'http://127.0.0.1:8808/hardneg?shard=2&k=256' "
        "--hardneg-rank 2 --hardneg-step 20 --fmt '%(asctime)s %(levelname)s %(name)s[%(process)d] rank{rank}: "
        "%(message)s' > enqueue.log`; then the collector stops the consumer (SIGTERM)",
    layout="`logs/rank<R>.log`: each rank's records (FileHandler on the root logger of its worker process, so huey's "
           "own records in that process land there too). `consumer.log`: huey's consumer log (`[ts] LEVEL:logger:pid:"
           "msg`, `Executing ...`, `Unhandled exception in task ...` with tracebacks). `consumer.console`: the "
           "consumer's fd-level stderr (c10d warnings). `enqueue.log`: task ids and what the result store returned. "
           "`mining-svc.log`: the mining service's request log.",
    planted="rank 2 is the rank that pulls the hard-negative list from the mining service at step 20 "
            "(`urllib.request.urlopen`, no timeout). The service accepted connections but its backend never answered "
            "during the run. Process-group timeout 20 s.",
    happened="at step 20 rank 2 logs `fetching hard negatives from http://127.0.0.1:8808/hardneg?shard=2&k=256` (the "
             "service logs the request as queued) and blocks. Ranks 0 and 1 enter the step-20 loss all_reduce and time "
             "out after 20 s (`Timed out waiting 20000ms for recv operation to complete`); their tasks fail. Rank 2 "
             "stays blocked until the collector stops the consumer, 44 s after the peers failed: huey interrupts it (KeyboardInterrupt "
             "in rank 2's log, `Received exit signal, ... did not finish.`).",
    exits="enqueue script 1 (two task errors, rank 2 no result); consumer exit 0 after SIGTERM.",
    judgement="a hang of one rank that its peers time out on: kind rank, rank 2, category nccl_timeout_hang (a gloo "
              "collective timeout caused by a rank stuck outside any collective). first_deviating is rank 2's last "
              "record before the hang, the fetch that never returns. Ranks 0/1's gloo timeouts are collateral; rank "
              "2's KeyboardInterrupt at the end is the collector's stop, not part of the failure.",
    truth=T("failed", "rank", 2, cat="nccl_timeout_hang",
            fd="fetching hard negatives from http://127.0.0.1:8808/hardneg?shard=2&k=256", fd_rank=2,
            coll=[(0, "unbound_buffer.cc:78] Timed out waiting 20000ms for recv operation to complete"),
                  (1, "unbound_buffer.cc:78] Timed out waiting 20000ms for recv operation to complete")],
            notes="rank 2 blocks on an HTTP fetch without timeout to a service that never answers; ranks 0/1 time out "
                  "in the next all_reduce."))

JOBS["xc-s6-svscan-once-services-per-rank-s6-log-iso-T-logdirs-svstat-svdt-inf-feature-shard-nan-guard-r1"] = dict(
    source="s6 as the process supervisor: an `s6-svscan` scan directory with one service per env:// rank "
           "(`svc/rank<R>/run`, a `down` file so that nothing starts by itself) and one s6-log logger per service "
           "(`svc/rank<R>/log/run`: `s6-log -b n10 s1000000 T <job>/logs/rank<R>`)",
    cmd="`s6-svscan svc &`; `s6-svc -o svc/rank<R>` for each rank (once: no restart); s6-svstat polling until no rank is "
        "up, then `s6-svstat` / `s6-svdt` per service and `s6-svscanctl -t svc`. Each run script: `exec env RANK=<R> ... "
        "python xc_train.py --data 'data/shard-{rank}.csv' --nan-guard --epochs 3 --pg-timeout 30 --fmt "
        "'%(levelname)s %(name)s rank{rank}/{world}: %(message)s'` (MASTER_PORT 29925)",
    layout="`logs/rank<R>/current`: s6-log's logdir file per rank, every line prefixed with s6-log's `T` timestamp "
           "(`YYYY-mm-dd HH:MM:SS.nnnnnnnnn  `); the ranks' own records carry no time. `launch.log`: the job script's "
           "`s6-svc -o` lines and the final `s6-svstat` (`down (exitcode 1) ...`) and `s6-svdt` death tally "
           "(TAI64N stamps) per service.",
    planted="rank 1's shard has one row whose feature f3 holds `3.4e+39` (the export wrote a float64 sentinel); it "
            "overflows to inf when the features are cast to float32. The trainer's NaN guard stops a rank whose loss is "
            "not finite.",
    happened="training runs normally until step 42, when the row comes up on rank 1: `ERROR xc.train rank1/3: "
             "non-finite loss nan at epoch 0 step 42`, then `FloatingPointError: rank 1: loss is nan at step 42, "
             "stopping`. Ranks 0 and 2 are in the backward all_reduce and get `Connection closed by peer` 0.7 s later. "
             "All three services end with exit code 1 (s6-svstat / s6-svdt).",
    exits="every service `down (exitcode 1)`; s6-svscan exit 0 after `s6-svscanctl -t`.",
    judgement="NaN divergence started by one rank's input: kind rank, rank 1, category nan_divergence (the data row is "
              "the cause, but the failure the log shows is the non-finite loss caught by the guard, as earlier batches "
              "filed inf-feature cases). first_deviating is rank 1's `non-finite loss nan` record. Ranks 0/2's "
              "connection-closed errors are collateral.",
    truth=T("failed", "rank", 1, cat="nan_divergence", fd="non-finite loss nan at epoch 0 step 42", fd_rank=1,
            coll=[(0, CLOSED + "4011"), (2, CLOSED + "4011")],
            notes="an overflowing feature value (3.4e+39 -> inf in float32) in rank 1's shard makes its loss NaN at "
                  "step 42; the NaN guard stops rank 1; peers lose the connection."))

JOBS["xc-ruby-open3-launcher-logger-default-format-one-joblog-memcg-per-rank-runaway-seq-length-pad-oomkill-r2"] = dict(
    source="a site launcher in Ruby (`xc_launch.rb`, run by ruby 3.1): `Open3.popen2e` per env:// rank, each rank "
           "placed in its own cgroup-v1 memory cgroup `/sys/fs/cgroup/memory/xcjob-seq/rank<R>` with the job spec's "
           "limit before exec, every output line relayed through Ruby's `Logger` into one file",
    cmd="`ruby xc_launch.rb jobspec.json -- python xc_train.py --lengths 'data/lengths-{rank}.json' --epochs 2 "
        "--pg-timeout 30 --fmt '%(asctime)s %(levelname)s %(name)s r{rank}: %(message)s'` with jobspec "
        "`{\"job\": \"xcjob-seq\", \"nproc\": 3, \"port\": 29926, \"mem_limit\": \"1G\", \"grace\": 15, \"log\": "
        "\"job.log\"}`",
    layout="one file, `job.log`: Ruby Logger's default format (`# Logfile created on ...` header, then `I, [ISO.usec "
           "#launcher-pid]  INFO -- rank<R>: <the rank's line as printed>` for every rank line, stdout and stderr "
           "merged, and `I,`/`E,` records with progname `launcher` for starts, exits with `Process::Status` and the "
           "cgroup's oom_kill count and peak).",
    planted="the ranks train on variable-length sequences padded per batch to the longest one (no max_len). In rank "
            "2's length table one document has a runaway length of 1,500,000 (a tokenizer run over a file without "
            "line breaks); padding its batch needs 32 x 1.5M x 16 float32 = 3.1 GB, over the 1 GiB per-rank cgroup.",
    happened="at batch 11 rank 2 logs `padding 32 sequences to length 1500000 (no max_len set)` and the kernel "
             "OOM-kills it in its cgroup. Ranks 0 and 1, in the next collective, get `Connection closed by peer` "
             "(1.4 s later). The launcher then logs `rank 2 failed: #<Process::Status: pid ... SIGKILL (signal 9)>; "
             "cgroup xcjob-seq/rank2: oom_kill 1, peak 1024 MiB`, and exit 1 for ranks 0/1.",
    exits="launcher 1; rank 2 SIGKILL (OOM killer, oom_kill 1); ranks 0/1 exit 1.",
    judgement="an OOM kill of one rank: kind rank, rank 2, category oom. first_deviating is the launcher's cgroup "
              "report, the first line that says OOM (the earlier padding warning shows the cause, not the kill; the "
              "rank itself prints nothing when SIGKILLed), following the convention of earlier memory-cap captures. "
              "Ranks 0/1's connection-closed errors are collateral (they appear before the launcher's report in the "
              "file).",
    truth=T("failed", "rank", 2, cat="oom",
            fd="rank 2 failed: #<Process::Status: pid 6349 SIGKILL (signal 9)>; cgroup xcjob-seq/rank2: oom_kill 1",
            fd_rank=2,
            coll=[(0, "INFO -- rank0: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
                      "Connection closed by peer"),
                  (1, "INFO -- rank1: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
                      "Connection closed by peer")],
            notes="a runaway sequence length (1.5M) in rank 2's data makes the padded batch 3.1 GB; the 1 GiB memory "
                  "cgroup OOM-kills rank 2; peers lose the connection."))

JOBS["xc-cwltool-parallel-scatter-rank-jobs-no-container-one-console-yaml-weight-decay-1e-2-string-adamw-typeerror-all"] = dict(
    source="cwltool (the CWL reference runner, Debian package) as the workflow runner: `xc_ddp_scatter.cwl` scatters the "
           "trainer CommandLineTool `xc_train_rank.cwl` over the ranks; `--parallel` runs the scatter jobs at once, "
           "`--no-container` runs them on the host in cwltool's job dirs with env:// variables from "
           "EnvVarRequirement",
    cmd="`cwltool --parallel --no-container --outdir out xc_ddp_scatter.cwl job.yml > cwltool.console 2>&1` with job.yml "
        "`ranks: [0, 1]`, `world: 2`, `port: 29927`, `config: cfg/run-adamw-wd.yaml`, `trainer: xc_train.py`, extra "
        "arguments `--stderr --pg-timeout 30 --fmt '%(asctime)s %(levelname)s [r{rank}] %(name)s: %(message)s'`",
    layout="one console, `cwltool.console`, with cwltool's ANSI colour codes as printed (`ESC[1;30mINFOESC[0m`): "
           "cwltool's `[workflow ]`, `[step train]`, `[job train]` / `[job train_2]` lines (the command line of "
           "each scatter job, `Max memory used`, `exited with status: 1`, `completed permanentFail`), interleaved "
           "with both ranks' records and tracebacks on stderr (staged input paths under /tmp).",
    planted="the run config written for this sweep point says `weight_decay: 1e-2`; YAML 1.1 (PyYAML) reads a "
            "number without a dot as a string, so every rank gets the string '1e-2' (its run-config record shows "
            "`weight_decay='1e-2'`).",
    happened="both ranks join the process group and build the DDP model; the AdamW constructor refuses the string "
             "on both: `TypeError: '<=' not supported between instances of 'float' and 'str'` (rank 1's record "
             "first, same millisecond). cwltool reports both scatter jobs `exited with status: 1` / "
             "`completed permanentFail` and `Final process status is permanentFail`.",
    exits="cwltool 1; both rank jobs exit 1.",
    judgement="a job-wide deterministic configuration error (one config every rank reads, every rank raises): kind "
              "all_ranks, category config_error. first_deviating is the TypeError line (rank 1's copy is first in "
              "the console). No collateral.",
    truth=T("failed", "all_ranks", cat="config_error",
            fd="TypeError: '<=' not supported between instances of 'float' and 'str'", fd_rank=1,
            notes="weight_decay: 1e-2 is a string under YAML 1.1; every rank's AdamW constructor raises TypeError."))

JOBS["xc-gnu-pexec-listfile-rank-params-otel-console-exporter-json-records-stderr-prefixed-stale-freeze-first-flag-ddp-param-count-r2"] = dict(
    source="GNU pexec 1.0rc8 as the launcher: one shell command per line of a per-rank parameter list file "
           "(`ranks.lst`: the rank number and that rank's extra arguments), all at once (`-n 3`); the trainer logs "
           "only through OpenTelemetry's `LoggingHandler` with the `ConsoleLogExporter` (SimpleLogRecordProcessor)",
    cmd="`pexec -n 3 -f ranks.lst -t -e RANKARGS -o 'otel/rank%s.json' -u - -b '[stderr %s] %l' -c -- 'set -- "
        "$RANKARGS; r=$1; shift; exec env RANK=$r LOCAL_RANK=$r WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29928 "
        "python xc_train.py --otel --epochs 2 --pg-timeout 30 \"$@\"' > pexec.console 2>&1` with ranks.lst lines `0`, "
        "`1`, `2 --freeze-first`",
    layout="`otel/rank0.json`, `otel/rank1.json`, `otel/rank2 --freeze-first.json` (pexec expands %s to the whole "
           "list line): each rank's stdout, the OpenTelemetry console exporter's pretty-printed JSON log records "
           "(`body`, `severity_text`, `attributes` with code location and, for errors, `exception.type` / "
           "`exception.message` / `exception.stacktrace`, `timestamp`, `resource.attributes` with service.name, "
           "host.name, rank, world_size). `pexec.console`: all ranks' stderr, each line prefixed by pexec "
           "`[stderr <list line>] ` (the exporter's DeprecationWarning, c10d warnings, torch's `[rankR]:` "
           "tracebacks). pexec itself exits 0 whatever its jobs return.",
    planted="the list file was copied from the linear-probe ablation and rank 2's line still carries `--freeze-first`: "
            "rank 2 freezes the first layer before wrapping the model in DDP (4 trainable tensors instead of 6).",
    happened="all ranks join; rank 2 logs `first layer frozen (4 trainable tensors)`. DDP's parameter check fails on "
             "every rank: rank 2 `RuntimeError: DDP expects same model across all ranks, but Rank 2 has 4 params, while "
             "rank 0 has inconsistent 6 params.`, ranks 0/1 `... but Rank 0 has 6 params, while rank 2 has "
             "inconsistent 4 params.` (and Rank 1 likewise). Each rank exits 1.",
    exits="pexec 0 (it does not propagate job failures); each rank exit 1.",
    judgement="one rank built a different model than its peers (a stale per-rank flag in the launcher's list file): "
              "kind rank, rank 2, category collective_mismatch (DDP's cross-rank model verification). first_deviating "
              "is rank 2's RuntimeError line (the earlier `first layer frozen` record shows the deviation without a "
              "fault). Ranks 0/1's RuntimeErrors, which name rank 2, are collateral.",
    truth=T("failed", "rank", 2, cat="collective_mismatch",
            fd="DDP expects same model across all ranks, but Rank 2 has 4 params, while rank 0 has inconsistent 6 params.",
            fd_rank=2,
            coll=[(0, "DDP expects same model across all ranks, but Rank 0 has 6 params, while rank 2 has inconsistent 4 params."),
                  (1, "DDP expects same model across all ranks, but Rank 1 has 6 params, while rank 2 has inconsistent 4 params.")],
            notes="rank 2's list-file line carries a stale --freeze-first; its DDP model has 4 trainable tensors vs 6; "
                  "DDP's parameter verification fails on all ranks."))

JOBS["xc-erlang-escript-port-launcher-otp-logger-legacy-report-header-rankfiles-eval-rank-ddp-predict-attributeerror-r1"] = dict(
    source="a site launcher in Erlang (`xc_launch.escript`, run by escript, OTP 25): one port per env:// rank "
           "(`spawn_executable`, `stderr_to_stdout`, line mode), each rank's lines written to its own file, the "
           "launcher's events through OTP's logger (logger_std_h file handler, legacy report header)",
    cmd="`escript xc_launch.escript 3 29929 10 -- python xc_train.py --eval-rank 1 --epochs 3 --pg-timeout 30 --fmt "
        "'[%(asctime)s] %(levelname)s r{rank} %(filename)s:%(lineno)d %(message)s'`",
    layout="`ranks/rank<R>.out`: each rank's stdout+stderr as the port delivered it (records, tracebacks, torch's "
           "`[rankR]:` tracebacks). `launcher.log`: OTP logger reports with the legacy header (`=INFO REPORT==== "
           "7-Dec-2026::07:20:16.483510 ===` / `=ERROR REPORT==== ...` then the message on the next line): start, "
           "per-rank exit statuses, the job end.",
    planted="rank 1 is the eval rank of this run: after each epoch it logs sample predictions by calling "
            "`model.predict(...)` on the DDP-wrapped model (the helper was written against the unwrapped module; "
            "DDP has no `predict`). The other ranks go straight to the end-of-epoch barrier.",
    happened="after epoch 0 rank 1 raises `AttributeError: 'DistributedDataParallel' object has no attribute "
             "'predict'` while ranks 0 and 2 wait in the barrier; they get `Connection closed by peer` about 0.7 s "
             "later. The launcher reports rank 1's exit status 1 first, then ranks 0 and 2.",
    exits="launcher 1; all ranks exit 1.",
    judgement="one rank's crash (a code bug on a path only the eval rank takes) among waiting peers: kind rank, rank 1, "
              "category code_exception. first_deviating is the AttributeError line. Ranks 0/2's connection-closed "
              "errors in the barrier are collateral.",
    truth=T("failed", "rank", 1, cat="code_exception",
            fd="AttributeError: 'DistributedDataParallel' object has no attribute 'predict'", fd_rank=1,
            coll=[(0, CLOSED + "51880"), (2, CLOSED + "30121")],
            notes="the eval rank calls model.predict on the DDP wrapper after epoch 0; AttributeError; peers waiting in "
                  "the barrier lose the connection."))

JOBS["xc-lua-luaposix-fork-poll-launcher-jobtable-prestart-hooks-rankfiles-launchlog-rank2-hook-waits-sync-lock-store-timeout-r2"] = dict(
    source="a site launcher in Lua (`xc_launch.lua`, Lua 5.3 + luaposix): a job table (`job.lua`) with per-rank prestart "
           "hooks run by the launcher itself; each rank forked with a pipe for stdout+stderr, a poll loop copying to "
           "per-rank files, launcher records in launch.log",
    cmd="`./xc_sync_hold.sh data/.sync.lock 55 sync.log &` (the nightly dataset sync as it ran: holds the shared "
        "volume's sync lock for 55 s); `lua5.3 xc_launch.lua job.lua -- python xc_train.py --epochs 2 --pg-timeout 30 "
        "--fmt '%(asctime)s.%(msecs)03d %(levelname)s [%(process)d] rank{rank} %(message)s'` with job.lua `{ nproc = 3, "
        "port = 29933, grace = 10, ranks = { [2] = { prestart = \"flock -w 600 data/.sync.lock true\" } } }`",
    layout="`launch.log`: the launcher's records (`ISO.msZ launch.lua[pid] msg`: hook started, `prestart hook still "
           "running after Ns` every 10 s, rank starts with pids, exits). `out/rank<R>.log`: each rank's output (note "
           "the format's doubled milliseconds, `07:27:02,750.750`, as configured). `sync.log`: the dataset sync's "
           "two lines.",
    planted="rank 2's shard lives on the shared volume, so the job table gives it a prestart hook that waits for the "
            "volume's sync lock. The nightly sync still held the lock (55 s); the TCP-store rendezvous timeout is "
            "30 s.",
    happened="ranks 0 and 1 start at once and wait in init_process_group; the launcher logs rank 2's hook still "
             "running at 10, 20, 30 s. Rank 0 (the store server) gives up: `torch.distributed.DistStoreError: Timed "
             "out after 31 seconds waiting for clients. 2/3 clients joined.`; rank 1: `DistStoreError: wait timeout "
             "after 30000ms, keys: /default_pg/0//cpu//0/0`. The sync releases the lock at 54 s; rank 2 starts, finds "
             "no store and fails 30 s later: `DistNetworkError: The client socket has timed out after 30000ms while "
             "trying to connect to (127.0.0.1, 29933).`",
    exits="launcher 1; all ranks exit 1.",
    judgement="a rendezvous failure caused by one rank that never arrived in time: kind rank, rank 2, category "
              "rendezvous. first_deviating is the launcher's first `rank 2: prestart hook still running after 10s` "
              "line (the first line that shows rank 2 missing; rank 2's own log only starts after the peers are gone). "
              "Ranks 0/1's store timeouts are collateral; rank 2's late connect timeout belongs to the initiator.",
    truth=T("failed", "rank", 2, cat="rendezvous",
            fd="rank 2: prestart hook still running after 10s, rank not started yet", fd_rank=2,
            coll=[(0, "Timed out after 31 seconds waiting for clients. 2/3 clients joined."),
                  (1, "wait timeout after 30000ms, keys: /default_pg/0//cpu//0/0")],
            notes="rank 2's prestart hook waits 54 s for the shared volume's sync lock; ranks 0/1 time out in the "
                  "30 s store rendezvous; rank 2 then finds no store."))

JOBS["xc-healthy-parsl-threadpool-bash-apps-per-rank-out-err-files-runinfo-parsl-log-summary-app-final-eval"] = dict(
    source="Parsl as the workflow runner (`xc_parsl_run.py`): a `ThreadPoolExecutor(max_threads=3)`, one `bash_app` per "
           "env:// rank, then a summary bash_app",
    cmd="`python xc_parsl_run.py 3 29930 -- --epochs 3 --final-eval --warn --pg-timeout 60 --fmt '%(asctime)s | "
        "%(levelname)-8s | rank {rank} | %(message)s' > driver.console 2>&1`",
    layout="`logs/train-r<R>.out` / `.err`: each rank app's stdout (records) and stderr (Parsl's `--> executable "
           "follows <--` header with the command, c10d warnings). `logs/summary.out` / `.err`: the summary app's "
           "grep of the final lines. `runinfo/000/parsl.log`: Parsl's DataFlowKernel log (DEBUG, task state "
           "transitions). `driver.console`: the driver's lines.",
    planted="nothing; a normal run with a FutureWarning record and c10d's hostname warnings.",
    happened="three epochs on every rank, `final eval: accuracy 0.2935 over 4800 samples`, `done: 150 steps ...`; every "
             "app exits 0, the summary app too; `workflow finished`.",
    exits="driver 0; all apps 0.",
    judgement="healthy: the log shows the run ended well (final eval, done lines, every app exited 0).",
    truth=T("healthy", notes="Parsl bash_apps, 3 ranks, final eval and done on every rank, workflow finished."))

JOBS["xc-healthy-ipyparallel-ipcluster-daemonize-engines-as-ranks-directview-scatter-display-outputs-stdout-stderr-blocks"] = dict(
    source="ipyparallel 9 as the launcher: `ipcluster start -n 3 --profile xc --daemonize` (controller + 3 engines, "
           "IPYTHONDIR in the job dir), the driver `xc_ipp_run.py` scatters the rank numbers over a DirectView of all "
           "engines and applies `run_rank` (env:// variables, `xc_train.main`) on the view",
    cmd="`ipcluster start -n 3 --profile xc --daemonize > ipcluster-start.console 2>&1`; `python xc_ipp_run.py 3 29931 -- "
        "--epochs 3 --final-eval --warn --pg-timeout 60 --fmt '%(asctime)s %(levelname)s rank{rank} %(module)s: "
        "%(message)s' > driver.console 2>&1`; `ipcluster stop --profile xc > ipcluster-stop.console 2>&1`",
    layout="`driver.console`: the driver's lines, then `AsyncResult.display_outputs()`: one `[stdout:<engine>]` block "
           "per engine with that rank's whole record stream, then `[stderr:<engine>]` blocks (c10d warnings); the "
           "ranks' lines are grouped per engine, not interleaved in time. `ipcluster-start.console`: ipcluster's and "
           "the controller's log lines (`ts [IPController] ...`). `ipcluster-stop.console`: the stop.",
    planted="nothing; a normal run with a FutureWarning record and c10d's hostname warnings.",
    happened="all three engines run their rank to the end: `final eval: accuracy 0.2935 over 4800 samples` and `done:` "
             "on every rank; the driver prints `all ranks finished`; the cluster is stopped.",
    exits="driver 0.",
    judgement="healthy: final eval and done lines on every rank and the driver's success line.",
    truth=T("healthy", notes="ipyparallel engines as ranks, all finished with final eval."))

JOBS["xc-inconclusive-monit-check-process-pidfiles-start-programs-monit-log-status-snapshot-while-running"] = dict(
    source="monit 5.33 as the job supervisor: `monitrc` with one `check process rank<R> with pidfile run/rank<R>.pid` "
           "per env:// rank (start program `xc_monit_rank.sh`: the rank started detached, output appended to "
           "logs/rank<R>.log), poll cycle 5 s, HTTP interface on 127.0.0.1:2812 for `monit status`",
    cmd="`monit -c monitrc`; the ranks run `python xc_train.py --epochs 8 --sleep 0.1 --pg-timeout 60 --warn` "
        "(MASTER_PORT 29932); 35 s later `cp -a logs/. snapshot/; cp monit.log snapshot/; monit -c monitrc status > "
        "snapshot/monit-status.txt`; then the collector stopped the ranks and monit (not in the snapshot)",
    layout="`snapshot/rank<R>.log`: the rank logs as they were at the copy (default format `asctime LEVEL rank=R "
           "xc.train: msg`). `snapshot/monit.log`: monit's log (`[ISO] level : msg`; the first cycle's `'rankR' "
           "process is not running` / `trying to restart` / `start:` lines are how monit starts a service, then "
           "`process is running with pid`). `snapshot/monit-status.txt`: `monit status` (per-process status, memory, "
           "cpu, file descriptors, the system block).",
    planted="nothing; the copy was taken while the job was in epoch 5 of 8.",
    happened="the snapshot ends in the middle of epoch 5 (`epoch 5 step 260 ...`) on every rank; monit reports all "
             "three processes `status OK`. No error, no end line.",
    exits="none in the snapshot (the job was still running).",
    judgement="inconclusive: the logs just stop while training; initiating, root_cause and first_deviating null.",
    truth=T("inconclusive", notes="snapshot of a running job under monit; logs stop mid-epoch with no error and no "
                                  "end."))
