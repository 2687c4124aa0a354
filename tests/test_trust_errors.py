"""Errors the user can fix are one line and exit code 2, never a traceback
(issue 22, "Trust", task 2)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from correlator.cli import main
from tests.jobs import write_job

LOG = (
    "2024-05-01 12:00:01,000 - INFO - __main__ - step 1 | loss 1.0\n"
    "2024-05-01 12:00:03,000 - ERROR - __main__ - RuntimeError: CUDA error: an illegal memory access was encountered\n"
)


def one_error_line(res) -> str:
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("Error")]
    assert len(errors) == 1, res.stderr
    return errors[0]


@pytest.fixture(scope="module")
def timelines(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("errors")
    job = write_job(base, {"rank0.log": LOG, "rank1.log": LOG.replace("ERROR", "INFO")})
    res = CliRunner().invoke(main, ["ingest", str(job), "--out", str(base / "t.parquet"), "--db", str(base / "t.duckdb")])
    assert res.exit_code == 0, res.output
    return {"job": job, "parquet": base / "t.parquet", "duckdb": base / "t.duckdb", "base": base}


def _damage(src: Path, dest: Path, how: str) -> Path:
    data = src.read_bytes()
    if how == "truncated":
        dest.write_bytes(data[: min(len(data) // 2, 10_000)])
    else:  # the header kept, the rest garbage
        dest.write_bytes(data[:16] + bytes((b * 7 + 3) % 256 for b in data[16:]))
    return dest


@pytest.mark.parametrize("kind", ["parquet", "duckdb"])
@pytest.mark.parametrize("how", ["truncated", "garbled"])
@pytest.mark.parametrize("command", ["sql", "analyze", "export"])
def test_a_damaged_timeline_is_one_line(timelines, tmp_path, kind, how, command):
    bad = _damage(timelines[kind], tmp_path / f"bad.{kind}", how)
    argv = {
        "sql": ["sql", str(bad), "SELECT count(*) FROM events"],
        "analyze": ["analyze", str(bad)],
        "export": ["export", str(bad), "--out", str(tmp_path / "trace.json")],
    }[command]
    line = one_error_line(CliRunner().invoke(main, argv))
    assert "bad." in line
    assert not (tmp_path / "trace.json").exists()


@pytest.mark.parametrize("argv", [
    ["analyze", "{job}", "--out", "{tmp}/no-such-dir/report.md"],
    ["export", "{job}", "--out", "{tmp}/no-such-dir/trace.json"],
    ["ingest", "{job}", "--out", "{tmp}/no-such-dir/t.parquet"],
    ["sql", "{job}", "SELECT 1", "--out", "{tmp}/no-such-dir/x.csv"],
    ["batch", "{job}", "--out", "{tmp}/no-such-dir/deeper/reports"],
    ["analyze", "{job}", "--out", "{tmp}/a-file/report.md"],
    ["analyze", "{job}", "--out", "{tmp}"],
])
def test_a_missing_output_directory_is_one_line(timelines, tmp_path, argv):
    (tmp_path / "a-file").write_text("x")
    res = CliRunner().invoke(main, [a.format(job=timelines["job"], tmp=tmp_path) for a in argv])
    line = one_error_line(res)
    assert "cannot write" in line or "is a directory" in line


def test_an_unwritable_output_directory_is_one_line(timelines, tmp_path, monkeypatch):
    ro = tmp_path / "read-only"
    ro.mkdir()
    ro.chmod(0o500)
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == ro else real(p, mode))  # root passes chmod
    res = CliRunner().invoke(main, ["analyze", str(timelines["job"]), "--out", str(ro / "report.md")])
    assert "not writable" in one_error_line(res)


def test_an_unwritable_place_found_late_is_one_line(timelines):
    # /proc takes no new files, whoever asks: the failure comes at the write itself
    res = CliRunner().invoke(main, ["analyze", str(timelines["parquet"]), "--out", "/proc/correlator-report.md"])
    assert "/proc" in one_error_line(res)


def test_a_full_disk_is_one_line(timelines, tmp_path, monkeypatch):
    real = Path.write_text

    def full(self, *args, **kwargs):
        if self.name.endswith(".part"):
            real(self, "half", encoding="utf-8")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full)
    out = tmp_path / "report.md"
    out.write_text("the old report")
    for argv in (["analyze", str(timelines["parquet"]), "--format", "md", "--out", str(out)],
                 ["sql", str(timelines["parquet"]), "SELECT 1", "--format", "csv", "--out", str(out)],
                 ["export", str(timelines["parquet"]), "--out", str(out)]):
        res = CliRunner().invoke(main, argv)
        assert "No space left on device" in one_error_line(res), argv
        assert out.read_text() == "the old report"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]


def test_a_full_disk_writing_duckdb_is_one_line(timelines, tmp_path, monkeypatch):
    import correlator.ingest.pipeline as pipeline

    def full(con, out):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(out))

    monkeypatch.setattr(pipeline, "write_duckdb_from", full)
    res = CliRunner().invoke(main, ["ingest", str(timelines["job"]), "--db", str(tmp_path / "t.duckdb")])
    assert "No space left on device" in one_error_line(res)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [
    ["ingest", "{job}", "--out", "{tmp}/t.parquet", "--tz", "Europe/Berln"],
    ["sql", "{job}", "SELECT 1", "--tz", "Mars/Olympus"],
    ["analyze", "{job}", "--tz", "CEST+2"],
    ["export", "{job}", "--out", "{tmp}/t.json", "--tz", "utc/"],
    ["batch", "{job}", "--out", "{tmp}/reports", "--tz", "Nowhere"],
])
def test_an_unknown_time_zone_is_refused(timelines, tmp_path, argv):
    res = CliRunner().invoke(main, [a.format(job=timelines["job"], tmp=tmp_path) for a in argv])
    line = one_error_line(res)
    assert "--tz" in line and "time zone" in line
    assert list(tmp_path.iterdir()) == []


def test_a_known_time_zone_is_read(timelines, tmp_path):
    res = CliRunner().invoke(main, ["sql", str(timelines["job"]), "SELECT count(ts) AS n FROM events",
                                    "--format", "csv", "--tz", "Europe/Berlin"])
    assert res.exit_code == 0 and res.stdout.split() == ["n", "4"], res.output


@pytest.mark.parametrize("argv", [
    ["ingest", "{job}", "--out", "{tmp}/t.parquet", "--workers", "0"],
    ["sql", "{job}", "SELECT 1", "--workers", "-2"],
    ["sql", "{job}", "SELECT 1", "--format", "xml"],
    ["analyze", "{job}", "--format", "pdf"],
    ["export", "{job}", "--out", "{tmp}/t.json", "--max-events", "-5"],
    ["batch", "{job}", "--out", "{tmp}/reports", "--workers", "0"],
    ["batch", "{job}", "--out", "{tmp}/reports", "--job-timeout", "0"],
    ["eval", "{job}", "--min", "rank=abc"],
    ["eval", "{job}", "--min", "rank=5"],
    ["eval", "{job}", "--min", "nosuchfield=0.5"],
    ["sql", "{job}", "SELEKT nothing"],
    ["ingest", "{job}"],
])
def test_a_bad_option_value_is_one_error(timelines, tmp_path, argv):
    res = CliRunner().invoke(main, [a.format(job=timelines["job"], tmp=tmp_path) for a in argv])
    one_error_line(res)
    assert list(tmp_path.iterdir()) == []
