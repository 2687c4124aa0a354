"""The job's own output: training progress lines (step, loss) and progress bars.

Step and loss numbers let later steps align ranks (the same step completes at
about the same time everywhere) and spot the first non-finite loss.
"""

from parsers.base import Pattern

SOURCE = "app"

PATTERNS = (
    Pattern(
        "app.step_metrics",
        triggers=("loss",),
        regex=(
            r"(?i)\b(?:step|iter(?:ation)?|it)\b\s*[=:]?\s*(?P<step>\d+)"
            r"(?:/\d+)?[^\n]*?\bloss\b\s*[=:]?\s*(?P<loss>[-+]?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?))"
        ),
        examples=("2024-05-01 12:00:00,123 - INFO - __main__ - step 120 loss 2.345 lr 1e-4",),
    ),
    # The run said it finished: positive evidence of a healthy end (a log that just
    # stops is not). The Trainer's line is transformers/trainer.py's logger.info
    # ("Training completed. Do not forget to share your model ..."); its final
    # metrics dict carries 'train_runtime'.
    Pattern(
        "app.run_completed",
        triggers=("Training completed", "Training finished", "training finished", "Training complete",
                  "training complete", "'train_runtime'"),
        regex=r"(?i)\btraining (?:completed|complete|finished)\b|'train_runtime'",
        level="INFO",
        examples=(
            "11/30/2026 04:34:43 - INFO - train - Training completed. 30 steps in 2.0 s",
            "Training completed. Do not forget to share your model on huggingface.co/models =)",
            "{'train_runtime': 132.4, 'train_samples_per_second': 24.2, 'train_steps_per_second': 3.0, 'train_loss': 1.9, 'epoch': 3.0}",
        ),
        near_misses=("11/30/2026 04:34:43 - INFO - train - Training started",),
    ),
    Pattern(
        "app.progress_bar",
        envelope=True,
        triggers=("%|",),
        regex=r"(?P<percent>\d+)%\|[^|]*\|\s*(?P<done>\d+)/(?P<total>\d+)",
    ),
)
