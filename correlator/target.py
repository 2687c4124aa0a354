"""Open a timeline for SQL: a Parquet file, a directory of Parquet parts
(``correlator.timeline.parts_dir``), a DuckDB file, or logs ingested on the fly.

Whatever the input, the connection has the same three views: ``events`` (the
timeline), ``files`` (one row per input file) and ``problems`` (every input
problem and what was done about it).

Once the views exist the connection is locked down (``lock_down``): it reads the
timeline's own files and nothing else, loads no extension and reaches no network,
and no statement can turn that back on. So neither ``correlator sql`` nor a rule's
``sql:`` condition can read ``/etc/shadow`` or fetch a URL; ``sql --unsafe`` opens
the timeline without the lock.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pyarrow as pa

from correlator.ingest import IngestOptions, ingest
from correlator.timeline.collection import (
    SUMMARY_FILE,
    TIMELINES_DIR,
    is_collection,
    open_collection,
)
from correlator.timeline.parts_dir import is_timeline_dir, read_timeline_dir
from correlator.timeline.problems import PROBLEM_SCHEMA
from correlator.timeline.schema import FILE_SCHEMA, SCHEMA_VERSION, sql_literal

_PARQUET_MAGIC = b"PAR1"
_DUCKDB_MAGIC = b"DUCK"


# The events, each after its position in the timeline's storage (`event_row`):
# a filter on positions lets DuckDB skip the pages of rows it does not want.
ROWS_VIEW = "event_rows"


class NotATimeline(Exception):
    pass


# DuckDB's default is 80% of RAM: a 3 a.m. analysis must not take the machine down.
MEMORY_LIMIT = "2GB"


def connect() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with bounded memory that spills to a temp dir.

    Extensions are neither installed nor loaded on their own (a query naming
    ``https://`` would otherwise fetch httpfs); the ones built in (parquet, json,
    icu) are all a timeline needs."""
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    con.execute("SET enable_progress_bar = false")  # stderr belongs to our own warnings
    # analyze queries one timeline file some forty times: its footer is parsed once
    con.execute("SET parquet_metadata_cache = true")
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    con.execute(f"SET temp_directory = '{tempfile.gettempdir()}/correlator-duckdb-spill'")
    return con


def lock_down(con: duckdb.DuckDBPyConnection, paths: list[str]) -> None:
    """No file but ``paths`` (the timeline's own), no network, no extension loading,
    and the configuration locked so that no statement can turn them back on.

    DuckDB's allowed paths can be written as well as read: a ``COPY ... TO`` one of
    them is refused by the caller (``correlator sql`` runs read statements only)."""
    if paths:
        con.execute("SET allowed_paths = [" + ", ".join(sql_literal(p) for p in paths) + "]")
    con.execute("SET enable_external_access = false")
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET allow_community_extensions = false")
    con.execute("SET lock_configuration = true")


def kind_of(target: str) -> str:
    """'parquet', 'parts' (a directory of Parquet parts), 'duckdb' or 'logs' (anything
    ingest can read)."""
    if target == "-":
        return "logs"
    p = Path(target)
    if p.is_dir() and is_timeline_dir(p):
        return "parts"
    if p.is_file():
        with p.open("rb") as fh:
            head = fh.read(16)
        if head[:4] == _PARQUET_MAGIC:
            return "parquet"
        if head[8:12] == _DUCKDB_MAGIC:
            return "duckdb"
    return "logs"


def _attach_parquet(con: duckdb.DuckDBPyConnection, path: str) -> None:
    meta = {
        row[0].decode() if isinstance(row[0], bytes) else row[0]: row[1]
        for row in con.execute(
            f"SELECT key, value FROM parquet_kv_metadata({sql_literal(path)})"
        ).fetchall()
    }
    con.execute(f"CREATE VIEW events AS SELECT * FROM read_parquet({sql_literal(path)})")
    con.execute(f"CREATE VIEW {ROWS_VIEW} AS SELECT file_row_number AS event_row, * FROM read_parquet({sql_literal(path)})")
    _attach_metadata(con, path, meta)


def _attach_parts(con: duckdb.DuckDBPyConnection, path: str) -> list[str]:
    """Views over a timeline directory (``correlator.timeline.parts_dir``); its part paths.

    ``event_row`` is a row's position in the timeline as the single file would hold it
    (the rows of the parts before its own, plus its row in its part), so it means the
    same thing in both layouts."""
    tl = read_timeline_dir(path)
    parts = [str(p) for p in tl.parts]
    files = "[" + ", ".join(sql_literal(p) for p in parts) + "]"
    bases = [0]
    for n in tl.rows[:-1]:
        bases.append(bases[-1] + n)
    con.execute(f"CREATE VIEW events AS SELECT * FROM read_parquet({files})")
    con.execute(f"CREATE VIEW {ROWS_VIEW} AS SELECT list_extract(CAST({bases} AS BIGINT[]), CAST(file_index AS BIGINT) + 1) + file_row_number "
                f"AS event_row, "
                f"* FROM read_parquet({files})")
    _attach_metadata(con, path, tl.metadata)
    return parts


def _attach_metadata(con: duckdb.DuckDBPyConnection, path: str, meta: dict) -> None:
    """Tables ``files`` and ``problems`` from a timeline's key-value metadata (its
    Parquet footer's, or a parts directory's ``_correlator.json``)."""
    version = meta.get("correlator.schema_version")
    if version is not None:
        version = version.decode() if isinstance(version, bytes) else version
        if int(version) > SCHEMA_VERSION:
            raise NotATimeline(
                f"{path} has timeline schema {version}; this correlator reads up to {SCHEMA_VERSION}"
            )
    for name, schema in (("files", FILE_SCHEMA), ("problems", PROBLEM_SCHEMA)):
        raw = meta.get(f"correlator.{name}")
        rows = json.loads(raw.decode() if isinstance(raw, bytes) else raw) if raw else []
        con.register(f"_{name}", pa.Table.from_pylist(rows, schema=schema))
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM _{name}")
        con.unregister(f"_{name}")


def _collection_paths(out_dir: str) -> list[str]:
    out = Path(out_dir)
    return [str(out / SUMMARY_FILE), *(str(p) for p in (out / TIMELINES_DIR).glob("*.parquet"))]


def _damaged(target: str, kind: str, exc: Exception) -> NotATimeline:
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return NotATimeline(f"{target}: not a readable {kind} timeline (damaged or truncated?): {first}")


@contextmanager
def open_timeline(
    target: str, options: IngestOptions | None = None, *, safe: bool = True
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A DuckDB connection with ``events``, ``files`` and ``problems`` for ``target``,
    locked down (``lock_down``) unless ``safe`` is false."""
    kind = kind_of(target)
    con = connect()
    scratch = None
    try:
        if kind == "logs" and target != "-" and Path(target).is_dir() and is_collection(target):
            try:  # a batch output: summary + every job's timeline
                open_collection(con, target)
            except (duckdb.Error, pa.ArrowException, ValueError, OSError) as exc:
                raise _damaged(target, "batch output", exc) from exc
            paths = _collection_paths(target)
        elif kind == "parts":
            try:
                paths = _attach_parts(con, target)
                con.execute("SELECT 1 FROM events LIMIT 1").fetchall()
            except (duckdb.Error, ValueError, OSError) as exc:  # (pydantic's ValidationError is a ValueError)
                raise _damaged(target, "Parquet parts", exc) from exc
        elif kind == "duckdb":
            try:
                con.execute(f"ATTACH {sql_literal(target)} AS tl (READ_ONLY)")
                for name in ("events", "files", "problems"):
                    con.execute(f"CREATE VIEW {name} AS SELECT * FROM tl.{name}")
                con.execute(f"CREATE VIEW {ROWS_VIEW} AS SELECT rowid AS event_row, * FROM tl.events")
            except duckdb.Error as exc:
                raise _damaged(target, "DuckDB", exc) from exc
            paths = []  # attached already: the lock leaves it readable, and read-only
        else:
            path = target
            if kind == "logs":
                scratch = tempfile.mkdtemp(prefix="correlator-sql-")
                path = str(Path(scratch) / "timeline.parquet")
                ingest(target, out_parquet=path, options=options)
            try:
                _attach_parquet(con, path)
                con.execute("SELECT 1 FROM events LIMIT 1").fetchall()  # a damaged footer shows here, not later
            except (duckdb.Error, ValueError, json.JSONDecodeError) as exc:
                raise _damaged(target, "Parquet", exc) from exc
            paths = [path]
        if safe:
            lock_down(con, paths)
        yield con
    finally:
        con.close()
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
