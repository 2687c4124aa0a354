"""NCCL debug output (``NCCL_DEBUG=INFO|WARN``): see docs/formats/nccl.md.

The ``host:pid:tid [dev]`` header is parsed for every NCCL line; ``[dev]`` is the
CUDA device of the calling thread, not a rank. Ranks appear only inside init
lines (``comm ... rank N nranks M``), which ``correlator.ingest.attribute`` joins back
to every line of the same host and pid.
"""

from parsers.base import Pattern

SOURCE = "nccl"

_HEADER = (
    r"^(?:\[[^\]]*\] )?(?P<host>[^\s:\[\]]+):(?P<pid>\d+):(?P<tid>\d+)"
    r"(?: \[(?P<cuda_dev>\d+)\])?(?: [\d.]+)?(?: (?P<nccl_src>[\w./+-]+:\d+)(?: \([^)]*\))?)?"
    r" NCCL (?P<lvl>INFO|WARN|CALL|TRACE)\b"
)

PATTERNS = (
    # nccl-tests' own check of an NCCL or CUDA call (src/common.h NCCLCHECK / CUDACHECK:
    # "%s: Test NCCL failure %s:%d '%s'" with the host name and ncclGetErrorString): the
    # result class is the nccl_error the NCCL result rules read, as in torch's wrapper
    Pattern(
        "nccl.tests_failure",
        triggers=("Test NCCL failure", "Test CUDA failure"),
        regex=(r"Test (?:NCCL failure [\w./-]+:\d+ '(?P<nccl_error>[^'(]+?)(?: \([^']*\))?'"
               r"|CUDA failure [\w./-]+:\d+ '(?P<cuda_error>[^']+)')"),
        source=SOURCE,
        level="ERROR",
        examples=(
            "host3: Test NCCL failure common.cu:1125 'unhandled system error'",
            "gpu-7: Test NCCL failure common.cu:958 'unhandled system error (run with NCCL_DEBUG=INFO for details)'",
            "node1: Test CUDA failure common.cu:892 'out of memory'",
        ),
    ),
    Pattern(
        "nccl.line",
        envelope=True,
        triggers=(" NCCL INFO", " NCCL WARN", " NCCL CALL", " NCCL TRACE"),
        regex=_HEADER,
        source=SOURCE,
        fills={"pid": "pid"},
        examples=(
            "PHLRR4036:24141:24296 [2] ib_plugin.c:978 NCCL WARN NET/IB : Got completion from peer 10.226.98.98<48598> with error 12, opcode 0, len 0, vendor err 129",
            "[2026-05-05 06:16:47] node-01:189884:189884 [3] plugin/net.cc:334 NCCL WARN Failed to initialize any NET plugin",
            "node-01:986207:986207 NCCL CALL ncclGroupStart()",
        ),
        near_misses=("NCCL INFO without a header",),
    ),
    # the NCCL network plugin for AWS EFA (aws-ofi-nccl) logging through its tests' and tools'
    # own logger, which prints NCCL's levels as `printf("WARN: Function: %s Line: %d: ", ...)`
    # (tests/functional, every release since 2019): the plugin's WARN is NCCL's WARN
    Pattern(
        "nccl.ofi_plugin_line",
        envelope=True,
        triggers=(": Function: ",),
        # (the function is C's __func__ in old releases, C++'s __PRETTY_FUNCTION__ in new ones:
        # "int main(int, char**)")
        regex=r"^(?P<lvl>WARN|INFO|TRACE): Function: (?P<ofi_function>[^\n]{1,200}?) Line: \d+: ",
        source=SOURCE,
        examples=(
            "WARN: Function: create_nccl_ofi_component Line: 459: NET/OFI Couldn't open AV. RC: -22, ERROR: Invalid argument",
            "INFO: Function: ofi_init Line: 686: NET/OFI Selected Provider is efa",
            # (a C++ release's function as __PRETTY_FUNCTION__ writes it; tests/functional's logger)
            "WARN: Function: int main(int, char**) Line: 112: NET/OFI OFI call failed with RC -61, No data available",
        ),
        near_misses=("Error in Function: main Line: 12: oops", "WARN: Function main Line: 4: no colon"),
    ),
    # a line whose paste (or a log service) lost NCCL's host:pid:tid head but kept its source
    # location: "graph/topo.h:230 NCCL WARN Could not find NET with id 0"
    Pattern(
        "nccl.line_headless",
        envelope=True,
        # (its WARN lines only: an INFO line says nothing of a failure, and INFO is most of NCCL's output)
        triggers=(" NCCL WARN",),
        regex=r"^(?P<nccl_src>[\w./+-]+\.(?:cc|cu|c|cpp|h|hpp):\d+) NCCL (?P<lvl>WARN)\b",
        source=SOURCE,
        examples=("graph/topo.h:230 NCCL WARN Could not find NET with id 0",),
        near_misses=("see NCCL WARN lines above", "misc/x.cc NCCL WARN no line number"),
    ),
    Pattern(
        # NCCL 2.1-2.2 (2018) printed the level without the word NCCL, and its sources
        # were .cu files: `host:pid:tid [dev] INFO ...`, `host:pid:tid [dev] misc/ibvwrap.cu:60
        # WARN ...` (horovod/horovod#243). The device bracket is required here: without the
        # NCCL word it is what tells the header from any `name:1:2 INFO` text.
        "nccl.line_legacy",
        envelope=True,
        triggers=("] INFO ", "] WARN ", ".cu:"),
        regex=(r"^(?:\[[^\]]*\] )?(?P<host>[^\s:\[\]]+):(?P<pid>\d+):(?P<tid>\d+) \[(?P<cuda_dev>\d+)\]"
               r"(?: (?P<nccl_src>[\w./+-]+\.cu:\d+))? (?P<lvl>INFO|WARN)\b"),
        source=SOURCE,
        fills={"pid": "pid"},
        examples=(
            "062fc37504b7:350:457 [0] misc/ibvwrap.cu:60 WARN Failed to open libibverbs.so[.1]",
            "062fc37504b7:351:461 [1] INFO NET : Using interface eth0:172.17.0.3<0>",
        ),
        near_misses=("[2024-01-05 10:00:01] INFO starting epoch 3", "worker:12:34 INFO no device bracket"),
    ),
    Pattern(
        "nccl.version",
        triggers=("NCCL version ",),
        # the version banner itself, bare or as an INFO line; not "..., NCCL version 2.21.5"
        # at the end of a torch error message
        regex=r"(?:^|NCCL INFO )NCCL version (?P<nccl_version>\d+\.\d+\.\d+[^\s,]*)",
        source=SOURCE,
        examples=("NCCL version 2.13.4+cuda11.7",),
        near_misses=(
            "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, remote process exited or there was a network error, NCCL version 2.21.5",
        ),
    ),
    Pattern(
        "nccl.comm_init",
        triggers=("- Init COMPLETE", "- Init START"),
        regex=(
            r"comm (?P<comm>0x[0-9a-fA-F.]+) rank (?P<comm_rank>\d+) nranks (?P<nranks>\d+)"
            # NCCL 2.4 printed no busId here
            r" cudaDev (?P<cuda_dev>\d+)(?: nvmlDev \d+)?(?: busId (?P<bus_id>[0-9a-fA-FX]+))?"
            r"(?: commId (?P<comm_id>0x[0-9a-fA-F.]+))? - Init (?P<phase>START|COMPLETE)"
        ),
        source=SOURCE,
        examples=(
            "A03-R28-I49-3-9000018:193027:193119 [7] NCCL INFO comm 0x7fdf08000d00 rank 15 nranks 16 cudaDev 7 busId e7000 - Init COMPLETE",
            "kolyoz2:25146:25827 [0] NCCL INFO ncclCommInitRank comm 0x559d5aa8ca00 rank 4 nranks 8 cudaDev 0 nvmlDev 0 busId 42000 commId 0x996ee6f117cb8e1e - Init START",
            # horovod/horovod#1122 (NCCL 2.4, under mpirun's [1,5]<stdout>: prefix)
            "mlc-cluster-23:3072:3085 [2] NCCL INFO comm 0x7f102434d0c0 rank 5 nranks 6 cudaDev 2 nvmlDev 2 - Init COMPLETE",
        ),
    ),
    Pattern(
        "nccl.comm_teardown",
        triggers=("- Destroy COMPLETE", "- Abort COMPLETE"),
        regex=(
            r"comm (?P<comm>0x[0-9a-fA-F.]+) rank (?P<comm_rank>\d+) nranks (?P<nranks>\d+)"
            r" cudaDev (?P<cuda_dev>\d+) busId (?P<bus_id>[0-9a-fA-FX]+) - (?P<phase>Destroy|Abort) COMPLETE"
        ),
        source=SOURCE,
        examples=(
            "liangxianchen-funasr-15wh-train-lxc0-m-0:14051:14875 [0] NCCL INFO comm 0x9f2ef80 rank 8 nranks 16 cudaDev 0 busId b000 - Abort COMPLETE",
        ),
    ),
    Pattern(
        "nccl.ib_completion_error",
        # (NCCL up to 2.12 names no peer: "NET/IB : Got completion with error 12, opcode 1, ...")
        triggers=("Got completion from peer", "Got completion with "),
        regex=(
            r"NET/IB(?:/GIN)? ?: Got completion (?:from peer (?P<peer>\S+) )?with "
            r"(?:error (?P<status>\d+)|status=(?P<status_text>[\w()]+))"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "kp-ddp-worker-0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid fd00:1148:9000:5000:4:200:3:ff22 remoteGidsfd00:1148:9000:5000:4:200:3:ff1f",
            # NVIDIA/nccl issue 426 (NCCL 2.7-era, RoCE)
            "-worker-1:946:988 [0] transport/net_ib.cc:839 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129",
        ),
    ),
    Pattern(
        "nccl.socket_error",
        triggers=("Connection closed by remote peer", "Call to recv from"),
        regex=r"(?:Connection closed by remote peer|Call to recv from) (?P<peer>\S+?)(?: failed : (?P<error_text>.*))?$",
        source=SOURCE,
        examples=(
            "socketProgressOpt: Call to recv from 172....<33759> failed : Connection reset by peer",
        ),
    ),
    Pattern(
        "nccl.error_chain",
        triggers=(" -> ",),
        regex=r"NCCL INFO (?P<nccl_src>[\w./+-]+:\d+) -> (?P<nccl_result>\d+)",
        source=SOURCE,
        examples=("PHLRR4036:24141:24296 [2] NCCL INFO proxy.cc:684 -> 2 [Proxy Thread]",),
    ),
    # rdma-core's mlx5 provider, under NCCL's (or any verbs user's) feet: a work completion
    # with an error status, then a hex dump of the CQE ("mlx5: <host>: got completion with
    # error:"); the verbs-level twin of NCCL's "NET/IB : Got completion from peer ... error"
    Pattern(
        "nccl.verbs_completion_error",
        triggers=("got completion with error",),
        # ("mlx5: " may already be gone: a "<word>: " prefix reads as pdsh's host label)
        regex=r"(?:^|mlx5: )(?P<verbs_host>[\w.-]+): got completion with error",
        source=SOURCE,
        level="ERROR",
        examples=("mlx5: host_unknown: got completion with error:",),
    ),
    Pattern(
        "nccl.mismatched_collective",
        triggers=("Mismatched collective detected",),
        regex=r"Mismatched collective detected, please check your collective calls at and around rank (?P<peer_rank>\d+)",
        source=SOURCE,
        level="ERROR",
        examples=(
            "init.cc:1247 NCCL WARN Mismatched collective detected, please check your collective calls at and around rank 39. You can use NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=COLL to see the collective logs",
        ),
    ),
)
