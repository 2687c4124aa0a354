"""PyTorch distributed (c10d): ProcessGroupNCCL/Gloo, watchdog, TCPStore; docs/formats/pytorch-c10d.md.

``[Rank N]`` / ``[PG ... Rank N]`` inside these messages is the rank *within the
process group*, so it is kept as ``pg_rank`` and never fills the global rank.
"""

from parsers.base import Pattern

SOURCE = "c10d"

_PG = r"\[(?:(?P<pg>PG [^\]]*?) )?Rank (?P<pg_rank>\d+)\]"
_C10D_FILES = (
    "ProcessGroupNCCL", "ProcessGroupGloo", "ProcessGroupWrapper", "TCPStore", "socket.cpp",
    "NCCLUtils", "TraceUtils", "Utils.hpp", "FlightRecorder", "Backend.cpp", "reducer.cpp",
    "TCPStoreLibUvBackend",
)


def _fingerprint(prefix: str) -> str:
    """``CollectiveFingerPrint(...)`` as ProcessGroupWrapper prints it, its fields as
    ``<prefix>seq``, ``op``, ``shape`` (the first tensor's), ``dtype``, the whole as
    ``<prefix>fingerprint``. TensorDeviceTypes nests parentheses two deep
    (``TensorOptions(dtype=float (default), ..., memory_format=(nullopt))``); the
    short form has no comma (``SequenceNumber=1OpType=BARRIER``), torch 1.x no
    SequenceNumber; a message cut short keeps the fields before the cut."""
    nested = r"(?:[^()]|\((?:[^()]|\([^()]*\))*\))*"
    return (
        rf"CollectiveFingerPrint\((?P<{prefix}fingerprint>"
        rf"(?:SequenceNumber=(?P<{prefix}seq>\d+),? ?)?OpType=(?P<{prefix}op>\w+)"
        rf"(?:, TensorShape=\[(?P<{prefix}shape>[^\]]*)\])?"
        rf"(?:, TensorDtypes=(?P<{prefix}dtype>[^()]*?)(?:, TensorDeviceTypes={nested}|$))?"
        r")\)?"
    )


PATTERNS = (
    # init_process_group's store barrier while it waits (older releases, logged at INFO): the
    # ranks that have arrived (worker_count) against the group's size
    Pattern(
        "c10d.store_barrier_waiting",
        triggers=("Waiting in store based barrier",),
        regex=(r"Waiting in store based barrier to initialize process group for rank: (?P<barrier_rank>\d+), "
               r"key: \S+ \(world_size=(?P<world_size>\d+), worker_count=(?P<worker_count>\d+)"),
        source=SOURCE,
        examples=("Waiting in store based barrier to initialize process group for rank: 0, key: store_based_barrier_key:1 "
                  "(world_size=2, worker_count=3, timeout=0:30:00)",),
    ),
    # DDP's construction compares every rank's parameter count (_verify_param_shape_across_processes):
    # each rank names the first peer whose count differs from its own, so the rank that built
    # another model is the one the others name
    Pattern(
        "c10d.ddp_model_mismatch",
        triggers=("DDP expects same model across all ranks",),
        regex=(r"DDP expects same model across all ranks, but Rank (?P<reporting_rank>\d+) has (?P<own_params>\d+) "
               r"params, while rank (?P<inconsistent_rank>\d+) has inconsistent (?P<peer_params>\d+) params"),
        source=SOURCE,
        level="ERROR",
        examples=(
            "RuntimeError: DDP expects same model across all ranks, but Rank 0 has 4 params, while rank 1 has "
            "inconsistent 6 params.",
            "[rank3]: RuntimeError: DDP expects same model across all ranks, but Rank 3 has 170 params, while rank 0 "
            "has inconsistent 171 params.",
        ),
    ),
    # the same check's shape comparison (c10d's verify_params_across_processes): each process
    # compares its parameters' sizes with process 0's, so the ranks that raise it are the ones
    # whose model differs from rank 0's
    Pattern(
        "c10d.ddp_param_shape_mismatch",
        triggers=("appears not to match sizes of the same param in process",),
        regex=(r"\[(?P<reporting_rank>\d+)\]: params\[(?P<param_index>\d+)\] in this process with sizes "
               r"\[(?P<own_sizes>[^\]]*)\] appears not to match sizes of the same param in process "
               r"(?P<reference_rank>\d+)"),
        source=SOURCE,
        level="ERROR",
        examples=(
            "RuntimeError: [3]: params[0] in this process with sizes [128, 16] appears not to match sizes of the "
            "same param in process 0.",
        ),
    ),
    # DDP's reducer names the rank whose parameters got no gradient, its own (reducer.cpp:
    # "Parameter indices which did not receive grad for rank 3: 444 445"), inside the
    # RuntimeError every such rank raises
    Pattern(
        "c10d.ddp_unused_parameters",
        triggers=("did not receive grad for rank",),
        regex=r"Parameter indices which did not receive grad for rank (?P<rank>\d+):",
        fills={"rank": "rank"},
        source=SOURCE,
        level="ERROR",
        examples=(
            "RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. "
            "This error indicates that your module has parameters that were not used in producing loss.\n"
            "Parameter indices which did not receive grad for rank 2: 10 11",
        ),
    ),
    Pattern(
        "c10d.cpp_log",
        envelope=True,
        triggers=tuple(f"{f}" for f in _C10D_FILES),
        regex=(
            r"^\[?(?P<lvl>[EWIF])(?:\d{3,4} \d\d:\d\d:\d\d\.\d+(?: \d+)?)? ?"
            r"(?P<cpp_src>(?:[\w/.-]*/)?\w+\.(?:cpp|hpp|h|cc):\d+)\]"
        ),
        source=SOURCE,
        examples=(
            "[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout",
            "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout",
            "E0927 12:07:22.643702 1012209 ProcessGroupNCCL.cpp:1356] [PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL preparing to dump debug info.",
        ),
    ),
    Pattern(
        "c10d.watchdog_timeout",
        triggers=("Watchdog caught collective operation timeout",),
        regex=(
            # a paste wrapped or cut right after "timeout:" is still the watchdog's report
            _PG + r" Watchdog caught collective operation timeout(?:: WorkNCCL\(SeqNum=(?P<seq_num>\d+), "
            r"OpType=(?P<op_type>\w+)(?:, NumelIn=(?P<numel_in>\d+), NumelOut=(?P<numel_out>\d+))?, "
            r"Timeout\(ms\)=(?P<timeout_ms>\d+)\) ran for (?P<ran_for_ms>\d+) milliseconds|:\s*$)"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "[rank1]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, NumelIn=9801523, NumelOut=9801523, Timeout(ms)=600000) ran for 600020 milliseconds before timing out.",
            "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802212 milliseconds before timing out.",
        ),
    ),
    Pattern(
        "c10d.watchdog_exception",
        triggers=("detected by watchdog at work:", "Exception (either an error or timeout) detected"),
        regex=(
            _PG + r" Exception \(either an error or timeout\) detected(?: by watchdog at work: "
            r"(?P<seq_num>-?\d+), last enqueued NCCL work: (?P<last_enqueued>-?\d+), "
            r"last completed NCCL work: (?P<last_completed>-?\d+))?"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "[rank4]:[E318 07:39:53.792772442 ProcessGroupNCCL.cpp:1785] [PG ID 2 PG GUID 9 Rank 4] Exception (either an error or timeout) detected by watchdog at work: 610, last enqueued NCCL work: 616, last completed NCCL work: 609.",
        ),
    ),
    Pattern(
        "c10d.timeout_at_work",
        triggers=("Timeout at NCCL work:",),
        regex=(
            _PG + r" Timeout at NCCL work: (?P<seq_num>-?\d+), last enqueued NCCL work: "
            r"(?P<last_enqueued>-?\d+), last completed NCCL work: (?P<last_completed>-?\d+)"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "[rank10]:[E ProcessGroupNCCL.cpp:1537] [PG 1 Rank 10] Timeout at NCCL work: 15734, last enqueued NCCL work: 15735, last completed NCCL work: 15733.",
        ),
    ),
    Pattern(
        "c10d.failure_detected",
        triggers=("failure detected by watchdog at work sequence id",),
        regex=(
            _PG + r"\s+failure detected by watchdog at work sequence id: (?P<seq_num>-?\d+) "
            r"PG status: last enqueued work: (?P<last_enqueued>-?\d+), last completed work: (?P<last_completed>-?\d+)"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "[rank0]:[E1213 17:24:49.082111648 ProcessGroupNCCL.cpp:2241] [PG ID 0 PG GUID 0(default_pg) Rank 0]  failure detected by watchdog at work sequence id: 716 PG status: last enqueued work: 747, last completed work: 715",
        ),
    ),
    Pattern(
        "c10d.dump_signal",
        triggers=(
            "Received a dump signal", "First PG on this rank to signal dumping",
            "Observed flight recorder dump signal", "preparing to dump debug info",
        ),
        regex=(
            r"(?:Received a dump signal due to a collective timeout from\s+(?P<dump_from>this local rank|rank \d+)"
            r"|(?P<first_to_dump>First PG on this rank to signal dumping)"
            r"|(?P<observed_dump>Observed flight recorder dump signal from another rank)"
            r"|(?P<preparing_dump>ProcessGroupNCCL preparing to dump debug info))"
        ),
        source=SOURCE,
    ),
    # After a collective timed out, the watchdog waits a bounded time for the flight recorder's
    # dump (TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC) and says so when the wait ran out: a rank that
    # prints it had a timeout of its own (ProcessGroupNCCL.cpp's waitForFutureOrTimeout)
    Pattern(
        "c10d.dump_wait_timeout",
        triggers=("flight recorder dumps to finish",),
        regex=r"timed out after waiting for (?P<dump_wait_ms>\d+)ms flight recorder dumps to finish",
        source=SOURCE,
        level="WARNING",
        examples=(
            "[rank3]:[W602 11:18:52.489301002 ProcessGroupNCCL.cpp:2111] [PG ID 1 PG GUID 1 Rank 3] timed out after "
            "waiting for 60000ms flight recorder dumps to finish.",
        ),
    ),
    Pattern(
        "c10d.blocking_wait_timeout",
        triggers=("timed out in blocking wait",),
        regex=r"Work WorkNCCL\(SeqNum=(?P<seq_num>\d+), OpType=(?P<op_type>\w+).*?Timeout\(ms\)=(?P<timeout_ms>\d+)\) timed out in blocking wait",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "c10d.watchdog_stuck",
        triggers=("watchdog got stuck for",),
        regex=r"watchdog got stuck for (?P<stuck_s>\d+) seconds",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "c10d.taking_process_down",
        triggers=("we are taking the entire process down",),
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "c10d.nccl_error",
        # (`NCCL error in: <file>:<line>,`; some builds print no colon after "in", as in PyTorch
        # 1.5's "NCCL error in ProcessGroupNCCL.cpp:290, unhandled system error" of issue 37004)
        triggers=("NCCL error in", "NCCL error: "),
        regex=(
            r"NCCL error(?: in:? (?P<where>\S+),|:) (?P<nccl_error>[^,\n]+?)(?: \(run with [^)]*\))?"
            # (a paste may wrap the line before "version": the message's own lines follow it)
            r"(?: - please report this issue to the NCCL developers)?,\s+NCCL\s*version (?P<nccl_version>[\d.]+)"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, remote process exited or there was a network error, NCCL version 2.21.5",
            "  what():  NCCL error: unhandled system error, NCCL version 2.14.3",
            "[rank9]: torch.distributed.DistBackendError: NCCL error in /opt/src/pytorch/torch/csrc/distributed/c10d/"
            "NCCLUtils.cpp:77, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.6",
        ),
    ),
    Pattern(
        "c10d.socket_connect_failed",
        triggers=("The client socket has failed to connect", "The client socket has timed out after"),
        regex=r"The client socket has (?:failed to connect to (?:any network address of )?|timed out after (?P<timeout>\S+) while trying to connect to )(?P<peer>.+?)\.?(?: \(errno: (?P<errno>\d+) - (?P<error_text>[^)]*)\))?\.?$",
        source=SOURCE,
        level="ERROR",
        examples=(
            "[E socket.cpp:860] [c10d] The client socket has timed out after 60s while trying to connect to 192.0.0.1:1234",
        ),
    ),
    Pattern(
        "c10d.tcpstore_connect_timeout",
        triggers=("TCP client failed to connect/validate to host",),
        regex=r"to host (?P<peer>\S+?):(?P<port>\d+) - timed out \(try=(?P<try>\d+), timeout=(?P<timeout_ms>\d+)ms\)",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "c10d.store_gone",
        triggers=(
            'Failed to check the "should dump" flag on TCPStore', "sendBytes failed on",
            "recvValue failed on", "Read callback failed",
        ),
        regex=r"(?:remote=\[?(?P<peer>[^\]\s]*)\]?:(?P<port>\d+)\)?)?: ?(?P<error_text>Broken pipe|Connection reset by peer|end of file)?",
        source=SOURCE,
    ),
    Pattern(
        "c10d.collective_mismatch",
        triggers=("Detected mismatch between collectives on ranks",),
        regex=(
            r"Detected mismatch between collectives on ranks\. Rank (?P<peer_rank>\d+) is running "
            r"(?:inconsistent )?collective: " + _fingerprint("")
            + r"(?:, but Rank (?P<other_rank>\d+) is running (?:inconsistent )?collective: " + _fingerprint("other_") + ")?"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "  RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: CollectiveFingerPrint(SequenceNumber=1OpType=BARRIER), but Rank 2 is running collective: CollectiveFingerPrint(SequenceNumber=0OpType=BARRIER).Collectives di",
            # sample_logs/collective-mismatch-detail/rank0.log (torch 2.13, gloo); values in
            # tests/test_c10d_fingerprint.py
            "[rank0]: RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=43, OpType=ALLREDUCE, TensorShape=[], TensorDtypes=Float, TensorDeviceTypes=TensorOptions(dtype=float (default), device=cpu, layout=Strided (default), requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))), but Rank 3 is running collective: CollectiveFingerPrint(SequenceNumber=43, OpType=ALLGATHER, TensorShape=[], TensorDtypes=Float, TensorDeviceTypes=TensorOptions(dtype=float (default), device=cpu, layout=Strided (default), requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))).Collectives differ in the following aspects:   Op type: ALLREDUCEvs ALLGATHER",
        ),
    ),
    Pattern(
        "c10d.desync_report",
        triggers=("are the lagging ranks that caused this timeout", "the lagging/dead/mismatched ranks that caused the desync"),
        # (the first list the report gives: "[2] joined but didn't finish collective #12", or "[7] finished
        # collective #182, but didn't join collective #183" where no rank is stuck inside one)
        regex=(r"\[(?P<lagging_ranks>[\d, ]+)\] (?:are the lagging ranks"
               r"|(?:joined but didn't finish|finished) collective #(?P<lag_seq>\d+))"),
        source=SOURCE,
        level="ERROR",
        examples=(
            "         - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:\n"
            "             [7] finished collective #182, but didn't join collective #183 (count from 1)",
        ),
    ),
    Pattern(
        "c10d.monitored_barrier_failed",
        triggers=("failed to pass monitoredBarrier",),
        regex=r"Rank (?P<peer_rank>\d+) failed to pass monitoredBarrier in (?P<timeout_ms>\d+) ms",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "c10d.gloo_timeout",
        triggers=("Timed out waiting",),
        regex=r"\[(?P<gloo_src>[^\]]*gloo[^\]]*)\] Timed out waiting (?P<timeout_ms>\d+)ms for (?P<op>\w+) operation to complete",
        source=SOURCE,
        level="ERROR",
        examples=(
            "[rank2]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete",
        ),
    ),
    # ProcessGroupGloo's set-up: every rank connects a TCP pair to every other at the
    # address its device bound ("Gloo connectFullMesh failed with <gloo's error>", logged at
    # E and raised); a rank whose hostname resolves to no usable address binds loopback,
    # with a TORCH_WARN_ONCE first (torch/csrc/distributed/c10d/ProcessGroupGloo.cpp)
    Pattern(
        "c10d.gloo_connect_failed",
        triggers=("Gloo connectFullMesh failed with",),
        regex=r"Gloo connectFullMesh failed with (?P<error_text>.*)",
        source=SOURCE,
        level="ERROR",
        examples=(
            "[rank8]:[E ProcessGroupGloo.cpp:144] Gloo connectFullMesh failed with "
            "[../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error",
            "[E ProcessGroupGloo.cpp:138] Gloo connectFullMesh failed with Connection reset by peer",
        ),
    ),
    Pattern(
        "c10d.gloo_loopback_fallback",
        triggers=("Using the loopback address as fallback",),
        regex=r"Unable to resolve hostname to a \(local\) address\. Using the loopback address as fallback",
        source=SOURCE,
        level="WARNING",
        examples=(
            "[rank0]:[W427 03:10:15.652192062 ProcessGroupGloo.cpp:715] Warning: Unable to resolve hostname to a "
            "(local) address. Using the loopback address as fallback. Manually set the network interface to bind "
            "to with GLOO_SOCKET_IFNAME. (function operator())",
        ),
    ),
    Pattern(
        "c10d.gloo_peer_closed",
        triggers=("Connection closed by peer", "Connection reset by peer"),
        regex=r"(?:\[(?P<gloo_src>[^\]]*)\] )?(?P<error_text>Connection (?:closed|reset) by peer)(?: \[?(?P<peer>[^\]\s]+)\]?:(?P<peer_port>\d+))?",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        # A TCPStore key wait that ran out (init_process_group, a barrier on the
        # store): the keys a rank waited for. A rank-scoped key's last component
        # is the rank that never wrote it (``/default_pg/0//cpu//0/2``).
        "c10d.store_wait_timeout",
        triggers=("wait timeout after",),
        regex=r"wait timeout after (?P<timeout_ms>\d+)ms, keys: (?P<keys>\S+)",
        source=SOURCE,
        level="ERROR",
        examples=(
            "torch.distributed.DistStoreError: wait timeout after 10000ms, keys: /default_pg/0//cpu//0/1",
        ),
    ),
    Pattern(
        "c10d.dist_backend_error",
        envelope=True,
        triggers=("DistBackendError", "DistNetworkError", "DistStoreError"),
        # c10 as c[0-9]{2}: a pattern that names a digit cannot run on digit shapes
        # (correlator.timeline.shapes), and every rank's "terminate called after throwing an
        # instance of 'c10::DistBackendError'" went line by line (~8 ms a rank log)
        regex=r"(?P<exc_type>torch\.distributed\.\w+|c[0-9]{2}::\w+)",
        source=SOURCE,
        level="ERROR",
    ),
    # Printed by ProcessGroup's destructor as the interpreter exits: the process got
    # to its end (ProcessGroupNCCL.cpp, torch >= 2.4; real lines in public threads,
    # e.g. NVIDIA/Megatron-LM and pytorch/pytorch issues quoting torch 2.4-2.7).
    Pattern(
        "c10d.exit_without_destroy",
        triggers=("destroy_process_group() was not called before program exit",
                  "has NOT been destroyed before it is being destructed"),
        source=SOURCE,
        level="WARNING",
        examples=(
            "[rank1]:[W326 09:37:44.752383442 ProcessGroupNCCL.cpp:1487] Warning: WARNING: destroy_process_group() "
            "was not called before program exit, which can leak resources. For more info, please see "
            "https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())",
        ),
    ),
    # the watchdog's note, at INFO, that the process group it checks was shut down (the program's
    # destroy_process_group() or abort at its end): the error it "found" is the shutdown itself
    Pattern(
        "c10d.process_group_shutdown",
        triggers=("Process Group shutdown on rank",),
        regex=r"^\[?I[\d :.]*[^\]]*ProcessGroupNCCL\.cpp:\d+\][^\n]*error set by ProcessGroupNCCL: Process Group shutdown on rank (?P<shutdown_rank>\d+)",
        source=SOURCE,
        level="INFO",
        examples=(
            "I0228 14:05:56.114109 1619334 ProcessGroupNCCL.cpp:484] [Rank 3] found async exception when checking for "
            "NCCL errors: NCCL communicator encountered error set by ProcessGroupNCCL: Process Group shutdown on rank 3",
        ),
        near_misses=(
            "E0228 14:05:56.114109 1619334 ProcessGroupNCCL.cpp:484] [Rank 3] found async exception when checking for "
            "NCCL errors: NCCL communicator encountered error set by ProcessGroupNCCL: Process Group shutdown on rank 3",
        ),
    ),
)
