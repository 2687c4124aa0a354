"""A run that stopped short of its own stated end, with no error and no completion.

Step lines that state their total (``step 83/400``) say where the run meant to go.
When every rank's progress stops short of it, nothing failed in the logs and
nothing completed, the logs did not end because the run did: the processes were
stopped. Where two or more ranks stopped at the same moment (their last lines
within a few of their own step intervals of each other) and some line reports a
signal, a kill or a cancellation (``signal_trace``: a handler's "caught SIGTERM", a
wrapper's or scheduler's word), one thing stopped them all from outside. With no such
trace the logs cannot tell a whole-job SIGKILL that printed nothing from a snapshot of
a job still running (on the unseen logs measured in session 35, snapshots outnumbered
silent kills four to one): inconclusive. A lone rank, or ranks that stopped at
different times, only say the logs are incomplete.

A stream can also stop in its own cadence with no counter at all (``ends_in_cadence``):
its last line one more of a record it printed again and again.

A warning or a survived error earlier in such a run is no evidence that it
ended well (``decide._survived_anomalies`` would otherwise call it healthy).

Most step lines state no run total, but nearly every training loop prints where it
stands in some loop: ``batch 30/50``, ``Epoch 3/10``, ``iteration 48/ 50``. A
counter is a ``N/M`` position whose ``M`` stays the same while its ``N`` moves over a
stream's records (a rank label ``1/3`` does not move, a date is no position). A
stream whose last record stands short of such a counter's end stopped inside the
loop (``mid_loop``): a snapshot of a running job, or a job stopped from outside,
not a run that ended, whatever it survived before.

The other way round, a stream whose last epoch record stands at the last epoch's end
(``Epoch 3/3`` with its bar at 100%, or its inner counter at ``M/M``, or ``M-1/M``
counted from zero) and whose later records (an evaluation bar) stand at their ends
too finished its training loop (``finished_loop``): with no failure in the logs,
that is a healthy end even where no completion line was printed or pasted.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

import duckdb

from correlator.analysis.evidence import rows
from correlator.timeline.kinds import COUNTED_PROGRESS, sql_list

# the ranks' last lines must fall within this many of the run's median step interval
# of each other (and within at least MIN_SPREAD_S seconds)
STEP_INTERVALS = 5
MIN_SPREAD_S = 5.0
# a stream's records read for its loop counters (the last ones: where it stopped)
LAST_RECORDS = 50
MIN_POSITIONS = 3  # distinct positions of a counter before it is read as a loop
# "N/M" not inside a date, a path, a version or a longer token
_POSITION = re.compile(r"(?<![\w/.:-])(\d{1,9})\s*/\s*(\d{1,9})(?![\w/.:-])")
# an epoch's closing line, and the epoch a record is of
_EPOCH_END_SQL = r"(?i)\bepoch\W{0,3}\d+\b[^\n]{0,30}?\b(?:done|finished|complete|completed|ended)\b"
_EPOCH_END = re.compile(r"\bepoch\W{0,3}(\d+)\b[^\n]{0,30}?\b(?:done|finished|complete|completed|ended)\b", re.I)
_EPOCH_NUMBER = re.compile(r"\bepoch\W{0,3}(\d+)\b", re.I)
_BAR_PERCENT = re.compile(r"(?<![\d.])(\d{1,3})%\|")  # tqdm's "34%|███▍      | 17/50"


@dataclass(frozen=True)
class StoppedShort:
    step: int  # the furthest step any rank reached
    total: int  # the total the step lines state
    n_ranks: int  # ranks with stated progress, every one short of its total
    together: bool  # their last lines are within a few step intervals of each other
    last: dict | None  # the run's last line (file, line_no, ...): where it stopped


def stopped_short(con: duckdb.DuckDBPyConnection) -> StoppedShort | None:
    """Did every rank's stated progress stop short of its total? None where any
    rank reached it, no step line states a total, or no rank is known."""
    per_rank = rows(con, """
        WITH s AS (
            SELECT rank, TRY_CAST(attrs['step'] AS BIGINT) AS step, TRY_CAST(attrs['total'] AS BIGINT) AS total,
                   ts_aligned
            FROM events WHERE kind = 'app.step_metrics' AND rank IS NOT NULL
        ),
        gaps AS (
            SELECT rank, ts_aligned - lag(ts_aligned) OVER (PARTITION BY rank ORDER BY ts_aligned) AS gap FROM s
        )
        SELECT s.rank, max(s.step) AS step, max(s.total) AS total,
               (SELECT max(ts_aligned) FROM events e WHERE e.rank = s.rank) AS last_ts,
               (SELECT epoch(median(gap)) FROM gaps g WHERE g.rank = s.rank) AS interval_s
        FROM s GROUP BY s.rank""")
    stated = [r for r in per_rank if r["total"] is not None and r["step"] is not None]
    if not stated or any(r["step"] >= r["total"] for r in stated):
        return None
    # ranks without stated progress (a trainer that logs on rank 0 only) still say when they stopped
    lasts: list[datetime] = [r["last_ts"] for r in per_rank if r["last_ts"] is not None]
    others = rows(con, """
        SELECT max(ts_aligned) AS last_ts FROM events
        WHERE rank IS NOT NULL AND rank NOT IN (SELECT rank FROM events WHERE kind = 'app.step_metrics'
                                                AND rank IS NOT NULL)
        GROUP BY rank""")
    lasts += [r["last_ts"] for r in others if r["last_ts"] is not None]
    intervals = sorted(r["interval_s"] for r in stated if r["interval_s"] is not None)
    interval = intervals[len(intervals) // 2] if intervals else 0.0
    together = len(lasts) >= 2 and (max(lasts) - min(lasts)).total_seconds() <= max(
        MIN_SPREAD_S, STEP_INTERVALS * interval)
    last = rows(con, "SELECT * FROM events WHERE rank IS NOT NULL AND ts_aligned IS NOT NULL "
                     "ORDER BY ts_aligned DESC, line_no DESC LIMIT 1")
    return StoppedShort(
        step=max(r["step"] for r in stated), total=max(r["total"] for r in stated), n_ranks=len(stated),
        together=together, last=last[0] if last else None,
    )


@dataclass(frozen=True)
class MidLoop:
    n_streams: int  # streams whose records count through a loop
    n_inside: int  # of them, those whose last record stands short of a loop's end
    last: dict | None  # such a stream's last record


def mid_loop(con: duckdb.DuckDBPyConnection) -> MidLoop:
    """Which streams (a rank's records, or a file's of no known rank) stopped inside a
    loop their records count through."""
    # a rank's stream runs across files (rotated logs, restarts' directories) in time order;
    # records of no known rank are their file's stream
    recs = rows(con, f"""
        WITH r AS (
            SELECT coalesce('rank ' || rank, file) AS stream, file, rank, line_no, line_end, message, ts_aligned
            FROM events WHERE kind IN ({sql_list(COUNTED_PROGRESS)})
               -- (and the lines that close an epoch: "epoch 6 done: mean train loss ...")
               OR regexp_matches(message, '{_EPOCH_END_SQL}')
            QUALIFY row_number() OVER (PARTITION BY stream ORDER BY ts_aligned DESC NULLS LAST, file DESC,
                                       line_no DESC) <= {LAST_RECORDS}
        ),
        -- (is a record its file's last line? a bar that nothing followed was frozen there)
        ends AS (SELECT file, max(coalesce(line_end, line_no)) AS file_end FROM events
                 WHERE file IN (SELECT file FROM r) GROUP BY file)
        SELECT r.*, coalesce(r.line_end, r.line_no) >= e.file_end AS file_last
        FROM r JOIN ends e USING (file)
        ORDER BY stream, ts_aligned NULLS FIRST, file, line_no""")
    streams: dict[str, list[dict]] = defaultdict(list)
    for r in recs:
        streams[r["stream"]].append(r)
    n_streams = n_inside = 0
    last = None
    for records in streams.values():
        inside = _stops_inside(records)
        if inside is None:
            continue
        n_streams += 1
        if inside:
            n_inside += 1
            last = records[-1]
    return MidLoop(n_streams=n_streams, n_inside=n_inside, last=last)


def _stops_inside(records: list[dict]) -> bool | None:
    """True where the last record stands short of a loop's end, False where it stands at
    every loop's end, None where the records count through no loop (three positions at
    least: two say little of an interval).

    A loop's end is where its records have shown it to be: ``M`` where a record reached
    ``M/M``; else, where the loop has restarted, the furthest position it printed (a loop
    logged every 10 of 46 ends at ``44/46``); else within one logging interval of ``M``.
    A progress bar names its loop itself: a last bar drawn short of 100% that is its file's
    last line is inside it. A loop that logs each epoch's end ("epoch 6 done") and whose last
    record is of a later epoch than the last it closed stopped inside that epoch."""
    # a progress bar names its loop itself: its last drawn state short of 100%, with nothing
    # printed after it in its file, is where the stream froze
    final_text = records[-1]["message"] or ""
    bar = _BAR_PERCENT.search(final_text)
    if (bar and int(bar.group(1)) < 100 and records[-1].get("file_last")
            and any(int(n) < int(m) for n, m in _POSITION.findall(final_text))):
        return True
    # a loop that logs each epoch's end: a last record of a later epoch than the last one
    # closed (two closed at least) stopped inside that epoch
    closed = [int(m.group(1)) for r in records if (m := _EPOCH_END.search(r["message"] or ""))]
    last_epoch = _EPOCH_NUMBER.search(final_text)
    if len(closed) >= 2 and last_epoch and not _EPOCH_END.search(final_text) and int(last_epoch.group(1)) > max(closed):
        return True
    seen: dict[tuple[int, int], list[int]] = defaultdict(list)  # (position in line, M) -> the Ns, in order
    for r in records:
        for i, m in enumerate(_POSITION.finditer(r["message"] or "")):
            seen[(i, int(m.group(2)))].append(int(m.group(1)))
    loops = {key: ns for key, ns in seen.items() if len(set(ns)) >= MIN_POSITIONS and 1 < key[1] >= max(ns)}
    if not loops:
        return None
    final = [(i, int(m.group(1)), int(m.group(2))) for i, m in enumerate(_POSITION.finditer(records[-1]["message"] or ""))]
    return any((i, total) in loops and n < _loop_end(loops[(i, total)], total) for i, n, total in final)


def _loop_end(ns: list[int], total: int) -> int:
    if total in ns:
        return total
    if any(b < a for a, b in pairwise(ns)):  # it restarted: its furthest position is where it ends
        return max(ns)
    xs = sorted(set(ns))
    interval = min(b - a for a, b in pairwise(xs))
    return total - interval + 1  # the last position a loop logged every ``interval`` may print


# an epoch counter: "Epoch 3/3", "epoch: 3/3", "Epoch [3/3]" (not "Epoch: 100%")
_EPOCH = re.compile(r"(?i)\bepoch\b\W{0,3}(\d{1,6})\s*/\s*(\d{1,6})(?![\w/.:-])")
_BAR_FULL = re.compile(r"\b100%\|")


def _at_end(message: str) -> bool:
    """Does this record stand at the end of every loop it counts (a full bar, or each
    ``N/M`` at ``M`` or, counted from zero, ``M-1``)?"""
    if _BAR_FULL.search(message):
        return True
    return all(int(n) >= int(m) - 1 for n, m in _POSITION.findall(message))


def finished_loop(con: duckdb.DuckDBPyConnection) -> dict | None:
    """The last record of a run every counted stream of which finished its last epoch
    (see the module's docstring), or None."""
    recs = rows(con, f"""
        SELECT coalesce('rank ' || rank, file) AS stream, file, rank, line_no, message, ts_aligned
        FROM events WHERE kind IN ({sql_list(COUNTED_PROGRESS)})
        QUALIFY row_number() OVER (PARTITION BY stream ORDER BY ts_aligned DESC NULLS LAST, file DESC,
                                   line_no DESC) <= {LAST_RECORDS}
        ORDER BY stream, ts_aligned NULLS FIRST, file, line_no""")
    streams: dict[str, list[dict]] = defaultdict(list)
    for r in recs:
        streams[r["stream"]].append(r)
    last = None
    for records in streams.values():
        with_epoch = [i for i, r in enumerate(records) if _EPOCH.search(r["message"] or "")]
        if not with_epoch:
            return None
        final = records[with_epoch[-1]]
        epoch, epochs = (int(x) for x in _EPOCH.search(final["message"]).groups())
        if epoch != epochs or epochs < 1 or not all(_at_end(r["message"] or "") for r in records[with_epoch[-1]:]):
            return None
        last = records[-1]
    return last


# a stream's lines read for its cadence (its last ones), the lines a stream needs to have one,
# and how many different texts of the same shape make a line one more of a repeated record.
# (A few lines pasted to show that training went on after a warning are the paste's point, and
# the evidence of a benign warning; a stream of twenty lines or more that ends in its loop
# is a run's log cut off.)
CADENCE_LINES = 400
CADENCE_MIN_LINES = 20
CADENCE_VARIANTS = 3


def ends_in_cadence(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the logs stop in the middle of their own rhythm: every stream (a file's
    lines of one rank, or of no rank) that ends on an informational line ends on one more
    of a record it printed again and again with a moving number (`epoch 61 done, mean loss
    0.0016`, `epoch 14 step 960: val_loss 0.1578`), and at least one does.

    A run that ended prints something once at its end (a final evaluation, `finished 60
    steps`, a saved model, a summary); a snapshot of a running job, or a job killed without
    a word, ends where its loop happened to be. Streams that end on a warning or an error
    say nothing either way, nor do streams of a few lines."""
    n_streams, n_cadence = con.execute(f"""
        WITH tail AS (
            SELECT file, rank, line_no, level, message
            FROM events WHERE message IS NOT NULL
            QUALIFY row_number() OVER (PARTITION BY file, rank ORDER BY line_no DESC) <= {CADENCE_LINES}
        ),
        -- (shaped after the cut: a large job's every line is not worth a regular expression here)
        s AS (SELECT *, regexp_replace(message, '[0-9]+', '#', 'g') AS shape FROM tail),
        last AS (
            SELECT file, rank, arg_max(shape, line_no) AS shape, arg_max(coalesce(level, 'INFO'), line_no) AS level,
                   count(*) AS n
            FROM s GROUP BY file, rank
        ),
        judged AS (
            SELECT l.file, l.rank,
                   (SELECT count(DISTINCT s.message) FROM s
                    WHERE s.file = l.file AND s.rank IS NOT DISTINCT FROM l.rank AND s.shape = l.shape) AS variants
            FROM last l
            WHERE l.n >= {CADENCE_MIN_LINES} AND l.level NOT IN ('WARNING', 'ERROR', 'CRITICAL')
        )
        SELECT count(*), count(*) FILTER (WHERE variants >= {CADENCE_VARIANTS}) FROM judged""").fetchone()
    return bool(n_streams) and n_cadence == n_streams


# a line that reports a signal, a kill or a cancellation (a worker's own handler, a
# launcher, a wrapper, a scheduler): whatever stopped every rank at once left this trace
_SIGNAL_TRACE_SQL = (r"(?i)\bSIG(?:TERM|KILL|INT|HUP|USR[12])\b|\bsignal[ :]+(?:2|9|15)\b|\bkilled\b"
                     r"|\bterminated\b|\bcancell?ed\b|\bpreempt|\btime ?limit\b"
                     r"|\bexit(?:ed)?(?: with)?(?: code| status)?[ :=]*(?:124|137|143)\b")


def signal_trace(con: duckdb.DuckDBPyConnection) -> dict | None:
    """The first line that reports a signal, a kill or a cancellation, or None."""
    found = rows(con, "SELECT * FROM events WHERE regexp_matches(message, ?) "
                      "ORDER BY ts_aligned NULLS LAST, file, line_no LIMIT 1", [_SIGNAL_TRACE_SQL])
    return found[0] if found else None
