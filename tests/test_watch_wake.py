"""How ``correlator watch`` waits between polls: the follow mode chosen from the mount
table, and polling when notifications cannot be had."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from correlator.ingest import IngestOptions
from correlator.watch.session import Collect, Session, WatchOptions
from correlator.watch.wake import PollWaker, Wake, choose, mount_of, open_waker, parse_mountinfo

# a compute node's mount table (proc(5) format): local root and scratch, the job's
# shared filesystems, a FUSE bucket, and a mount point with a space in its name
MOUNTINFO = """\
22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
23 22 0:21 / /proc rw,nosuid - proc proc rw
30 22 8:17 / /scratch rw,relatime shared:7 - xfs /dev/nvme0n1 rw
31 22 0:45 / /home rw,relatime shared:8 - nfs4 fs01:/export/home rw,vers=4.2
32 22 0:46 / /lustre rw - lustre 10.0.0.1@o2ib:/fs1 rw,flock
33 32 0:47 / /lustre/local-overlay rw - tmpfs tmpfs rw
34 22 0:48 / /gpfs/proj rw - gpfs proj rw
35 22 0:49 / /mnt/bucket rw,nosuid - fuse.gcsfuse my-bucket rw
36 22 0:50 / /mnt/my\\040share rw - cifs //srv/share rw
37 22 0:51 / /beegfs rw - beegfs beegfs_nodev rw
38 22 0:52 / /cephfs rw - ceph 10.0.0.9:/ rw
39 22 0:53 / /dev/shm rw - tmpfs tmpfs rw
"""


@pytest.mark.parametrize(("path", "mode", "fstype"), [
    ("/scratch/job/logs", "notify", "xfs"),
    ("/tmp/job", "notify", "ext4"),  # under / only
    ("/dev/shm/job", "notify", "tmpfs"),
    ("/home/me/job/logs", "poll", "nfs4"),
    ("/lustre/proj/job", "poll", "lustre"),
    ("/lustre/local-overlay/job", "notify", "tmpfs"),  # mounted over a part of lustre
    ("/gpfs/proj/run7", "poll", "gpfs"),
    ("/mnt/bucket/logs", "poll", "fuse.gcsfuse"),
    ("/mnt/my share/logs", "poll", "cifs"),  # \040 unescaped
    ("/mnt/my", "notify", "ext4"),  # a prefix of a mount point's name is not under it
    ("/beegfs/x", "poll", "beegfs"),
    ("/cephfs", "poll", "ceph"),
])
def test_auto_chooses_notifications_on_local_filesystems_only(path: str, mode: str, fstype: str) -> None:
    choice = choose("auto", path, MOUNTINFO)
    assert choice.mode == mode
    assert fstype in choice.why


def test_explicit_choice_and_no_mount_table() -> None:
    assert choose("poll", "/scratch/x", MOUNTINFO).mode == "poll"
    assert choose("notify", "/home/x", MOUNTINFO).mode == "notify"  # the user knows best
    assert choose("auto", "/scratch/x", None).mode == "poll"  # cannot tell: what works everywhere
    assert choose("auto", "/x", "garbage line\n").mode == "poll"


def test_mountinfo_parsing() -> None:
    mounts = parse_mountinfo(MOUNTINFO)
    assert len(mounts) == 12
    m = mount_of("/mnt/my share/a", mounts)
    assert m is not None and (m.point, m.fstype, m.source) == ("/mnt/my share", "cifs", "//srv/share")
    m = mount_of("/lustre/local-overlay", mounts)
    assert m is not None and m.fstype == "tmpfs"


def test_no_watchfiles_means_polling_with_one_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "watchfiles", None)  # import fails
    monkeypatch.setitem(sys.modules, "watchfiles._rust_notify", None)
    notes: list[str] = []
    w = open_waker("notify", str(tmp_path), 2.0, notes.append, mountinfo=MOUNTINFO)
    assert isinstance(w, PollWaker) and w.tick_s == 2.0
    assert len(notes) == 1 and "watchfiles" in notes[0] and "polling every 2s" in notes[0]


def test_notifier_that_cannot_start_means_polling(tmp_path: Path) -> None:
    def over_the_limit(*_args: object) -> object:
        raise OSError("OS file watch limit reached")

    notes: list[str] = []
    w = open_waker("notify", str(tmp_path), 1.5, notes.append, notifier=over_the_limit)
    assert isinstance(w, PollWaker)
    assert notes == ["change notifications unavailable (OS file watch limit reached); polling every 1.5s"]


def test_network_filesystem_is_polled_and_said(tmp_path: Path) -> None:
    notes: list[str] = []
    table = f"40 1 0:60 / {tmp_path} rw - nfs4 fs01:/export rw\n" + MOUNTINFO
    w = open_waker("auto", str(tmp_path), 2.0, notes.append, mountinfo=table)
    assert isinstance(w, PollWaker)
    assert len(notes) == 1 and "nfs4" in notes[0] and "polling every 2s" in notes[0]


class _Breaks:
    """A notifier that fails at its first wait (a watched folder gone, a notifier bug)."""

    def __init__(self, *_args: object) -> None:
        self.closed = False

    def watch(self, *_args: object) -> object:
        raise RuntimeError("notifier died")

    def close(self) -> None:
        self.closed = True


def test_a_notifier_failing_while_running_falls_back_to_polling(tmp_path: Path) -> None:
    from correlator.watch.wake import NotifyWaker

    (tmp_path / "rank0.log").write_text("hello\n")
    sink = Collect()
    session = Session(str(tmp_path), sink, WatchOptions(idle_s=1, poll_s=0.05, rescan_s=0,
                                                        ingest=IngestOptions(workers=1)))
    waker = NotifyWaker(str(tmp_path), notifier=_Breaks)
    verdict = session.run(waker=waker)
    assert verdict is not None  # the watch went on, polled, to the idle end
    assert any("change notifications failed (notifier died); polling" in n for n in sink.notes)
    assert isinstance(session.waker, PollWaker)


def test_notify_mode_wakes_on_a_write_not_on_the_timer(tmp_path: Path) -> None:
    pytest.importorskip("watchfiles")
    log = tmp_path / "rank0.log"
    log.write_text("2026-12-01 10:00:00,000 INFO train: step 1\n")
    notes: list[str] = []
    w = open_waker("notify", str(tmp_path), 2.0, notes.append)
    try:
        assert w.mode == "notify" and notes == ["following by change notifications (--follow notify)"]
        assert w.wait(0.3) is None  # nothing written: the wait runs to its end
        t0 = time.monotonic()
        with open(log, "a") as f:
            f.write("2026-12-01 10:00:01,000 INFO train: step 2\n")
        woke = w.wait(10.0)
        assert woke is not None and not woke.listing  # an append, no file came or went
        assert time.monotonic() - t0 < 5.0
    finally:
        w.close()


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.slept.append(round(s, 3))
        self.t += s


class _Changes:
    """A waker whose every wait is ended at once by a change (a job writing all the time)."""

    mode = "notify"
    tick_s = 5.0

    def __init__(self, listing: bool = False, clock: _Clock | None = None) -> None:
        self.listing = listing
        self.clock = clock
        self.after = 0.0  # seconds of quiet before the change

    def wait(self, timeout: float) -> Wake | None:
        if self.clock is not None:
            self.clock.t += min(self.after, timeout)
        return Wake(listing=self.listing)

    def read(self, got: bool) -> None:
        pass

    def close(self) -> None:
        pass


def test_notified_reads_are_batched_to_one_per_poll_interval(tmp_path: Path) -> None:
    log = tmp_path / "rank0.log"
    log.write_text("INFO train: starting\n")
    clock = _Clock()
    session = Session(str(tmp_path), Collect(), WatchOptions(poll_s=2.0, ingest=IngestOptions(workers=1)),
                      clock=clock)
    changes = session.waker = _Changes(clock=clock)
    session.step()  # reads the file: bytes
    clock.t += 0.3  # the read's own time
    session._wait(clock.sleep)
    assert clock.slept == [2.0]  # a change at once after a read waits poll_s from the read's end
    session.step()  # nothing new: no bytes
    changes.after = 4.0  # a quiet spell, then a change
    clock.slept.clear()
    session._wait(clock.sleep)
    assert clock.slept == []  # read at once
    session.step()
    changes.after = 0.0
    clock.slept.clear()
    session._wait(clock.sleep)
    assert clock.slept == [0.25]  # changes that bring no lines: never more than 4 wake-ups a second


def test_files_coming_or_going_ask_for_the_walk_now(tmp_path: Path) -> None:
    (tmp_path / "rank0.log").write_text("INFO train: starting\n")
    clock = _Clock()
    session = Session(str(tmp_path), Collect(), WatchOptions(rescan_s=3600, ingest=IngestOptions(workers=1)),
                      clock=clock)
    session.step()
    (tmp_path / "rank1.log").write_text("INFO train: late rank\n")
    session.waker = _Changes(listing=False)
    session._wait(clock.sleep)
    session.step()
    assert session.follower.followed == ["rank0.log"]  # no walk due: not seen yet
    session.waker = _Changes(listing=True)
    session._wait(clock.sleep)
    session.step()
    assert session.follower.followed == ["rank0.log", "rank1.log"]


class _Fake:
    """A notifier that counts its opens and closes; every wait ends with a change."""

    opened = 0
    closed = 0

    def __init__(self, *_args: object) -> None:
        _Fake.opened += 1

    def watch(self, *_args: object) -> object:
        return {(2, "/x/rank0.log")}

    def close(self) -> None:
        _Fake.closed += 1


def test_a_job_writing_without_pause_is_followed_by_the_timer_until_it_pauses() -> None:
    from correlator.watch.wake import BUSY_READS, NotifyWaker

    _Fake.opened = _Fake.closed = 0
    slept: list[float] = []
    w = NotifyWaker("/x", tick_s=5.0, poll_s=2.0, notifier=_Fake, sleep=slept.append)
    assert w.tick_s == 5.0 and w.wait(5.0) is not None and not w.paused
    for _ in range(BUSY_READS - 1):
        w.read(True)
    assert not w.paused  # a couple of reads with bytes: still notified
    w.read(True)
    assert w.paused and _Fake.closed == 1  # the notifier's thread stops taking every write's event
    assert w.tick_s == 2.0 and w.wait(2.0) is None and slept == [2.0]  # the timer, at --poll
    w.read(True)
    assert w.paused and _Fake.opened == 1
    w.read(False)  # a read found nothing: the job paused
    assert w.tick_s == 5.0
    assert w.wait(5.0) is not None and not w.paused and _Fake.opened == 2  # notified again
    w.read(True)
    assert not w.paused  # the count starts again
    w.close()
