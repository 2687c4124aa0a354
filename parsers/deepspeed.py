"""DeepSpeed logger, launcher and config checks: docs/formats/deepspeed.md."""

from parsers.base import Pattern

SOURCE = "deepspeed"

PATTERNS = (
    Pattern(
        "deepspeed.log",
        envelope=True,
        triggers=("] [INFO] [", "] [WARNING] [", "] [ERROR] [", "] [DEBUG] [", "] [CRITICAL] ["),
        regex=r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+\] \[(?P<lvl>[A-Z]+)\] \[(?P<ds_src>[\w.]+:\d+:\w+)\]",
        source=SOURCE,
        examples=(
            "[2023-03-03 02:22:03,491] [INFO] [logging.py:68:log_dist] [Rank 0] Creating fp16 ZeRO stage 3 optimizer",
        ),
    ),
    Pattern(
        "deepspeed.log_dist_rank",
        envelope=True,
        triggers=("log_dist] [Rank ",),
        # log_dist prints the global rank of the printing process (-1 before init)
        regex=r"log_dist\] \[Rank (?P<rank>\d+)\]",
        source=SOURCE,
        fills={"rank": "rank"},
    ),
    Pattern(
        "deepspeed.op_builder_warning",
        triggers=(" [WARNING]  ",),
        regex=r"^ \[(?P<lvl>WARNING)\]  (?P<warning>.+)$",
        source=SOURCE,
        examples=(" [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.",),
    ),
    Pattern(
        "deepspeed.batch_assertion",
        triggers=("Check batch related parameters",),
        regex=(
            r"train_batch_size is not\s+equal\s+to\s+micro_batch_per_gpu \* gradient_acc_step \*\s+world_size\s*"
            r"(?P<train_batch_size>\d+) != (?P<micro_batch>\d+) \*\s*(?P<grad_acc>\d+) \*\s*(?P<world_size>\d+)"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "[rank0]: AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size 8 != 2 * 1 * 1 ",
        ),
    ),
    Pattern(
        "deepspeed.batch_size_missing",
        triggers=("Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided",),
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "deepspeed.batch_nonpositive",
        triggers=("has to be greater than 0",),
        regex=r"(?P<batch_field>Train batch size|Micro batch size per gpu|Gradient accumulation steps): (?P<bad_value>-?\d+) has to be greater than 0",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "deepspeed.config_value",
        triggers=(":print]   ",),
        regex=r":print\]   (?P<ds_key>\w+) ?\.*\s+(?P<ds_value>.*?)\s*$",
        source=SOURCE,
    ),
    Pattern(
        "deepspeed.launcher_exit",
        triggers=("exits with return code",),
        # launch.py's sigkill_handler logs f"{cmd} exits with return code = {rc}"
        # where ``cmd`` is the argv of the *last process it spawned*, not of the one
        # that failed (read in deepspeed/launcher/launch.py, 2021-2025): the local
        # rank in it names no failed process, hence ``argv_local_rank``.
        regex=r"(?:'--local_rank=(?P<argv_local_rank>\d+)'.*)?exits with return code = (?P<exitcode>-?\d+)",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "deepspeed.process_exit_success",
        triggers=("exits successfully",),
        # launch.py's wait loop, once per child whose return code was 0 (the others get
        # sigkill_handler's "exits with return code = N")
        regex=r"\bProcess (?P<child_pid>\d+) exits successfully\.?\s*$",
        source=SOURCE,
        examples=("[2023-04-18 03:45:38,433] [INFO] [launch.py:460:main] Process 10387 exits successfully.",),
        near_misses=("[2023-04-18 03:45:38,433] [ERROR] [launch.py:434:sigkill_handler] ['python', '-u', "
                     "'main.py', '--local_rank=7'] exits with return code = 1",),
    ),
    Pattern(
        "deepspeed.launcher_spawn",
        triggers=("spawned with command:",),
        # launch.py, right after Popen, once per child in local-rank order; the argv
        # has --local_rank=N unless the launcher ran with --no_local_rank
        regex=r"process (?P<child_pid>\d+) spawned with command: \[(?:.*?'--local_rank=(?P<child_local_rank>\d+)')?",
        source=SOURCE,
        # verbatim lines of two public DeepSpeed launcher logs in the code index
        # (DeepSpeed 0.13-0.15, launch.py:253 / :256)
        examples=(
            "[2024-03-08 16:33:08,465] [INFO] [launch.py:253:main] process 57009 spawned with command: ['/root/miniconda3/envs/llm_test/bin/python', '-u', 'deepspeed_example.py', '--local_rank=0']",
            "[2024-10-01 01:18:02,140] [INFO] [launch.py:256:main] process 199296 spawned with command: ['/tools/miniconda3/envs/finetune/bin/python', '-u', 'experiment-base-finetune_qwen_1.5-0_5B.py', '--local_rank=0']",
        ),
        near_misses=(
            "[2024-03-20 20:31:29,210] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 3353707",
        ),
    ),
    Pattern(
        "deepspeed.killing_subprocess",
        triggers=("Killing subprocess",),
        regex=r"Killing subprocess (?P<child_pid>\d+)",
        source=SOURCE,
        level="WARNING",
    ),
    Pattern(
        "deepspeed.world_info",
        triggers=("global_rank_mapping=", "WORLD INFO DICT", "nnodes="),
        regex=r"(?:global_rank_mapping=defaultdict\(<class 'list'>, (?P<global_rank_mapping>\{.*\})\)|nnodes=(?P<nnodes>\d+), num_local_procs=(?P<num_local_procs>\d+), node_rank=(?P<node_rank>\d+))",
        source=SOURCE,
    ),
    Pattern(
        "deepspeed.zero_param_status",
        triggers=("ZeroParamStatus.AVAILABLE", "ds_active_sub_modules"),
        source=SOURCE,
        level="ERROR",
    ),
    # the fp16 loss scaler skipping a step on overflow (runtime/fp16/loss_scaler.py); the
    # scale halves each time, so a scale at 1 or 0 means every step overflows
    Pattern(
        "deepspeed.fp16_overflow",
        triggers=("OVERFLOW! Rank",),
        regex=(r"OVERFLOW! Rank (?P<overflow_rank>\d+) Skipping step\. Attempted loss scale: "
               r"(?P<attempted_scale>[\d.e+-]+), reducing to (?P<new_scale>[\d.e+-]+)"),
        source=SOURCE,
        examples=(
            "[2023-08-07 18:35:18,432] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 "
            "Skipping step. Attempted loss scale: 0, reducing to 0",
            "[2024-01-02 10:00:00,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 "
            "Skipping step. Attempted loss scale: 65536, reducing to 32768",
        ),
    ),
    Pattern(
        "deepspeed.aio_error",
        triggers=("deepspeed_aio:",),
        regex=r"deepspeed_aio:\s+(?P<aio_error>.*)",
        source=SOURCE,
        level="ERROR",
    ),
)
