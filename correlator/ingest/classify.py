"""Apply the parsers' declarations to whole columns of events.

See ``parsers.base`` for the contract. The work per batch:

1. the messages are reduced to their distinct *digit shapes* (``correlator.timeline.shapes``):
   a training log is mostly the same few hundred lines with different numbers;
2. on the shapes, one Aho-Corasick pass (``str.extract_many``) lists the triggers,
   (shape, pattern) pairs come from a join with the trigger table, and each
   pattern's regex runs on its candidate shapes only; named groups become
   attrs, ``lvl*`` groups the level, ``logger`` the source of Python logging lines;
3. per shape, the winning pattern names ``kind``: other patterns beat envelopes
   (the OOM line beats the traceback around it), earlier patterns beat later ones;
   attrs of all matching patterns are merged, the winner's value first per key;
4. back on the rows: a shape's answer is every row's answer, except the values
   that contain digits, which are cut out of each row at the position the
   group matched in the shape. Rows whose shape meets a pattern that is not
   digit-invariant (a literal ``Xid 79``, a ``post`` function) or whose
   positions cannot be confirmed are matched line by line, as in step 2; or,
   first, by *hex shape* (``correlator.ingest.hex_shapes``) where the patterns allow:
   NCCL's comm lines, each a shape of its own by its pointers, are then a few.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache

import polars as pl

from correlator.ingest.hex_shapes import hex_shape_safe, hex_shapes, token_safe_literal
from correlator.ingest.json_records import RECORD_LEVEL
from correlator.timeline.kinds import TRAINING_RECORDS
from correlator.timeline.shapes import ShapeMemo, digit_invariant, digit_shapes, shape_of
from parsers import LEVEL_WORDS, PATTERNS
from parsers.base import Pattern

ATTR_TYPE = pl.List(pl.Struct({"key": pl.Utf8, "value": pl.Utf8}))
# attrs while matching: which pattern each value came from (to find its position)
_SRC_ATTR_TYPE = pl.List(pl.Struct({"key": pl.Utf8, "value": pl.Utf8, "pat": pl.Int32}))
FILL_COLUMNS = ("rank", "local_rank", "pid")
_NON_ATTR_GROUPS = re.compile(r"^lvl\d*$")
# Past this share of distinct shapes, matching rows directly is cheaper.
_SHAPES_WORTH_IT = 0.5

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
# Per-message results, before the row's other columns are consulted.
_MATCH_SCHEMA = {
    "kind": pl.Utf8, "source": pl.Utf8, "level": pl.Utf8, "logger": pl.Utf8,
    **{f"fill_{c}": pl.Int32 for c in FILL_COLUMNS}, "epoch_s": pl.Int64,
    **{f"src_fill_{c}": pl.Int32 for c in FILL_COLUMNS}, "src_epoch_s": pl.Int32,
}


@cache
def _shape_safe(idx: int) -> bool:
    """May pattern ``idx`` run on shapes instead of lines?"""
    p = PATTERNS[idx]
    if p.post is not None:  # arbitrary code may look at the digits
        return False
    if p.regex is None:
        return not any(ch.isdigit() for t in p.triggers for ch in t)
    return digit_invariant(p.regex)


@cache
def _hex_safe(idx: int) -> bool:
    """May pattern ``idx`` run on hex shapes (``correlator.ingest.hex_shapes``)?"""
    p = PATTERNS[idx]
    if p.post is not None:
        return False
    if p.regex is None:
        return _shape_safe(idx)
    return hex_shape_safe(p.regex)


@cache
def _hex_path() -> bool:
    """Hex shapes are searched for the shaped triggers: only sound if no trigger's
    character can fall on a token's digit (true of every trigger; a test says so)."""
    return all(token_safe_literal(t) for p in PATTERNS for t in p.triggers)


@cache
def _trigger_table(shaped: bool) -> pl.DataFrame:
    rows = {(shape_of(t) if shaped else t, i) for i, p in enumerate(PATTERNS) for t in p.triggers}
    return pl.DataFrame(sorted(rows), schema={"trig": pl.Utf8, "pat": pl.Int32}, orient="row")


@cache
def _triggers(shaped: bool) -> list[str]:
    return sorted(set(_trigger_table(shaped).get_column("trig").to_list()))


@cache
def _group_names(regex: str) -> tuple[str, ...]:
    return tuple(re.findall(r"\(\?P?<([A-Za-z_]\w*)>", regex))


@cache
def _fast(regex: str) -> str:
    # Unicode word boundaries keep Rust's regex off its fast DFA; log text is
    # matched on ASCII words, so ASCII boundaries mean the same here.
    return regex.replace(r"\b", r"(?-u:\b)")


_WHOLE = "__whole_match"


@cache
def _with_whole(regex: str) -> str:
    return f"(?P<{_WHOLE}>{regex})"


@cache
def _py_regex(idx: int) -> re.Pattern[str] | None:
    try:
        return re.compile(PATTERNS[idx].regex or "")
    except re.error:
        return None


@cache
def _pattern_exprs(idx: int) -> tuple[str | None, tuple[str, ...], list[str], list[pl.Expr]]:
    """(regex, group names, attr groups, the facts' select list) of pattern ``idx``,
    built once: expression building costs more than running them on a few rows."""
    p = PATTERNS[idx]
    names = _group_names(p.regex) if p.regex else ()
    regex = _fast(p.regex) if p.regex else None
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
    facts = [
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
    ]
    return regex, names, attr_fields, facts


def _apply_pattern(
    idx: int, p: Pattern, rows: pl.Series, msg: pl.Series
) -> tuple[pl.DataFrame, pl.DataFrame] | None:
    """Run one pattern on its candidate rows.

    Returns (per-row facts, attrs in long form: row, pat, key, value) for the
    rows it matched, or None. Long-form attrs are cheap to build (an unpivot)
    and to merge across patterns.
    """
    regex, names, attr_fields, facts_exprs = _pattern_exprs(idx)
    sub = msg.gather(rows)
    if regex and names:
        # one pass for both questions: the whole match is a group of its own (a
        # match may leave every named group empty), not a `contains` first
        groups = sub.str.extract_groups(_with_whole(regex)).struct.unnest()
        ok = groups.get_column(_WHOLE).is_not_null()
        if not ok.any():
            return None
        df = groups.drop(_WHOLE).with_columns(row=rows).filter(ok)
        rows, sub = df.get_column("row"), sub.filter(ok)
    else:
        if regex:
            ok = sub.str.contains(regex).fill_null(False)
            if not ok.any():
                return None
            rows, sub = rows.filter(ok), sub.filter(ok)
        df = pl.DataFrame({"row": rows})
    facts = df.select(facts_exprs)
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


# A traceback that quotes a step and a loss ("non-finite gradient at epoch 0 step 3 (loss
# 7.5)") is an exception, never the run's progress: where the traceback envelope matched a
# row, the training records' patterns do not take its kind, level or attrs.
_TRACEBACK = next(i for i, p in enumerate(PATTERNS) if p.name == "python.traceback")
_RECORDS = [i for i, p in enumerate(PATTERNS) if p.name in TRAINING_RECORDS]


def _no_records_in_tracebacks(
    facts_parts: list[pl.DataFrame], attr_parts: list[pl.DataFrame]
) -> tuple[list[pl.DataFrame], list[pl.DataFrame]]:
    """Both lists (per matching pattern: ``row``, ``pat``, ...) without the training records'
    matches of the rows the traceback envelope matched."""
    pats = {p.get_column("pat")[0] for p in facts_parts if p.height}
    if _TRACEBACK not in pats or pats.isdisjoint(_RECORDS):
        return facts_parts, attr_parts
    tb_rows = next(p for p in facts_parts if p.height and p.get_column("pat")[0] == _TRACEBACK).get_column("row")

    def drop(parts: list[pl.DataFrame]) -> list[pl.DataFrame]:
        return [p.filter(~pl.col("row").is_in(tb_rows.implode())) if p.height and p.get_column("pat")[0] in _RECORDS
                else p for p in parts]

    return drop(facts_parts), drop(attr_parts)


# (row, envelope, pat) as one sort key: half the cost of sorting by the three columns
_PRIORITY = (
    pl.col("row").cast(pl.UInt64) * (1 << 33) + pl.col("envelope").cast(pl.UInt64) * (1 << 32)
    + pl.col("pat").cast(pl.UInt64)
)


def _match_rows(msg: pl.Series, shaped: bool, hexed: bool = False) -> pl.DataFrame:
    """The parsers' answer for each message, aligned with ``msg`` (``_MATCH_SCHEMA``
    plus ``attrs`` with each value's pattern).

    ``shaped``: ``msg`` holds digit shapes; the rows that a pattern that is not
    shape-safe could match are flagged ``unsure`` and left unmatched (they are
    matched line by line: NCCL's ``comm 0x...`` lines, unique by their pointers,
    would otherwise be matched twice). Only shapes' attrs say which pattern each
    value came from (``_SRC_ATTR_TYPE``; lines' are ``ATTR_TYPE``): nothing is
    cut from a line's own match. ``hexed``: the shapes are hex shapes, on which
    fewer patterns are safe.
    """
    n = msg.len()
    # a shape is unsure if it holds a trigger of a pattern that is not shape-safe:
    # asked first, in one pass, so that the others alone are searched and joined
    # (a batch's unsure shapes are mostly new ones: NCCL's comm lines, thousands)
    unsafe = _unsafe_triggers(hexed) if shaped else []
    unsure = (
        msg.str.contains_any(unsafe).fill_null(False)
        if unsafe
        else pl.repeat(False, n, dtype=pl.Boolean, eager=True)
    )
    todo = (~unsure).arg_true() if unsure.any() else None
    facts_parts, attr_parts = [], []
    for pat, rows in _candidates(msg, todo, shaped):
        got = _apply_pattern(pat, PATTERNS[pat], rows, msg)
        if got is not None:
            facts_parts.append(got[0])
            attr_parts.append(got[1])
    out = pl.DataFrame({"row": pl.int_range(n, dtype=pl.UInt32, eager=True), "unsure": unsure})
    attr_type = _SRC_ATTR_TYPE if shaped else ATTR_TYPE
    if not facts_parts:
        return out.with_columns(
            *[pl.lit(None, dtype=t).alias(c) for c, t in _MATCH_SCHEMA.items()],
            pl.lit(None, dtype=attr_type).alias("attrs"),
        )
    facts_parts, attr_parts = _no_records_in_tracebacks(facts_parts, attr_parts)
    # priority: any pattern before an envelope, then registry order
    found = pl.concat(facts_parts, how="vertical_relaxed").sort(_PRIORITY)
    # per row, in that order: the winner's kind, and each fact from the first pattern that has it
    firsts = []
    for col in ("source", "level", "logger", *[f"fill_{c}" for c in FILL_COLUMNS], "epoch_s"):
        firsts.append(pl.col(col).drop_nulls().first())
        if col.startswith(("fill_", "epoch")):
            firsts.append(pl.col("pat").filter(pl.col(col).is_not_null()).first().alias(f"src_{col}"))
    per_row = found.group_by("row", maintain_order=True).agg(pl.col("kind").first(), *firsts)
    # merge every matching pattern's attrs; the winner's value first per key (a filter
    # on the first of each (row, key) is half the cost of `unique(keep="first")`)
    attrs = (
        pl.concat(attr_parts, how="vertical_relaxed")
        .sort(_PRIORITY, maintain_order=True)
        .filter(pl.struct("row", "key").is_first_distinct())
        .group_by("row", maintain_order=True)
        .agg(pl.struct("key", "value", *(["pat"] if shaped else [])).alias("attrs"))
    )
    per_row = per_row.join(attrs, on="row", how="left")
    return out.join(per_row, on="row", how="left", maintain_order="left").select(
        "row", "unsure", *[pl.col(c).cast(t) for c, t in _MATCH_SCHEMA.items()],
        pl.col("attrs").cast(attr_type),
    )


def _candidates(msg: pl.Series, todo: pl.Series | None, shaped: bool) -> Iterator[tuple[int, pl.Series]]:
    """Each pattern whose triggers occur in rows ``todo`` of ``msg`` (None: all),
    with those rows in order."""
    if todo is not None and todo.len() == 0:
        return
    hits = (msg if todo is None else msg.gather(todo)).str.extract_many(_triggers(shaped), overlapping=True)
    row = pl.int_range(msg.len(), dtype=pl.UInt32, eager=True) if todo is None else todo
    pairs = (
        pl.DataFrame({"row": row, "trig": hits})
        .filter(pl.col("trig").list.len() > 0)
        .explode("trig")
        .join(_trigger_table(shaped), on="trig")
        .select("row", "pat")
        .unique()
    )
    for (pat,), grp in pairs.partition_by("pat", as_dict=True, maintain_order=True).items():
        yield pat, grp.get_column("row").sort()


@cache
def _unsafe_triggers(hexed: bool = False) -> list[str]:
    """The shaped triggers of the patterns that may not run on (hex) shapes."""
    safe = _hex_safe if hexed else _shape_safe
    return sorted({shape_of(t) for i, p in enumerate(PATTERNS) if not safe(i) for t in p.triggers})


def _drop_src(attrs: pl.Expr) -> pl.Expr:
    return attrs.list.eval(
        pl.struct(pl.element().struct.field("key"), pl.element().struct.field("value"))
    ).cast(ATTR_TYPE)


_OUT_COLUMNS = ("kind", "source", "level", "logger", *[f"fill_{c}" for c in FILL_COLUMNS], "epoch_s")
_WORD_COLUMNS = _OUT_COLUMNS[:4]  # the same for every row of a shape
_CUT_COLUMNS = (*_OUT_COLUMNS[4:], "attrs")  # may be cut from each row


def _finish(df: pl.DataFrame) -> pl.DataFrame:
    # [] for no attrs here, per shape, rather than a fill over every row later
    attrs = pl.col("attrs") if df.schema["attrs"] == ATTR_TYPE else _drop_src(pl.col("attrs"))
    attrs = attrs.fill_null(pl.lit([], dtype=ATTR_TYPE))
    # a Python logging line's source is its logger's, which a shape's rows share
    source = pl.coalesce(pl.col("source"), _logger_source(df.get_column("logger")))
    return df.select("row", *_OUT_COLUMNS, attrs.alias("attrs")).with_columns(source.alias("source"))


def match_messages(
    msg: pl.Series, shapes: pl.Series | None = None, codes: pl.Series | None = None,
    extra: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Kind, source, level, logger, fills, epoch_s and attrs of each message, in order.

    ``shapes``/``codes`` (from ``digit_shapes(msg)``) may be passed in when the
    caller has them already. ``extra``: attrs learned elsewhere (``row``, ``key``,
    ``value``; a row's entries in their order), appended after the parsers' own (see
    ``_merge_extras``).
    """
    n = msg.len()
    if shapes is None or codes is None:
        shapes, codes = digit_shapes(msg)
    if n == 0 or shapes.len() > _SHAPES_WORTH_IT * n:
        whole = _finish(_match_rows(msg, shaped=False))
        if extra is None or extra.height == 0:
            return whole.drop("row")
        return _in_row_order(whole.select(_WORD_COLUMNS), [whole], n, extra)
    words, parts = _by_shape(msg, shapes, codes, _match_shapes(shapes), _PLANS, _match_unsure)
    return _in_row_order(words, parts, n, extra)


def _by_shape(
    msg: pl.Series, shapes: pl.Series, codes: pl.Series, per: pl.DataFrame, plans: _PlanMemo,
    unsure: Callable[[pl.Series, pl.Series], pl.DataFrame],
) -> tuple[pl.DataFrame, list[pl.DataFrame]]:
    """The words of each row of ``msg`` and its varying columns in parts (see
    ``_in_row_order``), from ``per``, the answers for ``shapes``; the rows of shapes
    whose answer cannot be used go to ``unsure(messages, their shapes)``."""
    n = msg.len()
    plan = _Plan.build(shapes, per, plans)
    fin = _finish(per).drop("row")
    mode = plan.mode.gather(codes)
    row = pl.int_range(n, dtype=pl.UInt32, eager=True)
    # The columns whose values may differ between rows of a shape come in parts, put
    # in row order at the end; the shape's words (kind, source, level, logger) are
    # gathered once, and only the rows matched another way get their own.
    parts = []
    exact = row.filter(mode == _EXACT)
    if exact.len():
        parts.append(fin.select(_CUT_COLUMNS).gather(codes.gather(exact)).with_columns(row=exact))
    slotted = row.filter(mode == _SLOTS)
    if slotted.len():
        parts.extend(plan.cut(slotted, codes.gather(slotted), msg.gather(slotted)))
    redo = row.filter(mode == _REDO)
    words = fin.select(_WORD_COLUMNS).gather(codes)
    if redo.len():
        own = unsure(msg.gather(redo), shapes.gather(codes.gather(redo))).with_columns(row=redo)
        parts.append(own)
        words = words.with_columns(words.get_column(c).scatter(redo, own.get_column(c)) for c in _WORD_COLUMNS)
    return words, parts


def _line_by_line(msg: pl.Series, _shapes: pl.Series | None = None) -> pl.DataFrame:
    return _finish(_match_rows(msg, shaped=False))


# Below this many rows, matching the lines costs less: measured on NCCL's comm lines,
# ~4.7 ms + 3.8 us a row line by line, ~5.5 ms + 1.1 us a row by hex shape.
_HEX_MIN_ROWS = 384


def _match_unsure(msg: pl.Series, shapes: pl.Series) -> pl.DataFrame:
    """``_line_by_line(msg)``, by hex shape where it can be (NCCL's comm lines, each a
    digit shape of its own by its pointer, are a few hex shapes a rank)."""
    if msg.len() < _HEX_MIN_ROWS or not _hex_path():
        return _line_by_line(msg)
    rows, hexed, codes = hex_shapes(msg, shapes)
    if rows.len() < _HEX_MIN_ROWS or hexed.len() > _SHAPES_WORTH_IT * rows.len():
        return _line_by_line(msg)
    sub = msg.gather(rows)
    words, parts = _by_shape(sub, hexed, codes, _match_shapes(hexed, hexed=True), _HEX_PLANS, _line_by_line)
    done = _in_row_order(words, parts, sub.len(), None).with_columns(row=rows)
    if rows.len() == msg.len():
        return done.select("row", pl.exclude("row"))
    rest = pl.int_range(msg.len(), dtype=pl.UInt32, eager=True).filter(
        ~pl.repeat(False, msg.len(), dtype=pl.Boolean, eager=True).scatter(rows, True))
    others = _line_by_line(msg.gather(rest)).with_columns(row=rest)
    return pl.concat([done.select(others.columns), others]).sort("row")


def _in_row_order(words: pl.DataFrame, parts: list[pl.DataFrame], n: int, extra: pl.DataFrame | None) -> pl.DataFrame:
    """``words`` (in row order) and the varying columns of ``parts`` (each row of
    ``n`` in one of them, by ``row``), as one frame in row order.

    One gather by the inverse permutation puts the parts in order (a sort costs more;
    a gather from unmerged parts far more, for the attrs). Rows with ``extra`` attrs
    get a merged copy, appended as one more part: the gather places it, where
    merging in place would copy every row's attrs again.
    """
    varying = [p.select("row", *_CUT_COLUMNS) for p in parts]
    base = sum(p.height for p in varying)
    x_rows = None
    if extra is not None and extra.height:
        x_rows = extra.get_column("row").unique(maintain_order=True)
        flag = pl.repeat(False, n, dtype=pl.Boolean, eager=True).scatter(x_rows, True)
        own = pl.concat([p.filter(m) for p in varying if (m := flag.gather(p.get_column("row"))).any()])
        merged_attrs = _merge_extras(own.select("row", "attrs"), extra)
        varying.append(own.drop("attrs").join(merged_attrs, on="row", maintain_order="left").select(varying[0].columns))
    merged = pl.concat(varying, rechunk=True)
    at = pl.zeros(n, pl.UInt32, eager=True).scatter(
        merged.get_column("row").head(base), pl.int_range(base, dtype=pl.UInt32, eager=True))
    if x_rows is not None:  # after the rows' first entries: a scatter's order between duplicates is not promised
        at = at.scatter(merged.get_column("row").slice(base), pl.int_range(base, merged.height, dtype=pl.UInt32,
                                                                            eager=True))
    return words.hstack(merged.drop("row").gather(at)).select(*_OUT_COLUMNS, "attrs")


# Unsure shapes are not remembered: they are matched another way anyway, and are
# mostly unique (NCCL's comm pointers). Hex shapes' answers are kept apart: fewer
# patterns may run on them.
_MEMO = ShapeMemo()
_HEX_MEMO = ShapeMemo()


def _match_shapes(shapes: pl.Series, hexed: bool = False) -> pl.DataFrame:
    """``_match_rows(shapes, shaped=True, hexed=hexed)``, from the memo where it can be."""
    memo = _HEX_MEMO if hexed else _MEMO
    per = memo.answer(shapes, lambda s: _match_rows(s, shaped=True, hexed=hexed).drop("row"),
                      remember=~pl.col("unsure"))
    return per.with_columns(row=pl.int_range(shapes.len(), dtype=pl.UInt32)).select("row", pl.exclude("row"))


_EXACT, _SLOTS, _REDO = 0, 1, 2
# A shape with this many rows in a batch is cut as a group of its own; group ids from
# _OWN_GROUP on are such shapes (below it, a bucket's number of attrs).
_OWN_GROUP_ROWS = 16384
_OWN_GROUP = 256


class _PlanMemo:
    """Each sure shape's mode, and for a cut one its number of attrs and slots, kept
    for a worker's later batches (planning a batch's few hundred shapes again, in
    Python, cost 3.4 ms of a rank file's planning; remembered, 1.6 ms)."""

    def __init__(self, limit: int = 20_000) -> None:
        self.limit = limit
        self.known: dict[str, tuple[int, int | None, dict | None]] = {}

    def learn(self, texts: list[str], per: pl.DataFrame) -> None:
        has_digits = (
            pl.col("attrs").list.eval(pl.element().struct.field("value").str.contains("0", literal=True)).list.any()
            .fill_null(False)
            | pl.any_horizontal([pl.col(f"fill_{c}").is_not_null() for c in FILL_COLUMNS])
            | pl.col("epoch_s").is_not_null()
        )
        # only sure shapes come here (an unsure one's rows are matched another way)
        mode = [_SLOTS if digits else _EXACT for digits in per.select(has_digits).to_series().to_list()]
        for text, m in zip(texts, mode, strict=True):
            self.known[text] = (m, None, None)
        need = [i for i, m in enumerate(mode) if m == _SLOTS]
        if need:
            sub = per.gather(need).select("attrs", *[f"{p}fill_{c}" for c in FILL_COLUMNS for p in ("", "src_")],
                                          "epoch_s", "src_epoch_s")
            for i, rec in zip(need, sub.iter_rows(named=True), strict=True):
                slot = _locate(texts[i], rec)
                self.known[texts[i]] = (_REDO, None, None) if slot is None else (_SLOTS, slot.pop("k"), slot)


# kept apart for hex shapes, as their answers are
_PLANS = _PlanMemo()
_HEX_PLANS = _PlanMemo()


class _Plan:
    """Per shape: can its answer be used as is, with digit values cut, or not at all?"""

    def __init__(self, mode: pl.Series, buckets: dict[int, pl.DataFrame], bucket: pl.Series, at: pl.Series) -> None:
        self.mode = mode  # UInt8 per shape
        # slotted shapes by their number of attrs: key_j/value_j/start_j/len_j, fill and epoch positions
        self.buckets = buckets
        # per shape: its bucket (its number of attrs) and its row in that bucket's table
        self.bucket, self.at = bucket, at

    @classmethod
    def build(cls, shapes: pl.Series, per: pl.DataFrame, memo: _PlanMemo) -> _Plan:
        """The plan for ``shapes`` (``per``: their answers); each shape's part of it
        from ``memo`` where known (a function of the shape alone, as its answer is)."""
        texts = shapes.to_list()
        # unsure shapes are matched another way, and mostly unique: not remembered
        unsure = per.get_column("unsure").to_list()
        sure = [i for i, u in enumerate(unsure) if not u]
        new = [i for i in sure if texts[i] not in memo.known]
        if new and len(memo.known) + len(new) > memo.limit:
            memo.known = {}  # full: start again, from this batch's shapes
            new = sure
        if new:
            memo.learn([texts[i] for i in new], per.gather(new))
        by_k: dict[int, list[dict]] = {}
        mode: list[int] = []
        bucket: list[int | None] = [None] * len(texts)
        at: list[int | None] = [None] * len(texts)
        for i, text in enumerate(texts):
            if unsure[i]:
                mode.append(_REDO)
                continue
            m, k, slot = memo.known[text]
            mode.append(m)
            if slot is not None:
                rows = by_k.setdefault(k, [])
                bucket[i], at[i] = k, len(rows)
                rows.append(slot)
        buckets = {k: pl.DataFrame(rows, schema=_slot_schema(k), orient="row") for k, rows in by_k.items()}
        return cls(pl.Series(mode, dtype=pl.UInt8), buckets, pl.Series(bucket, dtype=pl.UInt8),
                   pl.Series(at, dtype=pl.UInt32))

    def cut(self, rows: pl.Series, codes: pl.Series, msg: pl.Series) -> list[pl.DataFrame]:
        """Fills, epoch and attrs of ``rows`` of slotted shapes: the shape's, digit values
        cut from each message (with ``row``; a frame per group, not in row order).

        A group is a bucket's rows, or all the rows of one shape that has many (a
        training log's step line, most of the file): that shape's positions are
        then literals, and a slice at literal positions costs half of one at
        positions read per row.
        """
        group = self.bucket.cast(pl.UInt32)
        counts = codes.value_counts(name="n")
        big = counts.filter(pl.col("n") >= _OWN_GROUP_ROWS).get_column(codes.name).sort()
        if big.len():
            group = group.scatter(big, pl.int_range(_OWN_GROUP, _OWN_GROUP + big.len(), dtype=pl.UInt32, eager=True))
        group = group.gather(codes)
        # rows of one group made contiguous by one sort, then each bucket's slice gets
        # its shapes' slots by a gather (a join per bucket scanned every row each time)
        order = group.arg_sort()
        df = pl.DataFrame({"row": rows, "m": msg, "at": self.at.gather(codes), "g": group}).gather(order)
        sizes = df.get_column("g").value_counts(sort=False)
        start, parts = 0, []
        for g, n in sorted(sizes.iter_rows()):
            part = df.slice(start, n)
            start += n
            if g < _OWN_GROUP:
                k, table = g, self.buckets[g]
            else:
                code = big[g - _OWN_GROUP]
                k = self.bucket[code]
                table = self.buckets[k].slice(self.at[code], 1)
            exprs, wanted = _cut_exprs(k, table)
            if wanted:  # only the slots that vary between the bucket's shapes, per row
                part = part.hstack(table.select(wanted).gather(part.get_column("at")))
            got = part.select("row", *exprs)
            attrs = _rows_of([got.get_column(f"_e{j}") for j in range(k)], n)
            parts.append(got.select("row", *_CUT_COLUMNS[:-1]).with_columns(attrs.alias("attrs")))
        return parts


# _cut_exprs' answers by (k, table rows): the next batch (a worker's next rank log)
# mostly has the same groups, and building the expressions costs ~0.5 ms a group.
_CUT_EXPRS: dict[tuple[int, tuple[tuple, ...]], tuple[list[pl.Expr], list[str]]] = {}
_CUT_EXPRS_MAX = 512


def _cut_exprs(k: int, table: pl.DataFrame) -> tuple[list[pl.Expr], list[str]]:
    """The k attr entries (``_e0``..), fills and epoch_s of a bucket's rows (messages
    in ``m``), and the columns of its table they read per row.

    Decided per bucket: a key, or a value, shared by all of the bucket's shapes is a
    literal; a position set on all of its rows or on none needs no test per row.
    """
    key = (k, tuple(table.iter_rows()))
    if (known := _CUT_EXPRS.get(key)) is None:
        if len(_CUT_EXPRS) >= _CUT_EXPRS_MAX:
            _CUT_EXPRS.clear()
        known = _CUT_EXPRS[key] = _build_cut_exprs(k, table)
    return known


def _build_cut_exprs(k: int, table: pl.DataFrame) -> tuple[list[pl.Expr], list[str]]:
    wanted: list[str] = []
    first = table.row(0, named=True)
    # every column's statistics in two calls, not two per column
    if table.height == 1:
        distinct = dict.fromkeys(table.columns, 1)
        null_counts = {c: int(v is None) for c, v in first.items()}
    else:
        distinct = table.select(pl.all().n_unique()).row(0, named=True)
        null_counts = table.null_count().row(0, named=True)

    def column(name: str) -> pl.Expr:
        if distinct[name] == 1:
            return pl.lit(first[name], dtype=table.schema[name])
        wanted.append(name)
        return pl.col(name)

    def cut(start: str, length: str, otherwise: str | None) -> pl.Expr:
        nulls = null_counts[start]
        other = pl.lit(None, dtype=pl.Utf8) if otherwise is None or nulls == 0 else column(otherwise)
        if nulls == table.height:
            return other
        sliced = pl.col("m").str.slice(column(start), column(length))
        return sliced if nulls == 0 else pl.when(pl.col(start).is_not_null()).then(sliced).otherwise(other)

    fills = [cut(f"fs_{c}", f"fl_{c}", None).cast(pl.Int32, strict=False).alias(f"fill_{c}") for c in FILL_COLUMNS]
    epoch = cut("es", "el", None).cast(pl.Int64, strict=False).alias("epoch_s")
    entries = [
        pl.struct(column(f"k_{j}").alias("key"), cut(f"s_{j}", f"l_{j}", f"v_{j}").alias("value")).alias(f"_e{j}")
        for j in range(k)
    ]
    return [*entries, *fills, epoch], list(dict.fromkeys(wanted))


def _rows_of(entries: list[pl.Series], n: int) -> pl.Series:
    """Per row, the list of its ``entries`` (k struct columns of ``n`` rows each).

    The k columns are laid end to end and gathered in row order, then cut into rows
    of k: three times faster than ``concat_arr`` of the structs (concat_list is
    slower still), and no string is copied (Polars' strings are views).
    """
    k = len(entries)
    if k == 0:
        return pl.repeat([], n, dtype=ATTR_TYPE, eager=True)
    flat = pl.concat(entries, rechunk=False)
    at = pl.int_range(n * k, dtype=pl.UInt32, eager=True)
    return flat.gather((at % k) * n + at // k).reshape((n, k)).arr.to_list().cast(ATTR_TYPE)


def _slot_schema(k: int) -> dict[str, pl.DataType]:
    schema: dict[str, pl.DataType] = {}
    for j in range(k):
        schema |= {f"k_{j}": pl.Utf8, f"v_{j}": pl.Utf8, f"s_{j}": pl.Int64, f"l_{j}": pl.Int64}
    schema |= {f"fs_{c}": pl.Int64 for c in FILL_COLUMNS} | {f"fl_{c}": pl.Int64 for c in FILL_COLUMNS}
    return schema | {"es": pl.Int64, "el": pl.Int64}


def _locate(text: str, rec: dict) -> dict | None:
    """Character positions, in ``text`` (a shape), of the values that hold digits.

    Python's ``re`` finds the spans; a value it does not reproduce exactly (a
    dialect difference with the Rust engine) makes the shape's rows go line by line.
    """
    matches: dict[int, re.Match[str] | None] = {}

    def span(pat: int, group: str, expect: str | None) -> tuple[int, int] | None:
        if pat not in matches:
            rx = _py_regex(pat)
            matches[pat] = rx.search(text) if rx is not None else None
        m = matches[pat]
        if m is None or group not in m.groupdict() or m.group(group) is None:
            return None
        if expect is not None and m.group(group) != expect:
            return None
        s, e = m.span(group)
        return s, e - s

    out: dict = {"k": len(rec["attrs"] or [])}
    for j, a in enumerate(rec["attrs"] or []):
        out[f"k_{j}"], out[f"v_{j}"] = a["key"], a["value"]
        out[f"s_{j}"] = out[f"l_{j}"] = None
        if "0" in a["value"]:
            got = span(a["pat"], a["key"], a["value"])
            if got is None:
                return None
            out[f"s_{j}"], out[f"l_{j}"] = got
    for c in FILL_COLUMNS:
        out[f"fs_{c}"] = out[f"fl_{c}"] = None
        if rec[f"fill_{c}"] is not None:
            pat = rec[f"src_fill_{c}"]
            group = next(g for g, col in PATTERNS[pat].fills.items() if col == c)
            got = span(pat, group, None)
            if got is None:
                return None
            out[f"fs_{c}"], out[f"fl_{c}"] = got
    out["es"] = out["el"] = None
    if rec["epoch_s"] is not None:
        got = span(rec["src_epoch_s"], "epoch_s", None)
        if got is None:
            return None
        out["es"], out["el"] = got
    return out


def _extra_entries(ev: pl.DataFrame, extra_attrs: dict[str, str]) -> pl.DataFrame | None:
    """Attrs the engine learned itself (e.g. a pdsh host), from the columns of ``ev``
    that ``extra_attrs`` maps to attr keys, as (``row``, ``key``, ``value``), one key
    after the other (a row's entries in ``extra_attrs``' order); None if no row has one.
    A Boolean column gives "true" where it is set."""
    cols = [c for c in extra_attrs if c in ev.columns]
    if not cols:
        return None
    any_extra = pl.any_horizontal([pl.col(c).is_not_null() & (pl.col(c) if ev.schema[c] == pl.Boolean else True)
                                   for c in cols])
    idx = ev.select(any_extra.alias("x")).to_series().arg_true()
    if idx.len() == 0:
        return None
    return ev.select(cols).gather(idx).select(
        pl.lit(idx).alias("row"),
        *[
            (
                pl.when(pl.col(c)).then(pl.lit("true"))
                if ev.schema[c] == pl.Boolean
                else pl.col(c).cast(pl.Utf8)
            ).alias(extra_attrs[c])
            for c in cols
        ],
    ).unpivot(index="row", variable_name="key", value_name="value").drop_nulls("value")


def _merge_extras(own: pl.DataFrame, extra: pl.DataFrame) -> pl.DataFrame:
    """(``row``, ``attrs``) for each row of ``extra``: the parsers' attrs of the row
    (``own``), then its extras; a parser's value wins over an extra of the same key."""
    parsed = own.explode("attrs").drop_nulls("attrs").unnest("attrs")
    return (
        pl.concat([parsed.with_columns(pl.lit(0).alias("_p")),
                   extra.select("row", "key", "value").with_columns(pl.lit(1).alias("_p"))])
        .sort(["row", "_p"], maintain_order=True)
        .filter(pl.struct("row", "key").is_first_distinct())
        .group_by("row", maintain_order=True)
        .agg(pl.struct("key", "value").alias("attrs"))
        .with_columns(pl.col("attrs").cast(ATTR_TYPE))
    )


def classify(
    ev: pl.DataFrame,
    extra_attrs: dict[str, str] | None = None,
    shapes: pl.Series | None = None,
    codes: pl.Series | None = None,
) -> pl.DataFrame:
    """Add ``kind``, ``source``, ``level``, ``attrs`` and fill rank/local_rank/pid/ts from content.

    ``ev`` needs ``message``, ``ts``, ``ts_format``, ``stream`` and the columns in
    ``FILL_COLUMNS``. ``extra_attrs`` maps other columns of ``ev`` to attr keys
    (kept after the parsers' own attrs of the same key). ``shapes``/``codes``:
    ``digit_shapes(ev["message"])`` if the caller has it.
    """
    found = match_messages(ev.get_column("message"), shapes, codes, _extra_entries(ev, extra_attrs or {}))
    return _defaults(ev.hstack(found))


def _logger_source(loggers: pl.Series) -> pl.Expr:
    """The source each row's logger name means, decided once per distinct name."""
    names = loggers.drop_nulls().unique()
    expr = pl.when(pl.lit(False)).then(pl.lit(None, dtype=pl.Utf8))
    for prefix, source in _LOGGER_SOURCES:
        expr = expr.when(pl.col("logger").str.starts_with(prefix)).then(pl.lit(source))
    sources = pl.DataFrame({"logger": names}).select(expr.otherwise(pl.lit("app")).alias("s")).to_series()
    return pl.col("logger").replace_strict(names, sources, default=None, return_dtype=pl.Utf8)


def _fallback_levels(ev: pl.DataFrame) -> pl.Series:
    """Level from a level word near the start, only for stamped rows no pattern leveled."""
    level = ev.get_column("level")
    unleveled = level.is_null().arg_true()  # few: most lines' patterns give a level
    need = ev.get_column("ts").gather(unleveled).is_not_null() | ev.get_column("message").gather(
        unleveled).str.starts_with(" ")
    idx = unleveled.filter(need)
    if idx.len() == 0:
        return level
    words = ev.get_column("message").gather(idx).str.extract(_LEVEL_NEAR_START, 1)
    return level.scatter(idx, words.replace_strict(LEVEL_WORDS, default=None, return_dtype=pl.Utf8))


def _record_levels(ev: pl.DataFrame) -> pl.Series:
    """A log record printed with its exception (``logger.exception``, ``exc_info=True``;
    one event, ``correlator.ingest.fold``) has the record's level, not the traceback
    pattern's: a traceback logged at WARNING is an exception the program caught and
    went on after (a retried fetch), one logged at CRITICAL is its last word."""
    level = ev.get_column("level")
    msg = ev.get_column("message")
    idx = ((msg.str.contains("\nTraceback (most recent call last):", literal=True)
            | msg.str.contains('\n  File "', literal=True))  # a paste that lost the header
           & ev.get_column("ts").is_not_null()).arg_true()
    if idx.len() == 0:
        return level
    words = pl.DataFrame({"m": msg.gather(idx), "l": level.gather(idx)}).select(pl.coalesce(
        pl.col("m").str.split_exact("\n", 1).struct.field("field_0").str.extract(_LEVEL_NEAR_START, 1)
        .replace_strict(LEVEL_WORDS, default=None, return_dtype=pl.Utf8),
        pl.col("l"),
    )).to_series()
    return level.scatter(idx, words)


def _defaults(ev: pl.DataFrame) -> pl.DataFrame:
    has_rank = pl.col("rank").is_not_null() | pl.col("local_rank").is_not_null()
    if RECORD_LEVEL in ev.columns:  # a JSON record's own level beats what its text looks like
        ev = ev.with_columns(pl.coalesce(RECORD_LEVEL, "level").alias("level")).drop(RECORD_LEVEL)
    ev = ev.with_columns(_fallback_levels(ev).alias("level"))
    ev = ev.with_columns(_record_levels(ev).alias("level"))
    ev = ev.with_columns(
        *[pl.coalesce(pl.col(c), pl.col(f"fill_{c}")).alias(c) for c in FILL_COLUMNS],
        pl.coalesce(pl.col("ts"), pl.from_epoch(pl.col("epoch_s"), time_unit="s").dt.replace_time_zone("UTC").dt.cast_time_unit("us")).alias("ts"),
        pl.coalesce(
            pl.col("source"),  # a logger's source is in it already (_finish)
            pl.when(pl.col("ts_format").is_in(list(_KERNEL_TS_FORMATS))).then(pl.lit("kernel")),
            pl.when(has_rank).then(pl.lit("app")).otherwise(pl.lit("unknown")),
        ).alias("source"),
    )
    if ev.get_column("attrs").null_count():  # match_messages gives none; a caller's frame may
        ev = ev.with_columns(pl.col("attrs").fill_null(pl.lit([], dtype=ATTR_TYPE)))
    # A torchrun failure entry right after "Root Cause (first observed failure):"
    # is the agent's root cause (evidence, not verdict: see DESIGN.md). (Only looked
    # for where there is such a header: the window and list concat cost every row.)
    if (ev.get_column("kind") == "torchrun.root_cause_header").any():
        after_header = pl.col("kind").shift(1).over("stream") == "torchrun.root_cause_header"
        first_observed = pl.struct(pl.lit("first_observed").alias("key"), pl.lit("true").alias("value"))
        ev = ev.with_columns(
            pl.when(after_header & (pl.col("kind") == "torchrun.failure_entry"))
            .then(pl.col("attrs").list.concat(pl.concat_list(first_observed)))
            .otherwise(pl.col("attrs"))
            .alias("attrs")
        )
    return ev.drop(*[f"fill_{c}" for c in FILL_COLUMNS], "epoch_s", "logger")
