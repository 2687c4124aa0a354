"""Stage 1: log files in, the timeline out.

Reads: the files under the target (``parsers/`` says what each line means).
Writes: the timeline (``correlator.timeline``): one Parquet file or DuckDB table.
May import: ``correlator.timeline``, ``correlator.output``, ``parsers``. Never the
analysis, the reports, batch or the CLI.

The stages, in data-flow order, one module each:

    discover    files under the target (plain, compressed, archives, stdin), what to skip
    read        bytes -> lines, in batches (invalid UTF-8 replaced, huge lines cut)
    json_records  a line that is one JSON log record -> its message, time, level, rank
    demux       launcher prefixes -> rank / local rank / node / task of each line
    timestamps  any known stamp format -> UTC; lines without one are estimated later
    fold        multi-line events (tracebacks, tables, nvidia-smi blocks) -> one event
    classify    each event's source, level, kind and attributes (``parsers/``)
    templates   each event's message with its variable parts masked
    attribute   rank and node from the path, then from what the job says (attribute.sql)

Around them: ``pipeline`` runs the stages over every file and writes the
timeline (``ingest``), ``workers`` is the process pool the files are parsed in,
``polars_thread`` keeps Polars calls on one thread per worker, ``hex_shapes``
matches lines by shape, and ``parquet_concat`` joins the workers' Parquet parts
into one file.

Public entry points (imported lazily, so that ``correlator.ingest.workers`` can
start without loading the parser): ``ingest``, ``IngestOptions``,
``IngestResult``, ``NothingToRead``, ``lines_as_events`` (these lines, as
events: for rule examples and tests), ``AppendParser`` (the per-file stages over
lines as they are appended to followed files: ``correlator watch``) and
``start_early`` (spawn the parsing workers now, for the next ingest in this
process to take).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from correlator.ingest.pipeline import (
        AppendParser,
        IngestOptions,
        IngestResult,
        NothingToRead,
        ingest,
        lines_as_events,
    )
    from correlator.ingest.workers import start_early

__all__ = ["AppendParser", "IngestOptions", "IngestResult", "NothingToRead", "ingest", "lines_as_events", "start_early"]


def __getattr__(name: str) -> Any:
    if name in ("IngestOptions", "NothingToRead"):  # named by every command: without Polars
        from correlator.ingest import options

        return getattr(options, name)
    if name == "start_early":  # the standard library only
        from correlator.ingest import workers

        return workers.start_early
    if name in __all__:
        from correlator.ingest import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'correlator.ingest' has no attribute {name!r}")
