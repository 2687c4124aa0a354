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
    Pattern(
        "app.progress_bar",
        envelope=True,
        triggers=("%|",),
        regex=r"(?P<percent>\d+)%\|[^|]*\|\s*(?P<done>\d+)/(?P<total>\d+)",
    ),
)
