"""Timeline rows as cited evidence, and the small helpers every analysis step shares."""

from __future__ import annotations

from importlib import resources

import duckdb

from correlator.timeline import kinds
from correlator.verdict import Evidence


def sql_file(name: str) -> str:
    """A named query of this package (``correlator/analysis/<name>``), with the kind
    groups of ``correlator.timeline.kinds`` written in where it names them (``$TRAINING_RECORDS``)."""
    text = resources.files("correlator.analysis").joinpath(name).read_text()
    return _with_kind_groups(text)


def _with_kind_groups(sql: str) -> str:
    for name in ("TRAINING_RECORDS", "METRIC_RECORDS", "STREAM_WENT_ON", "LAUNCHER_SAW_A_FAILURE"):
        sql = sql.replace(f"${name}", kinds.sql_list(getattr(kinds, name)))
    return sql


def cite(row: dict) -> Evidence:
    ts = row.get("ts_aligned") or row.get("ts")
    return Evidence(
        file=row["file"], line_no=row["line_no"], line_end=row.get("line_end"), rank=row.get("rank"),
        node=row.get("node"), ts=ts, ts_estimated=ts is not None and bool(row.get("ts_estimated")),
        text=row["message"],
    )


def rows(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict]:
    rel = con.execute(sql, params or [])
    cols = [d[0] for d in rel.description]
    return [dict(zip(cols, r, strict=True)) for r in rel.fetchall()]


def one(con: duckdb.DuckDBPyConnection, sql: str, params: list) -> tuple | None:
    rows = con.execute(sql, params).fetchall()  # fetched whole: the connection is reused
    return rows[0] if rows else None


def epoch(ts) -> float | None:
    return ts.timestamp() if ts is not None else None

