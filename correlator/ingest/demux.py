"""Strip the wrapper prefixes that launchers stack in front of a log line.

Launchers and wrappers prepend their own markers, often several deep
(``stdout: g0001: [default3]:[rank3]:[E1206 ...``). Each ``Prefix`` below is
one wrapper. ``strip_prefixes`` peels them off the front of every line, as
column expressions, pass after pass until no row matches any more, and leaves
what it learned in columns:

- ``rank``: global rank, from ``[rankN]:`` (torch excepthook / c10 logger) and
  OpenMPI ``[job,rank]<stdout>:``;
- ``local_rank``: torchrun ``--tee`` ``[defaultN]:`` (``[<role><N>]:``), TorchX;
- ``task``: Slurm ``srun -l`` task id (a rank only when Slurm starts one task
  per rank; the caller decides);
- ``host``: pdsh / DeepSpeed launcher ``host: ``, kubectl ``--prefix`` pod, docker compose's
  (and a Procfile runner's) service column ``web_1  | ``;
- ``pid``: Ray ``(Worker pid=N)``;
- ``wrapper_ts``: kubectl ``--timestamps`` RFC 3339 stamp (UTC).

Per ``docs/formats/wrappers.md`` the things all called "rank" differ:
``[defaultN]:`` is torchrun's local rank, ``[rankN]:`` the global rank.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

MAX_PASSES = 6  # deepest stack seen in real logs is 4 (accelerate test + pdsh + tee + rank)


@dataclass(frozen=True)
class Prefix:
    name: str
    regex: str  # anchored at ^; named groups are columns this wrapper fills
    first_chars: str  # a line can only start this wrapper with one of these characters


_HOSTNAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
_ANY_FIRST = "".join(chr(c) for c in range(33, 127))

_MONTHS = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"

PREFIXES: tuple[Prefix, ...] = (
    # a syslog / journald header (util-linux `logger`, `journalctl -u <unit>`, rsyslog's files):
    # the stamp (year-less, or journalctl -o short-iso's), the machine, the program's tag and
    # its pid. A kernel line (`host kernel: ...`) has no pid and stays whole (parsers/kernel.py)
    Prefix(
        "syslog",
        rf"^(?P<wrapper_ts>{_MONTHS} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?"
        r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)) "
        # (the tag in ASCII: a Unicode class under a counted repeat made this the one prefix
        # that cost more than all the others together, here and in _ANY_PREFIX's alternation)
        rf"(?P<host>{_HOSTNAME}) [A-Za-z0-9_./@-]{{1,64}}\[(?P<pid>\d{{1,7}})\]: ",
        "ADFJMNOS0123456789",
    ),
    Prefix(
        "kubectl_ts",
        r"^(?P<wrapper_ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)) ",
        "0123456789",
    ),
    # runit's svlogd -tt: its UTC stamp before each line of the service's output ("_" between
    # date and time; the line's own stamp, if any, follows)
    Prefix("svlogd_tt", r"^(?P<wrapper_ts>\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d\.\d{1,9}) ", "0123456789"),
    # pm2's --time (log_date_format's default) before each line of an app's out / err log and
    # of its daemon log: "2026-12-07T01:34:40: " (local time, no zone)
    Prefix("pm2_time", r"^(?P<wrapper_ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d): ", "0123456789"),
    # Determined's trial logs: the master's stamp, the container's short id and the trial's state
    # before each line of its output ("[2020-06-09T20:10:40Z] cf108822 [RUNNING] ||  ...")
    Prefix("determined_trial",
           r"^\[(?P<wrapper_ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)\] (?P<host>[0-9a-f]{8}) \[[A-Z_]+\] \|\| +", "["),
    Prefix("kubectl_pod", r"^\[pod/(?P<host>[^/\]\s]+)/[^\]\s]*\] ", "["),
    # Azure ML's streamed job log: "<stamp> [<node or pod>, <its ip or unknown_ip>] " before each line
    Prefix(
        "azureml_stream",
        r"^(?P<wrapper_ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) \[(?P<host>[A-Za-z0-9][\w.-]*), "
        r"(?:\d{1,3}(?:\.\d{1,3}){3}|unknown_ip)\] ",
        "0123456789",
    ),
    # torch_xla's xla_dist (a TPU pod's launcher): "<stamp> <worker host> [<worker index>] " before
    # each line of every host's workers; the host is the machine (the index is the host's, no rank)
    Prefix(
        "xla_dist",
        r"^(?P<wrapper_ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) (?P<host>\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z0-9][\w-]*\.[\w.-]+) "
        r"\[\d{1,5}\] ",
        "0123456789",
    ),
    Prefix("accelerate_test", r"^(?:stdout|stderr): ", "s"),
    # grep -H's file name (and -n's line number) before each matched line, as pasted from a
    # search over a job's logs: "node-2.log:[2025-09-17 15:16:23] node-2:311:405 [0] NCCL WARN ..."
    Prefix("grep_file", r"^[A-Za-z0-9_./-]+?\.(?:log|txt|out|err)(?::\d+)?:",
           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./"),
    Prefix("rank", r"^\[rank(?P<rank>\d+)\]: ?", "["),
    # a platform's own stamp before torch's "[rankN]:" (a job console that stamps each line);
    # one to the minute only (`2025-02-18 12:54 [rank13]:`, NVIDIA/nccl#1610) is too coarse
    # to be the line's time and is dropped, the rank kept; so is a stamp without a year
    # (moreutils `ts`, syslog: `Dec 06 05:12:48 [rank1]:`), which the line's neighbours date
    Prefix(
        "stamp_rank",
        r"^(?:(?P<wrapper_ts>\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?)|\d{4}-\d\d-\d\d \d\d:\d\d"
        r"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?)"
        r" \[rank(?P<rank>\d+)\]: ?",
        "0123456789ADFJMNOS",
    ),
    Prefix(
        "openmpi",
        r"^\[\d+,(?:mpirank:)?(?P<rank>\d+)(?:,[^\]]*)?\]<(?:stdout|stderr)>:",
        "[",
    ),
    # mpirun --xml: every line an element of its own ('<stderr rank="2">...&#010;</stderr>'); the
    # element's close stays on the line (a suffix, that no anchored pattern reads)
    Prefix("openmpi_xml", r'^<(?:stdout|stderr) rank="(?P<rank>\d+)">', "<"),
    # horovodrun's own rank tag on its workers' lines ("[1] Traceback ...", "[1]<stderr>:..."), and
    # Determined's wrap_rank.py ("[rank=2] ..."): the global rank
    Prefix("horovod_rank", r"^\[(?P<rank>\d{1,5})\](?:<(?:stdout|stderr)>:| )", "["),
    Prefix("determined_rank", r"^\[rank=(?P<rank>\d{1,5})\] ", "["),
    # (`[<role><N>]:`; a role named "" prints `[1]:`, as TorchX's torchrun does)
    Prefix("torchrun_tee", r"^\[(?:[A-Za-z_][A-Za-z_-]*?)?(?P<local_rank>\d+)\]:", "["),
    # a launcher's "[host:N]:" tag (as a SkyPilot job prints it: "[nccl-e9ef-7d4f-0:3]:"): the
    # host is read; whether N is a local or a global rank the tag does not say, so it is not
    Prefix("host_tee", rf"^\[(?P<host>{_HOSTNAME}):\d+\]:", "["),
    Prefix("torchx", r"^[A-Za-z_][\w-]*/\d+ \[(?P<local_rank>\d+)\]:", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"),
    # Ray's worker prefix: the ip is the worker's node (one raylet per machine)
    # (vLLM's workers under its own multiprocessing executor: "(VllmWorker rank=2 pid=2307184) ":
    # the rank is the worker's in the engine, the job's when one engine)
    # (vLLM's multiprocessing workers of one engine with tensor parallelism alone are named by their
    # TP rank, the engine's: "(Worker_TP3 pid=1037) ", "(Worker_TP0_EP0 pid=331) "; with pipeline or
    # data parallelism, "(Worker_PP1_TP3 ...)", the index is the stage's, not read)
    Prefix("ray", r"^\((?:(?:[A-Za-z_][A-Za-z0-9_]* rank=|Worker_TP)(?P<rank>\d{1,6})(?:_EP\d+)?|[A-Za-z_][A-Za-z0-9_]*)"
                  r" pid=(?P<pid>\d+)(?:, ip=(?P<host>[^)\s]+))?\) ", "("),
    # SkyPilot's job log prefix: "(head, rank=0, pid=5634) ", "(worker1, rank=1, pid=2519, ip=...) "
    # (rank is the node's index in the cluster, the name its node), or "(task-name, pid=41) "
    Prefix("skypilot_node", r"^\((?P<host>[\w.-]+), rank=\d+, pid=(?P<pid>\d+)(?:, ip=[^)\s]+)?\) ", "("),
    Prefix("skypilot_task", r"^\([\w.-]+, pid=(?P<pid>\d+)\) ", "("),
    # Lightning's rank_prefixed_message: "[rank: 1] Seed set to 42" (the global rank)
    Prefix("lightning_rank", r"^\[rank: (?P<rank>\d+)\] ", "["),
    # the bar in front of the lines of a Python 3.11+ exception group's members ("  | ValueError: x",
    # "    | [rank0]: Traceback ...") and of a runner's boxed excerpt of a child's output: the
    # line is the member's own
    Prefix("group_bar", r"^ *\| ", " |"),
    # docker compose's service column ("web_1  | ...", "trainer-1  | ...", a container_name's
    # "qwen3-serve  | ..."): the container, each a machine of its own to the job. A word before
    # " | " is also a table's first cell, so the name must repeat (see _compose_ok)
    # (a Procfile runner's, foreman / honcho: "18:26:14 trainer2.1 | ...", the time of day first,
    # the process's name and its instance: each a process of its own, named as a machine would be)
    # (or glued to its bar, as a launcher's `sed "s/^/r$i| /"` tags each rank's output: "r0| ...")
    Prefix("compose", r"^(?:\d\d:\d\d:\d\d )?(?P<host>[A-Za-z0-9][A-Za-z0-9_.-]*) *\| ",
           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
    Prefix("srun_label", r"^ *(?P<task>\d+): ", " 0123456789"),
    # a runner that tags each child's lines with its name and stream (milabench:
    # "opt-1_3b.0 [stderr] ..."): the name is a run's, not a host's or a rank's
    Prefix("stream_tag", r"^[\w][\w.-]* \[(?:stdout|stderr)\] ",
           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"),
    # GNU parallel --tag (and --tagstring): the job's arguments, then a TAB, before each line of
    # its output ("0 configs/base.json\t2026-12-06 08:18:09,937 INFO [rank 0] ..."). The tag is
    # the user's arguments, no rank; a line whose head is a date is a record with a TAB after
    # its stamp (Ray's "2023-01-17 17:21:35,509\tERROR ..."), and a number is a table's column
    Prefix("parallel_tag", r"^(?:[^\t\n\d\s][^\t\n]{0,99}|\d{1,3} [^\t\n]{0,95})\t", _ANY_FIRST),
    # torchrun --log-line-prefix-template "${hostname}:${rank}: " (docs/formats/wrappers.md)
    Prefix("host_rank", rf"^(?P<host>{_HOSTNAME}):(?P<rank>\d+): ", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
    # pdsh: "<host>: " — accepted only for tokens that look like hosts (see _pdsh_ok)
    Prefix("pdsh", rf"^(?P<host>{_HOSTNAME}): ", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
)

# Every prefix at once, without captures: a plain DFA match, cheap on every row.
_ANY_PREFIX = "^(?:" + "|".join(re.sub(r"\(\?P<\w+>", "(?:", p.regex[1:]) for p in PREFIXES) + ")"

_INT_COLS = ("rank", "local_rank", "task", "pid")
_STR_COLS = ("host", "wrapper_ts")
OUTPUT_COLUMNS = _INT_COLS + _STR_COLS

# Optional column: each row's code into the digit shapes of the batch's lines (the
# ``shapes`` the functions below may be given), null once a step has changed the
# row's text. Where it is known, the searches for rows to work on (any prefix, a
# progress bar, a fused MPI tag, a kept \r) are asked of the few thousand distinct
# shapes instead of every line: each of them is digit-invariant (tested).
SHAPE_CODE = "_line_shape"


def _rows_where(df: pl.DataFrame, shapes: pl.Series | None, test: Callable[[pl.Series], pl.Series]) -> pl.Series:
    """``test(text)`` for each row of ``df`` (Boolean, no nulls); from the rows'
    shapes where ``df`` has their codes, so ``test`` must be digit-invariant."""
    text = df.get_column("text")
    if shapes is None or SHAPE_CODE not in df.columns:
        return test(text).fill_null(False)
    codes = df.get_column(SHAPE_CODE)
    hit = test(shapes).fill_null(False).gather(codes)
    unknown = codes.is_null().arg_true()
    if unknown.len():
        hit = hit.scatter(unknown, test(text.gather(unknown)).fill_null(False))
    return hit


def _forget_shapes(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` (rows whose text a step changed) with no shape code."""
    if SHAPE_CODE not in df.columns:
        return df
    return df.with_columns(pl.lit(None, dtype=df.schema[SHAPE_CODE]).alias(SHAPE_CODE))


# Words that end in ": " at the start of ordinary lines and are not pdsh hosts.
# (nor is a shared library's file name, the dynamic loader's "libc10_cuda.so: cannot open ...")
# (nor a process's own rank tag, "rank2: binding to cpu 2": rank_in_record_head reads it)
# (nor the interpreter naming itself, "python3: can't open file 'x.py': [Errno 2] ...")
# (nor Ascend CANN's error codes, "EI0006: ...", "EJ0001: ...")
_NOT_HOSTS = (r"^(?:srun|slurmstepd[\w.-]*|salloc|sbatch|stdout|stderr|\d+(?:\.\d+)?|[\w.-]+\.so(?:\.[\d.]+)?"
              r"|python[\d.]*|E[A-Z]\d{4}"
              # an exception named by its module ("sqlite3.OperationalError: database is locked",
              # "boto3.exceptions.S3UploadFailedError: ..."): a module's digit is no host's
              r"|[\w.-]*\.[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt)"
              r"|(?i:rank)[-_]?\d+)$")


def _pdsh_ok(host: pl.Expr) -> pl.Expr:
    # pdsh hosts are hostnames or IPs; real hostnames on clusters carry a digit
    # (node-1, g0001, 104.171.201.171). Requiring one keeps "ERROR: x",
    # "Traceback: y" and "RuntimeError: z" from being eaten as hosts. A host name has no
    # underscore (RFC 1123); a program's has ("train_gpt2cu: file.h:186: ...: Assertion ...")
    return host.str.contains(r"\d") & ~host.str.contains("_", literal=True) & ~host.str.contains(_NOT_HOSTS)


# A host name of letters alone ("trn-a", "gpu-west"): lowercase, with a hyphen or a dot
# between its parts, which no word of a message's head has ("error:", "usage:", "note:")
_LETTERED_HOST = r"^[a-z]+(?:[-.][a-z]+)+$"


def _lettered_hosts_ok(hosts: pl.Series, fi: pl.Series | None, rows_in_file: pl.Series) -> pl.Series:
    """Per row: is this digit-less ``host`` a pdsh host? Where it heads at least three lines
    of its file and either another such host heads lines of that file too (pdsh's merged
    output of several machines) or it heads half the file's lines (one machine's)."""
    keys = pl.DataFrame({"fi": fi if fi is not None else pl.repeat(0, hosts.len(), eager=True),
                         "host": hosts, "n_file": rows_in_file})
    lettered = hosts.str.contains(_LETTERED_HOST).fill_null(False)
    counted = keys.filter(lettered).group_by("fi", "host").agg(pl.len().alias("n"), pl.col("n_file").first())
    counted = counted.filter(pl.col("n") >= 3).with_columns(pl.col("host").n_unique().over("fi").alias("hosts"))
    good = counted.filter((pl.col("hosts") >= 2) | (pl.col("n") * 2 >= pl.col("n_file"))).select("fi", "host")
    return lettered & keys.join(good.with_columns(pl.lit(True).alias("ok")), on=["fi", "host"], how="left",
                                maintain_order="left").get_column("ok").fill_null(False)


def _repeated_in_file(values: pl.Series, fi: pl.Series | None) -> pl.Series:
    """Per row: does another row of the same file have this value? (A batch may hold
    several small files: a value repeated only across files says nothing of either, and
    the answer must not depend on which files were read together.)"""
    if fi is None:
        return values.is_duplicated()
    return pl.select(pl.struct(fi.alias("fi"), values.alias("v")).is_duplicated()).to_series()


def _gather(values: pl.Series | None, at: pl.Series) -> pl.Series | None:
    return None if values is None else values.gather(at)


def _compose_ok(name: pl.Series, fi: pl.Series | None = None) -> pl.Series:
    # a container's name has a letter and a digit (compose numbers its replicas: "web_1",
    # "trainer-2", honcho "ps.1") and heads several lines of its output; a table's first cells
    # ("epoch | loss", a model summary's "Name | Type" and "0 | encoder") and a level column
    # ("INFO     | ...") are no container
    return (name.str.contains(r"[A-Za-z]") & name.str.contains(r"\d") & _repeated_in_file(name, fi)
            & ~name.str.contains(r"(?i)^(?:trace|debug|info|warn|warning|error|critical|fatal|success)$"))


# A rank field at the head of a job's own log record, after its stamp if it has one:
# "[2026-12-05 22:08:12,671][rank 0/3][INFO] ...", "2026-12-05 21:47:16,646 rank0 INFO ...",
# "[RANK 3] Epoch 0 | ...", "rank 1 pid 32450 step 4 ...". Not stripped (it is the record's
# own text), only read where no wrapper named the rank. c10d's "[Rank N]" comes after its
# source location, never first: that is a process group's rank, not the job's.
# (the stamp may be followed by the record's level: "2026-12-05 19:21:35,371 INFO rank=2 step 6/16")
# (or a syslog / journald header: "Dec 06 02:03:21 vm train[23667]: <rank1> INFO ...")
# a record's ISO stamp (bracketed or not) and its level word, with the separators between them
_ISO_STAMP_LEVEL = (r"\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\]?[ \t]*(?:[|,-][ \t]*)?"
                    r"(?:(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)[ \t]+(?:[|,-][ \t]*)?)?")
_STAMP_HEAD = (r"(?i)^(?:" + _ISO_STAMP_LEVEL
               + r"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)? [\w.-]+ [\w./-]+(?:\[\d+\])?: )?")
_RANK_NO = r"rank[ :=_]?(\d{1,6})(?: ?/ ?\d{1,6})?"
# a bracketed field closes right after its number ("[Rank 0 Error Snippet]:" is a heading);
# a bare one ends at a separator
_HEAD_RANK = (
    _STAMP_HEAD + r"(?:\[\w{1,12}\] )?\[(?:[A-Za-z]\w{0,11}[-_])?" + _RANK_NO + r"\]",
    _STAMP_HEAD + r"\(" + _RANK_NO + r"\)",
    _STAMP_HEAD + r"<" + _RANK_NO + r">",
    # a field of a record whose fields are separated by "|" ("<stamp> | INFO | mod:146 | rank 2 | ...")
    _STAMP_HEAD + r"(?:[^|\n]{1,60}\|[ \t]*){0,3}" + _RANK_NO + r"[ \t]*\|",
    # (logging's "%(processName)s(%(process)d)" of a launcher that names its processes: "rank1(7425) INFO")
    _STAMP_HEAD + _RANK_NO + r"(?:[\s:|,(-]|$)",
    # (a machine's name between the stamp and the rank, the level right after it: "%(asctime)s
    # %(hostname)s rank%(rank)s %(levelname)s ...", "2026-12-07 19:30:15,904 gpu-node07 rank2 INFO
    # trainer: ..."; the level word after the rank is what makes it the record's head)
    r"(?i)^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\]?[ \t]+[A-Za-z0-9][\w.-]{0,62}[ \t]+"
    + _RANK_NO + r"[ \t]+\[?(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\b",
    # (a launcher's tag on the child output it relays, indented: "  rank0 stderr| [rank0]: Traceback ...";
    # only as a tag before a bar: an indented "rank0 = ..." is a traceback's code line)
    r"(?i)^[ \t]+" + _RANK_NO + r"(?: [A-Za-z]\w*)?[ \t]*\|",
)


def rank_in_record_head(df: pl.DataFrame, text_col: str = "text") -> pl.DataFrame:
    """Fill ``rank`` (where null) from a rank field at the head of the line (``_HEAD_RANK``).
    The regexes run only on the lines that say "rank" at all (one Aho-Corasick pass)."""
    text = df.get_column(text_col)
    maybe = text.str.contains_any(["rank", "Rank", "RANK"]) & df.get_column("rank").is_null()
    if not maybe.any():
        return df
    idx = maybe.arg_true()
    some = text.gather(idx).to_frame()
    found = some.select(
        pl.coalesce(pl.col(text_col).str.extract(rx, 1) for rx in _HEAD_RANK).cast(pl.Int32, strict=False)
    ).to_series()
    ranks = df.get_column("rank").cast(pl.Int32).scatter(idx, found)
    return df.with_columns(ranks.alias("rank"))


# A process id field at the head of a job's own log record, right after its stamp (and level):
# logging's "%(asctime)s [%(process)d] %(levelname)s ..." ("2026-12-06 12:39:38,832 [26339] INFO
# ..."), "[pid 4242]", "[pid=4242]". Seven digits at most (Linux's pid_max): a thread id
# ("[139812345678]") is no pid.
_HEAD_PID = r"(?i)^" + _ISO_STAMP_LEVEL + r"\[(?:pid[ =:]?)?(\d{1,7})\][ \t:]"


def pid_in_record_head(df: pl.DataFrame, text_col: str = "text") -> pl.DataFrame:
    """Fill ``pid`` (where null) from a process id field at the head of the line (``_HEAD_PID``).
    Read after the streams are keyed, as ``rank_in_record_head``: the record's traceback
    lines name no pid and are the same stream. Stage 2 names a pid's rank from what any of
    its lines says (attribute.sql's ``pid_rank``)."""
    if "pid" not in df.columns:
        return df
    text = df.get_column(text_col)
    maybe = df.get_column("pid").is_null() & text.str.contains(r"^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[^\[\n]{0,40}\[")
    if not maybe.any():
        return df
    idx = maybe.arg_true()
    found = text.gather(idx).str.extract(_HEAD_PID, 1).cast(pl.Int32, strict=False)
    return df.with_columns(df.get_column("pid").cast(pl.Int32).scatter(idx, found).alias("pid"))


# A process's own statement of its rank and the world's size ("rank 1/2", "rank 1 of 2",
# "rank=1/2"), anywhere in a record that names its pid
_STATED_RANK = r"(?i)\brank(?:\s+|\s*[:=]\s*)(\d{1,6})(?:\s+of\s+|\s*/\s*)(\d{1,6})\b"


def rank_a_pid_states(df: pl.DataFrame, text_col: str = "text") -> pl.DataFrame:
    """Fill ``rank`` (where null) on a line that names its pid (``pid_in_record_head``, a
    syslog header) and states its own rank with the world's size: the process saying who it
    is. Stage 2 gives that rank to the pid's other lines (attribute.sql's ``own_pid_rank``)."""
    if "pid" not in df.columns:
        return df
    text = df.get_column(text_col)
    maybe = (df.get_column("pid").is_not_null() & df.get_column("rank").is_null()
             & text.str.contains_any(["rank", "Rank", "RANK"]))
    if not maybe.any():
        return df
    idx = maybe.arg_true()
    found = text.gather(idx).str.extract_groups(_STATED_RANK).struct.unnest().select(
        pl.when(pl.col("1").cast(pl.Int32, strict=False) < pl.col("2").cast(pl.Int32, strict=False))
        .then(pl.col("1").cast(pl.Int32, strict=False))
    ).to_series()
    return df.with_columns(df.get_column("rank").cast(pl.Int32).scatter(idx, found).alias("rank"))


# Horovod's stall inspector (horovod/common/stall_inspector.cc) ends its warning with
# "Missing ranks:" (or "Stalled ranks:") and one line per stalled rank: "2: [tensor, ...]",
# "2!: [...]" once HOROVOD_STALL_SHUTDOWN_TIME_SECONDS has passed. Those numbers are the
# ranks the coordinator waits for, not srun labels of the coordinator's lines.
_STALL_HEADER = r"(?:Missing|Stalled) ranks:\s*$"
_STALL_ENTRY = r"\d+!?: \[\S"


def _stall_lists(text: pl.Series, fi: pl.Series | None, line_no: pl.Series | None = None) -> pl.Series | None:
    """Row numbers of the entries of Horovod stall lists (the lines right under a header
    that read as one), or None where there is no header. ``line_no``: an earlier piece of
    a physical line split in two (Open MPI's ``--timestamp-output`` stamp, split off before
    its tag and text) neither starts nor ends a list."""
    if not text.str.contains(" ranks:", literal=True).any():  # (a literal scan: most batches stop here)
        return None
    headers = text.str.contains(_STALL_HEADER).fill_null(False)
    entry = text.str.contains(_STALL_ENTRY).fill_null(False)
    same_file = (fi == fi.shift(1)).fill_null(False) if fi is not None else pl.repeat(True, text.len(), eager=True)
    piece = ((line_no == line_no.shift(-1)).fill_null(False) if line_no is not None
             else pl.repeat(False, text.len(), eager=True))
    if fi is not None:
        piece = piece & (fi == fi.shift(-1)).fill_null(False)
    # from each header on, while lines are entries of the same file
    state = (pl.DataFrame({"h": headers, "e": entry, "s": same_file, "p": piece}).select(
        pl.when(pl.col("h")).then(pl.lit(True))
        .when((pl.col("e") & pl.col("s")) | pl.col("p")).then(pl.lit(None, dtype=pl.Boolean))
        .otherwise(pl.lit(False)).forward_fill().fill_null(False).alias("in")
    ).to_series())
    return (state & entry & ~headers).arg_true()


def strip_prefixes(df: pl.DataFrame, text_col: str = "text", shapes: pl.Series | None = None) -> pl.DataFrame:
    """Peel wrapper prefixes off ``text_col``; add the ``OUTPUT_COLUMNS``.

    The first (outermost) occurrence of a field wins: an outer ``[rank3]:``
    beats an inner one only if it came first, which is how the stacks are
    nested in practice. Columns already present are kept and only filled where null.
    ``shapes``: see ``SHAPE_CODE`` (for ``text_col`` "text").
    """
    missing = [c for c in OUTPUT_COLUMNS if c not in df.columns]
    out = df.with_columns(
        pl.lit(None, dtype=pl.Int32 if c in _INT_COLS else pl.Utf8).alias(c) for c in missing
    )
    rows: pl.Series | None = None  # the rows a pass looks at (None: all)
    not_labels = _stall_lists(out.get_column(text_col), out.get_column("fi") if "fi" in out.columns else None,
                              out.get_column("line_no") if "line_no" in out.columns else None)
    for _ in range(MAX_PASSES):
        text = out.get_column(text_col)
        # one capture-free pass finds the few rows that carry any prefix (the first
        # over all rows, later ones over the rows that had one); the rest of the
        # pass works on those few only
        if rows is None:
            rows = (
                _rows_where(out, shapes, lambda t: t.str.contains(_ANY_PREFIX)) if text_col == "text"
                else text.str.contains(_ANY_PREFIX)
            ).arg_true()
        else:
            rows = rows.filter(text.gather(rows).str.contains(_ANY_PREFIX))
        if rows.len() == 0:
            break
        few = text.gather(rows)
        first = few.str.slice(0, 1)
        few_files = out.get_column("fi").gather(rows) if "fi" in out.columns else None  # (a batch of several)

        firsts = set(first.unique().to_list())  # a prefix no row can start with costs nothing
        matched_any = pl.repeat(False, few.len(), eager=True)  # per row of `few`
        updates: dict[str, pl.Series] = {}
        new_text = text
        for p in PREFIXES:
            if firsts.isdisjoint(p.first_chars):
                continue
            cand = first.is_in(list(p.first_chars)) & ~matched_any
            if not cand.any():
                continue
            at = cand.arg_true()
            sub = few.gather(at)
            # a plain match (no captures) is several times cheaper: capture only the hits
            hit = sub.str.contains(p.regex)
            if not hit.any():
                continue
            at, sub = at.filter(hit), sub.filter(hit)
            groups = sub.str.extract_groups(p.regex)
            matched_prefix = sub.str.extract(f"({p.regex})", 1)
            ok = matched_prefix.is_not_null()
            if p.name == "pdsh":
                hosts = groups.struct.field("host")
                host_ok = _pdsh_ok(hosts).fill_null(False)
                if (~host_ok & hosts.str.contains(_LETTERED_HOST).fill_null(False)).any():
                    files_at = _gather(few_files, at)
                    n_file = (pl.DataFrame({"fi": files_at})
                              .join(out.get_column("fi").value_counts().rename({"count": "n"}), on="fi", how="left",
                                    maintain_order="left").get_column("n")
                              if files_at is not None else pl.repeat(out.height, hosts.len(), eager=True))
                    host_ok = host_ok | _lettered_hosts_ok(hosts, files_at, n_file)
                ok = ok & host_ok
            elif p.name == "compose":
                ok = ok & _compose_ok(groups.struct.field("host"), _gather(few_files, at)).fill_null(False)
            elif p.name == "srun_label" and not_labels is not None:
                # (an srun label in front of the coordinator's entry, "0: 3: [...]", is one)
                ok = ok & ~(rows.gather(at).is_in(not_labels.implode()) & sub.str.contains(r"^ *" + _STALL_ENTRY))
            elif p.name == "parallel_tag":
                # a tag heads every line of its job's output; a line with a TAB in its text
                # ("training seconds: 37.3<TAB># 18.4") is one line
                ok = ok & _repeated_in_file(matched_prefix, _gather(few_files, at))
            elif p.name == "torchrun_tee":
                # "[1]:" alone on its line is an entry of torchrun's failure table ("Failures:",
                # "[1]:", "  time : ..."), and so is "[1]: time : ... host : ..." where a log service
                # flattened the entry onto one line; a role-less tee prefix has the worker's own text
                rest = sub.str.slice(matched_prefix.str.len_chars())
                ok = ok & (matched_prefix.str.contains(r"^\[[A-Za-z_]")
                           | ((rest.str.len_chars() > 0) & ~rest.str.contains(r"^\s*time\s*:"))).fill_null(False)
            if not ok.any():
                continue
            matched_any = matched_any.scatter(at.filter(ok), True)
            hit_idx = rows.gather(at.filter(ok))
            lens = matched_prefix.filter(ok).str.len_chars()
            rest = sub.filter(ok).str.slice(lens)
            new_text = new_text.scatter(hit_idx, rest)
            if SHAPE_CODE in out.columns:
                updates[SHAPE_CODE] = updates.get(SHAPE_CODE, out.get_column(SHAPE_CODE)).scatter(hit_idx, None)
            for field in groups.struct.fields:
                vals = groups.struct.field(field).filter(ok)
                col = field
                cur = updates.get(col, out.get_column(col))
                dtype = pl.Int32 if col in _INT_COLS else pl.Utf8
                vals = vals.cast(dtype, strict=False)
                # outermost wins: only fill where still null
                merged = cur.gather(hit_idx)
                merged = merged.fill_null(vals) if merged.null_count() else merged
                updates[col] = cur.scatter(hit_idx, merged)
        out = out.with_columns(new_text.alias(text_col), *updates.values())
        rows = rows.filter(matched_any)
    return out


# tqdm's bar ends "[elapsed<remaining, rate{postfix}]"; a log line printed without a
# newline before it is glued right after that bracket (docs/formats/accelerate-hf.md §4,
# docs/formats/pytorch-c10d.md §3).
_GLUED_AFTER_BAR = r"^(.*?(?:it/s|s/it)[^\]]*\])(\S.*)$"
# OpenMPI --tag-output can fuse two ranks' output on one physical line (docs/formats/wrappers.md §3).
# (and horovodrun's own "[1]<stderr>:", fused the same way behind its --prefix-output-with-timestamp stamp)
_MPI_TAG = r"\[\d+(?:,(?:mpirank:)?\d+(?:,[^\]]*)?)?\]<(?:stdout|stderr)>:"


def _order(df: pl.DataFrame) -> list[str]:
    """File order: by line and piece, within each file of a batch of several (``fi``)."""
    return ["fi", "line_no", "part"] if "fi" in df.columns else ["line_no", "part"]


# Up to this many rows to split, _split_rows inserts the pieces between slices.
_FEW_SPLITS = 1024


def _split_rows(
    df: pl.DataFrame, touched: pl.Series, text: pl.Series, flag: str | None = None
) -> pl.DataFrame:
    """Replace the ``touched`` rows by the ``\n``-separated pieces of ``text``.

    Pieces keep every other column of their row (so a glued line inherits the
    rank prefix of the bar it was glued to); ``part`` numbers them; ``flag``
    (a boolean column) is set on every piece after the first.
    """
    n = df.height
    idx = touched.arg_true()
    split = text.gather(idx).str.split("\n")
    piece = pl.int_range(pl.len()).over("_src")
    pieces = (
        _forget_shapes(df.gather(idx))
        .with_columns(split.alias("text"), pl.int_range(idx.len(), dtype=pl.Int64).alias("_src"))
        .explode("text")
        .with_columns(
            (pl.col("part") + piece).cast(pl.Int32),
            *([(piece > 0).alias(flag)] if flag else []),
        )
        .filter(pl.col("text").str.len_bytes() > 0)
        .with_columns(piece.cast(pl.Int64).alias("_slot"))  # among the row's kept pieces
    )
    per_touched = split.list.eval(pl.element().str.len_bytes() > 0).list.sum().cast(pl.Int64)
    pieces_cast = pieces.select(pl.col(c).cast(t) for c, t in df.schema.items())
    if idx.len() <= _FEW_SPLITS:
        # few rows split (a log line glued to a progress bar now and then): the rows
        # between them are sliced (no copy) and the pieces put between the slices;
        # gathering every row of every column costs more
        chunks, prev, at = [], 0, 0
        for row, count in zip(idx.to_list(), per_touched.to_list(), strict=True):
            chunks += [df.slice(prev, row - prev), pieces_cast.slice(at, count)]
            prev, at = row + 1, at + count
        chunks.append(df.slice(prev))
        return pl.concat(chunks, rechunk=True)
    # Where each row lands: a touched row's place holds its non-empty pieces, every
    # other row moves down by the pieces before it. Then one gather of the rows and
    # pieces in that order: the untouched rows are copied once, not filtered and merged.
    counts = pl.repeat(1, n, dtype=pl.Int64, eager=True).scatter(idx, per_touched)
    start = counts.cum_sum() - counts
    kept = (~touched).arg_true()
    order = (
        pl.zeros(int(counts.sum()), pl.Int64, eager=True)
        .scatter(start.gather(kept), kept.cast(pl.Int64))
        .scatter(start.gather(idx.gather(pieces.get_column("_src"))) + pieces.get_column("_slot"),
                 pl.int_range(n, n + pieces.height, dtype=pl.Int64, eager=True))
    )
    # one chunk first: a gather across two chunks cost ~4x one from a single chunk
    return pl.concat([df, pieces_cast], rechunk=True).gather(order)


def split_fused_mpi(df: pl.DataFrame, shapes: pl.Series | None = None) -> pl.DataFrame:
    """Split physical lines on every OpenMPI tag that is not at the line start.
    ``shapes``: see ``SHAPE_CODE``."""
    text = df.get_column("text")
    touched = _rows_where(df, shapes, lambda t: t.str.contains("]<std", literal=True))
    if not touched.any():
        return df
    touched = touched & text.str.contains(f".{_MPI_TAG}")
    if not touched.any():
        return df
    return _split_rows(df, touched, text.str.replace_all(f"(.)({_MPI_TAG})", "${1}\n${2}"))


def split_kept_segments(df: pl.DataFrame, shapes: pl.Series | None = None) -> pl.DataFrame:
    """Split the ``\\r``-separated pieces the reader kept into rows.

    The reader keeps, from an overwritten progress-bar line, the log lines that
    were glued after a bar, then the line's final state (``correlator.ingest.read``).
    Every piece but the last is such a glued line: flagged ``glued``.
    ``shapes``: see ``SHAPE_CODE``.
    """
    if "glued" not in df.columns:
        df = df.with_columns(pl.lit(False).alias("glued"))
    touched = _rows_where(df, shapes, lambda t: t.str.contains("\r", literal=True))
    if not touched.any():
        return df
    work = _forget_shapes(df.filter(touched)).with_columns(pl.col("text").str.split("\r"))
    work = work.with_columns(
        pl.int_ranges(pl.col("text").list.len()).alias("_i"),
        (pl.col("text").list.len() - 1).alias("_n"),
    ).explode(["text", "_i"])
    work = work.with_columns(
        (pl.col("part") + pl.col("_i")).cast(pl.Int32).alias("part"),
        (pl.col("_i") < pl.col("_n")).alias("glued"),
    ).drop("_i", "_n")
    return pl.concat([df.filter(~touched), work.select(df.columns)]).sort(_order(df))


def split_glued_progress(df: pl.DataFrame, shapes: pl.Series | None = None) -> pl.DataFrame:
    """Recover a log line glued after a tqdm progress bar; returns new rows flagged ``glued``.
    ``shapes``: see ``SHAPE_CODE``."""
    if "glued" not in df.columns:
        df = df.with_columns(pl.lit(False).alias("glued"))
    text = df.get_column("text")
    # the rate closing a tqdm bar's stats ("it/s]", "s/it,"): one regex finds it
    # faster than an Aho-Corasick pass over the four words
    touched = _rows_where(df, shapes, lambda t: t.str.contains(r"(?:it/s|s/it)[\],]"))
    if not touched.any():
        return df
    idx = touched.arg_true()
    glued = text.gather(idx).str.contains(_GLUED_AFTER_BAR)
    if not glued.any():
        return df
    idx = idx.filter(glued)
    touched = pl.repeat(False, len(text), eager=True).scatter(idx, True)
    split = text.gather(idx).str.replace(_GLUED_AFTER_BAR, "${1}\n${2}")
    return _split_rows(df, touched, text.scatter(idx, split), flag="glued")


def restrip_glued(df: pl.DataFrame) -> pl.DataFrame:
    """Peel prefixes off recovered glued lines; their own prefixes beat the bar's.

    A glued line first inherits the prefix columns of the bar it was glued to
    (``[default0]:`` of rank 0's tqdm bar); if it carries its own prefix
    (``[default1]:`` of another rank's line, interleaved by tee) that one wins.
    """
    glued = df.get_column("glued")
    if not glued.any():
        return df
    idx = glued.arg_true()
    sub = df.filter(glued)
    fresh = strip_prefixes(
        sub.with_columns(pl.lit(None, dtype=sub.schema[c]).alias(c) for c in OUTPUT_COLUMNS)
    )
    merged = fresh.with_columns(
        pl.coalesce(fresh.get_column(c), sub.get_column(c)).alias(c) for c in OUTPUT_COLUMNS
    )
    out = df
    for c in (*OUTPUT_COLUMNS, "text"):
        out = out.with_columns(out.get_column(c).scatter(idx, merged.get_column(c)))
    return out


# Hard wrap: a terminal (or a ticket) cuts every line longer than its width W into
# pieces of exactly W characters, so a wrapped file has lines of length W and none
# longer (where only one line has it, the cut must fall inside a word). A line W
# long (the *head*) is continued by the next line unless that one starts the way a
# line does: with a launcher prefix, a glog or ISO stamp, a traceback's header, two
# spaces (a code line under its frame, a table row), or the same first characters
# (digits alike) as a line of this file that follows a line shorter than W (the
# same message printed by several ranks, all of the file's greatest length, is no
# wrap). Table rows and borders (all of one width) are never heads, and a file is
# wrapped only if at least half of its heads are continued.
MIN_WRAP_WIDTH = 40
# wider than any terminal or ticket: the reader's cut of a huge line (max_line_bytes)
# gives several lines of one length too, and they are no wrap
MAX_WRAP_WIDTH = 1000
# Any prefix, but a pdsh host only with a digit (as ``_pdsh_ok``): "id: 32492) of
# binary" is a piece of a wrapped line, "node-3: x" a host's line.
_WRAP_PREFIX = (
    "^(?:" + "|".join(re.sub(r"\(\?P<\w+>", "(?:", p.regex[1:]) for p in PREFIXES if p.name != "pdsh")
    + r"|[A-Za-z0-9._-]*\d[A-Za-z0-9._-]*: )"
)
_START_CHARS = 12
_TABLE_ROW = r"\S {3,}\S+ {3,}\S"
_NOT_A_HEAD = r"(?:[|+│┃╮╯┐┘]|[-=]{3})\s*$"
_LINE_START = (
    r"^(?:\[?[IWEF]\d{4} \d\d:\d\d|\[?[IWEF] [\w/.-]+\.(?:cpp|cc|h|hpp):\d+\]"
    r"|\s?\[?\d{4}-\d\d-\d\d[T ]\d\d:|\[?[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d "
    r"|Traceback \(most recent call last\):|During handling of the above exception"
    r"|The above exception was the direct cause|terminate called after throwing|[-=]{10,}\s*$"
    # NCCL's own header (host:pid:tid [dev]): a line of its own, however the line above ended
    r"|[\w.-]+:\d+:\d+ \[\d+\] "
    r"|\s\s)"
)
# an exception line or a heading ("ChildFailedError: ", "Root Cause:") starts a
# line, unless the head ends in a dot: then it ends the head's dotted name
# ("torch.distributed.elastic.multiprocessing.errors." + "ChildFailedError: ")
_EXCEPTION_START = r"^(?:[A-Za-z_][\w.]*(?:Error|Exception|Warning)(?::|$)|[A-Z][\w ()-]*:\s*$)"


def _wrap_widths(keys: pl.Series, lens: pl.Series, text: pl.Series) -> pl.Series | None:
    """Per row, ``w``: the width its file (``keys``) may be hard-wrapped at, its
    greatest line length if that is within ``MIN_WRAP_WIDTH``..``MAX_WRAP_WIDTH``
    (else null), and
    ``n``: how many different lines have it (the same line printed by several ranks
    is one: duplicates say nothing of a wrap width); None if no file can be wrapped."""
    per = (
        pl.DataFrame({"fi": keys, "len": lens, "text": text})
        .group_by("fi")
        .agg(pl.col("len").max().alias("w"),
             pl.col("text").filter(pl.col("len") == pl.col("len").max()).n_unique().alias("n"))
        .filter(pl.col("w").is_between(MIN_WRAP_WIDTH, MAX_WRAP_WIDTH))
    )
    if per.height == 0:
        return None
    return pl.DataFrame({"fi": keys}).join(per.select("fi", "w", "n"), on="fi", how="left", maintain_order="left")


def join_hard_wraps(df: pl.DataFrame) -> pl.DataFrame:
    """Join the pieces of hard-wrapped lines back into one row (``text`` in file
    order; ``fi`` the file where a batch holds several). The row keeps its first
    piece's other columns."""
    if df.height < 2:  # a one-line paste wrapped once is two lines
        return df
    text = df.get_column("text")
    keys = df.get_column("fi") if "fi" in df.columns else pl.repeat(0, df.height, dtype=pl.UInt32, eager=True)
    lens = text.str.len_chars()
    per_row = _wrap_widths(keys, lens, text)
    if per_row is None:
        return df
    widths, several = per_row.get_column("w"), (per_row.get_column("n") >= 2).fill_null(False)
    # one line of the greatest length: a wrap only where the cut fell inside a word or
    # a name ("...python3.6/sit" + "e-packages/...", '... else "' + 'text_encoder"',
    # "... error, N" + "CCL version")
    nxt = text.shift(-1)
    mid_word = (
        (text.str.contains(r"[\w\"'/-]$") & nxt.str.contains(r"^ ?[a-z0-9_]"))
        | (text.str.contains(r"[A-Z]$") & nxt.str.contains(r"^[A-Z0-9]{2}"))
    ).fill_null(False)
    head = (lens == widths).fill_null(False) & (several | mid_word)
    head = head & ~text.str.contains(_NOT_A_HEAD).fill_null(False)
    if not head.any():
        return df
    after_head = head.shift(1, fill_value=False) & (keys == keys.shift(1)).fill_null(False)
    start = text.str.slice(0, _START_CHARS).str.replace_all(r"\d", "0")
    frame = pl.DataFrame({"fi": keys, "start": start, "after_head": after_head})
    usual = frame.filter(~pl.col("after_head")).select("fi", "start").unique().with_columns(
        pl.lit(True).alias("usual")
    )
    usual_start = frame.join(usual, on=["fi", "start"], how="left", maintain_order="left").get_column("usual")
    cut_number = (text.str.contains(r"^\d") & text.shift(1).str.contains(r"\d$")).fill_null(False)
    labelled = pl.DataFrame({"fi": keys, "l": text.str.contains(r"^ *\d+: ")}).select(
        pl.col("l").mean().over("fi") >= 0.5
    ).to_series()
    # a line that starts as the line above did (a stamp, a name: not the middle of a
    # word or a number) is the next record of one fixed-width format, not its piece
    as_above = ((start == start.shift(1)) & start.str.contains(r"[A-Za-z\[]")).fill_null(False)
    cont = (
        after_head
        & (lens > 0)
        & ~usual_start.fill_null(False)
        & ~as_above
        # "...[127.0.0.1]:259" + "97: Connection reset": a number cut in two, no srun
        # label, unless the file's lines mostly have one
        & ~(text.str.contains(_WRAP_PREFIX) & ~(cut_number & ~labelled))
        & ~text.str.contains(_LINE_START)
        & ~(text.str.contains(_EXCEPTION_START) & ~text.shift(1).str.ends_with(".").fill_null(False))
        # two rows of a table (`kubectl get pods`, `squeue`): padded to one width, and
        # columns apart by runs of spaces that no wrapped sentence has
        & ~(text.str.contains(_TABLE_ROW) & text.shift(1).str.contains(_TABLE_ROW)).fill_null(False)
    )
    if not cont.any():
        return df
    # a wrapped file's heads are mostly continued; where most are not, the few that
    # seem to be are lines that merely have the greatest length
    # (and one continued head among a few is no evidence of a wrap unless its cut
    # fell inside a word: two lines of equal length in a short file are common)
    head_mid = mid_word.shift(1, fill_value=False)  # the cut before this piece fell inside a word
    per = pl.DataFrame({"fi": keys, "head": head, "cont": cont, "mid": cont & head_mid}).group_by("fi").agg(
        ((pl.col("cont").sum() * 2 >= pl.col("head").sum())
         & ((pl.col("cont").sum() >= 2) | pl.col("mid").any())).alias("wrapped")
    )
    cont = cont & frame.join(per, on="fi", how="left", maintain_order="left").get_column("wrapped")
    if not cont.any():
        return df
    eid = (~cont).cum_sum()
    joined = pl.DataFrame({"_eid": eid, "text": text}).group_by("_eid", maintain_order=True).agg(
        pl.col("text").str.join("")
    )
    return df.filter(~cont).with_columns(joined.get_column("text").alias("text"))
