"""Alert decisions: when the story changes, say so once; when progress resumes, withdraw.

An alert is a verdict in the existing schema (``RunningVerdict``: status ``running``
plus ``alert``). Two sources:

* the analysis of the logs so far (``probe``), run when error-class lines arrive: a
  ``failed`` verdict is an ``error`` alert (``hardware`` for a hardware category)
  unless the same story (initiating kind, rank, category) was already told;
* the progress judgement (``progress``): a silent rank, or every rank paused far
  longer than the job ever paused.

An alert is withdrawn ("recovered") when progress resumes where it said it stopped:
the named rank progresses again (for an error, ``RECOVERY_STEPS`` progress lines
after the alert: a caught and retried exception, an elastic restart that recovers),
or any rank does after an all-ranks pause; and every standing alert is, when the job
says it completed its run (``completed``). A withdrawn story is not raised again
from the same evidence line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import polars as pl

from correlator.verdict import (
    Alert,
    AlertKind,
    Evidence,
    Initiating,
    RootCause,
    RunningVerdict,
    Verdict,
)
from correlator.watch.progress import Judgement, Progress, RankProgress

RECOVERY_STEPS = 3  # progress lines after an error alert that withdraw it
_HARDWARE = {"hardware_xid"}

# Error-class lines that make the analysis run again (the analysis decides what they mean).
TRIGGER_LEVELS = frozenset({"ERROR", "CRITICAL"})
TRIGGER_KINDS_PREFIX = ("kernel.xid", "kernel.gpu_fallen_off_bus", "kernel.nvrm", "kernel.oom_kill", "slurm.")


def trigger_mask() -> pl.Expr:
    """The lines that make the analysis run again (a column of ``LIVE_COLUMNS`` events)."""
    kind = pl.col("kind").fill_null("")
    level = pl.col("level")
    return (level.is_in(list(TRIGGER_LEVELS)).fill_null(False)
            | pl.any_horizontal(kind.str.starts_with(p) for p in TRIGGER_KINDS_PREFIX)
            | ((pl.col("source") == "nccl") & (level == "WARNING")).fill_null(False))  # NCCL WARN


@dataclass
class JobCounts:
    """What the live view knows of the job's size, for an alert's header."""

    job: str
    ranks: int
    nodes: int
    files: int
    events: int


@dataclass
class _Raised:
    verdict: RunningVerdict
    key: tuple
    rank_key: str | None  # the progress key of the named rank
    progress_at_raise: int  # that rank's (or the job's) progress count then
    evidence: tuple[str, int] | None


@dataclass
class Alerts:
    """The alerts raised so far and which are standing."""

    wall: Callable[[], datetime]
    raised: list[RunningVerdict] = field(default_factory=list)
    _standing: list[_Raised] = field(default_factory=list)
    _withdrawn: set[tuple] = field(default_factory=set)  # (key, evidence)

    def _new(self, base: Verdict | JobCounts, kind: AlertKind, story: str, **alert: object) -> RunningVerdict:
        data = base.model_dump(exclude={"status"}) if isinstance(base, Verdict) else {
            "job": base.job, "ranks": base.ranks, "nodes": base.nodes, "files": base.files, "events": base.events}
        for k in ("initiating", "root_cause", "missing", "status_reason"):
            if k in alert:
                data[k] = alert.pop(k)
        a = Alert(id=len(self.raised) + 1, kind=kind, story=story, raised_at=self.wall(), **alert)  # type: ignore[arg-type]
        v = RunningVerdict(**data, alert=a)
        self.raised.append(v)
        return v

    def _told(self, key: tuple, evidence: tuple[str, int] | None) -> bool:
        return any(r.key == key for r in self._standing) or (key, evidence) in self._withdrawn

    # ------------------------------------------------------------- from the analysis

    def from_verdict(self, v: Verdict, progress: Progress) -> RunningVerdict | None:
        if v.status != "failed" or v.initiating is None or v.root_cause is None:
            return None
        init, cause = v.initiating, v.root_cause
        key = (init.kind, init.rank, cause.category)
        ev = (cause.evidence.file, cause.evidence.line_no) if cause.evidence else None
        if self._told(key, ev):
            return None
        kind: AlertKind = "hardware" if cause.category in _HARDWARE else "error"
        story = f"{_who(init)}: {cause.title}"
        out = self._new(v, kind, story)
        rk = _progress_key(progress, init.rank)
        self._standing.append(_Raised(out, key, rk, _count(progress, rk), ev))
        return out

    # ------------------------------------------------------------- from the progress

    def from_judgement(
        self, j: Judgement, progress: Progress, counts: JobCounts, now: float, timeout_s: float | None,
    ) -> RunningVerdict | None:
        if j.state == "rank_silent" and j.silent:
            culprit = j.silent[0]
            key = ("rank", culprit.rank, "nccl_timeout_hang")
            if self._told(key, None):
                return None
            return self._silent(culprit, j, progress, counts, now, timeout_s, key)
        if j.state == "all_paused_long":
            key = ("all_ranks", None, "other")
            if self._told(key, None):
                return None
            return self._all_paused(j, progress, counts, now, timeout_s, key)
        return None

    def _silent(
        self, rp: RankProgress, j: Judgement, progress: Progress, counts: JobCounts, now: float,
        timeout_s: float | None, key: tuple,
    ) -> RunningVerdict:
        silent_for = now - rp.last_at
        peers = ", ".join(p.key for p in j.ahead[:8]) + (" ..." if len(j.ahead) > 8 else "")
        where = f" at step {rp.last_step}" if rp.last_step is not None else ""
        ahead_steps = sorted({p.last_step for p in j.ahead if p.last_step is not None})
        went = f" (they reached step {ahead_steps[-1]})" if ahead_steps else ""
        story = (f"{rp.key} stopped making progress{where} {silent_for:.0f}s ago while {peers or 'its peers'} "
                 f"went on{went}")
        others = [s.key for s in j.silent[1:]]
        missing = [f"where {rp.key} waits: a stack dump of it (py-spy dump --pid PID) or a Flight Recorder dump"]
        if others:
            missing.append(f"also behind: {', '.join(others[:8])}")
        fires = _fires_at(self.wall(), j.ahead, now, timeout_s)
        out = self._new(
            counts, "silent_rank", story,
            initiating=Initiating(kind="rank", rank=rp.rank, node=rp.node, all_ranks=False,
                                  confidence=0.7 if j.state == "rank_silent" and j.ahead else 0.5),
            root_cause=RootCause(
                rule_id=None, category="nccl_timeout_hang", title=f"{rp.key} stopped making progress",
                explanation=(f"{rp.key} printed no progress for {silent_for:.0f}s, more than "
                             f"{j.threshold:.0f}s (max({progress.rule.min_silence_s:.0f}s, "
                             f"{progress.rule.intervals:g} x its median step interval "
                             f"{(rp.cadence() or 0):.2f}s)), while the ranks it kept step with went on; "
                             "they will wait for it in their next collective until the timeout fires."),
                evidence=_evidence(rp),
                basis=["watch: progress silence against the job's own cadence"],
            ),
            missing=missing,
            status_reason=story,
            silent_for_s=round(silent_for, 1), step=rp.last_step,
            cadence_s=None if j.cadence is None else round(j.cadence, 3),
            timeout_s=timeout_s, timeout_fires_at=fires,
        )
        self._standing.append(_Raised(out, key, rp.key, rp.count, None))
        return out

    def _all_paused(
        self, j: Judgement, progress: Progress, counts: JobCounts, now: float, timeout_s: float | None, key: tuple,
    ) -> RunningVerdict:
        ranks = [rp for rp in progress.ranks.values() if rp.count]
        story = (f"every rank stopped making progress {j.paused_for:.0f}s ago, at once "
                 f"(the longest pause before: {j.longest_pause:.0f}s)")
        last = max(ranks, key=lambda rp: rp.last_at)
        out = self._new(
            counts, "all_ranks_paused", story,
            initiating=Initiating(kind="all_ranks", all_ranks=True, confidence=0.4),
            root_cause=RootCause(
                rule_id=None, category="other", title="every rank stopped making progress at once",
                explanation=("No rank printed progress for far longer than the job ever paused; no rank stopped "
                             "before the others. Something they all wait on (storage, the network, a node "
                             "outside the job) or a phase much longer than before."),
                evidence=_evidence(last), basis=["watch: all ranks paused beyond the job's own longest pause"],
            ),
            missing=["a stack dump of any rank (py-spy dump) says what they all wait on"],
            status_reason=story,
            silent_for_s=round(j.paused_for, 1), cadence_s=None if j.cadence is None else round(j.cadence, 3),
            timeout_s=timeout_s, timeout_fires_at=_fires_at(self.wall(), ranks, now, timeout_s),
        )
        self._standing.append(_Raised(out, key, None, _count(progress, None), None))
        return out

    # ------------------------------------------------------------- recovery

    def recoveries(self, progress: Progress, counts: JobCounts) -> list[RunningVerdict]:
        """Standing alerts that progress has answered, withdrawn."""
        out = []
        for r in list(self._standing):
            kind = r.verdict.alert.kind
            need = RECOVERY_STEPS if kind in ("error", "hardware") else 1
            if _count(progress, r.rank_key) - r.progress_at_raise < need:
                continue
            self._standing.remove(r)
            self._withdrawn.add((r.key, r.evidence))
            who = r.rank_key or "the job"
            story = f"recovered: {who} is making progress again (withdraws alert {r.verdict.alert.id})"
            out.append(self._new(counts, "recovered", story, withdraws=r.verdict.alert.id, status_reason=story))
        return out

    def completed(self, counts: JobCounts, said: str) -> list[RunningVerdict]:
        """The job says it completed its run (``said``: its line): every standing alert
        is withdrawn, since whatever it told did not stop the run (an error a restart or a
        retry got past, with the progress after it printed in forms not learned as the
        named rank's). The post-mortem still says what ``analyze`` says."""
        out = []
        for r in list(self._standing):
            self._standing.remove(r)
            self._withdrawn.add((r.key, r.evidence))
            story = f"recovered: the job reports it completed ({said}; withdraws alert {r.verdict.alert.id})"
            out.append(self._new(counts, "recovered", story, withdraws=r.verdict.alert.id, status_reason=story))
        return out

    @property
    def standing(self) -> list[RunningVerdict]:
        return [r.verdict for r in self._standing]


def _who(init: Initiating) -> str:
    if init.kind == "rank":
        return f"rank {init.rank}" if init.rank is not None else f"node {init.node}"
    return {"all_ranks": "all ranks", "external": "stopped from outside", "unknown": "a process"}[init.kind]


def _progress_key(progress: Progress, rank: int | None) -> str | None:
    if rank is None:
        return None
    return next((k for k, rp in progress.ranks.items() if rp.rank == rank and rp.count), None)


def _count(progress: Progress, key: str | None) -> int:
    """Progress lines of rank ``key`` so far (None: of the whole job)."""
    if key is None:
        return sum(rp.count for rp in progress.ranks.values())
    rp = progress.ranks.get(key)
    return rp.count if rp else 0


def _evidence(rp: RankProgress) -> Evidence | None:
    if rp.last_line is None:
        return None
    file, line, text, ts = rp.last_line
    return Evidence(file=file, line_no=line, rank=rp.rank, node=rp.node, ts=ts, text=text)


def _fires_at(wall: datetime, waiting: list[RankProgress], now: float, timeout_s: float | None) -> datetime | None:
    """When a collective timeout the logs state fires for ranks that stopped at their
    last progress (they entered the collective about then)."""
    if timeout_s is None or not waiting:
        return None
    entered = max(rp.last_at for rp in waiting)
    return wall - timedelta(seconds=now - entered) + timedelta(seconds=timeout_s)
