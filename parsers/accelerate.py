"""Hugging Face accelerate and Trainer (transformers): docs/formats/accelerate-hf.md."""

from parsers.base import Pattern

SOURCE = "accelerate"

PATTERNS = (
    Pattern(
        "accelerate.state",
        triggers=("Distributed environment: ",),
        regex=(
            r"Distributed environment: (?P<distributed_type>\S+)(?:  Backend: (?P<backend>\w+))?\s*\n"
            r"Num processes: (?P<num_processes>\d+)\s*\nProcess index: (?P<process_index>\d+)\s*\n"
            r"Local process index: (?P<local_process_index>\d+)\s*\nDevice: (?P<device>\S+)"
        ),
        source=SOURCE,
        # every process prints its own state block: it names the printer's rank
        fills={"process_index": "rank", "local_process_index": "local_rank"},
        examples=(
            "03/13/2023 10:48:18 - INFO - __main__ - Distributed environment: MULTI_GPU  Backend: nccl\nNum processes: 2\nProcess index: 1\nLocal process index: 1\nDevice: cuda:1",
        ),
    ),
    Pattern(
        "accelerate.rank_prefix",
        envelope=True,
        triggers=("[RANK ",),
        regex=r"\[RANK (?P<process_index>\d+)\] ",
        fills={"process_index": "rank"},
    ),
    Pattern(
        "accelerate.grad_accum_mismatch",
        triggers=("Gradient accumulation steps mismatch",),
        regex=r"GradientAccumulationPlugin has (?P<plugin_steps>\d+), DeepSpeed config has (?P<ds_steps>\d+)",
        source=SOURCE,
        level="WARNING",
    ),
    Pattern(
        "accelerate.ds_config_mismatch",
        triggers=("Please correct the following DeepSpeed config values that mismatch",),
        regex=r"- ds (?P<ds_key>\S+)=(?P<ds_value>\S+) vs arg \S+=(?P<arg_value>\S+)",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "accelerate.batch_size_none",
        triggers=("has `None` as batch size", "requires you to pass at least one of training or evaluation dataloaders"),
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "accelerate.shape_mismatch",
        triggers=("Cannot apply desired operation due to shape mismatches",),
        regex=r"Operation: `(?P<operation>[^`]+)`",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "accelerate.grad_accum_double",
        triggers=("You can only pass one of `gradient_accumulation_steps` and `gradient_accumulation_plugin`",),
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "transformers.trainer_log",
        envelope=True,
        triggers=("[INFO|", "[WARNING|", "[ERROR|", "[DEBUG|", "[CRITICAL|"),
        regex=r"^\[(?P<lvl>[A-Z]+)\|(?P<tf_src>[\w.]+:\d+)\] ",
        source="transformers",
        examples=("[INFO|trainer.py:1145] 2021-05-20 20:16:39,037 >> ***** Running training *****",),
    ),
    Pattern(
        "transformers.train_summary",
        triggers=("***** Running training *****",),
        regex=(
            r"(?s)Num examples = (?P<num_examples>[\d,]+).*?Instantaneous batch size per device = (?P<per_device_batch>[\d,]+)"
            r".*?Total train batch size \(w\. parallel, distributed & accumulation\) = (?P<total_batch>[\d,]+)"
            r".*?Gradient Accumulation steps = (?P<grad_acc>[\d,]+).*?Total optimization steps = (?P<total_steps>[\d,]+)"
        ),
        source="transformers",
    ),
    Pattern(
        # The seed entry claims this text; it was not found in transformers/accelerate
        # sources (see rules/ evidence). Kept so a user's log carrying it is recognised.
        "accelerate.grad_accum_not_divisible",
        triggers=("is not divisible by gradient_accumulation_steps",),
        regex=r"number of batches in the dataloader \((?P<num_batches>\d+)\) is not divisible by gradient_accumulation_steps \((?P<grad_acc>\d+)\)",
        source=SOURCE,
        level="ERROR",
    ),
)
