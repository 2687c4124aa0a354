"""A run that stopped short of its own stated end, with no error and no completion.

Step lines that state their total (``step 83/400``) say where the run meant to go.
When every rank's progress stops short of it, nothing failed in the logs and
nothing completed, the logs did not end because the run did: the processes were
stopped. Where two or more ranks stopped at the same moment (their last lines
within a few of their own step intervals of each other), one thing stopped them
all from outside: a whole-job kill by the scheduler, a container's or cgroup's
SIGKILL, a ``timeout`` wrapper, which print nothing in the workers' logs. A lone
rank, or ranks that stopped at different times, only say the logs are incomplete.

A warning or a survived error earlier in such a run is no evidence that it
ended well (``decide._survived_anomalies`` would otherwise call it healthy).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import duckdb

from correlator.analysis.evidence import rows

# the ranks' last lines must fall within this many of the run's median step interval
# of each other (and within at least MIN_SPREAD_S seconds)
STEP_INTERVALS = 5
MIN_SPREAD_S = 5.0


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
