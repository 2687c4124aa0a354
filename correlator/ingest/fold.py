"""Fold multi-line events (tracebacks, C++ stack dumps, tables, report blocks) into one row.

Everything is decided per line with column expressions, then an event id is
a cumulative sum of "this line starts an event" within each output stream
(a stream is one process's output inside one file: interleaved files are
folded per rank, so rank 3's traceback never swallows rank 5's line).

A line continues the event above it when it is:
- blank, or indented (traceback frames, table rows, ``what():``, desync report
  lines, DeepSpeed JSON dumps, nvidia-smi -q entries), except progress bars and
  rich-console level columns, which start with a space but are lines of their own;
- a known continuation shape: ``frame #N``, ``Exception raised from``, chained
  exception markers, table borders of nvidia-smi, the accelerate state block,
  glog option dumps, closing brackets of a JSON dump, rich traceback boxes;
- a ``Traceback`` line right after a chained-exception marker (or ``mp.spawn``'s
  ``-- Process N terminated with the following error:``), and torch's
  ``Original Traceback`` right after the exception line that re-raises it;
but a traceback frame (``  File "x.py", line N``) after a line that is neither
indented nor ends in ``:`` starts an event: a traceback whose header was cut off;
- the ``ExcType: message`` line right after a traceback's last frame;
- under a frame that lost its indentation (a paste, a log service): its code line, a caret
  line under that, and the next frame; and the traceback under a log record whose own text is
  the traceback's header or first frame (a logger that heads every line of a record);
- inside a report block (``collect_env``, ``nvidia-smi -q``) until the next
  stamped line.

Only the rows that belong to multi-line events are grouped; single-line events
(the vast majority) pass straight through.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from correlator.timeline.shapes import digit_shapes

_CONTINUATION_SHAPES = (
    r"^(?:"
    r"frame #\d+"
    r"|Exception raised from "
    r"|During handling of the above exception, another exception occurred:"
    r"|The above exception was the direct cause of the following exception:"
    r"|-- Process \d+ terminated with the following error:$"  # torch.multiprocessing.spawn's child report
    # the rest of a DistBackendError's message (ProcessGroupNCCL's getNcclErrorDetailStr): NCCL's
    # result name and advice, then "Last error:" and NCCL's own last error text on the next line
    r"|nccl(?:InvalidUsage|SystemError|InternalError|InvalidArgument|RemoteError|UnhandledCudaError): "
    r"|Last error:\s*$"
    r"|[}\]],?\s*$"
    r"|[-=]{10,}\s*$"  # table borders (torchrun ChildFailedError, ds_report)
    r"|[│╭╰├┃┏┗]"
    r"|[|+][-=+|]"
    r"|\| "
    r"|(?:Num processes|Process index|Local process index|Device|Mixed precision type|ds_config): "
    r"|(?:NCCL|TORCH)_[A-Z0-9_]+: "
    r"|[A-Z][\w .()/-]*?\s{2,}: "  # nvidia-smi -q "Key      : value"
    r"|GPU [0-9A-Fa-f]{8}:[0-9A-Fa-f]{2}:"
    # Horovod's stall inspector: its warning goes on with the ranks it waits for, a line each
    # ("Missing ranks:", "2: [tensor, ...]"; the demultiplexer left those numbers in place)
    r"|(?:Missing|Stalled) ranks:\s*$"
    r"|\d+!?: \[\S"
    r")"
)
# Lines that begin with whitespace but are events of their own.
# (and a record stamped in brackets, or Megatron's per-interval record: " [2025-10-02
# 12:20:48] iteration  48/  50 |", " iteration  5426/  250000 |", printed with a leading space)
_INDENTED_BUT_OWN = (
    r"^\s*(?:\d+%\||(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) {2,}|\[(?:WARNING|INFO|ERROR)\] "
    r"|\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[.,\d]*\] |iteration\s+\d+/\s*\d+\s*\|)"
)
_CHAIN_MARKERS = (
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
)
# Python's report of an exception it could not raise (sys.unraisablehook: a __del__, a
# weakref callback, an atexit function; Python 3.11 and older write "Error in
# atexit._run_exitfuncs:" for the last): the traceback below is that report's, and the
# process goes on (an atexit function's error leaves the exit status as it was)
_UNRAISABLE = r"^Exception ignored (?:in|on|while)\b|^Error in atexit\._run_exitfuncs:\s*$"
# mp.spawn re-raises a child's exception in the parent as ProcessRaisedException, whose
# message is this header and the child's own traceback: one event, the child's.
# Ray Train's WorkerGroupError lists its workers' errors one header each (`[Rank 1 Error
# Snippet]:`, ranks whose errors differ only in numbers share one: `[Rank 0,3 Error
# Snippet]:`), then the worker's traceback, often cut to its last frames, or a message: each
# header starts an event that its traceback or message continues.
# CHILD_REPORT's groups: the spawn index, the Ray rank(s); ingest reads the rank from them.
_RAY_WORKER_HEADER = r"^\[Rank (\d+(?:,\d+)*) Error Snippet\]:$"
CHILD_REPORT = r"^-- Process (\d+) terminated with the following error:$|" + _RAY_WORKER_HEADER
# "ValueError: x", "torch.OutOfMemoryError: CUDA out of memory", "KeyboardInterrupt", and
# Python's built-in exceptions named otherwise ("StopIteration" from an exhausted iterator,
# "ExceptionGroup: ...")
_EXCEPTION_LINE = (r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Failure|error|Iteration|Group)\b(?::|$)"
                   r"|^[A-Za-z_][\w.]*: ")

# An exception whose message begins with a newline ("raise ValueError('\\nYou selected ...')")
# prints its type alone; the message is the next line, unindented.
_BARE_EXCEPTION_LINE = r"^[A-Za-z_][\w.]*(?:Error|Exception|Failure):\s*$"
_MESSAGE_LINES = 8  # a message printed below its exception line is a few lines at most
# Ray's ActorDiedError lists the actor's context under its exception line, a tab-indented
# field a line (`\tclass_name: RayTrainWorker` ... `\tip: 10.0.3.7`), then says why the
# actor died on an unindented line ("The actor is dead because its node has died."):
# the message goes on below the fields as below an exception line that ends in ":".
_EXCEPTION_FIELD = r"^\t[a-z_]+: \S"

# A log record that may carry its exception below it: Python's logging prints
# ``logger.exception(msg)`` / ``exc_info=True`` as the formatted record, then the
# traceback, as one record. An ERROR or CRITICAL level word among the line's first
# fields: a warning right above a traceback is as often an unrelated line the
# uncaught exception followed (a stderr file's last warning, minutes earlier).
_RECORD_WITH_EXC_INFO = (r"^\S?[^\n]{0,80}?\b(?:ERROR|CRITICAL|FATAL|EXCEPTION)\b"
                         # (torch's and glog's level letter, a record that announces what follows:
                         # "E1206 18:51:19.646000 8816 file.py:1068] Caught exception: ")
                         r"|^[EF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [^\s\]]+:\d+\] [^\n]*:\s*$")

# A traceback's frame line; one that follows neither an indented line nor a line
# ending in ":" (a header: "Traceback ...:", "Thread 0x... (most recent call first):")
# starts a traceback whose header was cut off (a paste that began below it).
_ASIDE_REACH = 4  # lines above a headless traceback's first code line that must hold no frame
_FRAME_LINE = r'^\s*File "[^"\n]*", line \d+'  # a paste may lose the first frame's indentation
# a traceback's header or frame as a log record's text (a logger that writes its head before
# every line of a traceback: vLLM's "ERROR 09-06 00:38:50 [executor.py:944]   File ...", whose
# repeats correlator.ingest.record_heads strips below it): the traceback goes on under it
_RECORD_FRAME = r'^\S[^\n]{0,100}?\] +(?:File "[^"\n]*", line \d+|Traceback \(most recent call last\):)'

# Report blocks: opened by a marker line, closed by the next stamped line.
_BLOCK_OPENERS = (
    r"^(?:Collecting environment information\.\.\.|PyTorch version: |==============NVSMI LOG==============)"
)
_BLOCK_TS_FORMATS_INSIDE = ("nvsmi",)  # stamps that belong to the block itself
# Open MPI's help texts (framed by dashed lines, unindented): from the launcher's first
# sentence to the closing border, one message ("mpirun was unable to launch ... Node: rdma5
# ... while attempting to start process rank 8.")
_MPI_HELP_OPENERS = (
    r"^(?:(?:mpirun|mpiexec|orterun|prterun) (?:was unable to|detected that|noticed that)"
    r"|Primary job\s+terminated normally|ORTE has lost communication|An MPI communication peer process"
    r"|MPI_ABORT was invoked on rank"
    r"|It looks like (?:opal_init|orte_init|MPI_INIT|ompi_mpi_init|ompi_rte_init) failed for some reason)"
)
_BORDER = r"^-{20,}\s*$"


def _static_flags(text: pl.Series, shaped: tuple[pl.Series, pl.Series] | None = None) -> pl.DataFrame:
    """Per line, what its text alone says; computed once per digit shape
    (``shaped``: ``digit_shapes(text)`` if the caller has it).

    Every regex here treats all digits alike (tested), so a line's flags are
    its shape's.
    """
    shapes, codes = shaped or digit_shapes(text)
    t = pl.col("text")
    blank = t.str.strip_chars().str.len_bytes() == 0
    flags = pl.DataFrame({"text": shapes}).select(
        blank.alias("blank"),
        (t.str.contains(r"^[ \t]") & ~blank & ~t.str.contains(_INDENTED_BUT_OWN)).alias("indented"),
        t.str.contains(_CONTINUATION_SHAPES).alias("shapes"),
        (t.is_in(list(_CHAIN_MARKERS)) | t.str.contains(CHILD_REPORT) | t.str.contains(_UNRAISABLE)).alias("chain"),
        t.str.starts_with("Traceback (most recent call last):").alias("tb_start"),
        t.str.contains(_RECORD_WITH_EXC_INFO).alias("record_head"),
        t.str.starts_with("Original Traceback (most recent call last):").alias("orig_tb"),
        t.str.contains(_BLOCK_OPENERS).alias("opener_line"),
        t.str.contains(_MPI_HELP_OPENERS).alias("help_opener"),
        t.str.contains(_BORDER).alias("border"),
        t.str.starts_with("PyTorch version: ").alias("torch_version"),
        (t == "Collecting environment information...").alias("collecting"),
        t.str.contains(_EXCEPTION_LINE).alias("exc_line"),
        (t.str.contains(_BARE_EXCEPTION_LINE) | t.str.contains(_RAY_WORKER_HEADER)).alias("bare_exc"),
        t.str.contains(_FRAME_LINE).alias("frame"),
        t.str.contains(r"^\s*[\^~]{3,}\s*$").alias("caret"),
        t.str.contains(_RECORD_FRAME).alias("record_frame"),
        # (torch.distributed.checkpoint's CheckpointException relays each failed rank's
        # traceback under "Traceback (most recent call last): (RANK 3)": a header too)
        t.str.contains(r":\s*$|^Traceback \(most recent call last\): \(RANK \d+\)\s*$").alias("opens"),
        t.str.contains(r"\d+%\|").alias("bar"),
        t.str.contains(_EXCEPTION_FIELD).alias("exc_field"),
        t.str.contains(r"^Last error:\s*$").alias("last_error"),
        t.str.contains(r"^\[?(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\b").alias("leveled"),
    )
    return flags.gather(codes)


def one_stream(df: pl.DataFrame) -> bool:
    """Is every row of ``df`` in the same stream (a per-rank log, mostly)?"""
    s = df.get_column("stream")
    return s.null_count() == s.len() or (s.null_count() == 0 and bool((s == s[0]).all()))


def per_stream(df: pl.DataFrame) -> Callable[[pl.Expr], pl.Expr]:
    """Window an expression by stream; a file of one stream (a per-rank log)
    needs no window, and a window partitions every row even for one group."""
    if one_stream(df):
        return lambda e: e
    return lambda e: e.over("stream")


def continuation_flags(
    df: pl.DataFrame, within: Callable[[pl.Expr], pl.Expr] | None = None,
    shaped: tuple[pl.Series, pl.Series] | None = None,
) -> pl.DataFrame:
    """Per row: ``cont``, does this line continue the event above it (same stream)?
    and ``aside``, is it a line of its own inside an event that goes on after it?

    Expects columns ``text``, ``stream`` (any hashable key), ``ts`` and
    ``ts_format``; rows must be in file order. ``shaped``: ``digit_shapes`` of
    ``text`` if the caller has it.
    """
    static = _static_flags(df.get_column("text"), shaped)
    df = pl.concat([df.select("stream", "ts", "ts_format"), static], how="horizontal")
    within = within or per_stream(df)
    prev = lambda e: within(e.shift(1))  # noqa: E731
    # A paste (or a log service) that lost a traceback's indentation: the line under a frame
    # is that frame's code, and a caret line under code marks it; both are read as indented
    # (Ray's worker prefix before "File ...", "return f(", "^^^^^^" at column 0)
    # (only under a frame that lost its own indentation: under an indented frame an unindented line
    # is another writer's, a console's next record)
    code_under_frame = (prev(pl.col("frame") & ~pl.col("indented")) & ~pl.col("blank") & ~pl.col("frame")
                        & ~pl.col("exc_line") & ~pl.col("tb_start") & pl.col("ts").is_null()).fill_null(False)
    df = df.with_columns(code_under_frame.alias("code_under_frame"))
    caret_under_code = (pl.col("caret") & prev(pl.col("code_under_frame") | pl.col("indented"))).fill_null(False)
    df = df.with_columns((pl.col("indented") | pl.col("code_under_frame") | caret_under_code).alias("indented"))
    blank, indented, chain = pl.col("blank"), pl.col("indented"), pl.col("chain")
    tb_start = pl.col("tb_start")
    # a progress bar tqdm redrew between a chain marker and its traceback is no line of the story
    bar_after_chain = pl.col("bar") & prev(chain)
    after_chain = prev(chain) | ((prev(blank) | prev(bar_after_chain)) & prev(prev(chain)))
    tb_chained = tb_start & after_chain
    # the traceback of a log record's exc_info: the record and its traceback are one
    # event (the record's stamp and level, the exception's meaning)
    record = pl.col("record_head") & pl.col("ts").is_not_null()
    bar_after_record = pl.col("bar") & prev(record)
    # (or its first frame, where a paste lost the "Traceback" header)
    tb_of_record = (tb_start | pl.col("frame")) & (
        prev(record) | (prev(bar_after_record) & prev(prev(record)))).fill_null(False)
    headless = (
        pl.col("frame") & ~prev(indented).fill_null(False) & ~prev(pl.col("opens")).fill_null(False)
        & ~after_chain.fill_null(False)
    )
    # a traceback whose paste lost its header and its first frame line: a frame's code line, indented,
    # right under a log record (stamped, or led by its level) that opens nothing, with a frame line
    # under it. The record does not own it: a record's own traceback starts with its "Traceback"
    # header. (Under any other line it may be that line's own, an interleaved console's piece.)
    # (Not where a frame stands just above the record: that traceback is open, the record an aside
    # of the tee race below, and its frames go on.)
    frame_just_above = within(
        pl.col("frame").cast(pl.Int8).rolling_max(window_size=_ASIDE_REACH, min_samples=1).shift(1)
    ).fill_null(0) > 0
    headless_code = (
        indented & ~pl.col("frame") & within(pl.col("frame").shift(-1)).fill_null(False)
        & ~prev(indented).fill_null(True) & ~prev(blank).fill_null(True) & ~prev(pl.col("opens")).fill_null(False)
        & (prev(pl.col("ts")).is_not_null() | prev(pl.col("leveled"))).fill_null(False)
        & ~frame_just_above & ~after_chain.fill_null(False) & ~prev(pl.col("record_frame")).fill_null(False)
    )
    headless = headless | headless_code
    opener = pl.col("opener_line") & ~(pl.col("torch_version") & prev(pl.col("collecting")).fill_null(False))
    stamped_outside = pl.col("ts").is_not_null() & ~pl.col("ts_format").is_in(
        list(_BLOCK_TS_FORMATS_INSIDE)
    ).fill_null(False)
    block = within(
        pl.when(opener).then(pl.lit(True))
        .when(stamped_outside).then(pl.lit(False))
        .otherwise(pl.lit(None, dtype=pl.Boolean))
        .forward_fill()
    ).fill_null(False)
    help_text = within(
        pl.when(pl.col("help_opener")).then(pl.lit(True))
        .when(pl.col("border") | pl.col("ts").is_not_null()).then(pl.lit(False))
        .otherwise(pl.lit(None, dtype=pl.Boolean))
        .forward_fill()
    ).fill_null(False) & ~pl.col("help_opener")
    # torch re-raises a worker's exception with the worker's traceback inside its
    # message ("KeyError: Caught KeyError in DataLoader worker process 1." then
    # "Original Traceback (most recent call last):" and the worker's frames)
    reraised = pl.col("orig_tb") & prev(pl.col("exc_line")).fill_null(False)
    # An exception's message printed below its type line: "AssertionError:" alone, or a
    # message that ends in ":" ("... because of the following error (look up to see its
    # traceback):"), then the message's lines, unindented and unstamped, up to a blank or
    # stamped line, a frame, a traceback, another exception line, or _MESSAGE_LINES lines
    idx = within(pl.int_range(pl.len()))
    exc_field = pl.col("exc_field")
    fields_of_exc = within(
        pl.when(pl.col("exc_line")).then(pl.lit(True)).when(~exc_field).then(pl.lit(False))
        .otherwise(pl.lit(None, dtype=pl.Boolean)).forward_fill()
    ).fill_null(False) & exc_field
    opens_message = pl.col("bare_exc") | (pl.col("exc_line") & pl.col("opens")) | fields_of_exc
    # (a table border too, or a header line ending in ":": ChildFailedError's message is
    # the launcher's table, "Failures:" then "[1]:", whose entries are events of their own)
    breaks = (blank | pl.col("ts").is_not_null() | tb_start | pl.col("frame") | pl.col("exc_line")
              | pl.col("shapes") | pl.col("opens"))
    opened_at = within(
        pl.when(opens_message).then(idx)
        .when(breaks).then(pl.lit(None, dtype=pl.Int64).fill_null(-_MESSAGE_LINES - 1))
        .otherwise(pl.lit(None, dtype=pl.Int64))
        .forward_fill()
    )
    message_below = (
        (idx - prev(opened_at) <= _MESSAGE_LINES).fill_null(False)
        & ~blank & pl.col("ts").is_null() & ~pl.col("exc_line") & ~tb_start & ~pl.col("frame")
    )
    # NCCL's last error text, the line below a DistBackendError's "Last error:" (blank lines
    # between them too: a paste that doubled every line break, a console that spaced them)
    last_nonblank_was_last_error = prev(
        pl.when(~blank).then(pl.col("last_error")).otherwise(pl.lit(None, dtype=pl.Boolean)).forward_fill()
    )
    after_last_error = last_nonblank_was_last_error.fill_null(False) & ~blank
    # (a frame at column 0 under its traceback's indented-like code goes on with it)
    frame_under_code = pl.col("frame") & prev(indented & ~pl.col("blank"))
    cont = ((blank | indented | pl.col("shapes") | tb_chained | bar_after_chain | after_last_error
             | frame_under_code | (block & ~opener) | help_text).fill_null(False)
            & ~headless | tb_of_record | reraised.fill_null(False) | message_below)
    # a bar tqdm redrew between a record and its traceback: an aside, as below
    bar_aside = (bar_after_record & within(tb_start.shift(-1))).fill_null(False)
    flags = df.lazy().select(
        cont.alias("cont"),
        bar_aside.alias("bar_aside"),
        indented,
        pl.col("exc_line"),
        # (a child report's frames with no "Traceback" line: Ray cuts a worker's snippet to
        # its last frames, a paste loses the header; they open the traceback all the same)
        (tb_start | headless | reraised.fill_null(False) | pl.col("record_frame")
         | (pl.col("frame") & after_chain).fill_null(False)
         # a stream that begins indented (a caret line, a frame's code line: a paste, or an
         # interleaved console, whose part of this rank's traceback above was cut) is inside
         # a traceback, which its exception line below closes
         | (indented & prev(indented).is_null())).alias("tb_start"),
        pl.col("frame"),
        pl.col("stream"),
    ).collect()  # (lazily: the shifted windows above recur, and only a lazy query computes each once)
    # The exception line closing a traceback: right after an indented frame line,
    # while the stream is inside a traceback (a "Traceback" line was seen and no
    # ordinary line started an event since; chained tracebacks stay inside).
    def inside(aside: pl.Expr) -> pl.Expr:
        return within(
            pl.when(pl.col("tb_start")).then(pl.lit(True))
            .when(~pl.col("cont") & ~pl.col("exc_line") & ~aside).then(pl.lit(False))
            .otherwise(pl.lit(None, dtype=pl.Boolean))
            .forward_fill()
        ).fill_null(False)

    flags = flags.with_columns(inside(pl.lit(False)).alias("in_tb"))
    # A stamped line of the same stream inside an open traceback, whose frames resume
    # on the next line, is an aside: torchrun --tee tails a worker's stdout.log and
    # stderr.log in two threads, so a line logged to stdout as the worker re-raises
    # ("rank 0 failed at step 40") lands in the middle of its stderr traceback. The
    # traceback goes on past it; the aside is an event of its own.
    flags = flags.with_columns(stamped=df.get_column("ts").is_not_null())
    nxt = lambda e: within(e.shift(-1))  # noqa: E731
    aside = (
        ~pl.col("cont") & ~pl.col("exc_line") & ~pl.col("tb_start") & pl.col("stamped")
        & prev(pl.col("in_tb")).fill_null(False) & prev(pl.col("indented")).fill_null(False)
        # the traceback resumes: a frame next, or the code line of the frame before
        & (nxt(pl.col("frame")) | (prev(pl.col("frame")) & nxt(pl.col("indented")))).fill_null(False)
    )
    flags = flags.with_columns((aside | pl.col("bar_aside")).alias("aside"))
    flags = flags.with_columns(inside(pl.col("aside")).alias("in_tb"))
    last_kept_indented = within(
        pl.when(~pl.col("aside")).then(pl.col("indented")).otherwise(None).forward_fill().shift(1)
    ).fill_null(False)
    closes_tb = (
        ~pl.col("cont")
        & pl.col("exc_line")
        & last_kept_indented
        & prev(pl.col("in_tb")).fill_null(False)
    )
    return flags.select((pl.col("cont") | closes_tb).alias("cont"), pl.col("aside"))


def fold(
    df: pl.DataFrame, carry_cols: list[str], shaped: tuple[pl.Series, pl.Series] | None = None
) -> pl.DataFrame:
    """Fold lines into events.

    ``df`` has one row per (piece of a) line with ``line_no``, ``text``,
    ``stream``, ``ts``, ``ts_format`` and ``carry_cols``. Returns one row per
    event: ``line_no`` (first), ``line_end`` (last), ``message`` (lines joined by
    ``\\n``, trailing blank lines dropped), ``ts``/``ts_format`` of the first
    stamped line, and ``carry_cols`` of the first line.

    ``shaped``: ``digit_shapes(df["text"])``, if the caller has it. The events then
    have ``shape_code``: the code of their message's shape among those, null for
    a message of several lines (a shape of its own; see ``shapes.with_new_texts``).
    """
    if shaped is not None:
        df = df.with_columns(shaped[1].alias("shape_code"))
        carry_cols = [*carry_cols, "shape_code"]
    if df.height == 0:
        return df.select(
            "line_no", pl.col("line_no").alias("line_end"), pl.col("text").alias("message"),
            "ts", "ts_format", "stream", *carry_cols,
        )
    within = per_stream(df)
    flags = continuation_flags(df, within, shaped)
    df = df.with_columns(flags.get_column("cont").alias("_cont"), flags.get_column("aside").alias("_aside"))
    df = df.with_columns(
        # an aside takes an id of its own (negative: its line number), and the event it
        # interrupts keeps its id across it
        pl.when(pl.col("_aside")).then(-pl.col("line_no").cast(pl.Int64))
        .otherwise(within((pl.col("_cont").not_() & pl.col("_aside").not_()).cum_sum().cast(pl.Int64)))
        .alias("_eid"),
        # rows of multi-line events: continuations and the lines they continue
        (pl.col("_cont") | within(pl.col("_cont").shift(-1)).fill_null(False)).alias("_multi"),
    )
    if df.get_column("_aside").any():
        # an event that goes on after an aside (a bar redrawn inside a traceback): the
        # line before the aside is no continuation's neighbour, yet its event has
        # several lines; every row of an event that holds a continuation is then one
        # (a window per event, paid only where asides are)
        df = df.with_columns(pl.col("_cont").any().over("stream", "_eid").alias("_multi"))
    # One row per event, at its first line (so in file order, with no sort): a line
    # that continues nothing, or a stream's first line. An event's first line is
    # also its group's first row below, which gives it the carried columns.
    head = ~pl.col("_cont") | within(pl.col("_eid").shift(1)).is_null()
    events = df.filter(head).select(
        "line_no",
        pl.col("line_no").alias("line_end"),
        pl.col("text").alias("message"),
        "ts", "ts_format", "stream", *carry_cols, "_multi",
    )
    multi = df.filter(pl.col("_multi"))
    if multi.height:
        # Trailing blank lines were folded in only to keep them out of the event list.
        multi = multi.with_columns(
            pl.col("text").str.strip_chars().str.len_bytes().gt(0).alias("_nonblank")
        )
        grouped = multi.group_by(["stream", "_eid"], maintain_order=True).agg(
            pl.col("line_no").filter(pl.col("_nonblank")).last().alias("line_end"),
            pl.col("text").filter(
                pl.int_range(pl.len()) <= pl.int_range(pl.len()).filter(pl.col("_nonblank")).last()
            ).str.join("\n").alias("message"),
            pl.col("ts").drop_nulls().first(),
            pl.col("ts_format").drop_nulls().first(),
        )
        at = events.get_column("_multi").arg_true()  # the groups' first lines, in the groups' order
        grouped = grouped.with_columns(pl.col("line_end").fill_null(events.get_column("line_no").gather(at)))
        events = events.with_columns(
            events.get_column(c).scatter(at, grouped.get_column(c)) for c in ("line_end", "message", "ts", "ts_format")
        )
        if shaped is not None:  # a message of several lines has a shape of its own (one whose
            # other lines were blank is its first line's, which the head row carries)
            several = at.filter(grouped.get_column("message").str.contains("\n", literal=True))
            events = events.with_columns(events.get_column("shape_code").scatter(several, None))
    return events.drop("_multi")
