"""Horovod's coordinator (rank 0): the ranks a collective still waits for.

Horovod < 0.19 printed, per stalled tensor, ``<tensor> [missing ranks: 1, 3]`` from
horovod/common/operations.cc after 60 s; the ranks named are the ones the others wait for.
Its later stall inspector (horovod/common/stall_inspector.cc) warns that tensors were submitted
by a subset of ranks, then prints ``Missing ranks:`` (``Stalled ranks:`` in some releases) and
one ``<rank>: [<tensors>]`` line per rank it waits for (``<rank>!: [...]`` once the shutdown time
has passed); the demultiplexer keeps those numbers (they are not ``srun --label`` prefixes),
the fold keeps the list with its warning, and the first rank listed is the warning's
``peer_rank`` (a list line that stands alone, its header cut off, is an event of its own). Some releases listed the ranks that *had* submitted a
tensor, ``Stalled ops: <tensor> [ready ranks: 5, 6, 3, 1, 4, 0]``: the rank waited for is the
first one below the highest ready rank that is not among them (one above it cannot be seen).

horovodrun's Gloo launcher says when a worker exited non-zero: ``Process 2 exit with
status code 1.`` (the worker's index is its rank).
"""

import re

from parsers.base import Pattern

SOURCE = "horovod"


def _first_listed(message: str) -> dict[str, str]:
    """``peer_rank``: the first rank the warning's list below it names (none where the
    list was not printed or pasted).

    Each entry is a rank and the tensors the others submitted and it did not. Ranks that are
    merely late all lack the same tensors; ranks that lack *different* ones each submitted a
    tensor the others did not: they run different collectives (``stall_mismatch``), a
    deadlock no wait resolves. Where one rank's list differs from all the others', which agree
    (at least two), that rank is the one out of step (``odd_rank``)."""
    listed = re.search(r"(?:Missing|Stalled) ranks:\s*\n(\d+)!?: \[", message)
    if not listed:
        return {}
    out = {"peer_rank": listed.group(1)}
    entries = re.findall(r"^(\d+)!?: \[([^\]\n]*)\]", message[listed.start():], re.M)
    lists: dict[frozenset[str], list[str]] = {}
    for rank, tensors in entries:
        names = frozenset(t.strip() for t in tensors.split(",") if t.strip() not in ("", "..."))
        lists.setdefault(names, []).append(rank)
    # disjoint lists, not merely different ones: a rank further behind than another lacks
    # more of the same tensors
    sets = list(lists)
    if any(a and b and a.isdisjoint(b) for i, a in enumerate(sets) for b in sets[i + 1:]):
        out["stall_mismatch"] = "yes"
        alone = [ranks[0] for ranks in lists.values() if len(ranks) == 1]
        if len(lists) == 2 and len(alone) == 1 and len(entries) >= 3:
            out["odd_rank"] = alone[0]
    return out


def _first_not_ready(message: str) -> dict[str, str]:
    """``peer_rank``: the lowest rank below the highest ready one that no tensor lists as
    ready (every ready list of the message counted)."""
    ready: set[int] = set()
    for listed in re.findall(r"\[ready ranks: (\d+(?:, \d+)*)\]", message):
        ready.update(int(r) for r in listed.split(", "))
    missing = [r for r in range(max(ready, default=0)) if r not in ready]
    return {"peer_rank": str(missing[0])} if missing else {}

PATTERNS = (
    Pattern(
        "horovod.stall_warning",
        triggers=("were submitted to be reduced, gathered or broadcasted by subset of ranks",),
        regex=r"One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks",
        source=SOURCE,
        level="WARNING",
        post=_first_listed,
        examples=("[2019-10-09 15:36:43.594972: W horovod/common/stall_inspector.cc:105] One or more tensors were "
                  "submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for remainder "
                  "of ranks for more than 60 seconds.",),
    ),
    Pattern(
        "horovod.stalled_rank",
        triggers=(": [",),
        # (its header with it where the paste cut the warning above)
        regex=(r"^(?:(?:Missing|Stalled) ranks:[ \t]*\n)?(?P<peer_rank>\d+)!?: "
               r"\[(?P<tensor>[^\],\s]+)(?:, [^\],\s]+)*(?: \.\.\.)?\][ \t]*(?:\n|$)"),
        source=SOURCE,
        level="WARNING",
        examples=("2: [global_tensor_horovod_sum_have_data/HorovodAllreduce_globals_horovod_have_more_data_0, "
                  "global_tensor_horovod_sum_have_error/HorovodAllreduce_globals_horovod_have_error_0]",
                  "0!: [DistributedSGD_Allreduce/cond/HorovodAllreduce_grads_0]"),
        near_misses=("2: [rank2]: Traceback (most recent call last):", "3: [INFO] epoch 1 done"),
    ),
    Pattern(
        "horovod.ready_ranks",
        triggers=("[ready ranks: ",),
        regex=r"(?P<tensor>\S+) \[ready ranks: (?P<ready_ranks>\d+(?:, \d+)*)\]",
        source=SOURCE,
        level="WARNING",
        post=_first_not_ready,
        examples=("Stalled ops: HorovodBroadcast_conv1_weights_0 [ready ranks: 5, 6, 3, 1, 4, 0],",),
    ),
    Pattern(
        "horovod.worker_exit",
        triggers=("exit with status code",),
        regex=r"^Process (?P<failed_rank>\d+) exit with status code (?P<exitcode>-?[1-9]\d*)\.?\s*$",
        source=SOURCE,
        level="ERROR",
        examples=("Process 2 exit with status code 1.",),
        near_misses=("Process 2 exit with status code 0.",),
    ),
    Pattern(
        "horovod.missing_ranks",
        triggers=("[missing ranks: ",),
        regex=r"(?P<tensor>\S+) \[missing ranks: (?P<peer_rank>\d+)(?P<more_missing>(?:, \d+)*)\]",
        source=SOURCE,
        level="WARNING",
        examples=(
            "[1,0]<stderr>:[2019-04-13 13:53:31.851506: W horovod/common/operations.cc:588] "
            "HorovodBroadcast_dense_1_bias_Momentum_0 [missing ranks: 1]",
            "W horovod/common/operations.cc:588] HorovodAllreduce_grads_0 [missing ranks: 2, 5]",
        ),
    ),
)
