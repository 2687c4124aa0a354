"""One failure, many copies: reconcile them into one logical event before scoring.

A rank's failure is often printed several times: its own stderr (a ``--log-dir``
``stderr.log``, a rank file), its ``error.json`` (``@record``), the ``[defaultN]:``
echo of its stream in a ``--tee`` console, and the launcher's summaries of its
death (the ChildFailedError table, ``failed (exitcode: N) local_rank: R``). Which
of them a user collected must not change the verdict nor its confidence, so
``copies.sql`` groups them (same rank, same exception, overlapping stamp
intervals; a launcher summary with the rank's own report before it) and keeps one
primary per group: the worker's own report before its error.json before a
console's echo before the launcher's summary. The others leave the scoring:
their findings get role ``copy`` and they leave ``first_deviating_candidates`` and
``failure_evidence``, so a finding counts once per logical event and the root
evidence and first deviating line cite the worker's own report where there is one.

It also gives estimated stamps an interval (``stamp_bounds``, ``findings.ts_lo`` /
``ts_hi``): ingest stamps an unstamped line with its stream's previous stamp, a
lower bound that in a stderr.log ending in a traceback may be minutes early.

Three hooks (``analyze._verdict``): ``reconcile`` after the findings step (the
intervals and the copies, before deviation, inferences and outcome read the
findings; deviation.sql and outcome.sql read ``stamp_bounds`` to tell whether a
rank trained on after an error), ``reconcile_deviation`` and ``reconcile_outcome``
after those steps, to take the copies out of their tables.
"""

from __future__ import annotations

import re

import duckdb

from correlator.analysis.evidence import sql_file
from correlator.analysis.hypotheses import SIMULTANEOUS_S

# A worker may print its error this long before its launcher sees it exit (NCCL's
# abort, a process group's teardown, a dataloader's workers joining).
LAUNCHER_LAG_S = 600.0

_PARTS = re.compile(r"^-- @after_(?:deviation|outcome)$", re.MULTILINE)


def _part(k: int) -> str:
    sql = (sql_file("copies.sql").replace("$SIMULTANEOUS_S", repr(SIMULTANEOUS_S))
           .replace("$LAUNCHER_LAG_S", repr(LAUNCHER_LAG_S)))
    return _PARTS.split(sql)[k]


def reconcile(con: duckdb.DuckDBPyConnection) -> None:
    """Tables ``stamp_bounds``, ``copy_reports``, ``copies``, columns ``findings.ts_lo``
    / ``ts_hi``; the copies' findings get role ``copy`` (out of the scoring)."""
    con.execute(_part(0))


def reconcile_deviation(con: duckdb.DuckDBPyConnection) -> None:
    """Copies leave ``first_deviating_candidates``."""
    con.execute(_part(1))


def reconcile_outcome(con: duckdb.DuckDBPyConnection) -> None:
    """Copies leave ``failure_evidence``."""
    con.execute(_part(2))
