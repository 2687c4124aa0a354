"""Whether a part's events hold a secret: looked at once, at ingest.

A batch shares each job's timeline, masked (``correlator.report.redact``). Deciding
whether anything needs masking there meant reading and decompressing every message
of the finished file again (on a 1 GB job most of what batch adds to a verdict).
Ingest already holds each batch of events in memory, so it answers there, by the
same patterns (``timeline.secrets.ANY_SECRET``, RE2) over the same columns, and records the
answer in the timeline's metadata (``SECRETS_KEY``), where ``redact_parquet``
reads it.

What is looked at, per batch, is kept small:

- the dictionary columns (job, node, file, template, shape, node_alias): their
  distinct values only, as ``redact_parquet`` reads them;
- ``message``: not at all, where the patterns treat the ten digits alike
  (``DIGIT_BLIND``): then a message holds a secret exactly where its digit
  shape (column ``shape``, a dictionary of the batch's distinct shapes) does;
- ``attrs``: the distinct (key, shape of the value) pairs, joined "key=value" as
  ``redact_table`` masks them (6 M pairs of the 250 MB bench job: 46,000 distinct,
  15,800 distinct shapes).

Otherwise (a pattern that tells digits apart) every message and pair is read.
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from correlator.timeline.secrets import DIGIT_BLIND, column_texts, has_secret
from correlator.timeline.shapes import map_ascii

# Columns of the parts that the timeline leaves out, and the parsers' own words,
# which redact_parquet does not mask either.
_NOT_MASKED = {"level", "source", "kind", "host_attr"}
_DIGIT_AS_ZERO = pl.when(pl.col("b").is_between(ord("1"), ord("9"))).then(pl.lit(ord("0"), pl.UInt8)).otherwise(
    pl.col("b"))


def part_has_secret(table: pa.Table) -> bool:
    """Whether a secret pattern matches in any text column of a part's batch that
    ``redact_parquet`` would mask (the table in the parts' schema, as written).
    Every column's strings go through one RE2 pass: the pattern is compiled per
    call (~1 ms, as much as the rest of a batch's dictionaries)."""
    texts: list[pa.Array] = []
    for field in table.schema:
        name, t = field.name, field.type
        if name in _NOT_MASKED:
            continue
        if name == "message" and DIGIT_BLIND and "shape" in table.schema.names:
            continue  # answered by the shapes
        for chunk in table.column(name).chunks:
            if name == "attrs":
                texts.append(_distinct_pairs(chunk))
            elif pa.types.is_dictionary(t) or pa.types.is_string(t) or pa.types.is_string_view(t):
                texts.append(column_texts(name, chunk).cast(pa.large_string()))
    texts = [a for a in texts if len(a)]
    return bool(texts) and bool(pc.any(has_secret(pa.concat_arrays(texts))).as_py())


def _distinct_pairs(attrs: pa.MapArray) -> pa.Array:
    """``attrs``' "key=value" pairs, each distinct one (by the value's shape) once."""
    if len(attrs.keys) == 0:
        return pa.array([], pa.large_string())
    values = pl.from_arrow(attrs.items)
    if DIGIT_BLIND:
        values = map_ascii(values.cast(pl.String), _DIGIT_AS_ZERO)
    pairs = pl.DataFrame({"k": pl.from_arrow(attrs.keys), "v": values}).unique()
    # a null value joins to null, as pyarrow's binary_join does: no match
    joined = pairs.select(pl.concat_str("k", pl.lit("="), "v")).to_series()
    return joined.to_arrow(compat_level=pl.CompatLevel.oldest())
