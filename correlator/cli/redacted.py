"""``correlator ingest --redact``: the timeline with its secrets masked.

Ingest keeps the logs' text as it is (a timeline is a copy of the logs, for the
people who may read them). With ``--redact`` the raw timeline goes to a private
scratch directory and what lands at ``--out`` / ``--db`` is its masked rewrite,
the same as a batch writes to its shared folder (``report.redact.redact_parquet``:
one pass over the text columns finds whether anything needs masking; a timeline
with no secret is moved into place as it was written, not rewritten).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from correlator.ingest import IngestOptions, ingest


def ingest_redacted(target: str, out: str | None, db: str | None, options: IngestOptions, engine=None):
    from correlator.ingest.pipeline import write_duckdb_from
    from correlator.report.redact import redact_parquet
    from correlator.target import open_timeline

    # beside the output for an engine off this machine: its workers write the parts there
    near = str(Path(out or db).resolve().parent) if engine is not None and engine.name != "local" else None
    with tempfile.TemporaryDirectory(prefix=".correlator-redact-", dir=near) as scratch:
        raw = Path(scratch) / "raw.parquet"
        result = ingest(target, out_parquet=raw, options=options, engine=engine)
        masked = Path(out) if out else Path(scratch) / "masked.parquet"
        redact_parquet(raw, masked, move=True)  # raw is scratch: renamed into place when it holds no secret
        if db:
            with open_timeline(str(masked), safe=False) as con:
                write_duckdb_from(con, db)
    return result
