"""End to end: real captured jobs in sample_logs/ become one timeline."""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import tarfile
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from correlator.ingest import IngestOptions, NothingToRead, ingest
from correlator.target import open_timeline
from correlator.timeline.schema import EVENT_SCHEMA

QUIET = IngestOptions(echo_problems=False, workers=1)


def _timeline(target, tmp_path: Path, **kw) -> duckdb.DuckDBPyConnection:
    out = tmp_path / "t.parquet"
    ingest(target, out_parquet=out, options=IngestOptions(echo_problems=False, workers=kw.pop("workers", 1), **kw))
    con = duckdb.connect()
    con.execute(f"CREATE VIEW events AS SELECT * FROM read_parquet('{out}')")
    return con


def _digest(root: Path) -> dict[str, tuple[str, int]]:
    return {
        str(p.relative_to(root)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_per_rank_files_rank_from_path_and_folded_traceback(samples, tmp_path):
    job = samples / "gloo-data-error-per-rank"
    before = _digest(job)
    con = _timeline(job, tmp_path)
    # every event of rankN.log is rank N (path), including the [rank2]: traceback
    bad = con.execute(
        "SELECT count(*) FROM events WHERE rank IS DISTINCT FROM CAST(regexp_extract(file, 'rank(\\d+)', 1) AS INT)"
    ).fetchone()[0]
    assert bad == 0
    tb = con.execute(
        "SELECT line_no, line_end, attrs['exc_type'], source, level FROM events "
        "WHERE rank = 2 AND kind = 'python.traceback'"
    ).fetchall()
    assert tb == [(5, 26, "ValueError", "python", "ERROR")]
    # the collateral ranks' gloo errors are recognised with the peer they name
    peers = con.execute(
        "SELECT rank, attrs['peer'] FROM events WHERE kind = 'c10d.gloo_peer_closed' ORDER BY rank"
    ).fetchall()
    assert [r for r, _ in peers] == [1, 3] and all(p.startswith("127.0.0.1") for _, p in peers)
    assert _digest(job) == before  # inputs untouched


def test_combined_srun_file_is_demultiplexed(samples, tmp_path):
    con = _timeline(samples / "slurm-combined-srun-label", tmp_path)
    per_rank = dict(con.execute("SELECT rank, count(*) FROM events GROUP BY rank").fetchall())
    assert set(per_rank) == {0, 1, 2, 3}
    tbs = con.execute(
        "SELECT rank, line_end - line_no FROM events WHERE kind = 'python.traceback' ORDER BY rank"
    ).fetchall()
    # one folded traceback per rank, interleaved lines of other ranks not swallowed
    assert [r for r, _ in tbs] == [0, 1, 2, 3] and all(span > 3 for _, span in tbs)
    msgs = con.execute("SELECT message FROM events WHERE kind = 'python.traceback'").fetchall()
    for (m,) in msgs:
        assert m.startswith("Traceback") and m.rstrip().endswith("stopping training")
    inf = con.execute("SELECT rank, attrs['loss'] FROM events WHERE message LIKE '%loss inf%'").fetchall()
    assert inf and all(r == 1 and loss == "inf" for r, loss in inf)


def test_torchrun_log_dir_tree(samples, tmp_path):
    con = _timeline(samples / "torchrun-logdir-tree", tmp_path)
    # local rank from <run>/attempt_0/<local_rank>/..., global rank from the launcher's table
    rows = con.execute(
        "SELECT DISTINCT regexp_extract(file, 'attempt_0/(\\d)/', 1), local_rank, rank FROM events "
        "WHERE file LIKE '%attempt_0/%' ORDER BY 1"
    ).fetchall()
    assert rows and all(int(d) == lr == r for d, lr, r in rows)
    # error.json carries an epoch timestamp: a real stamp, not an estimate
    ej = con.execute(
        "SELECT ts, ts_estimated, attrs['error'] FROM events WHERE file LIKE '%error.json'"
    ).fetchall()
    assert ej and all(ts is not None and not est and "Connection closed by peer" in err for ts, est, err in ej)
    entries = con.execute(
        "SELECT attrs['failed_rank'], attrs['exitcode'] FROM events WHERE kind = 'torchrun.failure_entry' ORDER BY 1"
    ).fetchall()
    assert ("1", "-9") in entries
    failed = con.execute(
        "SELECT attrs['exitcode'], attrs['failed_local_rank'] FROM events WHERE kind = 'torchrun.worker_failed'"
    ).fetchall()
    assert failed == [("-9", "1")]


def test_tee_console_recovers_lines_glued_to_progress_bar(samples, tmp_path):
    con = _timeline(samples / "torchrun-tee-console", tmp_path)
    glued = con.execute(
        "SELECT local_rank, message FROM events WHERE attrs['glued_after_progress_bar'] = 'true'"
    ).fetchall()
    assert glued, "the capture has log lines glued after tqdm bars"
    for _local_rank, message in glued:
        assert "%|" not in message  # the bar itself stays a separate event
    # a glued line carrying its own [defaultN]: prefix belongs to that rank, not to the bar's
    assert any(lr != 0 for lr, _ in glued)
    # single node, no table naming ranks: local rank is the global rank
    assert con.execute("SELECT count(*) FROM events WHERE local_rank IS NOT NULL AND rank <> local_rank").fetchone()[0] == 0


def test_node_directories_and_gzip_are_transparent(samples, tmp_path):
    con = _timeline(samples / "two-node-faketime-skew", tmp_path)
    nodes = {n for (n,) in con.execute("SELECT DISTINCT node FROM events WHERE node IS NOT NULL").fetchall()}
    assert {"node-0", "node-1"} <= nodes
    plain = _timeline(samples / "gloo-data-error-per-rank", tmp_path / "a")
    gz = _timeline(samples / "gzip-data-error-per-rank", tmp_path / "b")
    q = "SELECT rank, line_no, message FROM events ORDER BY rank, line_no, message"
    assert plain.execute(q).fetchall() == gz.execute(q).fetchall()


def test_tar_and_stdin_inputs(samples, tmp_path, monkeypatch):
    job = samples / "gloo-data-error-per-rank"
    archive = tmp_path / "job.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for p in sorted(job.glob("rank*.log")):
            tar.add(p, arcname=f"job/{p.name}")
    con = _timeline(archive, tmp_path / "t")
    assert {r for (r,) in con.execute("SELECT DISTINCT rank FROM events").fetchall()} == {0, 1, 2, 3}

    data = (job / "rank2.log").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(gzip.compress(data))))
    con = _timeline("-", tmp_path / "s")
    files = {f for (f,) in con.execute("SELECT DISTINCT file FROM events").fetchall()}
    assert files == {"<stdin>"}
    assert con.execute("SELECT count(*) FROM events WHERE kind = 'python.traceback'").fetchone()[0] == 1


def test_duckdb_output_is_a_plain_database(samples, tmp_path):
    db = tmp_path / "job.duckdb"
    ingest(samples / "slurm-combined-srun-label", out_db=db, options=QUIET)
    con = duckdb.connect(str(db), read_only=True)
    tables = {t for (t,) in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    assert {"events", "files", "problems"} <= tables
    assert con.execute("SELECT count(*) FROM events").fetchone()[0] > 20
    assert con.execute("SELECT typeof(attrs) FROM events LIMIT 1").fetchone()[0].startswith("MAP")


def test_files_and_problems_views_over_parquet(samples, tmp_path):
    out = tmp_path / "t.parquet"
    ingest(samples / "torchrun-logdir-tree", out_parquet=out, options=QUIET)
    with open_timeline(str(out)) as con:
        files = {r[0]: r for r in con.execute("SELECT file, lines, events, sources, ranks, problems FROM files").fetchall()}
        launcher = files["launcher.log"]
        assert launcher[1] > 0 and "torchrun" in launcher[3]
        empty = [f for f, r in files.items() if f.endswith("stdout.log")]
        assert empty and all(files[f][5] == 1 and files[f][2] == 0 for f in empty)
        whats = {w for (w,) in con.execute("SELECT what FROM problems").fetchall()}
        assert "empty file" in whats and any("excluded" in w for w in whats)


def _write(p: Path, data: bytes) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    return p


def test_bad_inputs_are_reported_and_the_rest_goes_on(tmp_path):
    root = tmp_path / "job"
    good = b"2024-05-01 12:00:00,000 - INFO - __main__ - step 1 loss 2.0\n"
    _write(root / "rank0.log", good)
    _write(root / "rank1.log", good + b"x" * (3 << 20) + b"\n" + good)  # a 3 MB line
    varied = b"".join(b"2024-05-01 12:00:00,000 - INFO - __main__ - step %d loss %d\n" % (i, i * 7919 % 10007) for i in range(2000))
    _write(root / "rank2.log.gz", gzip.compress(varied)[:-200])  # truncated near the end
    _write(root / "core.bin", bytes(range(256)) * 64)
    _write(root / "empty.log", b"")
    _write(root / "bad-utf8.log", b"2024-05-01 12:00:00,000 - INFO - __main__ - caf\xe9 \xff\n")
    out = tmp_path / "t.parquet"
    result = ingest(root, out_parquet=out, options=IngestOptions(echo_problems=False, workers=1, max_line_bytes=1 << 20))
    by_file: dict[str, list[str]] = {}
    for p in result.problems.items:
        by_file.setdefault(p.file, []).append(p.what)
    assert set(by_file) >= {"rank1.log", "rank2.log.gz", "core.bin", "empty.log"}
    assert any(p.line == 2 for p in result.problems.items if p.file == "rank1.log")
    con = duckdb.connect()
    rows = dict(con.execute(f"SELECT file, count(*) FROM read_parquet('{out}') GROUP BY file").fetchall())
    assert rows["rank0.log"] == 1 and rows["rank1.log"] == 3 and 1000 <= rows["rank2.log.gz"] < 2000
    (msg,) = con.execute(f"SELECT message FROM read_parquet('{out}') WHERE file = 'bad-utf8.log'").fetchone()
    assert "caf\ufffd" in msg


def test_nothing_readable_is_an_error(tmp_path):
    root = tmp_path / "job"
    _write(root / "a.bin", b"\x00\x01\x02" * 1000)
    _write(root / "empty.log", b"")
    with pytest.raises(NothingToRead, match="nothing could be read"):
        ingest(root, out_parquet=tmp_path / "t.parquet", options=QUIET)


def test_timezone_and_yearless_stamps(tmp_path):
    root = tmp_path / "job"
    _write(
        root / "rank0.log",
        b"2024-07-01 12:00:00,000 - INFO - __main__ - step 1 loss 2.0\n"
        b"[rank0]:[E701 12:00:05.123456789 ProcessGroupNCCL.cpp:607] [Rank 0] boom\n",
    )
    con = _timeline(root, tmp_path, tz="Europe/Berlin")
    rows = con.execute("SELECT line_no, strftime(ts, '%Y-%m-%d %H:%M:%S') FROM events ORDER BY line_no").fetchall()
    # naive stamps read in Berlin summer time (UTC+2); the c10 stamp has no year: the job's year
    assert rows == [(1, "2024-07-01 10:00:00"), (2, "2024-07-01 10:00:05")]


def test_unstamped_lines_get_estimates_from_neighbours(samples, tmp_path):
    con = _timeline(samples / "gloo-data-error-per-rank", tmp_path)
    est = con.execute(
        "SELECT count(*), count(*) FILTER (WHERE ts IS NULL) FROM events WHERE ts_estimated"
    ).fetchone()
    assert est[0] > 0 and est[1] == 0
    # an estimate is never earlier than the stamped line before it in the same file
    bad = con.execute(
        """SELECT count(*) FROM (
             SELECT ts, lag(ts) OVER (PARTITION BY file ORDER BY line_no) AS prev, ts_estimated
             FROM events) WHERE ts_estimated AND ts < prev"""
    ).fetchone()[0]
    assert bad == 0


def test_parallel_and_serial_ingest_agree(samples, tmp_path):
    q = "SELECT file, line_no, rank, node, source, level, kind, template FROM events ORDER BY file, line_no"
    serial = _timeline(samples / "two-node-faketime-skew", tmp_path / "a", workers=1).execute(q).fetchall()
    parallel = _timeline(samples / "two-node-faketime-skew", tmp_path / "b", workers=2).execute(q).fetchall()
    assert serial == parallel


def test_yearless_lines_lend_the_job_year_to_estimated_neighbours(samples, tmp_path):
    # captured: torchrun agent glog-like lines (no year) followed by unstamped tracebacks
    con = _timeline(samples / "torchrun-logdir-tree", tmp_path)
    years = {y for (y,) in con.execute("SELECT DISTINCT year(ts) FROM events WHERE ts IS NOT NULL").fetchall()}
    assert years == {2026}


def test_tee_traceback_is_one_stream_with_its_rank_lines(samples, tmp_path):
    # "[default3]:[rank3]: Traceback" and "[default3]:step ..." are one process's output:
    # the traceback's estimated stamp comes from rank 3's own previous line
    con = _timeline(samples / "torchrun-tee-console", tmp_path)
    bad = con.execute(
        """SELECT count(*) FROM (
             SELECT rank, ts, ts_estimated, message,
                    lag(ts) OVER (PARTITION BY rank ORDER BY line_no, ts) AS prev
             FROM events WHERE rank IS NOT NULL)
           WHERE message LIKE 'Traceback%' AND ts_estimated AND ts <> prev"""
    ).fetchone()[0]
    tracebacks = con.execute("SELECT count(*) FROM events WHERE message LIKE 'Traceback%'").fetchone()[0]
    assert tracebacks >= 3 and bad == 0


@pytest.mark.parametrize("batch_bytes", [2048, 3000, 4096])
def test_an_event_cut_by_a_batch_boundary_is_one_event(tmp_path, batch_bytes):
    """Batches are ~batch_bytes; wherever the boundaries fall, the traceback is one event."""
    lines = [f"2024-05-01 12:00:{i % 60:02d},000 - INFO - __main__ - step {i} loss 2.5" for i in range(60)]
    lines += ["Traceback (most recent call last):"]
    for i in range(40):
        lines += [f'  File "/opt/app/train_module_{i}.py", line {i + 10}, in step_{i}', f"    out = layer_{i}(x)"]
    lines += ["ValueError: bad batch 7"]
    lines += [f"2024-05-01 12:01:{i:02d},000 - INFO - __main__ - step {60 + i} loss 2.5" for i in range(40)]
    log = tmp_path / "job" / "rank0.log"
    log.parent.mkdir()
    log.write_text("\n".join(lines) + "\n")
    assert log.stat().st_size > 2 * batch_bytes  # several batches
    con = _timeline(tmp_path / "job", tmp_path, batch_bytes=batch_bytes)
    tbs = con.execute(
        "SELECT line_no, line_end, message FROM events WHERE message LIKE 'Traceback%'"
    ).fetchall()
    assert len(tbs) == 1
    assert tbs[0][0] == 61 and tbs[0][1] == 61 + 80 + 1
    assert tbs[0][2].endswith("ValueError: bad batch 7")
    spans = con.execute("SELECT line_no, line_end FROM events ORDER BY line_no").fetchall()
    covered = [n for a, b in spans for n in range(a, b + 1)]
    assert covered == list(range(1, len(lines) + 1))  # every line once, none twice


def test_stage2_reads_only_the_fact_kinds_workers_set_aside():
    # ingest/attribute.sql learns job-wide facts from view fact_events, which holds only
    # ingest.FACT_KINDS: a kind it names that workers do not set aside would be lost
    import re
    from importlib import resources

    from correlator.ingest.pipeline import FACT_KINDS

    sql = resources.files("correlator.ingest").joinpath("attribute.sql").read_text()
    head = sql.split("CREATE VIEW events AS")[0]
    named = set()
    for clause in re.findall(r"kind\s*(?:=\s*'[^']*'|IN\s*\([^)]*\))", head):
        named |= set(re.findall(r"'([^']*)'", clause))
    assert named and named <= set(FACT_KINDS)


def test_files_view_agrees_with_the_events(samples, tmp_path):
    out = tmp_path / "t.parquet"
    ingest(samples / "slurm-combined-srun-label", out_parquet=out, options=QUIET)
    with open_timeline(str(out)) as con:
        files = con.execute("SELECT file, events, ranks, nodes FROM files WHERE events > 0 ORDER BY file").fetchall()
        counted = con.execute(
            """SELECT file, count(*),
                      coalesce(list(DISTINCT rank ORDER BY rank) FILTER (WHERE rank IS NOT NULL), []),
                      coalesce(list(DISTINCT node ORDER BY node) FILTER (WHERE node IS NOT NULL), [])
               FROM events GROUP BY file ORDER BY file"""
        ).fetchall()
    assert files == counted and any(len(r[2]) > 1 for r in files)


@pytest.mark.parametrize(
    "sample",
    ["per-node-dirs-data-error", "kubectl-pods-skewed-clocks", "torchrun-logdir-tree", "zero3-offload-host-oom",
     "xid79-fallen-off-bus", "healthy-tee-console", "gzip-data-error-per-rank"],
)
def test_small_files_read_together_give_the_same_timeline(samples, tmp_path, monkeypatch, sample):
    # small files (plain or compressed) are parsed several to a batch; the timeline
    # must be the one reading them one by one gives (ranks from paths, streams,
    # stamps, folding)
    import correlator.ingest.pipeline as ingest_mod

    q = "SELECT * EXCLUDE (attrs), map_entries(attrs) AS attrs FROM events ORDER BY file, line_no, message"
    together = _timeline(samples / sample, tmp_path / "a").execute(q).fetchall()
    assert len(ingest_mod._tasks(_files(samples / sample), IngestOptions())) < len(_files(samples / sample))
    monkeypatch.setattr(ingest_mod, "_SMALL_FILE_BYTES", 0)
    alone = _timeline(samples / sample, tmp_path / "b").execute(q).fetchall()
    assert together == alone and len(together) > 10


def test_a_tag_repeated_only_across_files_read_together_is_no_tag(tmp_path, monkeypatch):
    # GNU parallel's --tag heads every line of a job's output with the same text and a TAB;
    # a line repeated once in each of two files read in one batch is no such tag: what a file
    # says must not depend on which files were read with it
    import correlator.ingest.pipeline as ingest_mod

    root = tmp_path / "job"
    for r in range(2):
        _write(root / f"rank{r}.log", (
            f"2024-05-01 12:00:0{r},000 - INFO - __main__ - rank {r} starting\n"
            "epoch 1 done, seconds\t12.5\n"
            f"2024-05-01 12:00:0{r + 2},000 - INFO - __main__ - rank {r} finished\n"
        ).encode())
    assert [len(t) for t in ingest_mod._tasks(_files(root), IngestOptions())] == [2]  # one batch
    q = "SELECT file, line_no, rank, message FROM events ORDER BY file, line_no"
    together = _timeline(root, tmp_path / "a").execute(q).fetchall()
    monkeypatch.setattr(ingest_mod, "_SMALL_FILE_BYTES", 0)
    alone = _timeline(root, tmp_path / "b").execute(q).fetchall()
    assert together == alone
    assert sum("epoch 1 done, seconds\t12.5" in m for *_, m in together) == 2


def _files(root: Path) -> list:
    from correlator.ingest.discover import discover
    from correlator.timeline.problems import ProblemLog

    return discover(root, ProblemLog(echo=False))


def test_small_file_batches_flush_by_decoded_size_and_fall_back_when_one_is_big(tmp_path, monkeypatch):
    import correlator.ingest.pipeline as ingest_mod

    root = tmp_path / "job"
    for r in range(12):
        _write(root / f"rank{r}.log", "".join(
            f"2024-05-01 12:00:{s:02d},000 - INFO - __main__ - step {s} | rank {r} | loss 1.5\n" for s in range(10)
        ).encode())
    # 122 bytes of gzip, 12 kB of text: planned as small, more than one 8 kB batch when read
    _write(root / "rank12.log.gz", gzip.compress(b"2024-05-01 12:00:00,000 - INFO - __main__ - tick\n" * 240))
    opts = {"batch_bytes": 8192}  # and the twelve 710-byte files need two batches
    files = _files(root)
    tasks = ingest_mod._tasks(files, IngestOptions(**opts))
    assert any(len(t) > 1 and any(f.compression for _, f in t) for t in tasks)  # the .gz rides with others
    q = "SELECT file, line_no, rank, ts, ts_estimated, kind, template, message FROM events ORDER BY file, line_no"
    together = _timeline(root, tmp_path / "a", **opts).execute(q).fetchall()
    monkeypatch.setattr(ingest_mod, "_SMALL_FILE_BYTES", 0)
    alone = _timeline(root, tmp_path / "b", **opts).execute(q).fetchall()
    assert together == alone
    assert {r[0] for r in together} == {f"rank{r}.log" for r in range(12)} | {"rank12.log.gz"}
    assert sum(r[0] == "rank12.log.gz" for r in together) == 240


def _three_part_job(root: Path) -> None:
    # rank0.log: full stamps, all of 2024; nccl.log: no rank until its NCCL init line
    # maps host:pid -> rank 3; c10.log: only year-less c10 stamps (formats/02-pytorch-c10d.md)
    _write(root / "rank0.log", "".join(
        f"2024-06-03 06:48:{s:02d},034 - INFO - __main__ - step {s} loss 2.1\n" for s in range(20)).encode())
    _write(root / "nccl.log", (
        b"gpu-node-00:44249:44249 [3] NCCL INFO Bootstrap : Using eth0:10.1.0.10<0>\n"
        b"gpu-node-00:44249:44336 [3] NCCL INFO comm 0x55d26ea5f0c0 rank 3 nranks 4 cudaDev 3 nvmlDev 3 "
        b"busId 5d000 commId 0xdf5a60eccdeb112f - Init START\n"
        b"gpu-node-00:44249:44336 [3] NCCL INFO Connected all rings\n"))
    _write(root / "c10.log", (
        b"[rank1]:[W603 06:48:41.943343409 Utils.hpp:164] Warning: Environment variable NCCL_ASYNC_ERROR_HANDLING "
        b"is deprecated; use TORCH_NCCL_ASYNC_ERROR_HANDLING instead (function operator())\n"
        b"[rank1]:[E603 06:49:02.123456789 ProcessGroupNCCL.cpp:607] [Rank 1] boom\n"))


@pytest.mark.parametrize("workers", [1, 2])
def test_only_parts_stage2_changes_are_rewritten_and_they_keep_their_order(tmp_path, monkeypatch, workers):
    import correlator.ingest.pipeline as ingest_mod

    root = tmp_path / "job"
    _three_part_job(root)
    monkeypatch.setattr(ingest_mod, "_SMALL_FILE_BYTES", 0)  # a part per file
    rewritten: list[str] = []
    monkeypatch.setattr(ingest_mod, "_finish_parts", _recording(ingest_mod._finish_parts, rewritten))
    con = _timeline(root, tmp_path, workers=workers)
    assert sorted(rewritten) == ["c10.log", "nccl.log"]  # rank0.log is final as stage 1 wrote it
    rows = con.execute("SELECT file, line_no, rank, year(ts), year(ts_aligned) FROM events").fetchall()
    # file order (discovery's: by path), then line order, with or without a rewrite
    assert [r[:2] for r in rows] == sorted(r[:2] for r in rows) and len(rows) == 25
    assert {(r[0], r[2]) for r in rows} == {("rank0.log", 0), ("nccl.log", 3), ("c10.log", 1)}
    # c10.log's year-less stamps had no year of their own file to take: the job's
    assert {r[3] for r in rows if r[0] == "c10.log"} == {r[4] for r in rows if r[0] == "c10.log"} == {2024}
    assert {r[3] for r in rows} == {2024, None}  # NCCL INFO lines have no stamp, nor a stamped neighbour
    assert [r[0] for r in con.execute("DESCRIBE events").fetchall()] == EVENT_SCHEMA.names
    # rewritten parts are encoded as stage 1 wrote them: the sorted integers delta-packed
    # (RLE is their null levels)
    encodings = con.execute(
        f"SELECT path_in_schema, list(DISTINCT encodings) FROM parquet_metadata('{tmp_path / 't.parquet'}') "
        "WHERE path_in_schema IN ('ts', 'ts_aligned', 'line_no', 'line_end') GROUP BY ALL").fetchall()
    assert len(encodings) == 4 and all(e == ["RLE, DELTA_BINARY_PACKED"] for _, e in encodings)
    # and filtered: DuckDB skips row groups without a kind (or level) by these
    blooms = con.execute(
        f"SELECT DISTINCT path_in_schema FROM parquet_metadata('{tmp_path / 't.parquet'}') "
        "WHERE bloom_filter_offset IS NOT NULL ORDER BY 1").fetchall()
    assert blooms == [("kind",), ("level",)]


def _recording(finish, rewritten: list[str]):
    def wrapped(con, scratch, pool):
        for (index,) in con.execute("SELECT part_index FROM stale_parts").fetchall():
            rewritten.extend(r[0] for r in con.execute(
                "SELECT DISTINCT file FROM part_summary WHERE part_index = ?", [index]).fetchall())
        return finish(con, scratch, pool)
    return wrapped


def _worker_env() -> dict[str, str | None]:
    import os

    from correlator.ingest import workers

    keys = ("_RJEM_MALLOC_CONF", "POLARS_MAX_THREADS", *workers.GLIBC_MALLOC)
    return {k: os.environ.get(k) for k in keys}


def test_workers_keep_freed_memory_longer_unless_the_user_says_otherwise(monkeypatch):
    from correlator.ingest import workers

    # this process's Polars put its own decay first; a user's setting came after it
    assert workers.worker_jemalloc_conf("dirty_decay_ms:500,muzzy_decay_ms:1000") == workers.WORKER_DECAY
    assert workers.worker_jemalloc_conf(
        "dirty_decay_ms:500,muzzy_decay_ms:1000,dirty_decay_ms:0") == workers.WORKER_DECAY + ",dirty_decay_ms:0"
    for k in workers.GLIBC_MALLOC:
        monkeypatch.delenv(k, raising=False)
    before = {k: os.environ.get(k) for k in ("POLARS_MAX_THREADS", workers.JEMALLOC_CONF, *workers.GLIBC_MALLOC)}
    with workers.worker_pool(2) as pool:
        env = pool.submit(_worker_env).result()
    # the worker's Polars puts its defaults first again; ours come after and win
    assert env.pop("_RJEM_MALLOC_CONF").endswith(workers.WORKER_DECAY)
    assert env == {"POLARS_MAX_THREADS": "1", **workers.GLIBC_MALLOC}
    # workers started early, before the command loaded: the same settings, and this
    # process's environment is left as it was
    workers.start_early(2)
    assert {k: os.environ.get(k) for k in before} == before
    with workers.worker_pool(2) as pool:
        env = pool.submit(_worker_env).result()
    assert env.pop("_RJEM_MALLOC_CONF").endswith(workers.WORKER_DECAY)
    assert env == {"POLARS_MAX_THREADS": "1", **workers.GLIBC_MALLOC}
    assert {k: os.environ.get(k) for k in before} == before
    # a user's own glibc setting goes to the workers as it is
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "0")
    with workers.worker_pool(2) as pool:
        env = pool.submit(_worker_env).result()
    assert env["MALLOC_TRIM_THRESHOLD_"] == "0"
    assert env["MALLOC_MMAP_THRESHOLD_"] == workers.GLIBC_MALLOC["MALLOC_MMAP_THRESHOLD_"]
    assert os.environ["MALLOC_TRIM_THRESHOLD_"] == "0"


def test_the_cli_loads_without_duckdb_or_the_rulebook():
    # an ingest hands its files to the workers as soon as the CLI has loaded; DuckDB,
    # the rulebook and pydantic (~0.2 s) load later, with the commands that use them
    import subprocess
    import sys

    heavy = ("duckdb", "pydantic", "yaml", "correlator.analysis.rulebook", "correlator.target", "correlator.verdict")
    code = f"import sys, correlator.cli; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_workers_are_started_early_only_for_a_big_log_directory(tmp_path, monkeypatch):
    from concurrent.futures import ProcessPoolExecutor

    from correlator.ingest import workers

    started: list[int] = []
    monkeypatch.setattr(workers, "start_early", started.append)
    monkeypatch.setattr(workers, "PARALLEL_MIN_BYTES", 1000)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    big, small = tmp_path / "big", tmp_path / "small"
    _write(big / "node-0" / "rank0.log", b"x" * 600)
    _write(big / "node-1" / "rank1.log", b"x" * 600)
    _write(small / "rank0.log", b"x" * 600)
    _write(small / "timeline.parquet", b"x" * 6000)  # not a log: not counted
    one = tmp_path / "one"
    _write(one / "launcher.log", b"x" * 6000)  # one file: parsed by one process
    assert workers.start_for_command(["analyze", str(big)]) and started == [2]
    assert workers.start_for_command(["ingest", "--tz", "UTC", str(big), "--out", "t.parquet"])
    for args in (["analyze", str(small)], ["analyze", str(one)], ["analyze", str(big), "--workers", "1"], ["schema"],
                 ["analyze", str(small / "timeline.parquet")], ["eval", str(big)], []):
        assert not workers.start_for_command(args), args
    assert started == [2, 2]
    # workers nothing takes are shut down: by an ingest that needs one process, or at exit
    monkeypatch.undo()
    workers.start_early(2)
    early = workers._early[0]
    with workers.worker_pool(1) as pool:
        assert pool is None
    assert workers._early is None and early._shutdown_thread
    workers.start_early(2)
    workers.discard_early()
    assert workers._early is None
    with workers.worker_pool(2) as pool:  # and a later ingest spawns its own
        assert isinstance(pool, ProcessPoolExecutor) and pool is not early


def test_a_files_last_events_get_a_row_group_of_their_own(tmp_path, monkeypatch):
    """So that a query for a crash's errors skips the rest of the part by the row
    groups' bloom filters and min/max; the events themselves do not change."""
    import correlator.ingest.pipeline as ingest_mod

    root = tmp_path / "job"
    steps = b"".join(b"2024-05-01 12:00:%02d,000 - INFO - __main__ - step %d loss 2.0\n" % (i % 60, i) for i in range(40))
    crash = b"2024-05-01 12:01:00,000 - ERROR - __main__ - RuntimeError: CUDA error: an illegal memory access\n"
    _write(root / "rank0.log", steps + crash)
    monkeypatch.setattr(ingest_mod, "_SMALL_FILE_BYTES", 0)  # a part per file, as a big file gets
    monkeypatch.setattr(ingest_mod, "_TAIL_ROWS", 5)
    con = _timeline(root, tmp_path)
    meta = f"parquet_metadata('{tmp_path / 't.parquet'}')"
    sizes = con.execute(f"SELECT DISTINCT row_group_id, row_group_num_rows FROM {meta} ORDER BY 1").fetchall()
    assert [n for _, n in sizes] == [36, 5]
    rows = con.execute("SELECT line_no, level FROM events").fetchall()
    assert [r[0] for r in rows] == list(range(1, 42)) and rows[-1][1] == "ERROR"
    # the error's level is in the last row group only: DuckDB can skip the other
    levels = con.execute(
        f"SELECT row_group_id, stats_min_value, stats_max_value FROM {meta} WHERE path_in_schema = 'level' ORDER BY 1"
    ).fetchall()
    assert levels == [(0, "INFO", "INFO"), (1, "ERROR", "INFO")]
    # a file too short for a tail of its own stays one row group
    monkeypatch.setattr(ingest_mod, "_TAIL_ROWS", 30)
    con = _timeline(root, tmp_path)
    assert con.execute(f"SELECT count(DISTINCT row_group_id) FROM {meta}").fetchall() == [(1,)]


@pytest.mark.parametrize("days", [("2024-05-01", "2024-05-01"), ("2024-12-31", "2025-01-01")])
def test_part_summaries_count_full_stamps_per_year(tmp_path, days):
    """Stage 2 picks the job's year from these counts: a stamp's year when it
    carries one, null for estimated and year-less stamps (one year per part is
    the fast path, a part across New Year the general one)."""
    import collections

    import correlator.ingest.pipeline as ingest_mod
    from correlator.ingest.discover import discover
    from correlator.timeline.problems import ProblemLog

    text = (f"{days[0]} 23:59:58,000 - INFO - __main__ - step 1 loss 2.0\n"
            "Traceback (most recent call last):\nValueError: x\n"
            f"{days[1]} 00:00:01,000 - INFO - __main__ - step 2 loss 2.0\n"
            "I0501 12:00:00.123456 1234 main.cc:10] a glog line without a year\n")
    _write(tmp_path / "job" / "rank0.log", text.encode())
    f = discover(tmp_path / "job", ProblemLog(echo=False))[0]
    opts = ingest_mod.IngestOptions(echo_problems=False)
    table = pa.concat_tables(b.table for b in ingest_mod._file_events(f, "j", "UTC", opts, ProblemLog(echo=False)))
    expect: collections.Counter = collections.Counter()
    for r in table.to_pylist():
        full = r["ts"] is not None and r["ts_year"] is None and not r["ts_estimated"]
        expect[(r["ts_year"], r["ts"].year if full else None)] += 1
    got: collections.Counter = collections.Counter()
    for r in ingest_mod._summary(table).to_pylist():  # a row per key combination: sum them
        got[(r["ts_year"], r["year"])] += r["n"]
    assert got == expect
    assert {y for _, y in expect if y is not None} == {int(d[:4]) for d in days}


def test_part_summaries_count_every_key_combination(tmp_path):
    """The summary groups only by the keys that vary in a part (the others are read off
    their dictionaries and min/max): its counts must still be per full combination."""
    import collections

    import correlator.ingest.pipeline as ingest_mod
    from correlator.ingest.discover import discover
    from correlator.timeline.problems import ProblemLog

    text = ("2024-05-01 12:00:00,000 - INFO - __main__ - step 1 loss 2.0\n"
            "gpu-node-01:984:1257 [4] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
            "gpu-node-02:985:1258 [5] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"
            "[rank3]:2024-05-01 12:00:01,000 - INFO - __main__ - step 2 loss 2.0\n"
            "2024-05-01 12:00:02,000 - INFO - __main__ - step 3 loss 2.0\n")
    _write(tmp_path / "job" / "rank0.log", text.encode())
    f = discover(tmp_path / "job", ProblemLog(echo=False))[0]
    opts = ingest_mod.IngestOptions(echo_problems=False)
    table = pa.concat_tables(b.table for b in ingest_mod._file_events(f, "j", "UTC", opts, ProblemLog(echo=False)))
    keys = ingest_mod._SUMMARY_KEYS[:-1]
    expect: collections.Counter = collections.Counter()
    for r in table.to_pylist():
        full = r["ts"] is not None and r["ts_year"] is None and not r["ts_estimated"]
        expect[(*(r[k] for k in keys), r["ts"].year if full else None)] += 1
    got = collections.Counter({tuple(r[k] for k in ingest_mod._SUMMARY_KEYS): r["n"]
                               for r in ingest_mod._summary(table).to_pylist()})
    assert got == expect
    assert len({k[keys.index("pid")] for k in expect}) == 3  # the case asked: keys that vary


def test_a_batch_across_new_year_takes_the_year_most_full_stamps_carry():
    import polars as pl

    import correlator.ingest.pipeline as ingest_mod

    ts = ["2023-12-31 23:59:59", "2024-01-01 00:00:01", "2024-01-01 00:00:02", None, None, None, None]
    ev = pl.DataFrame({"ts": ts}).select(
        pl.col("ts").str.to_datetime(time_zone="UTC").dt.cast_time_unit("us"),
        pl.lit(False).alias("ts_needs_year"), pl.lit(False).alias("ts_estimated"),
    )
    state = ingest_mod._StreamState()
    ingest_mod._give_year(ev, state)
    assert state.year == 2024  # rows without a stamp have no say


def _comm_init(i: int) -> bytes:
    # NCCL INFO format as in tests/test_parsers.py (real NCCL 2.18 output)
    return (b"gpu-node-01:984:1257 [4] NCCL INFO comm 0x557fe785f7a0 rank 4 nranks 8 cudaDev 4 "
            b"nvmlDev 4 busId 9b000 commId 0x5ae77eb5ea4ec1%02x - Init COMPLETE\n" % i)


def _step(i: int) -> bytes:
    return b"2024-05-01 12:00:%02d,000 - INFO - __main__ - step %d loss 2.0\n" % (i, i)


def test_spread_fact_kind_events_get_a_row_group_of_their_own(tmp_path, monkeypatch):
    """NCCL init lines spread over a whole log (a communicator per eval) force
    DuckDB to decode the attrs of every block of rows; in a row group of their own
    they are read alone. Lines printed together stay where they are. The timeline
    holds the same events either way."""
    import correlator.ingest.pipeline as ingest_mod

    monkeypatch.setattr(ingest_mod, "_SMALL_FILE_BYTES", 0)  # a part per file, as a big file gets
    monkeypatch.setattr(ingest_mod, "_TAIL_ROWS", 4)
    monkeypatch.setattr(ingest_mod, "_SCAN_BLOCK", 4)  # DuckDB's 2048 rows, scaled down
    meta = f"parquet_metadata('{tmp_path / 't.parquet'}')"
    spread = b"".join(_step(i) + (_comm_init(i) if i % 10 == 5 else b"") for i in range(30))
    _write(tmp_path / "job" / "rank4.log", spread)
    con = _timeline(tmp_path / "job", tmp_path)
    sizes = con.execute(f"SELECT DISTINCT row_group_id, row_group_num_rows FROM {meta} ORDER BY 1").fetchall()
    assert [n for _, n in sizes] == [26, 3 + 4]  # the other events; the 3 NCCL init lines and the file's tail
    kinds = con.execute(
        f"SELECT row_group_id, stats_min_value, stats_max_value FROM {meta} WHERE path_in_schema = 'kind' ORDER BY 1"
    ).fetchall()
    assert not kinds[0][1] <= "nccl.comm_init" <= kinds[0][2]  # DuckDB skips the first for them
    stored = [r[0] for r in con.execute("SELECT kind FROM events").fetchall()]
    assert stored[26:29] == ["nccl.comm_init"] * 3 and "nccl.comm_init" not in stored[:26] + stored[29:]
    got = con.execute("SELECT * EXCLUDE (ts_aligned) FROM events ORDER BY line_no").fetchall()
    assert sum(1 for r in got if "Init COMPLETE" in str(r)) == 3
    # the same events as one row group holds them (a part too small for either split)
    monkeypatch.setattr(ingest_mod, "_TAIL_ROWS", 1000)
    con = _timeline(tmp_path / "job", tmp_path)
    assert con.execute(f"SELECT count(DISTINCT row_group_id) FROM {meta}").fetchall() == [(1,)]
    assert con.execute("SELECT * EXCLUDE (ts_aligned) FROM events ORDER BY line_no").fetchall() == got
    # NCCL's start-up lines, printed together, are not moved
    monkeypatch.setattr(ingest_mod, "_TAIL_ROWS", 4)
    together = b"".join(_comm_init(i) for i in range(3)) + b"".join(_step(i) for i in range(30))
    _write(tmp_path / "job" / "rank4.log", together)
    con = _timeline(tmp_path / "job", tmp_path)
    sizes = con.execute(f"SELECT DISTINCT row_group_id, row_group_num_rows FROM {meta} ORDER BY 1").fetchall()
    assert [n for _, n in sizes] == [29, 4]
    assert [r[0] for r in con.execute("SELECT line_no FROM events").fetchall()] == list(range(1, 34))


def test_spread_warnings_join_the_tail_row_group(tmp_path, monkeypatch):
    """Deviation reads every column of the WARNING-or-worse events: spread over a
    log, they were in every page; moved into the tail row group, the others are
    skipped by their level's statistics."""
    import correlator.ingest.pipeline as ingest_mod

    monkeypatch.setattr(ingest_mod, "_SMALL_FILE_BYTES", 0)
    monkeypatch.setattr(ingest_mod, "_TAIL_ROWS", 4)
    monkeypatch.setattr(ingest_mod, "_SCAN_BLOCK", 4)
    meta = f"parquet_metadata('{tmp_path / 't.parquet'}')"
    warn = b"2024-05-01 12:00:%02d,500 - WARNING - __main__ - slow step %d\n"
    spread = b"".join(_step(i) + (warn % (i, i) if i % 10 == 5 else b"") for i in range(30))
    _write(tmp_path / "job" / "rank4.log", spread)
    con = _timeline(tmp_path / "job", tmp_path)
    sizes = con.execute(f"SELECT DISTINCT row_group_id, row_group_num_rows FROM {meta} ORDER BY 1").fetchall()
    assert [n for _, n in sizes] == [26, 3 + 4]
    levels = con.execute(
        f"SELECT stats_min_value, stats_max_value FROM {meta} WHERE path_in_schema = 'level' ORDER BY row_group_id"
    ).fetchall()
    assert levels[0] == ("INFO", "INFO") and levels[1] == ("INFO", "WARNING")
    assert con.execute("SELECT line_no FROM events WHERE level = 'WARNING' ORDER BY 1").fetchall() == [
        (7,), (18,), (29,)]
    assert con.execute("SELECT count(*), count(DISTINCT line_no) FROM events").fetchall() == [(33, 33)]


@pytest.mark.parametrize(
    "args",
    [
        ["ingest", "{missing}", "--out", "{tmp}/t.parquet"],
        ["sql", "{missing}", "SELECT 1"],
        ["analyze", "{missing}"],
        ["analyze", "{present}", "--baseline", "{missing}"],
        ["export", "{missing}", "--out", "{tmp}/t.json"],
        ["batch", "{missing}", "--out", "{tmp}/b"],
    ],
)
def test_a_missing_target_is_a_usage_error_naming_it(tmp_path, args):
    from click.testing import CliRunner

    from correlator.cli import main

    (tmp_path / "present").mkdir()
    missing = str(tmp_path / "no-such-logs")
    argv = [a.format(missing=missing, present=tmp_path / "present", tmp=tmp_path) for a in args]
    res = CliRunner().invoke(main, argv)
    assert res.exit_code == 2, res.output
    assert "no-such-logs" in res.output and "does not exist" in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_the_command_entry_point_imports_nothing_heavy():
    """Spawned ingest workers import the launching script again: it must not pull in
    the CLI (DuckDB, the rulebook) before they parse a line."""
    import subprocess
    import sys
    import tomllib

    project = Path(__file__).resolve().parents[1]
    script = tomllib.loads((project / "pyproject.toml").read_text())["project"]["scripts"]["correlator"]
    module, _, func = script.partition(":")
    code = (f"import sys, {module}; assert callable({module}.{func}); "
            "print(sorted(m for m in sys.modules if m.startswith(('correlator.', 'duckdb', 'polars'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"[{module!r}]"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=8), st.text(alphabet=" \t\r\n\x0b\x0c\u00a0\u0085\u2003\u30001x", max_size=6)),
                max_size=40))
def test_blank_messages_are_found_as_stripping_every_one_would(texts):
    import polars as pl

    from correlator.ingest.pipeline import _not_blank
    from correlator.timeline.shapes import digit_shapes

    s = pl.Series(texts, dtype=pl.String)
    expected = (s.str.strip_chars().str.len_bytes() > 0).to_list()
    assert _not_blank(s).to_list() == expected
    # asked of the messages' digit shapes, some of them unknown (null code)
    shapes, codes = digit_shapes(s)
    unknown = pl.Series([i % 3 == 0 for i in range(len(texts))], dtype=pl.Boolean)
    codes = codes.scatter(unknown.arg_true(), None) if len(texts) else codes
    assert _not_blank(s, shapes, codes).to_list() == expected


def test_flat_rank_files_get_the_host_their_lines_name_without_a_rewrite(tmp_path, monkeypatch):
    """Rank files in one folder: the path names no node, each file's NCCL lines name
    one host. Stage 1 writes that host (stage 2's answer for such a file) so that no
    part is rewritten for it; a part rewritten for another reason (a year-less stamp
    moved to the job's year) keeps it; a file whose lines name two hosts is left to
    stage 2."""
    import correlator.ingest.pipeline as ingest_mod

    def nccl(host: str, pid: int) -> str:
        return (f"{host}:{pid}:{pid + 1} [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
                f"{host}.cluster.local:{pid}:{pid + 1} [0] NCCL INFO Connected all rings\n")

    step = "2024-05-01 12:00:00,000 - INFO - __main__ - step 1 loss 2.0\n"
    _write(tmp_path / "job" / "rank0.log", (step + nccl("gpu-a", 100)).encode())
    _write(tmp_path / "job" / "rank1.log", (step + nccl("gpu-b", 200)).encode())
    _write(tmp_path / "job" / "rank2.log", (step + nccl("gpu-c", 300) + nccl("gpu-d", 301)).encode())
    _write(tmp_path / "job" / "rank3.log", (step + nccl("localhost", 400)).encode())  # names no machine
    # glog stamps carry no year: stage 2 moves them to 2024, so this part is rewritten
    _write(tmp_path / "job" / "rank4.log", ("I0501 12:00:00.000000 500 train.py:10] step 1\n"
                                             + nccl("gpu-e", 500)).encode())
    monkeypatch.setattr(ingest_mod, "_SMALL_FILE_BYTES", 0)  # each file read alone, as a big one is
    rewritten: list[str] = []
    real = ingest_mod._attribute_part
    monkeypatch.setattr(ingest_mod, "_attribute_part", lambda path, *a: (rewritten.append(path), real(path, *a)))
    con = _timeline(tmp_path / "job", tmp_path, workers=1)
    nodes = dict(con.execute("SELECT file, list(DISTINCT node) FROM events GROUP BY file").fetchall())
    assert nodes == {"rank0.log": ["gpu-a"], "rank1.log": ["gpu-b"], "rank2.log": [None], "rank3.log": [None],
                     "rank4.log": ["gpu-e"]}
    assert con.execute("SELECT DISTINCT year(ts) FROM events WHERE file = 'rank4.log' AND ts IS NOT NULL"
                       ).fetchall() == [(2024,)]
    assert [Path(p).name for p in rewritten] == ["part-000004.parquet"]
    assert ingest_mod._file_host(pl_frame(["gpu-c", "gpu-d"])) is None
    assert ingest_mod._file_host(pl_frame(["gpu-a", "gpu-a.x.y", "localhost", "127.0.0.1", None])) == "gpu-a"


def pl_frame(hosts: list[str | None]):
    import polars as pl

    return pl.DataFrame({"node": [None] * len(hosts), "host_attr": hosts, "source": ["nccl"] * len(hosts)},
                        schema={"node": pl.Utf8, "host_attr": pl.Utf8, "source": pl.Utf8})


def test_a_file_indented_as_a_block_is_read_as_if_it_were_not(tmp_path):
    # a paste every line of which starts with the same spaces (a code block inside a list,
    # a console that prints " <stamp> <line>"): its tracebacks still fold, its lines stay events
    lines = [
        "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88, "
        "OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600512 milliseconds before timing out.",
        "step 12 loss 0.48",
        "Traceback (most recent call last):",
        '  File "/srv/x/run.py", line 3, in <module>',
        "    go()",
        "ValueError: bad shard index 7",
    ]
    plain, indented = tmp_path / "plain", tmp_path / "indented"
    plain.mkdir()
    indented.mkdir()
    (plain / "log.txt").write_text("\n".join(lines) + "\n")
    (indented / "log.txt").write_text("\n".join("    " + ln for ln in lines) + "\n")
    shapes = []
    for d in (plain, indented):
        (tmp_path / f"out-{d.name}").mkdir()
        con = _timeline(d, tmp_path / f"out-{d.name}")
        shapes.append(con.execute("SELECT line_no, line_end, kind FROM events ORDER BY line_no").fetchall())
    assert shapes[0] == shapes[1]
    assert shapes[1][-1][1] == 6  # the traceback is one event, ending at its exception line
