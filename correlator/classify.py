"""Apply the parsers' declarations to whole columns of events.

See ``parsers.base`` for the contract. The work per batch:

1. one Aho-Corasick pass (``str.extract_many``) lists the triggers in every message;
2. (row, pattern) pairs come from a join with the trigger table, never a loop over rows;
3. per pattern, its regex runs on its candidate rows only; named groups become
   attrs, ``lvl*`` groups the level, ``logger`` the source of Python logging lines;
4. per row, the winning pattern names ``kind``: other patterns beat envelopes
   (the OOM line beats the traceback around it), earlier patterns beat later ones;
   attrs of all matching patterns are merged, the winner's value first per key.
"""

from __future__ import annotations

import re
from functools import cache

import polars as pl

from parsers import LEVEL_WORDS, PATTERNS
from parsers.base import Pattern

ATTR_TYPE = pl.List(pl.Struct({"key": pl.Utf8, "value": pl.Utf8}))
FILL_COLUMNS = ("rank", "local_rank", "pid")
_NON_ATTR_GROUPS = re.compile(r"^lvl\d*$")

# Python logger name prefix -> source.
_LOGGER_SOURCES = (
    ("accelerate", "accelerate"),
    ("transformers", "transformers"),
    ("deepspeed", "deepspeed"),
    ("DeepSpeed", "deepspeed"),
    ("torch.distributed.elastic", "torchrun"),
    ("torch.distributed", "c10d"),
    ("torch", "python"),
)
_KERNEL_TS_FORMATS = ("dmesg_T", "dmesg_iso", "dmesg_raw", "dmesg")
# Fallback: a level word near the start of a stamped line, and rich's level column.
_LEVEL_NEAR_START = r"^.{0,64}?\b(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b"


@cache
def _trigger_table() -> pl.DataFrame:
    rows = [(t, i) for i, p in enumerate(PATTERNS) for t in p.triggers]
    return pl.DataFrame(rows, schema={"trig": pl.Utf8, "pat": pl.Int32}, orient="row")


@cache
def _triggers() -> list[str]:
    return sorted({t for p in PATTERNS for t in p.triggers})


@cache
def _group_names(regex: str) -> tuple[str, ...]:
    return tuple(re.findall(r"\(\?P?<([A-Za-z_]\w*)>", regex))


@cache
def _fast(regex: str) -> str:
    # Unicode word boundaries keep Rust's regex off its fast DFA; log text is
    # matched on ASCII words, so ASCII boundaries mean the same here.
    return regex.replace(r"\b", r"(?-u:\b)")


def _apply_pattern(
    idx: int, p: Pattern, rows: pl.Series, msg: pl.Series
) -> tuple[pl.DataFrame, pl.DataFrame] | None:
    """Run one pattern on its candidate rows.

    Returns (per-row facts, attrs in long form: row, pat, key, value) for the
    rows it matched, or None. Long-form attrs are cheap to build (an unpivot)
    and to merge across patterns.
    """
    sub = msg.gather(rows)
    names = _group_names(p.regex) if p.regex else ()
    regex = _fast(p.regex) if p.regex else None
    if regex:
        ok = sub.str.contains(regex).fill_null(False)
        if not ok.any():
            return None
        rows, sub = rows.filter(ok), sub.filter(ok)
    df = pl.DataFrame({"row": rows})
    if names:
        df = df.with_columns(sub.str.extract_groups(regex).struct.unnest())
    attr_fields = [n for n in names if not _NON_ATTR_GROUPS.match(n)]
    lvl_fields = [n for n in names if _NON_ATTR_GROUPS.match(n)]
    if p.level or not lvl_fields:
        level = pl.lit(p.level, dtype=pl.Utf8)
    else:
        level = pl.coalesce([pl.col(f) for f in lvl_fields]).replace_strict(
            LEVEL_WORDS, default=None, return_dtype=pl.Utf8
        )
    fills = []
    for c in FILL_COLUMNS:
        a = next((k for k, v in p.fills.items() if v == c), None)
        expr = pl.col(a).cast(pl.Int32, strict=False) if a in names else pl.lit(None, dtype=pl.Int32)
        fills.append(expr.alias(f"fill_{c}"))
    facts = df.select(
        pl.col("row"),
        pl.lit(idx, dtype=pl.Int32).alias("pat"),
        pl.lit(p.envelope).alias("envelope"),
        pl.lit(p.name).alias("kind"),
        pl.lit(p.source, dtype=pl.Utf8).alias("source"),
        level.alias("level"),
        (pl.col("logger") if "logger" in names else pl.lit(None, dtype=pl.Utf8)).alias("logger"),
        *fills,
        (
            pl.col("epoch_s").cast(pl.Int64, strict=False)
            if "epoch_s" in names
            else pl.lit(None, dtype=pl.Int64)
        ).alias("epoch_s"),
    )
    long = (
        df.select("row", *attr_fields)
        .unpivot(index="row", on=attr_fields, variable_name="key", value_name="value")
        .drop_nulls("value")
        if attr_fields
        else pl.DataFrame(schema={"row": pl.UInt32, "key": pl.Utf8, "value": pl.Utf8})
    )
    if p.post is not None:
        posted = [
            (r, k, v) for r, m in zip(rows.to_list(), sub.to_list(), strict=True)
            for k, v in p.post(m).items()
        ]
        if posted:
            extra = pl.DataFrame(posted, schema={"row": pl.UInt32, "key": pl.Utf8, "value": pl.Utf8}, orient="row")
            long = pl.concat([long, extra], how="vertical_relaxed")
    long = long.with_columns(pl.lit(idx, dtype=pl.Int32).alias("pat"), pl.lit(p.envelope).alias("envelope"))
    return facts, long


def _extra_long(ev: pl.DataFrame, extra_attrs: dict[str, str]) -> pl.DataFrame | None:
    """Columns the engine learned itself (e.g. a pdsh host), as long-form attrs."""
    cols = [c for c in extra_attrs if c in ev.columns]
    if not cols:
        return None
    df = ev.select(
        pl.int_range(ev.height, dtype=pl.UInt32).alias("row"),
        *[
            (
                pl.when(pl.col(c)).then(pl.lit("true"))
                if ev.schema[c] == pl.Boolean
                else pl.col(c).cast(pl.Utf8)
            ).alias(extra_attrs[c])
            for c in cols
        ],
    )
    long = df.unpivot(index="row", variable_name="key", value_name="value").drop_nulls("value")
    return long.with_columns(pl.lit(len(PATTERNS), dtype=pl.Int32).alias("pat"), pl.lit(True).alias("envelope"))


def classify(ev: pl.DataFrame, extra_attrs: dict[str, str] | None = None) -> pl.DataFrame:
    """Add ``kind``, ``source``, ``level``, ``attrs`` and fill rank/local_rank/pid/ts from content.

    ``ev`` needs ``message``, ``ts``, ``ts_format``, ``stream`` and the columns in
    ``FILL_COLUMNS``. ``extra_attrs`` maps other columns of ``ev`` to attr keys
    (kept after the parsers' own attrs of the same key).
    """
    n = ev.height
    msg = ev.get_column("message")
    hits = msg.str.extract_many(_triggers(), overlapping=True)
    pairs = (
        pl.DataFrame({"row": pl.int_range(n, dtype=pl.UInt32, eager=True), "trig": hits})
        .filter(pl.col("trig").list.len() > 0)
        .explode("trig")
        .join(_trigger_table(), on="trig")
        .select("row", "pat")
        .unique()
    )
    facts_parts, attr_parts = [], []
    for (pat,), grp in pairs.partition_by("pat", as_dict=True, maintain_order=True).items():
        got = _apply_pattern(pat, PATTERNS[pat], grp.get_column("row").sort(), msg)
        if got is not None:
            facts_parts.append(got[0])
            attr_parts.append(got[1])
    extra = _extra_long(ev, extra_attrs or {})
    if extra is not None and extra.height:
        attr_parts.append(extra)
    ev = ev.with_row_index("_row")
    if facts_parts or attr_parts:
        # priority: any pattern before an envelope, then registry order
        found = (
            pl.concat(facts_parts, how="vertical_relaxed").sort(["row", "envelope", "pat"])
            if facts_parts
            else pl.DataFrame(schema={"row": pl.UInt32, "kind": pl.Utf8, "source": pl.Utf8, "level": pl.Utf8,
                                      "logger": pl.Utf8, "epoch_s": pl.Int64,
                                      **{f"fill_{c}": pl.Int32 for c in FILL_COLUMNS}})
        )
        per_row = found.unique(subset="row", keep="first", maintain_order=True).select("row", "kind")
        for col in ("source", "level", "logger", *[f"fill_{c}" for c in FILL_COLUMNS], "epoch_s"):
            first = found.drop_nulls(col).unique(subset="row", keep="first", maintain_order=True)
            per_row = per_row.join(first.select("row", col), on="row", how="left")
        # merge every matching pattern's attrs; the winner's value first per key
        attrs = (
            pl.concat(attr_parts, how="vertical_relaxed")
            .sort(["row", "envelope", "pat"], maintain_order=True)
            .unique(subset=["row", "key"], keep="first", maintain_order=True)
            .group_by("row", maintain_order=True)
            .agg(pl.struct("key", "value").alias("attrs"))
        )
        per_row = per_row.join(attrs, on="row", how="left")
        ev = ev.join(per_row, left_on="_row", right_on="row", how="left")
    else:
        ev = ev.with_columns(
            pl.lit(None, dtype=pl.Utf8).alias("kind"),
            pl.lit(None, dtype=pl.Utf8).alias("source"),
            pl.lit(None, dtype=pl.Utf8).alias("level"),
            pl.lit(None, dtype=pl.Utf8).alias("logger"),
            pl.lit(None, dtype=ATTR_TYPE).alias("attrs"),
            *[pl.lit(None, dtype=pl.Int32).alias(f"fill_{c}") for c in FILL_COLUMNS],
            pl.lit(None, dtype=pl.Int64).alias("epoch_s"),
        )
    return _defaults(ev).drop("_row")


def _logger_source() -> pl.Expr:
    expr = pl.when(pl.lit(False)).then(pl.lit(None, dtype=pl.Utf8))
    for prefix, source in _LOGGER_SOURCES:
        expr = expr.when(pl.col("logger").str.starts_with(prefix)).then(pl.lit(source))
    return expr.when(pl.col("logger").is_not_null()).then(pl.lit("app")).otherwise(None)


def _fallback_levels(ev: pl.DataFrame) -> pl.Series:
    """Level from a level word near the start, only for stamped rows no pattern leveled."""
    level = ev.get_column("level")
    need = (level.is_null() & (ev.get_column("ts").is_not_null() | ev.get_column("message").str.starts_with(" ")))
    if not need.any():
        return level
    idx = need.arg_true()
    words = ev.get_column("message").gather(idx).str.extract(_LEVEL_NEAR_START, 1)
    return level.scatter(idx, words.replace_strict(LEVEL_WORDS, default=None, return_dtype=pl.Utf8))


def _defaults(ev: pl.DataFrame) -> pl.DataFrame:
    has_rank = pl.col("rank").is_not_null() | pl.col("local_rank").is_not_null()
    ev = ev.with_columns(_fallback_levels(ev).alias("level"))
    ev = ev.with_columns(
        *[pl.coalesce(pl.col(c), pl.col(f"fill_{c}")).alias(c) for c in FILL_COLUMNS],
        pl.coalesce(pl.col("ts"), pl.from_epoch(pl.col("epoch_s"), time_unit="s").dt.replace_time_zone("UTC").dt.cast_time_unit("us")).alias("ts"),
        pl.coalesce(
            pl.col("source"),
            _logger_source(),
            pl.when(pl.col("ts_format").is_in(list(_KERNEL_TS_FORMATS))).then(pl.lit("kernel")),
            pl.when(has_rank).then(pl.lit("app")).otherwise(pl.lit("unknown")),
        ).alias("source"),
        pl.col("attrs").fill_null(pl.lit([], dtype=ATTR_TYPE)),
    )
    # A torchrun failure entry right after "Root Cause (first observed failure):"
    # is the agent's root cause (evidence, not verdict: see DESIGN.md).
    after_header = pl.col("kind").shift(1).over("stream") == "torchrun.root_cause_header"
    first_observed = pl.struct(pl.lit("first_observed").alias("key"), pl.lit("true").alias("value"))
    ev = ev.with_columns(
        pl.when(after_header & (pl.col("kind") == "torchrun.failure_entry"))
        .then(pl.col("attrs").list.concat(pl.concat_list(first_observed)))
        .otherwise(pl.col("attrs"))
        .alias("attrs")
    )
    return ev.drop(*[f"fill_{c}" for c in FILL_COLUMNS], "epoch_s", "logger")
