"""``correlator sql`` reads the timeline and nothing else; terminal output carries
no escape sequence from the logs (issue 22, "Trust", tasks 4 and 5)."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from correlator.cli import main
from correlator.report.terminal import clean, clean_line
from correlator.target import open_timeline
from tests.jobs import write_job

LOG = (
    "2024-05-01 12:00:01,000 - INFO - __main__ - step 1 | loss 1.0\n"
    "2024-05-01 12:00:02,000 - INFO - __main__ - step 2 | loss 0.9\n"
    "2024-05-01 12:00:03,000 - ERROR - __main__ - RuntimeError: CUDA error: an illegal memory access was encountered\n"
)
EVIL = "\x1b]0;evil\x07\x1b[31mRED\x1b[0m \x1b]52;c;cGF5bG9hZA==\x07\x9b2J tail\r"


@pytest.fixture(scope="module")
def timeline(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("sql")
    job = write_job(base, {"rank0.log": LOG, "rank1.log": LOG.replace("ERROR", "INFO")})
    res = CliRunner().invoke(main, ["ingest", str(job), "--out", str(base / "t.parquet"), "--db", str(base / "t.duckdb")])
    assert res.exit_code == 0, res.output
    return {"job": job, "parquet": base / "t.parquet", "duckdb": base / "t.duckdb", "base": base}


def run_sql(target: Path, query: str, *extra: str):
    return CliRunner().invoke(main, ["sql", str(target), query, *extra])


# --------------------------------------------------------------------------- task 4: the lock


@pytest.mark.parametrize("kind", ["parquet", "duckdb", "job"])
@pytest.mark.parametrize("query", [
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_text('/etc/shadow')",
    "SELECT * FROM read_parquet('{other}')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM read_csv('http://127.0.0.1:{port}/x.csv')",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "RESET enable_external_access",
    "SET lock_configuration = false",
    "ATTACH '{tmp}/new.duckdb' AS x",
    "COPY (SELECT 1) TO '{tmp}/out.csv'",
    "COPY (SELECT 1) TO '{target}' (USE_TMP_FILE false)",
    "EXPORT DATABASE '{tmp}/exported'",
    "SELECT 1; COPY (SELECT 1) TO '{tmp}/out.csv'",
])
def test_a_query_cannot_leave_the_timeline(timeline, tmp_path, kind, query):
    other = tmp_path / "other.parquet"
    other.write_bytes(timeline["parquet"].read_bytes())
    target = timeline[kind]
    before = {p: p.read_bytes() for p in timeline["base"].rglob("*") if p.is_file()}
    hits: list[bytes] = []
    server, port = _listener(hits)
    try:
        res = run_sql(target, query.format(other=other, port=port, tmp=tmp_path, target=target))
    finally:
        server.close()
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and "root:" not in res.output
    assert hits == []  # nothing reached the network
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.parquet"]
    assert {p: p.read_bytes() for p in timeline["base"].rglob("*") if p.is_file()} == before


def _listener(hits: list[bytes]) -> tuple[socket.socket, int]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(5)

    def accept() -> None:
        try:
            conn, _ = server.accept()
            hits.append(conn.recv(100))
            conn.close()
        except OSError:
            pass

    threading.Thread(target=accept, daemon=True).start()
    return server, server.getsockname()[1]


@pytest.mark.parametrize("kind", ["parquet", "duckdb", "job"])
def test_ordinary_queries_still_work(timeline, kind):
    res = run_sql(timeline[kind], "SELECT level, count(*) AS n FROM events GROUP BY ALL ORDER BY ALL", "--format", "csv")
    assert res.exit_code == 0, res.output
    assert "ERROR," in res.stdout and "INFO," in res.stdout
    for q in ("DESCRIBE events", "SELECT * FROM files", "SELECT count(*) FROM problems",
              "CREATE TEMP TABLE x AS SELECT * FROM events; SELECT count(*) FROM x",
              "SELECT to_json(map_keys(attrs)) FROM events LIMIT 1", "SUMMARIZE events"):
        res = run_sql(timeline[kind], q)
        assert res.exit_code == 0, (q, res.output)


def test_parquet_out_is_written_without_duckdb_file_access(timeline, tmp_path):
    import pyarrow.parquet as pq

    res = run_sql(timeline["parquet"], "SELECT rank, message FROM events", "--format", "parquet",
                  "--out", str(tmp_path / "x.parquet"))
    assert res.exit_code == 0, res.output
    assert pq.read_table(tmp_path / "x.parquet").num_rows == 6


def test_unsafe_opens_it_all(timeline, tmp_path):
    res = run_sql(timeline["parquet"], "SELECT count(*) AS n FROM read_csv('/etc/passwd', header = false)",
                  "--unsafe", "--format", "csv")
    assert res.exit_code == 0, res.output
    assert int(res.stdout.split()[1]) > 0
    res = run_sql(timeline["parquet"], f"COPY (SELECT 1) TO '{tmp_path}/out.csv'", "--unsafe")
    assert res.exit_code == 0 and (tmp_path / "out.csv").is_file()


def test_the_analysis_runs_under_the_lock(timeline):
    # rules' sql: conditions run on this connection: locked, and the analysis works
    with open_timeline(str(timeline["parquet"])) as con:
        assert con.execute("SELECT current_setting('enable_external_access')").fetchone()[0] is False
        assert con.execute("SELECT current_setting('lock_configuration')").fetchone()[0] is True
        with pytest.raises(Exception, match=r"(?i)permission|disabled"):
            con.execute("SELECT * FROM read_csv('/etc/passwd')")
    res = CliRunner().invoke(main, ["analyze", str(timeline["parquet"]), "--format", "json"])
    assert res.exit_code == 1 and '"status": "failed"' in res.stdout, res.output


def test_batch_output_is_readable_under_the_lock(tmp_path):
    from correlator.batch.run import BatchOptions, run_batch

    root = tmp_path / "root"
    write_job(root, {"rank0.log": LOG})
    run_batch(str(root), str(tmp_path / "out"), BatchOptions(workers=1, html=False), progress=None)
    res = run_sql(tmp_path / "out", "SELECT count(*) AS n FROM events JOIN summary USING (job)", "--format", "csv")
    assert res.exit_code == 0 and res.stdout.split() == ["n", "3"], res.output


# --------------------------------------------------------------------------- task 5: the terminal


def _dirty(text: str) -> list[str]:
    return [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f]


def test_clean_drops_escapes_and_controls():
    assert clean(EVIL) == "RED  tail"
    assert clean("a\x1b[1;31mb\x1b[0m\nc\td\x00\x07\x08") == "ab\nc\td"
    assert clean("x\x1bPq#0;2;0;0;0\x1b\\y") == "xy"  # DCS (sixel)
    assert clean("unterminated \x1b]0;title") == "unterminated "
    assert clean("rtl \u202eevil") == "rtl evil"
    assert clean_line("one\ntwo\r\x1b[2K three") == "one two three"


@pytest.fixture(scope="module")
def evil_job(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("evil")
    lines = LOG.replace("RuntimeError: CUDA error", f"RuntimeError: {EVIL} CUDA error")
    lines = f"2024-05-01 12:00:00,500 - INFO - __main__ - banner {EVIL}\n" + lines
    return write_job(base, {"rank0.log": lines, "rank1.log": LOG.replace("ERROR", "INFO")})


def test_the_text_report_strips_escapes(evil_job, tmp_path):
    res = CliRunner().invoke(main, ["analyze", str(evil_job)])
    assert res.exit_code == 1, res.output
    assert "RED" in res.stdout and "CUDA error" in res.stdout
    assert _dirty(res.stdout) == [], res.stdout
    res = CliRunner().invoke(main, ["analyze", str(evil_job), "--out", str(tmp_path / "r.txt")])
    assert _dirty((tmp_path / "r.txt").read_text()) == []
    for fmt in ("json", "md", "html"):
        res = CliRunner().invoke(main, ["analyze", str(evil_job), "--format", fmt])
        assert res.exit_code == 1 and _dirty(res.stdout) == [], fmt
    json_out = CliRunner().invoke(main, ["analyze", str(evil_job), "--format", "json"]).stdout
    import json

    json.loads(json_out)  # still JSON


def test_sql_table_output_strips_escapes(evil_job):
    for fmt in ("table", "csv"):
        res = run_sql(evil_job, "SELECT message, template FROM events", "--format", fmt)
        assert res.exit_code == 0, res.output
        assert "RED" in res.stdout and _dirty(res.stdout) == [], (fmt, res.stdout)
    res = run_sql(evil_job, "SELECT message FROM events", "--format", "json")
    assert _dirty(res.stdout) == []  # JSON escapes ESC (\u001b); a raw C1 CSI is dropped


def test_error_messages_strip_escapes(tmp_path):
    bad = tmp_path / "evil\x1b]0;owned\x07name.parquet"
    bad.write_bytes(b"PAR1" + b"\x00" * 64)
    res = run_sql(bad, "SELECT 1")
    assert res.exit_code == 2
    assert _dirty(res.output) == [] and "evilname.parquet" in res.output, repr(res.output)


def test_warnings_about_archive_members_strip_escapes(tmp_path):
    import io
    import tarfile

    archive = tmp_path / "job.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, data in (("job/rank0\x1b[31m\x1b]0;evil\x07.log", LOG.encode()),
                           ("job/core\x1b]0;x\x07.bin", b"\x00\x01\x02" * 4000)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    res = CliRunner().invoke(main, ["analyze", str(archive)])
    assert res.exit_code in (1, 3), res.output
    assert _dirty(res.output) == [], repr(res.output)
