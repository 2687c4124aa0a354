"""The verdict engine on small jobs built for one property each, with their own rules."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
import yaml
from jobs import write_job

from correlator.analysis.analyze import analyze
from correlator.ingest import IngestOptions
from correlator.report.text import render

QUIET = IngestOptions(echo_problems=False, workers=1)


def _rule(rid: str, role: str, category: str, regex: str, example: str, **extra) -> dict:
    return {
        "id": rid, "title": rid, "category": category, "role": role, "signature": example,
        "match": {"regex": regex}, "root_cause": f"{rid} cause", "fix": f"{rid} fix", "verify": f"{rid} verify",
        "evidence": {"kind": "observed", "provenance": "test"}, "examples": [example], **extra,
    }


def _rules(tmp: Path, *docs: dict) -> str:
    d = tmp / "rules"
    d.mkdir()
    for doc in docs:
        (d / f"{doc['id']}.yaml").write_text(yaml.safe_dump(doc))
    return str(d)


def _job(tmp: Path, files: dict[str, str]) -> str:
    return str(write_job(tmp, files))


def _steps(rank: int, start: int, n: int, t0: int = 0) -> str:
    return "".join(
        f"2024-05-01 12:00:{t0 + s:02d},000 - INFO - __main__ - step {s} | rank {rank} | loss 1.0\n"
        for s in range(start, start + n)
    )


BOOM = _rule("boom", "root", "data_error", "BoomError", "BoomError: bad sample", leads_to=["peer-gone"])
PEER = _rule("peer-gone", "collateral", "nccl_network", "peer went away", "RuntimeError: peer went away")


def test_root_on_one_rank_collateral_on_the_others(tmp_path):
    files = {f"rank{r}.log": _steps(r, 1, 5) for r in range(4)}
    files["rank2.log"] += "Traceback (most recent call last):\n  File \"t.py\", line 1\nBoomError: bad sample\n"
    for r in (0, 1, 3):
        files[f"rank{r}.log"] += "2024-05-01 12:00:09,000 - ERROR - __main__ - RuntimeError: peer went away\n"
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, BOOM, PEER),), builtin_rules=False, options=QUIET)
    assert v.status == "failed"
    assert v.initiating.rank == 2 and not v.initiating.all_ranks
    assert v.root_cause.rule_id == "boom" and v.root_cause.fix == "boom fix"
    assert v.first_deviating.rank == 2 and "BoomError" in v.first_deviating.text
    assert v.first_deviating.why == "printed by 1 of the 4 ranks compared"
    assert v.first_deviating.context and "step 5" in v.first_deviating.context[-1].text
    (group,) = v.collateral
    assert group.rule_id == "peer-gone" and group.ranks == [0, 1, 3] and group.count == 3
    # the traceback has no stamp of its own: its time is an estimate, and says so
    assert v.root_cause.evidence.ts_estimated and not group.first.ts_estimated
    assert "estimated: no stamp of its own" in render(v).split("Root cause:")[1].split("Why:")[0]


def test_same_error_on_every_rank_is_all_ranks(tmp_path):
    cfg = _rule("bad-config", "root", "config_error", "ConfigError", "ConfigError: batch 64 != 8 * 1 * 4")
    files = {f"rank{r}.log": _steps(r, 1, 1) + "ConfigError: batch 64 != 8 * 1 * 4\n" for r in range(4)}
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, cfg),), builtin_rules=False, options=QUIET)
    assert v.initiating.all_ranks and v.initiating.rank is None
    assert v.root_cause.category == "config_error"


def test_later_failure_loses_to_earlier_one(tmp_path):
    late = _rule("late", "root", "oom", "LateError", "LateError: x")
    files = {f"rank{r}.log": _steps(r, 1, 3) for r in range(4)}
    files["rank1.log"] += "2024-05-01 12:00:04,000 - ERROR - __main__ - BoomError: bad sample\n"
    files["rank3.log"] += "2024-05-01 12:09:04,000 - ERROR - __main__ - LateError: x\n"
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, BOOM, PEER, late),), builtin_rules=False, options=QUIET)
    assert v.initiating.rank == 1
    loser = next(h for h in v.hypotheses if h.rule_id == "late")
    assert loser.why_not and "after the winner" in loser.why_not


def test_clock_skew_is_corrected_before_deciding(tmp_path):
    # node-1's clock runs 40 s ahead. Naively node-0's error (12:00:40) is first,
    # but node-1's (stamped 12:00:50) really happened at 12:00:10.
    n0 = _steps(0, 1, 9) + "2024-05-01 12:00:40,000 - ERROR - __main__ - BoomError: bad sample\n"
    n1 = "".join(
        f"2024-05-01 12:00:{40 + s:02d},000 - INFO - __main__ - step {s} | rank 1 | loss 1.0\n" for s in range(1, 10)
    ) + "2024-05-01 12:00:50,000 - ERROR - __main__ - BoomError: bad sample\n"
    files = {"node-0/rank0.log": n0, "node-1/rank1.log": n1}
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, BOOM, PEER),), builtin_rules=False, options=QUIET)
    (off,) = [c for c in v.clock if c.node != v.reference_node]
    assert off.applied and abs(abs(off.offset_s) - 40) < 0.5 and off.keys == 9
    assert v.initiating.rank == 1 and v.initiating.node == "node-1"


def test_silent_rank_is_inferred_from_absence(tmp_path):
    hang = _rule("recv-timeout", "collateral", "nccl_timeout_hang", "Timed out waiting", "Timed out waiting 20000ms for recv")
    files = {f"rank{r}.log": _steps(r, 1, 20) for r in range(3)}
    for r in range(3):
        files[f"rank{r}.log"] += "2024-05-01 12:00:45,000 - ERROR - __main__ - Timed out waiting 20000ms for recv\n"
    files["rank3.log"] = _steps(3, 1, 10)  # stops at step 10 and says nothing
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, hang),), builtin_rules=False, options=QUIET)
    assert v.initiating.rank == 3
    assert v.root_cause.category == "nccl_timeout_hang" and v.root_cause.rule_id is None
    assert v.collateral[0].ranks == [0, 1, 2]
    # the evidence is its last line, text included
    assert v.root_cause.evidence.file == "rank3.log" and v.root_cause.evidence.line_no == 10
    assert "step 10 | rank 3" in v.root_cause.evidence.text


def test_silent_rank_behind_in_steps_though_it_logged_after_the_timeouts(tmp_path):
    hang = _rule("recv-timeout", "collateral", "nccl_timeout_hang", "Timed out waiting", "Timed out waiting 20000ms for recv")
    files = {f"rank{r}.log": _steps(r, 1, 20) for r in range(3)}
    for r in range(3):
        files[f"rank{r}.log"] += "2024-05-01 12:00:45,000 - ERROR - __main__ - Timed out waiting 20000ms for recv\n"
    # rank 3 stalled after step 7, then echoed an INFO line after the others timed out
    files["rank3.log"] = _steps(3, 1, 7) + "2024-05-01 12:00:50,000 - INFO - __main__ - still waiting\n"
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, hang),), builtin_rules=False, options=QUIET)
    assert v.initiating.rank == 3
    ev = v.root_cause.evidence
    assert (ev.file, ev.line_no) == ("rank3.log", 7) and "step 7 | rank 3" in ev.text


DONE = "2024-05-01 12:00:06,000 - INFO - __main__ - Training completed. 5 steps in 5.0 s\n"


def test_healthy_job_and_baseline(tmp_path):
    files = {f"rank{r}.log": _steps(r, 1, 5) + (DONE if r == 0 else "") for r in range(2)}
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, BOOM, PEER),), builtin_rules=False, options=QUIET)
    assert v.status == "healthy" and v.initiating is None
    assert "rank0.log:" in v.status_reason
    # a warning every rank prints deviates from nothing, unless a baseline never printed it
    warn = {f"rank{r}.log": _steps(r, 1, 5) + "2024-05-01 12:00:09,000 - WARNING - __main__ - disk almost full\n" for r in range(2)}
    job = _job(tmp_path / "w", warn)
    base = _job(tmp_path / "b", files)
    plain = analyze(job, rules_dirs=(_rules(tmp_path / "w", BOOM, PEER),), builtin_rules=False, options=QUIET)
    assert plain.first_deviating is None
    vs = analyze(job, baseline=base, rules_dirs=(_rules(tmp_path / "b", BOOM, PEER),), builtin_rules=False, options=QUIET)
    assert vs.first_deviating is not None and "disk almost full" in vs.first_deviating.text
    assert "baseline" in vs.first_deviating.why


def _nccl_init(rank: int, nranks: int, dev: int, bus: str, pid: int = 4000) -> str:
    # verbatim NCCL 2.18 init line shape (docs/formats/nccl.md)
    return (f"node-0:{pid + rank}:{pid + rank + 50} [{dev}] NCCL INFO comm 0x55d4c0a1e2f0 rank {rank} "
            f"nranks {nranks} cudaDev {dev} nvmlDev {dev} busId {bus} commId 0x7a3b1c2d4e5f6a7b - Init COMPLETE\n")


def test_initiating_gpu_comes_from_the_ranks_own_nccl_init(tmp_path):
    files = {f"node-0/rank{r}.log": _nccl_init(r, 4, r, f"{r + 1}a000") + _steps(r, 1, 5) for r in range(4)}
    files["node-0/rank2.log"] += "Traceback (most recent call last):\n  File \"t.py\", line 1\nBoomError: bad sample\n"
    for r in (0, 1, 3):
        files[f"node-0/rank{r}.log"] += "2024-05-01 12:00:09,000 - ERROR - __main__ - RuntimeError: peer went away\n"
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, BOOM, PEER),), builtin_rules=False, options=QUIET)
    assert v.initiating.rank == 2
    assert v.initiating.gpu == "cuda:2 (PCI 0000:3a:00.0)"
    assert "Initiating: rank 2, node node-0, GPU cuda:2 (PCI 0000:3a:00.0)" in render(v)


def test_initiating_gpu_of_an_xid_is_its_pci_address(tmp_path):
    xid = _rule("xid", "root", "hardware_xid", r"NVRM: Xid", "NVRM: Xid (PCI:0000:3b:00): 79, pid=123, GPU has fallen off the bus.")
    files = {f"node-0/rank{r}.log": _steps(r, 1, 5) for r in range(2)}
    files["node-0/dmesg.log"] = "[Wed May  1 12:00:04 2024] NVRM: Xid (PCI:0000:3b:00): 79, pid=123, GPU has fallen off the bus.\n"
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, xid),), builtin_rules=False, options=QUIET)
    assert v.root_cause.rule_id == "xid" and v.initiating.gpu == "PCI 0000:3b:00"


def test_nccl_bus_id_reads_as_a_pci_address():
    from correlator.analysis.decide import _pci_of_nccl_bus

    assert _pci_of_nccl_bus("3a000") == "0000:3a:00.0"
    assert _pci_of_nccl_bus("b000") == "0000:0b:00.0"
    assert _pci_of_nccl_bus("100000") == "0001:00:00.0"  # a PCI domain of its own
    assert _pci_of_nccl_bus("zz") is None


@pytest.mark.parametrize(("sample", "category"), [
    ("oom-cascade-nccl-timeouts", "oom"), ("slurm-combined-srun-label", "nan_divergence"),
])
def test_a_timeline_without_the_shape_and_task_columns_gets_the_same_verdict(samples, tmp_path, sample, category):
    # timelines written before the columns existed: analyze derives them
    import duckdb

    from correlator.ingest import ingest

    new = tmp_path / "new.parquet"
    ingest(samples / sample, out_parquet=new, options=IngestOptions(echo_problems=False))
    old = tmp_path / "old.parquet"
    duckdb.sql(f"COPY (SELECT * EXCLUDE (shape, task) FROM '{new}') TO '{old}' (FORMAT parquet)")
    with_cols, without = analyze(str(new)), analyze(str(old))
    assert with_cols.root_cause is not None and with_cols.root_cause.category == category
    # files with events: from the files view, or (old has none) from the events themselves
    assert with_cols.files == duckdb.sql(f"SELECT count(DISTINCT file) FROM '{new}'").fetchall()[0][0] >= 1
    assert without.model_dump() == with_cols.model_dump()


def test_a_duckdb_timeline_gets_the_parquet_timelines_verdict(samples, tmp_path):
    # rows are located by file_row_number in Parquet and by rowid in DuckDB
    from correlator.ingest import ingest

    job = samples / "oom-cascade-nccl-timeouts"
    ingest(job, out_parquet=tmp_path / "t.parquet", options=IngestOptions(echo_problems=False))
    ingest(job, out_db=tmp_path / "t.duckdb", options=IngestOptions(echo_problems=False))
    from_parquet, from_db = analyze(str(tmp_path / "t.parquet")), analyze(str(tmp_path / "t.duckdb"))
    assert from_parquet.root_cause is not None and from_parquet.root_cause.category == "oom"
    assert from_db.model_dump() == from_parquet.model_dump()


@pytest.mark.parametrize("sample", ["xid79-fallen-off-bus", "nccl-ib-error-one-node"])
def test_nccl_inits_from_the_alignment_scan_equal_the_blame_tables_own(samples, monkeypatch, sample):
    # analyze reads NCCL init lines' attrs in the scan that aligns clocks; the table
    # must be the one rulebook.NCCL_INITS_SQL builds from the events
    import correlator.analysis.findings as findings_mod
    from correlator.analysis.rulebook import NCCL_INITS_SQL

    compared = []

    def checked(con, rules, **kw):
        con.execute(NCCL_INITS_SQL.replace("nccl_inits", "inits_from_events"))
        ours, theirs = ("SELECT * FROM nccl_inits", "SELECT * FROM inits_from_events")
        diff = con.execute(f"SELECT count(*) FROM (({ours} EXCEPT ALL {theirs}) UNION ALL "
                           f"({theirs} EXCEPT ALL {ours}))").fetchone()[0]
        compared.append((con.execute("SELECT count(*) FROM nccl_inits").fetchone()[0], diff))
        return create_findings(con, rules, **kw)

    create_findings = findings_mod.create_findings
    monkeypatch.setattr(findings_mod, "create_findings", checked)
    analyze(str(samples / sample), options=QUIET)
    ((rows, diff),) = compared
    assert rows > 0 and diff == 0


def test_last_progress_holds_each_ranks_aligned_first_and_last_step(tmp_path, monkeypatch):
    # last_progress carries each rank's first step too (the job's first step, which
    # marks an all-ranks failure "after training had started", is their minimum);
    # node-2's clock runs 40 s ahead, so its aligned times are not its printed ones
    import correlator.analysis.analyze as analyze_mod

    seen = []

    class Watched:  # the connection, checked once deviation.sql has run
        def __init__(self, con):
            self.con = con

        def execute(self, sql, *args):
            out = self.con.execute(sql, *args)
            if "CREATE OR REPLACE TEMP TABLE last_progress" in sql:
                ours = "SELECT rank, t, first FROM last_progress"
                theirs = ("SELECT rank, max(ts_aligned), min(ts_aligned) FROM events "
                          "WHERE kind = 'app.step_metrics' GROUP BY rank")
                seen.append(self.con.execute(
                    f"SELECT (SELECT count(*) FROM (({ours} EXCEPT {theirs}) UNION ALL ({theirs} EXCEPT {ours}))), "
                    "(SELECT count(*) FROM last_progress), "
                    "(SELECT count(*) FROM last_progress p JOIN (SELECT rank, min(ts) AS raw FROM events "
                    "  WHERE kind = 'app.step_metrics' GROUP BY rank) r ON r.rank = p.rank WHERE p.first <> r.raw)"
                ).fetchone())
            return out

        def __getattr__(self, name):
            return getattr(self.con, name)

    def steps(rank: int, skew_s: int) -> str:
        t0 = datetime(2024, 5, 1, 12, 0, 0)
        return "".join(f"{(t0 + timedelta(seconds=10 * s + skew_s)).strftime('%Y-%m-%d %H:%M:%S')},000 - INFO - "
                       f"__main__ - step {s} | loss 1.0\n" for s in range(30))

    real_verdict = analyze_mod._verdict
    monkeypatch.setattr(analyze_mod, "_verdict", lambda con, *a: real_verdict(Watched(con), *a))
    files = {"node-0/rank0.log": steps(0, 0), "node-1/rank1.log": steps(1, 0), "node-2/rank2.log": steps(2, 40)}
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, BOOM, PEER),), builtin_rules=False, options=QUIET)
    assert [c.node for c in v.clock if c.applied] == ["node-2"]
    ((differ, ranks, shifted),) = seen
    assert differ == 0 and ranks == 3 and shifted == 1


@pytest.mark.parametrize("case_nodes", [0, 64])
def test_aligned_events_shift_each_node_by_its_applied_offset(monkeypatch, case_nodes):
    # written as a CASE on node (few shifted nodes) or as a join (many): the same times
    import duckdb

    import correlator.analysis.align as align_mod

    monkeypatch.setattr(align_mod, "_CASE_NODES", case_nodes)
    con = duckdb.connect()
    con.execute("CREATE TABLE timeline_raw AS SELECT * FROM (VALUES "
                "('a', TIMESTAMPTZ '2024-05-01 12:00:10+00', TIMESTAMPTZ '2024-05-01 12:00:10+00'), "
                "('b''s', TIMESTAMPTZ '2024-05-01 12:00:10+00', TIMESTAMPTZ '2024-05-01 12:00:10+00'), "
                "('c', TIMESTAMPTZ '2024-05-01 12:00:10+00', TIMESTAMPTZ '2024-05-01 12:00:10+00'), "
                "(NULL, TIMESTAMPTZ '2024-05-01 12:00:10+00', TIMESTAMPTZ '2024-05-01 12:00:10+00'), "
                "('a', NULL, NULL)) t(node, ts, ts_aligned)")
    con.execute("CREATE TABLE clock_offsets AS SELECT *, to_microseconds(CASE WHEN applied THEN "
                "CAST(round(offset_s * 1e6) AS BIGINT) ELSE 0 END) AS shift FROM (VALUES "
                "('a', 2.5, true), ('b''s', -40.0, true), ('c', 0.4, false)) t(node, offset_s, applied)")
    align_mod._create_aligned_events(con)
    got = con.execute("SELECT node, strftime(ts_aligned, '%H:%M:%S.%f') FROM events").fetchall()
    assert sorted(got, key=repr) == sorted([("a", "12:00:07.500000"), ("b's", "12:00:50.000000"),
                                            ("c", "12:00:10.000000"), (None, "12:00:10.000000"), ("a", None)], key=repr)
    assert [d[0] for d in con.execute("SELECT * FROM events").description] == ["node", "ts", "ts_aligned"]


def test_a_long_job_is_aligned_on_its_last_half_hour_by_a_majority_clock(tmp_path):
    # two hours of steps, one every 10 s, on three nodes; node-2's clock runs 40 s
    # ahead. Steps are read from the last 30 minutes only, and the reference is a
    # node whose clock the others share (node-2 has 4 more steps after the window's
    # common start, and must not become the reference by that).
    def steps(rank: int, skew_s: int) -> str:
        t0 = datetime(2024, 5, 1, 12, 0, 0)
        return "".join(
            f"{(t0 + timedelta(seconds=10 * s + skew_s)).strftime('%Y-%m-%d %H:%M:%S')},000 - INFO - __main__ - "
            f"step {s} | rank {rank} | loss 1.0\n" for s in range(720)
        )

    files = {"node-0/rank0.log": steps(0, 0), "node-1/rank1.log": steps(1, 0), "node-2/rank2.log": steps(2, 40)}
    v = analyze(_job(tmp_path, files), rules_dirs=(_rules(tmp_path, BOOM, PEER),), builtin_rules=False, options=QUIET)
    assert v.reference_node in ("node-0", "node-1")
    offsets = {c.node: c for c in v.clock}
    assert abs(offsets["node-2"].offset_s - 40) < 0.5 and offsets["node-2"].applied
    # 30 minutes of steps from the window's start (node-0's and node-1's last step - 30 min)
    assert 175 <= offsets["node-2"].keys <= 186


def test_an_error_no_rule_explains_is_a_hypothesis_with_its_text(tmp_path):
    # the deviating lines are found without their text; the text of the one a
    # hypothesis cites is fetched back (a traceback makes it a code exception)
    tb = ('Traceback (most recent call last):\n  File "/w/train.py", line 9, in <module>\n    main()\n'
          "ZeroDivisionError: division by zero\n")
    files = {f"rank{r}.log": _steps(r, 1, 9) + (tb if r == 2 else "") for r in range(4)}
    v = analyze(_job(tmp_path, files), builtin_rules=False, options=QUIET)
    (h,) = [h for h in v.hypotheses if h.rule_id is None and h.rank == 2]
    # the message itself, not its template (which masks the path and the number)
    assert h.category == "code_exception" and '"/w/train.py", line 9' in h.evidence.text
    assert v.first_deviating.rank == 2 and '"/w/train.py", line 9' in v.first_deviating.text
