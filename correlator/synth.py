"""Deterministic synthetic logs of a crashed multi-rank PyTorch job, of any size.

Line shapes are copied from ``docs/formats`` (NCCL 2.18 INFO/WARN, c10d
``[rankN]:[E501 12:44:12.715298746 ProcessGroupNCCL.cpp:616]`` watchdog lines,
torchrun >= 2.4 glog-like agent lines and ChildFailedError table, CUDA OOM text,
NVRM Xid kernel lines, the nvidia-smi 535 table). The bulk is healthy training
chatter; one failure is planted and described in ``truth.json``.

Job directory layout::

    OUT/launcher.log            torchrun agents of all nodes, pdsh-style "<host>: " prefix
    OUT/<host>/rank<NNN>.log    one file per global rank (stdout + stderr)
    OUT/<host>/dmesg.log        kernel log, raw "[  sec.usec]" or "dmesg -T" form per node
    OUT/<host>/nvidia-smi.txt   one table snapshot taken shortly after the start
    OUT/truth.json              the expected verdict

Scale: a job at 1,024 ranks is the same failure as at 64 (same seed, culprit and
bytes per rank: the same steps), and analyses to the same verdict
(tests/test_scale.py). Every GPU of a node has its own PCI bus (the DGX's eight,
then 32 in 0xe0-0xff, then the rest of the domain, then domains 0001, ...), so a
dense node (synth's default two nodes, 512 GPUs each) never puts two ranks on one.

Time model: every instant is computed in "true" epoch milliseconds; processes on
the skewed node print ``true + skew``. Printed stamps are naive times that equal
UTC. Raw dmesg stamps are seconds since boot and therefore never skewed.

Scenarios (the culprit is never rank 0 unless ``--culprit 0``):

- ``oom-cascade``: the culprit's forward pass raises torch.OutOfMemoryError; its
  node-mates block until torchrun SIGTERMs them; every other rank logs the c10d
  watchdog timeout 600 s later and aborts (exit -6).
- ``nccl-ib-error``: NCCL WARN ``NET/IB : Got completion from peer ... with error 12``
  on the culprit, which aborts; the others raise DistBackendError "remote process
  exited or there was a network error" seconds later.
- ``xid79``: ``NVRM: Xid (PCI:...): 79`` in the culprit node's dmesg; the culprit's
  watchdog sees "CUDA error: unknown error"; other nodes time out 600 s later.
- ``hang``: the culprit goes silent after step N; the others log step N+1 and time
  out on a SeqNum the culprit never enqueued; its own watchdog only reports the
  dump signal, with the lower "Last enqueued NCCL work".
- ``healthy``: every rank finishes and the agents report success.

By default ``--skew`` lands on the culprit's node. A +30 s skew makes the naive
"earliest printed stamp" answer wrong for ``nccl-ib-error`` and ``hang``; in
``oom-cascade`` and ``xid79`` the echoes come a 600 s NCCL timeout later, so only a
larger skew (e.g. ``--skew 15m``) flips that answer. truth.json's notes say whether
the naive answer is wrong.

Run ``python -m correlator.synth --help`` (one job) or
``python -m correlator.synth batch --help`` (many jobs over a shared cluster).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import re
import shutil
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

# Scenario name -> DESIGN.md root-cause category (None: healthy job).
SCENARIOS: dict[str, str | None] = {
    "oom-cascade": "oom",
    "nccl-ib-error": "nccl_network",
    "xid79": "hardware_xid",
    "hang": "nccl_timeout_hang",
    "healthy": None,
}

NCCL_VERSION = "2.18.6"
TIMEOUT_MS = 600_000  # ProcessGroupNCCL default Timeout(ms)
POLL_MS = 5_000  # torchrun --monitor-interval: how late the agent notices a dead child
SEQ0 = 3  # collectives issued before step 1 (barrier, parameter broadcast)
TRAIN_START_MS = 25_000  # from agent start to the first training step
MIN_STEPS = 12
# PCI buses of the eight GPUs of a DGX H100; NCCL prints them as "busId 18000".
BUS_IDS = ("18", "2a", "3a", "5d", "9a", "ab", "ba", "db")
# Buses of local ranks 8..39 (a denser node), then of any beyond, so that no two GPUs
# of a node share one; past a PCI domain's buses the next domain (0001:..) starts.
_DENSE_BUSES = tuple(f"{0xE0 + (i + 8) % 32:02x}" for i in range(32))
_MORE_BUSES = tuple(f"{b:02x}" for b in range(1, 0xE0) if f"{b:02x}" not in BUS_IDS)
SITE = "/usr/local/lib/python3.10/dist-packages"
PY_BIN = "/usr/bin/python3"
CLUSTER_DOMAIN = "cluster.local"

_MS3 = tuple(f"{i:03d}" for i in range(1000))
_SEC2 = tuple(f"{i:02d}" for i in range(60))
_MASK64 = (1 << 64) - 1


# --------------------------------------------------------------------------- parsing


_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?)(b?)\s*$", re.IGNORECASE)
_DUR_RE = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)\s*(ms|s|m|h|)\s*$", re.IGNORECASE)


def parse_size(text: str) -> int:
    """'500MB' -> 500_000_000. Decimal units (KB, MB, GB, TB); KiB/MiB/GiB are binary."""
    m = _SIZE_RE.match(text)
    if not m:
        raise ValueError(f"not a size: {text!r} (try 20MB, 1GB, 512KiB)")
    number, prefix, binary, _ = m.groups()
    power = "kmgt".find(prefix.lower()) + 1 if prefix else 0
    if binary and not prefix:
        raise ValueError(f"not a size: {text!r}")
    base = 1024 if binary else 1000
    return int(float(number) * base**power)


def parse_duration(text: str) -> int:
    """'30s' -> 30000 ms; accepts ms, s, m, h, a sign, and bare seconds."""
    m = _DUR_RE.match(text)
    if not m:
        raise ValueError(f"not a duration: {text!r} (try 30s, 500ms, -2m)")
    number, unit = m.groups()
    scale = {"ms": 1, "s": 1000, "": 1000, "m": 60_000, "h": 3_600_000}[unit.lower()]
    return round(float(number) * scale)


def _mix(*parts: int) -> int:
    """splitmix64 over integers: a cheap deterministic hash (Python's hash() is salted)."""
    x = 0x9E3779B97F4A7C15
    for p in parts:
        x = (x + (p & _MASK64) + 0x9E3779B97F4A7C15) & _MASK64
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
        x ^= x >> 31
    return x


# --------------------------------------------------------------------------- clocks


class Clock:
    """Renders true epoch-ms instants the way one node's processes print them."""

    __slots__ = ("_minute", "_prefix", "boot_ms", "skew_ms")

    def __init__(self, skew_ms: int, boot_ms: int) -> None:
        self.skew_ms = skew_ms
        self.boot_ms = boot_ms
        self._minute = -1
        self._prefix = ""

    def py_printed(self, printed_ms: int) -> str:
        """Python logging asctime for an already-skewed instant (hot path: minute cache)."""
        minute, rest = divmod(printed_ms, 60_000)
        if minute != self._minute:
            self._minute = minute
            self._prefix = time.strftime("%Y-%m-%d %H:%M:", time.gmtime(minute * 60))
        sec, frac = divmod(rest, 1000)
        return self._prefix + _SEC2[sec] + "," + _MS3[frac]

    def py(self, ms: int) -> str:
        return self.py_printed(ms + self.skew_ms)

    def _dt(self, ms: int) -> datetime:
        return datetime.fromtimestamp((ms + self.skew_ms) / 1000, UTC)

    def c10d(self, level: str, ms: int) -> str:
        """c10 MessageLogger stamp: unpadded month*100+day, wall HH:MM:SS, monotonic ns."""
        d = self._dt(ms)
        # The fraction is CLOCK_MONOTONIC nanoseconds, unrelated to the wall second.
        mono_ns = (ms - self.boot_ms) * 1_000_000 + _mix(ms) % 1_000_000
        return f"{level}{d.month * 100 + d.day} {d:%H:%M:%S}.{mono_ns % 1_000_000_000:09d}"

    def glog(self, level: str, ms: int) -> str:
        """torch._logging stamp: MMDD HH:MM:SS.<ms*1000>, so it always ends in 000."""
        d = self._dt(ms)
        return f"{level}{d:%m%d %H:%M:%S}.{(ms + self.skew_ms) % 1000:03d}000"

    def ctime(self, ms: int) -> str:
        d = self._dt(ms)
        return f"{d:%a %b} {d.day:2d} {d:%H:%M:%S %Y}"

    def table_time(self, ms: int) -> str:
        return f"{self._dt(ms):%Y-%m-%d_%H:%M:%S}"


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class Plan:
    """Everything about a job that is decided before any line is rendered."""

    scenario: str
    seed: int
    ranks: int
    hosts: tuple[str, ...]
    skew_ms: int
    skew_node: int | None
    culprit: int | None
    start_ms: int
    step_ms: int
    eval_every: int
    eval_ms: int
    buckets: int
    n_steps: int
    agent_pids: tuple[int, ...]
    agent_phase: tuple[int, ...]
    boot_ms: tuple[int, ...]
    dmesg_ctime: tuple[bool, ...]
    run_id: str

    @property
    def nodes(self) -> int:
        return len(self.hosts)

    @property
    def per_node(self) -> int:
        return self.ranks // self.nodes

    def node_of(self, rank: int) -> int:
        return rank // self.per_node

    def local_of(self, rank: int) -> int:
        return rank % self.per_node

    def node_ranks(self, node: int) -> range:
        return range(node * self.per_node, (node + 1) * self.per_node)

    def pid_of(self, rank: int) -> int:
        return self.agent_pids[self.node_of(rank)] + 77 + self.local_of(rank)

    def skew_of(self, node: int) -> int:
        return self.skew_ms if node == self.skew_node else 0

    def clock(self, node: int) -> Clock:
        return Clock(self.skew_of(node), self.boot_ms[node])

    def step_time(self, k: int) -> int:
        """True instant step k's line is logged (evaluations pause training)."""
        return (
            self.start_ms
            + TRAIN_START_MS
            + k * self.step_ms
            + ((k - 1) // self.eval_every) * self.eval_ms
        )

    def seq(self, step: int, bucket: int) -> int:
        """c10d SeqNum of the bucket-th all-reduce (1-based) of a step."""
        return SEQ0 + (step - 1) * self.buckets + bucket

    def fail_ms(self) -> int:
        """When the planted failure strikes: 40% into step N+1."""
        return self.step_time(self.n_steps + 1) - self.step_ms + (2 * self.step_ms) // 5

    def ip(self, node: int) -> str:
        num = _host_number(self.hosts[node], node)
        return f"10.1.{num // 200}.{10 + num % 200}"

    def pci(self, rank: int) -> tuple[int, str]:
        """(PCI domain, bus) of the rank's GPU: unique on its node however many it has
        (a 1,024-rank job on two nodes must not put sixteen ranks on one GPU)."""
        local = self.local_of(rank)
        if local < len(BUS_IDS):
            return 0, BUS_IDS[local]
        i = local - len(BUS_IDS)
        if i < len(_DENSE_BUSES):
            return 0, _DENSE_BUSES[i]
        domain, j = divmod(i - len(_DENSE_BUSES), len(_MORE_BUSES))
        return domain, _MORE_BUSES[j]

    def bus(self, rank: int) -> str:
        """The GPU's PCI address without function: ``0000:9a`` (Xid, dmesg, nvidia-smi)."""
        domain, bus = self.pci(rank)
        return f"{domain:04x}:{bus}"

    def nccl_bus(self, rank: int) -> str:
        """NCCL's busId: the PCI id with ':' and '.' removed, printed as %lx (``9a000``, ``1e4000``)."""
        domain, bus = self.pci(rank)
        return f"{domain:x}{bus}000" if domain else f"{bus}000"

    def width(self) -> int:
        return max(3, len(str(self.ranks - 1)))

    def rank_path(self, rank: int) -> str:
        return f"{self.hosts[self.node_of(rank)]}/rank{rank:0{self.width()}d}.log"


def _check_shape(scenario: str, ranks: int, nodes: int) -> None:
    if scenario not in SCENARIOS:
        raise ValueError(f"unknown scenario {scenario!r}; one of {', '.join(SCENARIOS)}")
    if nodes < 1 or ranks < 1 or ranks % nodes:
        raise ValueError(f"--ranks ({ranks}) must be a positive multiple of --nodes ({nodes})")
    if scenario != "healthy" and ranks < 2:
        raise ValueError(f"scenario {scenario} needs at least 2 ranks")


def _host_number(host: str, default: int) -> int:
    m = re.search(r"(\d+)$", host)
    return int(m.group(1)) if m else default


def default_hosts(nodes: int) -> tuple[str, ...]:
    return tuple(f"gpu-node-{i:02d}" for i in range(nodes))


def make_plan(
    *,
    scenario: str,
    ranks: int,
    hosts: Sequence[str],
    seed: int,
    skew_ms: int = 0,
    skew_node: int | None = None,
    culprit: int | None = None,
    n_steps: int = 1000,
) -> Plan:
    """Draw every job-level choice from the seed (nothing here depends on the size)."""
    nodes = len(hosts)
    _check_shape(scenario, ranks, nodes)
    rng = random.Random(f"correlator-synth:{seed}:{scenario}")
    # Draw the defaults even when overridden, so an override changes nothing else.
    # Rank 0 is what a naive reader checks first, so by default it never hides the culprit.
    drawn_culprit = rng.randrange(1, ranks) if ranks > 1 else 0
    drawn_skew_node = rng.randrange(nodes)
    if scenario == "healthy":
        culprit = None
    elif culprit is None:
        culprit = drawn_culprit
    elif not 0 <= culprit < ranks:
        raise ValueError(f"culprit rank {culprit} out of range 0..{ranks - 1}")
    if skew_node is None:
        # The skew lands on the culprit's node: that is where it fools "earliest wins".
        skew_node = culprit // (ranks // nodes) if culprit is not None else drawn_skew_node
    elif not 0 <= skew_node < nodes:
        raise ValueError(f"skew node {skew_node} out of range 0..{nodes - 1}")
    day = datetime(2024, 5, 1, tzinfo=UTC).timestamp() * 1000 + rng.randrange(60) * 86_400_000
    start_ms = int(day) + rng.randrange(0, 86_400) * 1000 + rng.randrange(1000)
    return Plan(
        scenario=scenario,
        seed=seed,
        ranks=ranks,
        hosts=tuple(hosts),
        skew_ms=skew_ms,
        skew_node=skew_node if skew_ms else None,
        culprit=culprit,
        start_ms=start_ms,
        step_ms=rng.randrange(650, 1400),
        eval_every=80,
        eval_ms=rng.randrange(8_000, 20_000),
        buckets=rng.choice((4, 5, 6, 8)),
        n_steps=n_steps,
        agent_pids=tuple(rng.randrange(2_000, 60_000) for _ in hosts),
        agent_phase=tuple(rng.randrange(POLL_MS) for _ in hosts),
        boot_ms=tuple(start_ms - rng.randrange(3_600, 40 * 86_400) * 1000 for _ in hosts),
        dmesg_ctime=tuple(rng.random() < 0.5 for _ in hosts),
        run_id=f"{rng.getrandbits(32):08x}",
    )


# --------------------------------------------------------------------------- fates


@dataclass(frozen=True)
class Fate:
    """What happens to one rank at the end of the job."""

    kind: str  # finish | oom | ib | xid | hang | timeout | remote | blocked
    last_step: int
    event_ms: int  # its own failure (or completion) lines start here
    death_ms: int | None  # exits by itself (None: runs until killed)
    exitcode: int | None
    ran_for_ms: int = 0  # watchdog "ran for" figure (timeout kind)
    end_ms: int | None = None  # last instant it prints: its death or the agent's SIGTERM


@dataclass(frozen=True)
class AgentReport:
    """How one node's torchrun agent reacts to its first dead child."""

    node: int
    poll_ms: int
    failed: tuple[int, ...]  # global ranks dead at the poll, lowest local rank first
    killed: tuple[int, ...]  # global ranks still alive, sent SIGTERM
    succeeded: bool = False


def _timeout_fate(plan: Plan, last_step: int, rng: random.Random) -> Fate:
    """A rank stuck in the first all-reduce after last_step: the watchdog fires, it aborts."""
    enqueue = plan.step_time(last_step + 1) - plan.step_ms + plan.step_ms // 4 + rng.randrange(60)
    ran_for = TIMEOUT_MS + 20 + rng.randrange(90)
    fire = enqueue + ran_for
    return Fate("timeout", last_step, fire, fire + 900 + rng.randrange(6_000), -6, ran_for)


def _fates_healthy(plan: Plan, rng: random.Random) -> list[Fate]:
    fates = []
    for _ in range(plan.ranks):
        end = plan.step_time(plan.n_steps) + 2_000 + rng.randrange(400)
        fates.append(Fate("finish", plan.n_steps, end, end + 3_000 + rng.randrange(500), 0))
    return fates


def _fates_cascade(plan: Plan, culprit: int, rng: random.Random) -> list[Fate]:
    """The culprit dies; its node-mates block until SIGTERM; every other rank times out."""
    n, fail = plan.n_steps, plan.fail_ms()
    home = plan.node_of(culprit)
    fates = [
        Fate("blocked", n, fail, None, None)
        if plan.node_of(r) == home
        else _timeout_fate(plan, n, rng)
        for r in range(plan.ranks)
    ]
    if plan.scenario == "oom-cascade":
        fates[culprit] = Fate("oom", n, fail, fail + 1_800, 1)
    else:  # xid79: the CUDA error surfaces a few seconds after the GPU falls off the bus
        ev = fail + 2_000 + rng.randrange(2_000)
        fates[culprit] = Fate("xid", n, ev, ev + 1_200, -6)
    return fates


def _fates_ib(plan: Plan, culprit: int, rng: random.Random) -> list[Fate]:
    """The culprit's IB completion error aborts it; peers then lose their sockets to it."""
    n, fail = plan.n_steps, plan.fail_ms()
    fates = []
    for _ in range(plan.ranks):
        ev = fail + 1_700 + rng.randrange(2_500)
        fates.append(Fate("remote", n, ev, ev + 600, 1))
    fates[culprit] = Fate("ib", n, fail, fail + 1_500, -6)
    return fates


def _fates_hang(plan: Plan, culprit: int, rng: random.Random) -> list[Fate]:
    """The culprit goes silent after step N; the others log N+1, then time out in N+2."""
    fates = [_timeout_fate(plan, plan.n_steps + 1, rng) for _ in range(plan.ranks)]
    first = min(f.event_ms for r, f in enumerate(fates) if r != culprit)
    # Its watchdog thread still runs: it sees the others' dump signal via the TCPStore.
    fates[culprit] = Fate("hang", plan.n_steps, first + 35, None, None)
    return fates


def _raw_fates(plan: Plan) -> list[Fate]:
    """Per-rank fates before the agents' SIGTERMs cut anyone short."""
    rng = random.Random(f"correlator-synth:{plan.seed}:fates")
    c = plan.culprit
    if c is None:
        return _fates_healthy(plan, rng)
    if plan.scenario == "nccl-ib-error":
        return _fates_ib(plan, c, rng)
    if plan.scenario == "hang":
        return _fates_hang(plan, c, rng)
    return _fates_cascade(plan, c, rng)


def _agent_report(plan: Plan, node: int, fates: Sequence[Fate]) -> AgentReport | None:
    members = plan.node_ranks(node)
    deaths = [fates[r].death_ms for r in members if fates[r].death_ms is not None]
    if not deaths:
        return None
    if all(fates[r].exitcode == 0 for r in members):
        return AgentReport(node, max(d for d in deaths if d is not None) + 1_000, (), (), True)
    bad = [fates[r].death_ms for r in members if fates[r].exitcode not in (None, 0)]
    first = min(d for d in bad if d is not None)
    # The agent polls on a fixed cadence, so it notices the death up to POLL_MS late.
    poll = first + (plan.agent_phase[node] - first) % POLL_MS
    failed = tuple(
        r
        for r in members
        if fates[r].death_ms is not None and fates[r].death_ms <= poll and fates[r].exitcode
    )
    killed = tuple(r for r in members if r not in failed)
    return AgentReport(node, poll, failed, killed)


def plan_fates(plan: Plan) -> tuple[list[Fate], list[AgentReport | None]]:
    """Fates with end_ms set, and each node's agent report."""
    fates = _raw_fates(plan)
    reports = [_agent_report(plan, node, fates) for node in range(plan.nodes)]
    final: list[Fate] = []
    for r, f in enumerate(fates):
        rep = reports[plan.node_of(r)]
        end = f.death_ms
        if rep is not None and r in rep.killed:
            end = rep.poll_ms + 2 if end is None else min(end, rep.poll_ms + 2)
        final.append(replace(f, end_ms=end))
    return final, reports


# --------------------------------------------------------------------------- rank files


_OOM_TAIL = (
    "If reserved but unallocated memory is large try setting "
    "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  "
    "See documentation for Memory Management  "
    "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"
)
_DUMP_HINT = (
    "This is most likely caused by incorrect usages of collectives, e.g., wrong sizes used "
    "across ranks, the order of collectives is not same for all ranks or the scheduled "
    "collective, for some reason, didn't run. Additionally, this can be caused by GIL "
    "deadlock or other reasons such as network errors or bugs in the communications "
    "library (e.g. NCCL), etc. "
)
_USER_WARNING = (
    f"{SITE}/torch/utils/checkpoint.py:464: UserWarning: torch.utils.checkpoint: the "
    "use_reentrant parameter should be passed explicitly. In version 2.4 we will raise an "
    "exception if use_reentrant is not passed. use_reentrant=False is recommended, but if "
    "you need to preserve the current default behavior, you can pass use_reentrant=True. "
    "Refer to docs for more details on the differences between the two variants.\n"
    "  warnings.warn(\n"
)
_TRAIN_FRAMES = (
    ("/workspace/train.py", 412, "<module>", "main()"),
    ("/workspace/train.py", 398, "main", "loss = train_step(model, batch, optimizer)"),
)
_FORWARD_FRAMES = (
    ("/workspace/train.py", 287, "train_step", "outputs = model(**batch)"),
    (f"{SITE}/torch/nn/modules/module.py", 1736, "_wrapped_call_impl",
     "return self._call_impl(*args, **kwargs)"),
    (f"{SITE}/torch/nn/modules/module.py", 1747, "_call_impl",
     "return forward_call(*args, **kwargs)"),
    (f"{SITE}/torch/nn/parallel/distributed.py", 1643, "forward",
     "else self._run_ddp_forward(*inputs, **kwargs)"),
    (f"{SITE}/torch/nn/parallel/distributed.py", 1459, "_run_ddp_forward",
     "return self.module(*inputs, **kwargs)  # type: ignore[index]"),
    ("/workspace/model.py", 142, "forward", "attn = torch.softmax(scores.float(), dim=-1)"),
)  # fmt: skip
_ALLREDUCE_FRAMES = (
    ("/workspace/train.py", 301, "train_step", "dist.all_reduce(loss_sum, op=dist.ReduceOp.SUM)"),
    (f"{SITE}/torch/distributed/c10d_logger.py", 83, "wrapper", "return func(*args, **kwargs)"),
    (f"{SITE}/torch/distributed/distributed_c10d.py", 2501, "all_reduce", "work.wait()"),
)  # fmt: skip
_LIBC10 = f"{SITE}/torch/lib/libc10.so"
_LIBTORCH_CUDA = f"{SITE}/torch/lib/libtorch_cuda.so"
_ERROR_CTOR = (
    "c10::Error::Error(c10::SourceLocation, std::__cxx11::basic_string<char, "
    "std::char_traits<char>, std::allocator<char> >) + 0x98 (0x7f92e62535e8 in "
    f"{_LIBC10})"
)
_THREAD_FRAMES = (
    "<unknown function> + 0xd8198 (0x7f92d7559198 in /lib/x86_64-linux-gnu/libstdc++.so.6)",
    "<unknown function> + 0x94ac3 (0x7f933d494ac3 in /lib/x86_64-linux-gnu/libc.so.6)",
    "<unknown function> + 0x126850 (0x7f933d526850 in /lib/x86_64-linux-gnu/libc.so.6)",
)
# C++ frames between the throw and the watchdog thread, by where the error was raised.
_RAISE_FRAMES = {
    "timeout": (
        "c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, "
        f"std::ratio<1l, 1000l> > >) + 0x23d (0x7f92e756ea6d in {_LIBTORCH_CUDA})",
    ),
    "nccl": (
        "c10d::ProcessGroupNCCL::checkForNCCLErrorsInternal(std::shared_ptr<c10d::NCCLComm>&) "
        f"+ 0x1b9 (0x7f92e7569a29 in {_LIBTORCH_CUDA})",
        "c10d::ProcessGroupNCCL::WorkNCCL::checkAndSetException() + 0x80 (0x7f92e7569c80 in "
        f"{_LIBTORCH_CUDA})",
    ),
    "cuda": (
        "c10::cuda::c10_cuda_check_implementation(int, char const*, char const*, int, bool) + 0x43 "
        f"(0x7f92e5f3a443 in {SITE}/torch/lib/libc10_cuda.so)",
        "c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x50 "
        f"(0x7f92e7566b20 in {_LIBTORCH_CUDA})",
        f"c10d::ProcessGroupNCCL::WorkNCCL::isCompleted() + 0x58 (0x7f92e756d0d8 in {_LIBTORCH_CUDA})",
    ),
}
_WATCHDOG_FRAMES = (
    f"c10d::ProcessGroupNCCL::watchdogHandler() + 0xc80 (0x7f92e75707f0 in {_LIBTORCH_CUDA})",
    f"c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d (0x7f92e7571efd in {_LIBTORCH_CUDA})",
)


def _frames(prefix: str, frames: Iterable[tuple[str, int, str, str]]) -> list[str]:
    out: list[str] = []
    for path, line, func, code in frames:
        out.append(f'{prefix}  File "{path}", line {line}, in {func}\n')
        out.append(f"{prefix}    {code}\n")
    return out


def _cpp_frames(origin: str) -> str:
    frames = (_ERROR_CTOR, *_RAISE_FRAMES[origin], *_WATCHDOG_FRAMES, *_THREAD_FRAMES)
    return "".join(f"frame #{i}: {f}\n" for i, f in enumerate(frames))


def _tqdm(desc: str, total: int, rate: float) -> str:
    """One physical line of a tqdm bar as a file sees it: '\\r'-separated redraws."""
    parts = []
    for n in range(total + 1):
        frac = n / total
        full, part = divmod(int(frac * 10 * 8), 8)
        bar = "█" * full + (" ▏▎▍▌▋▊▉"[part] if full < 10 else "")
        bar = bar.ljust(10)
        el = n / rate
        if n == 0:
            stats = "[00:00<?, ?it/s]"
        else:
            rem = (total - n) / rate
            stats = f"[{int(el) // 60:02d}:{int(el) % 60:02d}<{int(rem) // 60:02d}:{int(rem) % 60:02d}, {rate:5.2f}it/s]"
        parts.append(f"{desc}: {frac * 100:3.0f}%|{bar}| {n}/{total} {stats}")
    return "\r" + "\r".join(parts)


class RankLog:
    """Renders one rank's file: header, healthy body (in segments), planted tail.

    The truth builder renders tails without the body, so tails must never draw from
    self.rng (the body's tables consume it); they use _mix or their own Random.
    """

    def __init__(self, plan: Plan, rank: int, fates: Sequence[Fate]) -> None:
        self.plan = plan
        self.rank = rank
        self.fates = fates
        self.fate = fates[rank]
        self.node = plan.node_of(rank)
        self.local = plan.local_of(rank)
        self.host = plan.hosts[self.node]
        self.pid = plan.pid_of(rank)
        self.clock = plan.clock(self.node)
        self.rng = random.Random(f"correlator-synth:{plan.seed}:rank:{rank}")
        self.offset_ms = self.rng.randrange(25)
        self.init_tid = self.pid + 61 + self.rng.randrange(40)
        self.nccl_main = f"{self.host}:{self.pid}:{self.pid} [{self.local}] NCCL INFO "
        self.nccl_init = f"{self.host}:{self.pid}:{self.init_tid} [{self.local}] NCCL INFO "
        self.c10d_prefix = f"[rank{rank}]:["
        self._tables_ready = False

    # -- small helpers -------------------------------------------------------------

    def c10d(self, level: str, ms: int, where: str, msg: str) -> str:
        return f"{self.c10d_prefix}{self.clock.c10d(level, ms)} {where}] {msg}\n"

    def pg(self) -> str:
        return f"[PG ID 0 PG GUID 0(default_pg) Rank {self.rank}]"

    def log(self, ms: int, level: str, msg: str) -> str:
        return f"{self.clock.py(ms)} - {level} - __main__ - {msg}\n"

    def comm_line(self, comm: int, rank: int, nranks: int, comm_id: int, what: str) -> str:
        return (
            f"comm 0x{comm:x} rank {rank} nranks {nranks} cudaDev {self.local} "
            f"nvmlDev {self.local} busId {self.plan.nccl_bus(self.rank)} "
            f"commId 0x{comm_id:016x} - {what}\n"
        )

    def world_comm(self) -> int:
        return 0x550000000000 | (_mix(self.plan.seed, self.rank, 1) & 0xFFFFFFFFFF)

    def world_comm_id(self) -> int:
        return _mix(self.plan.seed, 77) | (1 << 60)

    def ring_lines(self, prefix: str, members: Sequence[int], channels: int) -> list[str]:
        """NCCL 'Channel cc/0 : a[da] -> b[db] via ...' lines for this rank's ring hops."""
        plan, r = self.plan, self.rank
        idx = members.index(r)
        nxt, prv = members[(idx + 1) % len(members)], members[idx - 1]
        out = []
        for ch in range(channels):
            here = f"{r}[{plan.local_of(r)}]"
            if plan.node_of(nxt) == self.node:
                out.append(
                    f"{prefix}Channel {ch:02d}/0 : {here} -> {nxt}[{plan.local_of(nxt)}] via P2P/IPC/read\n"
                )
            else:
                out.append(
                    f"{prefix}Channel {ch:02d}/0 : {here} -> {nxt}[{plan.local_of(nxt)}] [send] via NET/IB/{ch % 4}/GDRDMA\n"
                )
            if plan.node_of(prv) != self.node:
                out.append(
                    f"{prefix}Channel {ch:02d}/0 : {prv}[{plan.local_of(prv)}] -> {here} [receive] via NET/IB/{ch % 4}/GDRDMA\n"
                )
        return out

    # -- header --------------------------------------------------------------------

    def header(self) -> str:
        plan, r, p = self.plan, self.rank, self.nccl_init
        t = plan.start_ms + 2_500 + 40 * self.local + self.offset_ms
        m = self.nccl_main
        out = [
            self.log(
                t,
                "INFO",
                f"Initializing process group: backend=nccl world_size={plan.ranks} "
                f"rank={r} local_rank={self.local} master_addr={plan.hosts[0]} master_port=29500",
            ),
            self.c10d(
                "W",
                t + 300,
                "Utils.hpp:164",
                "Warning: Environment variable "
                "NCCL_ASYNC_ERROR_HANDLING is deprecated; use TORCH_NCCL_ASYNC_ERROR_HANDLING "
                "instead (function operator())",
            ),
            f"{m}Bootstrap : Using eth0:{plan.ip(self.node)}<0>\n",
            f"{m}NET/Plugin : No plugin found (libnccl-net.so), using internal implementation\n",
            f"{m}cudaDriverVersion 12020\n",
        ]
        if r == 0:
            out.append(f"NCCL version {NCCL_VERSION}+cuda12.1\n")
        comm, cid = self.world_comm(), self.world_comm_id()
        out += [
            f"{p}NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB ; "
            f"OOB eth0:{plan.ip(self.node)}<0>\n",
            f"{p}Using network IB\n",
            p + self.comm_line(comm, r, plan.ranks, cid, "Init START"),
            f"{p}Setting affinity for GPU {self.local} to ffffffff,ffff0000,00000000,ffffffff,ffff0000,00000000\n",
            f"{p}Trees [0] {self._tree()} [1] {self._tree()}\n",
            f"{p}P2P Chunksize set to 131072\n",
            *self.ring_lines(p, range(plan.ranks), 8),
            f"{p}Connected all rings\n",
            f"{p}Connected all trees\n",
            f"{p}threadThresholds 8/8/64 | {8 * plan.ranks}/8/64 | 512 | 512\n",
            f"{p}8 coll channels, 0 nvls channels, 8 p2p channels, 1 p2p channels per peer\n",
            p + self.comm_line(comm, r, plan.ranks, cid, "Init COMPLETE"),
            self.log(
                t + 9_000,
                "INFO",
                "model: 1.31B parameters, dtype=bfloat16, "
                f"DDP buckets={plan.buckets}, micro_batch=8, grad_accum=1",
            ),
            _USER_WARNING,
            self.log(
                t + 9_400,
                "INFO",
                f"***** Running training ***** run_id={plan.run_id} "
                f"max_steps={plan.n_steps + 5000} eval_every={plan.eval_every}",
            ),
        ]
        return "".join(out)

    def _tree(self) -> str:
        r, n = self.rank, self.plan.ranks
        up = r - 1 if r else -1
        down = r + 1 if r + 1 < n else -1
        return f"{down}/-1/-1->{r}->{up}"

    # -- body ----------------------------------------------------------------------

    def _prepare_tables(self) -> None:
        """Pre-render the few strings every step line is built from (no random per line)."""
        rng = self.rng
        mem = 58 + rng.random() * 12
        self.jit = tuple(rng.randrange(40) for _ in range(97))
        self.tail_a = tuple(f" loss {2.1 + rng.gauss(0, 0.08):.4f} lr " for _ in range(127))
        self.tail_b = tuple(
            f" grad_norm {abs(rng.gauss(0.9, 0.25)):.3f} tokens/s {rng.randrange(46_000, 53_000)} "
            f"mem {mem + rng.random():.1f}GB\n"
            for _ in range(113)
        )
        self.info_tail = tuple(
            f" data_wait {rng.random() * 0.05:.3f}s step_time {self.plan.step_ms / 1000 + rng.gauss(0, 0.02):.3f}s\n"
            for _ in range(31)
        )
        self.bars = tuple(
            tuple(
                _tqdm(f"Evaluating [{name}]", total, rate * (0.9 + rng.random() * 0.2))
                for name, total, rate in (
                    ("wikitext", 8, 3.4),
                    ("c4-val", 8, 3.1),
                    ("lambada", 6, 3.8),
                )
            )
            for _ in range(3)
        )
        self.eval_channels = self.ring_lines(self.nccl_init, self.plan.node_ranks(self.node), 8)
        self._tables_ready = True

    def _lr(self, step: int) -> str:
        total = self.plan.n_steps + 5000
        return f"{3e-4 * 0.5 * (1 + math.cos(math.pi * step / total)) + 3e-5:.3e}"

    def segment(self, a: int, b: int) -> str:
        """Steps a..b (inclusive, inside one evaluation cycle) as text."""
        if not self._tables_ready:
            self._prepare_tables()
        plan = self.plan
        base = plan.step_time(a) - a * plan.step_ms + self.offset_ms + self.clock.skew_ms
        dt, jit, nj = plan.step_ms, self.jit, len(self.jit)
        ta, tb, na, nb = self.tail_a, self.tail_b, len(self.tail_a), len(self.tail_b)
        stamp, lr = self.clock.py_printed, self._lr(a)
        mid = " - INFO - __main__ - step "
        out = [
            stamp(base + k * dt + jit[k % nj]) + mid + str(k) + ta[k % na] + lr + tb[k % nb]
            for k in range(a, b + 1)
        ]
        for k in range(a + (-a) % 25, b + 1, 25):
            ts = stamp(base + k * dt + jit[k % nj] + 3)
            pct = 100 * k / (plan.n_steps + 5000)
            out[k - a] += (
                f"{ts} - INFO - __main__ - epoch 0 progress {pct:.2f}% samples_seen {k * 8 * plan.ranks}"
                + self.info_tail[k % 31]
            )
        warn_off = self.rank * 53
        for k in range(a + (-(a + warn_off)) % 397, b + 1, 397):
            ts = stamp(base + k * dt + jit[k % nj] + 5)
            out[k - a] += (
                f"{ts} - WARNING - __main__ - slow data loading at step {k}: waited 2.41s for a batch (prefetch queue empty)\n"
            )
        tb_step = self._benign_traceback_step()
        if tb_step is not None and a <= tb_step <= b:
            ts_ms = base + tb_step * dt + jit[tb_step % nj] + 11
            out[tb_step - a] += self._benign_traceback(ts_ms)
        return "".join(out)

    def _benign_traceback_step(self) -> int | None:
        """A few ranks log a retried I/O error: a traceback that does not matter."""
        if _mix(self.plan.seed, self.rank, 5) % max(4, self.plan.ranks // 2) != 0:
            return None
        return 3 + _mix(self.plan.seed, self.rank, 6) % max(1, self.plan.n_steps // 2)

    def _benign_traceback(self, printed_ms: int) -> str:
        shard = _mix(self.plan.seed, self.rank, 7) % 1024
        return "".join(
            [
                f"{self.clock.py_printed(printed_ms)} - WARNING - __main__ - failed to read shard "
                f"/data/shards/train-{shard:05d}.arrow (attempt 1/3), retrying\n",
                "Traceback (most recent call last):\n",
                '  File "/workspace/data.py", line 121, in _read_shard\n',
                "    return pa.ipc.open_file(f).read_all()\n",
                '  File "pyarrow/ipc.pxi", line 1080, in pyarrow.lib._RecordBatchFileReader._open\n',
                '  File "pyarrow/error.pxi", line 91, in pyarrow.lib.check_status\n',
                "OSError: [Errno 5] Input/output error\n",
            ]
        )

    def eval_block(self, k: int) -> str:
        """Evaluation after step k: a node-local NCCL communicator, tqdm bars, metrics."""
        plan, e = self.plan, k // self.plan.eval_every
        t0 = plan.step_time(k) + 150 + self.offset_ms
        p = self.nccl_init
        comm = 0x7F0000000000 | (_mix(plan.seed, self.rank, e, 4) & 0xFFFFFFFFF0)
        cid = _mix(plan.seed, self.node, e, 2)
        n = plan.per_node
        bars = self.bars[e % len(self.bars)]
        result = self.log(
            t0 + plan.eval_ms - 400,
            "INFO",
            f"eval at step {k}: loss {2.0 + (_mix(e) % 400) / 1000:.4f}",
        )
        glue = _mix(plan.seed, self.rank, e, 3) % 8 == 0  # a log line lands right after a bar
        out = [
            self.log(t0, "INFO", f"***** Running evaluation at step {k} *****"),
            f"{p}Using network IB\n",
            p + self.comm_line(comm, self.local, n, cid, "Init START"),
            f"{p}Setting affinity for GPU {self.local} to ffffffff,ffff0000,00000000,ffffffff,ffff0000,00000000\n",
            f"{p}P2P Chunksize set to 524288\n",
            *self.eval_channels,
            f"{p}Connected all rings\n",
            f"{p}Connected all trees\n",
            f"{p}threadThresholds 8/8/64 | {8 * n}/8/64 | 512 | 512\n",
            p + self.comm_line(comm, self.local, n, cid, "Init COMPLETE"),
            bars[0] + "\n",
            bars[1] + "\n",
            bars[2] + ("" if glue else "\n"),
            result,
            "***** eval metrics *****\n",
            f"  epoch                   = {k / (plan.n_steps + 5000):8.4f}\n",
            f"  eval_runtime            = 0:00:{plan.eval_ms // 1000:02d}.{plan.eval_ms % 1000:03d}\n",
            f"  eval_samples_per_second = {8 * 22 * 1000 / plan.eval_ms:8.3f}\n",
            f"  eval_steps_per_second   = {22 * 1000 / plan.eval_ms:8.3f}\n",
            f"{self.nccl_main}comm 0x{comm:x} rank {self.local} nranks {n} cudaDev {self.local} "
            f"busId {plan.nccl_bus(self.rank)} - Destroy COMPLETE\n",
        ]
        return "".join(out)

    def body_chunks(self) -> Iterable[str]:
        """The healthy body, one evaluation cycle at a time (bounded memory)."""
        last, every = self.fate.last_step, self.plan.eval_every
        a = 1
        while a <= last:
            b = min(last, ((a - 1) // every + 1) * every)
            yield self.segment(a, b)
            if b % every == 0 and b < last:
                yield self.eval_block(b)
            a = b + 1

    # -- tails ---------------------------------------------------------------------

    def tail(self) -> str:
        """The rank's last lines, cut at the instant it died or was SIGTERMed."""
        events = sorted(getattr(self, f"_tail_{self.fate.kind}")(), key=lambda e: e[0])
        end = self.fate.end_ms
        return "".join(text for ms, text in events if end is None or ms <= end)

    def _tail_blocked(self) -> list[tuple[int, str]]:
        return []

    def _tail_finish(self) -> list[tuple[int, str]]:
        t = self.fate.event_ms
        out = [(t, self.log(t, "INFO", f"Training completed: {self.fate.last_step} steps"))]
        if self.rank == 0:
            out.append(
                (
                    t + 5,
                    self.log(
                        t + 5,
                        "INFO",
                        f"Saving final checkpoint to /checkpoints/run-{self.plan.run_id}/final",
                    ),
                )
            )
        comm = self.world_comm()
        out.append(
            (
                t + 1_500,
                f"{self.nccl_main}comm 0x{comm:x} rank {self.rank} nranks {self.plan.ranks} "
                f"cudaDev {self.local} busId {self.plan.nccl_bus(self.rank)} - Destroy COMPLETE\n",
            )
        )
        out.append((t + 1_600, self.log(t + 1_600, "INFO", "done")))
        return out

    def _excepthook(self, frames: Sequence[tuple[str, int, str, str]], error: Sequence[str]) -> str:
        """An uncaught exception as torch's excepthook prints it: every line '[rankN]: '."""
        pre = f"[rank{self.rank}]: "
        lines = [f"{pre}Traceback (most recent call last):\n", *_frames(pre, frames)]
        lines += [f"{pre}{e}\n" for e in error]
        return "".join(lines)

    def _destroy_warning(self, ms: int) -> str:
        return self.c10d(
            "W",
            ms,
            "ProcessGroupNCCL.cpp:1250",
            "Warning: WARNING: destroy_process_group() "
            "was not called before program exit, which can leak resources. For more info, "
            "please see https://pytorch.org/docs/stable/distributed.html#shutdown "
            "(function operator())",
        )

    def _tail_oom(self) -> list[tuple[int, str]]:
        t, rng = self.fate.event_ms, random.Random(f"{self.plan.seed}:oom")
        want = rng.choice((2.0, 4.0, 8.0, 1.5))
        free = 0.4 + rng.random() * 1.5
        used = 79.1 - free
        alloc = used - 3.2 - rng.random()
        msg = (
            f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {want:.2f} GiB. "
            f"GPU {self.local} has a total capacity of 79.10 GiB of which {free:.2f} GiB is free. "
            f"Process {self.pid} has {used:.2f} GiB memory in use. Of the allocated memory "
            f"{alloc:.2f} GiB is allocated by PyTorch, and {used - alloc - 0.5:.2f} GiB is reserved "
            f"by PyTorch but unallocated. {_OOM_TAIL}"
        )
        return [
            (t, self._excepthook(_TRAIN_FRAMES + _FORWARD_FRAMES, [msg])),
            (t + 900, self._destroy_warning(t + 900)),
        ]

    def _peer_ip(self) -> tuple[str, int]:
        nxt = (self.rank + self.plan.per_node) % self.plan.ranks
        node = self.plan.node_of(nxt)
        return self.plan.ip(node), 40_000 + _mix(self.plan.seed, 9) % 20_000

    def _ib_warn_text(self) -> str:
        ip, port = self._peer_ip()
        mine = self.plan.ip(self.node)
        return (
            f"NET/IB : Got completion from peer {ip}<{port}> with error 12, opcode 0, len 0, "
            f"vendor err 129 (Recv) localGid ::ffff:{mine} remoteGids::ffff:{ip}"
        )

    def _watchdog_fatal(self, ms: int, what: str, raised_at: str, origin: str) -> str:
        """'watchdog thread terminated' + C++ frames + terminate/what() block."""
        pg = self.pg()
        return "".join(
            [
                self.c10d(
                    "E",
                    ms,
                    "ProcessGroupNCCL.cpp:1595",
                    f"{pg} Process group watchdog thread terminated with exception: {what}",
                ),
                f"Exception raised from {raised_at} (most recent call first):\n",
                _cpp_frames(origin),
                "\n",
                "terminate called after throwing an instance of 'c10::DistBackendError'\n",
                f"  what():  {pg} Process group watchdog thread terminated with exception: {what}\n",
                f"Exception raised from {raised_at} (most recent call first):\n",
                _cpp_frames(origin),
                "\n",
            ]
        )

    def _errors(self, items: Iterable[tuple[int, str, str]]) -> list[tuple[int, str]]:
        """(ms, 'File.cpp:line', message) -> timed c10d ERROR lines."""
        return [(ms, self.c10d("E", ms, where, msg)) for ms, where, msg in items]

    def _abort_notice(self, ms: int) -> list[tuple[int, str]]:
        r = self.rank
        return self._errors([
            (ms, "ProcessGroupNCCL.cpp:630", f"[Rank {r}] Some NCCL operations have failed or timed "
             "out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might "
             "run on corrupted/incomplete data."),
            (ms + 1, "ProcessGroupNCCL.cpp:636", f"[Rank {r}] To avoid data inconsistency, we are "
             "taking the entire process down."),
        ])  # fmt: skip

    def _tail_ib(self) -> list[tuple[int, str]]:
        plan, t = self.plan, self.fate.event_ms
        pre = f"{self.host}:{self.pid}:{self.init_tid + 7} [{self.local}] "  # proxy thread
        seq = plan.seq(plan.n_steps + 1, 2)
        enq = plan.seq(plan.n_steps + 1, plan.buckets)
        warn = (
            f"\n{pre}transport/net_ib.cc:1295 NCCL WARN {self._ib_warn_text()}\n"
            f"{pre}NCCL INFO transport/net.cc:1134 -> 6\n"
            f"{pre}NCCL INFO proxy.cc:700 -> 6\n"
            f"{pre}NCCL INFO proxy.cc:880 -> 6 [Progress Thread]\n"
        )
        what = (
            "NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL "
            f"version {NCCL_VERSION}\nncclSystemError: System call (e.g. socket, malloc) or external "
            f"library call failed or device error. \nLast error:\n{self._ib_warn_text()}"
        )
        detected = (
            f"{self.pg()} Exception (either an error or timeout) detected by watchdog at work: "
            f"{seq}, last enqueued NCCL work: {enq}, last completed NCCL work: {seq - 1}."
        )
        raised = (
            "checkForNCCLErrorsInternal at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2027"
        )
        return [
            (t, warn),
            *self._errors([(t + 400, "ProcessGroupNCCL.cpp:1785", detected)]),
            *self._abort_notice(t + 401),
            (t + 405, self._watchdog_fatal(t + 405, what, raised, "nccl")),
        ]

    def _tail_remote(self) -> list[tuple[int, str]]:
        c = self.plan.culprit or 0
        ip = self.plan.ip(self.plan.node_of(c))
        port = 33_000 + _mix(self.plan.seed, c) % 2_000
        t = self.fate.event_ms
        err = [
            "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, "
            f"remote process exited or there was a network error, NCCL version {NCCL_VERSION}",
            "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
            "Last error:",
            f"socketProgressOpt: Call to recv from {ip}<{port}> failed : Connection reset by peer",
        ]
        return [
            (t, self._excepthook(_TRAIN_FRAMES + _ALLREDUCE_FRAMES, err)),
            (t + 500, self._destroy_warning(t + 500)),
        ]

    def _tail_xid(self) -> list[tuple[int, str]]:
        t = self.fate.event_ms
        what = (
            "CUDA error: unknown error\nCUDA kernel errors might be asynchronously reported at some "
            "other API call, so the stacktrace below might be incorrect.\nFor debugging consider "
            "passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side "
            "assertions.\n"
        )
        return [
            (
                t,
                self._watchdog_fatal(
                    t,
                    what,
                    "c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43",
                    "cuda",
                ),
            )
        ]

    def _tail_hang(self) -> list[tuple[int, str]]:
        plan, t, pg = self.plan, self.fate.event_ms, self.pg()
        first = min((f.event_ms, r) for r, f in enumerate(self.fates) if f.kind == "timeout")[1]
        last = plan.seq(self.fate.last_step + 1, plan.buckets)
        return self._errors([
            (t, "ProcessGroupNCCL.cpp:1922",
             f"{pg} Observed flight recorder dump signal from another rank via TCPStore."),
            # "from  rank" has two spaces in real logs (the message joins "from " and " rank N")
            (t + 1, "ProcessGroupNCCL.cpp:1746",
             f"{pg} Received a dump signal due to a collective timeout from  rank {first} and we "
             f"will try our best to dump the debug info. Last enqueued NCCL work: {last}, last "
             f"completed NCCL work: {last}.{_DUMP_HINT}"),
            (t + 2, "ProcessGroupNCCL.cpp:1536",
             f"{pg} ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1"),
        ])  # fmt: skip

    def _tail_timeout(self) -> list[tuple[int, str]]:
        plan, f, pg = self.plan, self.fate, self.pg()
        step = f.last_step + 1  # the step whose all-reduces never complete
        seq, enq = plan.seq(step, 1), plan.seq(step, plan.buckets)
        status = f"last enqueued NCCL work: {enq}, last completed NCCL work: {seq - 1}"
        numel = 25_165_824 + (_mix(plan.seed, 11) % 4_000_000)
        caught = (
            f"[Rank {self.rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, "
            f"OpType=ALLREDUCE, NumelIn={numel}, NumelOut={numel}, Timeout(ms)={TIMEOUT_MS}) ran "
            f"for {f.ran_for_ms} milliseconds before timing out."
        )
        # The abort notices come just before death, after the dump-signal line.
        t = f.event_ms
        down = max(t + 400, (f.death_ms or t) - 700)
        raised = "checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:618"
        return [
            *self._errors([
                (t, "ProcessGroupNCCL.cpp:616", caught),
                (t + 1, "ProcessGroupNCCL.cpp:1785", f"{pg} Exception (either an error or timeout) "
                 f"detected by watchdog at work: {seq}, {status}."),
                (t + 2, "ProcessGroupNCCL.cpp:670", "Stack trace of the failed collective not "
                 "found, potentially because FlightRecorder is disabled. You can enable it by "
                 "setting TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value."),
                (t + 320, "ProcessGroupNCCL.cpp:1746", f"{pg} Received a dump signal due to a "
                 "collective timeout from this local rank and we will try our best to dump the "
                 f"debug info. {status[0].upper()}{status[1:]}.{_DUMP_HINT}"),
                (down, "ProcessGroupNCCL.cpp:1834", f"{pg} Timeout at NCCL work: {seq}, {status}."),
            ]),
            *self._abort_notice(down + 1),
            (down + 3, self._watchdog_fatal(down + 3, caught, raised, "timeout")),
        ]  # fmt: skip

    def text_parts(self) -> Iterable[str]:
        yield self.header()
        yield from self.body_chunks()
        yield self.tail()


def write_rank(out_dir: Path, plan: Plan, fates: Sequence[Fate], rank: int) -> int:
    """Stream one rank file to disk in ~1 MB writes; returns its size in bytes."""
    path = out_dir / plan.rank_path(rank)
    size = 0
    pending: list[str] = []
    pending_chars = 0
    with path.open("wb", buffering=0) as fh:
        for part in RankLog(plan, rank, fates).text_parts():
            pending.append(part)
            pending_chars += len(part)
            if pending_chars >= 1 << 20:
                size += fh.write("".join(pending).encode())
                pending, pending_chars = [], 0
        size += fh.write("".join(pending).encode())
    return size


# --------------------------------------------------------------------------- node files


def _dmesg_line(plan: Plan, node: int, ms: int, text: str) -> str:
    clock = plan.clock(node)
    if plan.dmesg_ctime[node]:
        stamp = f"[{clock.ctime(ms)}]"
    else:
        up = ms - plan.boot_ms[node]
        stamp = f"[{up // 1000:5d}.{(up % 1000) * 1000 + _mix(ms) % 1000:06d}]"
    pad = " " * (len(stamp) + 1)
    return "".join(
        (stamp + " " if i == 0 else pad) + line + "\n" for i, line in enumerate(text.split("\n"))
    )


def _xid_bus(plan: Plan) -> str:
    assert plan.culprit is not None
    return plan.bus(plan.culprit)


def dmesg_text(plan: Plan, node: int) -> str:
    boot = plan.boot_ms[node]
    events: list[tuple[int, str]] = [
        (boot + 4_861, "nvidia: module license 'NVIDIA' taints kernel."),
        (boot + 4_923, "nvidia-nvlink: Nvlink Core is being initialized, major device number 235"),
        (
            boot + 5_120,
            "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.86.10  Wed Jul 26 23:20:50 UTC 2023",
        ),
        (
            boot + 85_412,
            "mlx5_core 0000:0c:00.0: mlx5_pcie_event:299:(pid 1082): PCIe slot advertised sufficient power (27W).",
        ),
        (
            plan.start_ms - 3_600_000,
            "perf: interrupt took too long (2503 > 2500), lowering kernel.perf_event_max_sample_rate to 79750",
        ),
        (
            plan.start_ms + 40_000,
            "nvidia_uvm: module uses symbols from proprietary module nvidia, inheriting taint.",
        ),
    ]
    if plan.scenario == "xid79" and plan.culprit is not None and plan.node_of(plan.culprit) == node:
        bus, t = _xid_bus(plan), plan.fail_ms()
        h = f"{_mix(plan.seed, 13):016x}{_mix(plan.seed, 14):016x}"
        uuid = f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"
        events += [
            (t, f"NVRM: GPU at PCI:{bus}:00: {uuid}"),
            (
                t,
                f"NVRM: Xid (PCI:{bus}:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.",
            ),
            (
                t + 1,
                f"NVRM: The NVIDIA GPU {bus}:00.0\nNVRM: (PCI ID: 10de:2330) installed in this system has\n"
                "NVRM: fallen off the bus and is not responding to commands.",
            ),
        ]
    events.sort(key=lambda e: e[0])
    return "".join(_dmesg_line(plan, node, ms, text) for ms, text in events)


_SMI_RULE = (
    "+-----------------------------------------+----------------------+----------------------+"
)


def nvidia_smi_text(plan: Plan, node: int) -> str:
    """The driver-535 table (89 columns) as `nvidia-smi > nvidia-smi.txt` saves it."""
    ms = plan.start_ms + TRAIN_START_MS + 6_000
    wide = "+" + "-" * 87 + "+"
    lines = [
        f"{plan.clock(node).ctime(ms)}       ",
        wide,
        "| NVIDIA-SMI 535.86.10              Driver Version: 535.86.10    CUDA Version: 12.2     |",
        "|" + _SMI_RULE[1:],
        "| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |",
        "| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |",
        "|                                         |                      |               MIG M. |",
        "|=========================================+======================+======================|",
    ]
    rng = random.Random(f"{plan.seed}:smi:{node}")
    procs = []
    for r in plan.node_ranks(node):
        i, used = plan.local_of(r), rng.randrange(58_000, 76_000)
        bus = f"{plan.pci(r)[0]:08x}:{plan.pci(r)[1]}".upper()
        lines += [
            "|"
            + f"{i:>4}  NVIDIA H100 80GB HBM3".ljust(37)
            + "On  "
            + "|"
            + f" {bus}:00.0 Off ".rjust(22)
            + "|"
            + "0 ".rjust(22)
            + "|",
            "|"
            + f" N/A   {rng.randrange(31, 48)}C    P0".ljust(27)
            + f"{rng.randrange(280, 690)}W / 700W ".rjust(14)
            + "|"
            + f"{used}MiB / 81559MiB ".rjust(22)
            + "|"
            + f"{rng.randrange(90, 100)}%      Default ".rjust(22)
            + "|",
            "|" + " " * 41 + "|" + " " * 22 + "|" + "Disabled ".rjust(22) + "|",
            _SMI_RULE,
        ]
        left, right = (
            f"|  {i:>3}   N/A  N/A  {plan.pid_of(r):>8}      C   {PY_BIN}",
            f"{used - 12}MiB |",
        )
        procs.append(left + " " * (89 - len(left) - len(right)) + right)
    lines += [
        " " * 89,
        wide,
        "| Processes:" + " " * 76 + "|",
        "|  GPU   GI   CI        PID   Type   Process name                            GPU Memory |",
        "|        ID   ID                                                             Usage      |",
        "|" + "=" * 87 + "|",
        *procs,
        wide,
    ]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- launcher


_RUN_PY = "torch/distributed/run.py:793]"
_API_PY = "torch/distributed/elastic/multiprocessing/api.py"
_AGENT_PY = "torch/distributed/elastic/agent/server/api.py"


def _agent_start(plan: Plan, node: int) -> list[tuple[int, str]]:
    t = plan.start_ms + plan.agent_phase[node] // 10
    stamp = f"{plan.clock(node).glog('W', t)} {plan.agent_pids[node]} {_RUN_PY}"
    return [
        (
            t,
            f"{stamp} \n{stamp} *****************************************\n"
            f"{stamp} Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, "
            "to avoid your system being overloaded, please further tune the variable for optimal "
            f"performance in your application as needed. \n{stamp} *****************************************\n",
        )
    ]


_TORCHRUN_FRAMES = (
    ("/usr/local/bin/torchrun", 8, "<module>", "sys.exit(main())"),
    (f"{SITE}/torch/distributed/elastic/multiprocessing/errors/__init__.py", 355, "wrapper",
     "return f(*args, **kwargs)"),
    (f"{SITE}/torch/distributed/run.py", 919, "main", "run(args)"),
    (f"{SITE}/torch/distributed/run.py", 910, "run", "elastic_launch("),
    (f"{SITE}/torch/distributed/launcher/api.py", 138, "__call__",
     "return launch_agent(self._config, self._entrypoint, list(args))"),
    (f"{SITE}/torch/distributed/launcher/api.py", 269, "launch_agent", "raise ChildFailedError("),
)  # fmt: skip


def _failure_entry(plan: Plan, clock: Clock, rank: int, fate: Fate, ms: int) -> str:
    code = fate.exitcode or 0
    trace = (
        f"Signal {-code} ({'SIGABRT' if code == -6 else 'SIGKILL'}) received by PID {plan.pid_of(rank)}"
        if code < 0
        else "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"
    )
    return (
        f"  time      : {clock.table_time(ms)}\n"
        f"  host      : {plan.hosts[plan.node_of(rank)]}.{CLUSTER_DOMAIN}\n"
        f"  rank      : {rank} (local_rank: {plan.local_of(rank)})\n"
        f"  exitcode  : {code} (pid: {plan.pid_of(rank)})\n"
        "  error_file: <N/A>\n"
        f"  traceback : {trace}\n"
    )


def _child_failed_error(plan: Plan, rep: AgentReport, fates: Sequence[Fate], ms: int) -> str:
    clock = plan.clock(rep.node)
    root, others = rep.failed[0], rep.failed[1:]
    sep, border = "-" * 60, "=" * 60
    body = "".join(
        f"[{i + 1}]:\n" + _failure_entry(plan, clock, r, fates[r], ms) for i, r in enumerate(others)
    )
    tb = "".join(_frames("", _TORCHRUN_FRAMES))
    return (
        "Traceback (most recent call last):\n"
        + tb
        + "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
        + f"{border}\ntrain.py FAILED\n{sep}\nFailures:\n"
        + (body or "  <NO_OTHER_FAILURES>\n")
        + f"{sep}\nRoot Cause (first observed failure):\n[0]:\n"
        + _failure_entry(plan, clock, root, fates[root], ms)
        + f"{border}\n"
    )


def _agent_end(plan: Plan, rep: AgentReport, fates: Sequence[Fate]) -> list[tuple[int, str]]:
    clock, pid = plan.clock(rep.node), plan.agent_pids[rep.node]
    if rep.succeeded:
        t = rep.poll_ms
        return [
            (
                t,
                f"{clock.glog('I', t)} {pid} {_AGENT_PY}:879] [default] worker group successfully finished. "
                "Waiting 300 seconds for other agents to finish.\n",
            ),
            (
                t + 400,
                f"{clock.glog('I', t + 400)} {pid} {_AGENT_PY}:946] Done waiting for other agents. "
                "Elapsed: 0.40122151374816895 seconds\n",
            ),
        ]
    out = [
        (
            rep.poll_ms + i,
            f"{clock.glog('W', rep.poll_ms + i)} {pid} {_API_PY}:900] Sending process "
            f"{plan.pid_of(r)} closing signal SIGTERM\n",
        )
        for i, r in enumerate(rep.killed)
    ]
    t, root = rep.poll_ms + 2_800, rep.failed[0]
    out.append(
        (
            t,
            f"{clock.glog('E', t)} {pid} {_API_PY}:874] failed (exitcode: {fates[root].exitcode}) "
            f"local_rank: {plan.local_of(root)} (pid: {plan.pid_of(root)}) of binary: {PY_BIN}\n",
        )
    )
    out.append((t + 30, _child_failed_error(plan, rep, fates, t)))
    return out


def launcher_text(plan: Plan, fates: Sequence[Fate], reports: Sequence[AgentReport | None]) -> str:
    """All agents' output in arrival order, each line behind its pdsh 'host: ' prefix."""
    events: list[tuple[int, int, str]] = []
    for node in range(plan.nodes):
        items = _agent_start(plan, node)
        rep = reports[node]
        if rep is not None:
            items += _agent_end(plan, rep, fates)
        events += [(ms, node, text) for ms, text in items]
    events.sort(key=lambda e: (e[0], e[1]))
    out = []
    for _, node, text in events:
        host = plan.hosts[node]
        out += [f"{host}: {line}\n" for line in text.rstrip("\n").split("\n")]
    return "".join(out)


# --------------------------------------------------------------------------- truth


def _first_deviating(plan: Plan) -> dict[str, object] | None:
    c = plan.culprit
    if c is None:
        return None
    contains = {
        "oom-cascade": "CUDA out of memory",
        "nccl-ib-error": "NET/IB : Got completion from peer",
        "xid79": f"NVRM: Xid (PCI:{plan.bus(c)}:00): 79",
        # A hang has no error line: the deviation is the culprit's last line before silence.
        "hang": f"step {plan.n_steps} loss",
    }[plan.scenario]
    return {"contains": contains, "rank": c}


_COLLATERAL = {
    "timeout": "Watchdog caught collective operation timeout",
    "remote": "remote process exited or there was a network error",
}


def _collateral(plan: Plan, fates: Sequence[Fate]) -> list[dict[str, object]]:
    """Echo failures, computed from the very lines each rank prints."""
    out: list[dict[str, object]] = []
    for kind, needle in _COLLATERAL.items():
        ranks = [
            r
            for r, f in enumerate(fates)
            if f.kind == kind and r != plan.culprit and needle in RankLog(plan, r, fates).tail()
        ]
        if ranks:
            out.append({"contains": needle, "ranks": ranks})
    return out


def _notes(plan: Plan, fates: Sequence[Fate], reports: Sequence[AgentReport | None]) -> str:
    parts = [
        f"synthetic: scenario={plan.scenario} seed={plan.seed} ranks={plan.ranks} nodes={plan.nodes} "
        f"steps={plan.n_steps}; stamps are naive times equal to UTC"
    ]
    c = plan.culprit
    if c is not None:
        parts.append(
            f"culprit rank {c} (local rank {plan.local_of(c)}, pid {plan.pid_of(c)}) on "
            f"{plan.hosts[plan.node_of(c)]}; failure strikes at true {_iso(plan.fail_ms())}"
        )
    if plan.skew_node is not None:
        host = plan.hosts[plan.skew_node]
        parts.append(
            f"clock skew {plan.skew_ms:+d} ms on {host}: every wall-clock stamp printed on that node "
            "(rank files, its launcher.log lines, dmesg -T, nvidia-smi) is shifted; raw dmesg "
            "uptime stamps are not"
        )
        naive = _naive_first(plan, fates)
        if naive is not None and naive != c:
            how = (
                "went silent first" if plan.scenario == "hang" else "printed the first failure line"
            )
            parts.append(f"trusting printed stamps, rank {naive} {how}: the naive answer is wrong")
    if plan.scenario == "hang" and c is not None:
        parts.append(
            f"hang: rank {c} went silent after step {plan.n_steps}; the others logged step "
            f"{plan.n_steps + 1} and timed out on SeqNum {plan.seq(plan.n_steps + 2, 1)}, which rank "
            f"{c} never enqueued (its last enqueued/completed work is {plan.seq(plan.n_steps + 1, plan.buckets)})"
        )
    if plan.scenario == "xid79" and c is not None:
        node = plan.node_of(c)
        form = (
            "dmesg -T wall-clock stamps"
            if plan.dmesg_ctime[node]
            else f"raw uptime stamps, boot at true epoch ms {plan.boot_ms[node]}"
        )
        parts.append(
            f"xid79: the Xid line is in {plan.hosts[node]}/dmesg.log ({form}; node-level, no rank); "
            f"PCI bus {plan.bus(c).removeprefix('0000:')} is busId {plan.nccl_bus(c)} in rank {c}'s NCCL init lines"
        )
    roots = [
        f"{plan.hosts[r.node]}: rank {r.failed[0]}" for r in reports if r is not None and r.failed
    ]
    if roots:
        parts.append(
            "ChildFailedError 'Root Cause' per agent (the lowest local rank found dead at the "
            "agent's poll, which need not be the culprit): " + ", ".join(roots)
        )
    return "; ".join(parts)


def _iso(ms: int) -> str:
    return (
        datetime.fromtimestamp(ms / 1000, UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


def _naive_first(plan: Plan, fates: Sequence[Fate]) -> int | None:
    """Which rank a reader trusting printed stamps would blame.

    For a hang that is the rank whose last step line is printed earliest (who went
    silent first); otherwise the rank whose first failure line is printed earliest.
    """
    best: tuple[int, int] | None = None
    for r, f in enumerate(fates):
        skew = plan.skew_of(plan.node_of(r))
        if plan.scenario == "hang":
            printed = plan.step_time(f.last_step) + skew
        elif f.kind in ("blocked", "finish"):
            continue
        else:
            printed = f.event_ms + skew
        if best is None or printed < best[0]:
            best = (printed, r)
    return best[1] if best else None


def truth(
    plan: Plan, fates: Sequence[Fate], reports: Sequence[AgentReport | None]
) -> dict[str, object]:
    c = plan.culprit
    category = SCENARIOS[plan.scenario]
    return {
        "schema_version": 1,
        "status": "healthy" if c is None else "failed",
        "initiating": None
        if c is None
        else {"rank": c, "node": plan.hosts[plan.node_of(c)], "all_ranks": False},
        "root_cause": None if category is None else {"category": category, "rule_id": None},
        "first_deviating": _first_deviating(plan),
        "collateral": _collateral(plan, fates),
        "notes": _notes(plan, fates, reports),
    }


# --------------------------------------------------------------------------- sizing


def _body_bytes_per_step(plan: Plan, around: int) -> float:
    """Measure the healthy body's bytes per step on two evaluation cycles near step `around`."""
    every = plan.eval_every
    a = max(1, (around // every) * every + 1)
    probe = replace(plan, scenario="healthy", culprit=None, n_steps=a + 3 * every)
    fates, _ = plan_fates(probe)
    log = RankLog(probe, probe.ranks // 2, fates)
    total = 0
    for start in (a, a + every):
        end = start + every - 1
        total += len(log.segment(start, end).encode()) + len(log.eval_block(end).encode())
    return total / (2 * every)


def _fixed_bytes(plan: Plan) -> int:
    """Bytes that do not grow with the step count: headers, tails, node files, launcher."""
    fates, reports = plan_fates(plan)
    total = len(launcher_text(plan, fates, reports).encode())
    for node in range(plan.nodes):
        total += len(dmesg_text(plan, node).encode()) + len(nvidia_smi_text(plan, node).encode())
    sample = sorted({0, plan.ranks - 1, *range(0, plan.ranks, max(1, plan.ranks // 16))})
    per_rank = 0
    for r in sample:
        log = RankLog(plan, r, fates)
        per_rank += len(log.header().encode()) + len(log.tail().encode())
    total += per_rank * plan.ranks // len(sample)
    return total + 2_000  # truth.json


def _avoid_eval_edges(n: int, every: int) -> int:
    """Keep evaluations away from the failing steps N and N+1 (keeps the story simple)."""
    while n % every in (0, every - 1):
        n -= 1
    return n


def size_plan(plan: Plan, size_bytes: int) -> Plan:
    """Choose the step count so the job is about size_bytes on disk."""
    n = 1_000
    for _ in range(2):  # step numbers gain digits, so re-measure near the answer
        per_step = _body_bytes_per_step(plan, max(1, n // 2))
        fixed = _fixed_bytes(replace(plan, n_steps=n))
        n = max(MIN_STEPS, int((size_bytes - fixed) / (plan.ranks * per_step)))
    return replace(plan, n_steps=_avoid_eval_edges(n, plan.eval_every))


# --------------------------------------------------------------------------- writing


_JOB_FILES = ("launcher.log", "truth.json", ".correlatorignore")


def _prepare_out_dir(out: Path) -> None:
    """Create OUT; clear it only when it holds a previous synthetic job (never foreign files)."""
    if out.exists() and any(out.iterdir()):
        if not (out / "truth.json").is_file():
            raise SystemExit(
                f"refusing to write into non-empty {out} (no truth.json from a previous run)"
            )
        for child in out.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
    out.mkdir(parents=True, exist_ok=True)


def _write_ranks(out: Path, plan: Plan, fates: Sequence[Fate], workers: int) -> int:
    if workers <= 1 or plan.ranks == 1:
        return sum(write_rank(out, plan, fates, r) for r in range(plan.ranks))
    # "spawn": forking a process that already runs Polars/DuckDB thread pools can deadlock.
    # The plan travels once per worker, not once per rank (fates grow with the rank count).
    ctx = multiprocessing.get_context("spawn")
    init = (out, plan, fates)
    with ProcessPoolExecutor(workers, ctx, initializer=_init_worker, initargs=init) as pool:
        return sum(pool.map(_write_rank_job, range(plan.ranks)))


_WORKER_JOB: tuple[Path, Plan, Sequence[Fate]] | None = None


def _init_worker(out: Path, plan: Plan, fates: Sequence[Fate]) -> None:
    global _WORKER_JOB
    _WORKER_JOB = (out, plan, fates)


def _write_rank_job(rank: int) -> int:
    assert _WORKER_JOB is not None
    out, plan, fates = _WORKER_JOB
    return write_rank(out, plan, fates, rank)


def auto_workers(size_bytes: int) -> int:
    if size_bytes < 64_000_000:
        return 1  # process start-up costs more than it saves
    return max(1, min(8, os.cpu_count() or 1))


def generate_job(
    out_dir: str | os.PathLike[str],
    *,
    ranks: int = 16,
    nodes: int = 2,
    size: int | str = "20MB",
    scenario: str = "oom-cascade",
    skew: int | str = 0,
    seed: int = 0,
    hosts: Sequence[str] | None = None,
    culprit: int | None = None,
    skew_node: int | None = None,
    workers: int | None = None,
) -> dict[str, object]:
    """Write one job directory; returns its truth (also written to OUT/truth.json)."""
    size_bytes = parse_size(size) if isinstance(size, str) else size
    skew_ms = parse_duration(skew) if isinstance(skew, str) else skew
    hosts = tuple(hosts) if hosts is not None else default_hosts(nodes)
    plan = make_plan(
        scenario=scenario,
        ranks=ranks,
        hosts=hosts,
        seed=seed,
        skew_ms=skew_ms,
        skew_node=skew_node,
        culprit=culprit,
    )
    plan = size_plan(plan, size_bytes)
    fates, reports = plan_fates(plan)
    out = Path(out_dir)
    _prepare_out_dir(out)
    for host in plan.hosts:
        (out / host).mkdir(exist_ok=True)
    _write_ranks(out, plan, fates, workers if workers is not None else auto_workers(size_bytes))
    for node, host in enumerate(plan.hosts):
        (out / host / "dmesg.log").write_text(dmesg_text(plan, node), encoding="utf-8")
        (out / host / "nvidia-smi.txt").write_text(nvidia_smi_text(plan, node), encoding="utf-8")
    (out / "launcher.log").write_text(launcher_text(plan, fates, reports), encoding="utf-8")
    result = truth(plan, fates, reports)
    (out / "truth.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    # the answer key sits beside the logs: keep it out of the analysis
    (out / ".correlatorignore").write_text("# the expected verdict, not a log\ntruth.json\n", encoding="utf-8")
    return result


# --------------------------------------------------------------------------- batch


_BATCH_MIX = (
    ("healthy", 30),
    ("oom-cascade", 20),
    ("hang", 20),
    ("nccl-ib-error", 15),
    ("xid79", 15),
)
_BAD_NODE_SCENARIOS = ("xid79", "oom-cascade", "xid79", "nccl-ib-error")
_BAD_NODE_HIT_RATE = 0.75


def _batch_job(
    rng: random.Random, cluster: Sequence[str], bad: set[str], ranks: int, nodes: int
) -> tuple[str, list[str], int | None]:
    """Pick one job's hosts, scenario and culprit; bad nodes initiate most failures they see."""
    hosts = sorted(rng.sample(list(cluster), nodes))
    names, weights = zip(*_BATCH_MIX, strict=True)
    scenario = rng.choices(names, weights)[0]
    culprit = None
    bad_here = [i for i, h in enumerate(hosts) if h in bad]
    per_node = ranks // nodes
    if bad_here and rng.random() < _BAD_NODE_HIT_RATE:
        scenario = rng.choice(_BAD_NODE_SCENARIOS)
        culprit = rng.choice(bad_here) * per_node + rng.randrange(per_node)
    elif scenario != "healthy":
        good = [i for i in range(nodes) if i not in bad_here] or list(range(nodes))
        culprit = rng.choice(good) * per_node + rng.randrange(per_node)
    return scenario, hosts, culprit


def generate_batch(
    root: str | os.PathLike[str],
    *,
    jobs: int = 200,
    ranks: int = 16,
    nodes: int = 4,
    size: int | str = "2MB",
    bad_nodes: int = 2,
    cluster_nodes: int = 64,
    skew: int | str = 0,
    seed: int = 0,
    workers: int | None = None,
) -> dict[str, object]:
    """Write ROOT/job-NNN for many jobs over one cluster, plus ROOT/truth_batch.json."""
    if nodes > cluster_nodes:
        raise ValueError(f"--nodes {nodes} exceeds --cluster-nodes {cluster_nodes}")
    rng = random.Random(f"correlator-synth:batch:{seed}")
    cluster = default_hosts(cluster_nodes)
    bad = sorted(rng.sample(list(cluster), bad_nodes))
    out = Path(root)
    out.mkdir(parents=True, exist_ok=True)
    width = max(3, len(str(jobs - 1)))
    listing = []
    for j in range(jobs):
        scenario, hosts, culprit = _batch_job(rng, cluster, set(bad), ranks, nodes)
        name = f"job-{j:0{width}d}"
        job_seed = _mix(seed, j) % 1_000_000_007
        t = generate_job(
            out / name,
            ranks=ranks,
            nodes=nodes,
            size=size,
            scenario=scenario,
            skew=skew,
            seed=job_seed,
            hosts=hosts,
            culprit=culprit,
            workers=workers,
        )
        init = t["initiating"]
        listing.append(
            {
                "job": name,
                "scenario": scenario,
                "status": t["status"],
                "initiating_node": init["node"] if isinstance(init, dict) else None,
                "hosts": hosts,
            }
        )
    summary = {
        "schema_version": 1,
        "cluster": list(cluster),
        "bad_nodes": bad,
        "jobs": listing,
        "notes": (
            f"synthetic batch: seed={seed} jobs={jobs}; a job containing a bad node fails on it "
            f"with probability {_BAD_NODE_HIT_RATE} (xid79 / oom-cascade / nccl-ib-error)"
        ),
    }
    (out / "truth_batch.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


# --------------------------------------------------------------------------- CLI


def _common_options(p: argparse.ArgumentParser, ranks: int, nodes: int, size: str) -> None:
    p.add_argument("--ranks", type=int, default=ranks, help="world size (global ranks)")
    p.add_argument("--nodes", type=int, default=nodes, help="nodes; ranks split evenly")
    p.add_argument("--size", default=size, help="approximate bytes per job: 500KB, 20MB, 1GB, 2GiB")
    p.add_argument("--skew", default="0", help="clock offset of one node: 30s, -2m, 500ms")
    p.add_argument("--seed", type=int, default=0, help="same seed and options, same bytes")
    p.add_argument("--workers", type=int, default=None, help="processes (default: by size)")


def _job_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m correlator.synth",
        description="Write one synthetic crashed job (see also: batch --help).",
    )
    p.add_argument("out_dir")
    _common_options(p, ranks=16, nodes=2, size="20MB")
    p.add_argument("--scenario", choices=list(SCENARIOS), default="oom-cascade")
    p.add_argument(
        "--skew-node", type=int, default=None, help="node index to skew (default: culprit's)"
    )
    p.add_argument("--culprit", type=int, default=None, help="initiating rank (default: from seed)")
    return p


def _batch_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m correlator.synth batch",
        description="Write ROOT/job-NNN jobs over one shared cluster, and ROOT/truth_batch.json.",
    )
    p.add_argument("root")
    _common_options(p, ranks=16, nodes=4, size="2MB")
    p.add_argument("--jobs", type=int, default=200)
    p.add_argument("--bad-nodes", type=int, default=2, help="nodes that initiate most failures")
    p.add_argument("--cluster-nodes", type=int, default=64, help="size of the shared cluster")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    started = time.perf_counter()
    try:
        if args_in[:1] == ["batch"]:
            a = _batch_parser().parse_args(args_in[1:])
            generate_batch(
                a.root,
                jobs=a.jobs,
                ranks=a.ranks,
                nodes=a.nodes,
                size=a.size,
                bad_nodes=a.bad_nodes,
                cluster_nodes=a.cluster_nodes,
                skew=a.skew,
                seed=a.seed,
                workers=a.workers,
            )
            target = Path(a.root)
        else:
            a = _job_parser().parse_args(args_in)
            generate_job(
                a.out_dir,
                ranks=a.ranks,
                nodes=a.nodes,
                size=a.size,
                scenario=a.scenario,
                skew=a.skew,
                seed=a.seed,
                culprit=a.culprit,
                skew_node=a.skew_node,
                workers=a.workers,
            )
            target = Path(a.out_dir)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    total = sum(f.stat().st_size for f in target.rglob("*") if f.is_file())
    took = time.perf_counter() - started
    print(
        f"wrote {target}: {total / 1e6:.1f} MB in {took:.1f} s ({total / 1e6 / max(took, 1e-9):.0f} MB/s)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
