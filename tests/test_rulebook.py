"""The rule schema, loader, SQL matcher, example tests and encyclopedia import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from correlator.analysis.rulebook import RuleError, check_examples, load_rules, predicate
from correlator.cli import main
from correlator.timeline.shapes import SHAPE_SQL

# an entry in the failure encyclopedia's JSON shape, written for these tests
ENCYCLOPEDIA_ENTRY = Path(__file__).resolve().parent / "data" / "encyclopedia_entry.json"

BASE = {
    "id": "x-root",
    "title": "x",
    "category": "data_error",
    "role": "root",
    "signature": "ValueError: corrupt sample",
    "match": {"regex": "ValueError: corrupt sample"},
    "root_cause": "a bad sample",
    "fix": "drop it",
    "verify": "python check.py",
    "evidence": {"kind": "observed", "provenance": "sample_logs/gloo-data-error-per-rank/rank2.log"},
    "examples": ["[rank2]: ValueError: corrupt sample at index 526"],
    "near_misses": ["ValueError: something else"],
}


def _write(d: Path, name: str, doc: dict) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    p = d / name
    p.write_text(yaml.safe_dump(doc))
    return p


def test_valid_rule_loads_and_examples_pass(tmp_path):
    _write(tmp_path, "a.yaml", BASE)
    rules = load_rules([tmp_path], builtin=False)
    assert [r.rule.id for r in rules] == ["x-root"]
    results = check_examples(rules)
    assert [(r.expected, r.matched) for r in results] == [(True, True), (False, False)]


def test_a_wrong_example_is_reported(tmp_path):
    _write(tmp_path, "a.yaml", {**BASE, "examples": ["KeyError: nope"]})
    results = check_examples(load_rules([tmp_path], builtin=False))
    assert not results[0].ok


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"category": "gpu_fire"}, "category"),
        ({"role": "cause"}, "role"),
        ({"match": {"regex": "(unclosed"}}, "regex does not compile"),
        ({"match": {}}, "match needs at least one"),
        ({"leads_to": ["no-such-rule"]}, "unknown rule 'no-such-rule'"),
        ({"examples": []}, "examples"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_invalid_rules_name_the_file(tmp_path, change, message):
    path = _write(tmp_path, "bad.yaml", {**BASE, **change})
    with pytest.raises(RuleError) as err:
        load_rules([tmp_path], builtin=False)
    assert str(path) in str(err.value) and message in str(err.value)


def test_duplicate_ids_are_rejected(tmp_path):
    _write(tmp_path, "a.yaml", BASE)
    _write(tmp_path, "b.yaml", BASE)
    with pytest.raises(RuleError, match="already defined"):
        load_rules([tmp_path], builtin=False)


def test_predicate_combines_every_condition():
    from correlator.analysis.rulebook import Rule

    rule = Rule.model_validate(
        {**BASE, "match": {"kind": ["kernel.xid"], "attrs": {"xid": "79"}, "level": ["ERROR"], "regex": "x'y"}}
    )
    sql = predicate(rule)
    assert "e.kind IN ('kernel.xid')" in sql and "e.attrs['xid'] = '79'" in sql
    assert "e.level IN ('ERROR')" in sql and "regexp_matches(e.message, 'x''y')" in sql


def test_builtin_rules_load_and_their_examples_pass():
    rules = load_rules()
    assert rules, "the knowledge base is empty"
    failed = [(r.rule_id, r.text[:80], r.expected) for r in check_examples(rules) if not r.ok]
    assert failed == []


def test_import_encyclopedia_entry(tmp_path):
    entry_file = ENCYCLOPEDIA_ENTRY
    entry = json.loads(entry_file.read_text())
    out = tmp_path / "imported"
    result = CliRunner().invoke(main, ["rules", "import", str(entry_file), "--out", str(out)])
    assert result.exit_code == 0, result.output
    rules = load_rules([out], builtin=False)
    (lr,) = rules
    assert lr.rule.id == "pytorch/tcpstore-client-connect-timeout"  # lower-cased
    assert lr.rule.category == "nccl_network"  # the entry's "network", through the alias table
    assert lr.rule.evidence.kind == "secondhand"
    assert "verification_tier=test_fixture" in lr.rule.evidence.provenance
    assert lr.rule.signature == entry["signature"]
    # a workaround with only "how" is kept; dead ends and the transition graph come along as text
    assert [w.action for w in lr.rule.workarounds][1].startswith("Use torchrun's c10d rendezvous")
    assert lr.rule.dead_ends and "pytorch/torchrun-worker-group-failed" in (lr.rule.explanation or "")
    assert all(r.ok for r in check_examples(rules))  # its regex matches its own signature


def test_rule_candidates_apply_the_rules_row_conditions():
    """A rule on a common kind (every step line) with a row-level SQL condition must
    not make every step line a candidate, and must still find the one that matches."""
    import duckdb

    from correlator.analysis.rulebook import BLAME_TABLES_SQL, create_findings

    con = duckdb.connect()
    con.execute(
        "CREATE TABLE events AS SELECT 'j' AS job, NULL::INTEGER AS task, 'n0' AS node, (i % 4)::INTEGER AS rank, NULL::INTEGER AS local_rank, "
        "NULL::INTEGER AS pid, 'app' AS source, 'rank' || (i % 4) || '.log' AS file, i::BIGINT AS line_no, "
        "i::BIGINT AS line_end, TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(i) AS ts, "
        "TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(i) AS ts_aligned, false AS ts_estimated, 'INFO' AS level, "
        "'app.step_metrics' AS kind, 'step <*> loss <*>' AS template, "
        "'step ' || i || ' loss ' || CASE WHEN i = 7777 THEN 'nan' ELSE '2.5' END AS message, "
        "MAP {'step': i::VARCHAR, 'loss': CASE WHEN i = 7777 THEN 'nan' ELSE '2.5' END} AS attrs "
        "FROM range(20000) t(i)"
    )
    con.execute(f"ALTER TABLE events ADD COLUMN shape VARCHAR; UPDATE events SET shape = {SHAPE_SQL.format(message='message')}")
    con.execute(BLAME_TABLES_SQL)
    rules = [lr for lr in load_rules() if lr.rule.id == "app-loss-nonfinite"]
    create_findings(con, rules)
    assert con.execute("SELECT count(*) FROM rule_candidates").fetchone()[0] == 1
    assert con.execute("SELECT rule_id, line_no FROM findings").fetchall() == [("app-loss-nonfinite", 7777)]


def test_message_regex_in_rule_sql_is_guarded_by_its_literal():
    import duckdb

    from correlator.analysis.rulebook import (
        BLAME_TABLES_SQL,
        LoadedRule,
        Rule,
        _candidate_filter,
        create_findings,
    )

    base = yaml.safe_load((Path(__file__).parent.parent / "rules" / "torchrun" / "torchrun-sigbus.yaml").read_text())
    base["match"] = {"sql": "e.kind = 'nope' OR regexp_matches(e.message, 'died with signal \\d+ \\(SIGBUS\\)')"}
    rule = Rule.model_validate(base)
    cond = _candidate_filter(rule)
    assert "contains(e.shape, 'died with signal ')" in cond  # the literal, tested on shapes
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE events AS SELECT 'j' AS job, NULL::INTEGER AS task, 'n0' AS node, 0 AS rank, NULL::INTEGER AS local_rank, "
        "NULL::INTEGER AS pid, 'app' AS source, 'r.log' AS file, i::BIGINT AS line_no, i::BIGINT AS line_end, "
        "NULL::TIMESTAMPTZ AS ts, NULL::TIMESTAMPTZ AS ts_aligned, false AS ts_estimated, 'ERROR' AS level, "
        "NULL::VARCHAR AS kind, "
        "'t' AS template, CASE WHEN i = 3 THEN 'worker died with signal 7 (SIGBUS)' "
        "WHEN i = 4 THEN 'worker died with signal 7' ELSE 'fine' END AS message, MAP {'a': 'b'} AS attrs "
        "FROM range(10) t(i)"
    )
    con.execute(f"ALTER TABLE events ADD COLUMN shape VARCHAR; UPDATE events SET shape = {SHAPE_SQL.format(message='message')}")
    con.execute(BLAME_TABLES_SQL)
    create_findings(con, [LoadedRule(rule=rule, path=Path("torchrun-sigbus.yaml"))])
    assert con.execute("SELECT line_no FROM findings").fetchall() == [(3,)]


def test_a_literal_with_digits_only_prefilters_on_shapes():
    # 'exitcode: -9' has the shape 'exitcode: -0', which 'exitcode: -7' shares: the
    # shape test lets that line through to the regex, which must then reject it
    import duckdb

    from correlator.analysis.rulebook import BLAME_TABLES_SQL, LoadedRule, Rule, create_findings

    base = yaml.safe_load((Path(__file__).parent.parent / "rules" / "torchrun" / "torchrun-sigbus.yaml").read_text())
    base["match"] = {"regex": r"failed \(exitcode: -9\)"}
    rule = Rule.model_validate(base)
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE events AS SELECT 'j' AS job, NULL::INTEGER AS task, 'n0' AS node, 0 AS rank, NULL::INTEGER AS local_rank, "
        "NULL::INTEGER AS pid, 'torchrun' AS source, 'r.log' AS file, i::BIGINT AS line_no, i::BIGINT AS line_end, "
        "NULL::TIMESTAMPTZ AS ts, NULL::TIMESTAMPTZ AS ts_aligned, false AS ts_estimated, 'ERROR' AS level, "
        "NULL::VARCHAR AS kind, 't' AS template, "
        "'local_rank: 0 (pid: 12) of binary: x failed (exitcode: -' || (i % 10) || ')' AS message, "
        "MAP {'a': 'b'} AS attrs FROM range(20) t(i)"
    )
    con.execute(f"ALTER TABLE events ADD COLUMN shape VARCHAR; UPDATE events SET shape = {SHAPE_SQL.format(message='message')}")
    con.execute(BLAME_TABLES_SQL)
    create_findings(con, [LoadedRule(rule=rule, path=Path("torchrun-sigbus.yaml"))])
    assert con.execute("SELECT line_no FROM findings ORDER BY 1").fetchall() == [(9,), (19,)]


@pytest.mark.parametrize("sample", [
    "oom-cascade-nccl-timeouts", "xid79-fallen-off-bus", "torchrun-tee-console", "slurm-combined-srun-label",
    "collective-mismatch-detail", "deepspeed-batch-config-error", "nccl-ib-error-one-node", "zero3-offload-host-oom",
])
@pytest.mark.parametrize("by_position", [False, True])
def test_findings_equal_every_rule_run_on_every_event(samples, tmp_path, sample, by_position):
    # rule_candidates is a shortcut (cheap conditions on distinct shapes first, then
    # the rows picked by shape or by position); the findings must be exactly those of
    # each rule's predicate over the whole timeline
    from correlator.analysis.rulebook import BLAME_TABLES_SQL, create_findings
    from correlator.ingest import IngestOptions, ingest
    from correlator.target import ROWS_VIEW, open_timeline

    out = tmp_path / "t.parquet"
    ingest(samples / sample, out_parquet=out, options=IngestOptions(echo_problems=False, workers=1))
    with open_timeline(str(out)) as con:
        con.execute(BLAME_TABLES_SQL)
        rules = load_rules()
        create_findings(con, rules, rows=ROWS_VIEW if by_position else None)
        found = con.execute("SELECT rule_id, file, line_no, printed_by, ts, template, message FROM findings").fetchall()
        brute = []
        for lr in rules:
            brute += [(lr.rule.id, *row) for row in con.execute(
                f"SELECT file, line_no, rank, ts, template, message FROM events e WHERE {predicate(lr.rule)}").fetchall()]
    # the rows themselves, not only their keys: a position that picked the wrong row fails
    assert sorted(map(repr, found)) == sorted(map(repr, brute)) and found


def test_a_rule_without_a_cheap_condition_is_still_found(tmp_path):
    # an attr test alone cannot run on shapes: the candidates fall back to a full scan
    import duckdb

    from correlator.analysis.rulebook import BLAME_TABLES_SQL, LoadedRule, Rule, create_findings

    base = yaml.safe_load((Path(__file__).parent.parent / "rules" / "torchrun" / "torchrun-sigbus.yaml").read_text())
    base["match"] = {"sql": "e.attrs['odd'] = 'yes'"}
    rule = Rule.model_validate(base)
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE events AS SELECT 'j' AS job, NULL::INTEGER AS task, 'n0' AS node, 0 AS rank, NULL::INTEGER AS local_rank, "
        "NULL::INTEGER AS pid, 'app' AS source, 'r.log' AS file, i::BIGINT AS line_no, i::BIGINT AS line_end, "
        "NULL::TIMESTAMPTZ AS ts, NULL::TIMESTAMPTZ AS ts_aligned, false AS ts_estimated, 'INFO' AS level, "
        "NULL::VARCHAR AS kind, 't' AS template, 'line ' || i AS message, 'line 0' AS shape, "
        "CASE WHEN i = 5 THEN MAP {'odd': 'yes'} ELSE MAP {'odd': 'no'} END AS attrs FROM range(10) t(i)"
    )
    con.execute(BLAME_TABLES_SQL)
    create_findings(con, [LoadedRule(rule=rule, path=Path("odd.yaml"))])
    assert con.execute("SELECT line_no FROM findings").fetchall() == [(5,)]


def test_sql_conditions_split_at_top_level_and_or_only():
    from correlator.analysis.rulebook import _cheap_part, _conjuncts, _disjuncts

    assert _disjuncts("(e.kind = 'a' AND e.attrs['x'] = 'y') OR (contains(e.shape, 'p OR q'))") == [
        "(e.kind = 'a' AND e.attrs['x'] = 'y')", "(contains(e.shape, 'p OR q'))"]
    assert _conjuncts("e.kind = 'a' AND (e.level = 'ERROR' AND e.rank BETWEEN 1 AND 3)") == [
        "e.kind = 'a'", "e.level = 'ERROR'", "e.rank BETWEEN 1 AND 3"]
    assert _conjuncts("CASE WHEN e.kind = 'a' AND e.level = 'b' THEN true END AND e.source = 'c'") == [
        "CASE WHEN e.kind = 'a' AND e.level = 'b' THEN true END", "e.source = 'c'"]
    # only conditions on kind, shape, level and source are cheap; rank is not in job_shapes
    assert _cheap_part("e.kind = 'a' AND e.rank BETWEEN 1 AND 3 AND e.attrs['k'] = 'v'") == "(e.kind = 'a')"
    assert _cheap_part("e.attrs['k'] = 'v' AND regexp_matches(e.message, 'x')") is None
    assert _conjuncts('e.kind = \'a\' AND "odd AND name" = 1') == ["e.kind = 'a'", '"odd AND name" = 1']
    # comments are not understood: the condition stays whole
    assert _conjuncts("e.kind = 'a' -- AND\n AND e.level = 'b'") == ["e.kind = 'a' -- AND\n AND e.level = 'b'"]
    # ... but "--" inside a string literal is no comment (HF messages quote `--eval_steps`)
    assert _conjuncts("contains(e.shape, 'needs --eval_steps') AND regexp_matches(e.message, 'x')") == [
        "contains(e.shape, 'needs --eval_steps')", "regexp_matches(e.message, 'x')"]
    assert _cheap_part("contains(e.shape, 'needs --eval_steps') AND regexp_matches(e.message, 'x')") == (
        "(contains(e.shape, 'needs --eval_steps'))")


def test_a_shortcut_that_fails_falls_back_to_the_full_scan(samples, tmp_path, monkeypatch):
    import duckdb

    import correlator.analysis.rulebook as rulebook
    from correlator.ingest import IngestOptions, ingest

    out = tmp_path / "t.parquet"
    ingest(samples / "oom-cascade-nccl-timeouts", out_parquet=out, options=IngestOptions(echo_problems=False))

    def findings() -> set:
        con = duckdb.connect()
        con.execute(f"CREATE VIEW events AS SELECT * FROM '{out}'")
        con.execute(rulebook.BLAME_TABLES_SQL)
        rulebook.create_findings(con, load_rules())
        return set(con.execute("SELECT rule_id, file, line_no FROM findings").fetchall())

    fast = findings()

    def broken(self, condition):
        raise duckdb.ParserException("misread")

    monkeypatch.setattr(rulebook._JobShapes, "passing", broken)
    assert findings() == fast and fast


def test_regex_alternatives_are_split_only_where_that_keeps_their_meaning():
    from correlator.analysis.rulebook import _alternatives

    assert _alternatives(r"a|[|]b|\|c|x(?:d|e)") == ["a", "[|]b", r"\|c", "x(?:d|e)"]
    # inline flags reach the alternatives after them: not split
    assert _alternatives(r"(?i)loss is nan|inf") == [r"(?i)loss is nan|inf"]
    assert _alternatives(r"a(?i)b|c") == [r"a(?i)b|c"]
    # a piece that would not compile alone: not split
    assert _alternatives(r"(a|b") == [r"(a|b"]


@pytest.mark.parametrize(
    "sql",
    [
        "e.level = 'ERROR'); COPY (SELECT 1) TO '/tmp/owned.csv'; SELECT (1",
        "1=1; ATTACH '/tmp/x.db' AS x",
    ],
)
def test_a_rule_sql_condition_may_not_smuggle_a_statement(sql):
    from pydantic import ValidationError

    from correlator.analysis.rulebook import Match

    with pytest.raises(ValidationError, match=r"one condition|parse"):
        Match(sql=sql)
    assert Match(sql="e.level = 'ERROR' AND (SELECT count(*) FROM events) > 0").sql
