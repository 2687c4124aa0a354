"""The watch loop: poll, parse what was appended, judge, alert; at the end, the post-mortem.

One poll (``Session.step``):

1. ``Follower.poll``: the bytes appended to every followed file since the last poll,
   as complete lines (``follow``);
2. ``AppendParser.parse``: those lines through ingest's per-file stages, one batch
   for all files (the same parsers as ``ingest``/``analyze``);
3. each event feeds the per-rank progress (``progress``) and, when it is
   error-class, schedules the analysis of the logs so far (``probe``);
4. the progress judgement and the analysis's verdict become alerts (``alerts``);
   standing alerts are withdrawn when progress resumes.

The job has ended at its launcher's exit line (then once the files are quiet for
``end_settle_s``), when standard input closes, or when every file was idle for
``idle_s``; Ctrl-C ends the watch the same way. ``final`` is then ``analyze`` on the
same files: the post-mortem ``analyze`` prints, field for field.

Between two polls, ``run`` waits on a waker (``wake``): a timer, or the filesystem's
change notifications on a local filesystem; the poll is the same either way.

Time comes from ``clock`` (seconds, monotonic) and ``wall`` (a datetime), both
injectable, so that tests and the replayer drive a session without sleeping.
Memory holds the per-rank progress, the alerts and each file's read state: none
of it grows with the job's length.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

import polars as pl

from correlator.ingest import AppendParser, IngestOptions
from correlator.ingest.pipeline import job_name
from correlator.verdict import RunningVerdict, Verdict
from correlator.watch.alerts import Alerts, JobCounts, trigger_mask
from correlator.watch.follow import Follower, StdinSpool
from correlator.watch.probe import Probe
from correlator.watch.progress import PROGRESS_KINDS, Judgement, Progress, Rule
from correlator.watch.stated import stated_timeout
from correlator.watch.streams import FileRanks
from correlator.watch.wake import NOTIFY_TICK_S, FollowMode, PollWaker, Waker, open_waker

# Notify mode: the shortest gap between two wake-ups (module ``wake``).
MIN_WAKE_GAP_S = 0.25
# The launcher's last word: the job is over once the files go quiet after it.
END_KINDS = frozenset({"torchrun.child_failed_error", "torchrun.worker_group_succeeded", "slurm.cancelled",
                       "deepspeed.launcher_exit"})
# The job said it finished: an all-ranks pause after it is no alarm.
DONE_KINDS = frozenset({"app.run_completed", "torchrun.worker_group_succeeded"})
# A collective timeout the logs state: NCCL's watchdog (`Timeout(ms)=600000`), or a
# configured one a trainer or launcher prints (`process group timeout: 300 s`,
# `timeout=datetime.timedelta(seconds=1800)`).
_TIMEOUT_MS = re.compile(r"Timeout\(ms\)=(\d+)")
_TIMEOUT_SET = re.compile(
    r"(?i)(?:process[ _]group|collective|nccl|pg)[\w ]{0,20}?timeout\b[^\d\n]{0,30}?(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds|min|minutes)?\b"
)


@dataclass(frozen=True)
class WatchOptions:
    # polling: seconds between polls; notifications: the shortest time between two reads
    # while files keep changing (bench/README.md: a read's parse has a fixed cost)
    poll_s: float = 2.0
    idle_s: float = 600.0
    settle_s: float = 1.0  # quiet after an error line before the analysis runs
    end_settle_s: float = 3.0  # quiet after the launcher's exit line before the end
    unknown_hold_s: float = 3.0  # a failure no process is named for waits this long for one
    rescan_s: float = 2.0
    follow: FollowMode = "auto"  # wake.py: notifications on a local filesystem, else polling
    notify_tick_s: float = NOTIFY_TICK_S  # notify mode: the longest wait with nothing written
    rule: Rule = field(default_factory=Rule)
    rules_dirs: tuple[str, ...] = ()
    ingest: IngestOptions = field(default_factory=IngestOptions)


class Sink(Protocol):
    """Where a session's news go (the CLI prints them, tests collect them)."""

    def alert(self, v: RunningVerdict) -> None: ...
    def status(self, s: dict) -> None: ...
    def note(self, text: str) -> None: ...


class Collect:
    """A sink that keeps everything (tests, bench)."""

    def __init__(self) -> None:
        self.alerts: list[RunningVerdict] = []
        self.statuses: list[dict] = []
        self.notes: list[str] = []

    def alert(self, v: RunningVerdict) -> None:
        self.alerts.append(v)

    def status(self, s: dict) -> None:
        self.statuses.append(s)

    def note(self, text: str) -> None:
        self.notes.append(text)


class Session:
    """Watching one job: ``target`` is a directory, a file, or ``-`` (standard input)."""

    def __init__(
        self, target: str, sink: Sink, options: WatchOptions | None = None, *,
        clock: Callable[[], float] = time.monotonic, wall: Callable[[], datetime] = lambda: datetime.now(UTC),
        stdin: object | None = None,
    ) -> None:
        self.target, self.sink = target, sink
        self.opts = options or WatchOptions()
        self.clock, self.wall = clock, wall
        self.spool = StdinSpool(stdin) if target == "-" else None
        self.follower = (self.spool.follower(rescan_s=self.opts.rescan_s) if self.spool else
                         Follower(target, exclude=self.opts.ingest.exclude, rescan_s=self.opts.rescan_s))
        job = self.opts.ingest.job or job_name(target)
        self.parser = AppendParser(job, self.opts.ingest.tz)
        self.progress = Progress(self.opts.rule)
        self.streams = FileRanks()
        self.alerts = Alerts(wall)
        self.probe = Probe(target, self.opts.ingest, self.opts.rules_dirs,
                           stdin_spool=self.spool.path if self.spool else None)
        self.job = job
        self.started = clock()
        self.events = 0
        self.errors = 0
        self.nodes: set[str] = set()
        self.timeout_s: float | None = None
        self.exit_seen = False
        self.done_seen = False
        self.judgement = Judgement("starting")
        self._pending_seen: dict[str, int] = {}
        self._triggered: deque[tuple[str, int]] = deque(maxlen=256)
        self._probe_due: float | None = None
        self._probe_first: float | None = None
        self._last_probe: float | None = None
        self._unknown_since: float | None = None
        self._pause_asked: float | None = None  # the all-ranks pause the analysis was asked about
        self._pause_verdict: Verdict | None = None  # its answer, where it names a failure
        self._status_key: tuple | None = None
        self._got = False  # whether it read bytes
        self._read_at: float | None = None  # when the last poll that read bytes ended
        self.waker: Waker | None = None
        self.ended: str | None = None

    # ------------------------------------------------------------------ one poll

    def step(self) -> bool:
        """One poll; True once the job has ended (``ended`` says why)."""
        now = self.clock()
        poll = self.follower.poll(now)
        self._got = bool(poll.bytes)
        if self.waker is not None:
            self.waker.read(self._got)
        for note in poll.notes:
            self.sink.note(note)
        for rel in poll.restarted:
            self.parser.forget(rel)
            self._pending_seen.pop(rel, None)
        quiet = tuple(rel for rel in self.parser.carried()
                      if rel not in poll.lines and now - (self.follower.quiet_since(rel) or now) >= self.opts.settle_s)
        if poll.lines or quiet:
            ev = self.parser.parse(poll.lines, flush=quiet)
            if ev.height:
                self._read_streams(ev)
                # attrs are read of progress lines only: turning every row's into Python
                # dicts was a tenth of a poll's cost
                ev = ev.with_columns(pl.when(pl.col("kind").is_in(list(PROGRESS_KINDS))).then(pl.col("attrs")))
            self._take(ev, now)
        self._maybe_probe(now)
        self.judgement = self.progress.judge(now)
        counts = self.counts()
        for v in self.alerts.recoveries(self.progress, counts):
            self.sink.alert(v)
        if not (self.done_seen or self.progress.reached_total) and not self._pause_explained(now):
            v = self.alerts.from_judgement(self.judgement, self.progress, counts, now, self.timeout_s)
            if v is not None:
                self.sink.alert(v)
        self._status(now)
        return self._ended(now, got=bool(poll.bytes))

    def _read_streams(self, ev: pl.DataFrame) -> None:
        """Stage 2's readings of whose lines a file holds (``streams``), before the attrs
        they read are dropped; a file given a rank takes its stream's progress with it."""
        if not self.streams.see(ev):
            return
        for rel, rank in self.streams.rank.items():
            self.progress.assign(rel, rank)
        self.progress.judged_files = set(self.streams.judged)

    def _with_stream_ranks(self, ev: pl.DataFrame) -> pl.DataFrame:
        """A line that names no rank (nor local rank) takes its file's rank (``streams``)."""
        if not self.streams.rank:
            return ev
        dtype = ev.schema["rank"] if ev.schema["rank"] != pl.Null else pl.Int32
        files = pl.DataFrame({"file": list(self.streams.rank), "_file_rank": list(self.streams.rank.values())},
                             schema={"file": pl.String, "_file_rank": dtype})
        named = pl.col("rank").is_not_null() | pl.col("local_rank").is_not_null()
        return (ev.join(files, on="file", how="left", maintain_order="left")
                .with_columns(pl.when(named).then(pl.col("rank")).otherwise(pl.col("_file_rank")).alias("rank"))
                .drop("_file_rank"))

    def _take(self, ev: pl.DataFrame, now: float) -> None:
        """A poll's events: triggers, the end, a stated timeout, progress. Column work
        first; Python sees the few rows that need it."""
        if ev.height == 0:
            return
        for rel, line in ev.filter(trigger_mask()).select("file", "line_no").iter_rows():
            if (rel, line) not in self._triggered:
                self._triggered.append((rel, line))
                self.errors += 1
                self._schedule_probe(now)
        fresh = ev
        if self._pending_seen:  # a held-back event comes again with more lines: seen already
            seen = pl.DataFrame(list(self._pending_seen.items()), schema={"file": pl.String, "line_no": pl.Int64},
                                orient="row")
            fresh = ev.join(seen, on=["file", "line_no"], how="anti", maintain_order="left")
        self._pending_seen.update(ev.filter(pl.col("pending")).select("file", "line_no").iter_rows())
        self.events += fresh.height
        self.nodes.update(n for n in fresh.get_column("node").unique().to_list() if n)
        kinds = set(fresh.get_column("kind").drop_nulls().unique().to_list())
        self.exit_seen |= bool(kinds & END_KINDS)
        if kinds & DONE_KINDS and not self.done_seen:
            self.done_seen = True
            done = fresh.filter(pl.col("kind").is_in(list(DONE_KINDS))).row(0, named=True)
            said = f"{done['file']}:{done['line_no']}"
            for v in self.alerts.completed(self.counts(), said):
                self.sink.alert(v)
        if self.timeout_s is None:
            for msg in fresh.filter(pl.col("message").str.contains("imeout", literal=True)).get_column("message"):
                if (found := _timeout(msg)) is not None:
                    self.timeout_s = found
                    break
        if self.progress.stated_timeout_s is None:
            # set, not fired: error lines (the timeout's own) say when it fired
            said = fresh.filter(pl.col("message").str.contains("(?i)timeout") & ~trigger_mask())
            for msg in said.get_column("message"):
                if (found := stated_timeout(msg)) is not None:
                    self.progress.stated_timeout_s = found
                    if self.timeout_s is None:
                        self.timeout_s = found
                    self.sink.note(f"the logs state a collective timeout of {found:g}s: the silence "
                                   "rule falls before it")
                    break
        self.progress.see_frame(self._with_stream_ranks(fresh), now)

    # ------------------------------------------------------------------ analysis

    def _schedule_probe(self, now: float) -> None:
        if self._probe_first is None:
            self._probe_first = now
        due = now + self.opts.settle_s
        if self._last_probe is not None:
            due = max(due, self._last_probe + self.probe.gap())
        # a job printing errors without pause is still analysed, a settle later at most
        self._probe_due = min(due, max(self._probe_first + 3 * self.opts.settle_s,
                                       (self._last_probe or 0.0) + self.probe.gap()))

    def _maybe_probe(self, now: float) -> None:
        if self._probe_due is None or now < self._probe_due:
            return
        self._probe_due = self._probe_first = None
        self._last_probe = now
        verdict = self.probe.verdict()
        if verdict is None:
            return
        if verdict.status == "failed" and verdict.initiating is not None and verdict.initiating.kind == "unknown":
            # the logs so far name no process: the lines that would (a prefixed copy, the
            # launcher's table) often follow within seconds; told only if they do not
            if self._unknown_since is None:
                self._unknown_since = now
            if now - self._unknown_since < self.opts.unknown_hold_s:
                self._probe_due = self._unknown_since + self.opts.unknown_hold_s
                self._probe_first = now
                return
        else:
            self._unknown_since = None
        v = self.alerts.from_verdict(verdict, self.progress)
        if v is not None:
            self.sink.alert(v)

    def _pause_explained(self, now: float) -> bool:
        """An all-ranks pause long enough to alarm: does the analysis of the logs so far
        explain it? A job stopped from outside leaves nothing error-class behind (a
        forwarded SIGTERM, its ranks' last step lines short of their stated total, then
        quiet), so no error line ever ran the analysis; it reads those lines as the
        post-mortem will. Its failure is then the alert (told once), not "all ranks paused".
        Asked once per pause."""
        if self.judgement.state != "all_paused_long":
            return False
        pause = self.progress.job_last_at
        if self._pause_asked != pause:
            self._pause_asked = pause
            self._pause_verdict = None
            verdict = self.probe.verdict()
            self._last_probe = now
            if (verdict is not None and verdict.status == "failed" and verdict.initiating is not None
                    and verdict.initiating.kind != "unknown"):
                self._pause_verdict = verdict
                v = self.alerts.from_verdict(verdict, self.progress)
                if v is not None:
                    self.sink.alert(v)
        return self._pause_verdict is not None

    # ------------------------------------------------------------------ status and end

    def counts(self) -> JobCounts:
        ranks = {rp.rank for rp in self.progress.ranks.values() if rp.rank is not None}
        return JobCounts(self.job, len(ranks), len(self.nodes), len(self.follower.followed), self.events)

    def status(self, now: float | None = None) -> dict:
        now = self.clock() if now is None else now
        j = self.judgement
        ranks = [
            {"rank": rp.key, "step": rp.last_step, "since_s": round(now - rp.last_at, 1) if rp.count else None,
             "last_line_s": round(now - rp.seen_at, 1)}
            for rp in sorted(self.progress.ranks.values(), key=lambda rp: (rp.rank is None, rp.rank or 0, rp.key))
            if rp.rank is not None or rp.count  # a launcher's lines are no rank
        ]
        return {
            "type": "status", "at": self.wall().isoformat(), "state": j.state,
            "files": len(self.follower.followed), "ranks": ranks, "errors": self.errors,
            "silent": [rp.key for rp in j.silent], "paused_for_s": round(j.paused_for, 1),
            "cadence_s": None if j.cadence is None else round(j.cadence, 3),
            "alerts": [v.alert.id for v in self.alerts.standing],
        }

    def _status(self, now: float) -> None:
        j = self.judgement
        key = (j.state, tuple(rp.key for rp in j.silent), tuple(v.alert.id for v in self.alerts.standing),
               len(self.progress.ranks), self.errors)
        if key != self._status_key:
            self._status_key = key
            self.sink.status(self.status(now))

    def _ended(self, now: float, got: bool) -> bool:
        if self.ended:
            return True
        last = self.follower.last_growth if self.follower.last_growth is not None else self.started
        if self._probe_due is not None and now - last < self.opts.idle_s:
            return False  # an analysis is due: its alert comes before the post-mortem
        if self.exit_seen and not got and now - last >= self.opts.end_settle_s:
            self.ended = "the launcher's exit line"
        elif self.spool is not None and self.spool.ended.is_set() and not got and now - last >= self.opts.settle_s:
            self.ended = "standard input closed"
        elif now - last >= self.idle_limit():
            self.ended = f"every file idle for {self.idle_limit():g}s"
        return self.ended is not None

    def idle_limit(self) -> float:
        """``idle_s``, or a minute past the collective timeout the logs state, if longer:
        a job hung in a collective is quiet until that timeout fires, and its timeout
        lines are what the post-mortem needs."""
        if self.timeout_s is None:
            return self.opts.idle_s
        return max(self.opts.idle_s, self.timeout_s + 60.0)

    # ------------------------------------------------------------------ the loop and the end

    def next_poll_in(self) -> float:
        """Seconds to the next poll: the waker's tick (``poll_s`` when polling, the
        notify tick with notifications), or sooner when an analysis falls due (an
        error's alert should not wait a whole poll more)."""
        wait = self.waker.tick_s if self.waker is not None else self.opts.poll_s
        if self._probe_due is not None:
            wait = min(wait, max(0.05, self._probe_due - self.clock()))
        return wait

    def run(self, sleep: Callable[[float], None] = time.sleep, before_wait: Callable[[], None] | None = None,
            waker: Waker | None = None) -> Verdict | None:
        """Poll until the job ends (or Ctrl-C), then the post-mortem (None: nothing was read).
        Between polls, the waker's wait (``wake``: a timer, or change notifications);
        ``before_wait`` runs before each (the CLI redraws its status line)."""
        self.waker = waker or open_waker(
            self.opts.follow, self.spool.path if self.spool else self.target, self.opts.poll_s, self.sink.note,
            sleep=sleep, tick_s=self.opts.notify_tick_s)
        try:
            while not self.step():
                if before_wait is not None:
                    before_wait()
                self._wait(sleep)
        except KeyboardInterrupt:
            self.ended = "interrupted"
        finally:
            self.waker.close()
        return self.final()

    def _wait(self, sleep: Callable[[float], None]) -> None:
        assert self.waker is not None
        timeout = self.next_poll_in()
        start = self.clock()
        if self._got:  # gaps from a read's end, as the timer's: the read's own time is no gap
            self._read_at = start
        try:
            woke = self.waker.wait(timeout)
        except (OSError, RuntimeError) as exc:  # the notifier broke while running: poll from now on
            self.sink.note(f"change notifications failed ({str(exc)[:200] or type(exc).__name__}); "
                           f"polling every {self.opts.poll_s:g}s")
            with contextlib.suppress(Exception):
                self.waker.close()
            self.waker = PollWaker(self.opts.poll_s, sleep)
            return
        if woke is None:
            return
        if woke.listing:
            self.follower.rescan_soon()
        # a busy job's writes are read once per poll_s (a read's parse has a fixed cost),
        # and a folder that changes without giving lines (a checkpoint being written
        # beside the logs) wakes no more than MIN_WAKE_GAP_S apart
        until = max(start + MIN_WAKE_GAP_S, (self._read_at or -1e18) + self.opts.poll_s)
        hold = min(until, start + timeout) - self.clock()
        if hold > 0:
            sleep(hold)

    def final(self) -> Verdict | None:
        """``analyze`` on the same files: the post-mortem."""
        self.follower.close()
        try:
            return self.probe.verdict()
        finally:
            if self.spool is not None:
                self.spool.remove()


def _timeout(msg: str) -> float | None:
    if m := _TIMEOUT_MS.search(msg):
        return int(m.group(1)) / 1000
    if m := _TIMEOUT_SET.search(msg):
        value, unit = float(m.group(1)), (m.group(2) or "s").lower()
        scale = {"ms": 0.001, "min": 60.0, "minutes": 60.0}.get(unit, 1.0)
        if value * scale >= 1:
            return value * scale
    return None

