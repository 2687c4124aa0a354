"""The timeline: the one contract between ingest and everything after it.

One row per event. Columns are those of ``DESIGN.md``; columns may be added but
never renamed without a migration note here. ``SCHEMA_VERSION`` is stored in the
Parquet metadata so readers can refuse a timeline they do not understand.
"""

from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = 1

# Sources every parser may emit; "app" is the job's own printing, "unknown" the rest.
SOURCES = (
    "nccl", "c10d", "torchrun", "deepspeed", "horovod", "accelerate", "transformers", "python",
    "nvidia_smi", "collect_env", "kernel", "slurm", "flight_recorder", "app", "unknown",
)
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

EVENT_SCHEMA = pa.schema(
    [
        ("job", pa.string()),
        ("node", pa.string()),
        ("rank", pa.int32()),
        ("local_rank", pa.int32()),
        ("pid", pa.int32()),
        ("source", pa.string()),
        ("file", pa.string()),
        ("line_no", pa.int64()),
        ("ts", pa.timestamp("us", tz="UTC")),
        ("ts_estimated", pa.bool_()),
        ("ts_aligned", pa.timestamp("us", tz="UTC")),
        ("level", pa.string()),
        ("template", pa.string()),
        ("message", pa.string()),
        ("attrs", pa.map_(pa.string(), pa.string())),
        # Added beyond DESIGN.md (allowed: "more may be added"):
        # last physical line of a folded event, so evidence can cite file:a-b
        ("line_end", pa.int64()),
        # the parser pattern that recognised the event (e.g. "c10d.watchdog_timeout")
        ("kind", pa.string()),
        # message with digits 1-9 written as 0 (correlator.timeline.shapes): a dictionary
        # column, so a substring test on it runs once per distinct shape, not per row
        ("shape", pa.string()),
        # the Slurm task of an `srun -l` labelled line (also attrs['task']): a column,
        # so a job without any is known from statistics, without reading attrs
        ("task", pa.int32()),
        # the node the file's path names (a directory such as node-1, a pod's worker-1.log),
        # kept beside `node`, which is the host where the logs name one
        ("node_alias", pa.string()),
    ]
)

COLUMN_DOCS = {
    "job": "job name (the analysed directory, or its subdirectory in batch mode)",
    "node": "the host the logs name (NCCL host:pid:tid header, torchrun's failure table host, a syslog "
            "kernel line's host, a pdsh prefix), else the node the file's path names (its directory); "
            "null when neither names one",
    "rank": "global rank; null for node-level files (dmesg, nvidia-smi, collect_env)",
    "local_rank": "rank within the node (torchrun [defaultN]:, --log-dir tree)",
    "pid": "process id of the printing process",
    "source": "log source: " + ", ".join(SOURCES),
    "file": "path relative to the analysed directory",
    "line_no": "1-based line of the event's first line in that file",
    "ts": "timestamp as printed, normalised to UTC",
    "ts_estimated": "true where ts was inferred from neighbouring lines",
    "ts_aligned": "ts after per-node clock-skew correction (equals ts until aligned)",
    "level": "DEBUG, INFO, WARNING, ERROR, CRITICAL",
    "template": "message with variable parts masked",
    "message": "the event's full text (all folded lines)",
    "attrs": "structured fields a parser extracted",
    "line_end": "last physical line of the event",
    "kind": "parser pattern that recognised the event, e.g. c10d.watchdog_timeout",
    "shape": "message with every digit 1-9 written as 0: contains(shape, 'text') equals "
             "contains(message, 'text') for digit-free text, and is far faster",
    "task": "Slurm task id of an srun -l / --label line (not a rank; also attrs['task'])",
    "node_alias": "the node the file's path names (a directory such as node-1, a pod's worker-1.log), "
                  "null where it names none; differs from node where the logs name the host. A node "
                  "no file's `hosts` lists is known by this name only, which names a machine only "
                  "within its job",
}

FILE_SCHEMA = pa.schema(
    [
        ("file", pa.string()),
        ("size", pa.int64()),
        ("compression", pa.string()),
        ("lines", pa.int64()),
        ("events", pa.int64()),
        ("sources", pa.list_(pa.string())),
        ("ranks", pa.list_(pa.int32())),
        ("nodes", pa.list_(pa.string())),
        ("problems", pa.int64()),
        # the hosts the file's own lines name (NCCL headers, torchrun's failure table,
        # syslog kernel lines, pdsh prefixes; `localhost` is no name): a node listed
        # here is a machine, one listed nowhere is only a directory's name
        ("hosts", pa.list_(pa.string())),
        # the world size the file's lines state (the largest NCCL communicator's nranks,
        # `world_size=4`, `rank 3 of 4`): the ranks a job should have, shown or not
        ("world_size", pa.int32()),
    ]
)


def sql_literal(s: str) -> str:
    """``s`` as a SQL string literal."""
    return "'" + s.replace("'", "''") + "'"
