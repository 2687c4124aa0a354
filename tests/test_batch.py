"""Batch mode: many jobs in parallel, resumable, a bad job never stopping the rest;
summary.parquet, per-job reports and timelines, the index with its repeat-offender
table, and SQL over the result. Rules are this file's own (never rules/)."""

from __future__ import annotations

import io
import json
import os
import random
import time
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
import yaml

from correlator import synth
from correlator.batch.index import _tail, repeat_offenders
from correlator.batch.run import BatchOptions, find_jobs, run_batch
from correlator.timeline.collection import open_collection

# What the generator's failures print (correlator/synth.py), as root and collateral
# rules, and its deliberate distractors (a retried I/O error, slow data loading on a
# few ranks) as benign context, as a knowledge base would have them.
RULES = [
    ("t-xid79", "root", "hardware_xid", r"NVRM: Xid \(PCI:[0-9a-fA-F:]+\): 79",
     "NVRM: Xid (PCI:0000:3a:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.",
     {"blames": "attr:pci", "leads_to": ["t-watchdog"]}),
    ("t-ib", "root", "nccl_network", r"NET/IB : Got completion from peer",
     "NET/IB : Got completion from peer 10.1.0.12<53464> with error 12, opcode 0, len 0, vendor err 129 (Recv)",
     {"leads_to": ["t-remote"]}),
    ("t-oom", "root", "oom", r"CUDA out of memory",
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", {"leads_to": ["t-watchdog"]}),
    ("t-watchdog", "collateral", "nccl_timeout_hang", r"Watchdog caught collective operation timeout",
     "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE)", {}),
    ("t-remote", "collateral", "nccl_network", r"remote process exited or there was a network error",
     "NCCL error: remote process exited or there was a network error", {}),
    ("t-shard-retry", "context", "data_error", r"failed to read shard \S+ \(attempt \d+/\d+\), retrying",
     "failed to read shard /data/shards/train-00324.arrow (attempt 1/3), retrying", {"benign": True}),
    ("t-shard-retry-tb", "context", "data_error", r"in _read_shard[\s\S]*OSError: \[Errno 5\]",
     'Traceback (most recent call last):\n  File "/workspace/data.py", line 121, in _read_shard\n'
     "OSError: [Errno 5] Input/output error", {"benign": True}),
    ("t-slow-data", "context", "data_error", r"slow data loading at step \d+",
     "slow data loading at step 7: waited 2.41s for a batch (prefetch queue empty)", {"benign": True}),
]


# the generator's expected verdicts sit in each job directory: not logs
NOT_LOGS = ("truth.json",)


def write_rules(d: Path) -> str:
    d.mkdir(parents=True, exist_ok=True)
    for rid, role, cat, rx, ex, extra in RULES:
        (d / f"{rid}.yaml").write_text(yaml.safe_dump({
            "id": rid, "title": rid, "category": cat, "role": role, "signature": ex, "match": {"regex": rx},
            "root_cause": "x", "fix": "y", "verify": "z", "evidence": {"kind": "observed", "provenance": "test"},
            "examples": [ex], **extra,
        }))
    return str(d)


# --------------------------------------------------------------------------- statistics


def test_poisson_binomial_tail_matches_the_binomial():
    from math import comb

    n, p, k = 12, 0.25, 7
    binom = sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))
    assert abs(_tail([p] * n, k) - binom) < 1e-12
    assert _tail([0.5, 0.5], 0) == 1.0 and _tail([0.5], 2) == 0.0


def _rows(seed: int = 1) -> list[dict]:
    """40 failed 4-node jobs on an 8-node cluster: n0 initiates nearly every job it is
    in; the other nodes initiate at chance."""
    rng = random.Random(seed)
    cluster = [f"n{i}" for i in range(8)]
    rows = []
    for j in range(40):
        members = sorted(rng.sample(cluster, 4))
        culprit = "n0" if "n0" in members and rng.random() < 0.9 else rng.choice([m for m in members if m != "n0"])
        rows.append({"job": f"job-{j:02d}", "status": "failed", "all_ranks": False, "initiating_node": culprit,
                     "initiating_gpu": "cuda:3" if culprit == "n0" else f"cuda:{rng.randrange(2)}",
                     "node_list": members, "ranks": 8, "category": "hardware_xid"})
    rows.append({"job": "healthy-1", "status": "healthy", "node_list": cluster[:4], "ranks": 8})
    rows.append({"job": "config-1", "status": "failed", "all_ranks": True, "node_list": cluster[:4], "ranks": 8})
    return rows


def test_repeat_offenders_flag_the_bad_node_not_busy_good_ones():
    rows = _rows()
    offs, tested = repeat_offenders(rows, "node")
    assert tested == 8
    assert offs[0].node == "n0" and offs[0].flag == "suspect"
    assert offs[0].jobs == sorted(r["job"] for r in rows if r.get("initiating_node") == "n0")
    # good nodes that initiated several failures by chance are listed, not flagged
    others = [o for o in offs if o.node != "n0"]
    assert others and all(o.initiated >= 2 for o in others)
    assert all(o.flag != "suspect" for o in others)
    assert all(o.expected <= o.exposure for o in offs)


def test_repeat_offenders_by_gpu():
    offs, _ = repeat_offenders(_rows(), "gpu")
    assert offs[0].key == "n0 cuda:3" and offs[0].flag == "suspect" and offs[0].gpu == "cuda:3"


# --------------------------------------------------------------------------- job discovery


def test_find_jobs_one_level_and_glob(tmp_path):
    for name in ("a", "b", ".hidden", "_assemble"):
        (tmp_path / "root" / name).mkdir(parents=True)
    (tmp_path / "root" / "notes.txt").write_text("x")
    assert [n for n, _ in find_jobs(str(tmp_path / "root"))] == ["a", "b"]
    (tmp_path / "x" / "a").mkdir(parents=True)
    got = find_jobs(str(tmp_path / "*" / "a"))
    assert len(got) == 2 and len({n for n, _ in got}) == 2  # same basename, made unique


# --------------------------------------------------------------------------- end to end


SECRET = "hf_PlantedTokenInABatchJob0123456789"


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("batch")
    root = base / "jobs"
    # 24 jobs on an 8-node cluster, two planted bad nodes (seed 14: the generator's
    # own truth singles both out, see test_offenders_match_the_generators_truth)
    truth = synth.generate_batch(root, jobs=24, ranks=8, nodes=4, size="200KB", bad_nodes=2,
                                 cluster_nodes=8, seed=14)
    # a job with nothing readable: must become an error row, not stop the batch
    (root / "job-broken").mkdir()
    (root / "job-broken" / "core.bin").write_bytes(b"\x00\x01\x02" * 1000)
    # a secret in one job's log: masked in its timeline and reports
    with (root / "job-000" / "launcher.log").open("a") as fh:
        fh.write(f"export HF_TOKEN={SECRET}\n")
    rules = write_rules(base / "rules")
    out = base / "reports"
    log = io.StringIO()
    res = run_batch(str(root), str(out), BatchOptions(workers=2, rules_dirs=(rules,), builtin_rules=False, exclude=NOT_LOGS),
                    progress=log)
    return {"root": root, "out": out, "truth": truth, "result": res, "log": log.getvalue(), "rules": rules}


def test_batch_writes_every_output(batch):
    out, res = batch["out"], batch["result"]
    assert res.jobs == 25
    assert res.errors == 1, [(r["job"], r.get("error")) for r in res.rows if r["status"] == "error"]
    summary = pq.read_table(out / "summary.parquet").to_pylist()
    assert len(summary) == 25
    by_job = {r["job"]: r for r in summary}
    broken = by_job["job-broken"]
    assert broken["status"] == "error" and "nothing could be read" in broken["error"]
    for name, r in by_job.items():
        if name == "job-broken":
            continue
        assert r["status"] in ("failed", "healthy", "inconclusive")
        assert (out / "jobs" / f"{name}.html").is_file() and (out / "jobs" / f"{name}.json").is_file()
        assert (out / "timelines" / f"{name}.parquet").is_file()
        assert r["events"] > 0 and r["total_s"] > 0 and r["ingest_s"] > 0 and len(r["node_list"]) == 4
        verdict = json.loads((out / "jobs" / f"{name}.json").read_text())
        assert verdict["job"] == name and verdict["status"] == r["status"]
    assert "[25/25]" in batch["log"] and "1 error" in batch["log"]
    assert not list((out / "timelines").glob(".*"))  # no scratch files left behind


def test_batch_finds_the_planted_failures(batch):
    by_job = {r["job"]: r for r in pq.read_table(batch["out"] / "summary.parquet").to_pylist()}
    planted = [j for j in batch["truth"]["jobs"] if j["scenario"] in ("xid79", "nccl-ib-error", "oom-cascade")]
    right = [j for j in planted if by_job[j["job"]]["initiating_node"] == j["initiating_node"]]
    assert len(right) == len(planted), [(j["job"], j["scenario"]) for j in planted if j not in right]
    # the initiating GPU: NCCL's "cudaDev N" of the initiating rank (2 ranks per node here)
    with_rank = [by_job[j["job"]] for j in planted if by_job[j["job"]]["initiating_rank"] is not None]
    assert with_rank and all(r["initiating_gpu"] == f"cuda:{r['initiating_rank'] % 2}" for r in with_rank)
    healthy = [j["job"] for j in batch["truth"]["jobs"] if j["status"] == "healthy"]
    assert healthy and all(by_job[j]["status"] == "healthy" for j in healthy)


def test_offenders_match_the_generators_truth(batch):
    truth = batch["truth"]
    rows = pq.read_table(batch["out"] / "summary.parquet").to_pylist()
    offs, _ = repeat_offenders(rows, "node")
    assert sorted(o.node for o in offs if o.flag == "suspect") == truth["bad_nodes"]
    md = (batch["out"] / "index.md").read_text()
    section = md[md.index("## Repeat offenders: nodes"):md.index("## Repeat offenders: GPUs")]
    for node in truth["bad_nodes"]:
        assert f"| {node} |" in section and "**suspect**" in section
    html = (batch["out"] / "index.html").read_text()
    for node in truth["bad_nodes"]:
        assert f'<tr class="suspect" data-key="{node}">' in html


def test_index_sections(batch):
    md = (batch["out"] / "index.md").read_text()
    for s in ("# correlator batch: 25 jobs", "## Failures by category over time", "## Repeat offenders: GPUs",
              "## Inconclusive jobs", "## Jobs that could not be analysed (1)", "## All jobs",
              "(jobs/job-001.html)"):
        assert s in md, s
    html = (batch["out"] / "index.html").read_text()
    assert "<svg" in html and 'href="jobs/job-001.html"' in html and "job-broken" in html


def test_batch_masks_secrets_everywhere(batch):
    out = batch["out"]
    assert SECRET not in (out / "jobs" / "job-000.html").read_text()
    assert SECRET not in (out / "jobs" / "job-000.json").read_text()
    messages = pq.read_table(out / "timelines" / "job-000.parquet", columns=["message"]).column("message")
    joined = "\n".join(m for m in messages.to_pylist() if m)
    assert SECRET not in joined and "HF_TOKEN=hf_***" in joined


def test_sql_over_the_batch(batch):
    out = batch["out"]
    con = duckdb.connect()
    open_collection(con, out)
    n_jobs, = con.execute("SELECT count(*) FROM summary").fetchone()
    assert n_jobs == 25
    per_job = dict(con.execute("SELECT job, count(*) FROM events GROUP BY job").fetchall())
    expected = {r[0]: r[1] for r in con.execute("SELECT job, events FROM summary WHERE status <> 'error'").fetchall()}
    assert per_job == expected
    files, = con.execute("SELECT count(DISTINCT job) FROM files").fetchone()
    assert files == 24
    # the clock offsets the analysis found are applied to ts_aligned in the stored timelines
    skewed = con.execute("SELECT count(*) FROM events WHERE ts_aligned <> ts").fetchone()[0]
    applied = sum(1 for p in (out / "jobs").glob("*.json")
                  for c in json.loads(p.read_text())["clock"] if c["applied"])
    assert (skewed > 0) == (applied > 0)


def _some_jobs(batch: dict, root: Path, *names: str) -> Path:
    """``root`` holding links to the fixture's jobs ``names`` (its own output stays intact)."""
    root.mkdir()
    for name in names:
        os.symlink(batch["root"] / name, root / name)
    return root


def test_resume_skips_done_jobs_and_force_redoes_them(batch, tmp_path):
    out = batch["out"]
    stamp = (out / "jobs" / "job-003.html").stat().st_mtime_ns
    log = io.StringIO()
    opts = BatchOptions(workers=2, rules_dirs=(batch["rules"],), builtin_rules=False, exclude=NOT_LOGS)
    res = run_batch(str(batch["root"]), str(out), opts, progress=log)
    assert res.skipped == 24 and res.analysed == 1  # only the broken job is tried again
    assert "24 of 25 jobs already analysed" in log.getvalue()
    assert (out / "jobs" / "job-003.html").stat().st_mtime_ns == stamp
    assert len(pq.read_table(out / "summary.parquet")) == 25
    # --force on a copy of two jobs (a fresh output dir keeps the shared fixture intact)
    small = _some_jobs(batch, tmp_path / "two", "job-001", "job-002")
    out2 = tmp_path / "out2"
    run_batch(str(small), str(out2), opts, progress=None)
    first = (out2 / "jobs" / "job-001.html").stat().st_mtime_ns
    res = run_batch(str(small), str(out2), BatchOptions(workers=1, force=True, rules_dirs=(batch["rules"],),
                                                        builtin_rules=False, exclude=NOT_LOGS), progress=None)
    assert res.analysed == 2 and res.skipped == 0
    assert (out2 / "jobs" / "job-001.html").stat().st_mtime_ns != first


def test_a_dying_worker_does_not_stop_the_batch(batch, tmp_path, monkeypatch):
    small = _some_jobs(batch, tmp_path / "jobs", "job-004", "job-005", "job-006")
    monkeypatch.setenv("CORRELATOR_TEST_KILL_WORKER_ON", "job-005")
    res = run_batch(str(small), str(tmp_path / "out"), BatchOptions(workers=2, rules_dirs=(batch["rules"],),
                                                                    builtin_rules=False, exclude=NOT_LOGS), progress=None)
    by_job = {r["job"]: r for r in res.rows}
    assert by_job["job-005"]["status"] == "error" and "worker process died" in by_job["job-005"]["error"]
    assert by_job["job-004"]["status"] != "error" and by_job["job-006"]["status"] != "error"


def test_a_job_past_the_timeout_is_stopped_and_the_batch_goes_on(batch, tmp_path, monkeypatch):
    # job-009 takes two minutes; job-008 and job-010 share the pool with it (one may
    # be running beside it when it is stopped) and are still analysed
    small = _some_jobs(batch, tmp_path / "jobs", "job-008", "job-009", "job-010")
    monkeypatch.setenv("CORRELATOR_TEST_HANG_WORKER_ON", "job-009")
    opts = BatchOptions(workers=2, rules_dirs=(batch["rules"],), builtin_rules=False, exclude=NOT_LOGS, job_timeout=20)
    started = time.monotonic()
    res = run_batch(str(small), str(tmp_path / "out"), opts, progress=None)
    by_job = {r["job"]: r for r in res.rows}
    assert by_job["job-009"]["status"] == "error" and "job timeout (20 s)" in by_job["job-009"]["error"]
    assert by_job["job-008"]["status"] != "error" and by_job["job-010"]["status"] != "error"
    assert time.monotonic() - started < 100  # not the slow job's two minutes
    # the summary has the stopped job, and a later run tries it again (an error is not "done")
    assert set(pq.read_table(tmp_path / "out" / "summary.parquet").column("job").to_pylist()) == set(by_job)
    monkeypatch.delenv("CORRELATOR_TEST_HANG_WORKER_ON")
    again = run_batch(str(small), str(tmp_path / "out"), opts, progress=None)
    assert again.analysed == 1 and again.errors == 0


def test_batch_command(batch, tmp_path):
    from click.testing import CliRunner

    from correlator.cli.reports import batch_cmd

    small = _some_jobs(batch, tmp_path / "jobs", "job-007")
    out = tmp_path / "out"
    res = CliRunner().invoke(batch_cmd, [str(small), "--out", str(out), "--rules", batch["rules"], "--no-builtin",
                                         "--workers", "1", "--exclude", "truth.json", "--job-timeout", "600"])
    assert res.exit_code == 0, res.output
    assert (out / "index.html").is_file() and str(out / "index.html") in res.output
