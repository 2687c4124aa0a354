"""The read path of Flight Recorder dumps: a whole binary file -> event rows.

Logs are read line by line (``read.py``); a dump is one pickle (or JSON) that
only means something whole, so it is read here, bounded by
``parsers.flight_recorder.MAX_DUMP_BYTES``, loaded without running code and
turned into the same columns a log's events have (``pipeline._raw_events``'s,
plus shape and template), ready for the part writer. A file that turns out
not to be a dump, or not to load, is one problem naming it; the job goes on.
"""

from __future__ import annotations

import polars as pl

from correlator.ingest.attribute import facts_from_path
from correlator.ingest.classify import ATTR_TYPE
from correlator.ingest.discover import DamagedStream, InputFile
from correlator.ingest.templates import templates
from correlator.timeline.problems import Problem, ProblemLog
from correlator.timeline.shapes import digit_shapes
from parsers import flight_recorder as fr


def read_bounded(f: InputFile, limit: int) -> bytes:
    """Up to ``limit`` + 1 decompressed bytes of ``f`` (one more says it was longer)."""
    chunks, n = [], 0
    with f.open() as stream:
        while n <= limit:
            b = stream.read(min(1 << 20, limit + 1 - n))
            if not b:
                break
            chunks.append(b)
            n += len(b)
    return b"".join(chunks)


def fr_events(f: InputFile, job: str, problems: ProblemLog) -> pl.DataFrame | None:
    """``f``'s events (one per entry and one for the dump), or None with a problem."""
    try:
        data = read_bounded(f, fr.MAX_DUMP_BYTES)
    except (OSError, DamagedStream) as e:
        problems.add(Problem(f.rel, f"flight-recorder dump cannot be read: {e}", "skipped"))
        return None
    if len(data) > fr.MAX_DUMP_BYTES:
        problems.add(Problem(f.rel, f"pickle/JSON larger than {fr.MAX_DUMP_BYTES >> 20} MiB, "
                                    "more than any flight-recorder dump", "skipped"))
        return None
    try:
        dump = fr.load_dump(data)
    except fr.NotAFlightRecorderDump as e:
        problems.add(Problem(f.rel, f"not a flight-recorder dump: {e}", "skipped"))
        return None
    rows = fr.dump_rows(dump)
    # the name's trailing digits (torch's own convention), else what the path says
    rank = fr.rank_from_name(f.rel)
    if rank is None:
        rank = facts_from_path(f.rel).rank
    if rank is None:
        problems.add(Problem(f.rel, "flight-recorder dump whose name ends in no rank number "
                                    "(torch writes <prefix><rank>)", "read without a rank"))
    n = len(rows)
    messages = pl.Series("message", [r.message for r in rows], dtype=pl.Utf8)
    shapes, codes = digit_shapes(messages)
    return pl.DataFrame(
        {
            "job": [job] * n, "node": pl.Series([None] * n, dtype=pl.Utf8),
            "rank": pl.Series([rank] * n, dtype=pl.Int32), "local_rank": pl.Series([None] * n, dtype=pl.Int32),
            "pid": pl.Series([None] * n, dtype=pl.Int32), "source": [fr.SOURCE] * n, "file": [f.rel] * n,
            "line_no": pl.Series([r.line_no for r in rows], dtype=pl.Int64),
            "ts": pl.Series([r.ts for r in rows], dtype=pl.Datetime("us", "UTC")),
            "ts_estimated": [r.ts_estimated for r in rows], "level": [r.level for r in rows],
            "template": templates(messages, shapes, codes), "message": messages,
            "attrs": pl.Series([[{"key": k, "value": v} for k, v in r.attrs.items()] for r in rows],
                               dtype=ATTR_TYPE),
            "line_end": pl.Series([r.line_no for r in rows], dtype=pl.Int64),
            "kind": [r.kind for r in rows], "task": pl.Series([None] * n, dtype=pl.Int32),
            "node_alias": pl.Series([facts_from_path(f.rel).node] * n, dtype=pl.Utf8),
            "ts_year": pl.Series([None] * n, dtype=pl.Int32), "part": pl.Series([0] * n, dtype=pl.Int32),
            "host_attr": pl.Series([None] * n, dtype=pl.Utf8),
        }
    )
