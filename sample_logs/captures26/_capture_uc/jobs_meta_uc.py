"""Per-job metadata for the roundS uc-* captures: command, layout, set-up, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), accelerate 1.16.0, "
       "pandas 3.1.1 + pyarrow 26.0.1, pytest 9.2.0 + pytest-xdist 3.8.0, circus 0.19.0, doit 0.37.0, luigi 3.8.1, "
       "Tcl 8.6.13, expect 5.45.4, OpenJDK 17.0.15, GNU gdb 13.1, dash 0.5.12, iproute2 6.1.0, util-linux 2.38.1 "
       "(unshare)")
GLOO = "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
CLOSED = GLOO + "pair.cc:553] Connection closed by peer"


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status in ("inconclusive", "healthy") else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status in ("inconclusive", "healthy") else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}

JOBS["uc-tclsh-fileevent-pipelines-stamped-rankfiles-rank0-train-acc-inplace-round-autograd-r0"] = dict(
    source="site launcher written in Tcl (`uc_launch.tcl`, tclsh 8.6): one `open |cmd 2>@1` pipeline per env:// rank "
           "(stdout and stderr merged), non-blocking `fileevent` readers stamping every line with the launcher's local "
           "time, `CHILDSTATUS` exit codes from `close`, SIGTERM (`exec kill`) to the other ranks after a grace period",
    cmd="`timeout -s TERM 150 nice tclsh uc_launch.tcl -nproc 3 -port 29811 -logdir logs -grace 10 -- python "
        "uc_train.py --multilabel --train-acc --rows 1600 --epochs 2 --pg-timeout 60 --fmt '...'`",
    layout="`logs/rank-<R>.log`: rank R's merged output, every line prefixed by the launcher's stamp "
           "`YYYY-mm-dd HH:MM:SS.mmm` (the rank's logging records carry no time of their own: `LEVEL [uc.train] "
           "rR/3 msg`; c10d warnings and torch's `[rankR]:` tracebacks as printed). `logs/launch.log`: the launcher's "
           "own lines (`... uc_launch: msg`): pids, exit statuses with Tcl's errorCode, the job verdict.",
    planted="a multi-label model (sigmoid head + binary cross-entropy). On logging steps rank 0 alone computes a "
            "training accuracy from the sigmoid outputs with `probs.round_()`, in place, before `loss.backward()`; "
            "`probs` is saved by autograd for BCE's backward.",
    happened="all ranks set up gloo and train; at step 10 rank 0 logs `step 10 train acc (rank 0 batch) ...` and its "
             "backward raises `RuntimeError: one of the variables needed for gradient computation has been modified "
             "by an inplace operation: [torch.FloatTensor [32, 4]], which is output 0 of Round, is at version 1; "
             "expected version 0 instead`. Ranks 1 and 2, in DDP's gradient all-reduce of the same step, get gloo "
             "`Connection closed by peer` when rank 0 exits. The launcher records rank 0's exit 1 first, then ranks "
             "2 and 1 (before its 10 s grace ends) and `job failed`.",
    exits="launcher 1; ranks 0, 1, 2 exit 1.",
    judgement="category code_exception (an in-place op on a tensor autograd saved, a programming error in the "
              "metric code), initiator rank 0 (only rank 0 runs the metric). First deviating line: rank 0's "
              "RuntimeError (printed twice, by the logging handler and by torch's `[rank0]:` summary). Ranks 1 and 2's "
              "`Connection closed by peer` are collateral.",
    truth=T("failed", "rank", 0, cat="code_exception",
            fd="RuntimeError: one of the variables needed for gradient computation has been modified by an inplace "
               "operation", fd_rank=0,
            coll=[(1, "[rank1]: RuntimeError: " + CLOSED), (2, "[rank2]: RuntimeError: " + CLOSED)],
            notes="Rank 0's rank-0-only training-accuracy code rounds the sigmoid outputs in place before backward; "
                  "autograd refuses; ranks 1 and 2 lose their peer in the gradient all-reduce."))

JOBS["uc-java-processbuilder-appendto-rankfiles-jul-xml-launcherlog-ckpt-tmp-rename-exdev-r0"] = dict(
    source="site launcher written in Java (`UcLaunch.java`, run from source by OpenJDK 17's `java`): one "
           "`ProcessBuilder` per env:// rank with `redirectErrorStream(true)` and `Redirect.appendTo(out/rank-R.log)` "
           "(the OS writes the rank's output, the JVM never reads it), polling `isAlive()`, `destroy()` (SIGTERM) of "
           "the other ranks after a grace period; its own records through java.util.logging",
    cmd="`mount -t tmpfs tmpfs /tmp` (node-local /tmp, in the job's private mount namespace), then `timeout -s TERM "
        "200 nice java UcLaunch.java --nproc 3 --port 29823 --outdir out --grace 10 -- python uc_train.py --rows 1600 "
        "--epochs 2 --ckpt-every 20 --ckpt-dir ckpt --pg-timeout 60 --fmt '...' 2> launcher.console`",
    layout="`out/rank-<R>.log`: rank R's stdout+stderr appended by the OS (logging records `[YYYY-mm-dd "
           "HH:MM:SS,mmm] R LEVEL uc.train - msg`, tracebacks). `out/launcher.log.xml`: the launcher's records as "
           "java.util.logging's default FileHandler writes them (XMLFormatter: `<record>` elements with `<date>`, "
           "`<millis>`, `<level>`, `<message>`). `launcher.console`: the same records from the default "
           "ConsoleHandler on stderr (SimpleFormatter, two lines per record: `Dec 07, 2026 2:31:50 AM UcLaunch main` "
           "then `SEVERE: msg`).",
    planted="node layout: /tmp is a node-local tmpfs, the job dir (and `ckpt/`) is on the shared disk. Rank 0 "
            "writes checkpoints \"atomically\": `tempfile.mkstemp()` (in $TMPDIR, i.e. /tmp), `torch.save` into it, then "
            "`os.rename(tmp, ckpt/stepNNNNNN.pt)`; rename(2) cannot cross file systems.",
    happened="training runs; at step 20 rank 0's checkpoint rename fails with `OSError: [Errno 18] Invalid "
             "cross-device link: '/tmp/.ckpt-....tmp' -> 'ckpt/step000020.pt'` and rank 0 exits; ranks 1 and 2, in "
             "the next step's gradient all-reduce, get gloo `Connection closed by peer`. The launcher logs rank 0's "
             "failure (SEVERE), `stopping the remaining ranks in 10 s`, then ranks 1 and 2 failing on their own and "
             "`job FAILED, first failed rank: 0`.",
    exits="launcher 1; ranks 0, 1, 2 exit 1.",
    judgement="category storage_io: a file-system error (EXDEV) while writing the checkpoint; it could also be read "
              "as code_exception (os.rename instead of os.replace in the same directory / shutil.move), but the "
              "failure is the file-system layout of the node meeting the checkpoint writer and surfaces as an "
              "OSError with errno 18, so storage_io. Initiator rank 0 (the only writer).",
    truth=T("failed", "rank", 0, cat="storage_io", fd="OSError: [Errno 18] Invalid cross-device link", fd_rank=0,
            coll=[(1, "[rank1]: RuntimeError: " + CLOSED), (2, "[rank2]: RuntimeError: " + CLOSED)],
            notes="Rank 0's atomic checkpoint save renames a temp file from the node-local tmpfs /tmp into ckpt/ on "
                  "another file system: EXDEV; ranks 1 and 2 lose their peer."))

JOBS["uc-pytest-xdist-dist-each-workers-as-ranks-perworker-logs-shard-size-skip-peers-collective-timeout-r2"] = dict(
    source="pytest-xdist as the launcher of a distributed test suite: `pytest -n 3 --dist each` starts 3 execnet "
           "worker processes and sends every test to every worker; a session fixture makes worker gwN gloo rank N "
           "(MASTER_PORT 29833, process-group timeout 30 s); per-worker log files from the pytest-xdist docs' "
           "`pytest_configure` recipe",
    cmd="`DDP_SUITE_TIMEOUT=30 timeout -s TERM 240 nice python -m pytest -n 3 --dist each -v -rA -p no:cacheprovider "
        "test_ddp_suite.py > pytest-console.txt 2>&1` (suite: `_capture_uc/uc_xdist_suite/`)",
    layout="`pytest-console.txt`: pytest's console: `[gwN] [ NN%] PASSED|FAILED|SKIPPED test_...` progress lines, the "
           "FAILURES section (one block per worker and test, headed `[gwN] linux -- Python ...`, with pytest's source "
           "excerpts and `E   RuntimeError: ...` lines, captured log sections), PASSES, the short summary (`SKIPPED [1] "
           "...: reason`) and the totals line. `logs/tests_gw<N>.log`: each worker's logging file (`HH:MM:SS.mmm "
           "LEVEL pid ddp_suite: msg`, the fixture's `worker gwN -> rank N/3` line and one `--- <test>` line per test "
           "start and end).",
    planted="test 3 (`test_global_batch_loss_matches_single_process`) takes the rank's shard of 100 rows (ceil split: "
            "34, 34, 32) and calls `pytest.skip` when the shard is smaller than the batch of 34 - true on rank 2 only. "
            "Ranks 0 and 1 go on into the test's `dist.all_reduce`; rank 2 moves on to test 4 (a "
            "`broadcast_object_list` from rank 0).",
    happened="tests 1 and 2 pass on all workers. gw2 reports test 3 SKIPPED (reason in the summary: `rank 2: shard has "
             "32 rows < batch 34`) and blocks in test 4's broadcast; gw0 and gw1 block in test 3's all_reduce. After "
             "30 s all three time out (`Timed out waiting 30000ms for recv operation to complete`); the remaining "
             "collectives fail with `Application timeout caused pair closure`; 8 failed, 6 passed, 1 skipped.",
    exits="pytest 1.",
    judgement="category collective_mismatch: rank 2 skipped a test containing a collective, so the ranks' collective "
              "sequences diverge (all_reduce on ranks 0/1, broadcast on rank 2) and everything times out. Not "
              "data_error: the 32-row shard is the intended remainder; the fault is a rank-dependent skip around a "
              "collective. Initiator rank 2 (worker gw2; the mapping gwN -> rank N is printed in "
              "logs/tests_gw2.log). First deviating line: gw2's `SKIPPED` progress line for test 3. Collateral: the "
              "FAILED lines of gw0 and gw1 for test 3.",
    truth=T("failed", "rank", 2, cat="collective_mismatch",
            fd="[gw2] [ 60%] SKIPPED test_ddp_suite.py::test_global_batch_loss_matches_single_process", fd_rank=2,
            coll=[(0, "[gw0] [ 60%] FAILED test_ddp_suite.py::test_global_batch_loss_matches_single_process"),
                  (1, "[gw1] [ 80%] FAILED test_ddp_suite.py::test_global_batch_loss_matches_single_process")],
            notes="Worker gw2 (rank 2) skips a test whose body holds an all_reduce; ranks 0 and 1 wait in it while "
                  "rank 2 waits in the next test's broadcast; all time out after 30 s."))

JOBS["uc-circus-watcher-numprocesses-wid-as-rank-filestreams-no-rank0-store-timeout-all"] = dict(
    source="circus (circusd 0.19 + circusctl) as the launcher: one watcher `trainer` with `numprocesses = 3`, the rank "
           "passed as `--rank $(circus.wid)` (circus' worker id), `respawn = False`, all processes' stdout and stderr "
           "into two FileStream files with circus' time prefix; the job script polls `circusctl list trainer` every "
           "3 s and sends `circusctl quit` when the watcher has no process left",
    cmd="`nice circusd --log-level info --log-output logs/circusd.log uc_circus.ini` (config: "
        "`_capture_uc/uc_circus.ini`; env MASTER_ADDR=127.0.0.1, MASTER_PORT=29844; trainer args `--rank "
        "$(circus.wid) --world 3 --pg-timeout 40 ...`)",
    layout="`logs/trainer.stdout.log` / `logs/trainer.stderr.log`: every chunk a process writes, prefixed `YYYY-mm-dd "
           "HH:MM:SS [pid] | ` by circus (FileStream `time_format`); circus writes per read chunk, so long lines "
           "(c10d C++ stack frames) are split across two prefixed lines and some prefixed lines are empty. The pid is "
           "the only process tag; each process's `start pid=... rank=R` line maps it to its rank. `logs/circusd.log`: "
           "the arbiter's log (start, a multicast-discovery warning with traceback, `trainer started` / `stopped`).",
    planted="circus numbers a watcher's processes from 1 (`$(circus.wid)` is 1..numprocesses); the config uses it as "
            "the rank. The ranks are 1, 2, 3 in a world of 3: there is no rank 0, so nobody hosts the TCPStore.",
    happened="the three processes log `start ... rank=1|2|3 world=3` and try to connect to the store at "
             "127.0.0.1:29844; each times out (`The client socket has timed out after 40000ms while trying to connect "
             "to (127.0.0.1, 29844)`), retries once (c10d warning with a C++ stack) and raises "
             "`torch.distributed.DistNetworkError` from init_process_group, about 46-92 s after start. circusd logs "
             "`trainer stopped` when the script quits it.",
    exits="all trainer processes exit 1 (circus does not log the codes); circusd 0 (quit by circusctl).",
    judgement="category config_error, kind all_ranks: the launcher configuration maps circus' 1-based worker id onto "
              "a 0-based rank for every process; the store timeouts are the consequence (rendezvous would describe "
              "the symptom, not the cause). First deviating line: the start line of the process given rank 3 (`rank=3 "
              "world=3`), the earliest line that shows an out-of-range rank (its rank field is set to 3 as printed). No "
              "collateral: every process fails for the same configuration reason.",
    truth=T("failed", "all_ranks", cat="config_error", fd="INFO uc.train r3: start pid=", fd_rank=3,
            notes="`--rank $(circus.wid)` gives ranks 1..3 for a world of 3: no rank 0 hosts the TCPStore and every "
                  "process times out connecting to it in init_process_group."))

JOBS["uc-dash-gdb-batch-wrapped-ranks-perrank-gdb-files-parquet-part-label-str-dtype-r2"] = dict(
    source="the site's \"debug launch\": a POSIX sh script run by dash (`uc_launch_debug.sh`) that starts every "
           "env:// rank in the background under `gdb -q -nx -batch -ex 'set pagination off' -ex 'handle SIGPIPE "
           "nostop noprint pass' -ex run -ex 'thread apply all bt 25' --args python ...` (a backtrace of every thread "
           "if a rank crashes natively) and `wait`s",
    cmd="`python uc_make_parquet.py data` (the feature export), then `timeout -s TERM 200 nice dash uc_launch_debug.sh "
        "3 29855 -- python uc_train.py --parquet-dir data --epochs 2 --pg-timeout 60 --fmt '...' > launch.txt 2>&1`",
    layout="`gdb/rank<R>.txt`: one file per rank holding gdb's own output (auto-load warning, `[Thread debugging using "
           "libthread_db enabled]`, `[New Thread 0x... (LWP n)]` / `[Thread ... exited]` lines, `[Inferior 1 (process "
           "n) exited with code 01]`) interleaved with the rank's stdout/stderr (logging records `YYYY-mm-dd "
           "HH:MM:SS,mmm | LEVEL | rank R | name | msg`, py.warnings, tracebacks). `launch.txt`: the sh launcher's "
           "lines (gdb pids per rank).",
    planted="every rank reads its parquet part `data/part-0000<R>.parquet` (f0..f15 float32, label). Part 2 was "
            "re-exported from a labelling tool's CSV dump: its `label` column is text (`str` dtype), the other parts "
            "int64. The trainer converts with `torch.as_tensor(df['label'].to_numpy())`.",
    happened="all ranks join the gloo group and read their part; rank 2 logs `data: data/part-00002.parquet (1200 rows, "
             "17 columns)` and fails with `TypeError: can't convert np.ndarray of type numpy.object_. The only "
             "supported types are: ...`; ranks 0 and 1, in DDP's parameter verification (`_verify_params_across_"
             "processes`), get gloo `Connection closed by peer`. gdb reports every inferior `exited with code 01` (no "
             "backtrace: nothing crashed natively); the sh launcher exits 0 (its `wait` has no status).",
    exits="dash launcher 0; ranks 0, 1, 2 exit 1 (gdb: `exited with code 01`).",
    judgement="category data_error (one data part has the wrong column type), initiator rank 2. The gdb wrapping "
              "adds no native crash; its thread lines are noise. Collateral: ranks 0 and 1's `Connection closed by "
              "peer`.",
    truth=T("failed", "rank", 2, cat="data_error", fd="TypeError: can't convert np.ndarray of type numpy.object_",
            fd_rank=2,
            coll=[(0, "[rank0]: RuntimeError: " + CLOSED), (1, "[rank1]: RuntimeError: " + CLOSED)],
            notes="Rank 2's parquet part stores the label as text; converting it to a tensor fails; ranks 0 and 1 lose "
                  "their peer while DDP verifies parameters."))

JOBS["uc-doit-dodo-parallel-rank-tasks-featstore-stuck-read-monitored-barrier-walltime-r1"] = dict(
    source="doit (pydoit 0.37) as the launcher: `dodo.py` yields one sub-task per env:// rank (`train:rank0..2`, a "
           "`CmdAction` each, verbosity 2 so task output is streamed), run in parallel worker processes with `doit "
           "-n 3`; a 150 s wall-clock limit (`timeout -s TERM`) around doit. A small feature-store gateway "
           "(`uc_featstore.py`, HTTP, read-through to a backing volume) runs beside the job",
    cmd="`uc_featstore.py 8765 /mnt/featvol > featstore.log &`, then `timeout -s TERM 150 nice doit -n 3 train > "
        "doit.log 2>&1` (each task: `python uc_train.py --shard-cache cache --featstore http://127.0.0.1:8765 "
        "--ready-timeout 30 --epochs 2 --pg-timeout 120 --fmt '...'`)",
    layout="`doit.log`: doit's console: `.  train:rankN` task start lines, the three ranks' streamed output interleaved "
           "line by line (logging records `YYYY-mm-dd HH:MM:SS,mmm [rR] LEVEL uc.train: msg`, c10d `[rankR]:[E...]` "
           "lines, tracebacks), doit's "
           "`TaskFailed - taskid:train:rankN` / `Command failed: ... returned 1` blocks. `featstore.log`: the "
           "gateway's log (`... featstore[pid] LEVEL msg`).",
    planted="ranks read their shard from the node-local cache `cache/shard-<R>.npy` and fall back to the gateway on a "
            "miss (urllib, no timeout). The nightly stage-in left shard 1 out of the cache; the gateway's backing "
            "volume does not answer (reads block). After staging, every rank enters `dist.monitored_barrier(timeout="
            "30 s)`.",
    happened="ranks 0 and 2 load their cached shards and enter the monitored barrier; rank 1 logs `shard 1 not in "
             "local cache cache, fetching http://127.0.0.1:8765/shards/1.npy` and blocks (the gateway logs "
             "`read-through 1.npy` and never answers). 30 s later rank 0 reports `[Rank 0]: Rank 1 failed to pass "
             "monitoredBarrier in 30000 ms` and rank 2 `Rank 2 successfully reached monitoredBarrier, but received "
             "errors while waiting for send/recv from rank 0`; doit reports both tasks failed. Rank 1 stays blocked "
             "until the 150 s wall clock ends doit and the rank (SIGTERM to the process group, no message).",
    exits="doit 124 (timeout); ranks 0 and 2 exit 1, rank 1 killed by SIGTERM.",
    judgement="category nccl_timeout_hang: a rank stuck (here in a read from the feature store that never returns) "
              "and its peers' barrier timeout; no I/O error was ever raised, so not storage_io. Initiator rank 1 (named "
              "by the monitored barrier; its last line is the fetch). First deviating line: rank 0's monitoredBarrier "
              "error line (rank 0 prints it; its rank field is 0). Rank 2's `received errors` line is collateral. The "
              "wall-clock kill of doit that ends rank 1 is the job's end, not a cause.",
    truth=T("failed", "rank", 1, cat="nccl_timeout_hang",
            fd="[Rank 0]: Rank 1 failed to pass monitoredBarrier in 30000 ms", fd_rank=0,
            coll=[(2, "Rank 2 successfully reached monitoredBarrier, but received errors while waiting for send/recv "
                      "from rank 0")],
            notes="Rank 1 blocks in a feature-store read for its uncached shard; rank 0's monitored barrier reports "
                  "rank 1 after 30 s, rank 2 fails with it; rank 1 is killed at the wall-clock limit."))

JOBS["uc-luigi-local-scheduler-workers3-externalprogramtask-stale-done-marker-rank1-skipped-store-timeout-r1"] = dict(
    source="luigi 3.8 as the launcher: `python -m luigi --module uc_luigi_tasks TrainJob --workers 3 --local-scheduler`; "
           "`TrainJob` (a WrapperTask) requires one `TrainRank(rank=R)` per rank, each an `ExternalProgramTask` running "
           "one env:// rank of uc_train.py in a forked luigi worker process and writing the marker "
           "`markers/train-rank<R>.done` (its output target) after the program exits 0",
    cmd="`timeout -s TERM 200 nice python -m luigi --module uc_luigi_tasks TrainJob --workers 3 --local-scheduler > "
        "luigi.log 2>&1` (tasks: `_capture_uc/uc_luigi_tasks.py`; MASTER_PORT 29877, --pg-timeout 40)",
    layout="`luigi.log`: luigi's console logging (`LEVEL: msg`, DEBUG included): the completeness checks, `Informed "
           "scheduler that task   <task_id>   has status   PENDING|DONE|FAILED` (task ids such as "
           "`TrainRank_2_29877_1_409eaaa6db` encode the parameter values epochs_port_rank), the worker's polling "
           "(`Asking scheduler for work...` every second while the ranks run), `INFO: Program stdout:` / `Program "
           "stderr:` dumps of each finished rank, the `ExternalProgramRunError` traceback with COMMAND / STDOUT / "
           "STDERR / ENVIRONMENT of a failed rank, and the `Luigi Execution Summary`.",
    planted="`markers/train-rank1.done` is left over from yesterday's run of the same job (killed during the model "
            "upload after rank 1 had exited 0 and written its marker); nobody cleared markers/ before the rerun.",
    happened="luigi checks the targets: `TrainRank(rank=1, ...)` is complete (status DONE), so only ranks 0 and 2 are "
             "run. They wait for rank 1 in init_process_group: after 40 s rank 0's store reports `DistStoreError: "
             "Timed out after 41 seconds waiting for clients. 2/3 clients joined.` and rank 2 `DistStoreError: wait "
             "timeout after 40000ms, keys: /default_pg/0//cpu//0/0`; luigi marks both FAILED, TrainJob stays pending "
             "(`This progress looks :( because there were failed tasks`) and - luigi's default - exits 0.",
    exits="luigi 0 (default retcodes); ranks 0 and 2 exit 1; rank 1 never started.",
    judgement="category rendezvous: the job fails in rendezvous because one rank never joins; the stale marker that "
              "made luigi skip it is stale job state, not a configuration value (config_error would also be "
              "defensible). Initiator rank 1 (the rank that is missing; luigi's DONE line names its task). First "
              "deviating line: luigi's `has status   DONE` line for TrainRank rank 1 (fd rank 1). Collateral: the "
              "store timeouts of ranks 0 and 2.",
    truth=T("failed", "rank", 1, cat="rendezvous", fd="TrainRank_2_29877_1_409eaaa6db   has status   DONE", fd_rank=1,
            coll=[(0, "DistStoreError: Timed out after 41 seconds waiting for clients. 2/3 clients joined."),
                  (2, "DistStoreError: wait timeout after 40000ms, keys: /default_pg/0//cpu//0/0")],
            notes="A stale done-marker makes luigi treat rank 1's task as complete; ranks 0 and 2 time out waiting "
                  "for it in init_process_group."))

JOBS["uc-healthy-torchrun-duplicate-stdout-stderr-filters-filtered-logs-logging-error-noise"] = dict(
    source="torchrun --standalone with `--tee 3 --log-dir tlogs` and torchrun's `--duplicate-stdout-filters` / "
           "`--duplicate-stderr-filters` (lines of the tee'd streams that contain one of the comma-separated needles "
           "are copied into `filtered_stdout.log` / `filtered_stderr.log` of the attempt dir)",
    cmd="`timeout -s TERM 240 nice torchrun --standalone --nproc-per-node 3 --log-dir tlogs --tee 3 "
        "--duplicate-stdout-filters 'loss,final eval,done' --duplicate-stderr-filters 'Error,Traceback,Warning' "
        "uc_train.py --samples samples.jsonl --epochs 3 --rows 1200 --final-eval --warn --pg-timeout 60 --fmt '...' "
        "> torchrun.console 2>&1`",
    layout="`torchrun.console`: torchrun's console with the tee'd rank lines prefixed `[default<R>]:`. "
           "`tlogs/<run id>/attempt_0/<R>/stdout.log|stderr.log`: each rank's streams. `tlogs/<run "
           "id>/attempt_0/filtered_stdout.log`, `filtered_stderr.log`: the duplicated lines, `[default<R>]:` prefixed "
           "(the stdout copy stops at step 100: torchrun stops its tail threads before they read the last lines).",
    planted="the trainer logs two text samples per rank with a logging call whose arguments do not match its format "
            "(`log.info(\"sample %s (%d chars): %s\", id, text)`): each call prints a `--- Logging error ---` block "
            "with `TypeError: %d format: a real number is required, not str` on stderr and training goes on. A "
            "FutureWarning is logged through py.warnings.",
    happened="six logging-error blocks (two per rank) on stderr, duplicated as `Traceback` / `TypeError` lines into "
             "filtered_stderr.log; the ranks train 3 epochs (114 steps), run the final evaluation (`final eval: "
             "accuracy 0.3278 over 3600 samples`) and log `done:`; torchrun exits 0.",
    exits="torchrun 0; all ranks 0.",
    judgement="healthy: every rank's final eval and done line, clean launcher exit. The logging errors are a "
              "harmless bug in a log call (the record is dropped, nothing raises), so no failure despite "
              "`Traceback` / `TypeError` lines in a file named filtered_stderr.log.",
    truth=T("healthy", notes="Three ranks train 3 epochs, evaluate and log done; the only alarming lines are "
                             "'--- Logging error ---' blocks from a mismatched log call and a FutureWarning."))

JOBS["uc-healthy-expect-spawn-ptys-overwrite-prompt-answered-logfile-session"] = dict(
    source="expect 5.45 as the launcher (`uc_run_train.exp`): `spawn` of every env:// rank on its own pty, an `expect` "
           "loop over all spawn ids that answers the trainer's `Overwrite? [y/N]` question with `y`, consumes lines, "
           "reaps each rank at EOF with `wait`, and records the session with `log_file -a`",
    cmd="`timeout -s TERM 240 nice expect uc_run_train.exp 3 29899 session.log -- python uc_train.py --outdir "
        "'runs/exp1/rank{rank}' --epochs 3 --rows 1200 --final-eval --warn --pg-timeout 60 --fmt '...'`",
    layout="`session.log`: expect's log_file: every rank's pty output in the order expect read it (CR LF line ends, "
           "logging records `YYYY-mm-dd HH:MM:SS,mmm - rankR - LEVEL - msg`, the prompt line without newline "
           "followed by the script's `[run_train.exp] rank R: answering y` note and the tty's echo `y`), and the "
           "script's own `[run_train.exp] ...` lines (LF): spawns, EOF and exit status per rank, verdict.",
    planted="yesterday's run left `runs/exp1/rank<R>/model.pt`, so each rank asks before overwriting its output dir; "
            "the wrapper answers `y`.",
    happened="each rank asks, gets `y`, recreates its output dir, joins the gloo group, trains 3 epochs, evaluates "
             "and logs `done:`; expect reports `rank R EOF, exit status 0` for the three ranks and `all 3 ranks "
             "exited 0`.",
    exits="expect 0; all ranks 0.",
    judgement="healthy: done lines of every rank and the wrapper's exit statuses. The overwrite prompts and the "
              "FutureWarning are noise.",
    truth=T("healthy", notes="Overwrite prompts answered by the expect wrapper; three ranks train, evaluate, log done "
                             "and exit 0."))

JOBS["uc-inconclusive-accelerate-debug-launcher-sockethandler-collector-log-sink-killed-midrun"] = dict(
    source="accelerate's `debug_launcher` (torch `start_processes`, fork start method, file:// rendezvous through "
           "ACCELERATE_DEBUG_RDV_FILE, CPU) launching a 3-process training function that uses `Accelerator(cpu=True)`; "
           "the processes log only through `logging.handlers.SocketHandler` to the team's log collector "
           "(`uc_logcollector.py`, the logging cookbook's TCP receiver writing one file)",
    cmd="`python uc_logcollector.py 9020 collector.log &`, then `timeout -s TERM 240 nice python uc_acc_debug_launch.py "
        "--nproc 3 --epochs 40 --collector 127.0.0.1:9020 > launcher.out 2>&1`; 20 s in, the collector is "
        "SIGKILLed (its node agent restarting) and not started again",
    layout="`collector.log`: the collector's records `YYYY-mm-dd HH:MM:SS,mmm <pid> rank<R> <logger> LEVEL msg` "
           "(`rank-` for the collector's own start line). `launcher.out`: the launcher script's own stdout/stderr "
           "(only DeepSpeed's accelerator-detection warning, emitted when accelerate imports it late in the run).",
    planted="nothing in the training; the log sink dies mid-run. SocketHandler drops records silently while it "
            "cannot reconnect.",
    happened="collector.log shows the three processes up, prepared, and epochs 0-9 with losses, then stops with no "
             "error (the collector was killed). The run itself went on (it finished and wrote its model; not visible "
             "in any log kept). launcher.out holds one warning line.",
    exits="launcher 0 (not part of the logs); collector killed.",
    judgement="inconclusive: the kept logs stop mid-training without an error and without any end-of-run line; "
              "from the logs alone the run's outcome cannot be told (the collector's death leaves no trace in them "
              "either).",
    truth=T("inconclusive", notes="collector.log stops after epoch 9 of 40 with no error and no end of run; "
                                  "launcher.out has only a warning."))

JOBS["uc-accelerate-launch-2machines-netns-veth-nodes-iproute-monitor-node-n02-link-down-cpu-n02"] = dict(
    source="`accelerate launch --multi_gpu --num_machines 2 --machine_rank R --num_processes 4 --main_process_ip "
           "10.20.0.1 --main_process_port 29910 --rdzv_backend static --same_network` on each of two \"machines\" (2 "
           "CPU processes each; accelerate runs torchrun's elastic agent underneath). The machines are network + UTS "
           "namespaces `cpu-n01` (10.20.0.1) and `cpu-n02` (10.20.0.2) joined by a veth pair (`eth0` on both), "
           "GLOO_SOCKET_IFNAME=eth0; each runs a node-local link monitor `ip -ts monitor link address`",
    cmd="see `_capture_uc/uc-accelerate-launch-2machines-netns-veth-nodes-iproute-monitor-node-n02-link-down-cpu-n02.sh` "
        "(ip netns + veth set-up; trainer `uc_train.py --epochs 30 --rows 1600 --pg-timeout 45 --sleep 0.05`)",
    layout="per machine a folder named by its host name: `cpu-n0X/accelerate.console` (accelerate / torchrun's console "
           "with both local ranks' output: logging records `YYYY-mm-dd HH:MM:SS,mmm LEVEL [uc.train] rank R/4: msg` "
           "(the start line names the host), tracebacks, torchrun's `ChildFailedError` summary with host and rank) and "
           "`cpu-n0X/netmon.log` (iproute2's monitor: `[ISO time] ifindex: eth0... <FLAGS> ... state ...` link and "
           "address events).",
    planted="about 25 s after the launch (just after step 130, in epoch 2) cpu-n02's interface goes down and stays down: the NIC / cable "
            "failure is simulated with `ip link set eth0 down` inside cpu-n02 (administratively down).",
    happened="both machines train normally; at the link event cpu-n02's monitor logs eth0 `<BROADCAST,MULTICAST> ... "
             "state DOWN` (no UP flag) and its IPv6 link-local address deleted, cpu-n01's logs `<NO-CARRIER,...,UP> "
             "... state DOWN` (its peer vanished). No rank logs anything until gloo's 45 s timeout: all four ranks "
             "fail in DDP's gradient all-reduce with `Timed out waiting 45000ms for recv|send operation to complete`; "
             "each agent SIGTERMs its other rank and prints a ChildFailedError with a local rank as `Root Cause`.",
    exits="both accelerate launchers exit 1.",
    judgement="category nccl_network (the job's interconnect failed; gloo plays NCCL's part here). Initiating: the "
              "machine cpu-n02, kind `rank` with node `cpu-n02` and rank null - only its netmon.log shows its own "
              "interface taken down, while cpu-n01 just lost carrier; the ranks' errors are symmetric. First "
              "deviating line: cpu-n02's monitor line for eth0 going down (no rank). All four ranks' timeouts are "
              "collateral; torchrun's `Root Cause` entries name local ranks that only timed out.",
    truth=T("failed", "rank", None, node="cpu-n02", cat="nccl_network",
            fd="eth0@if3: <BROADCAST,MULTICAST> mtu 1500 qdisc noqueue state DOWN", fd_rank=None,
            coll=[(0, "[rank0]: RuntimeError: " + GLOO + "unbound_buffer.cc"),
                  (1, "[rank1]: RuntimeError: " + GLOO + "unbound_buffer.cc"),
                  (2, "[rank2]: RuntimeError: " + GLOO + "unbound_buffer.cc"),
                  (3, "[rank3]: RuntimeError: " + GLOO + "unbound_buffer.cc")],
            notes="cpu-n02's eth0 goes down mid-training; every rank's gradient all-reduce times out after 45 s."))
