"""Vectorised wall-clock timestamp extraction for log lines.

``parse_timestamps`` takes a column of log lines (wrapper prefixes such as
``[rank3]:`` or kubectl stamps already removed by the demux step) and returns,
row for row, the UTC timestamp the line carries, the name of the format it was
printed in, seconds-since-boot for raw dmesg lines, and whether the year had to
be assumed.

Design: dispatch cheaply, parse only candidates
------------------------------------------------
A GB of logs is ~10 million lines, so nothing here runs Python per line: every
step is a Polars column operation, and each expensive one runs only on the
rows that can match it.

1. **Family, from the first byte.** Every supported stamp is anchored at line
   start (or behind a fixed leader that is), so the first byte names a small
   family: ``[`` (DeepSpeed, NCCL, c10, HF Trainer, dmesg), a digit (ISO 8601 /
   Python logging, HF ``MM/DD/YYYY``, nvidia-smi CSV), an upper-case letter
   (glog, torch._logging, syslog, ctime, nvidia-smi ``Timestamp``, vLLM), a
   lower-case letter (``dmesg --decode``, slurmstepd) or a space (torchrun's
   ChildFailedError table). Lines in no family are done after one byte read.
2. **Format, from the first 12 bytes.** The first 12 bytes of every line are
   cut once, as binary. Polars keeps a value of at most 12 bytes inside the
   string view itself, so every later test on this head (bytes at fixed
   offsets: ``-`` at 4, ``/`` at 2 and 5, a digit after the level letter;
   short prefixes) reads no string buffer and costs a few ns per row. This
   picks the one format a line can be; most NCCL INFO lines, tracebacks and
   progress bars are rejected here. Given the lines' digit shapes (ingest has
   them), this choice is made once per distinct shape head instead, and the
   lines no format can take are not read at all (``_may_have_stamp``); the
   lines of shapes laid out as Python logging's asctime (most of a training
   log's stamped lines) go straight to that format's parse
   (``_asctime_shapes``), skipping the dispatch below.
3. **Parse the candidates.** A format's candidate rows are first copied into
   fresh, contiguous buffers: after filtering, string views still point all
   over the input's buffers and each pass over them was measured 5-10x slower
   than over a compact copy. Then fixed-width slices go to ``str.strptime``
   with formats that stay on Polars' fast parser (``,%3f`` / ``.%6f``; the
   chrono fallback of ``%.f``, ``%e`` or ``%a`` is ~5x slower). The strict
   parse of an exact-width slice is also the shape check. Regex capture groups
   (~200+ ns/row) are kept for rare or variable layouts, and as the fallback
   of a fast path for the rows it rejected.

Each parser returns row indices, the naive local time, an explicit UTC offset
when the stamp had one, and a format code. All parts are concatenated,
converted to UTC once (naive stamps read in ``tz``; explicit zones win), and
scattered back into full-length columns.

Conventions
-----------
* Fractions are kept to the microsecond and truncated (c10 prints nanoseconds
  of a *monotonic* clock, so even its microseconds are not wall-clock).
* Year-less formats (glog, torch._logging, c10, syslog, vLLM) take
  ``default_year``; a log that crosses New Year is not split here: the
  neighbour-based estimation downstream sees the jump. 29 February in a
  non-leap ``default_year`` gives null.
* A local time that does not exist (the hour skipped by a DST change) is read
  with the offset in force before the change, like Python's ``fold=0``; an
  ambiguous one (the repeated hour) takes the earlier instant.
* Stamps are anchored at line start, except behind fixed leaders (Trainer's
  ``[LEVEL|file:line] ``, nvidia-smi's ``Timestamp   : ``, slurmstepd's
  ``CANCELLED AT``, torchrun's ``time      : ``, dmesg's ``kern  :warn  : ``):
  numbers inside messages (``step 12:00``, IP addresses) are never read as
  times, and a stamp glued after a progress bar is not found.
"""

from __future__ import annotations

import datetime as _dt
import re
import zoneinfo
from collections.abc import Callable, Mapping

import polars as pl

__all__ = ["FORMATS", "YEARLESS_FORMATS", "parse_timestamps"]

#: Every ``ts_format`` value, with the shape it stands for (real lines and
#: their provenance: docs/formats, cited per format in the tests).
FORMATS: dict[str, str] = {
    "iso8601": "ISO 8601 / RFC 3339 at line start, optional fraction and zone",
    "python_logging": "Python logging asctime 'YYYY-MM-DD HH:MM:SS,mmm' at line start",
    "deepspeed": "'[YYYY-MM-DD HH:MM:SS,mmm] ' (DeepSpeed, torchrun 2.1-2.2)",
    "nccl": "'[YYYY-MM-DD HH:MM:SS(.f)] ' (NCCL >= 2.26; any other bracketed ISO)",
    "hf_us": "'MM/DD/YYYY HH:MM:SS - ' (HF / accelerate example scripts)",
    "trainer": "'[LEVEL|file.py:N] YYYY-MM-DD HH:MM:SS,mmm >> ' (HF Trainer)",
    "c10_glog": "'[E1206 18:44:12.715298746 file:N] ' (c10 C++ logger, year-less)",
    "torch_logging": "'W0801 13:23:17.366000 pid file.py:N] ' (torch._logging, year-less)",
    "glog": "'E0927 12:07:22.643702 tid file:N] ' (real glog, year-less)",
    "syslog": "'Nov 29 11:28:11 ' (syslog / journalctl, year-less)",
    "vllm": "'INFO 01-29 07:44:20 ' (vLLM logger, year-less)",
    "mdy_comma": "'May 18, 2020, 11:47:13: ' (a platform's own prefix)",
    "ctime": "'Wed Jul 29 21:51:11 2020' at line start (nvidia-smi table header)",
    "dmesg_T": "'[Fri Aug 30 11:43:09 2024] ' (dmesg -T / --ctime)",
    "dmesg_iso": "'kern  :warn  : 2025-01-21T04:41:44,283302+00:00 ' (dmesg --decode, iso)",
    "dmesg_raw": "'[14328.198496] ' (raw dmesg: boot_s only, no wall clock)",
    "nvsmi": "'Timestamp   : Thu Jun  6 08:39:56 2024' (nvidia-smi -q)",
    "nvsmi_csv": "'2026/05/28 10:00:00.000, ...' (nvidia-smi --query-gpu CSV)",
    "slurm": "'slurmstepd: error: *** JOB n ON host CANCELLED AT 2021-08-03T16:28:28 ***'",
    "torchrun_table": "'  time      : 2024-03-05_07:01:51' (ChildFailedError table)",
    "tagged": "'[titan] YYYY-MM-DD HH:MM:SS,mmm ' or 'LAUNCH INFO YYYY-MM-DD ...' (an app logger's own tag, then its stamp)",
    "ymond": "'2024-Jan-11 19:01:15.502423 ' (year, month name, day: AWS Neuron's runtime)",
    "svlogd": "'2026-12-07_01:40:09.80903 ' (runit's svlogd -tt, in UTC: '_' between date and time)",
}
_NAMES: tuple[str, ...] = tuple(FORMATS)
_CODE: dict[str, int] = {name: code for code, name in enumerate(_NAMES)}

#: Formats whose stamp has no year: their rows get ``ts_needs_year``.
YEARLESS_FORMATS: frozenset[str] = frozenset(
    {"c10_glog", "torch_logging", "glog", "syslog", "vllm"}
)

_HEAD = 12  # longest string Polars keeps inline in the view (no buffer read)

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MON_RE = "(?:" + "|".join(_MONTHS) + ")"
_DAY_RE = "(?:" + "|".join(_WEEKDAYS) + ")"
# Severity letters: glog and c10 print I W E F (c10 also V); torch._logging
# maps DEBUG to V and CRITICAL to C.
_LEVELS = "IWEFVC"
_PY_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# [0-9], not \d: Rust's \d is Unicode-aware and would accept e.g. Arabic-Indic digits.
_D2 = "[0-9]{2}"
_HMS = f"{_D2}:{_D2}:{_D2}"
_DATE = f"[0-9]{{4}}-{_D2}-{_D2}"
# ISO 8601 core with named parts; the zone must follow the time directly so a
# number later in the message is never taken for an offset.
_ISO = (
    f"(?<d>{_DATE})(?<sep>[Tt ])(?<t>{_HMS})"
    r"(?:(?<fs>[.,])(?<f>[0-9]{1,9}))?"
    rf"(?<z>[Zz]|[+-]{_D2}(?::?{_D2})?)?"
)
# ctime / asctime: the day of month is space-padded ("Jun  6").
_CTIME = f"{_DAY_RE} {_MON_RE} [ 0-9][0-9] {_HMS} [0-9]{{4}}"

_RESULT_SCHEMA: dict[str, pl.DataType] = {
    "i": pl.UInt32(),
    "local": pl.Datetime("us"),
    "off": pl.Int32(),
    "code": pl.UInt8(),
    "boot": pl.Float64(),
}

Handler = Callable[[pl.DataFrame, "_Ctx"], list[pl.DataFrame]]


class _Ctx:
    """Per-call settings the parsers need."""

    __slots__ = ("year",)

    def __init__(self, year: int) -> None:
        self.year = f"{year:04d}"


# ---------------------------------------------------------------------------
# expression helpers
#
# Frames handed around have columns ``i`` (row in the input), ``line`` and
# ``h`` (the line's first _HEAD bytes); parsers also get ``b`` (``line`` as
# binary, for byte reads past the head).


def _hbyte(k: int) -> pl.Expr:
    """Byte ``k`` (< _HEAD) of the line, read from the inline head.

    It names a column ``_h<k>`` that ``_with_head_bytes`` adds before the
    expression runs: an eager select evaluates each occurrence of a repeated
    sub-expression again, and a dispatch key tests the same byte many times.
    """
    return pl.col(f"_h{k}")


def _with_head_bytes(d: pl.DataFrame, *exprs: pl.Expr) -> pl.DataFrame:
    """``d`` plus the ``_h<k>`` byte columns that ``exprs`` read and ``d`` lacks."""
    names = {n for e in exprs for n in e.meta.root_names()}
    missing = sorted(n for n in names if n.startswith("_h") and n not in d.columns)
    # A line too short gives null; null compares to null, which every filter
    # and when() treats as "no".
    return d.with_columns(
        pl.col("h").bin.get(int(n[2:]), null_on_oob=True).alias(n) for n in missing
    )


def _head_starts(*prefixes: str) -> pl.Expr:
    """The line starts with one of ``prefixes`` (each at most _HEAD bytes)."""
    h = pl.col("h").bin
    return pl.any_horizontal(h.starts_with(p.encode()) for p in prefixes)


def _byte(k: int | pl.Expr) -> pl.Expr:
    """Byte ``k`` of the (compacted) line."""
    return pl.col("b").bin.get(k, null_on_oob=True)


def _is_digit(e: pl.Expr) -> pl.Expr:
    return e.is_between(ord("0"), ord("9"))


def _is_upper(e: pl.Expr) -> pl.Expr:
    return e.is_between(ord("A"), ord("Z"))


def _is_lower(e: pl.Expr) -> pl.Expr:
    return e.is_between(ord("a"), ord("z"))


def _eq(e: pl.Expr, ch: str) -> pl.Expr:
    return e == ord(ch)


def _one_of(e: pl.Expr, chars: str) -> pl.Expr:
    return e.is_in([ord(c) for c in chars])


def _not_digit_or_end(e: pl.Expr) -> pl.Expr:
    # A fixed-width slice is the whole stamp only if the next byte does not
    # continue it (a longer fraction, a seventh digit).
    return e.is_null() | ~_is_digit(e)


def _strp(e: pl.Expr, fmt: str) -> pl.Expr:
    # cache=False: log stamps are nearly all distinct, and the per-call cache
    # made a parse ~3x slower in measurements.
    return e.str.strptime(pl.Datetime("us"), fmt, strict=False, cache=False)


def _frac6(f: pl.Expr) -> pl.Expr:
    # Truncate (not round) to microseconds, right-pad shorter fractions:
    # "123" -> "123000", "715298746" -> "715298"; no fraction -> zeros.
    return f.str.slice(0, 6).str.pad_end(6, "0").fill_null("000000")


def _local(date: pl.Expr, time: pl.Expr, frac: pl.Expr | None, date_fmt: str) -> pl.Expr:
    """Naive datetime from separately captured date, HH:MM:SS and fraction."""
    if frac is None:
        return _strp(pl.concat_str([date, pl.lit(" "), time]), f"{date_fmt} %H:%M:%S")
    return _strp(
        pl.concat_str([date, pl.lit(" "), time, pl.lit("."), _frac6(frac)]),
        f"{date_fmt} %H:%M:%S.%6f",
    )


def _ctime_local(c: pl.Expr) -> pl.Expr:
    """Naive datetime of a ctime string already checked against ``_CTIME``."""
    # The weekday is redundant, and "%a" / "%e" would leave the fast parser;
    # "%d" accepts the space-padded day ("Jun  6").
    return _strp(c.str.slice(4, 20), "%b %d %H:%M:%S %Y")


def _offset_minutes(z: pl.Expr) -> pl.Expr:
    """Explicit UTC offset in minutes from Z / +hh / +hhmm / +hh:mm; null if naive."""
    hours = z.str.slice(1, 2).cast(pl.Int32, strict=False)
    minutes = pl.when(z.str.len_bytes() >= 5).then(z.str.slice(-2).cast(pl.Int32, strict=False))
    total = hours * 60 + minutes.otherwise(0)
    return (
        pl.when(z.is_in(["Z", "z"]))
        .then(pl.lit(0, pl.Int32))
        .when(z.str.starts_with("-"))
        .then(-total)
        .otherwise(total)
    )


def _result(
    d: pl.DataFrame,
    local: pl.Expr,
    code: str | pl.Expr,
    off: pl.Expr | None = None,
) -> pl.DataFrame:
    """The rows of ``d`` that parsed, in the common result schema."""
    code_expr = pl.lit(_CODE[code]) if isinstance(code, str) else code
    off_expr = (pl.lit(None) if off is None else off).cast(pl.Int32)
    return (
        _with_head_bytes(d, local, code_expr, off_expr)
        .select(
            pl.col("i"),
            local.alias("local"),
            off_expr.alias("off"),
            code_expr.cast(pl.UInt8).alias("code"),
            pl.lit(None, pl.Float64).alias("boot"),
        )
        .filter(pl.col("local").is_not_null())
    )


_GROUP = re.compile(r"\(\?<(\w+)>")


def _extract(d: pl.DataFrame, pattern: str) -> pl.DataFrame:
    """``d`` plus the regex's named groups as columns, only the rows that matched.

    The names are stripped before Polars sees the pattern: unnamed groups were
    measured 2x faster. By convention the first group is mandatory, so it is
    non-null exactly on the rows that matched.
    """
    names = _GROUP.findall(pattern)
    groups = pl.col("line").str.extract_groups(_GROUP.sub("(", pattern))
    fields = [groups.struct.field(str(k + 1)).alias(name) for k, name in enumerate(names)]
    return d.with_columns(fields).filter(pl.col(names[0]).is_not_null())


def _compact(d: pl.DataFrame) -> pl.DataFrame:
    """Copy the lines of ``d`` into fresh contiguous buffers; add ``b``.

    A filtered string-view column still points into the whole input's
    buffers, so each later pass over it is a cache miss per row; one copy made
    the passes that follow 5-10x cheaper in measurements.
    """
    line = pl.Series("line", d["line"].to_arrow())
    return d.with_columns(line, line.cast(pl.Binary).alias("b"))


def _dispatch(
    d: pl.DataFrame, key: pl.Expr, parsers: Mapping[int, Handler], ctx: _Ctx
) -> list[pl.DataFrame]:
    """Split ``d`` by a small integer key (null: no format) and parse each part."""
    keyed = _with_head_bytes(d, key).with_columns(key.alias("_k"))
    # only the keys that occur (usually one: a log stamps its lines one way)
    present = keyed.get_column("_k").unique().to_list()
    parts: list[pl.DataFrame] = []
    for k, parse in parsers.items():
        if k not in present:
            continue
        sub = keyed if present == [k] else keyed.filter(pl.col("_k") == k)
        parts.extend(parse(_compact(sub.drop("_k")), ctx))
    return parts


Stage = tuple[pl.Expr, str | pl.Expr, pl.Expr | None]  # local, code, UTC offset


def _cascade(d: pl.DataFrame, stages: list[Stage], slow: Handler, ctx: _Ctx) -> list[pl.DataFrame]:
    """Try fixed-width fast paths in turn, each on the rows the previous ones
    rejected; what is left goes to ``slow`` (a regex parser)."""
    parts: list[pl.DataFrame] = []
    for local, code, off in stages:
        tried = _with_head_bytes(d, local).with_columns(local.alias("_fast"))
        parts.append(_result(tried, pl.col("_fast"), code, off))
        d = tried.filter(pl.col("_fast").is_null()).drop("_fast")
        if d.height == 0:
            return parts
    return [*parts, *slow(d, ctx)]


def _restart_at(d: pl.DataFrame, offset: pl.Expr) -> pl.DataFrame:
    """``d`` with each line cut to start at ``offset`` (head and bytes recomputed)."""
    line = pl.col("line").str.slice(offset)
    stale = [c for c in d.columns if c.startswith("_h")]
    return (
        d.drop(stale)
        .with_columns(line)
        .with_columns(
            pl.col("line").cast(pl.Binary).alias("b"),
            pl.col("line").cast(pl.Binary).bin.head(_HEAD).alias("h"),
        )
    )


# ---------------------------------------------------------------------------
# parsers: each gets the compacted candidate rows of one format


def _iso_parts(g: pl.DataFrame, code: str | pl.Expr) -> pl.DataFrame:
    """Result from the groups of ``_ISO`` (d, t, f, z)."""
    local = _local(pl.col("d"), pl.col("t"), pl.col("f"), "%Y-%m-%d")
    return _result(g, local, code, _offset_minutes(pl.col("z")))


def _asctime_shape(sep: str) -> pl.Expr:
    """ISO groups look like Python's asctime: space, ',mmm', no zone."""
    return (
        (pl.col("sep") == sep)
        & (pl.col("fs") == ",")
        & (pl.col("f").str.len_bytes() == 3)
        & pl.col("z").is_null()
    )


def _iso_start_slow(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    g = _extract(d, "^" + _ISO)
    code = pl.when(_asctime_shape(" ")).then(_CODE["python_logging"]).otherwise(_CODE["iso8601"])
    return [_iso_parts(g, code)]


# Python logging's default asctime, 'YYYY-MM-DD HH:MM:SS,mmm': by far the most
# common stamp with a space separator (read by _iso_start, or by shape).
_ASCTIME = "%Y-%m-%d %H:%M:%S,%3f"


def _asctime_layout() -> pl.Expr:
    """Given an ISO date and a space at 10: the bytes after the seconds are
    asctime's (``,`` then three digits, not followed by a digit or a zone)."""
    b23 = _byte(23)
    return _eq(_byte(19), ",") & (b23.is_null() | ~(_is_digit(b23) | _one_of(b23, "+-Zz")))


def _asctime(line: pl.Expr) -> pl.Expr:
    return _strp(line.str.slice(0, 23), _ASCTIME)


def _iso_start(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    line = pl.col("line")
    b19 = _byte(19)
    python = pl.when(_asctime_layout()).then(_asctime(line))
    # With "T": RFC 3339 in UTC as Go's RFC3339Nano prints it (kubectl
    # --timestamps), a fraction of 1-9 digits with trailing zeros trimmed (or
    # none), then "Z".
    z = line.str.find("Z", literal=True).cast(pl.Int64)  # signed: z - 20 may be < 0
    # (a slice's length is unsigned from polars 2.2 on: a negative one raises, so clip it)
    frac = pl.when(_eq(b19, ".")).then(line.str.slice(20, (z - 20).clip(lower_bound=0)))
    zulu_shape = (_eq(b19, "Z") & (z == 19)) | (
        z.is_between(21, 29) & frac.str.contains(r"^[0-9]+$")
    )
    stamp = pl.concat_str([line.str.slice(0, 19), pl.lit("."), _frac6(frac)])
    zulu = pl.when(zulu_shape).then(_strp(stamp, "%Y-%m-%dT%H:%M:%S.%6f"))

    d = _with_head_bytes(d, _hbyte(10))
    space = _eq(_hbyte(10), " ")
    parts: list[pl.DataFrame] = []
    under = _eq(_hbyte(10), "_")
    if d.select(under.any()).item():
        parts.append(_svlogd(d.filter(under)))
        d = d.filter(~under)
    for rows, stage in (
        (d.filter(space), (python, "python_logging", None)),
        (d.filter(~space), (zulu, "iso8601", pl.lit(0))),
    ):
        if rows.height:
            parts.extend(_cascade(rows, [stage], _iso_start_slow, ctx))
    return parts


def _bracket_iso_slow(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # (the bracket may hold the record's level too: "[2022-11-09 09:52:48.575314 INFO   ] ...")
    g = _extract(d, r"^\[" + _ISO + r"(?:\]| +(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL) *\])")
    code = pl.when(_asctime_shape(" ")).then(_CODE["deepspeed"]).otherwise(_CODE["nccl"])
    return [_iso_parts(g, code)]


def _bracket_iso(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # Byte 20 tells DeepSpeed's "[%F %T,mmm]" from NCCL's default "[%F %T]";
    # anything else (NCCL "[%F %T.%9f]", zones, "T") takes the regex.
    b20 = _byte(20)
    line = pl.col("line")
    fast = (
        pl.when(_eq(b20, ","))
        .then(_strp(line.str.slice(0, 25), "[%Y-%m-%d %H:%M:%S,%3f]"))
        .when(_eq(b20, "]"))
        .then(_strp(line.str.slice(0, 21), "[%Y-%m-%d %H:%M:%S]"))
    )
    code = pl.when(_eq(b20, ",")).then(_CODE["deepspeed"]).otherwise(_CODE["nccl"])
    return _cascade(d, [(fast, code, None)], _bracket_iso_slow, ctx)


def _dmesg_raw(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    line = pl.col("line")
    shape = line.str.contains(r"^\[ *[0-9]+\.[0-9]+\]")
    close = line.str.find("]", literal=True).cast(pl.Int64)
    seconds = line.str.slice(1, (close - 1).clip(lower_bound=0)).str.strip_chars_start(" ")
    out = d.select(
        pl.col("i"),
        pl.lit(None, pl.Datetime("us")).alias("local"),
        pl.lit(None, pl.Int32).alias("off"),
        pl.lit(_CODE["dmesg_raw"], pl.UInt8).alias("code"),
        pl.when(shape).then(seconds.cast(pl.Float64, strict=False)).alias("boot"),
    )
    return [out.filter(pl.col("boot").is_not_null())]


def _c10(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # "[E1206 18:44:12.715298746 " / "[E321 07:39:53.792630246 ": month*100+day
    # is printed unpadded, so the time starts at byte 6 or 7.
    short = _eq(_hbyte(5), " ")
    line = pl.col("line")
    mmdd = (
        pl.when(short)
        .then(pl.concat_str([pl.lit("0"), line.str.slice(2, 3)]))
        .otherwise(line.str.slice(2, 4))
    )
    start = pl.when(short).then(6).otherwise(7)
    stamp = pl.concat_str(
        [pl.lit(ctx.year), mmdd, pl.lit(" "), pl.col("line").str.slice(start, 15)]
    )
    # After the microseconds come three more digits of nanoseconds.
    ok = _one_of(_hbyte(1), _LEVELS) & _is_digit(_byte(start + 15))
    local = pl.when(ok).then(_strp(stamp, "%Y%m%d %H:%M:%S.%6f"))
    return [_result(d, local, "c10_glog")]


def _dmesg_t(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    line = pl.col("line")
    ok = line.str.contains(rf"^\[{_CTIME}\]")
    return [_result(d, pl.when(ok).then(_ctime_local(line.str.slice(1, 24))), "dmesg_T")]


def _trainer(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # The "[LEVEL|" leader was checked on the head; the stamp follows the
    # first "] " and is always Python's asctime.
    line = pl.col("line")
    start = line.str.find("] ", literal=True) + 2
    ok = _not_digit_or_end(_byte(start + 23))
    local = pl.when(ok).then(_strp(line.str.slice(start, 23), "%Y-%m-%d %H:%M:%S,%3f"))
    return [_result(d, local, "trainer")]


def _hf_us(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    ok = _not_digit_or_end(_byte(19))
    local = pl.when(ok).then(_strp(pl.col("line").str.slice(0, 19), "%m/%d/%Y %H:%M:%S"))
    return [_result(d, local, "hf_us")]


def _nvsmi_csv(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    g = _extract(
        d, rf"^(?<d>[0-9]{{4}}/{_D2}/{_D2}) (?<t>{_HMS})(?:\.(?<f>[0-9]{{1,9}}))?(?:[,\s]|$)"
    )
    return [_result(g, _local(pl.col("d"), pl.col("t"), pl.col("f"), "%Y/%m/%d"), "nvsmi_csv")]


def _glog(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # "E0927 12:07:22.643702 1012209 ProcessGroupNCCL.cpp:1356] " (real glog,
    # thread id padded to 5) and torch._logging's imitation with a Python file
    # and pid: same layout, the file extension tells them apart.
    line = pl.col("line")
    stamp = pl.concat_str([pl.lit(ctx.year), line.str.slice(1, 20)])
    local = pl.when(_eq(_byte(21), " ")).then(_strp(stamp, "%Y%m%d %H:%M:%S.%6f"))
    python_file = line.str.contains(r"^[^ ]+ [^ ]+ +[0-9]+ [^ \]]+\.py:[0-9]+\]")
    code = pl.when(python_file).then(_CODE["torch_logging"]).otherwise(_CODE["glog"])
    return [_result(d, local, code)]


def _month_first(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # syslog "Nov 29 11:28:11", "May  1 ..." (space-padded day), a platform's
    # "May 10  17:16:33.739", and "May 18, 2020, 11:47:13:" with its year.
    g = _extract(
        d,
        rf"^(?<mon>{_MON_RE}) (?<day>[ 0-9]?[0-9])(?:,? (?<y>[0-9]{{4}}),?)? +(?<t>{_HMS})"
        r"(?:\.(?<f>[0-9]{1,9}))?(?:[^0-9]|$)",
    )
    date = pl.concat_str(
        [
            pl.col("y").fill_null(pl.lit(ctx.year)),
            pl.lit(" "),
            pl.col("mon"),
            pl.lit(" "),
            pl.col("day").str.strip_chars(" ").str.zfill(2),
        ]
    )
    code = pl.when(pl.col("y").is_null()).then(_CODE["syslog"]).otherwise(_CODE["mdy_comma"])
    return [_result(g, _local(date, pl.col("t"), pl.col("f"), "%Y %b %d"), code)]


def _ctime(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    line = pl.col("line")
    ok = line.str.contains(rf"^{_CTIME}(?:[^0-9]|$)")
    return [_result(d, pl.when(ok).then(_ctime_local(line.str.slice(0, 24))), "ctime")]


def _nvsmi(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    line = pl.col("line")
    ok = line.str.contains(rf"^Timestamp *: {_CTIME}")
    start = line.str.find(": ", literal=True) + 2
    return [_result(d, pl.when(ok).then(_ctime_local(line.str.slice(start, 24))), "nvsmi")]


def _vllm(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # "INFO 01-29 07:44:20 selector.py:120] ": level, then month-day and time.
    line = pl.col("line")
    levels = "|".join(_PY_LEVELS)
    ok = line.str.contains(rf"^(?:{levels}) {_D2}-{_D2} {_HMS}[ ,.]")
    start = line.str.find(" ", literal=True) + 1
    stamp = pl.concat_str([pl.lit(ctx.year), pl.lit("-"), line.str.slice(start, 14)])
    parts = [_result(d, pl.when(ok).then(_strp(stamp, "%Y-%m-%d %H:%M:%S")), "vllm")]
    # the level, then a full date: PaddlePaddle's launcher ("INFO 2021-05-24 17:17:14,611 launch_utils.py:307] ")
    full = d.filter(line.str.contains(rf"^(?:{levels}) \d{{4}}-"))
    if full.height:
        parts.append(_iso_parts(_extract(full, rf"^(?:{levels}) " + _ISO), "tagged"))
    return parts


def _slurm(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # slurmstepd's "*** ... CANCELLED AT <time> ***" (and old slurmd "KILLED AT").
    g = _extract(
        d,
        rf"^slurm[^\s:]*: (?:error: )?\*\*\* .*? (?:CANCELLED|KILLED) AT (?<d>{_DATE})T(?<t>{_HMS})",
    )
    return [_result(g, _local(pl.col("d"), pl.col("t"), None, "%Y-%m-%d"), "slurm")]


def _dmesg_decode(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # "kern  :warn  : " (facility and level, padded to 6) then the stamp dmesg
    # would print without --decode: ISO, or "[  12.345]" / "[Fri Aug ...]".
    line = pl.col("line")
    d = d.filter(line.str.contains(r"^[a-z][a-z0-9]* *:[a-z]+ *: "))
    if d.height == 0:
        return []
    rest = _restart_at(d, line.str.find(": ", literal=True) + 2)
    b0, b1 = _hbyte(0), _hbyte(1)
    key = (
        pl.when(_is_digit(b0))
        .then(1)
        .when(_eq(b0, "[") & (_is_digit(b1) | _eq(b1, " ")))
        .then(2)
        .when(_eq(b0, "[") & _is_upper(b1))
        .then(3)
    )
    return _dispatch(rest, key, {1: _dmesg_iso, 2: _dmesg_raw, 3: _dmesg_t}, ctx)


def _dmesg_iso(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    return [_iso_parts(_extract(d, "^" + _ISO), "dmesg_iso")]


def _svlogd(d: pl.DataFrame) -> pl.DataFrame:
    # runit's svlogd -tt stamps every line it writes in UTC, "_" between date and time
    # (the layout of datetime.isoformat(sep="_") too), a fraction of 5 digits
    g = _extract(d, rf"^(?<d>{_DATE})_(?<t>{_HMS})(?:\.(?<f>[0-9]{{1,9}}))?(?: |$)")
    return _result(g, _local(pl.col("d"), pl.col("t"), pl.col("f"), "%Y-%m-%d"), "svlogd", pl.lit(0))


def _torchrun_table(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # datetime.isoformat(sep="_"): "_" between date and time, local time.
    g = _extract(d, rf"^  time *: (?<d>{_DATE})_(?<t>{_HMS})(?:\.(?<f>[0-9]{{1,6}}))?\s*$")
    local = _local(pl.col("d"), pl.col("t"), pl.col("f"), "%Y-%m-%d")
    return [_result(g, local, "torchrun_table")]


# ---------------------------------------------------------------------------
# families: pick each row's format from its head, then parse


def _bracket_key() -> pl.Expr:
    b1, b2 = _hbyte(1), _hbyte(2)
    return (
        pl.when(_is_digit(b1) & _eq(_hbyte(5), "-"))
        .then(1)  # [2024-05-01 ...   DeepSpeed / NCCL
        .when(_eq(b1, " ") | _is_digit(b1))
        .then(2)  # [ 1843.308145]   raw dmesg
        .when(_one_of(b1, _LEVELS) & _is_digit(b2))
        .then(3)  # [E1206 18:44:..  c10
        .when(_is_upper(b1) & _is_lower(b2) & _eq(_hbyte(4), " "))
        .then(4)  # [Fri Aug 30 ...  dmesg -T
        .when(_head_starts(*(f"[{level}|" for level in _PY_LEVELS)))
        .then(5)  # [INFO|trainer..  HF Trainer
        .when((_is_lower(b1) | _is_upper(b1)) & pl.any_horizontal(
            _eq(_hbyte(k), "]") & _eq(_hbyte(k + 1), " ") & _is_digit(_hbyte(k + 2)) for k in range(2, _HEAD - 2)))
        .then(6)  # [titan] 2025-.. an app logger's tag of up to 8 characters, then a stamp
    )


def _bracket(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    parsers = {1: _bracket_iso, 2: _dmesg_raw, 3: _c10, 4: _dmesg_t, 5: _trainer, 6: _tagged}
    return _dispatch(d, _bracket_key(), parsers, ctx)


def _tagged(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # torchtitan's "[titan] %(asctime)s - %(name)s - %(levelname)s - %(message)s": the tag is
    # the application's (not a wrapper's: it names no process), the stamp ISO / asctime
    g = _extract(d, r"^\[[A-Za-z][\w.-]{0,7}\] " + _ISO)
    return [_iso_parts(g, "tagged")]


def _digit_key() -> pl.Expr:
    return (
        pl.when(_eq(_hbyte(4), "-") & _eq(_hbyte(7), "-") & _one_of(_hbyte(10), "Tt _"))
        .then(1)  # 2024-05-01 ...
        .when(_eq(_hbyte(2), "/") & _eq(_hbyte(5), "/"))
        .then(2)  # 05/01/2024 ...
        .when(_eq(_hbyte(4), "/") & _eq(_hbyte(7), "/"))
        .then(3)  # 2026/05/28 ...
        .when(_eq(_hbyte(4), "-") & _is_upper(_hbyte(5)) & _eq(_hbyte(8), "-"))
        .then(4)  # 2024-Jan-11 19:01:15.502423 ...
    )


def _digit(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    return _dispatch(d, _digit_key(), {1: _iso_start, 2: _hf_us, 3: _nvsmi_csv, 4: _ymond}, ctx)


def _ymond(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # the month by name between year and day: AWS Neuron's runtime ("2024-Jan-11 19:01:15.502423 18506:21252 ERROR ...")
    g = _extract(d, rf"^(?<d>[0-9]{{4}}-{_MON_RE}-{_D2}) (?<t>{_HMS})(?:\.(?<f>[0-9]{{1,9}}))?")
    return [_result(g, _local(pl.col("d"), pl.col("t"), pl.col("f"), "%Y-%b-%d"), "ymond")]


def _upper_key() -> pl.Expr:
    b1, b3 = _hbyte(1), _hbyte(3)
    head3 = pl.col("h").bin.head(3)
    glog = (
        _one_of(_hbyte(0), _LEVELS)
        & pl.all_horizontal(_is_digit(_hbyte(k)) for k in (1, 2, 3, 4, 6))
        & _eq(_hbyte(5), " ")
    )
    return (
        pl.when(glog)
        .then(1)  # E0927 12:07:22.643702 ...
        .when(_is_lower(b1) & _eq(b3, " ") & head3.is_in([m.encode() for m in _MONTHS]))
        .then(2)  # Nov 29 11:28:11 ...
        .when(_is_lower(b1) & _eq(b3, " ") & head3.is_in([w.encode() for w in _WEEKDAYS]))
        .then(3)  # Wed Jul 29 21:51:11 2020
        .when(_head_starts("Timestamp"))
        .then(4)  # Timestamp     : Thu Jun  6 ...
        .when(_is_upper(b1) & _head_starts(*(f"{level} " for level in _PY_LEVELS)))
        .then(5)  # INFO 01-29 07:44:20 ...
        .when(_is_upper(b1) & pl.any_horizontal(
            pl.col("h").bin.contains(f" {level}".encode()) for level in _PY_LEVELS))
        .then(6)  # LAUNCH INFO 2022-11-09 10:11:32,053 ...
    )


def _upper(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    parsers = {1: _glog, 2: _month_first, 3: _ctime, 4: _nvsmi, 5: _vllm, 6: _tag_level}
    return _dispatch(d, _upper_key(), parsers, ctx)


def _tag_level(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    # a launcher's logger that names itself, then the level, then the stamp: PaddlePaddle's
    # "LAUNCH INFO 2022-11-09 10:11:32,053 Pod failed"
    g = _extract(d, r"^[A-Z][A-Z0-9_]{1,15} (?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL) " + _ISO)
    return [_iso_parts(g, "tagged")]


def _lower_key() -> pl.Expr:
    # Most rows here are NCCL lines ("host:pid:tid ..."): a digit follows their
    # first colon, while dmesg --decode pads the facility to 6 ("kern  :warn")
    # or prints "authpriv:" and a level name follows.
    return (
        pl.when(_head_starts("slurm"))
        .then(1)
        .when(
            (_eq(_hbyte(6), ":") & _is_lower(_hbyte(7)))
            | (_eq(_hbyte(8), ":") & _is_lower(_hbyte(9)))
        )
        .then(2)
    )


def _lower(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    return _dispatch(d, _lower_key(), {1: _slurm, 2: _dmesg_decode}, ctx)


def _space_key() -> pl.Expr:
    return pl.when(_head_starts("  time")).then(1)


def _space(d: pl.DataFrame, ctx: _Ctx) -> list[pl.DataFrame]:
    return _dispatch(d, _space_key(), {1: _torchrun_table}, ctx)


def _families(b0: pl.Expr) -> list[tuple[pl.Expr, Handler, Callable[[], pl.Expr]]]:
    """(which lines, parser, format key) of each family, by the first byte ``b0``."""
    return [
        (b0 == ord("["), _bracket, _bracket_key),
        (b0.is_between(ord("0"), ord("9")), _digit, _digit_key),
        (b0.is_between(ord("A"), ord("Z")), _upper, _upper_key),
        (b0.is_between(ord("a"), ord("z")), _lower, _lower_key),
        (b0 == ord(" "), _space, _space_key),
    ]


def _may_have_stamp(shapes: pl.Series) -> pl.Series:
    """Per digit shape: is a line of that shape a candidate of some format?

    A line is parsed only where its family's format key (its first byte, then its
    first 12 bytes) names a format. Every key tests digits only as a class, so a
    line and its digit shape get the same key: it is worked out once per distinct
    head of a shape (a few dozen a log; remembered, as the keys' expressions cost
    more to plan than to run), and the lines of the others (NCCL INFO lines,
    progress bars, tracebacks: a quarter of the bench's rank log lines) are never read again.
    """
    heads = shapes.cast(pl.Binary).bin.head(_HEAD)
    distinct = heads.unique().to_list()
    new = [h for h in distinct if h not in _HEAD_MEMO]
    if new:
        if len(_HEAD_MEMO) + len(new) > _HEAD_MEMO_MAX:
            _HEAD_MEMO.clear()
        d = pl.DataFrame({"h": pl.Series(new, dtype=pl.Binary)})
        expr = pl.when(pl.lit(False)).then(pl.lit(None, pl.Int32))
        for which, _, key in _families(_hbyte(0)):
            expr = expr.when(which).then(key())
        found = _with_head_bytes(d, expr).select(expr.is_not_null()).to_series().to_list()
        _HEAD_MEMO.update(zip(new, found, strict=True))
    # a null head (a null line) is left to the parsers, which skip it
    return heads.is_in([h for h in distinct if h is not None and _HEAD_MEMO[h]]) | heads.is_null()


def _asctime_shapes(shapes: pl.Series) -> pl.Series:
    """Per digit shape: do its lines go to the asctime fast path of ``_iso_start``
    (the digit family, format key 1, a space at 10, ``_asctime_layout``)? Those
    tests read digits only as a class, like the keys."""
    b = shapes.cast(pl.Binary)
    d = pl.DataFrame({"b": b, "h": b.bin.head(_HEAD)})
    expr = (
        _is_digit(_hbyte(0)) & (_digit_key() == 1) & _eq(_hbyte(10), " ") & _asctime_layout()
    ).fill_null(False)
    return _with_head_bytes(d, expr).select(expr).to_series()


_HEAD_MEMO: dict[bytes | None, bool] = {}
_HEAD_MEMO_MAX = 50_000


# ---------------------------------------------------------------------------
# localisation and assembly


def _validate_tz(tz: str) -> None:
    try:
        zoneinfo.ZoneInfo(tz)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {tz!r} (expected an IANA name)") from exc


# scatter() writes the physical integers without unit conversion, so every
# series scattered into the output is cast to exactly this type first
# (base_utc_offset() is in ms and would otherwise turn the result into ms).
_UTC_US = pl.Datetime("us", "UTC")


def _to_utc(res: pl.DataFrame, tz: str) -> pl.Series:
    """UTC instants for ``res``: explicit offsets win, naive stamps are read in ``tz``."""
    local = pl.col("local")
    if tz == "UTC":
        ts = res.select(local.dt.replace_time_zone("UTC")).to_series()
    else:
        ts = res.select(
            local.dt.replace_time_zone(
                tz, ambiguous="earliest", non_existent="null"
            ).dt.convert_time_zone("UTC")
        ).to_series()
        gap = ts.is_null() & res["local"].is_not_null()
        if gap.any():
            # Skipped by a DST change: use the offset in force a day earlier,
            # i.e. before the change (Python's fold=0 reading).
            before = (local - pl.duration(days=1)).dt.replace_time_zone(
                tz, ambiguous="earliest", non_existent="null"
            )
            offset = before.dt.base_utc_offset() + before.dt.dst_offset()
            fixed = res.filter(gap).select((local - offset).dt.replace_time_zone("UTC"))
            ts = ts.scatter(gap.arg_true(), fixed.to_series().cast(_UTC_US))
    explicit = res["off"].is_not_null()
    if explicit.any():
        shifted = res.filter(explicit).select(
            (local - pl.duration(minutes=pl.col("off"))).dt.replace_time_zone("UTC")
        )
        ts = ts.scatter(explicit.arg_true(), shifted.to_series().cast(_UTC_US))
    return ts.cast(_UTC_US).alias("ts")


def _empty_output(n: int) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "ts": pl.repeat(None, n, dtype=pl.Datetime("us", "UTC"), eager=True),
            "ts_format": pl.repeat(None, n, dtype=pl.Categorical, eager=True),
            "boot_s": pl.repeat(None, n, dtype=pl.Float64, eager=True),
            "ts_needs_year": pl.repeat(False, n, dtype=pl.Boolean, eager=True),
        }
    )


def parse_timestamps(
    lines: pl.Series, *, tz: str = "UTC", default_year: int | None = None,
    shapes: tuple[pl.Series, pl.Series] | None = None,
) -> pl.DataFrame:
    """Extract the wall-clock timestamp of every line, vectorised.

    Parameters
    ----------
    lines
        Utf8 column of log lines with wrapper prefixes already removed
        (``[rank3]:``, ``[default3]:``, ``node-1: ``, kubectl stamps...).
    tz
        IANA zone in which naive stamps were printed (the host's local time).
        Stamps carrying a zone (``Z``, ``+02:00``, ``+0200``) ignore it.
    default_year
        Year for formats that print none (see ``YEARLESS_FORMATS``); the
        current year in ``tz`` if None.
    shapes
        ``digit_shapes(lines)`` (distinct shapes, code per line), if the caller
        has it: only the lines of shapes that may carry a stamp are read, and
        those of asctime shapes by that format's parse directly. The answer is
        the same either way.

    Returns
    -------
    A DataFrame with one row per input line, in order:
    ``ts`` (Datetime[us, UTC], null where the line has no wall-clock stamp),
    ``ts_format`` (Categorical, a key of ``FORMATS``; null where nothing
    matched; also set on raw dmesg lines), ``boot_s`` (Float64 seconds since
    boot of raw dmesg lines, else null), ``ts_needs_year`` (Boolean, true where
    the year was assumed).
    """
    _validate_tz(tz)
    if default_year is None:
        default_year = _dt.datetime.now(zoneinfo.ZoneInfo(tz)).year
    if not 1 <= default_year <= 9999:
        raise ValueError(f"default_year out of range: {default_year}")
    n = len(lines)
    if n == 0:
        return _empty_output(0)
    s = (lines if lines.dtype == pl.String else lines.cast(pl.String)).rename("line")
    ctx = _Ctx(default_year)
    rows = pl.int_range(0, n, dtype=pl.UInt32, eager=True)
    parts: list[pl.DataFrame] = []
    if shapes is not None:
        texts, codes = shapes
        wanted = _may_have_stamp(texts).gather(codes).fill_null(True)
        # The lines of asctime shapes (most of a training log's stamped ones) take
        # _iso_start's fast path straight away: the same parse, with none of the
        # dispatch; a line it does not read (a 30 February) goes the usual way.
        fast = _asctime_shapes(texts).gather(codes).fill_null(False).arg_true()
        if fast.len():
            local = pl.DataFrame({"line": s.gather(fast)}).select(_asctime(pl.col("line"))).to_series()
            read = fast.filter(local.is_not_null())
            parts.append(pl.DataFrame({
                "i": read, "local": local.drop_nulls(),
                "off": pl.repeat(None, read.len(), dtype=pl.Int32, eager=True),
                "code": pl.repeat(_CODE["python_logging"], read.len(), dtype=pl.UInt8, eager=True),
                "boot": pl.repeat(None, read.len(), dtype=pl.Float64, eager=True),
            }))
            wanted = wanted.scatter(read, False)
        rows = wanted.arg_true()
        s = s.gather(rows)

    # Cut in bytes, not characters: bin.head keeps <= 12 bytes inline in the
    # view (str.head's output still pointed into the big buffers, and reading
    # it after a filter cost as much as reading the line).
    head = s.cast(pl.Binary).bin.head(_HEAD)
    frame = pl.DataFrame({"i": rows, "line": s, "h": head})
    b0 = head.bin.get(0, null_on_oob=True)
    families = _families(pl.col("b0"))
    masks = pl.DataFrame({"b0": b0}).select(which.alias(f"m{k}") for k, (which, _, _) in enumerate(families))
    for k, (_, family, _) in enumerate(families):
        d = frame.filter(masks.get_column(f"m{k}"))
        if d.height:
            parts.extend(p for p in family(d, ctx) if p.height)
    if not parts:
        return _empty_output(n)

    res = pl.concat([p.cast(_RESULT_SCHEMA) for p in parts], how="vertical")
    res = res.with_columns(_to_utc(res, tz))
    res = res.filter(pl.col("ts").is_not_null() | pl.col("boot").is_not_null())

    idx = res["i"]
    ts = pl.repeat(None, n, dtype=_UTC_US, eager=True).scatter(idx, res["ts"].cast(_UTC_US))
    code = pl.repeat(None, n, dtype=pl.UInt8, eager=True).scatter(idx, res["code"])
    boot = pl.repeat(None, n, dtype=pl.Float64, eager=True).scatter(idx, res["boot"])
    yearless = [_CODE[name] for name in YEARLESS_FORMATS]
    return pl.DataFrame(
        {
            "ts": ts,
            "ts_format": pl.Series(_NAMES, dtype=pl.Categorical).gather(code),
            "boot_s": boot,
            "ts_needs_year": code.is_in(yearless).fill_null(False),
        }
    )
