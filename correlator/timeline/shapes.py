"""Digit shapes: the same text with every ASCII digit 1-9 written as ``0``.

Log lines repeat: a training job prints the same ``step N loss X`` line, the
same NCCL chatter and the same collective errors on every rank, differing only
in numbers. Every pattern this engine applies that uses digits only through
classes treating all ten alike (``\\d``, ``\\w``, ``[0-9a-f]``, ``.``) gives
the same answer on a line and on its shape, and its capture groups sit at the
same character positions. So the expensive work (trigger search, regexes,
templates) runs once per distinct shape, and only the values that contain a
digit are cut out of each line, by position.

The mapping is one vectorised pass over the Arrow string buffer (digits are
single bytes in UTF-8, so offsets and validity are untouched) and one
dictionary encoding.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["SHAPE_SQL", "ShapeMemo", "digit_shapes", "map_ascii", "shape_of", "with_new_texts"]

_BYTE = pl.col("b")
_SHAPED = (
    pl.when(_BYTE.is_between(ord("1"), ord("9"))).then(pl.lit(ord("0"), pl.UInt8)).otherwise(_BYTE)
)


# The same in SQL, for a timeline written before the column existed.
SHAPE_SQL = "translate({message}, '123456789', '000000000')"


def shape_of(text: str) -> str:
    """The shape of one string (reference for tests and docs)."""
    return text.translate(str.maketrans("123456789", "000000000"))


def _shape_array(arr: pa.LargeStringArray, mapping: pl.Expr = _SHAPED) -> pa.Array:
    validity, offsets, data = arr.buffers()
    if data is None:
        return arr
    raw = pa.Array.from_buffers(pa.uint8(), data.size, [None, data])
    shaped = pl.DataFrame({"b": raw}).select(mapping).to_series().to_arrow()
    return pa.LargeStringArray.from_buffers(
        len(arr), offsets, shaped.buffers()[1], validity, arr.null_count, arr.offset
    )


def map_ascii(texts: pl.Series, mapping: pl.Expr) -> pl.Series:
    """``texts`` with every byte written as ``mapping`` says (an expression of the
    byte, column ``b``, that maps ASCII bytes to ASCII bytes and leaves the others)."""
    return pl.Series(texts.name, _shape_array(_one_array(texts), mapping), dtype=pl.String)


def digit_shapes(texts: pl.Series) -> tuple[pl.Series, pl.Series]:
    """(distinct shapes, code per row into them) for a String Series.

    ``shapes.gather(codes)`` is the shape of every row; nulls keep a null code.
    """
    encoded = pc.dictionary_encode(_shape_array(_one_array(texts)))
    shapes = pl.Series(texts.name, encoded.dictionary, dtype=pl.String)
    codes = pl.Series("code", encoded.indices).cast(pl.UInt32)
    return shapes, codes


class ShapeMemo:
    """Answers computed per shape, kept for this process's later batches.

    The ranks of one job print the same shapes, so after its first file a worker
    knows nearly all of them; work with a fixed cost per batch (dozens of
    patterns, each a few column operations) then runs only on the new ones. Only
    for answers that are a function of the shape alone.
    """

    def __init__(self, limit: int = 20_000) -> None:
        # shapes kept; past it the memo starts again. A job's worker keeps a few
        # hundred; a batch worker, many jobs' worth: each lookup hashes the memo,
        # so it must stay well below what matching the shapes would cost.
        self.limit = limit
        self.table: pl.DataFrame | None = None  # _shape + the answer's columns

    def answer(
        self, shapes: pl.Series, compute: Callable[[pl.Series], pl.DataFrame], remember: pl.Expr | None = None
    ) -> pl.DataFrame:
        """``compute(shapes)`` (a frame with one row per shape, in order), computed
        only for the shapes not yet known; rows where ``remember`` is false are
        not kept (e.g. answers that cannot be used anyway)."""
        if self.table is None:
            fresh = compute(shapes)
            self._keep(shapes, fresh, remember)
            return fresh
        looked = pl.DataFrame({"_shape": shapes}).join(self.table, on="_shape", how="left", maintain_order="left")
        hit = looked.get_column("_known").is_not_null()
        looked = looked.drop("_shape", "_known")
        if hit.all():
            return looked
        missing = (~hit).arg_true()
        fresh = compute(shapes.gather(missing))
        self._keep(shapes.gather(missing), fresh, remember)
        known = looked.filter(hit).with_columns(_i=hit.arg_true())
        return pl.concat([known, fresh.with_columns(_i=missing)], how="vertical_relaxed").sort("_i").drop("_i")

    def _keep(self, shapes: pl.Series, fresh: pl.DataFrame, remember: pl.Expr | None) -> None:
        kept = fresh.with_columns(_shape=shapes, _known=pl.lit(True))
        if remember is not None:
            kept = kept.filter(remember)
        if self.table is None or self.table.height + kept.height > self.limit:
            self.table = kept.select("_shape", "_known", *fresh.columns)
        elif kept.height:
            self.table = pl.concat([self.table, kept.select(self.table.columns)])


def with_new_texts(
    texts: pl.Series, shapes: pl.Series, codes: pl.Series, keep_unused: bool = False
) -> tuple[pl.Series, pl.Series]:
    """``digit_shapes(texts)`` where most texts' shapes are known already.

    ``codes``: each text's code into ``shapes`` (a dictionary of distinct shapes),
    null for a text whose shape is to be worked out. Only those texts are shaped;
    the answer holds only the shapes ``texts`` use (so, e.g., shapes of lines
    that were folded into others are not matched and written for nothing), unless
    ``keep_unused`` (then the known codes stay as they are).
    """
    new = codes.is_null().arg_true()
    if new.len():
        more, more_codes = digit_shapes(texts.gather(new))
        union = pc.dictionary_encode(pa.concat_arrays([_one_array(shapes), _one_array(more)]))
        to_union = pl.Series(union.indices).cast(pl.UInt32)
        # ``shapes`` are distinct, so each keeps its code in the union (a dictionary
        # numbers values as they first occur): only the new texts' codes are looked up
        codes = codes.clone().scatter(new, to_union.gather(more_codes + shapes.len()))  # not the caller's
        shapes = pl.Series(shapes.name, union.dictionary, dtype=pl.String)
    if keep_unused:
        return shapes, codes.alias("code")
    used = codes.drop_nulls().unique().sort()
    renumber = pl.repeat(None, shapes.len(), dtype=pl.UInt32, eager=True).scatter(
        used, pl.int_range(used.len(), dtype=pl.UInt32, eager=True)
    )
    return shapes.gather(used), renumber.gather(codes).alias("code")


def _one_array(s: pl.Series) -> pa.Array:
    """A String Series as one Arrow large-string array."""
    arr = s.to_arrow()
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    return arr if pa.types.is_large_string(arr.type) else arr.cast(pa.large_string())


_DIGITS = range(ord("0"), ord("9") + 1)


def _sub_invariant(items: object) -> bool:
    """Walk a parsed regex (``re._parser`` tree); False at the first digit-specific part."""
    import re._constants as c

    for op, av in items:  # type: ignore[attr-defined]
        if op in (c.LITERAL, c.NOT_LITERAL):
            if av in _DIGITS:
                return False
        elif op is c.IN:
            for iop, iav in av:
                if iop is c.LITERAL and iav in _DIGITS:
                    return False
                if iop is c.RANGE:
                    lo, hi = iav
                    covered = len(range(max(lo, 48), min(hi, 57) + 1))
                    if covered not in (0, 10):
                        return False
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            if not _sub_invariant(av[2]):
                return False
        elif op is c.SUBPATTERN:
            if not _sub_invariant(av[3]):
                return False
        elif op is c.BRANCH:
            if not all(_sub_invariant(b) for b in av[1]):
                return False
        elif op in (c.ASSERT, c.ASSERT_NOT):
            if not _sub_invariant(av[1]):
                return False
        elif op is c.ATOMIC_GROUP:
            if not _sub_invariant(av):
                return False
        elif op in (c.GROUPREF, c.GROUPREF_EXISTS):
            return False  # a back-reference compares the digits themselves
    return True


def digit_invariant(regex: str) -> bool:
    """Does ``regex`` treat all ten digits alike (so it may run on shapes)?

    No digit literal, no character range covering only some digits, no
    back-reference. A regex Python cannot parse counts as not invariant.
    """
    import re._parser as parser

    try:
        return _sub_invariant(parser.parse(regex))
    except Exception:
        return False
