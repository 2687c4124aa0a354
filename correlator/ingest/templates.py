"""Message templates: the same event on different ranks gets the same template.

Variable parts (stamps, numbers, hex ids, addresses, paths, NCCL host:pid:tid
headers) are masked with one combined regex. The regex runs on a message's
digit shape (``correlator.timeline.shapes``), so it runs once per distinct shape: a
training log's hundreds of thousands of ``step N loss X`` lines are one shape,
and NCCL chatter and collateral errors repeat across ranks. A template is by
definition the mask of the shape, so it never depends on which digits a line had.

Shapes are still distinct where a line holds a hex pointer (NCCL prints one per
communicator), so the mask runs on a shorter key still: the shape with every hex
token that follows a space written ``0x0`` (``_same_mask``), remembered across
batches (a worker's files are one job's ranks).
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from correlator.timeline.shapes import ShapeMemo, digit_shapes

# Order matters: the alternation is tried left to right at each position.
_MASKS = (
    # NCCL "host:pid:tid" header (the host differs per node)
    (r"^(?:\[[^\]]*\] )?[^\s:\[\]]+:\d+:\d+ ", "<host>:<pid>:<tid> "),
)
_TOKEN = (
    r"0x[0-9a-fA-F]+"  # addresses, comm ids
    r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"  # uuids
    r"|\d{1,3}(?:\.\d{1,3}){3}(?:[:<]\d+>?)?"  # IPv4 with port
    r"|(?:[\w.+-]*/)+[\w.+-]+"  # paths
    r"|(?-u:\b)[0-9a-fA-F]*\d[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*(?-u:\b)"  # hex words with a digit (busId 9b000)
    r"|\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?"  # numbers, incl. stamps' parts
)


def mask(messages: pl.Series) -> pl.Series:
    """The masked form of each (shaped) message."""
    out = messages.str.replace_all(r"\r", "")
    for pattern, repl in _MASKS:
        out = out.str.replace(pattern, repl)
    out = out.str.replace_all(_TOKEN, "<*>")
    # collapse runs like "<*>-<*>-<*> <*>:<*>:<*>" (a masked timestamp) to one token
    return out.str.replace_all(r"<\*>(?:[-:., T/_]*<\*>)+", "<*>")


def _key(messages: pl.Series) -> pl.Series:
    """What is templated: the first line, plus the last line of a multi-line event.

    A traceback's frames carry paths and line numbers that differ between
    builds but not between ranks of one job; its last line is the exception.
    """
    several = messages.str.contains("\n", literal=True)
    if not several.any():
        return messages  # a one-line message is its own key
    if several.all():
        return _first_and_last(messages)
    at = several.arg_true()
    return messages.clone().scatter(at, _first_and_last(messages.gather(at)))  # scatter writes in place


def _first_and_last(messages: pl.Series) -> pl.Series:
    head = messages.str.split_exact("\n", 1).struct.field("field_0")
    last = pl.when(messages.str.contains("\n", literal=True)).then(
        pl.lit(" … ") + messages.str.extract(r"\n([^\n]*)\s*$", 1)
    )
    return pl.select(pl.concat_str([head, last.fill_null("")])).to_series()


# A hex token at the start or after a space or tab. The mask makes it one ``<*>``
# whatever its length and letters: ``0x[0-9a-fA-F]+`` is the first alternative of
# _TOKEN and takes the whole run (what follows is the same in both), no
# alternative can match across the space before it (so a match that begins
# earlier cannot take part of it), the NCCL header either holds it or not
# whatever its letters (its classes take any of them), and hex letters and ``0``
# are both word characters for the ``\b`` after it. (A ``\r`` the mask deletes
# after it can only join more hex to the run, still one token.)
_HEX_AFTER_SPACE = r"(^|[ \t])0x[0-9a-fA-F]+"


def _same_mask(keys: pl.Series) -> pl.Series:
    """Keys with the same mask as ``keys``, and fewer distinct values."""
    return keys.str.replace_all(_HEX_AFTER_SPACE, "${1}0x0")


_MEMO = ShapeMemo()


def templates(
    messages: pl.Series, shapes: pl.Series | None = None, codes: pl.Series | None = None
) -> pl.Series:
    """The template of each message, as an Enum of the batch's templates (it becomes
    an Arrow dictionary as it is: no string is copied per row, nor hashed again);
    ``shapes``/``codes`` = ``digit_shapes(messages)`` if known."""
    if shapes is None or codes is None:
        shapes, codes = digit_shapes(messages)
    keys = pc.dictionary_encode(_same_mask(_key(shapes)).to_arrow())
    distinct = pl.Series(keys.dictionary.cast(pa.large_string()))
    masked = _MEMO.answer(distinct, lambda k: pl.DataFrame({"template": mask(k)})).get_column("template")
    per_key = masked.cast(pl.Enum(masked.drop_nulls().unique(maintain_order=True)))
    per_shape = per_key.gather(pl.Series(keys.indices).cast(pl.UInt32))
    return per_shape.gather(codes).alias("template")
