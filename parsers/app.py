"""The job's own output: training progress lines (step, loss) and progress bars.

Step and loss numbers let later steps align ranks (the same step completes at
about the same time everywhere) and spot the first non-finite loss.
"""

from parsers.base import Pattern

SOURCE = "app"

PATTERNS = (
    # Megatron-LM's (and Megatron-DeepSpeed's) per-interval record: "iteration N/ TOTAL |" then
    # "name: value |" fields, the loss as "lm loss:" (absent where the interval's loss is not
    # reported), the gradient norm as "grad norm:"; numbers in %E notation
    Pattern(
        "app.iteration_record",
        triggers=("iteration",),
        regex=(
            r"\biteration\s+(?P<step>\d+)/\s*(?P<total>\d+)\s*\|"
            r"(?:[^\n]*?\|\s*(?:lm )?loss:\s*(?P<loss>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)))?"
            r"(?:[^\n]*?\|\s*grad norm:\s*(?P<grad_norm>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)))?"
        ),
        examples=(
            " [2025-10-02 12:20:48] iteration       48/      50 | consumed samples:         3072 | elapsed time per "
            "iteration (ms): 7138.7 | learning rate: 7.200000E-06 | global batch size:    64 | lm loss: 8.317189E-02 | "
            "loss scale: 1.0 | grad norm: 1.721 | number of skipped iterations:   0 | number of nan iterations:   0 |",
            " iteration     5426/  250000 | consumed samples:        43408 | elapsed time per iteration (ms): 4247.9 | "
            "learning rate: 2.999E-04 | global batch size:     8 | loss scale: 1.0 | grad norm: nan | "
            "number of skipped iterations:   0 | number of nan iterations:   0 |",
        ),
        near_misses=("elapsed time per iteration (ms): 4247.9",),
    ),
    Pattern(
        "app.step_metrics",
        triggers=("loss",),
        regex=(
            r"(?i)\b(?:step|iter(?:ation)?|it)\b\s*[=:]?\s*(?P<step>\d+)"
            # (the loss may be named by its part, "Loss mse: 0.015"; not the fp16 "loss scale")
            r"(?:/(?P<total>\d+))?[^\n]*?\bloss\b(?:[ _](?:[a-rt-z]|s[a-bd-z0-9_])\w*)?\s*[=:]?\s*"
            r"(?P<loss>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?))"
        ),
        examples=("2024-05-01 12:00:00,123 - INFO - __main__ - step 120 loss 2.345 lr 1e-4",
                  "[2025-10-25 22:00:22] (step=0000059) Train Loss mse: 0.0145, Train Loss ce: 0.0566, Train Steps/Sec: 0.03,"),
        near_misses=("iteration 40 | loss scale: 65536.0 | grad norm: 1.2",),
    ),
    # TensorFlow Estimator's (and tf.compat.v1 MonitoredSession's) step record, the loss first:
    # "INFO:tensorflow:loss = 0.6, step = 200 (13.221 sec)"
    Pattern(
        "app.estimator_step",
        triggers=("loss = ",),
        regex=(r"\bloss = (?P<loss>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?)), step = (?P<step>\d+)"),
        examples=("INFO:tensorflow:loss = 25.564167, step = 0",
                  "I0225 11:14:02.123456 140 basic_session_run_hooks.py:262] loss = 0.61, step = 200 (13.221 sec)"),
        near_misses=("INFO:tensorflow:cross_entropy = 3.216353, learning_rate = 0.014",),
    ),
    # The Hugging Face Trainer's (and its wrappers': TRL, LLaMA-Factory, axolotl) log record
    # of a logging step, printed as a Python dict: progress, with the loss and gradient norm
    Pattern(
        "app.trainer_metrics",
        triggers=("{'loss': ",),
        regex=(
            r"\{'loss': '?(?P<loss>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?))'?"
            r"(?:, 'grad_norm': '?(?P<grad_norm>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?))'?)?"
        ),
        examples=(
            "{'loss': 1.4596, 'grad_norm': nan, 'learning_rate': 4.9e-05, 'epoch': 0.01}",
            "{'loss': 0.6931, 'grad_norm': 2.1875, 'learning_rate': 1e-05, 'epoch': 1.0}",
        ),
        near_misses=("{'eval_loss': 0.71, 'eval_runtime': 3.2, 'epoch': 1.0}",),
    ),
    # OpenMMLab's runners: a logging interval's record, with the loss and (fp16, clipping) the
    # grad norm; mmcv prints the loss first (docs/formats/python-launchers.md §3), mmengine the
    # grad norm first, so each has its pattern
    Pattern(
        "app.epoch_progress",
        triggers=("Epoch [",),
        regex=(
            r"Epoch \[(?P<epoch>\d+)\]\[ *(?P<iter>\d+)/(?P<iters>\d+)\]"
            r"(?:.*?[\s,]loss: (?P<loss>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?)))?"
            r"(?:.*?grad_norm: (?P<grad_norm>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?)))?"
        ),
        examples=(
            " Epoch [1][100/62598]\tlr: 1.000e-03, eta: 6 days, 15:22:46, time: 0.539, data_time: 0.051, memory: 7239, "
            "loss_ce: 1.2757, horizon_bbox_loss: 0.2828, vertical_bbox_loss: 0.3507, loss: 1.9091, grad_norm: nan",
        ),
        near_misses=("Epoch 3: 45%|████▌     | 450/1000 [10:01<12:15,  1.34s/it, loss=0.412]",),
    ),
    Pattern(
        "app.epoch_progress_mmengine",
        triggers=("Epoch(train)",),
        regex=(
            r"Epoch\(train\) *\[(?P<epoch>\d+)\]\[ *(?P<iter>\d+)/(?P<iters>\d+)\]"
            r"(?:.*?grad_norm: (?P<grad_norm>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?)))?"
            r"(?:.*?\sloss: (?P<loss>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?)))?"
        ),
        examples=(
            "07/03 13:04:17 - mmengine - INFO - Epoch(train)  [1][ 10/196]  lr: 3.3333e-04  eta: 0:13:14  time: 0.4073  "
            "data_time: 0.0335  memory: 970  loss: 6.1887",
            "01/08 08:55:39 - mmengine - INFO - Epoch(train)  [1][4/4]  lr: 1.0000e-02  eta: 0:00:46  time: 0.6172  "
            "data_time: 0.1568  memory: 18417  grad_norm: 10.1857  loss: 1.1313  recall@thr=0.5: 0.3889",
        ),
    ),
    # The run said it finished: positive evidence of a healthy end (a log that just
    # stops is not). The Trainer's line is transformers/trainer.py's logger.info
    # ("Training completed. Do not forget to share your model ..."); its final
    # metrics dict carries 'train_runtime'.
    Pattern(
        "app.run_completed",
        triggers=("Training completed", "Training finished", "training finished", "Training complete",
                  "training complete", "Training done", "training done", "'train_runtime'", "train/train_runtime", "Trainer.fit` stopped:", " passed", "***** train metrics *****", "inished training",
                  "early stopping", "# Out of bounds values : 0 OK", "cleanly", "successfully", "normally",
                  "final eval", "Final eval", "final val", "Final val", "final test", "Final test",
                  "final metrics", "Final metrics", "final results", "Final results", "SUCCEEDED", "Succeeded",
                  "COMPLETED", "' succeeded", "raining time", "raining seconds", "total images/sec:",
                  "Number of trials: ", "[after training is done]", "\"run_stop\""),
        # also Lightning's end of fit ("`Trainer.fit` stopped: `max_epochs=3` reached."), the
        # Trainer's final metrics block, and a test run's summary with nothing failed
        regex=(
            r"(?i)\btraining (?:completed|complete|finished|done)\b|\bfinished training\b|'train_runtime'"
            # (the Trainer logs train_runtime once train() has returned; W&B's run summary
            # repeats it as train/train_runtime)
            r"|\btrain/train_runtime\b"
            r"|^Epoch \d+: early stopping$"
            r"|`Trainer\.fit` stopped: `max_(?:epochs|steps|time)=[^`]*` reached"
            r"|^\*{5} train metrics \*{5}$"
            r"|^=+ (?:\d+ (?:passed|skipped|deselected|xfailed|xpassed|warnings?)(?:, )?)+ in [\d.]+s(?: \([^)]*\))? =+$"
            # nccl-tests' closing summary: every size checked, no wrong value (src/common.cu; its
            # "# Avg bus bandwidth" line follows whether or not values were wrong)
            r"|^# Out of bounds values : 0 OK\s*$"
            # tf_cnn_benchmarks' closing summary (printed once, after the last step, between dashed
            # borders the fold keeps with it), and Ray Tune's
            # status table once every trial has terminated (none errored, none running)
            r"|^total images/sec: [\d.]+[ \t]*(?:$|\n)"
            r"|^Number of trials: (?:\d+)/(?:\d+) \(\d+ TERMINATED\)\s*$"
            # a process's own word that it ends well, and the run's final metrics
            r"|\b(?:exiting|exited|shutting down|shut down) (?:cleanly|successfully|normally)\b"
            r"|\b(?:run|job|training|program|test|benchmark)s? (?:finished|completed|ended) (?:successfully|cleanly|normally)\b"
            r"|\bfinal (?:eval(?:uation)?|val(?:idation)?|test|metrics|results)\b[^:=\n]{0,40}[:=]"
            # the summary a training script prints as its last word: the whole run's time
            # (timm / DeiT "Training time 0:12:34", "Total training time: ..."); not a best metric
            # so far, which many scripts print after every epoch
            # (at the line's start or after a logging head's level: "... semantic_segmentation INFO:
            # Total training time: 4:49:16 (0.8678s / it)")
            r"|(?:^|\b(?:INFO|NOTICE)\b:?[ \t|-]+(?:\[[^\]\n]{1,40}\][ \t:|-]*)?"
            r"(?:[\w.\[\]-]+[ \t]*(?:[:|]|[ \t]-)[ \t]+)?)(?:total )?training (?:time|seconds)\b[ \t:=]*\d"
            # a job system's final state of the job (Ray's job status, TorchX's AppState, a
            # pod's phase, Slurm's seff `State: COMPLETED (exit code 0)`), and Ray's job summary
            r"|^(?:(?:job )?status|state|phase)\s*[:=]\s*(?:SUCCEEDED|Succeeded|COMPLETED \(exit code 0\))\s*$"
            # (Ray's job CLI prints it between dashed rules, which the fold keeps with it)
            r"|^Job '[^']+' succeeded\s*(?:\n-{3,}\s*)?$"
            # Megatron-LM's pretrain() once train() has returned (training.py's print_datetime),
            # and MLPerf's logger closing a run that reached its target (mlperf_logging's MLLOG
            # record: key run_stop, metadata status success)
            r"|^\[after training is done\] datetime: "
            r"|^:::MLLOG \{.*\"key\": \"run_stop\".*\"status\": \"success\""
        ),
        level="INFO",
        examples=(
            "11/30/2026 04:34:43 - INFO - train - Training completed. 30 steps in 2.0 s",
            "Training completed. Do not forget to share your model on huggingface.co/models =)",
            "2026-12-05 13:30:31,465 | INFO    | rank 0 | training done",
            "{'train_runtime': 132.4, 'train_samples_per_second': 24.2, 'train_steps_per_second': 3.0, 'train_loss': 1.9, 'epoch': 3.0}",
            "`Trainer.fit` stopped: `max_epochs=3` reached.",
            "wandb:            train/train_runtime 11434.0771",
            "✓ Test completed successfully",
            "[after training is done] datetime: 2026-04-11 11:16:35 ",
            ':::MLLOG {"namespace": "", "time_ms": 1621236046008, "event_type": "INTERVAL_END", "key": "run_stop", '
            '"value": null, "metadata": {"file": "fit.py", "lineno": 1006, "status": "success"}}',
            "INFO:sleap.nn.training:Finished training loop. [15.9 min]",
            "Epoch 00013: early stopping",
            "***** train metrics *****",
            "======================== 12 passed, 3 warnings in 41.20s ========================",
            "# Out of bounds values : 0 OK",
            "[15:45:58]           INFO     rank 1 exiting cleanly                mc_fabric_rich.py:72",
            "Training time 0:41:07",
            "2026-03-01 10:00:41 INFO job finished successfully after 3 epochs",
            "final evaluation on the held-out split: {'acc': 0.91}",
            "status: SUCCEEDED",
            "State: COMPLETED (exit code 0)",
            "Job 'raysubmit_wP3kd9aXbYu2Lr7c' succeeded",
            "Job 'raysubmit_T4kLmN2pQ8rS6vWx' succeeded\n------------------------------------------",
            "2023-10-03 03:57:53,388 semantic_segmentation INFO: Total training time: 4:49:16.701480 (0.8678s / it)",
            "total images/sec: 204.75",
            "Number of trials: 3/3 (3 TERMINATED)",
        ),
        near_misses=(
            "Download completed successfully",
            "checkpoint saved successfully",
            "final eval starts now",
            "2023-10-03 03:21:10,112 semantic_segmentation INFO: iter 500 training time 0.87s",
            "best_acc: 64.12",
            "Training time per step: 0.41 s (estimate)",
            "status: RUNNING",
            "State: COMPLETED (exit code 1)",

            "11/30/2026 04:34:43 - INFO - train - Training started",
            "# Out of bounds values : 12 FAILED",
            "# Avg bus bandwidth    : 5.14095 ",
            "=================== 1 failed, 12 passed, 3 warnings in 41.20s ===================",
            "90\timages/sec: 204.8 +/- 0.0 (jitter = 0.3)\t9.087",
            "Number of trials: 3/3 (1 ERROR, 2 TERMINATED)",
        ),
    ),
    # The world size (and the printing process's rank) as the job's own code, DeepSpeed's
    # config dump or an env print states it: stage 2 keeps the largest per file
    # (files.world_size) and takes `rank N of M` as the rank of a file nothing else
    # names one for (attribute.sql). `rank=3` alone is left out: it names a peer as often.
    Pattern(
        "app.world_size",
        triggers=("world_size", "world size", "World size", "World Size", "WORLD_SIZE", " of ", "GLOBAL_RANK: ",
                  "distributed training: False"),
        regex=(
            r"(?i)\bworld[_ ]size\s*(?:=|:|\.{3,})\s*(?P<world_size>\d+)"
            # ("rank 1/2" is read in ingest's stage 1, on a record that names its pid: a trigger
            # "rank " would send a fifth of all lines past the shape memo)
            r"|\brank\s+(?P<app_rank>\d+)\s+of\s+(?P<app_world_size>\d+)\b"
            # Lightning's "Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/4"
            r"|\bGLOBAL_RANK: (?P<lightning_rank>\d+), MEMBER: \d+/(?P<lightning_world_size>\d+)"
            # the HF example scripts' start-up line: not distributed is one process
            r"|\bdistributed training: (?P<not_distributed>False)\b"
        ),
        examples=(
            "2026-12-01 20:26:34,161 INFO trainer: starting: world_size=4 pid=13735 host=vm",
            "2026-12-01 20:26:34,911 INFO trainer: process group ready (backend=gloo, rank 3 of 4)",
            "[2025-02-07 01:13:41,065] [INFO] [config.py:1003:print]   world_size ................... 1",
            "12/01/2026 20:37:51 - WARNING - hf_train - Process rank: 0, device: cpu, n_gpu: 0, "
            "distributed training: False",
            "Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/4",
        ),
        near_misses=(
            "NCCL INFO comm 0x55d0c0a4c4d0 rank 3 nranks 8 cudaDev 3 busId 4f000 - Init COMPLETE",
            "train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size 8 != 2 * 1 * 1",
            "[2020-12-24 16:25:13,902] [INFO] [launch.py:100:main] dist_world_size=2",
            "12/01/2026 20:37:38 - WARNING - hf_train - Process rank: 1, device: cpu:0, n_gpu: 0, "
            "distributed training: True",
        ),
    ),
    # any other trainer's record of a logging interval, "name: value" pairs with the loss among
    # them (YOLO/ultralytics-style, Keras's "- loss: 0.31 -", custom loops): progress, and its
    # loss (and a grad norm printed before it) for the non-finite check. Only ": " pairs: a
    # progress bar's postfix ("loss=0.412]") is the bar's, which redraws as a run unwinds
    Pattern(
        "app.loss_record",
        triggers=("loss: ", "Loss: ", "loss_", "Loss_"),
        regex=(
            r"(?:\bgrad_norm: (?P<grad_norm>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?))[^\n]*?)?"
            # a loss under its part's name (loss_net, loss_total) is the run's loss too, the
            # fp16 scaler's loss_scale is not (spelt out: the regex engine has no lookahead)
            r"(?:^|[\s,|])[Ll]oss(?:_(?:[A-Za-rt-z]|s[A-Za-bd-z0-9_])\w*)?: (?P<loss>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?))(?:[\s,|]|$)"
        ),
        examples=(
            "grad_norm: 638.4964  loss: 626.2026  loss_cls: 143.0205  loss_bbox: 243.8403  loss_dfl: 239.3417",
            "32/32 [==============================] - 1s 2ms/step - loss: 0.3142 - accuracy: 0.9062",
            "train Loss: 2.7186 Acc: 0.4082",
            "07:12:40: train iter: 300 loss_total: 1.0213 scale: 4096.0000 grad: 3.1127",
        ),
        near_misses=(
            "Epoch 3: 45%|████▌     | 450/1000 [10:01<12:15,  1.34s/it, loss=0.412]",
            "val_loss: 0.71 - val_accuracy: 0.88",
            "iter 40 loss_scale: 65536.0000 lr: 0.0001",
        ),
    ),
    # A program's word that it went on past the error just above it ("Continuing to launch.",
    # "continuing without tensorboard", "Falling back to sockets"): that error did not stop it
    # (outcome.sql and deviation.sql read it within a few lines below the error)
    Pattern(
        "app.went_on",
        triggers=("ontinuing", "roceeding anyway", "alling back to"),
        regex=(r"(?i)(?:^|[.!;:,]\s+)(?:continuing|proceeding)(?: (?:to|with|without|anyway)\b|\s*(?:\.|$))"
               r"|\bfalling back to\b"),
        source=SOURCE,
        level="INFO",
        examples=(
            "Continuing to launch. Beware, the Spectrum MPI environment may not be completely setup.",
            "WARNING: tensorboard not installed, continuing without it",
            "NET/IB : No device found. Falling back to sockets",
        ),
        near_misses=(
            "Error: continuing the run is impossible",
            "Epoch 3: continuing training from checkpoint step 1200",
        ),
    ),
    # a launcher's, an IDE's or a batch system's record that a process exited with status 0
    # ("torchrun exited with 0", "Process finished with exit code 0", Grid Engine's "job 4711.1
    # finished: exit_status 0", compose's "trainer-0 exited with code 0"): one process's clean end,
    # a healthy end where nothing failed, but no recovery from another process's failure (the
    # run's own "completed" line is app.run_completed's)
    Pattern(
        "app.exit_status_zero",
        triggers=("xited with", "inished with", "exit_status 0", "exit code 0", "exit status 0"),
        regex=(
            r"(?i)\b(?:exited|finished|terminated|completed|ended)\b[^\n]{0,20}?"
            r"\b(?:with(?: exit)?(?: code| status)?|exit[ _](?:status|code))[ :=]*0(?:$|[^\w.])"
        ),
        level="INFO",
        examples=(
            "torchrun exited with 0 at 04:04:44",
            "12/07/2026 04:04:44|execd|vm|I|job 4711.1 finished: exit_status 0, wallclock 41s",
            "Process finished with exit code 0",
        ),
        near_misses=(
            "Process finished with exit code 1",
            "torchrun exited with 0x1 status",
            "srun: error: nid001: task 3: Exited with exit code 137",
        ),
    ),
    # A process, rank or job saying in so many words that it is done ("rank 3 done", "job
    # finished", "worker 2 (pid 4711) finished OK", a bare "Done!" or "done: 19 steps, acc
    # 0.91" after the logger's name), IPython's %time report (printed only when the cell
    # returned: on an exception it shows the traceback instead), a Spark executor's task that
    # sent its result. Words any script prints at an epoch's or a phase's end too, so these are
    # a healthy end only where its stream made no progress after them (outcome.sql); the
    # subject must be the process or the job (not an epoch or a step), and the phrase the end of
    # the line or a summary's head.
    Pattern(
        "app.said_done",
        triggers=("done", "Done", "DONE", "finished", "Finished", "FINISHED", "completed", "Completed", "complete",
                  "Complete", "CPU times: user", "result sent to driver", "status=", "status: ", "status = ", "cleanly", "gracefully"),
        regex=(
            r"(?i)\b(?:ranks?|workers?|process(?:es)?|procs?|jobs?|runs?|tasks?|programs?|scripts?|trainers?|all)"
            r"(?:[ \t#=:]*[\w.-]+)?(?:[ \t]*\([^)\n]{0,40}\))?[ \t]+(?:is[ \t]+|has[ \t]+|have[ \t]+)?"
            r"(?:done|finished|completed?)(?:[ \t]+(?:ok|successfully|cleanly|normally|without errors?))?[ \t]*[.!]*[ \t]*$"
            # (after the level, a bracketed tag and the logger's name: "INFO    [rank2] train - done: ...")
            r"|(?:^|\]:?[ \t]+|\b(?:INFO|NOTICE)\b[ \t:|-]+(?:\[[^\]\n]{1,40}\][ \t:|-]*)?(?:[\w.\[\]-]+[ \t:|-]+)?)"
            r"(?:all[ \t]+)?(?:done|finished)"
            r"(?:[.!]+(?:[ \t]|$)|[ \t]*(?:$|:[ \t])"
            # (and the run's whole time: "train: finished in 0.4s", "done in 0:12:34")
            r"|[ \t]+in[ \t]+\d[\d.:]*[ \t]*(?:ms|s|secs?|seconds?|mins?|minutes?|h|hours?)?[ \t]*[.!]?[ \t]*$)"
            # a process's word that it stops of its own accord ("Stopping cleanly.")
            r"|\b(?:stopping|stopped|exiting|finishing)[ \t]+(?:cleanly|gracefully|normally)\b"
            # a check's closing verdict on itself (`operations=9 status=PASS`, `status: SUCCESS`)
            r"|\bstatus[ \t]*[:=][ \t]*(?:pass(?:ed)?|success(?:ful)?|succeeded|ok)[ \t]*[.!]?[ \t]*$"
            r"|^CPU times: user [\d.]+ \w+, sys: "
            r"|\bFinished task [\d.]+ in stage [\d.]+ \(TID \d+\)\. \d+ bytes result sent to driver"
        ),
        level="INFO",
        examples=(
            "2026-12-05 10:24:45,561 INFO [dtrain] rank 3 done",
            "pool-launch[22:12:51] rank 2 (worker pid 19204) finished OK",
            "pool-launch[22:12:51] job finished",
            "2026-12-06 22:12:51,415 19202 rank=0 INFO    rc.train done: 19 steps, train acc 0.2544",
            "Done!",
            "[rank1]: all done.",
            "The job has completed successfully",
            "CPU times: user 3.63 s, sys: 2.04 s, total: 5.68 s",
            "rank=0 operations=9 status=PASS",
            "2026-12-07 19:28:40,678 INFO    [rank0] train - done: 240 steps in 1.5s",
            "2026-12-01 10:00:00,000 gpu-3 [rank 1] INFO trainer: finished in 12.5s",
            "INFO:__main__:done in 0:12:34",
            "Done. Rank 1 wrote 101 new shards (103424 samples total for phase 1).",
            "Disk cap reached (75.0 GB). Stopping cleanly.",
            "19/04/05 03:09:29 INFO Executor: Finished task 0.0 in stage 1.0 (TID 1). 1573 bytes result sent to driver",
        ),
        near_misses=(
            "2026-12-06 22:12:51,409 19202 rank=0 INFO    rc.train epoch 0 finished (19 steps)",
            "Epoch 3 done: loss 0.41",
            "Loading checkpoint shards: done",
            "INFO Loading data done",
            "job finished with errors",
            "NCCL INFO comm 0x55d0c0a4c4d0 rank 3 nranks 8 cudaDev 3 busId 4f000 - Init COMPLETE",
            "rank 3 finished epoch 2",
            "2026-12-01 10:00:00,000 INFO trainer: epoch 5 finished in 0.4s",
            "INFO data: shards finished in 3.2s, 8 more to go",
            "Download finished",
            "rank=0 operation=7 count=1048576 expected=17 result=PASS",
            "health check status: OK, retrying the failed shard",
        ),
    ),
    Pattern(
        "app.progress_bar",
        envelope=True,
        triggers=("%|",),
        regex=r"(?P<percent>\d+)%\|[^|]*\|\s*(?P<done>\d+)/(?P<total>\d+)",
    ),
)
