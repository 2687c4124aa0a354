#!/usr/bin/env python3
"""gen_meta.py [OUT]: write README.md, truth.json and .correlatorignore of every ea-* job (truths written from the
planted faults and the printed lines)."""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("host `vm` (2 cores, CPU only), Python 3.11.7, torch 2.13.0+cpu (gloo), lightning 2.6.6 (+ jsonargparse 4.53.0 "
       "pip-installed for LightningCLI), accelerate 1.15.0, transformers 5.25.0, deepspeed 0.19.8, Open MPI 4.1.4, "
       "glibc 2.36, e2fsprogs 1.47.0")


def truth(status="failed", rank=None, node=None, all_ranks=False, kind="rank", cat=None, fd=None, fd_rank=None,
          coll=(), notes=""):
    if status != "failed":
        return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
                "first_deviating": None, "collateral": [], "notes": notes}
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks, "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "ranks": r} for c, r in coll], "notes": notes}


J = {}
J["ea-torchrun-rotating-collate-empty-r1"] = dict(
    launcher="`torchrun --standalone --nproc-per-node 3 ea_train.py --steps 14 --sleep 0.2 --pg-timeout 30 --log-style rot "
             "--log-file 'logs/rank{rank}/train.log' --shutdown-report --fault collate_empty --fault-rank 1 --fault-step 9` "
             "under `timeout -s TERM 90`",
    layout="`console.log` (the torchrun agent; the workers print nothing themselves except Python's uncaught "
           "tracebacks, `[rankN]:`-prefixed, and c10d's hostname warnings) + `logs/rank{0,1,2}/train.log*`: each rank logs "
           "ONLY to its own file through a `logging.handlers.RotatingFileHandler(maxBytes=4096, backupCount=3)` at DEBUG, "
           "format `[%(asctime)s] LEVEL r<R> module:lineno msg`. At exit (also after an error) each rank logs a per-phase "
           "and per-step timing report (~30 lines), which rotates the files again: rank 1's error record is in "
           "`logs/rank1/train.log.1`, its steps 1-8 in `train.log.2`, the current `train.log` holds only the report; "
           "ranks 0 and 2 have their `Connection closed` error in `train.log.1`.",
    planted="rank 1's DataLoader sample 5 of the batch at step 9 is an empty record (0 features instead of 16: a record "
            "whose text field was empty after tokenisation).",
    happened="8 steps on all ranks; rank 1's `default_collate` fails: `RuntimeError: stack expects each tensor to be equal "
             "size, but got [16] at entry 0 and [0] at entry 5` (logged with traceback as `training failed on rank 1`, "
             "then the timing report; the uncaught traceback also goes to the console as `[rank1]:`); ranks 0 and 2, in "
             "step 9's gradient all-reduce, `Connection closed by peer`; the agent sends SIGTERM to pids 22538 (rank 0) "
             "and 22540 (rank 2) and names rank 1 (exit 1, pid 22539) Root Cause. Exit 1.",
    exits="torchrun=1",
    truth=truth(rank=1, cat="data_error",
                fd="RuntimeError: stack expects each tensor to be equal size, but got [16] at entry 0 and [0] at entry 5",
                fd_rank=1,
                coll=[("Connection closed by peer [127.0.0.1]:38833", [0]),
                      ("Connection closed by peer [127.0.0.1]:7862", [2]),
                      ("Sending process 22538 closing signal SIGTERM", [0]),
                      ("Sending process 22540 closing signal SIGTERM", [2])],
                notes="an empty sample in rank 1's data: data_error (the fix is the data / a filter). The error line is in "
                      "rank 1's rotated logs/rank1/train.log.1 and again in console.log ([rank1]: prefix). pids from the "
                      "'process group ready' lines: 22538 = rank 0, 22539 = rank 1, 22540 = rank 2."))
J["ea-teeappend-double-free-r1"] = dict(
    launcher="bash loop, 3 ranks, env:// (`MASTER_ADDR=127.0.0.1 MASTER_PORT=29731 WORLD_SIZE=3`, `RANK=$R LOCAL_RANK=$R`): "
             "each rank runs `bash -c \"nice python ea_train.py --steps 14 --pg-timeout 30 --log-style iso --fault "
             "double_free --fault-rank 1 --fault-step 7 2>&1 | tee -a train.log > /dev/null\" &`, then `wait`; `ulimit -c 0`",
    layout="one `train.log` appended by the three ranks' `tee -a` (lines of different ranks interleave as written); worker "
           "lines `<ISO time> rank<R>/3 LEVEL ea.train: msg`; each rank's own logged traceback (unprefixed) and then "
           "Python's `[rankN]:` copy. Nothing from a launcher (bash prints nothing about the pipelines; its stderr file "
           "`launch.err` stayed empty and is not kept).",
    planted="at step 7 rank 1 calls a 'native augment' helper (ctypes on libc) that `free()`s the same malloc'd buffer twice.",
    happened="6 steps on all ranks; rank 1 logs `step 7: applying native feature jitter (libaugment fallback)` and the "
             "buffer address, then glibc prints `free(): double free detected in tcache 2` (no rank prefix) and aborts "
             "the process (SIGABRT, no Python traceback); ranks 0 and 2, in step 7's gradient all-reduce, `Read error "
             "[127.0.0.1]:31127: Connection reset by peer`, logged and re-raised. The loop's `wait` returns 0 (the last "
             "pipeline's tee).",
    exits="loop=0 (`wait` returns the last pipeline's status, tee's); rank 1's python was aborted by SIGABRT (its status is not recorded)",
    truth=truth(rank=1, cat="other", fd="free(): double free detected in tcache 2", fd_rank=1,
                coll=[("Read error [127.0.0.1]:31127: Connection reset by peer", [0, 2])],
                notes="a native heap corruption (double free) abort in rank 1: 'other' (native crash, as the corpus's "
                      "segfaults); code_exception arguable. The glibc line carries no rank: it follows rank 1's "
                      "'native augment: jitter buffer' line and rank 1 is the one that stops; ranks 0 and 2 print the "
                      "same Read error line."))
J["ea-legacy-launch-local-rank-arg-all"] = dict(
    launcher="`python -m torch.distributed.launch --nproc-per-node 2 --master-port 29741 ea_train.py --steps 12 "
             "--pg-timeout 30 --log-style iso` (the deprecated legacy launcher, no `--use-env`) under `timeout -s TERM 90`",
    layout="one `console.log`: the launcher's FutureWarning (deprecation notice), both workers' argparse usage/error, "
           "the elastic agent's lines and failure table.",
    planted="the training script was written for torchrun (reads LOCAL_RANK from the environment) and its argparse does "
            "not declare `--local-rank`; the legacy launcher appends `--local-rank=<n>` to every worker's argv.",
    happened="both workers exit 2 at once with `ea_train.py: error: unrecognized arguments: --local-rank=1` (and `=0`); "
             "the agent SIGTERMs pid 23180 (rank 0, already exiting: -15 in the table) and names rank 1 (exit 2) Root "
             "Cause. Exit 1.",
    exits="launcher=1",
    truth=truth(all_ranks=True, kind="all_ranks", cat="config_error",
                fd="ea_train.py: error: unrecognized arguments: --local-rank=", fd_rank=None,
                notes="launcher/script argument contract broken on every rank alike: config_error, all ranks "
                      "(version_mismatch arguable: the legacy launcher vs a torchrun-era script). The deprecation "
                      "FutureWarning printed first describes exactly this but is printed on every legacy launch; the first "
                      "deviating line is the argparse error (both ranks print it; rank 1's came first). No collateral: "
                      "the SIGTERM hit a rank that had already failed the same way."))
J["ea-dshostfile-ckpt-mirror-slow-r0"] = dict(
    launcher="`deepspeed --hostfile hostfile --no_ssh_check --master_addr 127.0.0.1 --master_port 29751 ea_ds.py "
             "--deepspeed_config ds_config.json --steps 12 --sleep 0.2 --pg-timeout 20 --ckpt-every 6 --ckpt-dir ckpt "
             "--mirror mirror/run-0412 --mirror-kbps 20` under `timeout -s TERM 100`; hostfile = `localhost slots=2` (one "
             "host, so the runner takes the local `deepspeed.launcher.launch` path; without `--no_ssh_check` it refuses: "
             "see the batch README); CPU accelerator, DeepSpeed engine (ZeRO 0, torch AdamW client optimizer, WarmupLR), "
             "`deepspeed.init_distributed(dist_backend='gloo', timeout=20 s)`",
    layout="one `console.log`: DeepSpeed runner/launch lines (`[YYYY-MM-DD HH:MM:SS,ms] [LEVEL] [file:line:func] msg`), "
           "workers' lines `YYYY-MM-DD HH:MM:SS.ms [LEVEL] [ds-rankR] trainer - msg`, `[rankN]:` uncaught tracebacks.",
    planted="after `engine.save_checkpoint(ckpt, tag=step6)` on both ranks, rank 0 alone copies the tag (0.9 MB) to a "
            "'mirror' at ~20 KB/s (a slow NFS export) before joining the `checkpoint published` barrier.",
    happened="6 steps; rank 0 logs `copying checkpoint step6 to mirror mirror/run-0412` and copies for ~45 s; rank 1 waits "
             "in the barrier and after 20 s raises `Timed out waiting 20000ms for recv operation to complete`; the "
             "DeepSpeed launcher then kills both subprocesses (`Killing subprocess 1914` = rank 0, mid-copy, silent; "
             "`1915` = rank 1) and logs rank 1's command `exits with return code = 1`. Exit 1.",
    exits="deepspeed=1",
    truth=truth(rank=0, cat="nccl_timeout_hang",
                fd="copying checkpoint step6 to mirror mirror/run-0412", fd_rank=0,
                coll=[("Timed out waiting 20000ms for recv operation to complete", [1]),
                      ("exits with return code = 1", [1])],
                notes="rank 0 is the straggler (a slow rank-0-only checkpoint copy before a barrier); rank 1's barrier "
                      "times out after 20 s: nccl_timeout_hang with rank 0 initiating (storage_io / config_error for the "
                      "short timeout arguable). Rank 0 never prints an error (killed mid-copy by the launcher: 'Killing "
                      "subprocess 1914', pid 1914 = --local_rank=0 in the 'spawned with command' line)."))
J["ea-healthy-dshostfile-warnings"] = dict(
    launcher="`deepspeed --hostfile hostfile --no_ssh_check --master_addr 127.0.0.1 --master_port 29752 ea_ds.py "
             "--deepspeed_config ds_config.json --steps 12 --sleep 0.2 --pg-timeout 30 --ckpt-every 6 --ckpt-dir ckpt "
             "--mirror mirror/run-0413 --warn` (as the previous job, no rate limit)",
    layout="one `console.log` as in `ea-dshostfile-ckpt-mirror-slow-r0`.",
    planted="nothing wrong. Alarming but harmless: DeepSpeed's own `Attempting to get learning rate from scheduler before "
            "it has started` warnings, a FutureWarning (`torch.cpu.amp.autocast` deprecated) on both ranks, rank 0's "
            "`checkpoint dir ckpt has no 'latest' file` WARNING, an ERROR `kernel cache unavailable ([Errno 28] No space "
            "left on device: '/tmp/triton_cache/index.lock'); falling back to eager ops` on both ranks, rank 1's `grad "
            "norm spike` WARNING at step 5.",
    happened="12 steps, checkpoints step6 and step12 saved, mirrored and published, `training finished: 12 steps` on both "
             "ranks, launcher `Process N exits successfully.` twice. Exit 0.",
    exits="deepspeed=0",
    truth=truth(status="healthy", notes="healthy: the warnings and the caught ENOSPC ERROR are harmless; both ranks log "
                                        "'training finished' and the launcher reports both processes exiting successfully."))
J["ea-acc-hftrainer-logging-dir-kwarg-all"] = dict(
    launcher="`accelerate launch --config_file acc_cpu.yaml ea_hf.py --model-dir tiny-cls --steps 40 --logging-dir "
             "runs/ea-hf --legacy-logging-dir` under `timeout -s TERM 100`; acc_cpu.yaml: `distributed_type: MULTI_GPU`, "
             "`num_processes: 2`, `rdzv_backend: static`, port 29761 (accelerate runs torch.distributed.run; the Trainer's "
             "`use_cpu=True, ddp_backend='gloo'` keeps it on CPU; a `MULTI_CPU` config ran a single process through "
             "accelerate's simple launcher, see the batch README)",
    layout="`console.log` (both processes: `%(asctime)s | LEVEL | logger | rank=R | msg`, transformers INFO on rank 0 "
           "including the model config dump, tqdm weight-loading bars, uncaught tracebacks unprefixed, the elastic agent's "
           "lines and failure table) + `runs/ea-hf/process_{0,1}.log` (each process's own log records; the uncaught "
           "tracebacks are not in them).",
    planted="the training script still passes `logging_dir=` to `TrainingArguments` (how it was written for transformers "
            "4.x); the installed transformers 5.25.0 no longer accepts that argument.",
    happened="both processes load the model, then `TypeError: TrainingArguments.__init__() got an unexpected keyword "
             "argument 'logging_dir'`; the agent SIGTERMs pid 9143 (rank 1, which had just failed the same way: -15 "
             "in the table) and names rank 0 Root Cause. Exit 1.",
    exits="accelerate=1",
    truth=truth(all_ranks=True, kind="all_ranks", cat="version_mismatch",
                fd="TypeError: TrainingArguments.__init__() got an unexpected keyword argument 'logging_dir'",
                fd_rank=None,
                notes="a script written against transformers 4.x meets transformers 5.25.0 (the config dump shows "
                      "\"transformers_version\": \"5.25.0\"): the removed argument fails identically on every rank: "
                      "version_mismatch, all ranks (code_exception / config_error arguable). No collateral: the SIGTERM "
                      "hit a rank that had already failed the same way."))
J["ea-healthy-acc-hftrainer-warnings"] = dict(
    launcher="`accelerate launch --config_file acc_cpu.yaml ea_hf.py --model-dir tiny-cls --steps 60 --logging-steps 10 "
             "--logging-dir runs/ea-hf --flaky-callback --warn` (2 processes)",
    layout="`console.log` + `runs/ea-hf/process_{0,1}.log` as in `ea-acc-hftrainer-logging-dir-kwarg-all`; the Trainer's "
           "`{'loss': ...}` dicts are printed on rank 0's stdout without a prefix.",
    planted="nothing wrong. Alarming but harmless: a FutureWarning (`resume_download` is deprecated) and a padding "
            "WARNING on both ranks, DeepSpeed's accelerator-detection WARNING, DDP's `find_unused_parameters=True was "
            "specified in DDP constructor` warning on both ranks, and a metrics push that fails once at step 10 (ERROR "
            "with a `ConnectionRefusedError` traceback) and succeeds from step 20 on.",
    happened="60 steps, `Training completed.`, the train_runtime summary dict and `train done: global_step=60` on both "
             "ranks. Exit 0.",
    exits="accelerate=0",
    truth=truth(status="healthy", notes="healthy: the warnings and the caught ERROR are harmless; both ranks log 'train "
                                        "done: global_step=60' after transformers' 'Training completed.'."))
J["ea-acc-hftrainer-ctrl-c-ext"] = dict(
    launcher="`setsid nice accelerate launch --config_file acc_cpu.yaml ea_hf.py --model-dir tiny-cls --steps 4000 "
             "--logging-steps 50 --logging-dir runs/ea-hf &` (2 processes); 30 s later the capture script sends SIGINT "
             "to the whole process group (`kill -INT -- -PGID`), as a Ctrl-C in the terminal does",
    layout="`console.log` + `runs/ea-hf/process_{0,1}.log` as in the other accelerate jobs.",
    planted="external: an operator's Ctrl-C (SIGINT to the launcher and both workers) in the middle of a healthy "
            "4000-step run.",
    happened="500 steps logged (loss 1.35 -> 0.0036); the elastic agent logs `Received 2 death signal, shutting down "
             "workers` and forwards SIGINT to both workers; both raise `KeyboardInterrupt` inside `loss.backward()` "
             "(`[rank0]:`/`[rank1]:` tracebacks); accelerate ends with `SignalException: Process 10195 got signal: 2`. "
             "Exit 1.",
    exits="accelerate=1",
    truth=truth(kind="external", cat="killed_by_scheduler",
                fd="Received 2 death signal, shutting down workers", fd_rank=None,
                coll=[("[rank0]: KeyboardInterrupt", [0]), ("[rank1]: KeyboardInterrupt", [1])],
                notes="an operator's Ctrl-C: external (killed_by_scheduler is the closest category). The workers also got "
                      "the SIGINT from the terminal-style group signal directly. The agent's 'Sending process 10263/10264 "
                      "closing signal SIGINT' lines are consequences too but no log line ties those pids to a rank, so "
                      "they are not listed."))
J["ea-plcli-yaml-monitor-key-all"] = dict(
    launcher="LightningCLI: `python ea_cli.py fit --config cli_monitor.yaml` under `timeout -s TERM 100`; the YAML sets "
             "`trainer.accelerator: cpu, devices: 2, strategy: ddp` (gloo; Lightning re-runs the script for rank 1), a "
             "CSVLogger under runs/tiny, ModelCheckpoint + LearningRateMonitor callbacks, model and data init args",
    layout="`console.log` (both processes: Lightning's own lines, the rich model summary, `[rank N] epoch E: val/loss ...` "
           "prints, `[rankN]:` tracebacks) + `runs/tiny/version_0/{metrics.csv,hparams.yaml,config.yaml}` (CSVLogger "
           "metrics, hparams, and LightningCLI's copy of the resolved config).",
    planted="the YAML's `ModelCheckpoint` monitors `val_acc` while the model logs `val/acc` (metric keys renamed, config "
            "not updated).",
    happened="sanity check and the first training epoch run; at the end of epoch 0 both ranks raise "
             "`MisconfigurationException: ModelCheckpoint(monitor='val_acc') could not find the monitored key in the "
             "returned metrics: ['lr-SGD', 'train/loss', 'val/loss', 'val/acc', 'epoch', 'step']. HINT: ...`. Exit 1.",
    exits="python=1",
    truth=truth(all_ranks=True, kind="all_ranks", cat="config_error",
                fd="`ModelCheckpoint(monitor='val_acc')` could not find the monitored key in the returned metrics",
                fd_rank=None,
                notes="a wrong monitor key in the YAML config: config_error on every rank alike (both print the "
                      "exception, rank 1 first). No collateral."))
J["ea-healthy-plcli-yaml-warnings"] = dict(
    launcher="LightningCLI: `python ea_cli.py fit --config cli_healthy.yaml` (cpu, devices 2, ddp over gloo, "
             "`monitor: val/acc`, `max_epochs: 3`, `model.warn_noise: true`)",
    layout="`console.log` + `runs/tiny/version_0/{metrics.csv,hparams.yaml,config.yaml}` as in "
           "`ea-plcli-yaml-monitor-key-all`.",
    planted="nothing wrong. Alarming but harmless: Lightning's tip and `LeafSpec` deprecation lines, c10d hostname "
            "warnings, and on each rank at fit start a WARNING (`class weights file not given`) and an ERROR with a "
            "caught `ConnectionRefusedError` traceback (`statsd sink unavailable`).",
    happened="3 epochs, `val/acc` 0.25 -> 0.52, `Trainer.fit` stopped: `max_epochs=3` reached. Exit 0.",
    exits="python=0",
    truth=truth(status="healthy", notes="healthy: warnings and the caught ERROR are harmless; Lightning reports "
                                        "'`Trainer.fit` stopped: `max_epochs=3` reached.'"))
J["ea-mpirun-xml-sigfpe-r2"] = dict(
    launcher="`mpirun --allow-run-as-root --oversubscribe --xml -np 3 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29771 -x "
             "PYTHONFAULTHANDLER=1 ... python ea_train.py --steps 12 --pg-timeout 30 --log-style iso --fault sigfpe "
             "--fault-rank 2 --fault-step 6` (Open MPI 4.1.4 with XML output; ea_train.py maps OMPI_COMM_WORLD_* to "
             "RANK/WORLD_SIZE) under `timeout -s TERM 100`; `ulimit -c 0`",
    layout="one `console.log` in Open MPI's XML form: `<mpirun>`, every line of every rank wrapped as `<stdout "
           "rank=\"R\">...&#010;</stdout>` or `<stderr rank=\"R\">...</stderr>` (newline as `&#010;`, `<`/`>` as "
           "`&lt;`/`&gt;`, non-ASCII as numeric character references; a line written in two pieces becomes two elements on "
           "one line, e.g. `<stderr rank=\"2\">  File \"</stderr><stderr rank=\"2\">/home/...`), mpirun's own messages "
           "as rank-less `<stderr>`, `</mpirun>`. stdout and stderr of a rank are forwarded separately, so their relative "
           "order in the file is not guaranteed.",
    planted="rank 2's batch at step 6 is all padding; the native token-length normaliser (`libtoknorm.so`, built with gcc "
            "from `toknorm.c`, called through ctypes) divides the summed lengths by the zero valid-token count: an "
            "integer division by zero, SIGFPE.",
    happened="5 steps on all ranks; rank 2 logs `step 6: batch has 0 valid tokens (all padding)` and dies: faulthandler `Fatal Python error: Floating point exception` with "
             "the Python stack (`native_mean_len`); ranks 0 and 1 fail in step 6's all-reduce (rank 0 `Read error "
             "[127.0.0.1]:11689: Connection reset by peer`, rank 1 `Connection closed by peer [127.0.0.1]:11689`); mpirun: `mpirun "
             "noticed that process rank 2 with PID 0 on node vm exited on signal 8 (Floating point exception).` Exit 136.",
    exits="mpirun=136",
    truth=truth(rank=2, cat="other", fd="step 6: batch has 0 valid tokens (all padding)", fd_rank=2,
                coll=[("Read error [127.0.0.1]:11689: Connection reset by peer", [0]),
                      ("Connection closed by peer [127.0.0.1]:11689", [1])],
                notes="a native SIGFPE in rank 2 (integer division by zero in a C helper, triggered by an all-padding "
                      "batch): 'other' as the corpus's native crashes; data_error (the empty batch) / code_exception (the "
                      "unguarded division) arguable. First deviating: rank 2's warning, logged just before the crash (in a "
                      "test run it was written after the stderr fault report in the XML file); the `Fatal Python error: "
                      "Floating point exception` line right after it would do as well."))
J["ea-torchrun-ext4-euclean-shard-r1"] = dict(
    launcher="`torchrun --standalone --nproc-per-node 3 --tee 3 ea_train.py --steps 14 --pg-timeout 30 --log-style iso "
             "--data-dir /data/shards` under `timeout -s TERM 100`",
    layout="`console.log` (the agent + `[defaultN]:`-prefixed copies of every worker line) + `dmesg.txt` (the kernel lines "
           "that appeared while the job ran: `dmesg` before/after diff, boot-relative `[seconds]` times).",
    planted="the ranks stream their shard parts (`/data/shards/rank<R>/part-<k>.bin`, one every 4 steps) from a node-local "
            "ext4 scratch volume (a 24 MiB image loop-mounted read-only in the job's mount namespace); the inode of rank "
            "1's third part `rank1/part-002.bin` has a corrupted extent header (`debugfs -w -R 'sif ... block[0] 0x1234'`).",
    happened="8 steps; at step 9 rank 1's open fails: `OSError: [Errno 117] Structure needs cleaning: "
             "'/data/shards/rank1/part-002.bin'` and the kernel logs `EXT4-fs error (device loop0): "
             "ext4_ext_check_inode:528: inode #21: comm python3: pblk 0 bad header/extent: invalid magic`; ranks 0 and 2 "
             "read their part-002 fine and fail in step 9's all-reduce (`Connection closed by peer [127.0.0.1]:22935`); "
             "the agent SIGTERMs pids 19949 (rank 0) and 19951 (rank 2), names rank 1 Root Cause. Exit 1.",
    exits="torchrun=1",
    truth=truth(rank=1, cat="storage_io",
                fd="OSError: [Errno 117] Structure needs cleaning: '/data/shards/rank1/part-002.bin'", fd_rank=1,
                coll=[("Connection closed by peer [127.0.0.1]:22935", [0, 2]),
                      ("Sending process 19949 closing signal SIGTERM", [0]),
                      ("Sending process 19951 closing signal SIGTERM", [2])],
                notes="file-system corruption on the node-local scratch volume hits only rank 1's file: storage_io, "
                      "rank 1 (one node, so kind rank). The kernel's EXT4-fs error line in dmesg.txt is the same event "
                      "(no rank in it; boot-relative time). pids from the 'process group ready' lines."))
J["ea-acc-loop-main-only-gather-r0"] = dict(
    launcher="`accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no "
             "--main_process_port 29791 ea_acc_loop.py --steps 30 --eval-every 10 --pg-timeout 25 --eval-main-only` (flags, "
             "no config file; `Accelerator(cpu=True)` -> MULTI_CPU over gloo, 25 s timeout via InitProcessGroupKwargs) "
             "under `timeout -s TERM 100`",
    layout="one `console.log`: accelerate `get_logger` lines `%(asctime)s - LEVEL - ea_acc_loop - [RANK R] msg` (the "
           "`[RANK R]` is added by accelerate's logger for `main_process_only=False`), `[rankN]:` tracebacks, the "
           "elastic agent's lines and failure table.",
    planted="the evaluation's `accelerator.gather_for_metrics` sits inside `if accelerator.is_main_process:`: at step 10 "
            "only rank 0 enters that all_gather; ranks 1 and 2 finish their (collective-free) evaluation and go on to "
            "step 11's DDP gradient all-reduce.",
    happened="10 steps and `step 10: evaluating` on every rank; 25 s of silence; rank 0 `Timed out waiting 25000ms for "
             "send operation to complete` in `all_gather` (traceback through `gather_for_metrics`), rank 2 `Timed out "
             "waiting 25000ms for recv operation to complete` in `loss.backward()`, rank 1 `Connection closed by peer "
             "[127.0.0.1]:31937` in `loss.backward()`; the agent SIGTERMs pids 21723 (rank 0) and 21725 (rank 2) and names "
             "rank 1 (pid 21724) Root Cause. Exit 1.",
    exits="accelerate=1",
    truth=truth(rank=0, cat="collective_mismatch",
                fd="Timed out waiting 25000ms for send operation to complete", fd_rank=0,
                coll=[("Timed out waiting 25000ms for recv operation to complete", [2]),
                      ("Connection closed by peer [127.0.0.1]:31937", [1]),
                      ("Sending process 21725 closing signal SIGTERM", [2])],
                notes="a collective entered by rank 0 only (gather under is_main_process): collective_mismatch, rank 0 "
                      "(the rank that took the extra collective; its traceback shows all_gather while ranks 1, 2 are in "
                      "backward). Nothing deviates before the timeouts; first deviating is rank 0's own timeout line. The "
                      "agent's table names rank 1 Root Cause (it exited first). pids from the failure table."))


def readme(name, d):
    t = d["truth"]
    if t["status"] == "failed":
        i = t["initiating"]
        verdict = (f"failed; initiating kind `{i['kind']}`, rank {i['rank']}, node {i['node']}; category "
                   f"`{t['root_cause']['category']}`")
    else:
        verdict = t["status"]
    files = []
    for r, _, fs in os.walk(os.path.join(OUT, name)):
        for f in sorted(fs):
            if f not in ("README.md", "truth.json", ".correlatorignore"):
                files.append(os.path.relpath(os.path.join(r, f), os.path.join(OUT, name)))
    return f"""# {name}

Captured for real on this machine on 2026-12-06 ({ENV}), in a scratch dir `/home/user/jobs13ea/{name}/`, under
`nice`, in a private network namespace (loopback only) and mount namespace (`unshare -n -m`). Log files copied byte for
byte (`_capture_ea/collect.py`); nothing edited or masked.

**Source / command:** `captures13/_capture_ea/{name}.sh`: {d['launcher']}

**Layout:** {d['layout']}

**Planted:** {d['planted']}

**What happened:** {d['happened']}

**Exit codes:** {d['exits']}

**Files:** {', '.join('`' + f + '`' for f in sorted(files))}

**Verdict (truth.json):** {verdict}.

**Judgement calls:** {t['notes']}

**Rerun:** `cd captures13/_capture_ea && ./{name}.sh && ./collect_all.sh && python3 gen_meta.py` (pids, ports, times
differ on a rerun; re-check the truth's collateral strings).
"""


for name, d in J.items():
    p = os.path.join(OUT, name)
    os.makedirs(p, exist_ok=True)
    with open(os.path.join(p, "truth.json"), "w") as f:
        json.dump(d["truth"], f, indent=2); f.write("\n")
    with open(os.path.join(p, ".correlatorignore"), "w") as f:
        f.write("README.md\ntruth.json\n.correlatorignore\n")
    with open(os.path.join(p, "README.md"), "w") as f:
        f.write(readme(name, d))
print(len(J), "jobs")
