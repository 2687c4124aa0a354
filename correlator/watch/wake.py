"""How the watch loop waits between two polls: a timer, or the filesystem's change notifications.

Reading is the same either way (``follow.Follower.poll``: a ``stat`` per file, the bytes
appended since the last read, rotation, truncation, late and deleted files, partial
lines). Only the wait in between differs:

* **poll** (``PollWaker``): sleep ``--poll`` seconds (default 2), then read. Works on
  every filesystem.
* **notify** (``NotifyWaker``): block until the kernel says something under the
  followed tree changed (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on
  Windows), then read; while the files keep changing, reads are batched to one per
  ``--poll`` seconds (a read's parse has a fixed cost, see bench/README.md), and a
  change after a quiet spell is read at once; a job that writes without pause is
  followed by the timer until a read finds nothing new (``NotifyWaker``: the notifier
  would only take every write's event for nothing). With nothing written the loop wakes
  every ``NOTIFY_TICK_S`` only: to judge the silences (a silence is the absence of
  changes: nothing would wake the loop for it) and as the safety rescan that
  catches what a notifier can drop (an overflowed queue, a file made in a directory
  before its watch was set).

Which one (``--follow auto``, the default, ``choose``): notifications where the
followed tree is on a local filesystem; polling where it is on a network, cluster or
FUSE filesystem (``NETWORK_FSTYPES``, any ``fuse.*``), found from the mount table
(``/proc/self/mountinfo``, the longest mount point above the path): there the kernel
only sees writes made on this machine, and a job's ranks write from other machines
(NFS, Lustre, GPFS, BeeGFS, CephFS, SMB, a FUSE mount of object storage...). Where
there is no mount table to read (not Linux), polling: it is right everywhere.
``--follow notify`` / ``--follow poll`` override the choice.

The notifier is ``watchfiles`` (``RustNotify``: the Rust ``notify`` crate, as used by
uvicorn and many dev servers; wheels for every platform, maintained). Chosen over
``watchdog`` because a log tree being written is a storm of modify events (64 ranks
flushing 10 times a second: 640 a second): ``notify`` gathers them into one set in its
own thread, in Rust, and Python sees one return per wake-up; watchdog's inotify
observer builds and dispatches a Python object per event, a cost paid for every flush
of every rank. If ``watchfiles`` is not installed, or the notifier cannot start (the
inotify watch or instance limit reached, ``fs.inotify.max_user_watches``), or fails
while running, the loop polls, with one note that says why.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

FollowMode = Literal["auto", "notify", "poll"]

# Seconds between wake-ups when nothing changes, in notify mode: silences are judged
# in tens of seconds (bench/README.md), and this is also the safety rescan.
NOTIFY_TICK_S = 5.0
# Reads in a row that found new bytes, after which a busy job is followed by the timer
# (``NotifyWaker``): about 6 s of steady writing at the default --poll 2.
BUSY_READS = 3

# Filesystems whose writes from other machines raise no local notification: network,
# cluster and parallel filesystems, and virtual-machine shares. ``fuse.*`` too (sshfs,
# s3fs, gcsfuse, glusterfs, a lustre or weka client in user space...).
NETWORK_FSTYPES = frozenset({
    "nfs", "nfs4", "lustre", "gpfs", "cifs", "smb3", "smbfs", "beegfs", "ceph", "cephfs",
    "glusterfs", "afs", "ocfs2", "gfs2", "panfs", "orangefs", "pvfs2", "wekafs", "9p",
    "virtiofs", "vboxsf", "davfs", "fuse", "fuseblk", "autofs",
})


@dataclass(frozen=True)
class Mount:
    point: str
    fstype: str
    source: str


@dataclass(frozen=True)
class Choice:
    """The follow mode chosen, and the words that say why (a note to the user)."""

    mode: Literal["notify", "poll"]
    why: str


def _unescape(field: str) -> str:
    # mountinfo escapes space, tab, newline and backslash as octal (\040 ...)
    out, i = [], 0
    while i < len(field):
        code = field[i + 1:i + 4]
        if field[i] == "\\" and len(code) == 3 and code.isdigit():
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def parse_mountinfo(text: str) -> list[Mount]:
    """The mounts of a ``/proc/<pid>/mountinfo`` text (proc(5)): mount point is field 5,
    the filesystem type and source follow the ``-`` separator."""
    mounts = []
    for line in text.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        sep = fields.index("-")
        if len(fields) < 5 or len(fields) < sep + 3:
            continue
        mounts.append(Mount(_unescape(fields[4]), fields[sep + 1], _unescape(fields[sep + 2])))
    return mounts


def mount_of(path: str, mounts: list[Mount]) -> Mount | None:
    """The mount ``path`` (absolute, resolved) lies on: the longest mount point above it
    (the last one listed where a point was mounted over)."""
    best: Mount | None = None
    best_len = -1
    for m in mounts:
        point = m.point.rstrip("/")
        if (path == point or path.startswith(point + "/") or not point) and len(point) >= best_len:
            best, best_len = m, len(point)
    return best


def is_network(fstype: str) -> bool:
    return fstype in NETWORK_FSTYPES or fstype.startswith("fuse.")


def choose(requested: FollowMode, path: str, mountinfo: str | None) -> Choice:
    """The follow mode for a tree at ``path`` (absolute, resolved): ``requested``, or
    for ``auto`` what its filesystem in ``mountinfo`` allows (module docstring). Pure:
    the caller reads the mount table."""
    if requested == "poll":
        return Choice("poll", "--follow poll")
    if requested == "notify":
        return Choice("notify", "--follow notify")
    if mountinfo is None:
        return Choice("poll", "no mount table to tell the filesystem (polling works everywhere)")
    mount = mount_of(path, parse_mountinfo(mountinfo))
    if mount is None:
        return Choice("poll", "its filesystem is not in the mount table")
    where = f"{mount.fstype} at {mount.point}"
    if is_network(mount.fstype):
        return Choice("poll", f"{where}: change notifications do not see other machines' writes")
    return Choice("notify", f"{where}, a local filesystem")


def read_mountinfo() -> str | None:
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


@dataclass(frozen=True)
class Wake:
    """A wait that a change ended: ``listing`` when files or folders came or went (the
    follower should look for new files now, not at its next rescan)."""

    listing: bool


class Waker(Protocol):
    mode: str

    @property
    def tick_s(self) -> float:
        """The longest wait with nothing changing."""
        ...

    def wait(self, timeout: float) -> Wake | None:
        """Wait up to ``timeout`` seconds; a ``Wake`` if a change ended it, else None."""
        ...

    def read(self, got: bool) -> None:
        """What the poll after the wait found: new bytes or not."""
        ...

    def close(self) -> None: ...


class PollWaker:
    """The timer: every wait runs to its end."""

    mode = "poll"

    def __init__(self, poll_s: float, sleep: Callable[[float], None] = time.sleep) -> None:
        self.tick_s = poll_s
        self._sleep = sleep

    def wait(self, timeout: float) -> Wake | None:
        self._sleep(timeout)
        return None

    def read(self, got: bool) -> None:
        pass

    def close(self) -> None:
        pass


_ADDED, _DELETED = 1, 3  # watchfiles.Change


class NotifyWaker:
    """Change notifications for the tree at ``root`` (a folder, recursively; for a
    single file, its folder).

    While the job writes without pause (``BUSY_READS`` reads in a row found new bytes),
    the notifier is closed and the timer takes over (``poll_s``): every read would find
    bytes anyway, and the notifier's thread would take every write's event (a logger
    flushing each line: thousands a second) for nothing. The first read that finds
    nothing opens it again: a quiet job costs a tick every ``tick_s``, and its next
    line is read at once."""

    mode = "notify"

    def __init__(self, root: str, *, recursive: bool = True, tick_s: float = NOTIFY_TICK_S,
                 poll_s: float = 2.0, notifier: Callable[..., object] | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if notifier is None:
            from watchfiles._rust_notify import RustNotify  # the import fails where it is missing

            notifier = RustNotify
        self._factory, self._root, self._recursive = notifier, root, recursive
        self._notify: object | None = self._open()
        self._tick_s, self._poll_s, self._sleep = tick_s, poll_s, sleep
        self._busy = 0
        self.reopen = False  # the notifier is to open again before the next wait

    def _open(self) -> object:
        # (paths, debug, force_polling, poll_delay_ms, recursive, ignore_permission_denied)
        return self._factory([self._root], False, False, 0, self._recursive, True)

    @property
    def tick_s(self) -> float:
        return self._tick_s if self._notify is not None or self.reopen else self._poll_s

    @property
    def paused(self) -> bool:
        return self._notify is None

    def read(self, got: bool) -> None:
        """What the last read found: bytes (the job is writing) or nothing."""
        self._busy = self._busy + 1 if got else 0
        if self._busy >= BUSY_READS and self._notify is not None:
            self.close()
        elif not got and self._notify is None:
            self.reopen = True

    def wait(self, timeout: float) -> Wake | None:
        if self.reopen:  # raises as the first open did (the session falls back to polling)
            self.reopen = False
            self._notify = self._open()
        if self._notify is None:
            self._sleep(timeout)
            return None
        # debounce: the changes of one burst of writes come back as one set; step: how
        # long the Rust side sleeps between looks (and how soon Ctrl-C is seen)
        got = self._notify.watch(200, 50, max(1, int(timeout * 1000)), None)  # type: ignore[attr-defined]
        if got == "signal":
            raise KeyboardInterrupt
        if not isinstance(got, set):  # "timeout" (or "stop")
            return None
        return Wake(listing=any(change in (_ADDED, _DELETED) for change, _ in got))

    def close(self) -> None:
        notify, self._notify = self._notify, None
        close = getattr(notify, "close", None)
        if close is not None:
            close()


def open_waker(
    requested: FollowMode, target: str, poll_s: float, note: Callable[[str], None], *,
    mountinfo: str | None = None, notifier: Callable[..., object] | None = None,
    sleep: Callable[[float], None] = time.sleep, tick_s: float = NOTIFY_TICK_S,
) -> Waker:
    """The waker for following ``target`` (a folder or a file): notifications where
    ``choose`` says so and they start, else the timer; one note says which, and why."""
    path = os.path.realpath(target)
    choice = choose(requested, path, mountinfo if mountinfo is not None else read_mountinfo())
    if choice.mode == "notify":
        root, recursive = (path, True) if os.path.isdir(path) else (os.path.dirname(path), False)
        try:
            waker = NotifyWaker(root, recursive=recursive, tick_s=tick_s, poll_s=poll_s, notifier=notifier,
                                sleep=sleep)
        except ImportError:
            note(f"change notifications unavailable (the watchfiles package is not installed); "
                 f"polling every {poll_s:g}s")
        except (OSError, RuntimeError) as exc:  # the inotify limits, a notifier's own error
            note(f"change notifications unavailable ({_why(exc)}); polling every {poll_s:g}s")
        else:
            note(f"following by change notifications ({choice.why})")
            return waker
    else:
        note(f"polling every {poll_s:g}s ({choice.why})")
    return PollWaker(poll_s, sleep)


def _why(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]
