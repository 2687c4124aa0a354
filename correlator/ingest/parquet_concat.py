"""Concatenate Parquet files of one schema into one file without re-encoding them.

Ingest's workers each write their events as a finished Parquet file; the timeline
is those files' row groups one after the other. Decoding and encoding every value
again to make one file costs more than all the parsing put together (DuckDB's
writer: 13-16 CPU-seconds for the 1 GB benchmark), while a row group's bytes are
valid wherever they sit, as long as the footer says where. So this copies each
file's data pages as they are and writes one footer listing every row group, with
its offsets moved by where its bytes now start.

Parquet's footer is a Thrift struct (``FileMetaData``) in the compact protocol.
The codec below is generic (field ids and wire types, no schema compiled in), so
it round-trips fields it does not know; only the offsets, the row counts and the
dropped trailing columns are touched, by their ids in ``parquet.thrift``.

Decoding and encoding the footers is Python work on ~100,000 fields (the 1 GB
bench's 83 parts), done after every part is written, while one core waits. So a
part's writer can do most of it as soon as the part is closed (``prepare_footer``,
in ingest's workers): its row groups decoded, trailing columns dropped and encoded
again, cut where a value depends on the part's place in the file (a byte offset,
a row group's ordinal). ``concat_parquet`` then only fills those in.

Does it still pay for itself? Measured 2026-12-01 (issue 23) with
``bench/concat_bench.py``, which runs ``correlator ingest`` three ways, alternating
them round after round, then ``correlator analyze`` of what each wrote:

- **codec**: this module;
- **pyarrow**: ``pq.ParquetWriter`` with the parts' own write settings, each part
  read row group by row group without the part-only columns and written again
  (the same row groups, encodings, statistics and bloom filters, the same
  ``correlator.*`` key-value metadata and nearly the same size: compared with
  DuckDB's ``parquet_metadata``);
- **dir**: the parts moved into a directory as they are, read as
  ``read_parquet('dir/*.parquet')`` (``event_row`` made unique per part for the
  measurement; no command accepts this today).

On the project's 2-core VM while other work held its load average at 8-14, so
every absolute time is 3-10x the README's and only a round's own comparison
means much (ranges over 5 rounds; "write" is the step's own wall time inside
the ingest):

======================  ===============  ===============  ===============
job                     codec            pyarrow          dir
======================  ===============  ===============  ===============
1 GB bench (65 parts)
  write                 0.39-1.42 s      17.8-48.6 s      0.004-0.045 s
  whole ingest          32-119 s         53-179 s         47-147 s
  analyze of result     3.9-12.7 s       6.1-25.2 s       12.4-24.4 s
300 MB mix (17 parts) [1]_
  write                 0.17-0.52 s      14.8-29.6 s      0.009-0.081 s
  whole ingest          38-58 s          77-102 s         74-132 s
  analyze of result     11.5-17.9 s      12.7-33.1 s      21.4-37.0 s
3 sample jobs [2]_
  write                 0.004-0.052 s    0.018-0.38 s     0.002-0.13 s
  whole ingest          4.6-18.3 s       3.4-48.2 s       3.6-23.7 s
  analyze of result     5.4-25.8 s       3.5-26.1 s       7.7-26.0 s
======================  ===============  ===============  ===============

On the 1 GB bench, pyarrow's write cost 27-49x the codec's in every round, and
its ingest was the slower in every round (by 4.5-87 s): it decodes and encodes
every value again, in the main process, after the workers are done. The
directory saves the codec's fraction of a second but made every analyze slower,
1.6-3.4x the codec's in each round (its ~40 queries read 65 files,
not one). (pyarrow's file has the codec's layout, so its analyze figures differ
from the codec's only by the machine's noise.) On the mix, the same in
every round: pyarrow's write 32-124x the codec's and its ingest 34-60 s longer;
the directory's analyze 1.6-2.6x the codec's. (Whole-ingest differences beyond
the write step's are the machine's noise.) On the small sample jobs the three
are within the noise of each other.

Decision: keep the codec. Where it matters (jobs of hundreds of MB and more) the
difference is far larger than the noise, and users need a single file:
``ingest --out FILE.parquet`` promises one, the ``files`` and ``problems`` tables
travel in its key-value metadata, ``event_rows`` is the file's own row number
(``correlator/target.py``), and ``analyze``/``sql``/``export``/``batch`` take a
file.

.. [1] ``generate_job('/tmp/mix/job', ranks=16, nodes=2, size='300MB',
   scenario='nccl-ib-error', seed=3)``: 288 MB in 23 files, a failure and a
   rank/node mix the bench was not tuned on.
.. [2] ``sample_logs/oom-cascade-nccl-timeouts``, ``xid79-fallen-off-bus``,
   ``torchrun-logdir-tree`` (real captures, under 200 KB each); every variant
   gave the same verdict on every job.
"""

from __future__ import annotations

import gc
import io
import itertools
import os
import pickle
import struct
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

_MAGIC = b"PAR1"

# compact-protocol wire types
_TRUE, _FALSE, _I8, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(1, 13)


class ParquetConcatError(Exception):
    pass


# ------------------------------------------------------------- Thrift compact codec
# A struct decodes to a list of [field_id, wire_type, value]; a list or set to
# (element_type, [values]); a map to (key_type, value_type, [(k, v)]); a bool field
# to its wire type (_TRUE / _FALSE) with value None.


# The reader is plain functions over (data, pos) with the varint loop written out:
# a timeline's footer has ~100,000 fields (83 parts of the 1 GB bench), and method
# calls per byte made decoding them a third of the concatenation's time.


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    b = data[pos]
    pos += 1
    if b < 0x80:
        return b, pos
    result, shift = b & 0x7F, 7
    while True:
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def _read_value(data: bytes, pos: int, wire: int):
    if wire in (_I32, _I64, _I16):
        z, pos = _read_varint(data, pos)
        return (z >> 1) ^ -(z & 1), pos
    if wire == _BINARY:
        n, pos = _read_varint(data, pos)
        if pos + n > len(data):
            raise ParquetConcatError("footer ends inside a value")
        return data[pos:pos + n], pos + n
    if wire == _STRUCT:
        return _read_struct(data, pos)
    if wire in (_LIST, _SET):
        head = data[pos]
        pos += 1
        size, elem = head >> 4, head & 0x0F
        if size == 15:
            size, pos = _read_varint(data, pos)
        if elem in (_TRUE, _FALSE):  # bools in a collection are one byte each
            if pos + size > len(data):
                raise ParquetConcatError("footer ends inside a value")
            return (elem, list(data[pos:pos + size])), pos + size
        items = []
        for _ in range(size):
            item, pos = _read_value(data, pos, elem)
            items.append(item)
        return (elem, items), pos
    if wire == _I8:
        return data[pos], pos + 1
    if wire == _MAP:
        size, pos = _read_varint(data, pos)
        if size == 0:
            return (0, 0, []), pos
        kinds = data[pos]
        pos += 1
        k, v = kinds >> 4, kinds & 0x0F
        pairs = []
        for _ in range(size):
            key, pos = _read_value(data, pos, k)
            val, pos = _read_value(data, pos, v)
            pairs.append((key, val))
        return (k, v, pairs), pos
    if wire == _DOUBLE:
        if pos + 8 > len(data):
            raise ParquetConcatError("footer ends inside a value")
        return data[pos:pos + 8], pos + 8
    raise ParquetConcatError(f"unknown Thrift wire type {wire}")


def _read_struct(data: bytes, pos: int) -> tuple[list[list], int]:
    fields: list[list] = []
    last = 0
    while True:
        head = data[pos]
        pos += 1
        if head == 0:
            return fields, pos
        wire, delta = head & 0x0F, head >> 4
        if delta:
            fid = last + delta
        else:
            z, pos = _read_varint(data, pos)
            fid = (z >> 1) ^ -(z & 1)
        last = fid
        if wire in (_TRUE, _FALSE):
            fields.append([fid, wire, None])
        elif wire in (_I32, _I64):  # most fields: sizes, offsets, counts, enums
            z, pos = _read_varint(data, pos)
            fields.append([fid, wire, (z >> 1) ^ -(z & 1)])
        else:
            value, pos = _read_value(data, pos, wire)
            fields.append([fid, wire, value])


def _varint(n: int, out: bytearray) -> None:
    while True:
        if n < 0x80:
            out.append(n)
            return
        out.append((n & 0x7F) | 0x80)
        n >>= 7


def _zigzag(n: int, out: bytearray) -> None:
    _varint((n << 1) ^ (n >> 63), out)


class _Hole:
    """A value only concatenation knows: a byte offset into the part, moved by where
    the part's bytes land, or a row group's ordinal, its place in the file."""

    __slots__ = ("ordinal", "value")

    def __init__(self, value: int, ordinal: bool = False) -> None:
        self.value, self.ordinal = value, ordinal


@dataclass(frozen=True)
class _Encoded:
    """A list's elements, encoded beforehand."""

    count: int
    data: bytes


def _write_value(wire: int, value, out: bytearray, marks: list | None = None) -> None:
    if wire in (_I16, _I32, _I64):
        _zigzag(value, out)
    elif wire == _I8:
        out.append(value & 0xFF)
    elif wire == _BINARY:
        _varint(len(value), out)
        out += value
    elif wire == _STRUCT:
        _write_struct(value, out, marks)
    elif wire in (_LIST, _SET) and type(value) is _Encoded:
        _list_header(value.count, _STRUCT, out)
        out += value.data
    elif wire in (_LIST, _SET):
        elem, items = value
        _list_header(len(items), elem, out)
        if elem in (_TRUE, _FALSE):
            out += bytes(items)
        else:
            for item in items:
                _write_value(elem, item, out, marks)
    elif wire == _MAP:
        k, v, items = value
        _varint(len(items), out)
        if items:
            out.append(k << 4 | v)
            for key, val in items:
                _write_value(k, key, out)
                _write_value(v, val, out)
    elif wire == _DOUBLE:
        out += value
    else:
        raise ParquetConcatError(f"unknown Thrift wire type {wire}")


def _list_header(size: int, elem: int, out: bytearray) -> None:
    if size < 15:
        out.append(size << 4 | elem)
    else:
        out.append(0xF0 | elem)
        _varint(size, out)


def _write_struct(fields: list[list], out: bytearray, marks: list | None = None) -> None:
    """Encode a struct; a ``_Hole`` value writes nothing, and its place in ``out`` is
    added to ``marks``."""
    last = 0
    for fid, wire, value in fields:
        delta = fid - last
        if 0 < delta <= 15:
            out.append(delta << 4 | wire)
        else:
            out.append(wire)
            _zigzag(fid, out)
        last = fid
        if type(value) is _Hole:
            marks.append((len(out), value))  # type: ignore[union-attr]
        elif wire not in (_TRUE, _FALSE):
            _write_value(wire, value, out, marks)
    out.append(0)


def decode_struct(data: bytes) -> list[list]:
    try:
        return _read_struct(data, 0)[0]
    except IndexError:
        raise ParquetConcatError("footer ends inside a value") from None


def encode_struct(fields: list[list]) -> bytes:
    out = bytearray()
    _write_struct(fields, out)
    return bytes(out)


def _get(fields: list[list], fid: int):
    for f in fields:
        if f[0] == fid:
            return f[2]
    return None


def _set(fields: list[list], fid: int, wire: int, value) -> None:
    for f in fields:
        if f[0] == fid:
            f[2] = value
            return
    fields.append([fid, wire, value])
    fields.sort(key=lambda f: f[0])


def _mark_offsets(fields: list[list] | None, ids: tuple[int, ...]) -> None:
    for f in fields or ():
        if f[0] in ids and f[2] is not None:
            f[2] = _Hole(f[2])


# ------------------------------------------------------------- parquet.thrift ids
# FileMetaData
_FMD_SCHEMA, _FMD_NUM_ROWS, _FMD_ROW_GROUPS, _FMD_KV, _FMD_COLUMN_ORDERS = 2, 3, 4, 5, 7
# SchemaElement
_SE_NAME, _SE_NUM_CHILDREN = 4, 5
# RowGroup
_RG_COLUMNS, _RG_TOTAL_BYTE_SIZE, _RG_FILE_OFFSET, _RG_TOTAL_COMPRESSED, _RG_ORDINAL = 1, 2, 5, 6, 7
# ColumnChunk: file_path, file_offset, meta_data; offset/column index offsets
_CC_FILE_PATH, _CC_META = 1, 3
_CC_OFFSETS = (2, 4, 6)
# ColumnMetaData: uncompressed and compressed sizes; data, index, dictionary and bloom filter offsets
_CMD_UNCOMPRESSED, _CMD_COMPRESSED = 6, 7
_CMD_OFFSETS = (9, 10, 11, 14)
# ColumnChunk / ColumnMetaData fields that would place bytes outside the data region
_ENCRYPTED = (8, 9)


def _footer(path: Path) -> tuple[list[list], int]:
    """A file's decoded FileMetaData and where its data region ends."""
    size = path.stat().st_size
    with path.open("rb") as fh:
        head = fh.read(4)
        if size < 12 or head != _MAGIC:
            raise ParquetConcatError(f"{path}: not a Parquet file")
        fh.seek(size - 8)
        tail = fh.read(8)
        if tail[4:] != _MAGIC:
            raise ParquetConcatError(f"{path}: no Parquet footer (encrypted or truncated)")
        length = struct.unpack("<I", tail[:4])[0]
        end = size - 8 - length
        if end < 4:
            raise ParquetConcatError(f"{path}: footer longer than the file")
        fh.seek(end)
        return decode_struct(fh.read(length)), end


def _copy_range(src: Path, start: int, end: int, dst: io.FileIO) -> None:
    """Append src[start:end] to the unbuffered ``dst``, in the kernel where it can."""
    with src.open("rb", buffering=0) as fh:
        done = start
        try:
            while done < end:
                n = os.copy_file_range(fh.fileno(), dst.fileno(), end - done, done)
                if n == 0:
                    break
                done += n
        except (AttributeError, OSError):  # no copy_file_range here, or not across these mounts
            pass
        fh.seek(done)
        while done < end:
            data = fh.read(min(end - done, 1 << 20))
            if not data:
                raise ParquetConcatError(f"{src}: shorter than its footer says")
            _write_all(dst, data)
            done += len(data)


def _write_all(dst: io.FileIO, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[dst.write(view):]


def _drop_trailing(schema: list, drop: Sequence[str]) -> int:
    """Drop the top-level columns named ``drop`` (the last ones, each a single leaf)
    from a flattened schema list; returns how many leaves went."""
    if not drop:
        return 0
    tail = schema[-len(drop):]
    names = [(_get(e, _SE_NAME) or b"").decode() for e in tail]
    if names != list(drop) or any(_get(e, _SE_NUM_CHILDREN) for e in tail):
        raise ParquetConcatError(f"the columns to drop {list(drop)} are not the file's last leaf columns")
    del schema[-len(drop):]
    root = schema[0]
    _set(root, _SE_NUM_CHILDREN, _I32, _get(root, _SE_NUM_CHILDREN) - len(drop))
    return len(drop)


@contextmanager
def _no_gc() -> Iterator[None]:
    """Decoded footers are a few hundred thousand small lists without cycles; the
    cyclic GC, triggered again and again by their allocation, walked every object
    of the process each time (the 1 GB bench: 0.3-0.8 s of decoding -> 0.1 s)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@dataclass(frozen=True)
class PreparedFooter:
    """A part's footer made ready for concatenation: its row groups encoded without
    the dropped columns, cut at each value that depends on where the part lands
    (``chunks`` around ``holes``: (is ordinal, value in the part))."""

    size: int  # the part's size and mtime when prepared: a rewritten part is decoded again
    mtime_ns: int
    dropped: tuple[str, ...]  # the columns left out of ``chunks``
    data_end: int
    rows: int
    row_groups: int
    schema: bytes
    chunks: tuple[bytes, ...]
    holes: tuple[tuple[bool, int], ...]

    def fits(self, path: Path, drop_columns: Sequence[str]) -> bool:
        st = path.stat()
        return (st.st_size, st.st_mtime_ns, tuple(drop_columns)) == (self.size, self.mtime_ns, self.dropped)


def prepare_footer(path: str | Path, drop_columns: Sequence[str] = ()) -> PreparedFooter:
    """Decode ``path``'s footer and encode its row groups for ``concat_parquet``."""
    path = Path(path)
    with _no_gc():
        st = path.stat()
        meta, end = _footer(path)
        schema = _get(meta, _FMD_SCHEMA)
        schema_bytes = encode_struct([[1, _LIST, schema]])
        dropped = _drop_trailing(schema[1], drop_columns)
        groups = (_get(meta, _FMD_ROW_GROUPS) or (0, []))[1]
        for ordinal, rg in enumerate(groups):
            columns = _get(rg, _RG_COLUMNS)[1]
            for cc in columns:
                if _get(cc, _CC_FILE_PATH) is not None or any(_get(cc, i) is not None for i in _ENCRYPTED):
                    raise ParquetConcatError(f"{path}: column chunks in other files or encrypted")
            if dropped:
                gone = columns[-dropped:]
                del columns[-dropped:]
                for fid, size_id in ((_RG_TOTAL_BYTE_SIZE, _CMD_UNCOMPRESSED), (_RG_TOTAL_COMPRESSED, _CMD_COMPRESSED)):
                    total = _get(rg, fid)
                    if total is not None:
                        _set(rg, fid, _I64, total - sum(_get(_get(c, _CC_META), size_id) or 0 for c in gone))
            for cc in columns:
                _mark_offsets(cc, _CC_OFFSETS)
                _mark_offsets(_get(cc, _CC_META), _CMD_OFFSETS)
            _mark_offsets(rg, (_RG_FILE_OFFSET,))
            if _get(rg, _RG_ORDINAL) is not None:
                _set(rg, _RG_ORDINAL, _I16, _Hole(ordinal, ordinal=True))
        out, marks = bytearray(), []
        for rg in groups:
            _write_struct(rg, out, marks)
    cuts = [0, *(at for at, _ in marks), len(out)]
    return PreparedFooter(
        size=st.st_size, mtime_ns=st.st_mtime_ns, dropped=tuple(drop_columns), data_end=end, rows=_get(meta, _FMD_NUM_ROWS) or 0,
        row_groups=len(groups), schema=schema_bytes,
        chunks=tuple(bytes(out[a:b]) for a, b in itertools.pairwise(cuts)),
        holes=tuple((h.ordinal, h.value) for _, h in marks),
    )


def footer_path(part: str | Path) -> Path:
    """Where ``save_prepared`` keeps a part's prepared footer: beside it."""
    part = Path(part)
    return part.with_name(part.name + ".footer")


def save_prepared(part: str | Path, drop_columns: Sequence[str] = ()) -> None:
    """Prepare ``part``'s footer and keep it beside the part for ``concat_parquet``."""
    data = pickle.dumps(prepare_footer(part, drop_columns), protocol=pickle.HIGHEST_PROTOCOL)
    footer_path(part).write_bytes(data)


def _prepared(part: Path, drop_columns: Sequence[str]) -> PreparedFooter:
    """The footer kept beside ``part`` if it was made from the part as it is now,
    leaving out the same columns; else made here."""
    kept = footer_path(part)
    if kept.exists():
        try:
            prepared = pickle.loads(kept.read_bytes())  # our own scratch file
        except Exception:  # unreadable: made again below
            prepared = None
        if isinstance(prepared, PreparedFooter) and prepared.fits(part, drop_columns):
            return prepared
    return prepare_footer(part, drop_columns)


def _render(p: PreparedFooter, delta: int, first_ordinal: int, out: bytearray) -> None:
    """Append ``p``'s row groups with their offsets moved by ``delta`` and their
    ordinals counted from ``first_ordinal``."""
    chunks = p.chunks
    out += chunks[0]
    for (is_ordinal, value), chunk in zip(p.holes, chunks[1:], strict=True):
        _zigzag(value + (first_ordinal if is_ordinal else delta), out)
        out += chunk


def concat_parquet(
    parts: Sequence[str | Path], out: str | Path, *, drop_columns: Sequence[str] = (),
    key_value_metadata: dict[str, str] | None = None,
) -> int:
    """Write ``out`` holding every row group of ``parts``, in order; returns its rows.

    The parts must share one schema. ``drop_columns`` names trailing top-level
    primitive columns to leave out (their bytes stay in the file, unreferenced).
    ``key_value_metadata`` replaces the parts' own (which includes pyarrow's
    ``ARROW:schema`` of the undropped schema, so it is never kept). A part's footer
    prepared beside it (``save_prepared``, for the same ``drop_columns``) is used
    if the part has not changed since.
    """
    with _no_gc():
        return _concat(parts, out, drop_columns, key_value_metadata)


def _concat(
    parts: Sequence[str | Path], out: str | Path, drop_columns: Sequence[str],
    key_value_metadata: dict[str, str] | None,
) -> int:
    if not parts:
        raise ParquetConcatError("no Parquet files to concatenate")
    out = Path(out)
    paths = [Path(p) for p in parts]
    head, _ = _footer(paths[0])  # version, schema, column orders, writer: the first part's
    schema_bytes = encode_struct([[1, _LIST, _get(head, _FMD_SCHEMA)]])
    row_groups = bytearray()
    count = rows = 0
    with out.open("wb", buffering=0) as dst:
        _write_all(dst, _MAGIC)
        pos = len(_MAGIC)
        for part in paths:
            prepared = _prepared(part, drop_columns)
            if prepared.schema != schema_bytes:
                raise ParquetConcatError(f"{part}: schema differs from {parts[0]}")
            _render(prepared, pos - len(_MAGIC), count, row_groups)
            count += prepared.row_groups
            rows += prepared.rows
            _copy_range(part, len(_MAGIC), prepared.data_end, dst)
            pos += prepared.data_end - len(_MAGIC)

        _write_all(dst, _final_footer(head, count, row_groups, rows, drop_columns, key_value_metadata))
    return rows


def _final_footer(
    head: list[list], count: int, row_groups: bytearray, rows: int, drop_columns: Sequence[str],
    key_value_metadata: dict[str, str] | None,
) -> bytes:
    """The footer (with its length and the magic) of a file of ``count`` rendered row
    groups, on the first part's decoded ``head``."""
    schema = _get(head, _FMD_SCHEMA)
    dropped = _drop_trailing(schema[1], drop_columns)
    orders = _get(head, _FMD_COLUMN_ORDERS)
    if orders is not None and dropped:
        del orders[1][-dropped:]
    _set(head, _FMD_NUM_ROWS, _I64, rows)
    _set(head, _FMD_ROW_GROUPS, _LIST, _Encoded(count, bytes(row_groups)))
    kv = [[[1, _BINARY, k.encode()], [2, _BINARY, v.encode()]] for k, v in (key_value_metadata or {}).items()]
    if kv:
        _set(head, _FMD_KV, _LIST, (_STRUCT, kv))
    else:
        head[:] = [f for f in head if f[0] != _FMD_KV]
    footer = encode_struct(head)
    return footer + struct.pack("<I", len(footer)) + _MAGIC


def finish_in_place(
    part: str | Path, *, drop_columns: Sequence[str] = (), key_value_metadata: dict[str, str] | None = None,
) -> int:
    """Make ``part`` a file of its own as ``concat_parquet([part], ...)`` would write it,
    without copying its data: the footer is cut off and written again (``drop_columns``
    left out, ``key_value_metadata`` in place of the part's own). Returns its rows.

    For a timeline kept as a directory of parts (``correlator ingest --out DIR/``):
    each part is finished where it lies, O(footer) whatever its size. A filesystem
    that cannot truncate and append (object storage) would copy it with
    ``concat_parquet`` instead."""
    part = Path(part)
    with _no_gc():
        prepared = _prepared(part, drop_columns)
        head, _ = _footer(part)
        row_groups = bytearray()
        _render(prepared, 0, 0, row_groups)
        footer = _final_footer(head, prepared.row_groups, row_groups, prepared.rows, drop_columns, key_value_metadata)
        with part.open("r+b", buffering=0) as fh:
            fh.truncate(prepared.data_end)
            fh.seek(prepared.data_end)
            _write_all(fh, footer)
    footer_path(part).unlink(missing_ok=True)
    return prepared.rows
