"""The Ray engine (``--engine ray``): each task a Ray task on a cluster.

Why Ray: it is already on many of the clusters whose jobs these logs come from
(KubeRay, Anyscale, training platforms built on it), so scaling out needs no
scheduler of our own. What it is used for is deliberately small: a remote call of
a module-level function with small arguments and a small result. Inputs and
outputs are paths on a filesystem every node sees; nothing big goes through the
object store or the driver.

Semantics, matching the local engine's (``correlator.engine``):

- **Tasks in flight** are capped at the cluster's CPUs (or ``workers``), each task
  asking for one CPU: a task is submitted when a slot is free, so the time it has
  had is roughly its running time (the timeout means what it means locally), and
  the driver holds a few thousand object refs at most, not one per job of 100,000.
- **crashed**: the worker process died (``WorkerCrashedError``, a node lost).
  Ray retries such a task once (``max_retries=1``: a preempted node is not the
  job's fault); a task that kills its worker twice is ``crashed``. Unlike a process
  pool, a dying worker takes no other task with it.
- **timed_out**: past ``timeout`` seconds since submission the task is cancelled
  with ``force=True`` (its worker is killed; the others go on).
- **raised**: the function's exception (a ``RayTaskError`` around it).

Each worker starts with the same environment as a local ingest worker's
(``correlator.engine.env.worker_environment``: one Polars thread, the
allocators' settings), through a ``runtime_env`` of environment variables only
(no packages shipped: ``correlator`` must be installed on the cluster's nodes, as
the driver's version; see README). ``CORRELATOR_TEST_*`` and ``CORRELATOR_DEBUG``
of the driver travel too, so fault injection reaches the workers.

Ray is imported here only, and only when the engine is made: a missing Ray is
``EngineUnavailable`` naming the extra to install.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from correlator.engine import RAY_HINT, EngineUnavailable, Outcome, Task
from correlator.engine.env import worker_environment

MIN_RAY = (2, 60)
# driver variables a worker needs as the driver has them
_FORWARDED_PREFIXES = ("CORRELATOR_TEST_", "CORRELATOR_DEBUG")


def _import_ray():
    try:
        import ray
    except ImportError as exc:
        raise EngineUnavailable(f"--engine ray needs Ray, which is not installed: {RAY_HINT}") from exc
    version = tuple(int(x) for x in ray.__version__.split(".")[:2] if x.isdigit())
    if version < MIN_RAY:
        raise EngineUnavailable(f"--engine ray needs Ray 2.60 or newer (found {ray.__version__}): {RAY_HINT}")
    return ray


# per worker process: the init functions (and their arguments) already run there
_initialised: set = set()


def _call(fn: Callable[..., Any], args: tuple, init: Callable[..., None] | None, initargs: tuple) -> Any:
    """What runs in a Ray worker: the engine's ``init`` once per process, then ``fn``."""
    if init is not None and (init, initargs) not in _initialised:
        init(*initargs)
        _initialised.add((init, initargs))
    return fn(*args)


class RayEngine:
    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.ray = _import_ray()
        started = time.perf_counter()
        if not self.ray.is_initialized():
            try:
                # (logs of the workers stay in Ray's session directory: stderr is the bars')
                self.ray.init(address=address, include_dashboard=False, log_to_driver=False,
                              configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = address or os.environ.get("RAY_ADDRESS") or "a new local instance"
                raise EngineUnavailable(f"--engine ray: could not start or reach Ray at {where}: {exc}") from exc
        self.connect_s = time.perf_counter() - started
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, workers or cpus)
        env = worker_environment(dict(os.environ))
        env.update({k: v for k, v in os.environ.items() if k.startswith(_FORWARDED_PREFIXES)})
        self._remote = self.ray.remote(_call).options(num_cpus=1, max_retries=1,
                                                      runtime_env={"env_vars": env})

    @property
    def slots(self) -> int:
        return self.workers

    def close(self) -> None:
        pass  # the cluster is the user's (or, started here, goes with this process)

    def run(
        self, fn: Callable[..., Any], tasks: Sequence[Task], *, timeout: float | None = None,
        init: Callable[..., None] | None = None, initargs: tuple = (),
    ) -> Iterator[Outcome]:
        ray = self.ray
        queue = list(tasks)
        queue.reverse()  # popped from the end: in the given order
        running: dict[Any, tuple[Task, float]] = {}  # ref -> (task, when submitted)
        try:
            while queue or running:
                while queue and len(running) < self.workers:
                    t = queue.pop()
                    running[self._remote.remote(fn, t.args, init, initargs)] = (t, time.monotonic())
                wait_s = None
                if timeout is not None:
                    oldest = min(s for _, s in running.values())
                    wait_s = max(0.0, oldest + timeout - time.monotonic())
                ready, _ = ray.wait(list(running), num_returns=1, timeout=wait_s)
                # whatever else is done by now, in one go (a round trip per task costs)
                if ready:
                    more, _ = ray.wait([r for r in running if r not in ready], num_returns=len(running) - 1,
                                       timeout=0) if len(running) > 1 else ([], [])
                    ready = ready + more
                for ref in ready:
                    t, _ = running.pop(ref)
                    yield self._outcome(t, ref)
                if timeout is not None:
                    now = time.monotonic()
                    for ref, (t, s) in list(running.items()):
                        if now - s >= timeout:
                            ray.cancel(ref, force=True)
                            del running[ref]
                            yield Outcome(t.key, failure="timed_out", detail=f"ran past {timeout:g} s")
        finally:
            for ref in running:  # the caller stopped early (an exception, Ctrl-C)
                ray.cancel(ref, force=True)

    def _outcome(self, t: Task, ref: Any) -> Outcome:
        ex = self.ray.exceptions
        try:
            return Outcome(t.key, self.ray.get(ref))
        except (ex.WorkerCrashedError, ex.NodeDiedError, ex.OutOfMemoryError, ex.LocalRayletDiedError):
            return Outcome(t.key, failure="crashed", detail="the worker process died")
        except ex.RayTaskError as exc:
            cause = exc.cause if getattr(exc, "cause", None) is not None else exc
            return Outcome(t.key, failure="raised", detail=f"{type(cause).__name__}: {cause}", error=cause)
        except ex.RayError as exc:
            return Outcome(t.key, failure="raised", detail=f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
