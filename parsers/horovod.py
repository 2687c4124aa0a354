"""Horovod's coordinator (rank 0): the ranks a collective still waits for.

Horovod < 0.19 printed, per stalled tensor, ``<tensor> [missing ranks: 1, 3]`` from
horovod/common/operations.cc after 60 s; the ranks named are the ones the others wait for.
(Its later stall inspector prints ``Stalled ranks:`` and then ``<rank>: [<tensors>]`` lines,
which a line-based reader cannot tell from an ``srun --label`` prefix: not read here.)

horovodrun's Gloo launcher says when a worker exited non-zero: ``Process 2 exit with
status code 1.`` (the worker's index is its rank).
"""

from parsers.base import Pattern

SOURCE = "horovod"

PATTERNS = (
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
