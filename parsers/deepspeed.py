"""DeepSpeed logger, launcher and config checks: ../shared/formats/04-deepspeed.md."""

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
        regex=r"(?:'--local_rank=(?P<failed_local_rank>\d+)'.*)?exits with return code = (?P<exitcode>-?\d+)",
        source=SOURCE,
        level="ERROR",
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
    Pattern(
        "deepspeed.aio_error",
        triggers=("deepspeed_aio:",),
        regex=r"deepspeed_aio:\s+(?P<aio_error>.*)",
        source=SOURCE,
        level="ERROR",
    ),
)
