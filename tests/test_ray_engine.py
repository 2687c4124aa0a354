"""``--engine ray`` gives what ``--engine local`` gives: batch's summary rows, verdicts and
timelines, its error rows (a job that raises, one that kills its worker, one past the
timeout), resume; ingest's parts, as a directory and as one file. On a local Ray
instance of 2 CPUs started once for the module (its start-up time is printed), over a
few corpus jobs and a generated batch with planted bad nodes.

Skipped where Ray is not installed (``pip install -e '.[test,ray]'``, as CI does)."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

ray = pytest.importorskip("ray")

from correlator import synth  # noqa: E402
from correlator.batch.run import BatchOptions, run_batch  # noqa: E402
from correlator.engine import engine_for  # noqa: E402
from correlator.ingest import IngestOptions, ingest  # noqa: E402
from correlator.timeline.parts_dir import META_FILE  # noqa: E402
from tests.conftest import SAMPLES  # noqa: E402
from tests.test_batch import write_rules  # noqa: E402

# What differs between two runs of the same job on any engine: when and how fast.
TIMING = ("ingest_s", "analyze_s", "report_s", "total_s", "analysed_at")
# varied corpus jobs: per-rank files, a torchrun log-dir tree, srun-labelled, gzip, a
# cascade across nodes, an Xid, a healthy run
CORPUS = ("gloo-data-error-per-rank", "torchrun-logdir-tree", "slurm-combined-srun-label",
          "oom-cascade-nccl-timeouts", "xid79-fallen-off-bus", "healthy-per-rank", "gzip-data-error-per-rank")
NOT_LOGS = ("truth.json", "README.md")


@pytest.fixture(scope="module")
def ray_cluster(summary_lines):
    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    summary_lines.append(f"Ray start-up (ray.init, 2 CPUs): {time.perf_counter() - started:.1f} s")
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def jobs(tmp_path_factory) -> Path:
    """The corpus jobs (links) and a generated batch with two planted bad nodes, plus a
    job with nothing readable (an error row on either engine)."""
    root = tmp_path_factory.mktemp("rayjobs") / "jobs"
    synth.generate_batch(root, jobs=4, ranks=8, nodes=4, size="150KB", bad_nodes=2, cluster_nodes=8, seed=14)
    for name in CORPUS:
        os.symlink(SAMPLES / name, root / name)
    (root / "job-broken").mkdir()
    (root / "job-broken" / "core.bin").write_bytes(b"\x00\x01\x02" * 1000)
    return root


def _opts(rules: str, **kw) -> BatchOptions:
    return BatchOptions(workers=2, rules_dirs=(rules,), exclude=NOT_LOGS, **kw)


@pytest.fixture(scope="module")
def batches(jobs, ray_cluster, tmp_path_factory, summary_lines) -> dict:
    base = tmp_path_factory.mktemp("raybatch")
    rules = write_rules(base / "rules")  # the generator's failures, beside the built-in rules
    out = {}
    for engine in ("local", "ray"):
        started = time.perf_counter()
        out[engine] = run_batch(str(jobs), str(base / engine), _opts(rules, engine=engine), progress=io.StringIO())
        summary_lines.append(
            f"batch --engine {engine}: {time.perf_counter() - started:.1f} s for {out[engine].jobs} jobs")
    return {"base": base, "rules": rules, **out}


def _rows(out: Path) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in TIMING} for r in pq.read_table(out / "summary.parquet").to_pylist()]


def test_batch_on_ray_equals_local(batches, jobs):
    local, on_ray = batches["base"] / "local", batches["base"] / "ray"
    rows = _rows(local)
    assert rows == _rows(on_ray)
    assert len(rows) == len(CORPUS) + 5
    by_job = {r["job"]: r for r in rows}
    assert by_job["job-broken"]["status"] == "error" and "nothing could be read" in by_job["job-broken"]["error"]
    assert by_job["healthy-per-rank"]["status"] == "healthy" and by_job["xid79-fallen-off-bus"]["status"] == "failed"
    for name in by_job:
        if name == "job-broken":
            continue
        # the verdict and the shared timeline: byte for byte
        assert (local / "jobs" / f"{name}.json").read_bytes() == (on_ray / "jobs" / f"{name}.json").read_bytes(), name
        a, b = local / "timelines" / f"{name}.parquet", on_ray / "timelines" / f"{name}.parquet"
        assert pq.read_table(a).equals(pq.read_table(b)), name
        assert a.read_bytes() == b.read_bytes(), name
    assert (local / "index.md").read_text().split("## All jobs")[0] == (on_ray / "index.md").read_text().split(
        "## All jobs")[0]  # (the table of all jobs shows each job's seconds)


def test_batch_on_ray_resumes(batches, jobs):
    res = run_batch(str(jobs), str(batches["base"] / "ray"), _opts(batches["rules"], engine="ray"), progress=None)
    assert res.analysed == 1 and res.skipped == res.jobs - 1  # only the job that failed is tried again
    assert _rows(batches["base"] / "ray") == _rows(batches["base"] / "local")


def test_a_dying_and_a_hanging_job_on_ray(batches, jobs, tmp_path, monkeypatch):
    small = tmp_path / "jobs"
    small.mkdir()
    for name in ("job-001", "job-002", "job-003"):
        os.symlink(jobs / name, small / name)
    # forwarded to the Ray workers by the engine (CORRELATOR_TEST_*)
    monkeypatch.setenv("CORRELATOR_TEST_KILL_WORKER_ON", "job-001")
    monkeypatch.setenv("CORRELATOR_TEST_HANG_WORKER_ON", "job-002")
    started = time.monotonic()
    # (the timeout counts from the task's submission: on a loaded machine a fresh Ray worker's
    # start-up and imports take seconds of it, so it leaves the dying job room to die first)
    res = run_batch(str(small), str(tmp_path / "out"), _opts(batches["rules"], engine="ray", job_timeout=30),
                    progress=None)
    by_job = {r["job"]: r for r in res.rows}
    assert by_job["job-001"]["error"] == "the worker process died analysing this job (crash or out of memory)"
    assert by_job["job-002"]["error"] == "took longer than the job timeout (30 s): stopped"
    assert time.monotonic() - started < 100  # not the hanging job's two minutes
    # the job beside them is analysed as the local engine analysed it
    local = {r["job"]: r for r in _rows(batches["base"] / "local")}["job-003"]
    assert local["status"] == "failed"
    assert all(by_job["job-003"].get(k) == v for k, v in local.items() if k != "path"), by_job["job-003"]


@pytest.mark.parametrize("job", ["xid79-fallen-off-bus", "generated"])
def test_ingest_on_ray_writes_the_local_parts(job, jobs, ray_cluster, tmp_path):
    source = SAMPLES / job if job != "generated" else jobs / "job-003"
    opts = IngestOptions(exclude=NOT_LOGS, echo_problems=False, batch_bytes=1 << 18)  # several parts
    on_ray = engine_for("ray")
    ingest(source, out_dir=tmp_path / "local.timeline", options=opts)
    ingest(source, out_dir=tmp_path / "ray.timeline", options=opts, engine=on_ray)
    ingest(source, out_parquet=tmp_path / "local.parquet", options=opts)
    ingest(source, out_parquet=tmp_path / "ray.parquet", options=opts, engine=on_ray)
    parts = sorted(p.name for p in (tmp_path / "local.timeline").iterdir())
    assert META_FILE in parts and len(parts) >= 2
    assert parts == sorted(p.name for p in (tmp_path / "ray.timeline").iterdir())
    for name in parts:
        assert (tmp_path / "local.timeline" / name).read_bytes() == (tmp_path / "ray.timeline" / name).read_bytes()
    assert (tmp_path / "local.parquet").read_bytes() == (tmp_path / "ray.parquet").read_bytes()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # the shared scratch is gone
