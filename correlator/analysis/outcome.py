"""Step 3b: how the run ended -> ``failure_evidence``, ``completion_evidence``.

A status is a claim on evidence: "failed" needs a failure the logs report
(``failure_evidence``: an error its stream did not train on after), "healthy"
needs a healthy end (``completion_evidence``: a completion line, a clean exit).
Both are counted per stream, so they do not depend on how many ranks are
visible: one pasted traceback is a failure with one rank as with sixty-four.
``phase_of`` says whether an event came before the job's first training step.
"""

from __future__ import annotations

from datetime import datetime

import duckdb

from correlator.analysis.classifier import Phase
from correlator.analysis.evidence import one, sql_file
from correlator.timeline.kinds import TRAINING_RECORDS, sql_list

STARTUP_S = 60.0  # with no step logged, an error this soon after the job's first line is a start-up error


def find_outcome(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(sql_file("outcome.sql"))


def phase_of(con: duckdb.DuckDBPyConnection, ts: datetime | None, file: str | None, line_no: int | None) -> Phase | None:
    """``before_training`` when no training progress precedes the event (in time, or
    in its file when it has no stamp), ``during_training`` when some does, None when
    the logs show no training progress at all (unless it came within ``STARTUP_S`` of the
    job's first line: a start-up error)."""
    if _progress_above(con, file, line_no, set_up_bars=False):
        # (a training record above it in its own file: training had begun, whatever an
        # inherited stamp says, which for a line of no stamp is only its process's last one)
        return "during_training"
    first = con.execute("SELECT min(first) FROM last_progress").fetchone()[0]
    any_progress = con.execute("SELECT count(*) FROM stream_progress").fetchone()[0]
    if first is None and not any_progress:
        # no step was ever logged: an error within a start-up's time of the job's
        # first line was raised at start-up (a check every rank runs); later, or
        # unstamped, the logs cannot say
        start, end = con.execute("SELECT min(ts_aligned), max(ts_aligned) FROM events").fetchone()
        if ts is not None and start is not None and (ts - start).total_seconds() <= STARTUP_S:
            return "before_training"
        if ts is None and start is not None and (end - start).total_seconds() <= STARTUP_S:
            # unstamped, in a job whose every stamped line falls within a start-up's time
            # (a torchrun --log-dir stderr.log beside its stamped stdout.log and consoles)
            return "before_training"
        return None
    if ts is not None and first is not None:
        return "before_training" if ts < first else "during_training"
    if file is not None and line_no is not None:
        return "during_training" if _progress_above(con, file, line_no) else "before_training"
    return None


# a bar of the set-up, not of training steps ("Loading weights: 100%|...", "Map: 45%|...")
_SET_UP_BAR = (r"(?i)^\s*(?:loading|downloading|fetching|map|tokeniz|extract|build|generat|process|prepar|convert"
               r"|resolv|read|writ|sav|upload|comput|filter|shuffl|download|cach|index|verif)")


def _progress_above(con: duckdb.DuckDBPyConnection, file: str | None, line_no: int | None,
                    set_up_bars: bool = True) -> bool:
    """Whether a line of training progress (a step, a metrics record, a bar) comes above
    ``line_no`` in ``file``; with ``set_up_bars`` False, not a bar whose description says it
    loads, maps or downloads something."""
    if file is None or line_no is None:
        return False
    return bool(one(
        con,
        "SELECT count(*) FROM events WHERE file = ? AND line_no < ? AND (kind IN "
        f"({sql_list(TRAINING_RECORDS | {'transformers.trainer_log'})}) "
        "OR (kind = 'app.progress_bar' AND (? OR NOT regexp_matches(message, ?))))",
        [file, line_no, set_up_bars, _SET_UP_BAR],
    )[0])
