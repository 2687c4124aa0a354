"""Discovery: what is read, what is skipped (always with a Problem), and how."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import lzma
import os
import pickle
import sqlite3
import sys
import tarfile
import zipfile
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st

from correlator.ingest import discover as discover_mod
from correlator.ingest.discover import DamagedStream, InputFile, discover
from correlator.timeline.problems import ProblemLog

COMPRESSORS = {
    "gzip": (".gz", gzip.compress),
    "bz2": (".bz2", bz2.compress),
    "xz": (".xz", lzma.compress),
    "zstd": (".zst", lambda b: zstandard.ZstdCompressor().compress(b)),
}


def _problems() -> ProblemLog:
    return ProblemLog(echo=False)


def _write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def _read(f: InputFile) -> bytes:
    with f.open() as s:
        return s.read()


def _by_rel(files: list[InputFile]) -> dict[str, InputFile]:
    return {f.rel: f for f in files}


def _problem_for(log: ProblemLog, rel: str) -> list[tuple[str, str]]:
    return [(p.what, p.action) for p in log.items if p.file == rel]


def _make_job(root: Path) -> dict[str, bytes]:
    """A small job directory; returns rel -> content."""
    files = {
        "node0/rank0.log": b"[rank0]: hello\n[rank0]: step 1\n",
        "node0/rank1.log": b"[rank1]: hello\n",
        "node1/rank2.log": b"[rank2]: boom\nTraceback (most recent call last):\n",
        "node1/deep/er/dmesg.txt": b"[12.3] NVRM: Xid 79\n",
        "slurm-123.out": b"srun: error: node1: task 2: Exited with exit code 1\n",
    }
    for rel, data in files.items():
        _write(root / rel, data)
    return files


# --------------------------------------------------------------------------- directories


def test_nested_directory_sorted_posix_rels(tmp_path: Path) -> None:
    expected = _make_job(tmp_path)
    log = _problems()
    files = discover(tmp_path, log)
    rels = [f.rel for f in files]
    assert rels == sorted(expected, key=lambda r: r.split("/"))
    assert all("\\" not in r and not r.startswith("/") for r in rels)
    assert {f.rel: _read(f) for f in files} == expected
    assert all(f.size == len(expected[f.rel]) and f.compression is None for f in files)
    assert log.items == []
    # Deterministic: a second walk gives the same list.
    assert [f.rel for f in discover(tmp_path, _problems())] == rels


def test_single_file_target(tmp_path: Path) -> None:
    p = _write(tmp_path / "sub" / "rank0.log", "x\n")
    [f] = discover(p, _problems())
    assert f.rel == "rank0.log"
    assert _read(f) == b"x\n"


def test_missing_target_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        discover(tmp_path / "nope", _problems())


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_each_compression_is_read_transparently(tmp_path: Path, kind: str) -> None:
    ext, compress = COMPRESSORS[kind]
    text = b"".join(b"line %d\n" % i for i in range(5000))
    _write(tmp_path / f"rank0.log{ext}", compress(text))
    # Magic bytes decide, not the name: same content without the extension.
    _write(tmp_path / "noext", compress(text))
    log = _problems()
    files = _by_rel(discover(tmp_path, log))
    for rel in (f"rank0.log{ext}", "noext"):
        assert files[rel].compression == kind
        assert _read(files[rel]) == text
        assert files[rel].size == (tmp_path / rel).stat().st_size  # compressed size
    assert log.items == []


def test_compression_extension_on_plain_text_reads_as_text(tmp_path: Path) -> None:
    _write(tmp_path / "fake.log.gz", "not compressed\n")
    [f] = discover(tmp_path, _problems())
    assert f.compression is None
    assert _read(f) == b"not compressed\n"


def test_open_returns_fresh_independent_streams(tmp_path: Path) -> None:
    _write(tmp_path / "a.log.gz", gzip.compress(b"abcdef\n" * 1000))
    [f] = discover(tmp_path, _problems())
    s1, s2 = f.open(), f.open()
    try:
        assert s1.read(3) == b"abc"
        assert s2.read(4) == b"abcd"
        assert s1.read(3) == b"def"
    finally:
        s1.close()
        s2.close()


# --------------------------------------------------------------------------- archives


def _tar_bytes(root: Path, arcname: str, mode: str) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as t:
        t.add(root, arcname=arcname)
    return buf.getvalue()


ARCHIVES = {
    "job.tar": lambda d: _tar_bytes(d, "job", "w"),
    "job.tar.gz": lambda d: _tar_bytes(d, "job", "w:gz"),
    "job.tgz": lambda d: _tar_bytes(d, "job", "w:gz"),
    "job.tar.bz2": lambda d: _tar_bytes(d, "job", "w:bz2"),
    "job.tar.xz": lambda d: _tar_bytes(d, "job", "w:xz"),
    "job.tar.zst": lambda d: zstandard.ZstdCompressor().compress(_tar_bytes(d, "job", "w")),
}


@pytest.mark.parametrize("name", sorted(ARCHIVES))
def test_tar_archive_members_read_in_place(tmp_path: Path, name: str) -> None:
    job = tmp_path / "src"
    expected = _make_job(job)
    _write(job / "node1" / "rank3.log.gz", gzip.compress(b"compressed member\n"))
    archive = _write(tmp_path / "in" / name, ARCHIVES[name](job))
    before = sorted(p.name for p in archive.parent.iterdir())
    log = _problems()
    files = _by_rel(discover(archive, log))
    want = {f"{name}/job/{rel}": data for rel, data in expected.items()}
    want[f"{name}/job/node1/rank3.log.gz"] = b"compressed member\n"
    assert {rel: _read(f) for rel, f in files.items()} == want
    assert files[f"{name}/job/node1/rank3.log.gz"].compression == "gzip"
    assert log.items == []
    # Nothing was extracted next to the archive.
    assert sorted(p.name for p in archive.parent.iterdir()) == before


def test_tar_inside_directory_is_expanded(tmp_path: Path) -> None:
    job = tmp_path / "src"
    _make_job(job)
    root = tmp_path / "root"
    _write(root / "old" / "run1.tar.gz", _tar_bytes(job, "run1", "w:gz"))
    _write(root / "current.log", "now\n")
    rels = [f.rel for f in discover(root, _problems())]
    assert "current.log" in rels
    assert "old/run1.tar.gz/run1/node0/rank0.log" in rels


@pytest.mark.parametrize("name", ["job.tar", "job.tar.gz"])
def test_archive_members_in_any_order_and_concurrently(tmp_path: Path, name: str) -> None:
    job = tmp_path / "src"
    expected = _make_job(job)
    archive = _write(tmp_path / name, ARCHIVES[name](job))
    files = discover(archive, _problems())
    # Backwards (forces fresh passes over a compressed archive)...
    got = {f.rel: _read(f) for f in reversed(files)}
    assert got == {f"{name}/job/{rel}": data for rel, data in expected.items()}
    # ...and two members open at once (the second cannot share the cursor).
    a, b = files[0].open(), files[1].open()
    try:
        assert a.read(7) == _read(files[0])[:7]
        assert b.read() == _read(files[1])
        assert a.read() == _read(files[0])[7:]
    finally:
        a.close()
        b.close()


def test_input_files_pickle(tmp_path: Path) -> None:
    """A parallel ingest can ship InputFiles to worker processes."""
    job = tmp_path / "src"
    _make_job(job)
    _write(tmp_path / "d" / "a.log.xz", lzma.compress(b"xz\n"))
    _write(tmp_path / "d" / "job.tar.gz", _tar_bytes(job, "job", "w:gz"))
    files = discover(tmp_path / "d", _problems())
    clones = pickle.loads(pickle.dumps(files))
    assert [f.rel for f in clones] == [f.rel for f in files]
    assert [_read(f) for f in clones] == [_read(f) for f in files]


def test_truncated_compressed_tar_keeps_members_before_the_damage(tmp_path: Path) -> None:
    job = tmp_path / "src"
    for i in range(6):
        _write(
            job / f"rank{i}.log",
            "".join(f"rank{i} line {n} {n * 7919 % 1000}\n" for n in range(3000)),
        )
    data = _tar_bytes(job, "job", "w:gz")
    archive = _write(tmp_path / "cut.tar.gz", data[: len(data) // 2])
    log = _problems()
    files = discover(archive, log)
    assert 1 <= len(files) < 6
    assert _read(files[0]) == (job / "rank0.log").read_bytes()
    [(what, action)] = _problem_for(log, "cut.tar.gz")
    assert "damaged" in what or "ends early" in what
    assert action == "kept the members before the damage"
    # The member cut in the middle still gives its good bytes, then a DamagedStream.
    with files[-1].open() as s:
        got = b""
        with pytest.raises(DamagedStream):
            while chunk := s.read(4096):
                got += chunk
    assert got and (job / files[-1].rel.split("/")[-1]).read_bytes().startswith(got)


def test_truncated_plain_tar_reported(tmp_path: Path) -> None:
    job = tmp_path / "src"
    for i in range(3):
        _write(job / f"rank{i}.log", f"rank{i}\n" * 5000)
    data = _tar_bytes(job, "job", "w")
    archive = _write(tmp_path / "cut.tar", data[: len(data) - 20000])
    log = _problems()
    files = discover(archive, log)
    assert [f.rel for f in files][:2] == ["cut.tar/job/rank0.log", "cut.tar/job/rank1.log"]
    [(what, _)] = _problem_for(log, "cut.tar")
    assert "ends early" in what


def test_tar_links_and_nested_archives_are_not_followed(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as t:

        def add(name: str, data: bytes = b"", **kw: object) -> None:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            for k, v in kw.items():
                setattr(ti, k, v)
            t.addfile(ti, io.BytesIO(data))

        add("job/rank0.log", b"hi\n")
        add("job/link.log", type=tarfile.SYMTYPE, linkname="rank0.log")
        add("job/hard.log", type=tarfile.LNKTYPE, linkname="job/rank0.log")
        add("job/inner.tar", _tar_bytes(_write(tmp_path / "x" / "y.log", "y\n").parent, "x", "w"))
        add("job/.git/config", b"[core]\n")
        add("job/empty.log")
    archive = _write(tmp_path / "a.tar", buf.getvalue())
    log = _problems()
    files = discover(archive, log)
    assert [f.rel for f in files] == ["a.tar/job/rank0.log"]
    assert "symlink" in _problem_for(log, "a.tar/job/link.log")[0][0]
    assert _problem_for(log, "a.tar/job/hard.log")[0][1] == "not read twice"
    assert "inside an archive" in _problem_for(log, "a.tar/job/inner.tar")[0][0]
    assert _problem_for(log, "a.tar/job/.git") == [("version-control directory", "skipped")]
    assert _problem_for(log, "a.tar/job/empty.log") == [("empty file", "nothing to read")]


# --------------------------------------------------------------------------- stdin


class _FakeStdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_stdin_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _FakeStdin(b"a\nb\n"))
    [f] = discover("-", _problems())
    assert (f.rel, f.size, f.compression) == ("<stdin>", 4, None)
    # Readable more than once although stdin can be read only once.
    assert _read(f) == b"a\nb\n"
    assert _read(f) == b"a\nb\n"


def test_stdin_gzip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _FakeStdin(gzip.compress(b"zipped\n" * 100)))
    [f] = discover("-", _problems())
    assert f.compression == "gzip"
    assert _read(f) == b"zipped\n" * 100


def test_stdin_large_spills_to_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discover_mod, "_SPOOL_IN_MEMORY", 1000)
    data = b"".join(b"line %d\n" % i for i in range(10000))
    monkeypatch.setattr(sys, "stdin", _FakeStdin(data))
    [f] = discover("-", _problems())
    a, b = f.open(), f.open()
    try:  # interleaved reads: positional, no shared offset
        assert a.read(5) == data[:5]
        assert b.read(9) == data[:9]
        assert a.read() == data[5:]
    finally:
        a.close()
        b.close()


def test_stdin_tar_stream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    job = tmp_path / "src"
    expected = _make_job(job)
    monkeypatch.setattr(sys, "stdin", _FakeStdin(_tar_bytes(job, "job", "w:gz")))
    files = discover("-", _problems())
    assert {f.rel: _read(f) for f in files} == {f"<stdin>/job/{r}": d for r, d in expected.items()}


def test_stdin_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _FakeStdin(b""))
    log = _problems()
    assert discover("-", log) == []
    assert _problem_for(log, "<stdin>") == [("empty file", "nothing to read")]


# --------------------------------------------------------------------------- symlinks


def test_symlink_inside_read_once_under_real_name(tmp_path: Path) -> None:
    root = tmp_path / "job"
    _write(root / "run_1" / "rank0.log", "r0\n")
    os.symlink("run_1", root / "latest")  # dir link, sorts before the real dir
    os.symlink("run_1/rank0.log", root / "a_link.log")  # file link, sorts first
    log = _problems()
    files = discover(root, log)
    assert [f.rel for f in files] == ["run_1/rank0.log"]
    assert _problem_for(log, "latest") == [
        ("symlink to a directory already read as 'run_1'", "not read twice")
    ]
    assert _problem_for(log, "a_link.log") == [
        ("symlink to a file already read as 'run_1/rank0.log'", "not read twice")
    ]


def test_symlink_to_file_in_skipped_dir_is_read_under_link_name(tmp_path: Path) -> None:
    root = tmp_path / "job"
    _write(root / "__pycache__" / "notes.txt", "kept\n")
    os.symlink("__pycache__/notes.txt", root / "notes.txt")
    files = discover(root, _problems())
    assert [(f.rel, _read(f)) for f in files] == [("notes.txt", b"kept\n")]


def test_symlink_outside_is_skipped(tmp_path: Path) -> None:
    outside = _write(tmp_path / "secret" / "passwd.log", "no\n")
    root = tmp_path / "job"
    _write(root / "rank0.log", "r0\n")
    os.symlink(outside, root / "evil.log")
    os.symlink(outside.parent, root / "evil_dir")
    os.symlink("../secret/passwd.log", root / "relative_evil.log")
    log = _problems()
    files = discover(root, log)
    assert [f.rel for f in files] == ["rank0.log"]
    for rel in ("evil.log", "evil_dir", "relative_evil.log"):
        assert _problem_for(log, rel) == [("symlink to outside the analysed directory", "skipped")]


def test_symlink_loops_are_reported_not_followed(tmp_path: Path) -> None:
    root = tmp_path / "job"
    _write(root / "a" / "b" / "rank0.log", "r0\n")
    os.symlink("..", root / "a" / "b" / "up")  # back to its grandparent 'a'
    os.symlink(".", root / "self")  # to the root itself
    os.symlink("loop2", root / "loop1")  # the kernel's ELOOP
    os.symlink("loop1", root / "loop2")
    log = _problems()
    files = discover(root, log)
    assert [f.rel for f in files] == ["a/b/rank0.log"]
    assert "symlink loop" in _problem_for(log, "a/b/up")[0][0]
    assert "symlink loop" in _problem_for(log, "self")[0][0]
    assert "symlink loop" in _problem_for(log, "loop1")[0][0]


def test_broken_symlink(tmp_path: Path) -> None:
    root = tmp_path / "job"
    _write(root / "rank0.log", "r0\n")
    os.symlink("gone.log", root / "broken.log")
    log = _problems()
    assert [f.rel for f in discover(root, log)] == ["rank0.log"]
    assert _problem_for(log, "broken.log") == [
        ("broken symlink (its target does not exist)", "skipped")
    ]


def test_hard_links_read_once(tmp_path: Path) -> None:
    root = tmp_path / "job"
    _write(root / "a.log", "same\n")
    os.link(root / "a.log", root / "b.log")
    log = _problems()
    assert [f.rel for f in discover(root, log)] == ["a.log"]
    assert _problem_for(log, "b.log")[0][1] == "not read twice"


# --------------------------------------------------------------------------- skips


def _own_outputs(root: Path) -> None:
    pq.write_table(pa.table({"x": [1, 2, 3]}), root / "timeline.parquet")
    pq.write_table(pa.table({"x": [1]}), root / "parquet_no_ext")
    for name in ("events.duckdb", "duck_no_ext"):
        con = duckdb.connect(str(root / name))
        con.execute("CREATE TABLE t AS SELECT 42 AS x")
        con.close()


def test_binary_and_own_outputs_are_skipped(tmp_path: Path) -> None:
    root = tmp_path / "job"
    root.mkdir()
    _own_outputs(root)
    con = sqlite3.connect(root / "state.db")
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    _write(root / "plot.png", b"\x89PNG\r\n\x1a\n" + bytes(100))
    _write(root / "photo", b"\xff\xd8\xff\xe0" + b"JFIF" * 50)
    _write(root / "anim.gif", b"GIF89a" + b"x" * 50)
    _write(root / "a.out", b"\x7fELF\x02\x01\x01" + bytes(200))
    with zipfile.ZipFile(root / "pkg.whl", "w") as z:
        z.writestr("a.txt", "hi")
    with zipfile.ZipFile(root / "zipped_no_ext", "w") as z:
        z.writestr("a.txt", "hi")
    _write(root / "mod.pyc", b"text-looking but bytecode by name\n")
    _write(root / "model.pt", b"text-looking checkpoint\n")
    _write(root / "model.pth", b"x\n")
    _write(root / "model.safetensors", b"x\n")
    _write(root / "pytorch_model.bin", b"x\n")
    _write(root / "fr_dump.pkl", pickle.dumps({"entries": [1, 2, 3]}))
    _write(root / "nccl_trace_rank_0", pickle.dumps({"entries": []}))  # flight recorder, no ext
    _write(root / "nuls.log", b"abc\x00def\x00" * 100)
    _write(root / "random.log", bytes(range(128, 256)) * 40)
    _write(root / ".git" / "config", "[core]\n")
    _write(root / "__pycache__" / "x.txt", "cache\n")
    _write(root / "rank0.log", "the only log\n")
    log = _problems()
    files = discover(root, log)
    assert [f.rel for f in files] == ["rank0.log"]
    skipped = {p.file for p in log.items if p.action == "skipped"}
    expected = {
        "timeline.parquet", "parquet_no_ext", "events.duckdb", "duck_no_ext", "state.db",
        "plot.png", "photo", "anim.gif", "a.out", "pkg.whl", "zipped_no_ext", "mod.pyc",
        "model.pt", "model.pth", "model.safetensors", "pytorch_model.bin", "fr_dump.pkl",
        "nccl_trace_rank_0", "nuls.log", "random.log", ".git", "__pycache__",
    }  # fmt: skip
    assert skipped == expected
    assert len(log.items) == len(expected)  # one problem each, nothing silent
    assert "Parquet" in _problem_for(log, "parquet_no_ext")[0][0]
    assert "DuckDB" in _problem_for(log, "duck_no_ext")[0][0]
    assert "NUL" in _problem_for(log, "nuls.log")[0][0]
    assert "non-text" in _problem_for(log, "random.log")[0][0]


def test_compressed_binary_is_skipped(tmp_path: Path) -> None:
    _write(tmp_path / "core.gz", gzip.compress(b"\x7fELF" + bytes(5000)))
    log = _problems()
    assert discover(tmp_path, log) == []
    assert "ELF" in _problem_for(log, "core.gz")[0][0]


def test_job_metadata_is_not_skipped(tmp_path: Path) -> None:
    names = ["error.json", "config.yaml", "notes.txt", "job.out", "job.err", "train.log", "NOEXT",
             "env.yml", "hostfile"]  # fmt: skip
    for n in names:
        _write(tmp_path / n, '{"message": "x"}\n')
    log = _problems()
    assert sorted(f.rel for f in discover(tmp_path, log)) == sorted(names)
    assert log.items == []


def test_text_with_crash_nul_padding_is_kept(tmp_path: Path) -> None:
    """A node that died mid-write leaves NUL blocks after its last lines."""
    _write(tmp_path / "rank3.log", b"[rank3]: CUDA error: an illegal memory access\n" + bytes(4096))
    _write(tmp_path / "latin1.log", "temp 25°C caf\xe9\n".encode("latin-1") * 50)
    log = _problems()
    assert sorted(f.rel for f in discover(tmp_path, log)) == ["latin1.log", "rank3.log"]
    assert log.items == []


# --------------------------------------------------------------------------- unreadable / empty


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "job"
    _write(root / "rank0.log", "ok\n")
    locked = _write(root / "locked.log", "secret\n")
    if os.geteuid() == 0:
        # root reads through chmod 000: make this one entry refuse to open instead.
        real_open = discover_mod._open_path

        def guarded(path: str) -> io.FileIO:
            if os.path.samefile(path, locked):
                raise PermissionError(13, "Permission denied", path)
            return real_open(path)

        monkeypatch.setattr(discover_mod, "_open_path", guarded)
    else:
        locked.chmod(0)
    log = _problems()
    try:
        files = discover(root, log)
    finally:
        locked.chmod(0o644)
    assert [f.rel for f in files] == ["rank0.log"]
    assert _problem_for(log, "locked.log") == [("permission denied", "skipped")]


def test_unreadable_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "job"
    _write(root / "rank0.log", "ok\n")
    locked = _write(root / "locked" / "x.log", "secret\n").parent
    if os.geteuid() == 0:
        real_list = discover_mod._list_dir

        def guarded(path: str) -> object:
            if os.path.samefile(path, locked):
                raise PermissionError(13, "Permission denied", path)
            return real_list(path)

        monkeypatch.setattr(discover_mod, "_list_dir", guarded)
    else:
        locked.chmod(0)
    log = _problems()
    try:
        files = discover(root, log)
    finally:
        locked.chmod(0o755)
    assert [f.rel for f in files] == ["rank0.log"]
    assert _problem_for(log, "locked") == [("permission denied (directory)", "skipped")]


def test_empty_file_and_directory(tmp_path: Path) -> None:
    root = tmp_path / "job"
    _write(root / "rank0.log", "ok\n")
    _write(root / "empty.log", b"")
    _write(root / "empty.log.gz", gzip.compress(b""))
    (root / "nothing" / "here").mkdir(parents=True)
    log = _problems()
    assert [f.rel for f in discover(root, log)] == ["rank0.log"]
    assert _problem_for(log, "empty.log") == [("empty file", "nothing to read")]
    assert _problem_for(log, "empty.log.gz") == [
        ("empty file (empty gzip stream)", "nothing to read")
    ]
    assert _problem_for(log, "nothing/here") == [("empty directory", "nothing to read")]


def test_empty_target_directory(tmp_path: Path) -> None:
    log = _problems()
    assert discover(tmp_path, log) == []
    assert _problem_for(log, ".") == [("empty directory", "nothing to read")]


def test_fifo_is_never_opened(tmp_path: Path) -> None:
    root = tmp_path / "job"
    _write(root / "rank0.log", "ok\n")
    os.mkfifo(root / "pipe")  # opening it for reading would block forever
    log = _problems()
    assert [f.rel for f in discover(root, log)] == ["rank0.log"]
    assert _problem_for(log, "pipe") == [("not a regular file (named pipe)", "skipped")]


def test_undecodable_file_name(tmp_path: Path) -> None:
    name = b"rank\xff.log"
    with open(os.path.join(os.fsencode(tmp_path), name), "wb") as fh:
        fh.write(b"x\n")
    [f] = discover(tmp_path, _problems())
    assert f.rel == "rank\ufffd.log"  # printable, safe for Arrow
    assert _read(f) == b"x\n"


# --------------------------------------------------------------------------- evidence is untouched


def _fingerprint(root: Path) -> dict[str, tuple[str, int, int, int]]:
    """Content hash, mtime, atime and mode of every entry, read without touching atime.

    A symlink's own atime is left out: following a link reads it, which the kernel
    counts as an access of the link (not of the evidence it points to).
    """
    out = {}
    for p in sorted(root.rglob("*")):
        st = p.lstat()
        digest, atime = "", st.st_atime_ns
        if p.is_symlink():
            atime = 0
        elif p.is_file():
            fd = os.open(p, os.O_RDONLY | os.O_NOATIME)
            with os.fdopen(fd, "rb") as fh:
                digest = hashlib.sha256(fh.read()).hexdigest()
        out[str(p.relative_to(root))] = (digest, st.st_mtime_ns, atime, st.st_mode)
    return out


def test_inputs_unchanged_after_discover_and_read(tmp_path: Path) -> None:
    from correlator.ingest.read import iter_line_batches

    root = tmp_path / "job"
    _make_job(root)
    _write(root / "z.log.gz", gzip.compress(b"zipped\n"))
    _write(root / "arch.tar.gz", _tar_bytes(root / "node0", "node0", "w:gz"))
    os.symlink("node0", root / "latest")
    # atime older than mtime: under relatime a plain read would update it now.
    for p in root.rglob("*"):
        if not p.is_symlink():
            st = p.stat()
            os.utime(p, ns=(st.st_mtime_ns - 10**12, st.st_mtime_ns))
    before = _fingerprint(root)
    log = _problems()
    files = discover(root, log)
    assert len(files) == 8
    for f in files:
        for _ in iter_line_batches(f, log):
            pass
    assert _fingerprint(root) == before  # content, mtime, atime, mode; no new files


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200).map(lambda b: bytes(x & 0x7F for x in b)), st.booleans())
def test_ascii_heads_are_judged_as_the_decoded_text_would_be(head, mostly_text):
    """The ASCII shortcut of the binary sniff counts the same bytes as the regex on
    the decoded text (NUL runs, controls, DEL; the allowed \\b \\t \\n \\v \\f \\r ESC)."""
    from correlator.ingest.discover import _NON_TEXT, _NON_TEXT_LIMIT, _NUL_PADDING, _binary_reason

    if mostly_text:
        head = b"step 1 loss 2.5\n" * 3 + head
    rest = _NUL_PADDING.sub(b"", head)
    text = rest.decode("utf-8", "replace")
    if not rest:
        want = "only NUL"
    elif rest.count(b"\x00") > max(1, len(rest) // 100):  # one stray NUL is not evidence
        want = "NUL bytes"
    elif text and len(_NON_TEXT.findall(text)) / len(text) > _NON_TEXT_LIMIT:
        want = "non-text bytes"
    else:
        want = None
    got = _binary_reason(head)
    assert (got is None) if want is None else (got is not None and want in got)
