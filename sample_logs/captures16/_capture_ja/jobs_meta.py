# exec'd by gen_meta.py: the J dict of the eight ja-* jobs (truths written from the planted faults and the printed
# lines, without running the tool)

J["ja-acc-yaml-port-ckpt-race-r1"] = dict(
    command="`accelerate launch --config_file acc_2proc.yaml --main_process_port 29811 ja_train.py --steps 12 --hidden "
            "16384 --ckpt-share 6 --pg-timeout 30` under `timeout -s TERM 120 nice` (acc_2proc.yaml: LOCAL_MACHINE, "
            "distributed_type MULTI_GPU, num_processes 2, num_machines 1, rdzv_backend static, use_cpu false - the "
            "torchrun code path of accelerate; the workers init gloo on CPU themselves)",
    layout="`console.log`: accelerate's console: torchrun's c10d socket warnings, both workers' asctime records "
           "(`2026-12-06 09:23:05,483 INFO [rank 0] ja.train: ...`), rank 1's Python traceback and torch's `[rank1]:` "
           "copy, the elastic agent's SIGTERM line, accelerate's own traceback ending in `ChildFailedError` and the "
           "failure table.",
    planted="a weight-sync step after step 6: rank 0 saves `ckpt/shared-6.pt` (1.38 MB: hidden 16384), writing it in "
            "256 KiB chunks with a flush each (as streamed to a network file system, ~0.9 s in all); the other rank polls "
            "only for the file to *exist* (no barrier, no write-to-temp-and-rename) and then `torch.load`s it.",
    happened="both ranks train 6 steps; rank 0 logs `step 6: writing shared checkpoint ckpt/shared-6.pt (1378589 bytes)` "
             "at 09:23:05,483; 47 ms later rank 1 logs `loading shared checkpoint` and its `torch.load` fails on the "
             "half-written zip: `RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central "
             "directory. ... your checkpoint file is corrupted ...`. Rank 0 finishes writing (`shared checkpoint written`, "
             "09:23:06,386); the agent SIGTERMs rank 0 (pid 23429) and names rank 1 (pid 23430, exit 1) Root Cause. "
             "accelerate exit 1.",
    exits="accelerate=1",
    truth=truth(rank=1, cat="code_exception",
                fd="[rank1]: RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory",
                fd_rank=1,
                coll=[(0, "Signal 15 (SIGTERM) received by PID 23429")],
                notes="a read-before-write-complete race on a shared checkpoint: rank 1 loads ckpt/shared-6.pt while rank "
                      "0 is still writing it (its `shared checkpoint written` line comes 0.9 s after rank 1's error). "
                      "The file on disk ends up complete; the 'corrupted' wording of torch's message is misleading. "
                      "Category code_exception (missing synchronisation in the training code); storage_io is the "
                      "arguable second choice. Initiating rank 1 (the reader that raised; the writer did nothing "
                      "wrong by itself). Rank 0 is SIGTERMed by the agent (collateral)."),
    calls="initiating rank 1 although the race involves both ranks: rank 1 is the process whose read was premature and "
          "which failed. A very first try used `distributed_type: MULTI_CPU` in the YAML: accelerate took its simple "
          "launcher (one process, no RANK set) and the script died with `KeyError: 'RANK'` - a harness mistake, "
          "discarded. The next capture of this job used `--hidden 512` (a 45 KB checkpoint written in one chunk): "
          "rank 1 happened to read it complete and the run finished (exit 0); that run was discarded and the model "
          "made larger so the write takes several chunks. The job was run again after a later edit of ja_train.py "
          "(one extra INFO line for the metrics option, unused here) so that the traceback line numbers match the "
          "kept script; only that last run is kept.",
)

J["ja-redirects3-restart2-idx-trunc-r1"] = dict(
    command="`python make_shards.py 2 --truncate-rank 1 --truncate-bytes 5` (prep), then `LOGLEVEL=INFO torchrun "
            "--standalone --nproc-per-node 2 --max-restarts 2 --log-dir logs --redirects 3 ja_train.py --data shards "
            "--steps 10 --pg-timeout 20` under `timeout -s TERM 150 nice`",
    layout="`console.log`: the elastic agent only (INFO launch config with `max_restarts : 2`, three rendezvous results "
           "`restart_count=0/1/2`, `Worker group FAILED. 2/2 attempts left; will restart worker group`, the final "
           "`ChildFailedError` table). Workers' output only in `logs/<run_id>/attempt_{0,1,2}/{0,1}/{stdout,stderr}.log` "
           "(`--redirects 3`; stdout files empty: the workers log to stderr): asctime records, tracebacks, `[rankN]:` "
           "copies, gloo's own `debug_logger.cc` ERROR lines.",
    planted="Megatron-style indexed shards `data/shard-<RR>.{bin,idx}` (the .idx an int64 offset array read with "
            "`np.memmap(..., dtype=np.int64)`); `data/shard-01.idx` is 5 bytes short, as an interrupted copy leaves it. "
            "The fault is on disk, so every restart meets it again.",
    happened="attempt 0 and attempt 1: rank 1 fails building its dataset: `ValueError: Size of available data is not a "
             "multiple of the data-type size.` (numpy memmap); rank 0, in its DDP backward, gets "
             "`Connection closed by peer [127.0.0.1]:14526` (attempt 1: `[127.0.0.1]:3479`); the agent SIGTERMs rank 0 and "
             "restarts (2/2, then 1/2 attempts left). attempt 2: rank 0 starts first and gloo tries to connect to "
             "`[127.0.0.1]:3479` - rank 1's address from attempt 1 - (`ERROR failed to connect, willRetry=1, retry=1 ... "
             "Connection refused`, four times), then `RuntimeError: Gloo connectFullMesh failed with ... timed out "
             "connecting: SO_ERROR: Connection refused, remote=[127.0.0.1]:3479`; the agent SIGTERMs rank 1 (which had "
             "only printed its start line) and the final table names **rank 0** (pid 23639, exit 1) as Root Cause. "
             "torchrun exit 1.",
    exits="torchrun=1",
    truth=truth(rank=1, cat="data_error",
                fd="ValueError: Size of available data is not a multiple of the data-type size.", fd_rank=1,
                coll=[(0, "Connection closed by peer [127.0.0.1]:14526"),
                      (0, "RuntimeError: Gloo connectFullMesh failed with")],
                notes="a truncated dataset index file on one rank's shard: data_error, rank 1. It fails the same way in "
                      "attempts 0 and 1 (logs/.../attempt_0/1/stderr.log is the first). The last attempt's failure "
                      "and the final table's Root Cause are rank 0's gloo connect failure to a stale peer address "
                      "left from attempt 1 (a restart artefact while rank 1 was still starting) - misleading: the "
                      "console.log alone points at rank 0 (attempt 2) and local_rank 1 (attempts 0 and 1). Rank 0's "
                      "connection errors are collateral."),
    calls="the final-attempt failure on rank 0 is treated as collateral of the restart loop that the rank-1 data fault "
          "caused, not as a second root cause. A first capture (before an edit of ja_train.py that only added one "
          "INFO line for an option not used here) failed on rank 1 in all three attempts; the re-run is kept so that "
          "traceback line numbers match the kept script - it is the one showing the stale-address failure.",
)

J["ja-legacy-launch-useenv-f64-allreduce-r1"] = dict(
    command="`python -m torch.distributed.launch --use-env --nproc-per-node 3 --master-port 29823 ja_train.py "
            "--log-style plain --steps 12 --metrics-every 4 --np-metrics 1 --pg-timeout 20` under `timeout -s TERM 120 "
            "nice`",
    layout="`console.log`: the deprecated launcher's console: its FutureWarning paragraph, the workers' print() lines "
           "`[R] LEVEL msg` (stdout), unprefixed Python tracebacks and torch's `[rankN]:` copies (stderr), gloo's "
           "`terminate called after throwing an instance of 'gloo::EnforceNotMet'` with its `what():` line (no rank "
           "prefix), the agent's SIGTERM lines and the failure table.",
    planted="every 4 steps each rank all_reduces its metric accumulator [loss_sum, correct, n]. Rank 1's accumulator is "
            "a numpy array (float64: a leftover of a profiling patch, `--np-metrics 1`) turned into a float64 tensor with "
            "torch.from_numpy; ranks 0 and 2 keep a float32 torch tensor. Each rank logs its accumulator type at start "
            "(`accumulator ndarray float64` on rank 1, `Tensor torch.float32` on the others).",
    happened="4 steps on all ranks; in the all_reduce at step 4 gloo on rank 0 receives 8-byte elements where it expects "
             "4: `terminate called after throwing an instance of 'gloo::EnforceNotMet'` / `what():  [enforce fail at "
             ".../pair.cc:456] op.preamble.length <= op.nbytes. 8 vs 4. Received data size doesn't match expected size. "
             "Is there a distributed collective mismatch in your code?` and rank 0 aborts (SIGABRT). Ranks 1 and 2 get "
             "`Read error [127.0.0.1]:...: Connection reset by peer`. The agent SIGTERMs ranks 1 and 2 and names rank 0 "
             "(pid 19455, exitcode -6, SIGABRT) Root Cause. Launcher exit 1.",
    exits="launcher=1",
    truth=truth(rank=1, cat="collective_mismatch",
                fd="[1] INFO metrics: [loss_sum, correct, n] accumulator ndarray float64", fd_rank=1,
                coll=[(0, "Signal 6 (SIGABRT) received by PID 19455"),
                      (2, "[rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error [127.0.0.1]:42895: Connection reset by peer")],
                notes="a dtype mismatch in one rank's all_reduce (float64 on rank 1, float32 elsewhere): "
                      "collective_mismatch, rank 1. The error line that carries the meaning (`8 vs 4 ... collective "
                      "mismatch`) is printed by rank 0 (the receiver) without a rank prefix, and the launcher's table "
                      "blames rank 0 (SIGABRT); the only line that shows which rank is odd is rank 1's start-up INFO "
                      "`accumulator ndarray float64`, chosen as first_deviating. Rank 0's abort and rank 2's connection "
                      "reset are collateral; rank 1's own reset is a consequence too."),
    calls="first_deviating is an INFO line (the gloo enforce line is the first *error*, but it is rank 0's and names no "
          "culprit). A first capture without the accumulator INFO line behaved the same (rank 0 aborted with `8 vs 4`); "
          "it was discarded because nothing in it showed which rank sent float64; the INFO line was added to the "
          "script (an ordinary start-up log line) and the job re-run.",
)

J["ja-setsid-teeappend-resume-weightsonly-all"] = dict(
    command="`python make_old_ckpt.py ckpt/step-120.pt` (prep), then for R in 0 1: `RANK=R LOCAL_RANK=R setsid bash -c "
            "'set -o pipefail; stdbuf -oL nice python ja_train.py --resume ckpt/step-120.pt --steps 140 --pg-timeout 30 "
            "2>&1 | tee -a train.log > /dev/null' &` with MASTER_ADDR=127.0.0.1 MASTER_PORT=29834 WORLD_SIZE=2 exported; "
            "the script waits for both",
    layout="`train.log`: both ranks appended to one file by two `tee -a` processes (line-buffered by `stdbuf -oL`): "
           "asctime records `... ERROR [rank 0] ja.train: ...`, each rank's unprefixed traceback and torch's "
           "`[rankN]:` copy (blank lines and tab-indented lines of torch's weights_only message included). No launcher "
           "lines.",
    planted="the resume checkpoint was written by the old training code (torch 1.13 era): besides the tensors it pickles "
            "`meta` = {`args`: an argparse.Namespace, `best_acc`: numpy.float64, `torch`: '1.13.1'}. ja_train.py calls "
            "`torch.load(path, map_location='cpu')` with the default `weights_only=True` of torch >= 2.6.",
    happened="both ranks form the process group, log `resuming from ckpt/step-120.pt` and fail in torch.load: "
             "`_pickle.UnpicklingError: Weights only load failed. ... In PyTorch 2.6, we changed the default value of the "
             "`weights_only` argument ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not "
             "an allowed global by default.` Both exit 1 within 1 ms of each other; wrapper exit 1.",
    exits="both ranks 1 (the wrappers' pipelines, pipefail); capture script reported 1",
    truth=truth(rank=None, all_ranks=True, kind="all_ranks", cat="version_mismatch",
                fd="_pickle.UnpicklingError: Weights only load failed.", fd_rank=0,
                coll=[],
                notes="a job-wide refusal: the checkpoint format of the old code against torch 2.13's weights_only "
                      "default - version_mismatch, all_ranks. first_deviating is the first UnpicklingError line in the "
                      "file, which belongs to rank 0's traceback (it follows rank 0's ERROR record; rank 1's ERROR record "
                      "carries an earlier timestamp by 1 ms but was appended later). No collateral."),
    calls="version_mismatch rather than config_error/storage_io: the file is intact and loads with weights_only=False; "
          "the failure is the torch 2.6 change of default against a checkpoint written by older code. A first run of "
          "the wrapper used `sh -c` without pipefail: the same log, but the wrapper reported exit 0 (tee's status); it "
          "was discarded and re-run with `bash -c 'set -o pipefail; ...'`.",
)

J["ja-sedlabel-wrapper-port-typo-r2"] = dict(
    command="three `timeout -s TERM 90 nice bash run_rank.sh R >> console.log 2>&1 &` (R = 0, 1, 2); run_rank.sh: "
            "`export RANK=$1 LOCAL_RANK=$1; . env/common.env; [ -f env/node-override-$1.env ] && . "
            "env/node-override-$1.env; set -o pipefail; python ja_train.py --log-style plain --steps 12 --pg-timeout 30 "
            "2>&1 | sed -u \"s/^/$RANK: /\"`",
    layout="`console.log`: the three wrappers' output appended to one file; every line carries the srun-style label "
           "`R: ` added by sed (stdout+stderr merged), then the worker's own `[R] LEVEL msg` print() lines, c10d "
           "socket warnings and Python tracebacks (the uncaught traceback printed twice per rank: the script's "
           "log.exception to stdout and Python's to stderr).",
    planted="env/common.env exports MASTER_ADDR=127.0.0.1, MASTER_PORT=29845, WORLD_SIZE=3; "
            "`env/node-override-2.env` (`# moved off 29500 (clashes with the notebook server)`) exports "
            "`MASTER_PORT=29845x` - a typo - so rank 2 only gets a non-numeric port.",
    happened="rank 2 prints `master 127.0.0.1:29845x` and fails at once in the env:// rendezvous: `ValueError: invalid "
             "literal for int() with base 10: '29845x'`. Ranks 0 and 1 wait: after 30 s rank 1 `waitForInput ... timed "
             "out after 30000ms` and `torch.distributed.DistStoreError: wait timeout after 30000ms, keys: "
             "/default_pg/0//cpu//0/0`, rank 0 (the TCPStore server) `torch.distributed.DistStoreError: Timed out after "
             "31 seconds waiting for clients. 2/3 clients joined.` All three wrappers exit 1.",
    exits="wrappers 1, 1, 1",
    truth=truth(rank=2, cat="config_error",
                fd="2: ValueError: invalid literal for int() with base 10: '29845x'", fd_rank=2,
                coll=[(1, "1: torch.distributed.DistStoreError: wait timeout after 30000ms, keys: /default_pg/0//cpu//0/0"),
                      (0, "0: torch.distributed.DistStoreError: Timed out after 31 seconds waiting for clients. 2/3 clients joined.")],
                notes="a typo in one rank's environment (MASTER_PORT=29845x): config_error, rank 2. Its start line "
                      "already shows the odd port; the ValueError is the line carrying the meaning. Ranks 0 and 1 time "
                      "out in process-group setup waiting for the third client (collateral). rendezvous is the "
                      "arguable second category."),
    calls="the labels come from the wrapper's sed (`R: `) and agree with the worker's own `[R]` prefix. The IPv6-looking "
          "addresses in rank 1's waitForInput warnings are printed as is by c10d inside the loopback-only namespace.",
)

J["ja-mpirun-dictconfig-json-pair-collate-r1"] = dict(
    command="`python make_pairs.py 64,57,64` (prep), then `mpirun --allow-run-as-root --oversubscribe "
            "--merge-stderr-to-stdout -np 3 -x PYTHONUNBUFFERED -x OMP_NUM_THREADS -x PATH -x MASTER_ADDR=127.0.0.1 -x "
            "MASTER_PORT=29856 -x WORLD_SIZE=3 bash -c 'export RANK=$OMPI_COMM_WORLD_RANK "
            "LOCAL_RANK=$OMPI_COMM_WORLD_LOCAL_RANK; exec python ja_train.py --log-style json --data pairs --epochs 3 "
            "--steps 12 --pg-timeout 20'` under `timeout -s TERM 120 nice`",
    layout="`console.log`: mpirun's merged output, untagged: one JSON object per record from "
           "`logging.config.dictConfig(logging.json)` (`{\"ts\": ..., \"level\": ..., \"logger\": \"ja.train\", "
           "\"rank\": R, \"msg\": ..., \"exc\": \"<traceback with \\\\n>\"}`), torch's `[rankN]:` traceback copies "
           "and c10d warnings as plain text, mpirun's boxed abort messages. `logs/rank{0,1,2}.jsonl`: the same "
           "records per rank from the dictConfig FileHandler.",
    planted="contrastive pair data: each rank reads its own shard `data/pairs-<R>.pt` and a DataLoader (batch 16, no "
            "drop_last) with a custom `collate_fn` that pairs consecutive samples via `reshape(-1, 2, 16)`. After a dedup "
            "pass rank 1's shard has 57 samples (ranks 0 and 2: 64), so its last batch of every epoch has 9 samples.",
    happened="all ranks log their shard size (`pairs shard data/pairs-1.pt: 57 samples` on rank 1) and run 3 steps; at "
             "rank 1's 4th batch the collate fails: `RuntimeError: shape '[-1, 2, 16]' is invalid for input of size 144` "
             "(JSON ERROR record with the traceback in `exc`, then `[rank1]:` copy). Ranks 0 and 2, in their 4th DDP "
             "backward, get `Connection closed by peer [127.0.0.1]:1923`. mpirun: `Primary job  terminated normally, but "
             "1 process returned a non-zero exit code`, first non-zero exit `[[15168,1],1]`. mpirun exit 1.",
    exits="mpirun=1",
    truth=truth(rank=1, cat="data_error",
                fd="[rank1]: RuntimeError: shape '[-1, 2, 16]' is invalid for input of size 144", fd_rank=1,
                coll=[(0, "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:1923."),
                      (2, "[rank2]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:1923.")],
                notes="an odd-sized pair shard on one rank makes the pairing collate_fn fail on that rank's short last "
                      "batch: data_error, rank 1 (code_exception arguable: the collate assumes even batches; the data "
                      "contract - whole pairs - is what the dedup pass broke). The start line `pairs shard "
                      "data/pairs-1.pt: 57 samples` is the earliest hint. Ranks 0 and 2 lose their connection in the "
                      "DDP all-reduce (collateral); mpirun names process 1."),
    calls="first_deviating is the `[rank1]:` copy of the exception (the JSON record holds the same text inside its `exc` "
          "string with escaped newlines, one physical line).",
)

J["ja-healthy-acc-yaml-sink-late-retry"] = dict(
    command="`(sleep 9; exec python metrics_sink.py 8093) &` then `accelerate launch --config_file acc_2proc.yaml "
            "--main_process_port 29871 ja_train.py --steps 20 --metrics-every 4 --push http://127.0.0.1:8093/metrics "
            "--warn-extra --pg-timeout 30` under `timeout -s TERM 120 nice`",
    layout="`console.log`: accelerate's console: c10d socket warnings, both ranks' asctime records, a Python "
           "UserWarning (two lines) from rank 0.",
    planted="rank 0 POSTs the global metrics every 4 steps to a metrics sink that the job script starts 9 s late; "
            "each push is retried up to 5 times, 1 s apart. A UserWarning (`gloo backend is used on CPU; performance "
            "may be low`).",
    happened="512 samples / 2 ranks / batch 16 = 16 steps (one epoch; `--steps 20` is not reached). The step-4 push "
             "fails twice (`WARNING [rank 0] ja.train: metrics push for step 4 failed (attempt 1/5): <urlopen error "
             "[Errno 111] Connection refused>`) and `succeeded on attempt 3`; pushes at steps 8, 12, 16 go through (the "
             "sink received all four). Global loss 1.386 -> 0.608, accuracy 0.258 -> 0.773; both ranks `epoch 0 finished "
             "at step 16` and `training done: 16 steps`. accelerate exit 0.",
    exits="accelerate=0",
    truth=truth(status="healthy",
                notes="ends well: `training done: 16 steps` on both ranks, accelerate exit 0, loss falling. The WARNINGs "
                      "are a metrics push retried until the late-starting sink answered; the UserWarning is harmless."),
    calls="none beyond the status: the run ends with the done lines; there is no launcher summary line (accelerate "
          "prints nothing on success).",
)

J["ja-healthy-parallel-joblog-json-sink-down"] = dict(
    command="`parallel --line-buffer --halt now,fail=1 --joblog joblog.tsv -j2 'RANK={} LOCAL_RANK={} exec python "
            "ja_train.py --log-style json --steps 16 --metrics-every 8 --push http://127.0.0.1:8094/metrics "
            "--push-retries 2 --warn-extra --pg-timeout 30' ::: 0 1` with MASTER_ADDR=127.0.0.1 MASTER_PORT=29882 "
            "WORLD_SIZE=2 exported, under `timeout -s TERM 150 nice`",
    layout="`console.log`: GNU parallel's output (no --tag; `--line-buffer` passes lines through as they come, so the "
           "JSON records of the two ranks interleave out of timestamp order), c10d warnings, a UserWarning. "
           "`joblog.tsv`: parallel's job log (Seq, Host, Starttime, JobRuntime, Send, Receive, Exitval, Signal, "
           "Command). `logs/rank{0,1}.jsonl`: the dictConfig FileHandler per rank.",
    planted="rank 0 POSTs metrics every 8 steps to 127.0.0.1:8094 where no sink was started: each push is tried twice "
            "(WARNING) and then given up (ERROR `giving up on metrics push for step N`); training is not affected. "
            "A UserWarning from rank 0.",
    happened="16 steps; at steps 8 and 16 rank 0 logs two `metrics push ... failed (attempt k/2): <urlopen error "
             "[Errno 111] Connection refused>` WARNINGs and `giving up on metrics push for step N` (ERROR). Global loss "
             "1.230 -> 0.692, accuracy 0.312 -> 0.703; both ranks `training done: 16 steps`. joblog: both jobs Exitval 0, "
             "Signal 0; parallel exit 0.",
    exits="parallel=0",
    truth=truth(status="healthy",
                notes="ends well: both ranks' `training done: 16 steps`, joblog Exitval 0 for both, parallel exit 0. The "
                      "ERROR records are an unreachable metrics sink, caught and given up on; training continues."),
    calls="healthy despite ERROR-level records (nothing downstream depends on the sink).",
)
