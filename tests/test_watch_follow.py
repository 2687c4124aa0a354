"""The follower of ``correlator watch``: appended bytes -> lines, whatever happens to the files.

Every reading test runs twice: polled (a walk at every poll), and woken by change
notifications (``mode="notify"``: each change must raise a notification, and new files
are found only through the walk a notification asks for, ``rescan_soon``). Reading is
one code path; the two runs differ only in what woke the poll.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from correlator.watch.follow import Follower, Poll, StdinSpool
from correlator.watch.wake import NotifyWaker, Wake


class _Driver:
    """Makes a change and waits for what wakes the next poll: with notifications, the
    change's own notification (it must come); polled, nothing (the walk runs every poll)."""

    def __init__(self, mode: str, root: Path) -> None:
        self.mode = mode
        self.root = root
        self.waker: NotifyWaker | None = None

    @property
    def rescan_s(self) -> float:
        return 0.0 if self.mode == "poll" else 3600.0  # notify: walks only when asked

    def start(self, follower: Follower) -> Follower:
        if self.mode == "notify":
            path = str(self.root)
            self.waker = NotifyWaker(path if os.path.isdir(path) else os.path.dirname(path),
                                     recursive=os.path.isdir(path))
        self.follower = follower
        return follower

    def change(self, fn: Callable[[], object]) -> Wake | None:
        if self.waker is None:
            fn()
            return None
        while self.waker.wait(0.1) is not None:  # what earlier changes left queued
            pass
        fn()
        woke = self.waker.wait(5.0)
        assert woke is not None, "the change raised no notification"
        if woke.listing:
            self.follower.rescan_soon()
        return woke

    def close(self) -> None:
        if self.waker is not None:
            self.waker.close()


@pytest.fixture(params=["poll", "notify"])
def mode(request: pytest.FixtureRequest) -> str:
    if request.param == "notify":
        pytest.importorskip("watchfiles", reason="change notifications need the watchfiles package")
    return str(request.param)


@pytest.fixture
def drive(mode: str, tmp_path: Path) -> Iterator[_Driver]:
    d = _Driver(mode, tmp_path)
    yield d
    d.close()


def _lines(poll: Poll, rel: str) -> list[str]:
    got = poll.lines.get(rel)
    return [] if got is None else got[1].to_list()


def _first(poll: Poll, rel: str) -> int:
    return poll.lines[rel][0]


def _append(path: Path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def test_reads_only_what_was_appended(tmp_path: Path, drive: _Driver) -> None:
    log = tmp_path / "rank0.log"
    log.write_text("a\nb\n")
    f = drive.start(Follower(str(tmp_path), rescan_s=drive.rescan_s))
    p = f.poll(0.0)
    assert _lines(p, "rank0.log") == ["a", "b"] and _first(p, "rank0.log") == 1
    assert f.poll(1.0).lines == {}
    drive.change(lambda: _append(log, "c\n"))
    p = f.poll(2.0)
    assert _lines(p, "rank0.log") == ["c"] and _first(p, "rank0.log") == 3
    assert p.bytes == 2


def test_partial_last_line_waits_for_its_newline(tmp_path: Path, drive: _Driver) -> None:
    log = tmp_path / "x.log"
    log.write_text("one\ntw")
    f = drive.start(Follower(str(tmp_path), rescan_s=drive.rescan_s))
    assert _lines(f.poll(0.0), "x.log") == ["one"]
    drive.change(lambda: _append(log, "o and a half"))
    assert f.poll(1.0).lines == {}
    drive.change(lambda: _append(log, "\nthree\n"))
    p = f.poll(2.0)
    assert _lines(p, "x.log") == ["two and a half", "three"] and _first(p, "x.log") == 2
    drive.change(lambda: _append(log, "no newline at the end"))
    assert f.poll(3.0).lines == {}
    assert _lines(f.flush_partials(), "x.log") == ["no newline at the end"]


def test_file_that_appears_late_and_a_restart_into_attempt_1(tmp_path: Path, drive: _Driver) -> None:
    (tmp_path / "attempt_0" / "0").mkdir(parents=True)
    (tmp_path / "attempt_0" / "0" / "stdout.log").write_text("first try\n")
    f = drive.start(Follower(str(tmp_path), rescan_s=drive.rescan_s))
    assert _lines(f.poll(0.0), "attempt_0/0/stdout.log") == ["first try"]

    def restart() -> None:
        (tmp_path / "late.log").write_text("late\n")
        (tmp_path / "attempt_1" / "0").mkdir(parents=True)
        (tmp_path / "attempt_1" / "0" / "stdout.log").write_text("second try\n")

    woke = drive.change(restart)
    assert woke is None or woke.listing  # notify: files came, so the walk is asked for
    p = f.poll(1.0)
    assert _lines(p, "late.log") == ["late"]
    assert _lines(p, "attempt_1/0/stdout.log") == ["second try"]
    assert any("attempt_1/0/stdout.log: new file" in n for n in p.notes)
    assert "attempt_1/0/stdout.log" in f.followed


def test_truncation_reads_again_from_the_start(tmp_path: Path, drive: _Driver) -> None:
    log = tmp_path / "train.log"
    log.write_text("old 1\nold 2\nold 3\n")
    f = drive.start(Follower(str(tmp_path), rescan_s=drive.rescan_s))
    f.poll(0.0)
    drive.change(lambda: log.write_text("new\n"))  # copytruncate: same inode, shorter
    p = f.poll(1.0)
    assert _lines(p, "train.log") == ["new"] and _first(p, "train.log") == 1
    assert "train.log" in p.restarted
    assert any("truncated" in n for n in p.notes)


def test_rotation_by_rename_keeps_reading_both(tmp_path: Path, drive: _Driver) -> None:
    log = tmp_path / "train.log"
    log.write_text("line 1\n")
    f = drive.start(Follower(str(tmp_path), rescan_s=drive.rescan_s))
    f.poll(0.0)

    def rotate() -> None:
        _append(log, "line 2 (written just before the rotation)\n")
        os.rename(log, tmp_path / "train.log.1")
        log.write_text("fresh 1\n")

    drive.change(rotate)
    p = f.poll(1.0)
    # the renamed file goes on from where it was (nothing read twice) ...
    assert _lines(p, "train.log.1") == ["line 2 (written just before the rotation)"]
    assert _first(p, "train.log.1") == 2
    # ... and the new file under the old name is read from its start
    assert _lines(p, "train.log") == ["fresh 1"] and _first(p, "train.log") == 1
    assert sorted(f.followed) == ["train.log", "train.log.1"]


def test_file_deleted_while_followed_is_read_to_its_end(tmp_path: Path, drive: _Driver) -> None:
    log = tmp_path / "rank1.log"
    log.write_text("a\n")
    f = drive.start(Follower(str(tmp_path), rescan_s=drive.rescan_s))
    f.poll(0.0)

    def delete() -> None:
        _append(log, "last words\n")
        log.unlink()

    drive.change(delete)
    p = f.poll(1.0)
    assert _lines(p, "rank1.log") == ["last words"]
    assert any("rank1.log: deleted" in n for n in p.notes)
    assert f.followed == []
    assert f.poll(2.0).lines == {}


def test_binary_and_compressed_files_are_not_followed(tmp_path: Path) -> None:
    (tmp_path / "ckpt.pt").write_bytes(b"\x00" * 100)
    (tmp_path / "old.log.gz").write_bytes(b"\x1f\x8b\x08\x00")
    (tmp_path / "blob.log").write_bytes(bytes(range(256)) * 40)
    (tmp_path / "ok.log").write_text("fine\n")
    f = Follower(str(tmp_path), rescan_s=0)
    p = f.poll(0.0)
    assert list(p.lines) == ["ok.log"]
    assert {n.split(":")[0] for n in p.notes} == {"ckpt.pt", "old.log.gz", "blob.log"}


def test_a_single_file_target(tmp_path: Path, mode: str) -> None:
    log = tmp_path / "slurm-1.out"
    log.write_text("0: hello\n")
    drive = _Driver(mode, log)
    try:
        f = drive.start(Follower(str(log), rescan_s=drive.rescan_s))
        assert _lines(f.poll(0.0), "slurm-1.out") == ["0: hello"]
        drive.change(lambda: _append(log, "0: step 1\n"))
        assert _lines(f.poll(1.0), "slurm-1.out") == ["0: step 1"]
    finally:
        drive.close()


def test_standard_input_is_spooled_and_followed(mode: str) -> None:
    r, w = os.pipe()
    with os.fdopen(r, "rb", buffering=0) as src:
        spool = StdinSpool(src)
        waker = NotifyWaker(spool.dir) if mode == "notify" else None
        try:
            f = spool.follower(rescan_s=0)
            os.write(w, b"[default0]:step 1 loss 2.0\n[default1]:part")
            got = _wait_for(f, "<stdin>", waker)
            assert got == ["[default0]:step 1 loss 2.0"]
            os.write(w, b"ial line\n")
            assert _wait_for(f, "<stdin>", waker) == ["[default1]:partial line"]
            os.close(w)
            assert spool.ended.wait(5)
        finally:
            if waker is not None:
                waker.close()
            spool.remove()


def _wait_for(f: Follower, rel: str, waker: NotifyWaker | None = None) -> list[str]:
    """The next lines of ``rel``: the spool is filled by a thread, so wait for it (bounded);
    with notifications, polled only when one came."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if waker is not None and waker.wait(deadline - time.monotonic()) is None:
            break
        got = _lines(f.poll(time.monotonic()), rel)
        if got:
            return got
        if waker is None:
            time.sleep(0.01)
    raise AssertionError("no lines came through the spool")
