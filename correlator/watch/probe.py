"""The verdict on the logs as they are now: ``analyze`` itself, over the files on disk.

An alert about an error is the analysis's own answer (the same rules, the same
initiating-rank reasoning as the post-mortem), not a second set of rules. It runs
only when new error-class lines arrived, after they settle, and no more often than
``min_gap_s`` or ``gap_factor`` times its own last duration, so that a job that
prints errors all the time costs a bounded share of a core; each poll itself stays
incremental (``follow``, ``AppendParser``).
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

from correlator.ingest import IngestOptions, NothingToRead
from correlator.verdict import Verdict


@dataclass
class Probe:
    """``analyze`` on ``target``; ``stdin_spool``: the spool standard input went to,
    analysed as ``-`` so that evidence names ``<stdin>`` as ``analyze -`` does."""

    target: str
    options: IngestOptions
    rules_dirs: tuple[str, ...] = ()
    stdin_spool: str | None = None
    min_gap_s: float = 5.0
    gap_factor: float = 4.0
    last_s: float = 0.0  # how long the last analysis took

    def verdict(self) -> Verdict | None:
        """The verdict now (None: nothing to read yet)."""
        from correlator.analysis.analyze import analyze

        started = time.perf_counter()
        try:
            with _stdin_from(self.stdin_spool):
                return analyze("-" if self.stdin_spool else self.target, rules_dirs=self.rules_dirs,
                               options=self.options)
        except NothingToRead:
            return None
        finally:
            self.last_s = time.perf_counter() - started

    def gap(self) -> float:
        """Seconds to leave between two analyses."""
        return max(self.min_gap_s, self.gap_factor * self.last_s)


@contextlib.contextmanager
def _stdin_from(path: str | None) -> Iterator[None]:
    if path is None:
        yield
        return
    saved = sys.stdin
    with open(path, "rb") as raw:
        sys.stdin = io.TextIOWrapper(raw)
        try:
            yield
        finally:
            sys.stdin.detach()
            sys.stdin = saved
