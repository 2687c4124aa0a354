"""Bounded work whatever the input (issue 22, "Trust").

Numbers read from a log are bounded before they size anything, numbers that do not
fit their column become NULL with a problem, and ``correlator analyze`` exits with
the job's state (0/1/3), never with a traceback, whatever the logs hold.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from correlator.ingest import IngestOptions, ingest

ROOT = Path(__file__).resolve().parent.parent
QUIET = IngestOptions(echo_problems=False, workers=1)
# Far above what these tiny jobs need (~0.3 GB), far below what an unbounded
# expansion or decompression takes (the nranks line: ~18 GB).
MEMORY_CAP = 3 << 30


def analyze_cli(target: Path | str, *args: str, stdin: bytes | None = None,
                timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``correlator analyze`` in a child process whose address space is capped."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    env = {**os.environ, "POLARS_MAX_THREADS": "2", "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "correlator", "analyze", "--workers", "1", str(target), *args],
        input=stdin.decode("latin-1") if stdin is not None else None,
        capture_output=True, text=True, errors="replace", preexec_fn=cap, env=env, timeout=timeout,
        cwd=ROOT,
    )


def assert_clean_exit(r: subprocess.CompletedProcess[str]) -> None:
    out = r.stdout + r.stderr
    assert "Traceback" not in out, out[-3000:]
    if r.returncode == 2:  # an error: one clean line saying so
        assert r.stderr.strip().startswith("error:") or "Error:" in r.stderr, out[-3000:]
    else:
        assert r.returncode in (0, 1, 3), out[-3000:]


def _ingest(root: Path, tmp_path: Path) -> duckdb.DuckDBPyConnection:
    db = tmp_path / "t.duckdb"
    ingest(root, out_db=db, options=QUIET)
    return duckdb.connect(str(db), read_only=True)


def _problems(con: duckdb.DuckDBPyConnection) -> list[tuple[str, int | None, str, str]]:
    return con.execute("SELECT file, line, what, action FROM problems ORDER BY ALL").fetchall()


_INIT = "node-01:{pid}:1300 [0] NCCL INFO comm 0x7fdf08000d00 rank {rank} nranks {n} cudaDev 0 busId e7000 - Init COMPLETE\n"


def _job(root: Path, rank0_extra: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for r in range(2):
        text = f"2024-05-01 12:00:0{r},000 - INFO - __main__ - step 1 | rank {r}\n"
        text += _INIT.format(pid=100 + r, rank=r, n=2)
        if r == 0:
            text += rank0_extra
        text += "2024-05-01 12:00:09,000 - ERROR - __main__ - RuntimeError: boom\n"
        (root / f"rank{r}.log").write_text(text, encoding="utf-8")
    return root


# --------------------------------------------------------------------------- world size


def test_huge_nranks_does_not_size_the_rank_expansion(tmp_path: Path) -> None:
    root = _job(tmp_path / "job", _INIT.format(pid=100, rank=0, n=2147483647))
    r = analyze_cli(root, "--format", "json")
    assert_clean_exit(r)
    assert '"ranks": 2' in r.stdout  # the world is the two ranks that logged, not 2^31


def test_plausible_world_size_still_names_the_silent_ranks(tmp_path: Path) -> None:
    root = _job(tmp_path / "job", _INIT.format(pid=100, rank=0, n=4))
    r = analyze_cli(root, "--format", "json")
    assert_clean_exit(r)
    assert "rank(s) 2-3 left no log" in r.stdout


# --------------------------------------------------------------------------- numbers that do not fit


BAD_NUMBERS = (
    _INIT.format(pid=99999999999, rank=0, n=2)  # pid past 2^31
    + _INIT.format(pid=101, rank=3000000000, n=2)  # rank past 2^31
    + _INIT.format(pid=102, rank="٣", n="３")  # Arabic-Indic and fullwidth digits
    + _INIT.format(pid=103, rank=1, n=99999999999)  # count past 2^31
    + "[rank99999999999]: RuntimeError: x\n"
    + "[rank٣]: RuntimeError: y\n"
    + "torchrun: failed (exitcode: 1) local_rank: 0 (pid: 4294967296) of binary: /usr/bin/python\n"
)


def test_numbers_that_do_not_fit_become_null_with_a_problem(tmp_path: Path) -> None:
    con = _ingest(_job(tmp_path / "job", BAD_NUMBERS), tmp_path)
    whats = [p[2] for p in _problems(con) if p[0] == "rank0.log"]
    assert any("pid" in w and "99999999999" in w for w in whats), whats
    assert any("comm_rank" in w and "3000000000" in w for w in whats), whats
    assert any("nranks" in w for w in whats), whats
    # the lines are kept, their numbers unknown
    n = con.execute("SELECT count(*) FROM events WHERE kind = 'nccl.comm_init' AND file = 'rank0.log'").fetchone()[0]
    assert n == 5
    assert con.execute("SELECT count(*) FROM events WHERE pid > 2147483647 OR rank > 65536").fetchone()[0] == 0


def test_analyze_survives_numbers_that_do_not_fit(tmp_path: Path) -> None:
    r = analyze_cli(_job(tmp_path / "job", BAD_NUMBERS))
    assert_clean_exit(r)  # was: a ConversionException traceback and exit 1 ("the job failed")


# --------------------------------------------------------------------------- NUL bytes


def test_one_nul_does_not_drop_a_log_and_the_text_around_nuls_is_kept(tmp_path: Path) -> None:
    root = tmp_path / "job"
    root.mkdir()
    # a stray NUL early on, then the crash: the last line half written, NUL padding
    (root / "rank0.log").write_bytes(
        b"2024-05-01 12:00:00,000 - INFO - __main__ - step\x00 1\n"
        + b"2024-05-01 12:00:01,000 - INFO - __main__ - step 2\n" * 50
        + b"2024-05-01 12:00:09,000 - ERROR - __main__ - RuntimeError: CUDA error: an illegal memory access"
        + bytes(20000) + b"\nrestarted\n"
    )
    (root / "nuls.log").write_bytes(b"abc\x00def\x00" * 100)  # scattered NULs: not a log
    con = _ingest(root, tmp_path)
    msgs = [m for (m,) in con.execute("SELECT message FROM events WHERE file = 'rank0.log' ORDER BY line_no").fetchall()]
    assert msgs[0].endswith("step 1")
    assert any(m.endswith("an illegal memory access") for m in msgs)
    assert msgs[-1] == "restarted"
    assert not any("\x00" in m for m in msgs)
    problems = _problems(con)
    assert [p for p in problems if p[0] == "rank0.log"] == [
        ("rank0.log", 1, "20,001 NUL byte(s) removed (crash padding?), the first on line 1", "removed")
    ]
    assert any(p[0] == "nuls.log" and "NUL" in p[2] and p[3] == "skipped" for p in problems)


@pytest.mark.parametrize(
    ("head", "what"),
    [
        (b"\x7fELF\x02\x01\x01" + bytes(100), "ELF"),
        (b"\x80\x04\x95" + b"x" * 100, "pickle"),
        (b"PK\x03\x04" + b"x" * 100, "zip"),
        (b"\x89PNG\r\n\x1a\n" + b"x" * 100, "PNG"),
        (b"PAR1" + b"x" * 100, "Parquet"),
    ],
)
def test_binary_is_decided_by_magic_numbers(tmp_path: Path, head: bytes, what: str) -> None:
    from correlator.ingest.discover import discover
    from correlator.timeline.problems import ProblemLog

    (tmp_path / "x.log").write_bytes(head)
    log = ProblemLog(echo=False)
    assert discover(tmp_path, log) == []
    assert what in log.items[0].what


def test_gzip_inside_gzip_is_not_read_as_text(tmp_path: Path) -> None:
    import gzip

    from correlator.ingest.discover import discover
    from correlator.timeline.problems import ProblemLog

    (tmp_path / "rank0.log.gz").write_bytes(gzip.compress(gzip.compress(b"hello\n" * 100)))
    log = ProblemLog(echo=False)
    assert discover(tmp_path, log) == []
    assert "compressed twice" in log.items[0].what
