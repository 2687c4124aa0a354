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
    # (stdout is the report, which may quote the logs' own tracebacks)
    assert "Traceback (most recent call last)" not in r.stderr, out[-3000:]
    if r.returncode == 2:  # an error: one clean line saying so (after the warnings)
        assert [x for x in r.stderr.splitlines() if not x.startswith("warning:")][:1] == [
            next(x for x in r.stderr.splitlines() if x.startswith("error:"))], out[-3000:]
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
        # (the restarted process logs a stamped line: a bare word right after a line
        # cut inside a word would read as the rest of a hard-wrapped line)
        + bytes(20000) + b"\n2024-05-01 12:05:00,000 - INFO - __main__ - restarted\n"
    )
    (root / "nuls.log").write_bytes(b"abc\x00def\x00" * 100)  # scattered NULs: not a log
    con = _ingest(root, tmp_path)
    msgs = [m for (m,) in con.execute("SELECT message FROM events WHERE file = 'rank0.log' ORDER BY line_no").fetchall()]
    assert msgs[0].endswith("step 1")
    assert any(m.endswith("an illegal memory access") for m in msgs)
    assert msgs[-1].endswith("- restarted")
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


# --------------------------------------------------------------------------- archives, bombs, stdin, growing files


def _tar_gz(members: dict[str, bytes]) -> bytes:
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def test_tar_gz_is_decompressed_once_not_once_per_member(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc
    import pickle
    import stat

    from correlator.ingest import discover as d
    from correlator.timeline.problems import ProblemLog

    members = {f"job/rank{i}.log": b"".join(b"rank%d line %d\n" % (i, n) for n in range(2000)) for i in range(6)}
    members["../../escape.log"] = b"a member that names a path outside\n"
    (tmp_path / "job.tar.gz").write_bytes(_tar_gz(members))
    passes = []
    real = d.DecompressReader.__init__

    def counting(self, raw, kind):  # type: ignore[no-untyped-def]
        passes.append(kind)
        real(self, raw, kind)

    monkeypatch.setattr(d.DecompressReader, "__init__", counting)
    files = d.discover(tmp_path / "job.tar.gz", ProblemLog(echo=False))
    assert passes == ["gzip", "gzip"]  # the sniff of the archive, then its one scan
    # read in any order, as the worker processes do (each with its own copy): no new pass
    for f in reversed(files):
        copy = pickle.loads(pickle.dumps(f))
        with copy.open() as s:
            assert s.read() == members[f.rel.split("job.tar.gz/", 1)[1]]
    got = {f.rel: f.open().read() for f in files}
    assert passes == ["gzip", "gzip"]
    assert got["job.tar.gz/job/rank3.log"] == members["job/rank3.log"]
    # the spool: a private directory, names of our own, gone with the files
    spool = files[0].open.source.spool.path
    assert stat.S_IMODE(os.stat(spool).st_mode) == 0o700
    assert all(n.startswith("m") and n[1:].isdigit() for n in os.listdir(spool))
    assert not (tmp_path / "escape.log").exists() and not (tmp_path.parent / "escape.log").exists()
    del files, f, copy, got
    gc.collect()
    assert not os.path.exists(spool)


def _zstd_bomb(path: Path, size: int) -> None:
    import zstandard

    c = zstandard.ZstdCompressor(level=19).compressobj()
    chunk = b"A" * (1 << 20)
    with open(path, "wb") as out:
        out.write(c.compress(b"2024-05-01 12:00:00,000 - ERROR - __main__ - RuntimeError: before the bomb\n"))
        for _ in range(size >> 20):
            out.write(c.compress(chunk))
        out.write(c.flush())


def test_zstd_bomb_is_stopped_in_bounded_memory(tmp_path: Path) -> None:
    root = tmp_path / "job"
    root.mkdir()
    _zstd_bomb(root / "rank0.log.zst", 2700 << 20)
    assert (root / "rank0.log.zst").stat().st_size < 200_000  # 2.7 GB in ~90 KB
    r = analyze_cli(root)  # the child may use at most MEMORY_CAP of address space
    assert_clean_exit(r)
    assert "decompression bomb" in r.stderr


def test_zstd_output_per_step_is_bounded() -> None:
    import io

    import zstandard

    from correlator.ingest.discover import _OUT_CHUNK, DecompressReader

    bomb = zstandard.ZstdCompressor().compress(bytes(256 << 20))
    r = DecompressReader(io.BytesIO(bomb), "zstd")
    r._step()
    assert len(r._pending) <= _OUT_CHUNK + (40 << 20)  # was 256 MB from the first 8 KB


def test_stdin_spool_has_a_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from correlator.ingest import discover as d
    from correlator.timeline.problems import ProblemLog

    class FakeStdin:
        buffer = io.BytesIO(b"line\n" * 100_000)

    monkeypatch.setattr(d, "_SPOOL_LIMIT", 10_000)
    monkeypatch.setattr(d, "_SPOOL_IN_MEMORY", 1000)
    monkeypatch.setattr(sys, "stdin", FakeStdin())
    log = ProblemLog(echo=False)
    [f] = d.discover("-", log)
    assert f.size == 10_000 and len(f.open().read()) == 10_000
    assert [p.action for p in log.items] == ["truncated"] and "larger than 10,000 bytes" in log.items[0].what


def test_a_growing_file_is_read_up_to_its_size_at_discovery(tmp_path: Path) -> None:
    from correlator.ingest.discover import discover
    from correlator.timeline.problems import ProblemLog

    log_file = tmp_path / "rank0.log"
    log_file.write_bytes(b"before\n" * 10)
    [f] = discover(tmp_path, ProblemLog(echo=False))
    with open(log_file, "ab") as w:
        w.write(b"after\n" * 1000)  # the job is still writing
    with f.open() as s:
        assert s.read() == b"before\n" * 10


# --------------------------------------------------------------------------- \r progress bars


def test_error_overwritten_by_a_progress_bar_is_kept_as_its_own_event(tmp_path: Path) -> None:
    root = tmp_path / "job"
    root.mkdir()
    (root / "rank0.log").write_bytes(
        b"2024-05-01 12:00:00,000 - INFO - __main__ - step 1\n"
        b"ERROR: x\r 45%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88      | 45/100\n"
        b"loading shards\r 50%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88      | 50/100\n"
        b"2024-05-01 12:00:09,000 - INFO - __main__ - step 2\n"
    )
    con = _ingest(root, tmp_path)
    msgs = [m for (m,) in con.execute("SELECT message FROM events ORDER BY line_no, rowid").fetchall()]
    assert "ERROR: x" in msgs  # was: silently replaced by the bar's state
    assert not any("loading shards" in m for m in msgs)
    [p] = [p for p in _problems(con) if p[3] == "dropped"]
    assert p[:2] == ("rank0.log", 3) and "1 piece(s) of text overwritten" in p[2]


@pytest.mark.parametrize("small", [True, False])
def test_overwritten_text_is_kept_or_reported_by_both_paths(small: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from correlator.ingest import read as read_mod
    from correlator.ingest.discover import InputFile
    from correlator.ingest.read import iter_line_batches
    from correlator.timeline.problems import ProblemLog

    if not small:
        monkeypatch.setattr(read_mod, "_SMALL_CHUNK", 0)  # the column path
    bar = " 10%|\u2588         | 10/100 [00:01<00:09, 9.9it/s]"
    data = "\n".join([
        "plain",
        f"{bar}\r{bar}",  # only bar states: nothing to say
        f"Traceback (most recent call last):\r{bar}",
        f"downloading\r{bar}\rWARNING: slow\r{bar}",
        "a\r  \r",
    ]).encode()
    log = ProblemLog(echo=False)
    f = InputFile("t.log", len(data), None, open=lambda: __import__("io").BytesIO(data))
    got = [x for b in iter_line_batches(f, log) for x in b.lines.to_list()]
    assert got == ["plain", bar, f"Traceback (most recent call last):\r{bar}", f"WARNING: slow\r{bar}", "a"]
    assert [(p.line, p.action) for p in log.items] == [(4, "dropped")]


def test_launcher_prefixes_with_numbers_that_do_not_fit_are_reported(tmp_path: Path) -> None:
    root = tmp_path / "job"
    root.mkdir()
    (root / "console.log").write_text(
        "[rank0]: fine\n[rank99999999999]: x\n[rank٣]: y\n(RayTrainWorker pid=99999999999) w\n[rank1]: fine\n",
        encoding="utf-8",
    )
    con = _ingest(root, tmp_path)
    assert [p for p in _problems(con) if p[3] == "read as unknown (NULL)"] == [
        ("console.log", 2, "3 launcher prefix(es) with a rank, pid or task that is not a number that fits "
         "32 bits, the first on line 2", "read as unknown (NULL)")
    ]
    rows = con.execute("SELECT line_no, rank, message FROM events ORDER BY line_no").fetchall()
    assert rows[1] == (2, None, "x") and rows[0][1] == 0 and rows[4][1] == 1


def test_a_correlatorignore_inside_an_archive_applies_as_in_a_directory(tmp_path):
    import tarfile

    from correlator.ingest import IngestOptions, ingest
    from correlator.target import open_timeline

    job = tmp_path / "job"
    job.mkdir()
    (job / "rank0.log").write_text("2026-12-01 20:00:01,000 - INFO - train - step 1 | loss 0.5\n")
    (job / "truth.json").write_text('{"status": "failed"}\n')
    (job / ".correlatorignore").write_text("# the expected verdict, not a log\ntruth.json\n")
    archive = tmp_path / "job.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(job, arcname="job")
    for target in (job, archive):
        out = tmp_path / f"{target.name}.parquet"
        ingest(str(target), out_parquet=str(out), options=IngestOptions(echo_problems=False))
        with open_timeline(str(out)) as con:
            files = {f for (f,) in con.execute("SELECT DISTINCT file FROM events").fetchall()}
            excluded = [w for (w,) in con.execute("SELECT what FROM problems WHERE what LIKE 'excluded%'").fetchall()]
        assert not any(f.endswith("truth.json") for f in files), (target, files)
        assert any(f.endswith("rank0.log") for f in files)
        assert excluded, target
