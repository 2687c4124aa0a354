"""Progress bars: on a terminal's stderr only, never on stdout, nothing when piped or --quiet.

The command-line runs are real processes with stderr a pipe, as a user's
``correlator analyze ... 2>log`` is; ``CORRELATOR_PROGRESS=always`` stands in for
a terminal.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from correlator import progress

ROOT = Path(__file__).resolve().parent.parent
JOB = ROOT / "sample_logs" / "gloo-data-error-per-rank"
STEPS = ("discovery", "parse", "stage 2", "analysis", "report")
BAR_MARKS = ("\r", "\x1b[", "█", "it/s", "B/s")


@pytest.fixture(autouse=True)
def _no_bars_after():
    yield
    progress.reset()  # the library default, for the tests after these


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k != progress.ENV}
    base["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    res = subprocess.run([sys.executable, "-m", "correlator", *args], env={**base, **(env or {})},
                         capture_output=True, timeout=300)
    # decoded without newline translation: a bar's carriage returns must stay visible
    return subprocess.CompletedProcess(res.args, res.returncode, res.stdout.decode(), res.stderr.decode())


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_piped_stderr_gets_no_progress_and_forced_gets_every_step_on_stderr_only():
    piped = _run("analyze", str(JOB), "--format", "json")
    forced = _run("analyze", str(JOB), "--format", "json", env={progress.ENV: "always"})
    assert piped.returncode == forced.returncode == 1  # the job failed: a verdict, not an error
    assert not any(m in piped.stderr for m in BAR_MARKS), piped.stderr
    assert not any(s in piped.stderr for s in STEPS), piped.stderr
    for s in STEPS:
        assert s in forced.stderr, (s, forced.stderr)
    assert "\r" in forced.stderr  # drawn as a bar, redrawn in place
    # the bars go to stderr alone: the verdict is the same bytes with or without them
    assert forced.stdout == piped.stdout
    assert not any(m in forced.stdout for m in BAR_MARKS)


def test_quiet_wins_over_forced_bars_and_drops_the_ingest_summary(tmp_path):
    out = tmp_path / "t.parquet"
    loud = _run("ingest", str(JOB), "--out", str(out), env={progress.ENV: "always"})
    quiet = _run("--quiet", "ingest", str(JOB), "--out", str(tmp_path / "q.parquet"), env={progress.ENV: "always"})
    assert loud.returncode == quiet.returncode == 0
    assert "parse" in loud.stderr and "events" in loud.stderr
    assert quiet.stderr == ""
    assert quiet.stdout.strip() == str(tmp_path / "q.parquet")


def test_configure_draws_on_a_terminal_only(monkeypatch):
    monkeypatch.delenv(progress.ENV, raising=False)
    assert progress.configure(stream=_Tty()) is True
    assert progress.configure(stream=io.StringIO()) is False  # piped / redirected
    assert progress.configure(quiet=True, stream=_Tty()) is False
    assert progress.quiet() is True
    monkeypatch.setenv(progress.ENV, "never")
    assert progress.configure(stream=_Tty()) is False
    monkeypatch.setenv(progress.ENV, "always")
    assert progress.configure(stream=io.StringIO()) is True


def test_library_callers_get_no_bars():
    progress.reset()
    with progress.step("parse", total=10) as s:
        s.advance(10)
    assert not progress.enabled()


def test_a_step_shorter_than_the_delay_draws_nothing(monkeypatch):
    monkeypatch.delenv(progress.ENV, raising=False)
    tty = _Tty()
    progress.configure(stream=tty)
    with progress.step("parse", total=3, unit="files") as s:
        s.advance(3)
    assert tty.getvalue() == ""  # a small job's analyze looks as it did without bars


def test_a_long_step_draws_its_bar_after_the_delay(monkeypatch):
    pytest.importorskip("tqdm", reason="progress bars need tqdm (a dependency of correlator)")
    monkeypatch.delenv(progress.ENV, raising=False)
    monkeypatch.setattr(progress, "DELAY_S", 0.05)
    tty = _Tty()
    progress.configure(stream=tty)
    with progress.step("parse", total=4, unit="files") as s:
        s.advance(1)
        deadline = time.monotonic() + 10
        while "parse" not in tty.getvalue() and time.monotonic() < deadline:
            time.sleep(0.02)
        s.advance(3)
    shown = tty.getvalue()
    assert "parse" in shown and "4/4" in shown, shown


def test_batch_counts_jobs_on_the_bar_and_prints_no_per_job_line_under_it(tmp_path):
    pytest.importorskip("tqdm", reason="progress bars need tqdm (a dependency of correlator)")
    root = tmp_path / "jobs"
    for name in ("a", "b"):
        (root / name).mkdir(parents=True)
        (root / name / "rank0.log").write_text((JOB / "rank0.log").read_text())
    res = _run("batch", str(root), "--out", str(tmp_path / "out"), "--no-html", "--workers", "1",
               env={progress.ENV: "always"})
    assert res.returncode in (0, 1), res.stderr  # 1: a job became an error row; still counted
    assert "batch" in res.stderr and "2/2" in res.stderr, res.stderr
    piped = _run("batch", str(root), "--out", str(tmp_path / "out2"), "--no-html", "--workers", "1")
    assert not any(m in piped.stderr for m in BAR_MARKS), piped.stderr
    assert "[1/2]" in piped.stderr  # the per-job log lines of a piped batch stay


def test_a_warning_mid_step_prints_above_the_bar(monkeypatch):
    pytest.importorskip("tqdm", reason="progress bars need tqdm (a dependency of correlator)")
    monkeypatch.setenv(progress.ENV, "always")
    tty = _Tty()
    progress.configure(stream=tty)
    warnings = progress.AboveBars(tty)
    with progress.step("parse", total=2, unit="files") as s:
        s.advance(1)
        drawn = tty.getvalue()
        warnings.write("warning: x.log: empty file\n")
        s.advance(1)
    after = tty.getvalue()[len(drawn):]
    assert "parse" in drawn
    # the bar's line is cleared, the warning has a line of its own, the bar comes back
    assert after.index("\r") < after.index("warning: x.log: empty file\n") < after.rindex("parse")
