"""Inputs are never written; outputs are atomic (issue 22, "Trust", task 1).

No command writes over an input file or over a file inside the analysed
directory; every output appears whole under its name or not at all, with no
temporary file left and no planted link followed.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from correlator.batch.run import BatchOptions, find_jobs, run_batch
from correlator.cli import main
from correlator.output import (
    OutputRefused,
    atomic_path,
    atomic_write_text,
    refuse_overwriting_inputs,
)
from tests.jobs import write_job

LOG = (
    "2024-05-01 12:00:01,000 - INFO - __main__ - step 1 | loss 1.0\n"
    "2024-05-01 12:00:02,000 - INFO - __main__ - step 2 | loss 0.9\n"
    "2024-05-01 12:00:03,000 - ERROR - __main__ - RuntimeError: CUDA error: an illegal memory access was encountered\n"
)


@pytest.fixture
def job(tmp_path) -> Path:
    return write_job(tmp_path, {"rank0.log": LOG, "rank1.log": LOG.replace("ERROR", "INFO")})


def _leftovers(d: Path) -> list[str]:
    return sorted(p.name for p in d.iterdir() if p.name.startswith(".") or p.name.endswith((".tmp", ".part")))


def _one_error_line(res) -> str:
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    return lines[0]


# --------------------------------------------------------------------------- inputs are never written


@pytest.mark.parametrize("argv", [
    ["ingest", "{job}", "--out", "{job}/rank0.log"],
    ["ingest", "{job}", "--db", "{job}/rank0.log"],
    ["ingest", "{job}/rank0.log", "--out", "{job}/rank0.log"],
    ["analyze", "{job}", "--out", "{job}/rank0.log"],
    ["analyze", "{job}", "--format", "json", "--out", "{job}/rank1.log"],
    ["export", "{job}", "--out", "{job}/rank0.log"],
    ["sql", "{job}", "SELECT 1", "--out", "{job}/rank0.log"],
    ["sql", "{job}/rank0.log", "SELECT 1", "--format", "parquet", "--out", "{job}/rank0.log"],
])
def test_an_output_over_an_input_is_refused(job, argv):
    before = {p.name: p.read_bytes() for p in job.iterdir()}
    res = CliRunner().invoke(main, [a.format(job=job) for a in argv])
    line = _one_error_line(res)
    assert "rank" in line and "refusing to write" in line
    assert {p.name: p.read_bytes() for p in job.iterdir()} == before


def test_an_output_through_a_link_to_an_input_is_refused(job, tmp_path):
    link = tmp_path / "out.parquet"
    link.symlink_to(job / "rank0.log")
    res = CliRunner().invoke(main, ["ingest", str(job), "--out", str(link)])
    assert "refusing to write" in _one_error_line(res)
    assert (job / "rank0.log").read_text() == LOG


def test_a_new_output_named_inside_the_analysed_directory_is_written(job):
    res = CliRunner().invoke(main, ["analyze", str(job), "--format", "json", "--out", str(job / "verdict.json")])
    assert res.exit_code in (0, 1, 3), res.output
    assert (job / "verdict.json").is_file()
    assert (job / "rank0.log").read_text() == LOG


def test_the_sql_output_of_a_baseline_or_rules_file_is_refused(tmp_path):
    with pytest.raises(OutputRefused):
        refuse_overwriting_inputs([tmp_path / "rules.yaml"], [tmp_path / "x", tmp_path / "rules.yaml"])
    refuse_overwriting_inputs([tmp_path / "new.md"], [tmp_path, "-", None])  # a new name: fine


# --------------------------------------------------------------------------- atomic writes


def test_a_planted_link_at_the_old_temp_name_is_not_followed(job, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    for name in ("t.parquet.tmp", "t.duckdb.tmp", "t.parquet.part", "report.md.tmp", "trace.json.tmp"):
        (out / name).symlink_to(victim)
    runner = CliRunner()
    assert runner.invoke(main, ["ingest", str(job), "--out", str(out / "t.parquet"),
                                "--db", str(out / "t.duckdb")]).exit_code == 0
    assert runner.invoke(main, ["analyze", str(job), "--format", "md", "--out", str(out / "report.md")]).exit_code != 2
    assert runner.invoke(main, ["export", str(job), "--out", str(out / "trace.json")]).exit_code == 0
    assert victim.read_text() == "precious"
    assert pq.read_table(out / "t.parquet").num_rows > 0
    assert (out / "report.md").read_text().startswith("# correlator")
    assert sorted(p.name for p in out.iterdir() if not p.is_symlink()) == [
        "report.md", "t.duckdb", "t.parquet", "trace.json"]


def test_an_exception_mid_write_leaves_the_old_file_and_no_leftovers(tmp_path):
    dest = tmp_path / "report.md"
    dest.write_text("old")
    with pytest.raises(RuntimeError), atomic_path(dest) as tmp:
        tmp.write_text("half a rep")
        raise RuntimeError("killed")
    assert dest.read_text() == "old"
    assert _leftovers(tmp_path) == []
    with pytest.raises(RuntimeError), atomic_path(tmp_path / "db.duckdb", fresh=True) as tmp:
        tmp.write_text("x")
        tmp.with_name(tmp.name + ".wal").write_text("x")
        raise RuntimeError("killed")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]


def test_a_full_disk_during_ingest_leaves_the_old_timeline(job, tmp_path, monkeypatch):
    import correlator.ingest.pipeline as pipeline

    out = tmp_path / "t.parquet"
    out.write_bytes(b"old timeline")
    real = pipeline.concat_parquet

    def full(parts, dest, **kw):
        real(parts, dest, **kw)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dest))

    monkeypatch.setattr(pipeline, "concat_parquet", full)
    res = CliRunner().invoke(main, ["ingest", str(job), "--out", str(out)])
    assert "No space left on device" in _one_error_line(res)
    assert out.read_bytes() == b"old timeline"
    assert _leftovers(tmp_path) == []


def test_sigterm_mid_write_removes_the_temp_file(tmp_path):
    dest = tmp_path / "big.txt"
    dest.write_text("old")
    code = (
        "import sys, time\n"
        "from correlator.output import atomic_path, exit_on_sigterm\n"
        "exit_on_sigterm()\n"
        f"with atomic_path({str(dest)!r}) as tmp:\n"
        "    tmp.write_text('partial')\n"
        "    print('writing', flush=True)\n"
        "    time.sleep(30)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[1])
    assert proc.stdout.readline().strip() == "writing"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 128 + signal.SIGTERM
    assert dest.read_text() == "old"
    assert _leftovers(tmp_path) == []


def test_two_concurrent_writers_one_wins_whole(tmp_path):
    dest = tmp_path / "summary.txt"
    texts = [c * 3_000_000 for c in "ab"]
    barrier = threading.Barrier(2)

    def write(text: str) -> None:
        barrier.wait()
        for _ in range(3):
            atomic_write_text(dest, text)

    threads = [threading.Thread(target=write, args=(t,)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert dest.read_text() in texts
    assert _leftovers(tmp_path) == []


def test_outputs_get_the_usual_permissions(tmp_path):
    mask = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "r.md", "x")
    finally:
        os.umask(mask)
    assert (tmp_path / "r.md").stat().st_mode & 0o777 == 0o644


# --------------------------------------------------------------------------- batch


def test_batch_job_names_never_collide(tmp_path):
    root = tmp_path / "root"
    for name in ("job a", "job_a", "Job_A", "b"):
        (root / name).mkdir(parents=True)
    jobs = find_jobs(str(root))
    names = [n for n, _ in jobs]
    assert len({n.lower() for n in names}) == 4, names
    assert "b" in names
    assert find_jobs(str(root)) == jobs  # stable: a resumed batch finds the same names


def test_batch_output_inside_the_root_is_not_a_job(tmp_path):
    root = tmp_path / "root"
    write_job(root, {"rank0.log": LOG})
    (root / "job").rename(root / "job a")
    write_job(root, {"rank0.log": LOG.replace("illegal memory access", "unspecified launch failure")})
    (root / "job").rename(root / "job_a")
    out = root / "reports"
    opts = BatchOptions(workers=1, html=False)
    first = run_batch(str(root), str(out), opts, progress=None)
    assert first.jobs == 2 and first.errors == 0, first.rows
    timelines = sorted(p.name for p in (out / "timelines").iterdir())
    assert len(timelines) == 2 and all(not n.startswith(".") for n in timelines), timelines
    again = run_batch(str(root), str(out), BatchOptions(workers=1, html=False, force=True), progress=None)
    assert again.jobs == 2, [r["job"] for r in again.rows]
    # another batch's output in the root is not a job either
    other = run_batch(str(root), str(tmp_path / "elsewhere"), opts, progress=None)
    assert other.jobs == 2


@pytest.mark.parametrize("where", ["{root}", "{root}/job", "{root}/job/reports"])
def test_batch_output_into_the_root_or_a_job_is_refused(tmp_path, where):
    root = tmp_path / "root"
    write_job(root, {"rank0.log": LOG})
    res = CliRunner().invoke(main, ["batch", str(root), "--out", where.format(root=root)])
    assert "refusing to write the batch output" in _one_error_line(res)
    assert sorted(p.name for p in (root / "job").iterdir()) == ["rank0.log"]


def test_batch_leaves_no_scratch_behind(tmp_path):
    root = tmp_path / "root"
    write_job(root, {"rank0.log": LOG})
    out = tmp_path / "out"
    (out / "timelines").mkdir(parents=True)
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (out / "timelines" / "job.parquet.part").symlink_to(victim)  # the old fixed name
    t0 = time.time()
    run_batch(str(root), str(out), BatchOptions(workers=1, html=False), progress=None)
    assert victim.read_text() == "precious"
    assert (out / "timelines" / "job.parquet").stat().st_mtime >= t0 - 1
    left = [p.name for p in (out / "timelines").iterdir() if p.name.startswith(".") or p.name.endswith(".part")]
    assert left == ["job.parquet.part"]  # only the planted link
