"""The environment a worker process starts with, on this machine or on a Ray node.

Standard library only: ``correlator/__main__.py`` reaches it (through
``correlator.ingest.workers``) before anything heavy is loaded.
"""

from __future__ import annotations

# Polars' allocator (jemalloc) gives freed pages back to the kernel after 0.5-1 s
# (the decay Polars sets at import), so a worker faulted its memory in again for
# nearly every batch: 5-6 CPU-seconds of kernel time on the 1 GB bench. Kept 30 s,
# it is 2.5 s, and the ingest about 1.5 s faster; peak RSS does not change (a
# batch's peak is the same either way).
JEMALLOC_CONF = "_RJEM_MALLOC_CONF"
WORKER_DECAY = "dirty_decay_ms:30000,muzzy_decay_ms:30000"

# The same for Python's own allocations (glibc malloc): a file is read in chunks of
# several MB, each a fresh bytes object, which glibc served from a new mmap or from
# heap it had just trimmed, and the kernel faulted in again: ~6,000 page faults a
# 15 MB rank file, ~10% of a worker's CPU time in the kernel. Served from a heap kept
# up to 256 MB, it is ~1,000 (and the glibc limit on the mmap threshold is 32 MB).
# A user's own setting of either wins.
GLIBC_MALLOC = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(256 << 20)}


def worker_jemalloc_conf(current: str | None) -> str:
    """The conf a worker starts with. Polars put its defaults first in this process's
    (and will again in the worker's); a user's own setting followed them, and still
    comes after ours, so it wins."""
    user = (current or "").split(",")
    user = [kv for kv in user if kv and kv not in ("dirty_decay_ms:500", "muzzy_decay_ms:1000")]
    return ",".join([WORKER_DECAY, *user])



def worker_environment(current: dict[str, str]) -> dict[str, str]:
    """The variables a worker starts with, given this process's environment: one Polars
    thread (the workers already fill the cores, and threads on top of them only contend:
    stage 1 ~15% faster on 2 cores) and the allocators' longer hold on freed memory (a
    user's own glibc settings win). The Ray engine's workers get the same."""
    env = {"POLARS_MAX_THREADS": "1", JEMALLOC_CONF: worker_jemalloc_conf(current.get(JEMALLOC_CONF))}
    for k, v in GLIBC_MALLOC.items():
        env[k] = current.get(k, v)
    return env
