"""bench/: run_bench's report and timing, the real-mix job generator, the naive parse.

No timing is asserted: the figures are the bench's to print, not a test's to judge.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def load_bench() -> ModuleType:
    return _load("run_bench")


FAKE_CLI = """
import sys, time
args = sys.argv[1:]
if args[0] == "ingest":
    ballast = bytearray(30_000_000)  # a measurable RSS
    time.sleep(0.05)
    open(args[args.index("--out") + 1], "wb").write(b"PAR1")
    sys.exit(0)
print("Error: No such command 'analyze'.", file=sys.stderr)
sys.exit(2)
"""


def test_bench_arguments() -> None:
    bench = load_bench()
    a = bench.parse_args([])
    assert (a.size, a.ranks, a.nodes, a.keep, a.rounds, a.jobs) == (
        1_000_000_000, 64, 8, False, 3, ["synthetic", "realmix"])
    a = bench.parse_args(["--size", "500MB", "--ranks", "16", "--keep", "--cli", "python -m x",
                          "--rounds", "5", "--jobs", "realmix"])
    assert (a.size, a.ranks, a.keep, a.rounds, a.jobs) == (500_000_000, 16, True, 5, ["realmix"])
    assert bench.cli_command(a.cli) == ["python", "-m", "x"]
    for bad in (["--size", "huge"], ["--jobs", "synthetic,other"]):
        with pytest.raises(SystemExit):
            bench.parse_args(bad)


def _rounds(bench: ModuleType, name: str, *seconds: float, rss: int = 2**28) -> list:
    return [bench.Run(name, ["x"], seconds=s, returncode=0, peak_rss_bytes=rss) for s in seconds]


def test_bench_report_pass_and_fail() -> None:
    bench = load_bench()
    params = bench.JobParams(1_000_000_000, 64, 8, "oom-cascade", "30s", 0)
    report = bench.Report(1_000_000_000, 90, 8_000_000, params, failures=[])
    report.rounds["ingest"] = _rounds(bench, "ingest", 6.0, 5.0, 4.0, rss=900 * 2**20)
    report.rounds["naive"] = _rounds(bench, "naive", 9.0, 8.0, 7.5)
    report.runs["analyze"] = bench.Run("analyze", ["x"], skipped="the CLI has no `analyze` command yet")
    text = bench.format_report(report)
    # the median of 4, 5, 6 s: 200 MB/s
    assert "200.0 MB/s" in text and "1,600,000 lines/s" in text and "4.00 /   5.00 /   6.00 s" in text
    assert "naive / ingest 1.60x" in text
    assert text.count("PASS") == 5 and "FAIL" not in text, text
    assert "analyze : skipped" in text and "lnav    : not run" in text
    assert report.passed()
    # fast, but a batch was kept as raw lines: an internal error, not a pass
    report.failures = ["gpu-node-00/rank003.log: could not parse lines 1-500: KeyError('x')"]
    text = bench.format_report(report)
    assert text.count("FAIL") == 1 and "1 failures" in text and "failed: gpu-node-00/rank003.log" in text
    assert not report.passed()
    report.failures = []
    # fast enough for 100 MB/s, but not 1.5x the naive parse, and over 2 GB in one round
    report.rounds["ingest"] = [*_rounds(bench, "ingest", 6.0, 7.0), *_rounds(bench, "ingest", 6.5, rss=3 * 2**30)]
    text = bench.format_report(report)
    assert text.count("FAIL") == 2 and "1.23x  FAIL" in text and "3,072 MiB  FAIL" in text and not report.passed()
    report.rounds["ingest"] = [bench.Run("ingest", ["x"], seconds=0.1, returncode=2, stderr="Error: boom\n")]
    text = bench.format_report(report)
    assert "FAILED (exit 2): Error: boom" in text and not report.passed()


def test_bench_ratio_targets_for_lnav_and_layouts() -> None:
    bench = load_bench()
    params = bench.JobParams(1_000_000_000, 64, 8, "oom-cascade", "30s", 0)
    report = bench.Report(1_000_000_000, 90, 8_000_000, params, failures=[], label="realmix")
    report.rounds["ingest"] = _rounds(bench, "ingest", 4.0, 4.0, 4.0)
    report.rounds["naive"] = _rounds(bench, "naive", 7.0, 6.0, 5.0)
    report.rounds["lnav"] = _rounds(bench, "lnav", 2.0, 2.5, 3.0)
    report.rounds["ingest-flat"] = _rounds(bench, "ingest-flat", 5.0, 5.5, 9.0)
    report.rounds["ingest-per-node"] = _rounds(bench, "ingest-per-node", 5.0, 5.0, 5.0)
    labels = {label: (measured, ok) for label, measured, ok in report.targets()}
    # the synthetic job's absolute targets do not apply to the real mix
    assert not any("MB/s" in label for label in labels)
    assert labels["vs naive parse >= 1.5x"] == ("1.50x", True)
    assert labels["ingest <= 1.5x lnav"] == ("1.60x", False)
    assert labels["flat <= 1.10x per-node"] == ("1.10x", True)
    report.rounds["ingest-flat"] = _rounds(bench, "ingest-flat", 5.6, 5.6, 5.6)
    assert not dict((t, ok) for t, _, ok in report.targets())["flat <= 1.10x per-node"]


def test_bench_analyze_target_counts_when_analyze_ran() -> None:
    bench = load_bench()
    params = bench.JobParams(1_000_000_000, 64, 8, "oom-cascade", "30s", 0)
    report = bench.Report(1_000_000_000, 90, 8_000_000, params, failures=[])
    report.runs["ingest"] = bench.Run("ingest", ["x"], seconds=5.0, returncode=0, peak_rss_bytes=2**28)
    # analyze exits 1 on a failed job: that is a verdict, not an error
    report.runs["analyze"] = bench.Run("analyze", ["x"], seconds=12.0, returncode=1, ok_codes=(0, 1, 3))
    report.runs["analysis"] = bench.Run("analysis", ["x"], seconds=4.0, returncode=1, ok_codes=(0, 1, 3))
    text = bench.format_report(report)
    assert "analyze end to end < 15 s" in text and "12.0 s" in text and text.count("PASS") == 5
    assert "analysis:" in text and report.passed()
    report.runs["analyze"] = bench.Run("analyze", ["x"], seconds=40.0, returncode=1, ok_codes=(0, 1, 3))
    assert not report.passed() and bench.format_report(report).count("FAIL") == 1


def test_tree_rss_counts_the_children(tmp_path: Path) -> None:
    """A parent that holds little and two children that hold ~40 MB each: the tree's
    figure is above what any one of them holds."""
    bench = load_bench()
    script = tmp_path / "tree.py"
    script.write_text(
        "import subprocess, sys\n"
        "child = 'b = bytearray(40_000_000); b[::4096] = b\"x\" * len(b[::4096]); import time; time.sleep(0.6)'\n"
        "ps = [subprocess.Popen([sys.executable, '-c', child]) for _ in range(2)]\n"
        "[p.wait() for p in ps]\n"
    )
    run = bench.timed("tree", [sys.executable, str(script)])
    assert run.ok and run.peak_rss_bytes > 80_000_000 and run.cpu_seconds > 0


def test_bench_end_to_end_with_fake_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    fake = tmp_path / "fake_correlator.py"
    fake.write_text(FAKE_CLI)
    out = tmp_path / "out"
    args = ["--size", "300KB", "--ranks", "4", "--nodes", "2", "--out-dir", str(out), "--no-lnav",
            "--cli", f"{sys.executable} {fake}", "--json", str(tmp_path / "figures.json"), "--keep",
            "--rounds", "2", "--jobs", "synthetic", "--no-naive"]
    bench.main(args)
    printed = capsys.readouterr()
    assert "analyze : skipped (the CLI has no `analyze` command yet)" in printed.out
    assert re.search(r"ingest  : +[\d.]+ / +[\d.]+ / +[\d.]+ s", printed.out)
    assert "min / median / max of 2 rounds" in printed.out
    assert "peak RSS < 2 GB" in printed.out and "flat / per-node" in printed.out
    assert re.search(r"every line parsed +not read +FAIL", printed.out)  # the fake's file is no timeline
    figures = json.loads((tmp_path / "figures.json").read_text())
    assert figures["runs"]["ingest"]["returncode"] == 0 and len(figures["runs"]["ingest"]["seconds_all"]) == 2
    assert figures["runs"]["ingest"]["peak_rss_bytes"] > 25_000_000  # the fake's own ballast
    assert figures["lines"] > 1000 and abs(figures["input_bytes"] - 300_000) < 30_000
    assert (out / "job.parquet").read_bytes() == b"PAR1"
    assert not (out / "job-flat").exists()  # the hard-linked layouts are not kept
    bench.main(args)  # same parameters: the kept job is reused, not regenerated
    assert "reusing" in capsys.readouterr().err
    bench.main([a for a in args if a != "--keep"])  # without --keep everything is cleaned up afterwards
    assert not (out / "job").exists() and not (out / "job.parquet").exists()


def test_layout_pair_links_the_same_rank_files(tmp_path: Path) -> None:
    bench = load_bench()
    job = tmp_path / "job"
    for rel in ("gpu-node-00/rank000.log", "gpu-node-01/rank001.log", "rank002.log", "gpu-node-00/dmesg.log"):
        (job / rel).parent.mkdir(parents=True, exist_ok=True)
        (job / rel).write_text(f"{rel}\n")
    flat, per_node, size = bench.layout_pair(job, tmp_path)
    assert sorted(p.name for p in flat.iterdir()) == ["rank000.log", "rank001.log", "rank002.log"]
    assert sorted(p.relative_to(per_node).as_posix() for p in per_node.rglob("*.log")) == [
        "gpu-node-00/rank000.log", "gpu-node-01/rank001.log", "top/rank002.log"]
    assert (flat / "rank001.log").stat().st_ino == (job / "gpu-node-01/rank001.log").stat().st_ino
    assert size == sum((job / r).stat().st_size for r in ("gpu-node-00/rank000.log", "gpu-node-01/rank001.log", "rank002.log"))


def test_file_lines_counts_to_the_last_line_with_text(tmp_path: Path) -> None:
    bench = load_bench()
    (tmp_path / "a.log").write_bytes(b"one\n\ntwo\n\n  \n")
    (tmp_path / "b.log").write_bytes(b"no newline at the end")
    assert bench.file_lines(tmp_path) == {"a.log": (13, 5), "b.log": (21, 0)}
    assert bench.file_lines(tmp_path, to_last_text=True) == {"a.log": (13, 3), "b.log": (21, 1)}


def test_bench_reads_ingest_failures_from_the_timeline(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    bench = load_bench()
    problems = [
        {"file": "truth.json", "line": None, "what": "excluded by pattern 'truth.json'", "action": "not read"},
        {"file": "r3.log", "line": 1, "what": "could not parse lines 1-9: KeyError('x')", "action": "kept as raw lines"},
    ]
    files = [{"file": "r3.log", "size": 90, "lines": 9}, {"file": "r4.log", "size": 90, "lines": 7}]
    path = tmp_path / "t.parquet"
    table = pa.table({"n": [1]}).replace_schema_metadata(
        {"correlator.problems": json.dumps(problems), "correlator.files": json.dumps(files)})
    pq.write_table(table, path)
    assert bench._ingest_failures(path) == ["r3.log: could not parse lines 1-9: KeyError('x')"]
    # truth.json is in no file table: left out on purpose, not a loss
    assert bench._ingest_failures(path, {"r3.log": 9, "r4.log": 9, "truth.json": 5})[1:] == [
        "r4.log: the timeline accounts for 7 of 9 lines"]
    path.write_bytes(b"PAR1")
    assert bench._ingest_failures(path) is None


# --------------------------------------------------------------------------- bench/realmix.py


@pytest.fixture(scope="module")
def sources():
    return _load("realmix").load_sources()


def test_realmix_reads_only_real_captures_and_pastes(sources) -> None:
    realmix = _load("realmix")
    paths = [s.path for s in sources]
    assert paths and not any(p.split("/")[0] in realmix.ASSEMBLED for p in paths)
    assert not any(Path(p).name in ("README.md", "truth.json") or "_capture" in p for p in paths)
    # both kinds of real: captured jobs and pasted public threads
    assert any(p.startswith("heldout") for p in paths) and any(p.startswith("hangs/") for p in paths)


def test_realmix_is_deterministic_keeps_the_mix_and_writes_every_layout(tmp_path: Path, sources) -> None:
    realmix = _load("realmix")
    a = realmix.generate(tmp_path / "a", size=600_000, ranks=8, nodes=4, seed=3, sources=sources)
    b = realmix.generate(tmp_path / "b", size=600_000, ranks=8, nodes=4, seed=3, sources=sources)
    files_a = sorted(p.relative_to(tmp_path / "a").as_posix() for p in (tmp_path / "a").rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(tmp_path / "b").as_posix() for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert files_a == files_b and a == b
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files_a)
    # mixed: nodes 0-3 flat, per node, a --log-dir tree, a console
    assert "rank0.log" in files_a and "node-1/rank2.log" in files_a and "node-3/console.log" in files_a
    assert any(re.fullmatch(r"node-2/logs/none_\w+/attempt_0/[01]/stdout\.log", f) for f in files_a)
    # a progress bar's carriage returns stay inside its line: split on newlines only
    console = (tmp_path / "a/node-3/console.log").read_bytes().decode().split("\n")[:-1]
    assert {ln[:11] for ln in console} == {"[default0]:", "[default1]:"}
    total = sum((tmp_path / "a" / f).stat().st_size for f in files_a)
    assert 550_000 < total < 700_000
    # the mix is a sample of whole runs of lines: 600 KB of them wanders by a tenth on a
    # corpus with a few long files, 3 MB stays within a few hundredths on every seed tried
    big = realmix.generate(tmp_path / "big", size=3_000_000, ranks=8, nodes=4, seed=3, sources=sources)
    for kind, share in big["corpus_kind_shares"].items():
        assert abs(big["job_kind_shares"][kind] - share) < 0.08, (kind, big)


def test_realmix_renames_nccl_heads_to_the_rank(tmp_path: Path, sources) -> None:
    realmix = _load("realmix")
    realmix.generate(tmp_path / "j", size=2_000_000, ranks=4, nodes=2, layout="per-node", seed=1, sources=sources)
    heads = set()
    for path in (tmp_path / "j").rglob("rank*.log"):
        rank = int(path.stem.removeprefix("rank"))
        for line in path.read_bytes().decode().split("\n"):
            m = realmix._NCCL_HEAD.match(line)
            if m:
                heads.add(m.group(1))
                assert m.group(1) == f"gpu-node-{rank // 2:02d}" and int(m.group(4)) == rank % 2
    assert heads


def test_a_real_mix_job_ingests_every_line(tmp_path: Path, sources) -> None:
    """Real lines in unplanned orders: a batch that fails to fold or classify is kept
    as raw lines and reported, which the bench's `every line parsed` target forbids.
    (A tqdm bar or a stamp-only piece landing inside a traceback, right after a line
    that continued nothing yet, once made fold's groups and heads disagree.)"""
    from correlator.ingest import IngestOptions, ingest

    realmix = _load("realmix")
    bench = load_bench()
    realmix.generate(tmp_path / "job", size=2_000_000, ranks=4, nodes=2, layout="flat", seed=0, sources=sources)
    out = tmp_path / "t.parquet"
    ingest(tmp_path / "job", out_parquet=out, options=IngestOptions(echo_problems=False, workers=1))
    lines = {rel: n for rel, (_, n) in bench.file_lines(tmp_path / "job", to_last_text=True).items()}
    assert bench._ingest_failures(out, lines) == []


# --------------------------------------------------------------------------- bench/naive_parse.py


def test_naive_parse_keeps_every_line_and_reads_stamps_levels_ranks(tmp_path: Path) -> None:
    import polars as pl

    naive = _load("naive_parse")
    job = tmp_path / "job"
    job.mkdir()
    (job / "rank3.log").write_text(
        "2026-12-01 08:00:00,549 INFO trainer: step 1\n"
        "\n"
        "[rank3]: Traceback (most recent call last):\n"
        'a line with "quotes", commas\tand tabs\n'
    )
    (job / "console.log").write_text("[default1]:12/01/2026 08:00:01 - WARNING - x\n")
    assert naive.parse(job, tmp_path / "out.parquet") == 5
    df = pl.read_parquet(tmp_path / "out.parquet").sort("file", "line_no")
    assert df["rank"].to_list() == [1, None, None, 3, None]
    assert df["level"].to_list() == ["WARNING", "INFO", None, None, None]
    assert df["ts"].dt.second().to_list()[:2] == [1, 0]
