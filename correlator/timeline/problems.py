"""Input problems: every file or line we could not use as-is, and what we did about it.

A problem never stops an ingest. It is recorded (and becomes a row of the
``problems`` view) and warned about on stderr, so nothing is dropped silently.
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass, field

import pyarrow as pa


@dataclass(frozen=True, slots=True)
class Problem:
    file: str  # path relative to the analysed root ("<stdin>" for standard input)
    what: str  # human sentence: what is wrong
    action: str  # what the engine did: "skipped", "truncated", "replaced", ...
    line: int | None = None  # 1-based line, where the problem is one line

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.what} ({self.action})"


PROBLEM_SCHEMA = pa.schema(
    [
        ("file", pa.string()),
        ("line", pa.int64()),
        ("what", pa.string()),
        ("action", pa.string()),
    ]
)


@dataclass
class ProblemLog:
    """Collects problems; optionally echoes each to stderr as it arrives."""

    echo: bool = True
    items: list[Problem] = field(default_factory=list)

    def add(self, problem: Problem) -> None:
        self.items.append(problem)
        if self.echo:
            print(f"warning: {problem}", file=sys.stderr)

    def extend(self, problems: list[Problem]) -> None:
        for p in problems:
            self.add(p)

    def to_arrow(self) -> pa.Table:
        rows = [asdict(p) for p in self.items]
        return pa.Table.from_pylist(rows, schema=PROBLEM_SCHEMA)
