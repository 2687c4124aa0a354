"""What an ingest is asked for (``IngestOptions``) and its one user-facing failure
(``NothingToRead``), apart from the pipeline.

Every command's module names them, and most commands never parse a line
(``--help``, ``rules list``): here they cost nothing to import, where the
pipeline loads Polars and pyarrow (~0.3 s).
"""

from __future__ import annotations

from dataclasses import dataclass


class NothingToRead(Exception):
    """No input file yielded a single line."""


@dataclass
class IngestOptions:
    tz: str = "UTC"
    job: str | None = None  # defaults to the target's name
    workers: int | None = None  # processes for stage 1; default: CPU count
    batch_bytes: int = 16 << 20  # per worker; several times this in Polars while parsing
    max_line_bytes: int = 1 << 20
    echo_problems: bool = True
    exclude: tuple[str, ...] = ()  # glob patterns of relative paths to leave out
