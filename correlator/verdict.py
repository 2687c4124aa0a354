"""The verdict: a stable, documented JSON schema (``correlator analyze --format json``).

Every claim points at evidence (file, line, rank, time). ``schema_version``
changes only with a migration note here. ``correlator schema`` prints the JSON
Schema generated from these models.

Schema 2 addition without a version change (``analyze``'s output is as it was):
``RunningVerdict``, the verdict with ``status: "running"`` and an ``alert``, which
only ``correlator watch`` writes, for an alert raised while the job still runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

SCHEMA_VERSION = 2

# Root-cause categories: a closed vocabulary (DESIGN.md). Add one only with a reason here.
CATEGORIES = (
    "oom", "nccl_network", "nccl_timeout_hang", "collective_mismatch", "config_error",
    "hardware_xid", "data_error", "code_exception", "version_mismatch", "killed_by_scheduler",
    "nan_divergence", "rendezvous", "storage_io", "other",
)
Category = Literal[
    "oom", "nccl_network", "nccl_timeout_hang", "collective_mismatch", "config_error",
    "hardware_xid", "data_error", "code_exception", "version_mismatch", "killed_by_scheduler",
    "nan_divergence", "rendezvous", "storage_io", "other",
]


def ranges(xs: Iterable[int]) -> str:
    """[0, 1, 2, 5] -> '0-2,5'."""
    out: list[str] = []
    start = prev = None
    for x in sorted(set(xs)):
        if start is None:
            start = prev = x
        elif x == prev + 1:
            prev = x
        else:
            out.append(str(start) if start == prev else f"{start}-{prev}")
            start = prev = x
    if start is not None:
        out.append(str(start) if start == prev else f"{start}-{prev}")
    return ",".join(out)


class Evidence(BaseModel):
    """One event, cited."""

    file: str
    line_no: int
    line_end: int | None = None
    rank: int | None = None
    node: str | None = None
    ts: datetime | None = None
    ts_estimated: bool = Field(
        default=False, description="the line has no stamp of its own: ts is taken from the lines around it"
    )
    text: str


InitiatingKind = Literal["rank", "all_ranks", "external", "unknown"]


class Initiating(BaseModel):
    kind: InitiatingKind = Field(
        default="unknown",
        description="rank: one rank (or node) started it; all_ranks: every rank failed alike (a configuration, "
                    "environment or version error); external: the job was stopped from outside (scheduler, "
                    "signal, preemption); unknown: the logs name no rank or node that started it (only echoes "
                    "were found, or one process's error with no rank on it, as in a lone pasted traceback)",
    )
    rank: int | None = None
    node: str | None = None
    local_rank: int | None = None
    gpu: str | None = Field(default=None, description="CUDA device or PCI address, when known")
    all_ranks: bool = Field(description="true: every rank failed alike (e.g. a config error)")
    confidence: float = Field(ge=0, le=1)


class RootCause(BaseModel):
    rule_id: str | None = Field(description="null when no rule matched: an unclassified deviation")
    category: Category
    title: str
    explanation: str
    fix: str | None = None
    verify: str | None = None
    evidence: Evidence | None = None
    rule_evidence: str | None = Field(default=None, description="observed / source / secondhand, with provenance")
    basis: list[str] = Field(
        default_factory=list,
        description="what the category rests on: 'rule <id>', or the general classifier's entry and the "
                    "exception type, errno, stack frame or phase it read; a disagreement between them is said here",
    )


class FirstDeviating(Evidence):
    context: list[Evidence] = Field(default_factory=list, description="events leading up to it, same file")
    why: str = Field(description="why it deviates: minority template, absent from the baseline, ...")


class Collateral(BaseModel):
    rule_id: str
    category: Category
    title: str
    ranks: list[int]
    nodes: list[str] = Field(default_factory=list)
    count: int
    first: Evidence


class Hypothesis(BaseModel):
    rule_id: str | None
    category: Category
    rank: int | None = None
    node: str | None = None
    score: float
    evidence: Evidence | None = None
    why_not: str | None = Field(default=None, description="why it lost (null for the winner)")


class ClockOffset(BaseModel):
    node: str
    offset_s: float = Field(description="how far the node's clock runs ahead of the reference node")
    keys: int = Field(description="simultaneous events it was estimated from")
    spread_s: float = Field(description="median absolute deviation of the estimate")
    applied: bool


AlertKind = Literal["error", "hardware", "silent_rank", "all_ranks_paused", "recovered"]


class Alert(BaseModel):
    """Why ``correlator watch`` spoke while the job ran (a verdict with status ``running``)."""

    id: int = Field(description="1, 2, ... in the order raised; a 'recovered' alert names the one it withdraws")
    kind: AlertKind = Field(
        description="error: a rank's own root-cause-class error; hardware: a node's hardware error; silent_rank: "
                    "a rank stopped making progress while its peers went on; all_ranks_paused: every rank stopped "
                    "for far longer than the job ever paused; recovered: progress resumed, the alert `withdraws` "
                    "is withdrawn")
    story: str = Field(description="one line for a human")
    raised_at: datetime
    withdraws: int | None = None
    silent_for_s: float | None = Field(default=None, description="seconds since the named rank's last progress line")
    step: int | None = Field(default=None, description="the named rank's last step, where its lines count steps")
    cadence_s: float | None = Field(default=None, description="the job's median step interval")
    timeout_s: float | None = Field(default=None, description="the collective timeout the logs state")
    timeout_fires_at: datetime | None = Field(
        default=None, description="when that timeout fires for the ranks waiting, counted from their last progress")


class Verdict(BaseModel):
    schema_version: int = SCHEMA_VERSION
    job: str
    ranks: int = Field(description="ranks the job is known to have: that logged, that a launcher or NCCL names, "
                                   "or that a finding blames")
    nodes: int
    files: int
    events: int
    status: Literal["failed", "healthy", "inconclusive"]
    status_reason: str | None = Field(
        default=None, description="the evidence the status rests on (a failure, a completion line, or what is missing)"
    )
    initiating: Initiating | None = None
    root_cause: RootCause | None = None
    first_deviating: FirstDeviating | None = None
    collateral: list[Collateral] = Field(default_factory=list)
    hypotheses: list[Hypothesis] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list, description="facts that would decide an inconclusive case")
    clock: list[ClockOffset] = Field(default_factory=list)
    reference_node: str | None = None
    baseline: str | None = None


class RunningVerdict(Verdict):
    """An alert of ``correlator watch``: the verdict so far, while the job still runs."""

    status: Literal["running"] = "running"  # type: ignore[assignment]
    alert: Alert
