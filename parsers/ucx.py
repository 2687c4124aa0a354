"""UCX (the communication layer under Open MPI's pml/ucx, and under NCCL's UCX plugin): its
own error lines, prefixed ``[host:pid:thread_index:tid]`` (``ucs/debug/log.c``). The InfiniBand
transport's completion errors name the device and port they happened on
(``uct/ib/mlx5/ib_mlx5_log.c``)::

    [r14g04:78340:0:78340] ib_mlx5_log.c:139  Transport retry count exceeded on mlx5_1:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)
"""

from parsers.base import Pattern

SOURCE = "ucx"

PATTERNS = (
    # UCX's own log records at ERROR or FATAL (ucs_log_default_handler:
    # "[<epoch>.<us>] [host:pid:thread] file.c:line  UCX  LEVEL msg"): a transport that could not
    # connect, register memory or reach a peer, printed before the MPI or NCCL layer fails
    Pattern(
        "ucx.log_error",
        triggers=("UCX  ERROR", "UCX  FATAL", "UCX ERROR", "UCX FATAL"),
        regex=(r"(?:\[[\d.]+\]\s+)?\[(?P<host>[\w.-]+):\d+(?::\d+)?\]\s+\S+\.c:\d+\s+UCX\s+"
               r"(?:ERROR|FATAL)\s+(?P<ucx_error>[^\n]+)"),
        source=SOURCE,
        level="ERROR",
        examples=(
            "[1746051351.812265] [gcp5-sdc-3:1950659:0]            sock.c:334  UCX  ERROR   connect(fd=168, "
            "dest_addr=169.254.4.6:52595) failed: Connection refused",
            "[1698402811.226745] [node07:22841:0]         ib_iface.c:966  UCX  ERROR   ibv_create_cq(cqe=4096) "
            "failed: Cannot allocate memory",
        ),
        near_misses=("[node07:22841:0]  parser.c:1885 UCX  WARN  unused environment variable: UCX_IB_GID",),
    ),
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
