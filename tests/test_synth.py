"""The synthetic job generator (correlator.synth) and the ingest benchmark script.

Line-shape regexes below are written from the format strings quoted in
docs/formats (file and section named at each one), not from synth's code.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from correlator import synth

ROOT = Path(__file__).resolve().parent.parent

# 01-nccl.md §1: "%s:%d:%d [%d] NCCL INFO " (hostname, pid, tid, cudaDev), NCCL <= 2.25.
NCCL_INFO = re.compile(r"^(?P<host>[^:\s]+):(?P<pid>\d+):(?P<tid>\d+) \[(?P<dev>\d+)\] NCCL INFO ")
# 01-nccl.md §3, NCCL 2.18: "comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx
# commId 0x%llx - Init COMPLETE".
NCCL_INIT = re.compile(
    NCCL_INFO.pattern + r"comm (?P<comm>0x[0-9a-f]+) rank (?P<rank>\d+) nranks (?P<nranks>\d+) "
    r"cudaDev (?P<cuda>\d+) nvmlDev (?P<nvml>\d+) busId (?P<bus>[0-9a-f]+) "
    r"commId 0x(?P<commid>[0-9a-f]+) - Init COMPLETE$"
)
# 01-nccl.md §1: "\n%s:%d:%d [%d] %s:%d NCCL WARN " (file, line after the device).
NCCL_WARN = re.compile(r"^[^:\s]+:\d+:\d+ \[\d+\] [\w/.]+:\d+ NCCL WARN ")
# 01-nccl.md §4, v2.18.1: "NET/IB : Got completion from peer %s with error %d, opcode %d,
# len %d, vendor err %d (%s)%s%s%s%s".
IB_WARN = re.compile(
    r"NET/IB : Got completion from peer \S+ with error (\d+), opcode \d+, len \d+, vendor err \d+ \(\w+\)"
)
# 02-pytorch-c10d.md §1, torch >= ~2.4: "[rank<g>]:[<L><M><DD> HH:MM:SS.<9 digits> <file>:<line>] ".
C10D = re.compile(
    r"^\[rank(?P<rank>\d+)\]:\[(?P<lvl>[IWEF])(?P<md>\d{3,4}) (?P<hms>\d\d:\d\d:\d\d)\.\d{9} "
    r"[\w.]+:\d+\] "
)
WATCHDOG = re.compile(
    r"\[Rank (?P<rank>\d+)\] Watchdog caught collective operation timeout: WorkNCCL\("
    r"SeqNum=(?P<seq>\d+), OpType=\w+, NumelIn=\d+, NumelOut=\d+, Timeout\(ms\)=(?P<to>\d+)\) "
    r"ran for (?P<ran>\d+) milliseconds before timing out\.$"
)
LAST_WORK = re.compile(
    r"[Ll]ast enqueued NCCL work: (?P<enq>\d+), last completed NCCL work: (?P<done>\d+)"
)
# 03-torchrun-elastic.md §1, torch >= 2.4: "W0801 13:23:17.366000 32974 <path>:900] ", the
# fraction is ms*1000 so it ends in 000.
AGENT = re.compile(
    r"^(?P<lvl>[IWEV])(?P<md>\d{4}) \d\d:\d\d:\d\d\.\d{3}000 (?P<pid>\d+) \S+\.py:\d+\] "
)
FAILED = re.compile(
    r"failed \(exitcode: (?P<code>-?\d+)\) local_rank: (?P<local>\d+) \(pid: (?P<pid>\d+)\) of binary: \S+$"
)
# 05-accelerate-hf.md §1 / brief: logging "%(asctime)s - %(levelname)s - %(name)s - %(message)s".
PYLOG = re.compile(
    r"^(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) - (?P<lvl>[A-Z]+) - (?P<name>[\w.]+) - "
)
STEP = re.compile(PYLOG.pattern + r"step (?P<step>\d+) loss ")
# 08-wrappers.md §5, torch >= ~2.4 OOM first line.
OOM = re.compile(
    r"torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate [\d.]+ [GM]iB\. GPU \d+ has a "
    r"total capacity of [\d.]+ GiB of which [\d.]+ [GM]iB is free\."
)
# 06-nvidia-smi-xid.md §5, gpud's RegexNVRMXidCombined.
XID = re.compile(r"NVRM: Xid \(((?:PCI:)?[0-9a-fA-F:]+)\).*?: (\d+),")
DMESG_RAW = re.compile(r"^\[ *\d+\.\d{6}\] ")
DMESG_CTIME = re.compile(
    r"^\[(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\] "
)


# --------------------------------------------------------------------------- helpers


def rank_files(job: Path) -> dict[int, Path]:
    return {int(p.stem[4:]): p for p in job.glob("*/rank*.log")}


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")  # read_text() would turn tqdm's "\r" into "\n"


def tree_digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def pylog_time(line: str) -> datetime:
    m = PYLOG.match(line)
    assert m, line
    return datetime.strptime(m["ts"], "%Y-%m-%d %H:%M:%S,%f")


def truth_of(job: Path) -> dict:
    return json.loads(read(job / "truth.json"))


SMALL = {"ranks": 8, "nodes": 2, "size": "1500KB", "skew": "30s", "seed": 7}


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One small job per scenario, generated once for the module."""
    root = tmp_path_factory.mktemp("synth")
    out = {}
    for scenario in synth.SCENARIOS:
        synth.generate_job(root / scenario, scenario=scenario, workers=1, **SMALL)
        out[scenario] = root / scenario
    return out


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("500MB", 500_000_000),
        ("1GB", 1_000_000_000),
        ("20MB", 20_000_000),
        ("1.5GB", 1_500_000_000),
        ("512KiB", 512 * 1024),
        ("2GiB", 2 * 1024**3),
        ("1234", 1234),
        ("10 kb", 10_000),
    ],
)
def test_parse_size(text: str, expected: int) -> None:
    assert synth.parse_size(text) == expected


@pytest.mark.parametrize("bad", ["", "MB", "1XB", "-5MB", "1iB"])
def test_parse_size_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        synth.parse_size(bad)


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("30s", 30_000),
        ("500ms", 500),
        ("-2m", -120_000),
        ("1h", 3_600_000),
        ("0", 0),
        ("1.5s", 1_500),
    ],
)
def test_parse_duration(text: str, ms: int) -> None:
    assert synth.parse_duration(text) == ms


# --------------------------------------------------------------------------- determinism and size


def test_same_seed_is_byte_identical(tmp_path: Path) -> None:
    kw = {
        "ranks": 8,
        "nodes": 2,
        "size": "800KB",
        "scenario": "nccl-ib-error",
        "skew": "30s",
        "seed": 3,
    }
    synth.generate_job(tmp_path / "a", workers=1, **kw)
    synth.generate_job(tmp_path / "b", workers=2, **kw)  # process pool must not change bytes
    assert tree_digest(tmp_path / "a") == tree_digest(tmp_path / "b")
    synth.generate_job(tmp_path / "c", workers=1, **{**kw, "seed": 4})
    assert tree_digest(tmp_path / "a") != tree_digest(tmp_path / "c")


@pytest.mark.parametrize(
    ("size", "ranks", "nodes"), [("1MB", 4, 1), ("6MB", 16, 4), ("12MB", 8, 2)]
)
def test_requested_size_is_met(tmp_path: Path, size: str, ranks: int, nodes: int) -> None:
    synth.generate_job(tmp_path, ranks=ranks, nodes=nodes, size=size, scenario="hang", seed=1)
    total = sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file())
    assert abs(total - synth.parse_size(size)) <= 0.10 * synth.parse_size(size)


def test_regenerating_into_a_previous_job_replaces_it(tmp_path: Path) -> None:
    synth.generate_job(tmp_path, ranks=8, nodes=2, size="400KB", seed=1)
    synth.generate_job(tmp_path, ranks=4, nodes=1, size="300KB", seed=1)
    assert len(rank_files(tmp_path)) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".correlatorignore",  # keeps truth.json out of the analysis
        "gpu-node-00",
        "launcher.log",
        "truth.json",
    ]


def test_refuses_foreign_non_empty_directory(tmp_path: Path) -> None:
    (tmp_path / "precious.txt").write_text("keep me")
    with pytest.raises(SystemExit):
        synth.generate_job(tmp_path, ranks=2, nodes=1, size="100KB")
    assert (tmp_path / "precious.txt").read_text() == "keep me"


def test_ranks_must_divide_over_nodes(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        synth.generate_job(tmp_path / "x", ranks=6, nodes=4, size="100KB")


# --------------------------------------------------------------------------- layout


def test_layout_ranks_nodes(jobs: dict[str, Path]) -> None:
    job = jobs["healthy"]
    files = rank_files(job)
    per_node = SMALL["ranks"] // SMALL["nodes"]
    assert sorted(files) == list(range(SMALL["ranks"]))
    hosts = sorted(p.name for p in job.iterdir() if p.is_dir())
    assert hosts == ["gpu-node-00", "gpu-node-01"]
    for host in hosts:
        assert (job / host / "dmesg.log").is_file()
        assert (job / host / "nvidia-smi.txt").is_file()
    assert (job / "launcher.log").is_file()
    for rank, path in files.items():
        assert path.parent.name == hosts[rank // per_node]
        text = read(path)
        assert f"rank={rank} local_rank={rank % per_node} " in text
        inits = [m for line in text.splitlines() if (m := NCCL_INIT.match(line))]
        world = [m for m in inits if int(m["nranks"]) == SMALL["ranks"]]
        assert len(world) == 1
        m = world[0]
        assert int(m["rank"]) == rank
        assert int(m["cuda"]) == int(m["dev"]) == rank % per_node
        assert m["host"] == path.parent.name
        # the node-local evaluation communicators use the local rank
        assert all(int(x["rank"]) == rank % per_node for x in inits if x is not m)


def test_all_ranks_share_one_world_comm_id(jobs: dict[str, Path]) -> None:
    ids = set()
    for path in rank_files(jobs["oom-cascade"]).values():
        for line in read(path).splitlines():
            m = NCCL_INIT.match(line)
            if m and int(m["nranks"]) == SMALL["ranks"]:
                ids.add(m["commid"])
    assert len(ids) == 1


# --------------------------------------------------------------------------- truth vs files


@pytest.mark.parametrize("scenario", list(synth.SCENARIOS))
def test_truth_shape(jobs: dict[str, Path], scenario: str) -> None:
    t = truth_of(jobs[scenario])
    assert list(t) == [
        "schema_version",
        "status",
        "initiating",
        "root_cause",
        "first_deviating",
        "collateral",
        "notes",
    ]
    assert t["schema_version"] == 1
    assert t["notes"].startswith("synthetic: ")
    if scenario == "healthy":
        assert t["status"] == "healthy"
        assert t["initiating"] is t["root_cause"] is t["first_deviating"] is None
        assert t["collateral"] == []
        return
    assert t["status"] == "failed"
    assert set(t["initiating"]) == {"rank", "node", "all_ranks"}
    assert t["initiating"]["all_ranks"] is False
    assert t["root_cause"] == {"category": synth.SCENARIOS[scenario], "rule_id": None}
    assert set(t["first_deviating"]) == {"contains", "rank"}
    assert t["first_deviating"]["rank"] == t["initiating"]["rank"]


@pytest.mark.parametrize("scenario", [s for s in synth.SCENARIOS if s != "healthy"])
def test_truth_matches_files(jobs: dict[str, Path], scenario: str) -> None:
    job = jobs[scenario]
    t = truth_of(job)
    culprit, node = t["initiating"]["rank"], t["initiating"]["node"]
    files = rank_files(job)
    assert files[culprit].parent.name == node
    needle = t["first_deviating"]["contains"]
    where = job / node / "dmesg.log" if scenario == "xid79" else files[culprit]
    assert needle in read(where)
    for group in t["collateral"]:
        assert culprit not in group["ranks"]
        for r in group["ranks"]:
            assert group["contains"] in read(files[r])
        for r in set(files) - set(group["ranks"]):
            assert group["contains"] not in read(files[r])


def test_oom_cascade_story(jobs: dict[str, Path]) -> None:
    job = jobs["oom-cascade"]
    t = truth_of(job)
    c = t["initiating"]["rank"]
    text = read(rank_files(job)[c])
    assert OOM.search(text)
    assert re.search(rf"^\[rank{c}\]: Traceback \(most recent call last\):$", text, re.M)
    # every traceback line carries the excepthook prefix (02-pytorch-c10d.md §9)
    tb = text[text.index(f"[rank{c}]: Traceback") :].splitlines()
    assert all(line.startswith(f"[rank{c}]: ") for line in tb[:-1])
    group = t["collateral"][0]
    assert group["contains"] == "Watchdog caught collective operation timeout"
    per_node = SMALL["ranks"] // SMALL["nodes"]
    assert set(group["ranks"]) == {
        r for r in range(SMALL["ranks"]) if r // per_node != c // per_node
    }
    for r in group["ranks"]:
        m = next(
            m
            for line in read(rank_files(job)[r]).splitlines()
            if (w := C10D.match(line)) and (m := WATCHDOG.search(line[w.end() :]))
        )
        assert int(m["to"]) == 600_000 <= int(m["ran"])


def test_hang_culprit_never_reached_the_timed_out_seq(jobs: dict[str, Path]) -> None:
    job = jobs["hang"]
    t = truth_of(job)
    c = t["initiating"]["rank"]
    n = int(re.fullmatch(r"step (\d+) loss", t["first_deviating"]["contains"])[1])
    files = rank_files(job)
    culprit_text = read(files[c])
    assert f"step {n + 1} loss" not in culprit_text
    m = LAST_WORK.search(culprit_text)
    assert m and m["enq"] == m["done"]
    culprit_last = int(m["enq"])
    for r in t["collateral"][0]["ranks"]:
        text = read(files[r])
        assert f"step {n + 1} loss" in text
        seq = int(next(w["seq"] for line in text.splitlines() if (w := WATCHDOG.search(line))))
        assert seq > culprit_last
        others = LAST_WORK.search(text)
        assert others and int(others["done"]) == culprit_last < int(others["enq"])


def test_nccl_ib_error_story(jobs: dict[str, Path]) -> None:
    job = jobs["nccl-ib-error"]
    t = truth_of(job)
    lines = read(rank_files(job)[t["initiating"]["rank"]]).splitlines()
    i = next(i for i, line in enumerate(lines) if NCCL_WARN.match(line))
    assert lines[i - 1] == ""  # NCCL WARN lines start with "\n" (01-nccl.md §1)
    m = IB_WARN.search(lines[i])
    assert m and m[1] == "12"
    assert t["collateral"][0]["contains"] == "remote process exited or there was a network error"
    assert t["collateral"][0]["ranks"]


def test_xid79_story(jobs: dict[str, Path]) -> None:
    job = jobs["xid79"]
    t = truth_of(job)
    c, node = t["initiating"]["rank"], t["initiating"]["node"]
    dmesg = read(job / node / "dmesg.log")
    xids = [m for line in dmesg.splitlines() if (m := XID.search(line))]
    assert [m[2] for m in xids] == ["79"]
    bus = xids[0][1].split(":")[2]  # PCI:0000:<bus>:00
    init = next(m for line in read(rank_files(job)[c]).splitlines() if (m := NCCL_INIT.match(line)))
    assert init["bus"] == f"{bus}000"  # 01-nccl.md §1: busId is the PCI id without ':' '.'
    for host_dir in job.iterdir():
        if host_dir.is_dir() and host_dir.name != node:
            assert not XID.search(read(host_dir / "dmesg.log"))
    assert "CUDA error: unknown error" in read(rank_files(job)[c])


def test_healthy_finishes_everywhere(jobs: dict[str, Path]) -> None:
    job = jobs["healthy"]
    for rank, path in rank_files(job).items():
        text = read(path)
        assert text.rstrip().endswith("- INFO - __main__ - done")
        assert "Watchdog" not in text and f"[rank{rank}]: Traceback" not in text
    launcher = read(job / "launcher.log")
    assert launcher.count("worker group successfully finished") == SMALL["nodes"]
    assert "ChildFailedError" not in launcher


# --------------------------------------------------------------------------- clock skew


def _first_step_times(job: Path) -> dict[int, datetime]:
    out = {}
    for rank, path in rank_files(job).items():
        line = next(
            line for line in read(path).splitlines() if STEP.match(line) and " step 1 loss" in line
        )
        out[rank] = pylog_time(line)
    return out


@pytest.mark.parametrize("scenario", ["oom-cascade", "healthy"])
def test_skewed_node_stamps_are_shifted(jobs: dict[str, Path], scenario: str) -> None:
    job = jobs[scenario]
    t = truth_of(job)
    m = re.search(r"clock skew \+30000 ms on (gpu-node-\d+)", t["notes"])
    assert m, t["notes"]
    skewed = m[1]
    if t["initiating"]:
        assert skewed == t["initiating"]["node"]  # the skew lands where it fools "earliest wins"
    per_node = SMALL["ranks"] // SMALL["nodes"]
    hosts = sorted(p.name for p in job.iterdir() if p.is_dir())
    times = _first_step_times(job)
    for rank, ts in times.items():
        other = next(r for r in times if hosts[r // per_node] != hosts[rank // per_node])
        delta = (ts - times[other]).total_seconds()
        if hosts[rank // per_node] == skewed:
            assert 29 < delta < 31
        else:
            assert -31 < delta < -29
    # the skewed agent's glog stamps in launcher.log are shifted the same way
    starts = {}
    for line in read(job / "launcher.log").splitlines():
        host, _, rest = line.partition(": ")
        if AGENT.match(rest) and "OMP_NUM_THREADS" in rest and host not in starts:
            starts[host] = datetime.strptime(rest[1:16], "%m%d %H:%M:%S.%f")
    assert set(starts) == set(hosts)
    step1 = {hosts[r // per_node]: ts for r, ts in times.items()}
    lags = {h: (step1[h] - starts[h]).total_seconds() for h in hosts}
    assert max(lags.values()) - min(lags.values()) < 10  # same offset on every node


def test_skew_fools_the_naive_answer(jobs: dict[str, Path]) -> None:
    t = truth_of(jobs["nccl-ib-error"])
    assert "the naive answer is wrong" in t["notes"]
    c = t["initiating"]["rank"]
    files = rank_files(jobs["nccl-ib-error"])
    first_error = {}
    for r, path in files.items():
        for line in read(path).splitlines():
            m = C10D.match(line)
            if m and (m["lvl"] == "E" or "destroy_process_group" in line):
                first_error[r] = m["hms"]
                break
    assert min(first_error, key=lambda r: first_error[r]) != c


@pytest.mark.parametrize("scenario", list(synth.SCENARIOS))
def test_stamps_never_go_backwards_within_a_file(jobs: dict[str, Path], scenario: str) -> None:
    for path in rank_files(jobs[scenario]).values():
        stamps = [
            m["ts"] for line in read(path).split("\n") if (m := PYLOG.match(line.split("\r")[-1]))
        ]
        assert stamps == sorted(stamps), path


def test_no_skew_means_no_note(tmp_path: Path) -> None:
    t = synth.generate_job(tmp_path, ranks=4, nodes=2, size="200KB", scenario="hang", seed=2)
    assert "clock skew" not in t["notes"]


# --------------------------------------------------------------------------- line shapes and mix


def test_line_shapes(jobs: dict[str, Path]) -> None:
    job = jobs["oom-cascade"]
    for path in rank_files(job).values():
        for line in read(path).splitlines():
            if line.startswith("[rank") and not line.startswith(
                tuple(f"[rank{i}]: " for i in range(100))
            ):
                assert C10D.match(line), line
            if " NCCL INFO " in line:
                assert NCCL_INFO.match(line), line
    launcher = read(job / "launcher.log").splitlines()
    hosts = {p.name for p in job.iterdir() if p.is_dir()}
    stamped = 0
    for line in launcher:
        host, sep, rest = line.partition(": ")
        assert sep and host in hosts, line  # pdsh-style prefix on every line (08-wrappers.md §2)
        if AGENT.match(rest):
            stamped += 1
    assert stamped
    failed = [m for line in launcher if (m := FAILED.search(line))]
    assert len(failed) == SMALL["nodes"]
    text = "\n".join(line.partition(": ")[2] for line in launcher)
    # 03-torchrun-elastic.md §2: _FAILURE_FORMAT_TEMPLATE fields in order
    entry = re.compile(
        r"\[\d+\]:\n  time      : \d{4}-\d\d-\d\d_\d\d:\d\d:\d\d\n  host      : \S+\n"
        r"  rank      : \d+ \(local_rank: \d+\)\n  exitcode  : -?\d+ \(pid: \d+\)\n"
        r"  error_file: <N/A>\n  traceback : .+"
    )
    assert len(entry.findall(text)) >= SMALL["nodes"]
    assert text.count("Root Cause (first observed failure):") == SMALL["nodes"]


def test_dmesg_and_nvidia_smi_shapes(jobs: dict[str, Path]) -> None:
    for path in jobs["xid79"].glob("*/dmesg.log"):
        lines = read(path).splitlines()
        stamp = DMESG_CTIME if DMESG_CTIME.match(lines[0]) else DMESG_RAW
        for line in lines:
            assert stamp.match(line) or (line.startswith(" ") and "NVRM:" in line), line
    for path in jobs["xid79"].glob("*/nvidia-smi.txt"):
        lines = read(path).splitlines()
        assert re.match(
            r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}", lines[0]
        )
        assert {len(line) for line in lines[1:]} == {89}  # driver 535 table width
        assert sum("NVIDIA H100" in line for line in lines) == SMALL["ranks"] // SMALL["nodes"]


def test_line_mix_is_realistic(tmp_path: Path) -> None:
    synth.generate_job(tmp_path, ranks=8, nodes=2, size="4MB", scenario="healthy", seed=5)
    kinds: Counter[str] = Counter()
    glued = 0
    for path in rank_files(tmp_path).values():
        for line in read(path).split("\n")[:-1]:
            if PYLOG.match(line):
                kinds["stamped"] += 1
            elif NCCL_INFO.match(line):
                kinds["nccl"] += 1
            elif line.startswith("\r"):
                kinds["bar"] += 1
                glued += bool(re.search(r"it/s\]\d{4}-\d\d-\d\d ", line))
            else:
                kinds["other"] += 1
    total = sum(kinds.values())
    assert 0.65 <= kinds["stamped"] / total <= 0.85
    assert 0.10 <= kinds["nccl"] / total <= 0.22
    assert 0.01 <= kinds["bar"] / total <= 0.06
    assert glued >= 1  # a log line printed right after a tqdm bar, no newline between


def test_a_few_benign_tracebacks(tmp_path: Path) -> None:
    synth.generate_job(tmp_path, ranks=16, nodes=2, size="2MB", scenario="healthy", seed=11)
    with_tb = [
        r for r, p in rank_files(tmp_path).items() if "Traceback (most recent call last)" in read(p)
    ]
    assert 1 <= len(with_tb) <= 8


# --------------------------------------------------------------------------- batch


def test_batch(tmp_path: Path) -> None:
    kw = {
        "jobs": 5,
        "ranks": 4,
        "nodes": 2,
        "size": "120KB",
        "bad_nodes": 1,
        "cluster_nodes": 6,
        "seed": 9,
    }
    summary = synth.generate_batch(tmp_path / "a", **kw)
    on_disk = json.loads(read(tmp_path / "a" / "truth_batch.json"))
    assert on_disk == summary
    assert len(summary["bad_nodes"]) == 1 and set(summary["bad_nodes"]) <= set(summary["cluster"])
    assert [j["job"] for j in summary["jobs"]] == [f"job-{i:03d}" for i in range(5)]
    for j in summary["jobs"]:
        job = tmp_path / "a" / j["job"]
        assert sorted(p.name for p in job.iterdir() if p.is_dir()) == j["hosts"]
        assert set(j["hosts"]) <= set(summary["cluster"])
        t = truth_of(job)
        assert t["status"] == j["status"]
        assert (t["initiating"] or {}).get("node") == j["initiating_node"]
    synth.generate_batch(tmp_path / "b", **kw)
    assert tree_digest(tmp_path / "a") == tree_digest(tmp_path / "b")


def test_bad_nodes_initiate_disproportionately() -> None:
    rng = random.Random(0)
    cluster = synth.default_hosts(64)
    bad = {"gpu-node-05", "gpu-node-40"}
    seen: Counter[str] = Counter()
    initiated: Counter[str] = Counter()
    for _ in range(3000):
        _scenario, hosts, culprit = synth._batch_job(rng, cluster, bad, 16, 4)
        seen.update(hosts)
        if culprit is not None:
            initiated[hosts[culprit // 4]] += 1
    bad_rate = sum(initiated[h] for h in bad) / sum(seen[h] for h in bad)
    good = [h for h in cluster if h not in bad]
    good_rate = sum(initiated[h] for h in good) / sum(seen[h] for h in good)
    assert bad_rate > 0.6
    assert good_rate < 0.25


# --------------------------------------------------------------------------- CLI


def test_cli_main(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "job"
    rc = synth.main(
        [
            str(out),
            "--ranks",
            "4",
            "--nodes",
            "2",
            "--size",
            "200KB",
            "--scenario",
            "xid79",
            "--skew",
            "45s",
            "--seed",
            "1",
        ]
    )
    assert rc == 0
    assert truth_of(out)["root_cause"]["category"] == "hardware_xid"
    assert "clock skew +45000 ms" in truth_of(out)["notes"]
    assert "wrote" in capsys.readouterr().err
    assert synth.main([str(tmp_path / "bad"), "--size", "lots"]) == 2
    rc = synth.main(
        [
            "batch",
            str(tmp_path / "batch"),
            "--jobs",
            "2",
            "--ranks",
            "2",
            "--nodes",
            "1",
            "--size",
            "80KB",
            "--bad-nodes",
            "1",
            "--cluster-nodes",
            "4",
        ]
    )
    assert rc == 0 and (tmp_path / "batch" / "job-001" / "truth.json").is_file()


def test_module_runs_as_script() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "correlator.synth", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0 and "--scenario" in done.stdout
