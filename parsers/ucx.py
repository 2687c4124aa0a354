"""UCX (the communication layer under Open MPI's pml/ucx, and under NCCL's UCX plugin): its
own error lines, prefixed ``[host:pid:thread_index:tid]`` (``ucs/debug/log.c``). The InfiniBand
transport's completion errors name the device and port they happened on
(``uct/ib/mlx5/ib_mlx5_log.c``)::

    [r14g04:78340:0:78340] ib_mlx5_log.c:139  Transport retry count exceeded on mlx5_1:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)
"""

from parsers.base import Pattern

SOURCE = "ucx"

PATTERNS = (
    Pattern(
        "ucx.ib_error",
        triggers=("ib_mlx5_log.c:", "ib_log.c:"),
        regex=(r"(?:^\[(?P<host>[\w.-]+):\d+:\d+:\d+\]\s+)?ib_(?:mlx5_)?log\.c:\d+\s+(?P<ucx_error>[^\n]+?)"
               r" on (?P<ib_device>\w+:\d+)/IB"),
        source=SOURCE,
        level="ERROR",
        examples=(
            "[r14g04:78340:0:78340] ib_mlx5_log.c:139  Transport retry count exceeded on mlx5_1:1/IB "
            "(synd 0x15 vend 0x81 hw_synd 0/0)",
            "[node-b:1201:0:1201] ib_mlx5_log.c:143  Remote access error on mlx5_0:1/IB (synd 0x13 vend 0x88)",
        ),
    ),
)
