"""A directory of many jobs' timelines, as ``correlator batch`` writes it.

The layout lives here, below both its writer (``correlator.batch``) and its
readers (``correlator.target``), so that opening a timeline needs nothing of batch:

    OUT/summary.parquet          one row per job
    OUT/timelines/<job>.parquet  each job's timeline (``files`` and ``problems`` in its metadata)
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from correlator.timeline.problems import PROBLEM_SCHEMA
from correlator.timeline.schema import EVENT_SCHEMA, FILE_SCHEMA, sql_literal

SUMMARY_FILE = "summary.parquet"
TIMELINES_DIR = "timelines"


def timeline_path(out_dir: str | Path, job: str) -> Path:
    """Where the timeline of job ``job`` (a safe file name) lives in a collection."""
    return Path(out_dir) / TIMELINES_DIR / f"{job}.parquet"


def read_summary(out_dir: str | Path) -> list[dict]:
    """The summary rows of a collection, one per job."""
    return pq.read_table(Path(out_dir) / SUMMARY_FILE).to_pylist()


def is_collection(path: str | Path) -> bool:
    """Whether ``path`` is a directory of many jobs' timelines (``batch``'s output)."""
    return (Path(path) / SUMMARY_FILE).is_file()


def open_collection(con: duckdb.DuckDBPyConnection, out_dir: str | Path) -> None:
    """Views over a batch output directory on ``con``: ``summary`` (one row per job),
    ``events`` (every job's timeline, ``job`` column included), ``files`` and
    ``problems`` (every job's, with a ``job`` column)."""
    out = Path(out_dir)
    con.execute(f"CREATE VIEW summary AS SELECT * FROM read_parquet({sql_literal(str(out / SUMMARY_FILE))})")
    parts = sorted(p for p in (out / TIMELINES_DIR).glob("*.parquet") if not p.name.startswith("."))
    if parts:
        paths = "[" + ", ".join(sql_literal(str(p)) for p in parts) + "]"
        con.execute(f"CREATE VIEW events AS SELECT * FROM read_parquet({paths}, union_by_name = true)")
    else:
        con.register("_empty_events", EVENT_SCHEMA.empty_table())
        con.execute("CREATE TABLE events AS SELECT * FROM _empty_events")
        con.unregister("_empty_events")
    for name, schema in (("files", FILE_SCHEMA), ("problems", PROBLEM_SCHEMA)):
        rows: list[dict] = []
        for p in parts:
            meta = pq.read_schema(p).metadata or {}
            raw = meta.get(f"correlator.{name}".encode())
            job = p.name.removesuffix(".parquet")
            for item in json.loads(raw.decode()) if raw else []:
                rows.append({"job": job, **item})
        full = pa.schema([("job", pa.string()), *schema])
        con.register(f"_{name}", pa.Table.from_pylist(rows, schema=full))
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM _{name}")
        con.unregister(f"_{name}")
