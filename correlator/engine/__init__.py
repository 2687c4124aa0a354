"""Where the work of ``batch`` and of ``ingest``'s stage 1 runs: one seam, two engines.

Both commands hand an engine a function and a list of ``Task`` s (a key and the
function's arguments) and read back one ``Outcome`` per task, in the order the
tasks finish (so a progress bar follows completions). What a task did wrong is an
outcome, never an exception of the engine's:

- ``raised``: the function raised (``detail``: its type and message);
- ``crashed``: the process running it died (segfault, the OOM killer), after the
  engine's own retries;
- ``timed_out``: it ran past ``timeout`` seconds and was stopped.

The engines (``local.py``: a spawned process pool, the default; ``ray.py``: Ray
tasks on a cluster) differ in where the processes are, not in what a caller sees,
so ``batch --engine local`` and ``--engine ray`` share every line of their own
logic (error rows, resume, the summary) and ``ingest`` writes the same parts.

Data never travels through the engine: tasks read their inputs from and write
their outputs to paths that every worker sees (a local disk for the local engine,
a shared filesystem for Ray), and hand back only small results (a summary row, a
file's counts). So the driver's memory does not grow with the data.

Nothing here imports Ray: ``engine_for("ray")`` imports it, and a missing Ray is
``EngineUnavailable`` with the line to install it.

May import: the standard library, and Ray in ``ray.py`` only. Below ``ingest`` and
``batch``, which both run their tasks here; it knows nothing of what a task does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

ENGINES = ("local", "ray")
RAY_HINT = "pip install 'correlator[ray]' (Ray 2.60 or newer)"


class EngineUnavailable(Exception):
    """The engine asked for cannot run here (Ray not installed, no cluster at the address)."""


@dataclass(frozen=True)
class Task:
    """One call of the engine's function: ``key`` names it in the outcome."""

    key: str
    args: tuple


@dataclass
class Outcome:
    key: str
    value: Any = None
    failure: Literal["raised", "crashed", "timed_out"] | None = None
    detail: str = ""
    # what the function raised, where the engine could bring it back (``failures_raise``
    # raises it as it was: an ``OSError`` stays one line at the command line)
    error: BaseException | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.failure is None


class Engine(Protocol):
    name: str

    @property
    def slots(self) -> int:
        """How many tasks run at once (a batch's jobs share a machine's CPUs by it)."""
        ...

    def run(
        self, fn: Callable[..., Any], tasks: Sequence[Task], *, timeout: float | None = None,
        init: Callable[..., None] | None = None, initargs: tuple = (),
    ) -> Iterator[Outcome]:
        """``fn(*task.args)`` for every task, outcomes in the order they finish.
        ``init(*initargs)`` runs once in each worker process before its first task;
        ``timeout``: seconds a task may run once started (None: no limit)."""
        ...

    def close(self) -> None: ...


def engine_for(name: str, *, workers: int | None = None, address: str | None = None) -> Engine:
    """The engine called ``name``: ``local`` (``workers`` processes, default one per
    CPU) or ``ray`` (on the cluster at ``address``: ``auto``, ``ray://host:10001``,
    or None for ``RAY_ADDRESS`` or else a Ray instance started on this machine)."""
    if name == "local":
        from correlator.engine.local import LocalEngine

        return LocalEngine(workers)
    if name == "ray":
        from correlator.engine.ray import RayEngine

        return RayEngine(address=address, workers=workers)
    raise ValueError(f"unknown engine {name!r}: one of {', '.join(ENGINES)}")


def failures_raise(outcomes: Iterator[Outcome]) -> Iterator[Outcome]:
    """``outcomes``, raising at the first failure: for work where a failed task is a bug
    (ingest's tasks catch what a bad file does themselves)."""
    for o in outcomes:
        if o.error is not None:
            raise o.error
        if not o.ok:
            raise RuntimeError(f"task {o.key} {o.failure.replace('_', ' ')}: {o.detail}".rstrip(": "))
        yield o
