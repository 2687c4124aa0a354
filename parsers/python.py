"""Python logging, tracebacks and the torch errors they carry (CUDA OOM, CUDA errors).

Logging headers give the level and the logger name; the logger name decides
the source (``accelerate.*`` -> accelerate, ``transformers.*`` -> transformers,
...), see ``correlator.ingest.classify``.
"""

from parsers.base import Pattern

SOURCE = "python"

_SIZE = r"[\d.]+ [KMGT]?i?B"

PATTERNS = (
    Pattern(
        "python.logging",
        envelope=True,
        triggers=(" - DEBUG - ", " - INFO - ", " - WARNING - ", " - ERROR - ", " - CRITICAL - "),
        regex=r"^\S+ \d\d:\d\d:\d\d(?:[,.]\d+)? - (?P<lvl>[A-Z]+) - (?P<logger>\S+) - ",
        examples=("03/13/2023 10:48:18 - INFO - __main__ - Distributed environment: MULTI_GPU  Backend: nccl",),
    ),
    Pattern(
        "python.logging_basic",
        envelope=True,
        triggers=("DEBUG:", "INFO:", "WARNING:", "ERROR:", "CRITICAL:"),
        regex=r"^(?P<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL):(?P<logger>[\w.]+):",
        examples=("INFO:__main__:*** Evaluate ***",),
        near_misses=("ERROR: bad thing",),
    ),
    # A Python exception: its traceback, one whose header was cut off (a paste that
    # begins at a frame: correlator.ingest.fold starts an event there), one cut off
    # after a frame, before its exception line (no exc_type), or the exception line
    # alone. Frames are "File ..., line N, in f" (faulthandler's have no comma).
    Pattern(
        "python.traceback",
        envelope=True,
        triggers=("Traceback (most recent call last):", 'File "', "Error: ", "Exception: ", "Error:\n"),
        regex=(
            # (a log record's line may come first: logger.exception's, above a header or a frame)
            # (torch.distributed.checkpoint relays a failed rank's traceback under a header that
            # names it: "Traceback (most recent call last): (RANK 3)", printed by every rank)
            r'(?s)^(?:(?:.*Traceback \(most recent call last\):(?: \(RANK (?P<relayed_rank>\d+)\))?'
            r'|(?:[^\n]*\n){0,3}?\s*File "[^\n]*", line \d+).*\n)?'
            # the message may go on over indented lines (a wrapped paste, pydantic's field list);
            # one that is empty or ends in ":" goes on below, unindented, for a few lines
            # (fold.py's message_below: "AssertionError:" then the driver's complaint)
            r"(?P<exc_type>[A-Za-z_][\w.]*)(?:: (?P<exc_msg>[^\n]*[^:\s][ \t]*)"
            r"|:(?P<exc_msg_open>[^\n]*:)?[ \t]*(?:\n[^\n]+){1,8}|: ?[^\n]*)?"
            r"(?:\n[ \t]+[^\n]*)*\s*$"
            r'|^.*Traceback \(most recent call last\):\s*\n\s*File |^(?:[^\n]*\n){0,3}?\s*File "[^\n]*", line \d+, in '
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n    main()\nValueError: bad",
            "  File \"train.py\", line 12, in <module>\n    main()\nValueError: bad",
            "Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>",
            "  File \"train.py\", line 12, in <module>\n    main()",
            # (an interleaved console's part of a rank's traceback that begins at a caret line)
            "           ^^^^^^^^^^^\n  File \"model.py\", line 9, in build\n    assert n % pp == 0\nAssertionError: bad",
            "    return f(x)\n           ^^^^\n  File \"m.py\", line 3, in f\n    x.y\nAttributeError: 'M' object has no attribute 'y'",
            "FileExistsError: [Errno 17] File exists: '/x'",
            "ValueError:\nYou selected an invalid strategy name: `strategy=None`.",
            "AssertionError: \nThe NVIDIA driver on your system is too old (found version 10010).\n"
            "Please update your GPU driver by downloading and installing a new",
            "RuntimeError: Failed to import transformers.modeling_utils because of the following error (look up to "
            "see its traceback):\n/x/flash_attn_2_cuda.so: undefined symbol: _ZNK3c10",
            "RuntimeError: Timed out initializing process group in store based barrier on rank: 0, for key: "
            "store_based_barrier_key:1\n (world_size=8, worker_count=16, timeout=0:30:00)",
        ),
        near_misses=(
            "Traceback (most recent call last):",
            "loss went up\nValueError: bad",
            "  File \"train.py\", line 12 in <module>\n  File \"train.py\", line 3 in main",
        ),
    ),
    # the interpreter's own refusal to start: the script (or -m module) it was given is not there
    # on this machine ("python: can't open file 'train.py': [Errno 2] No such file or directory")
    Pattern(
        "python.script_not_found",
        triggers=("can't open file ",),
        regex=r"(?P<interpreter>[\w./-]*python[\w.]*): can't open file (?P<script>'[^'\n]+'|\S+): \[Errno (?P<errno>\d+)\]",
        source=SOURCE,
        level="ERROR",
        examples=("python: can't open file 'tensorflow_mnist.py': [Errno 2] No such file or directory",
                  "/usr/bin/python3: can't open file '/workspace/train.py': [Errno 2] No such file or directory"),
    ),
    Pattern(
        "python.cuda_oom",
        triggers=("CUDA out of memory",),
        regex=(
            rf"CUDA out of memory\. Tried to allocate (?P<tried_to_allocate>{_SIZE})"
            rf"(?:\.? \(?GPU (?P<gpu>\d+)(?:; (?P<capacity>{_SIZE}) total capacity| has a total capacity of (?P<capacity2>{_SIZE}))"
            rf"(?:[^\n]*? of which (?P<free>{_SIZE}) is free)?)?"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 158.00 MiB. GPU 0 has a total capacity of 23.69 GiB of which 115.69 MiB is free. Process 21422 has 23.57 GiB memory in use.",
            "RuntimeError: CUDA out of memory. Tried to allocate 12.50 MiB (GPU 0; 10.92 GiB total capacity; 8.57 MiB already allocated; 9.28 GiB free; 4.68 MiB cached)",
        ),
    ),
    Pattern(
        "python.cuda_error",
        triggers=("CUDA error: ", "CUDA error:"),
        regex=r"CUDA error: (?P<cuda_error>[^\n]+)",
        source=SOURCE,
        level="ERROR",
    ),
    # argparse's usage error (Lib/argparse.py, ArgumentParser.error: "usage: ..." then
    # "PROG: error: MESSAGE", exit 2): the command line the launcher built is not one the
    # script accepts (torch.distributed.launch's --local-rank, a renamed flag)
    Pattern(
        "python.argparse_error",
        triggers=(": error: unrecognized arguments", ": error: the following arguments are required",
                  ": error: argument ", ": error: ambiguous option"),
        regex=(r"(?m)^(?P<prog>[\w./-]+(?: [\w./-]+){0,3}): error: (?P<argparse_error>(?:unrecognized arguments|the following "
               r"arguments are required|argument [^\n:]+|ambiguous option)[^\n]*)"),
        source=SOURCE,
        level="ERROR",
        examples=("train.py: error: unrecognized arguments: --local-rank=1",
                  "text_generation_tp.py: error: unrecognized arguments: --local_rank=3",
                  "main.py: error: the following arguments are required: --data-dir",
                  "finetune.py: error: argument --lr: invalid float value: '1e-4,'",
                  # (a prog named in words: accelerate's launcher)
                  "Accelerate launch command: error: argument --machine_rank/--machine-rank: invalid int value: ''"),
        near_misses=("srun: error: node-3: task 2: Exited with exit code 1",),
    ),
    # Python's report of an exception nobody could catch and that did not stop the process
    # (Python/errors.c's unraisable hook: "Exception ignored in: <function Foo.__del__ ...>",
    # 3.12's "Exception ignored in atexit callback: ...", atexit's "Error in
    # atexit._run_exitfuncs:" before 3.12), with the traceback that follows it (the fold keeps
    # them one event): a warning, not the end of the run
    Pattern(
        "python.exception_ignored",
        triggers=("Exception ignored ", "Error in atexit._run_exitfuncs:"),
        regex=r"^(?:Exception ignored (?:in|on|while)\b[^\n]*|Error in atexit\._run_exitfuncs:)",
        source=SOURCE,
        level="WARNING",
        examples=(
            "Exception ignored in atexit callback: <function main.<locals>.write_metrics at 0x7f57fe924fe0>\n"
            "Traceback (most recent call last):\n  File \"/srv/job/train.py\", line 89, in write_metrics\n"
            "FileNotFoundError: [Errno 2] No such file or directory: 'results/metrics.json'",
            "Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f3a2c1b5e50>",
            "Error in atexit._run_exitfuncs:",
        ),
        near_misses=("RuntimeError: Exception ignored by the handler",),
    ),
    # An exception line standing alone and indented: an excerpt of a console that indents what it
    # relays (a CloudWatch or platform view of "[1,9]<stdout>:    AttributeError: ..."), an exception
    # group's member. Only a type named ...Error or ...Exception: an indented "Note: x" is no exception.
    Pattern(
        "python.indented_exception",
        envelope=True,
        triggers=("Error: ", "Exception: "),
        regex=r"^[ \t]+(?P<exc_type>[A-Za-z_][\w.]*(?:Error|Exception)): (?P<exc_msg>\S[^\n]*)$",
        source=SOURCE,
        level="ERROR",
        examples=(
            "    AttributeError: module 'smdistributed.dataparallel.tensorflow' has no attribute 'get_world_size'",
        ),
        near_misses=(
            "    Note: this run uses the legacy Error: handler",
            "    raise ValueError(f\"bad shape: {x}\")",
            "Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\n    f()\nValueError: bad",
        ),
    ),
    Pattern(
        "python.fatal_error",
        triggers=("Fatal Python error:",),
        regex=r"Fatal Python error: (?P<fatal>[^\n]+)",
        source=SOURCE,
        level="CRITICAL",
    ),
    Pattern(
        "python.cpp_terminate",
        envelope=True,
        triggers=("terminate called after throwing an instance of",),
        regex=r"terminate called after throwing an instance of '(?P<exc_type>[^']*)'",
        source=SOURCE,
        level="CRITICAL",
    ),
    Pattern(
        "python.warning",
        triggers=("Warning: ",),
        regex=r"(?P<warn_file>\S+\.py):(?P<warn_line>\d+): (?P<warn_type>\w*Warning): ",
        level="WARNING",
        examples=("/usr/lib/python3/site-packages/torch/nn/modules/module.py:1501: UserWarning: something",),
    ),
    # a warning pasted without the "<file>:<line>: " the warnings module puts before it
    Pattern(
        "python.warning_bare",
        triggers=("Warning: ",),
        regex=r"^(?P<warn_type>[A-Z]\w*Warning): \S",
        level="WARNING",
        examples=(
            "FutureWarning: `torch.distributed.all_gather_into_tensor` is deprecated. Please use "
            "`torch.distributed.all_gather_single` instead.",
            "UserWarning: Grad strides do not match bucket view strides.",
        ),
        near_misses=("RuntimeWarning: ", "    warnings.warn(\"UserWarning: x\")"),
    ),
    # Lightning's rank_zero_warn formats a warning as "<file>:<line>: <message>", without its
    # category (lightning_fabric/utilities/warnings.py _custom_format_warning)
    Pattern(
        "python.lightning_warning",
        triggers=("lightning/", "lightning_fabric/"),
        regex=r"^(?P<warn_file>\S*(?:lightning|lightning_fabric)/[\w/]+\.py):(?P<warn_line>\d+): [A-Z`'\w]",
        level="WARNING",
        examples=(
            "/usr/local/lib/python3.10/dist-packages/pytorch_lightning/trainer/connectors/data_connector.py:441: "
            "The 'val_dataloader' does not have many workers which may be a bottleneck.",
        ),
        near_misses=('  File "/usr/lib/python3/site-packages/lightning/pytorch/trainer/trainer.py", line 9, in fit',),
    ),
    # torch.multiprocessing.spawn: the parent's report of a child that died of a signal or
    # exited non-zero (torch/multiprocessing/spawn.py ProcessContext.join). The index is the
    # child's spawn index, the rank the job passes on (``fn(i, *args)``).
    Pattern(
        "python.spawn_child_exited",
        triggers=("ProcessExitedException", "terminated with exit code", "terminated with signal"),
        # (and torch's MultiProcessTestCase, the harness of its distributed tests: "Process 3
        # terminated with exit code 10, terminating remaining processes.")
        regex=(
            r"(?:ProcessExitedException: process|^Process) (?P<failed_rank>\d+) terminated with "
            r"(?:signal (?P<signal>SIG[A-Z]+)|exit code (?P<exitcode>-?[1-9]\d*))"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGKILL",
            "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with exit code 1",
            "Process 3 terminated with exit code 10, terminating remaining processes.",
        ),
        near_misses=("torch.multiprocessing.spawn.ProcessRaisedException: ",),
    ),
    # torch's own Python logging (torch/_logging, torch >= 2.2): glog-like
    # "W1205 08:51:17.876000 4694 torch/multiprocessing/spawn.py:165] ..."; the elastic
    # agent's lines of the same shape are torchrun's (parsers/torchrun.py, tried first).
    # MultiProcessTestCase's parent names each child's pid as it starts it ("Started process 3
    # with pid 8816", common_distributed.py): the child's rank is its index
    Pattern(
        "python.test_process_started",
        triggers=("Started process ",),
        regex=r"\bStarted process (?P<child_rank>\d+) with pid (?P<child_pid>\d+)\s*$",
        source=SOURCE,
        level="INFO",
        examples=(
            "I1206 18:51:09.546000 8810 torch/testing/_internal/common_distributed.py:982] Started process 3 with pid 8816",
        ),
        near_misses=("Started process group with 4 ranks",),
    ),
    Pattern(
        "python.torch_log",
        envelope=True,
        triggers=("torch/",),
        regex=r"^(?P<lvl>[VIWEC])\d{4} \d\d:\d\d:\d\d\.\d+ (?P<pid>\d+) \S*torch/[\w/]+\.py:\d+\] ",
        fills={"pid": "pid"},
        examples=(
            "W1205 08:51:17.876000 4694 torch/multiprocessing/spawn.py:165] Terminating process 4697 via signal SIGTERM",
        ),
        near_misses=("[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught",),
    ),
    Pattern(
        "python.dataloader_worker_killed",
        triggers=("DataLoader worker (pid",),
        regex=r"DataLoader worker \(pid\(?s?\)? ?(?P<worker_pid>[\d, {}]+)\)? (?:is killed by signal|exited unexpectedly)(?:: (?P<signal_text>[^.\n]+))?",
        source=SOURCE,
        level="ERROR",
    ),
)
