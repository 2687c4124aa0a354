"""Per-rank progress, learned from the job's own lines, and silence judged by its own cadence.

What counts as progress:

* the parsers' progress kinds (``parsers/app.py``: step/loss lines, the Trainer's
  metrics dict, OpenMMLab's ``Epoch [e][i/n]``, loss records, progress bars): the
  same classification ``ingest`` gives those lines;
* any other line the job repeats with a counter: a template (variable parts masked)
  seen on one rank three times in a row with one of its integers growing each time
  (DeepSpeed's ``steps: 120``, ``iter 40/1000``, a custom ``batch 7``). Numbers that
  belong to a date, a time or a decimal (next to ``:``, ``-``, ``,`` or ``.``) are
  not counters, and neither are warnings' and errors' numbers (a retry count).

Each kind of progress line is a *family* (a kind, a learned template, a progress bar's
description and total): ranks are compared within a family, so that rank 0 alone
going on with an evaluation bar does not make the others "silent".

The silence rule (``judge``; figures in bench/README.md):

* A rank is *late* when it has printed no progress for more than
  ``max(min_silence_s, intervals × its median step interval)`` (30 s, 5 intervals).
  Intervals come from the lines' own stamps where two successive progress lines
  have them (reading cadence off arrival times would see a buffered writer's bursts),
  else from when the lines arrived.
* Where the logs stated the collective timeout before anything fired (``stated``:
  torch's ``TIMEOUT(ms): 600000`` at init, ``timeout=0:00:20``, ``ddp_timeout=1800``),
  the threshold falls before it: ``min(that, max(timeout_fraction × the timeout,
  timeout_min_intervals × its median step interval))`` (a half, 2 intervals), so that
  the stalled rank is named before its peers' watchdog fires. With the usual 10 or
  30 min timeouts this changes nothing; with a short one (a 20 s test job, a
  fail-fast setting) it is what makes the alert early.
* Ranks that never printed progress (many trainers log on rank 0 only) are never late,
  and neither is a file whose lines name no rank (a pod's log holding several ranks),
  unless stage 2's readings give it one (``streams``: the one rank its other lines show,
  the one its ``rank R of N`` states, its number among numbered siblings that agree) or
  it is a member of a family of numbered siblings (``worker-3.log``): then it is one
  stream, judged per file and named by its file.
* A late rank is *silent* (an alert) when a peer of its family is not late and has
  progressed since, or when every rank of the family is late and it stopped at a
  lower step than most of them (its peers went one step on and then waited for it
  in the next collective: the usual shape of a hang).
* When every rank is late at the same step, all ranks *paused* together (evaluation,
  a checkpoint, a warm-up): shown, not alarmed, until the pause outlasts
  ``max(all_pause_floor_s, pause_margin × the longest pause the job made before)``
  (5 min, 3x).
"""

from __future__ import annotations

import re
import statistics
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime

import polars as pl

from correlator.timeline.kinds import COUNTED_PROGRESS

PROGRESS_KINDS = COUNTED_PROGRESS
# attrs that carry the step of a progress kind
_STEP_ATTRS = ("step", "iter", "done")
# an integer that is not part of a date, a time, a decimal or a longer token
_COUNTER = re.compile(r"(?<![\d:.,\-])(\d{1,9})(?![\d:.,\-]|\.\d)")
_NOT_PROGRESS_LEVELS = frozenset({"WARNING", "ERROR", "CRITICAL"})
_LEARN_AFTER = 3  # occurrences with a growing counter before a template is progress
_GIVE_UP = 12  # occurrences after which a template that never counted is not read again
_MAX_DEAD = 100_000
_MAX_TEMPLATES = 256  # per rank, templates watched for a counter (least recent dropped)
_INTERVALS = 32  # per rank, recent intervals the median is taken over


@dataclass(frozen=True)
class Rule:
    """The silence rule's knobs (module docstring)."""

    min_silence_s: float = 30.0
    intervals: float = 5.0
    all_pause_floor_s: float = 300.0
    pause_margin: float = 3.0
    min_progress: int = 3  # progress lines a rank needs before it can be late
    timeout_fraction: float = 0.5  # of a stated collective timeout: late before it fires
    timeout_min_intervals: float = 2.0  # ... but never under this many of the rank's steps


@dataclass
class _Learning:
    nums: tuple[int, ...]
    positions: frozenset[int]
    streak: int = 0
    seen: int = 1


@dataclass
class RankProgress:
    """One rank's progress so far (bounded: a few numbers and recent intervals)."""

    key: str
    rank: int | None
    node: str | None
    count: int = 0
    last_at: float = 0.0  # clock time the last progress line arrived
    last_ts: datetime | None = None
    last_step: int | None = None
    last_line: tuple[str, int, str, datetime | None] | None = None  # file, line, text, stamp
    families: dict[str, tuple[int | None, float]] = field(default_factory=dict)  # family -> (step, at)
    intervals: deque[float] = field(default_factory=lambda: deque(maxlen=_INTERVALS))
    learning: dict[str, _Learning] = field(default_factory=dict)
    learned: set[str] = field(default_factory=set)
    seen_at: float = 0.0  # any line
    lines: int = 0
    file: str | None = None  # a file's own stream (its lines name no rank): that file
    first_at: float | None = None  # clock time of its first progress line


    def cadence(self) -> float | None:
        return statistics.median(self.intervals) if self.intervals else None


@dataclass
class Judgement:
    """The state of the job's progress at one moment."""

    state: str  # "starting" | "progressing" | "some_late" | "rank_silent" | "all_paused" | "all_paused_long"
    silent: list[RankProgress] = field(default_factory=list)  # the culprits, earliest stop first
    ahead: list[RankProgress] = field(default_factory=list)  # the peers that went on
    paused_for: float = 0.0
    threshold: float = 0.0
    cadence: float | None = None
    longest_pause: float = 0.0


def rank_key(rank: int | None, local_rank: int | None, node: str | None, file: str) -> tuple[str, int | None]:
    """A line's rank as the live view names it: its rank, else its local rank (a
    launcher prefix, before stage 2 maps it to a global rank), else its file."""
    r = rank if rank is not None else local_rank
    if r is None:
        return f"file {file}", None
    return (f"rank {r}" if not node else f"rank {r}@{node}"), r


def _key_expr() -> pl.Expr:
    """``rank_key``'s key, as a column."""
    r = pl.coalesce("rank", "local_rank").cast(pl.String)
    node = pl.col("node")
    return (pl.when(r.is_null()).then(pl.lit("file ") + pl.col("file"))
            .when(node.is_null() | (node == "")).then(pl.lit("rank ") + r)
            .otherwise(pl.lit("rank ") + r + pl.lit("@") + node))


class Progress:
    """Every rank's progress, fed a poll's events at a time (``see_frame``), judged at any time (``judge``)."""

    def __init__(self, rule: Rule | None = None) -> None:
        self.rule = rule or Rule()
        self.ranks: dict[str, RankProgress] = {}
        self.job_last_at: float | None = None
        self.longest_pause = 0.0
        self._dead: set[tuple[str, str]] = set()  # (rank key, template) that never counted
        # a step line reached the total it states (`step 20/20`): the run did the work it
        # planned, and a quiet end after it is no pause (analysis/stopped.py's reading)
        self.reached_total = False
        # the collective timeout the logs stated before anything fired (``stated``)
        self.stated_timeout_s: float | None = None
        # files whose lines name no rank, judged each as one stream (``streams.FileRanks.judged``)
        self.judged_files: set[str] = set()

    def see_frame(self, ev: pl.DataFrame, now: float) -> None:
        """Take a poll's new events (``LIVE_COLUMNS``): every rank's last line, and its
        progress lines. Only the rows that may be progress reach Python: a progress
        kind, or a line whose template may still turn out to count (a template whose
        numbers never counted, ``_GIVE_UP`` times, is left in the frame)."""
        if ev.height == 0:
            return
        keyed = ev.with_columns(_key_expr().alias("_key"), pl.coalesce("rank", "local_rank").alias("_r"))
        for key, r, node, file, n in keyed.group_by("_key").agg(
                pl.col("_r").first(), pl.col("node").first(), pl.col("file").first(), pl.len()).iter_rows():
            rp = self.ranks.get(key)
            if rp is None:
                rp = self.ranks[key] = RankProgress(key, r, node, file=file if r is None else None)
            rp.seen_at = now
            rp.lines += n
        maybe = pl.col("kind").is_in(list(PROGRESS_KINDS)).fill_null(False) | (
            ~pl.col("level").is_in(list(_NOT_PROGRESS_LEVELS)).fill_null(False)
            & pl.col("template").is_not_null() & ~pl.col("message").str.contains("\n", literal=True))
        # only the columns _see reads, and a progress line's step and total taken out of its
        # attrs in columns: turning every row's attrs list into Python dicts was a third
        # of the progress's cost (bench/README.md)
        has_attrs = isinstance(keyed.schema["attrs"], pl.List) and isinstance(keyed.schema["attrs"].inner, pl.Struct)
        candidates = keyed.filter(maybe).select(
            "_key", "file", "line_no", "kind", "level", pl.col("template").cast(pl.String),  # an Enum per batch
            "message", "ts", "ts_estimated",
            (pl.coalesce(*(_attr(a) for a in _STEP_ATTRS)) if has_attrs else pl.lit(None, pl.String)).alias("_step"),
            (_attr("total") if has_attrs else pl.lit(None, pl.String)).alias("_total"))
        if self._dead:
            dead = pl.DataFrame(list(self._dead), schema={"_key": pl.String, "template": pl.String}, orient="row")
            candidates = candidates.join(dead, on=["_key", "template"], how="anti", maintain_order="left")
        for row in candidates.iter_rows(named=True):
            self._see(row, self.ranks[row["_key"]], now)

    def assign(self, file: str, rank: int) -> None:
        """``file``'s lines that name no rank are ``rank``'s (``streams``): what was
        learned of it as a file's stream becomes that rank's (merged with what its
        ranked lines gave, the one with more progress kept)."""
        rp = self.ranks.pop(f"file {file}", None)
        if rp is None:
            return
        key, _ = rank_key(rank, None, rp.node, file)
        rp.key, rp.rank, rp.file = key, rank, None
        other = self.ranks.get(key)
        if other is not None:
            keep, drop = (rp, other) if rp.count >= other.count else (other, rp)
            keep.lines += drop.lines
            keep.first_at = min((a for a in (keep.first_at, drop.first_at) if a is not None), default=None)
            keep.seen_at = max(keep.seen_at, drop.seen_at)
            rp = keep
        self.ranks[key] = rp
        self._dead = {(key if k == f"file {file}" else k, t) for k, t in self._dead}

    def _see(self, ev: dict, rp: RankProgress, now: float) -> bool:
        family, step = self._progress(rp, ev)
        if family is None:
            return False
        ts = ev.get("ts") if not ev.get("ts_estimated") else None
        if rp.count:
            if ts is not None and rp.last_ts is not None and ts >= rp.last_ts:
                rp.intervals.append((ts - rp.last_ts).total_seconds())
            else:
                rp.intervals.append(max(0.0, now - rp.last_at))
        if self.job_last_at is not None:
            self.longest_pause = max(self.longest_pause, now - self.job_last_at)
        self.job_last_at = now
        rp.count += 1
        if rp.first_at is None:
            rp.first_at = now
        rp.last_at, rp.last_ts = now, ts or rp.last_ts
        if step is not None:
            rp.last_step = step
        rp.families[family] = (step, now)
        rp.last_line = (ev["file"], int(ev["line_no"]), str(ev.get("message") or "")[:300], ev.get("ts"))
        return True

    def _progress(self, rp: RankProgress, ev: dict) -> tuple[str | None, int | None]:
        kind, message = ev.get("kind"), str(ev.get("message") or "")
        if kind in PROGRESS_KINDS:
            step = None if ev["_step"] is None else _int(ev["_step"])
            if kind == "app.progress_bar":  # a bar is its description and its total
                head = message.split("%|", 1)[0].rstrip("0123456789 ")
                return f"bar:{head}/{ev['_total']}", step
            total = None if ev["_total"] is None else _int(ev["_total"])
            if kind == "app.step_metrics" and step is not None and total and step >= total:
                self.reached_total = True
            return kind, step
        template = ev.get("template")
        if not template or ev.get("level") in _NOT_PROGRESS_LEVELS or "\n" in message:
            return None, None
        learning = rp.learning.get(template)
        nums = tuple(int(m) for m in _COUNTER.findall(message))
        if not nums:
            return None, None
        if learning is None:
            if len(rp.learning) >= _MAX_TEMPLATES:
                rp.learning.pop(next(iter(rp.learning)))
            rp.learning[template] = _Learning(nums, frozenset(range(len(nums))))
            return None, None
        rp.learning.pop(template)
        rp.learning[template] = learning  # most recent last
        grew = frozenset(i for i in learning.positions
                         if len(nums) == len(learning.nums) and nums[i] > learning.nums[i])
        learning.seen += 1
        if learning.seen >= _GIVE_UP and template not in rp.learned and len(self._dead) < _MAX_DEAD:
            self._dead.add((rp.key, template))  # its numbers never counted: not read again
        learning.streak = learning.streak + 1 if grew else 0
        learning.positions = grew or frozenset(range(len(nums)))
        learning.nums = nums
        if learning.streak + 1 >= _LEARN_AFTER:
            rp.learned.add(template)
        if template in rp.learned and grew:
            return f"learned:{template}", nums[min(grew)]
        return None, None

    # ---------------------------------------------------------------- judging

    def threshold(self, rp: RankProgress) -> float:
        cadence = rp.cadence() or 0.0
        late = max(self.rule.min_silence_s, self.rule.intervals * cadence)
        if self.stated_timeout_s is None:
            return late
        # named before the watchdog fires, yet not on a rank merely a step or two slow
        return min(late, max(self.rule.timeout_fraction * self.stated_timeout_s,
                             self.rule.timeout_min_intervals * cadence))

    def judge(self, now: float) -> Judgement:
        # a file that names no rank (a pod's log of several ranks, a launcher's) is no rank,
        # unless it is one numbered sibling's own stream (``judged_files``)
        ranks = [rp for rp in self.ranks.values() if rp.count >= self.rule.min_progress and rp.rank is not None]
        ranks += _concurrent([rp for rp in self.ranks.values() if rp.count >= self.rule.min_progress
                              and rp.rank is None and rp.file in self.judged_files], ranks)
        if not ranks:
            return Judgement("starting")
        cadences = [c for rp in ranks if (c := rp.cadence()) is not None]
        cadence = statistics.median(cadences) if cadences else None
        late = [rp for rp in ranks if now - rp.last_at > self.threshold(rp)]
        on = [rp for rp in ranks if rp not in late]
        base = {"cadence": cadence, "longest_pause": self.longest_pause}
        if not late:
            return Judgement("progressing", **base)
        if on:
            silent = [rp for rp in late if any(_went_on(p, rp) for p in on)]
            if silent:
                silent.sort(key=lambda rp: rp.last_at)
                ahead = [p for p in on if any(_went_on(p, s) for s in silent)]
                return Judgement("rank_silent", silent, ahead, now - silent[0].last_at,
                                 self.threshold(silent[0]), **base)
            return Judgement("some_late", late, on, now - min(rp.last_at for rp in late), 0.0, **base)
        behind, ahead = _behind(ranks)
        if behind:
            behind.sort(key=lambda rp: rp.last_at)
            return Judgement("rank_silent", behind, ahead, now - behind[0].last_at, self.threshold(behind[0]), **base)
        paused_for = now - max(rp.last_at for rp in ranks)
        limit = max(self.rule.all_pause_floor_s, self.rule.pause_margin * self.longest_pause,
                    max(self.threshold(rp) for rp in ranks))
        state = "all_paused_long" if paused_for > limit else "all_paused"
        return Judgement(state, [], [], paused_for, limit, **base)


def _concurrent(streams: list[RankProgress], ranks: list[RankProgress]) -> list[RankProgress]:
    """The files' own streams that progressed while another stream or rank did: siblings
    that ran side by side are peers; a log split into numbered parts (``driver_part1.log``,
    ``driver_part2.log``: one after the other) is one process, and its first part's
    stop is no silence."""
    pool = streams + ranks
    return [rp for rp in streams if any(
        p is not rp and (p.first_at or 0.0) <= rp.last_at and (rp.first_at or 0.0) <= p.last_at for p in pool)]


def _went_on(peer: RankProgress, rp: RankProgress) -> bool:
    """Did ``peer`` progress, in a family ``rp`` prints too, after ``rp`` stopped?"""
    return any(fam in rp.families and at > rp.last_at for fam, (_, at) in peer.families.items())


def _behind(ranks: list[RankProgress]) -> tuple[list[RankProgress], list[RankProgress]]:
    """Ranks stopped at a lower step than most of their family (all of them late)."""
    behind: dict[str, RankProgress] = {}
    ahead: dict[str, RankProgress] = {}
    families = {fam for rp in ranks for fam in rp.families}
    for fam in families:
        steps = {rp.key: rp.families[fam][0] for rp in ranks if fam in rp.families}
        known = {k: s for k, s in steps.items() if s is not None}
        if len(known) < 2:
            continue
        top = max(known.values())
        at_top = [k for k, s in known.items() if s == top]
        low = [k for k, s in known.items() if s < top]
        if low and len(at_top) > len(known) / 2:  # a minority stopped short of the rest
            for rp in ranks:
                if rp.key in low:
                    behind[rp.key] = rp
                elif rp.key in at_top:
                    ahead[rp.key] = rp
    return list(behind.values()), [rp for k, rp in ahead.items() if k not in behind]


def _attr(key: str) -> pl.Expr:
    """The value of ``key`` in a row's attrs (a list of key/value structs), or null (the
    last one, where a key came twice, as a dict built from the list would keep)."""
    return (pl.col("attrs").list.eval(pl.element().filter(pl.element().struct.field("key") == key)
                                      .struct.field("value")).list.last().cast(pl.String))


def _int(value: object) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None
