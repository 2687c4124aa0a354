"""JSON-lines log records: a line that is one JSON object is read by its fields.

Structured loggers write one object per line: Docker's json-file driver
(``{"log": "...\\n", "stream": "stderr", "time": "2024-...Z"}``), python-json-logger and
``logging.config.dictConfig`` JSON formatters (``{"asctime": ..., "levelname": ...,
"message": ...}``), structlog (``"event"``), journald's ``journalctl -o json``
(``"MESSAGE"``, ``"__REALTIME_TIMESTAMP"``), cloud log exports (``"textPayload"``), a
launcher that relays its children's streams as records (``{"ts": 1796595399.087, "src":
"rank1", "line": "..."}``). Read as text, such a line has its stamp, level and rank in
the middle of a quoted string and its message behind escapes, so nothing below reads it.

Here the record's message becomes the line's text (its escapes decoded, a message of
several lines one row per line, as a kept segment is), and its other fields the columns a
wrapper prefix fills (``correlator.ingest.demux``): the time is the line's wrapper stamp
(a number is seconds, milliseconds or microseconds since the epoch, by its size), the rank
and pid and host are the record's, and the level goes in ``record_level``, which classify
takes over a pattern's (a record logged at WARNING is a warning whatever its text). Like
lnav's JSON formats, the field names are declared, not guessed: a JSON line without one of
the message keys (a metrics dict, a config dump) is left as it is.
"""

from __future__ import annotations

import polars as pl

from correlator.ingest.demux import _split_rows as split_rows
from parsers import LEVEL_WORDS

# the first key present wins, in this order
MESSAGE_KEYS = ("log", "message", "msg", "MESSAGE", "line", "textPayload", "text", "event")
TIME_KEYS = ("time", "timestamp", "ts", "@timestamp", "asctime", "datetime", "__REALTIME_TIMESTAMP", "created")
LEVEL_KEYS = ("level", "levelname", "severity", "lvl", "loglevel", "log.level")
RANK_KEYS = ("rank", "global_rank", "RANK")
# a field naming the process that wrote the record, read for a rank only ("rank1", "rank-1")
SOURCE_KEYS = ("src", "source", "process", "processName", "proc", "worker")
PID_KEYS = ("pid", "process_id", "_PID")
HOST_KEYS = ("hostname", "host", "_HOSTNAME")

RECORD_LEVEL = "record_level"
_LEVELS = {k.upper(): v for k, v in LEVEL_WORDS.items()}
# journald's syslog priorities
_PRIORITIES = {"0": "CRITICAL", "1": "CRITICAL", "2": "CRITICAL", "3": "ERROR", "4": "WARNING",
               "5": "INFO", "6": "INFO", "7": "DEBUG"}


def _field(text: pl.Series, keys: tuple[str, ...], present: frozenset[str] | None = None) -> pl.Series:
    """The first of ``keys`` each record has, as a string; only the keys in ``present`` (the
    ones some record quotes at all) are looked up: each lookup parses every record again."""
    asked = [k for k in keys if present is None or k in present]
    if not asked:
        return pl.repeat(None, text.len(), dtype=pl.Utf8, eager=True)
    return pl.select(pl.coalesce([text.str.json_path_match(f"$['{k}']") for k in asked])).to_series()


_ALL_KEYS = (MESSAGE_KEYS + TIME_KEYS + LEVEL_KEYS + RANK_KEYS + SOURCE_KEYS + PID_KEYS + HOST_KEYS
             + ("PRIORITY",))


def _keys_present(records: pl.Series) -> frozenset[str]:
    """The field names any of ``records`` writes as a key (one Aho-Corasick pass)."""
    found = records.str.extract_many([f"\"{k}\"" for k in _ALL_KEYS], overlapping=True).explode().drop_nulls().unique()
    return frozenset(k[1:-1] for k in found.to_list())


def _stamp(raw: pl.Series) -> pl.Series:
    """A record's time as a stamp the timestamp reader knows: strings as they are, a number
    since the epoch (seconds, milliseconds or microseconds) as ISO 8601 in UTC."""
    number = raw.str.contains(r"^\d{9,17}(?:\.\d+)?$").fill_null(False)
    if not number.any():
        return raw
    value = raw.cast(pl.Float64, strict=False)
    micros = (pl.select(
        pl.when(value < 1e11).then(value * 1e6).when(value < 1e14).then(value * 1e3).otherwise(value)
    ).to_series().round(0).cast(pl.Int64))
    iso = pl.select(pl.from_epoch(micros, time_unit="us").dt.strftime("%Y-%m-%dT%H:%M:%S%.6fZ")).to_series()
    return pl.select(pl.when(number).then(iso).otherwise(raw)).to_series()


def unwrap_json_records(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` (``text``, ``part``, in file order) with each JSON record line replaced by its
    message and its fields in ``wrapper_ts``, ``rank``, ``pid``, ``host`` and
    ``RECORD_LEVEL`` (added, null elsewhere, only when some line is a record)."""
    text = df.get_column("text")
    maybe = text.str.starts_with("{")
    if not maybe.any():
        return df
    idx = maybe.arg_true()
    few = text.gather(idx).str.strip_chars_end()
    present = _keys_present(few)
    if present.isdisjoint(MESSAGE_KEYS):
        return df
    msg = pl.select(pl.when(few.str.ends_with("}")).then(_field(few, MESSAGE_KEYS, present))).to_series()
    # (a message that is an object of its own is a payload, not a log record's text: torchrun's
    # error.json, {"message": {"message": ..., "extraInfo": ...}}, is read as it is written)
    record = msg.is_not_null() & ~msg.str.starts_with("{")
    if not record.any():
        return df
    idx, few, msg = idx.filter(record), few.filter(record), msg.filter(record)
    present = _keys_present(few)

    level_word = _field(few, LEVEL_KEYS, present).str.to_uppercase()
    level = pl.select(pl.coalesce(
        level_word.replace_strict(_LEVELS, default=None, return_dtype=pl.Utf8),
        _field(few, ("PRIORITY",), present).replace_strict(_PRIORITIES, default=None, return_dtype=pl.Utf8),
    )).to_series()
    rank = pl.select(pl.coalesce(
        _field(few, RANK_KEYS, present).cast(pl.Int32, strict=False),
        _field(few, SOURCE_KEYS, present).str.extract(r"(?i)^rank[-_ ]?(\d{1,6})$", 1).cast(pl.Int32, strict=False),
    )).to_series()
    facts = {
        "wrapper_ts": (_stamp(_field(few, TIME_KEYS, present)), pl.Utf8),
        "rank": (rank, pl.Int32),
        "pid": (_field(few, PID_KEYS, present).cast(pl.Int32, strict=False), pl.Int32),
        "host": (_field(few, HOST_KEYS, present), pl.Utf8),
        RECORD_LEVEL: (level, pl.Utf8),
    }
    out = df.with_columns(text.scatter(idx, msg.str.strip_suffix("\n").str.strip_suffix("\r")))
    for name, (values, dtype) in facts.items():
        base = out.get_column(name) if name in out.columns else pl.repeat(None, out.height, dtype=dtype, eager=True)
        out = out.with_columns(base.cast(dtype).scatter(idx, values.cast(dtype)).alias(name))
    return _one_row_per_line(out, idx)


def _one_row_per_line(df: pl.DataFrame, idx: pl.Series) -> pl.DataFrame:
    """A message of several lines (a logged traceback) as one row per line, numbered as
    the parts of its line (demux's row split): the record's process on every row, its time
    and level on the first only (its later lines are the record going on, not records)."""
    several = df.get_column("text").gather(idx).str.contains("\n", literal=True)
    if not several.any():
        return df
    touched = pl.repeat(False, df.height, eager=True).scatter(idx.filter(several), True)
    out = split_rows(df, touched, df.get_column("text"))
    later = pl.col("part") > 0  # (every row's part is 0 before the split: json records are read first)
    return out.with_columns(pl.when(later).then(None).otherwise(pl.col(c)).alias(c) for c in ("wrapper_ts", RECORD_LEVEL))
