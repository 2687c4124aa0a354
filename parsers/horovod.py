"""Horovod's coordinator (rank 0): the ranks a collective still waits for.

Horovod < 0.19 printed, per stalled tensor, ``<tensor> [missing ranks: 1, 3]`` from
horovod/common/operations.cc after 60 s; the ranks named are the ones the others wait for.
Its later stall inspector (horovod/common/stall_inspector.cc) warns that tensors were submitted
by a subset of ranks, then prints ``Stalled ranks:`` and ``<rank>: [<tensors>]`` lines, which a
line-based reader cannot tell from an ``srun --label`` prefix: the warning is read (a collective
stalled), the ranks it lists are not.

horovodrun's Gloo launcher says when a worker exited non-zero: ``Process 2 exit with
status code 1.`` (the worker's index is its rank).
"""

from parsers.base import Pattern

SOURCE = "horovod"

PATTERNS = (
    Pattern(
        "horovod.stall_warning",
        triggers=("were submitted to be reduced, gathered or broadcasted by subset of ranks",),
        regex=r"One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks",
        source=SOURCE,
        level="WARNING",
        examples=("[2019-10-09 15:36:43.594972: W horovod/common/stall_inspector.cc:105] One or more tensors were "
                  "submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for remainder "
                  "of ranks for more than 60 seconds.",),
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
