"""Horovod's coordinator (rank 0): the ranks a collective still waits for.

Horovod < 0.19 printed, per stalled tensor, ``<tensor> [missing ranks: 1, 3]`` from
horovod/common/operations.cc after 60 s; the ranks named are the ones the others wait for.
(Its later stall inspector prints ``Stalled ranks:`` and then ``<rank>: [<tensors>]`` lines,
which a line-based reader cannot tell from an ``srun --label`` prefix: not read here.)
"""

from parsers.base import Pattern

SOURCE = "horovod"

PATTERNS = (
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
