"""Groups of event kinds (the parsers' names) that later steps read by what they mean, defined once.

The analysis (SQL and Python), ``watch`` and the rules each ask "is this line the
run's training progress?" or "does this line carry a loss or a gradient norm?".
Each answer is one of the sets below, so that a parser's new progress kind counts
everywhere at once (``tests/test_kinds.py`` checks every kind here is one a
pattern emits, and that the rules reading metric records name this set).
"""

from __future__ import annotations

# The job's own per-step or per-interval records: the run made progress when one prints.
TRAINING_RECORDS: frozenset[str] = frozenset({
    "app.step_metrics",
    "app.trainer_metrics",
    "app.epoch_progress",
    "app.epoch_progress_mmengine",
    "app.loss_record",
    "app.iteration_record",
    "app.estimator_step",
})

# Records that carry a loss or a gradient norm as attrs: where non-finite values are read.
METRIC_RECORDS: frozenset[str] = TRAINING_RECORDS - {"app.step_metrics"}

# Lines that say a stream went on (its errors before them did not stop it): the
# training records, the run's own completion line and the HF Trainer's log records.
STREAM_WENT_ON: frozenset[str] = TRAINING_RECORDS | {"app.run_completed", "transformers.trainer_log"}

# What `watch` reads a step counter from: the records and progress bars.
COUNTED_PROGRESS: frozenset[str] = TRAINING_RECORDS | {"app.progress_bar"}


# A launcher's record that one of its workers exited non-zero (or on a signal): a pointer to a
# rank, not a cause (their rules' role is context), but a failure of the job all the same.
LAUNCHER_SAW_A_FAILURE: frozenset[str] = frozenset({
    "torchrun.worker_failed",
    "torchrun.child_failed_error",
    "mpi.first_failed",
    "mpi.abort_invoked",
    "mpi.job_aborted",
    "mpi.process_exited",
    "mpi.rank_died",
    "horovod.worker_exit",
    "deepspeed.launcher_exit",
})


def sql_list(kinds: frozenset[str]) -> str:
    """The kinds as a SQL list of string literals (sorted: the query text is stable)."""
    return ", ".join(f"'{k}'" for k in sorted(kinds))
