"""A timeline kept as a directory of Parquet parts (``ingest --out DIR/``): the same rows,
schema and metadata as the single file, read as a timeline by analyze and sql, by DuckDB,
Polars and pyarrow as one table; the engine seam's errors. No Ray needed here (see
tests/test_ray_engine.py for the Ray engine)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from correlator import synth
from correlator.ingest import IngestOptions, ingest
from correlator.target import NotATimeline, open_timeline
from correlator.timeline.parts_dir import META_FILE, is_timeline_dir, read_timeline_dir
from tests.conftest import SAMPLES

# small batches: a file over 256 KB is a part of its own, so a 3 MB job has several
OPTS = IngestOptions(exclude=("truth.json", "README.md"), echo_problems=False, batch_bytes=1 << 20)


@pytest.fixture(scope="module")
def job(tmp_path_factory) -> Path:
    """A generated job big enough for several parts (several files, node directories,
    a launcher log that stage 2 rewrites)."""
    root = tmp_path_factory.mktemp("dirjob") / "job"
    synth.generate_job(root, ranks=8, nodes=2, size="3MB", scenario="xid79", seed=5)
    return root


@pytest.fixture(scope="module")
def both(job, tmp_path_factory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("dirout")
    ingest(job, out_parquet=out / "one.parquet", options=OPTS)
    ingest(job, out_dir=out / "job.timeline", options=OPTS)
    return out / "one.parquet", out / "job.timeline"


def test_the_directory_holds_the_files_rows_in_its_order(both):
    one, parts = both
    tl = read_timeline_dir(parts)
    assert len(tl.parts) > 1 and [p.name for p in tl.parts] == sorted(p.name for p in parts.glob("*.parquet"))
    single = pq.read_table(one)
    con = duckdb.connect()
    as_duck = con.sql(f"SELECT * FROM read_parquet('{parts}/*.parquet')").to_arrow_table()
    assert as_duck.schema == con.sql(f"SELECT * FROM read_parquet('{one}')").to_arrow_table().schema
    assert as_duck.equals(con.sql(f"SELECT * FROM read_parquet('{one}')").to_arrow_table())
    # pyarrow's and Polars' readers see one table of the same rows (none of the part-only columns)
    assert ds.dataset(parts, format="parquet").to_table().num_rows == single.num_rows
    assert pl.scan_parquet(f"{parts}/*.parquet").collect().columns == single.column_names
    assert sum(tl.rows) == single.num_rows
    # each part keeps the schema version in its own footer
    assert all(pq.read_schema(p).metadata[b"correlator.schema_version"] for p in tl.parts)
    assert not list(parts.parent.glob(".*"))  # no scratch left beside it


def test_the_directory_carries_the_files_metadata(both):
    one, parts = both
    footer = {k.decode(): v.decode() for k, v in pq.read_schema(one).metadata.items()}
    assert read_timeline_dir(parts).metadata == footer
    with open_timeline(str(one)) as a, open_timeline(str(parts)) as b:
        for view in ("files", "problems"):
            q = f"SELECT * FROM {view} ORDER BY ALL"
            assert a.execute(q).fetchall() == b.execute(q).fetchall()
        # a row's position means the same in both layouts
        q = "SELECT event_row, file, line_no FROM event_rows ORDER BY event_row"
        assert a.execute(q).fetchall() == b.execute(q).fetchall()


def test_analyze_gives_the_same_verdict_on_the_directory(both):
    from correlator.analysis.analyze import analyze

    one, parts = both
    v1, v2 = analyze(str(one)), analyze(str(parts))
    assert v1.status == "failed" and v1.initiating is not None
    assert v1.model_dump() == v2.model_dump()


def test_the_commands_take_the_directory(both, tmp_path):
    from correlator.cli import main

    _, parts = both
    r = CliRunner().invoke(main, ["sql", str(parts), "SELECT count(*) AS n FROM events", "--format", "csv"])
    assert r.exit_code == 0, r.output
    assert int(r.output.split()[-1]) == sum(read_timeline_dir(parts).rows)
    r = CliRunner().invoke(main, ["analyze", str(parts), "--format", "md", "--out", str(tmp_path / "r.md")])
    assert r.exit_code == 1 and (tmp_path / "r.md").is_file(), r.output  # 1: the job failed


def test_a_sample_job_local_directory_is_the_file(tmp_path):
    sample = SAMPLES / "gloo-data-error-per-rank"
    ingest(sample, out_parquet=tmp_path / "a.parquet", options=OPTS)
    r = CliRunner().invoke(__import__("correlator.cli", fromlist=["main"]).main,
                           ["ingest", str(sample), "--out", str(tmp_path / "a") + "/", "--exclude", "truth.json",
                            "--exclude", "README.md"])
    assert r.exit_code == 0, r.output
    assert is_timeline_dir(tmp_path / "a")
    con = duckdb.connect()
    a = con.sql(f"SELECT * FROM '{tmp_path}/a.parquet' ORDER BY file, line_no").fetchall()
    b = con.sql(f"SELECT * FROM '{tmp_path}/a/*.parquet' ORDER BY file, line_no").fetchall()
    assert a == b and len(a) > 10


def test_a_directory_output_replaces_a_timeline_never_other_data(job, tmp_path):
    from correlator.cli import main

    out = tmp_path / "t.timeline"
    ingest(SAMPLES / "gloo-data-error-per-rank", out_dir=out, options=OPTS)
    first = read_timeline_dir(out).rows
    ingest(job, out_dir=out, options=OPTS)  # an earlier timeline directory: replaced whole
    assert read_timeline_dir(out).rows != first and not list(tmp_path.glob(".*"))
    data = tmp_path / "precious"
    data.mkdir()
    (data / "notes.txt").write_text("keep me")
    r = CliRunner().invoke(main, ["ingest", str(job), "--out", str(data)])
    assert r.exit_code == 2 and "not a timeline" in r.output
    assert (data / "notes.txt").read_text() == "keep me" and len(list(data.iterdir())) == 1


def test_a_damaged_directory_is_one_line(both, tmp_path):
    _, parts = both
    bad = tmp_path / "bad.timeline"
    bad.mkdir()
    meta = json.loads((parts / META_FILE).read_text())
    meta["parts"][0]["file"] = "../../etc/passwd.parquet"  # never outside the directory
    (bad / META_FILE).write_text(json.dumps(meta))
    with pytest.raises(NotATimeline, match="not a readable Parquet parts timeline"), open_timeline(str(bad)):
        pass
    meta["parts"] = [{"file": "part-999999.parquet", "rows": 3}]
    (bad / META_FILE).write_text(json.dumps(meta))
    with pytest.raises(NotATimeline, match="missing"), open_timeline(str(bad)):
        pass


def test_engine_ray_without_ray_is_one_line(monkeypatch, tmp_path):
    from correlator.cli import main

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    for args in (["ingest", str(SAMPLES / "gloo-data-error-per-rank"), "--out", str(tmp_path / "x.parquet")],
                 ["batch", str(SAMPLES / "hangs"), "--out", str(tmp_path / "rep")]):
        r = CliRunner().invoke(main, [*args, "--engine", "ray"])
        assert r.exit_code == 2, r.output
        assert r.output.strip().splitlines()[-1] == (
            "Error: --engine ray needs Ray, which is not installed: pip install 'correlator[ray]' "
            "(Ray 2.60 or newer)")
    assert not (tmp_path / "x.parquet").exists()


def test_local_engine_outcomes():
    """What a task did wrong is an outcome, never the engine's exception."""
    from correlator.engine import Task
    from correlator.engine.local import LocalEngine

    got = {o.key: o for o in LocalEngine(2).run(_task, [Task("a", (1,)), Task("b", (0,))])}
    assert got["a"].ok and got["a"].value == 1.0
    assert got["b"].failure == "raised" and got["b"].detail.startswith("ZeroDivisionError")
    here = {o.key: o for o in LocalEngine.on_pool(None).run(_task, [Task("a", (2,)), Task("b", (0,))])}
    assert here["a"].value == 0.5 and here["b"].failure == "raised"


def _task(x: int) -> float:
    return 1 / x


def test_an_error_in_a_task_keeps_its_type():
    """ingest raises what its task raised (an OSError stays one line at the command line)."""
    from correlator.engine import Task, failures_raise
    from correlator.engine.local import LocalEngine

    with pytest.raises(ZeroDivisionError):
        list(failures_raise(LocalEngine.on_pool(None).run(_task, [Task("a", (0,))])))
