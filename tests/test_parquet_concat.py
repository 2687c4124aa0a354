"""parquet_concat: row groups of several files copied into one, footer rewritten."""

from __future__ import annotations

import itertools
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from correlator.ingest.parquet_concat import (
    ParquetConcatError,
    concat_parquet,
    decode_struct,
    encode_struct,
    footer_path,
    save_prepared,
)

_SCHEMA = pa.schema([
    ("n", pa.int64()),
    ("kind", pa.string()),
    ("attrs", pa.map_(pa.string(), pa.string())),
    ("ts", pa.timestamp("us", tz="UTC")),
    ("keep_me_not", pa.bool_()),
    ("nor_me", pa.string()),
])
_WRITE = {"compression": "zstd", "use_dictionary": ["kind"], "bloom_filter_options": {"kind": {"ndv": 16, "fpp": 0.05}}}


def _table(start: int, n: int) -> pa.Table:
    return pa.table({
        "n": list(range(start, start + n)),
        "kind": [f"k{i % 5}" for i in range(start, start + n)],
        "attrs": [[("i", str(i))] if i % 3 else [] for i in range(start, start + n)],
        "ts": [i * 1_000_000 for i in range(start, start + n)],
        "keep_me_not": [i % 2 == 0 for i in range(start, start + n)],
        "nor_me": ["x" * (i % 4) for i in range(start, start + n)],
    }, schema=_SCHEMA)


def _footer(path: Path) -> bytes:
    data = path.read_bytes()
    length = int.from_bytes(data[-8:-4], "little")
    return data[-8 - length:-8]


def test_footers_of_both_writers_decode_and_encode_to_the_same_bytes(tmp_path):
    pq.write_table(_table(0, 5000), tmp_path / "a.parquet", row_group_size=700, **_WRITE)
    duckdb.sql(f"COPY (SELECT * FROM range(5000) t(i), (SELECT 'x' AS s)) TO '{tmp_path / 'b.parquet'}' "
               "(FORMAT parquet, ROW_GROUP_SIZE 1024)")
    for name in ("a.parquet", "b.parquet"):
        footer = _footer(tmp_path / name)
        assert encode_struct(decode_struct(footer)) == footer


def test_a_cut_footer_is_an_error_not_a_crash(tmp_path):
    pq.write_table(_table(0, 3000), tmp_path / "a.parquet", row_group_size=1000, **_WRITE)
    footer = _footer(tmp_path / "a.parquet")
    for cut in range(0, len(footer), 7):
        with pytest.raises(ParquetConcatError):
            decode_struct(footer[:cut])


def test_row_groups_of_every_part_in_order_without_the_dropped_columns(tmp_path):
    # 3 parts: 17 row groups (a Thrift list header past 15 items), one empty row
    # group (what pyarrow writes for no rows), 3 row groups
    sizes = [(0, 2500, 150), (2500, 0, 100), (2500, 1200, 500)]
    parts = []
    for i, (start, n, group) in enumerate(sizes):
        parts.append(tmp_path / f"p{i}.parquet")
        pq.write_table(_table(start, n), parts[-1], row_group_size=group, **_WRITE)
    out = tmp_path / "all.parquet"
    rows = concat_parquet(parts, out, drop_columns=["keep_me_not", "nor_me"], key_value_metadata={"who": "me"})

    expected = _table(0, 3700).drop_columns(["keep_me_not", "nor_me"])
    got = pq.read_table(out)
    assert rows == 3700 and got.num_rows == 3700
    assert got.schema.remove_metadata() == expected.schema and got.equals(expected.cast(got.schema))
    meta = pq.ParquetFile(out).metadata
    assert meta.metadata == {b"who": b"me"}
    assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [150] * 16 + [100, 0, 500, 500, 200]
    # DuckDB reads it too, bloom filters and statistics included (a wrong offset in
    # either would skip row groups that hold the value, or fail to read)
    n, total = duckdb.sql(f"SELECT count(*), sum(n) FROM '{out}' WHERE kind = 'k3' AND n >= 1000").fetchall()[0]
    want = [i for i in range(1000, 3700) if i % 5 == 3]
    assert (n, total) == (len(want), sum(want))
    assert duckdb.sql(f"SELECT max(ts) FROM '{out}'").fetchall()[0][0].timestamp() == 3699


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.integers(0, 400), min_size=1, max_size=6), group=st.integers(1, 300),
       prepare=st.lists(st.booleans(), min_size=7, max_size=7))
def test_any_split_into_parts_concatenates_back_to_the_whole(tmp_path, cuts, group, prepare):
    bounds = [0, *sorted(cuts), 400]
    parts = []
    for i, (a, b) in enumerate(itertools.pairwise(bounds)):
        parts.append(tmp_path / f"h{i}.parquet")
        footer_path(parts[-1]).unlink(missing_ok=True)
        pq.write_table(_table(a, b - a), parts[-1], row_group_size=group, **_WRITE)
    out = tmp_path / "h.parquet"
    concat_parquet(parts, out)
    assert pq.read_table(out).equals(_table(0, 400))
    # the same bytes with any of the parts' footers prepared beforehand
    for part, yes in zip(parts, prepare, strict=False):
        if yes:
            save_prepared(part)
    again = tmp_path / "joined-again.parquet"
    concat_parquet(parts, again)
    assert again.read_bytes() == out.read_bytes()


def _row_groups(meta: list[list]) -> list[list]:
    return next(f[2][1] for f in meta if f[0] == 4)  # FileMetaData.row_groups


def _give_ordinals(path: Path) -> None:
    """Write each row group's ordinal (RowGroup field 7, i16) into ``path``'s footer,
    as some writers do (pyarrow and DuckDB leave it out)."""
    data = path.read_bytes()
    footer = _footer(path)
    meta = decode_struct(footer)
    for j, rg in enumerate(_row_groups(meta)):
        rg.append([7, 4, j])  # wire type 4: i16
    new = encode_struct(meta)
    path.write_bytes(data[:-8 - len(footer)] + new + len(new).to_bytes(4, "little") + b"PAR1")


def test_prepared_footers_give_the_same_file_without_decoding_the_parts_again(tmp_path, monkeypatch):
    import correlator.ingest.parquet_concat as pc_mod

    parts = []
    for i, (start, n, group) in enumerate([(0, 2500, 150), (2500, 0, 100), (2500, 1200, 500)]):
        parts.append(tmp_path / f"p{i}.parquet")
        pq.write_table(_table(start, n), parts[-1], row_group_size=group, **_WRITE)
        _give_ordinals(parts[-1])
    drop = ["keep_me_not", "nor_me"]
    plain, prepared = tmp_path / "plain.parquet", tmp_path / "prepared.parquet"
    concat_parquet(parts, plain, drop_columns=drop, key_value_metadata={"who": "me"})
    for part in parts:
        save_prepared(part, drop)
    decoded = []
    real = pc_mod.decode_struct
    monkeypatch.setattr(pc_mod, "decode_struct", lambda data: decoded.append(len(data)) or real(data))
    rows = concat_parquet(parts, prepared, drop_columns=drop, key_value_metadata={"who": "me"})
    assert len(decoded) == 1  # the first part's, for the file's own header fields
    assert rows == 3700 and prepared.read_bytes() == plain.read_bytes()
    # each row group's ordinal is its place in the whole file, not in its part
    groups = _row_groups(decode_struct(_footer(prepared)))
    assert len(groups) == 21
    assert [next(f[2] for f in rg if f[0] == 7) for rg in groups] == list(range(21))


def test_a_prepared_footer_is_used_only_for_the_part_it_was_made_from(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(_table(0, 300), a, row_group_size=100, **_WRITE)
    pq.write_table(_table(300, 200), b, row_group_size=100, **_WRITE)
    save_prepared(a)
    save_prepared(b)
    pq.write_table(_table(0, 250), a, row_group_size=50, **_WRITE)  # rewritten since
    footer_path(b).write_bytes(b"not a pickle")  # unreadable
    out = tmp_path / "out.parquet"
    assert concat_parquet([a, b], out) == 450
    assert pq.read_table(out).equals(pa.concat_tables([_table(0, 250), _table(300, 200)]))
    # prepared leaving out other columns than the concatenation does
    save_prepared(a, ["nor_me"])
    save_prepared(b)
    concat_parquet([a, b], out, drop_columns=["keep_me_not", "nor_me"])
    want = pa.concat_tables([_table(0, 250), _table(300, 200)]).drop_columns(["keep_me_not", "nor_me"])
    assert pq.read_table(out).equals(want.cast(pq.read_table(out).schema))
    # every row group lists the file's five leaf columns (n, kind, attrs' key and value, ts)
    groups = _row_groups(decode_struct(_footer(out)))
    assert [len(next(f[2][1] for f in rg if f[0] == 1)) for rg in groups] == [5] * len(groups)


def test_parts_of_different_schemas_are_refused(tmp_path):
    pq.write_table(_table(0, 10), tmp_path / "a.parquet")
    pq.write_table(_table(0, 10).drop_columns(["nor_me"]), tmp_path / "b.parquet")
    with pytest.raises(ParquetConcatError, match="schema differs"):
        concat_parquet([tmp_path / "a.parquet", tmp_path / "b.parquet"], tmp_path / "out.parquet")


def test_only_trailing_leaf_columns_can_be_dropped(tmp_path):
    pq.write_table(_table(0, 10), tmp_path / "a.parquet")
    for drop in (["kind"], ["attrs"], ["nor_me", "keep_me_not"]):
        with pytest.raises(ParquetConcatError, match="not the file's last leaf columns"):
            concat_parquet([tmp_path / "a.parquet"], tmp_path / "out.parquet", drop_columns=drop)


def test_a_file_that_is_not_parquet_is_named(tmp_path):
    (tmp_path / "x.parquet").write_bytes(b"PAR1 but no more")
    with pytest.raises(ParquetConcatError, match=r"x\.parquet"):
        concat_parquet([tmp_path / "x.parquet"], tmp_path / "out.parquet")


def test_without_copy_file_range_the_bytes_are_copied_by_hand(tmp_path, monkeypatch):
    # across file systems (scratch on tmpfs, output elsewhere) the kernel copy fails
    import os

    def refuse(*args, **kwargs):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "copy_file_range", refuse)
    parts = []
    for i, (start, n) in enumerate([(0, 700), (700, 300)]):
        parts.append(tmp_path / f"p{i}.parquet")
        pq.write_table(_table(start, n), parts[-1], row_group_size=256, **_WRITE)
    concat_parquet(parts, tmp_path / "out.parquet", drop_columns=["keep_me_not", "nor_me"])
    assert pq.read_table(tmp_path / "out.parquet").equals(_table(0, 1000).drop_columns(["keep_me_not", "nor_me"]))


def test_the_cyclic_gc_is_off_while_footers_are_decoded_and_back_on_after(tmp_path, monkeypatch):
    """Allocating the decoded footers' many small lists kept triggering collections
    that walked every object of the process; the GC's state is restored even when
    the concatenation fails."""
    import gc

    import correlator.ingest.parquet_concat as pc_mod

    pq.write_table(_table(0, 100), tmp_path / "a.parquet", **_WRITE)
    seen = []
    real = pc_mod.decode_struct
    monkeypatch.setattr(pc_mod, "decode_struct", lambda data: seen.append(gc.isenabled()) or real(data))
    assert gc.isenabled()
    concat_parquet([tmp_path / "a.parquet"], tmp_path / "out.parquet")
    assert seen and not any(seen) and gc.isenabled()
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(ParquetConcatError):
        concat_parquet([tmp_path / "a.parquet", tmp_path / "bad.parquet"], tmp_path / "out2.parquet")
    assert gc.isenabled()
