"""The rulebook's disk cache: the same rules as a fresh load, rebuilt whenever a
rule file changes or the entry cannot be trusted; and the commands that need no
data libraries load none."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from correlator.analysis import rulecache
from correlator.analysis.rulebook import RuleError, load_rules

ROOT = Path(__file__).resolve().parent.parent

RULE = """\
id: my-rule
title: {title}
category: other
role: root
signature: "boom"
match: {{regex: "boom happened"}}
root_cause: x
fix: y
verify: z
evidence: {{kind: observed, provenance: a test}}
examples: ["boom happened"]
"""


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv(rulecache.ENV, str(where))
    return where


def _dump(rules) -> list:
    return [(lr.rule.model_dump(), str(lr.path)) for lr in rules]


def test_cached_builtin_rules_equal_a_fresh_load(cache, monkeypatch):
    first = load_rules()  # builds and writes
    assert len(list(cache.glob("rules-*.pickle"))) == 1
    again = load_rules()  # reads
    monkeypatch.setenv(rulecache.ENV, "off")
    fresh = load_rules()
    assert _dump(first) == _dump(again) == _dump(fresh)
    assert len(fresh) > 100


def test_a_hit_does_not_build_and_an_edit_does(cache, tmp_path, monkeypatch):
    from correlator.analysis import rulebook

    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "r.yaml").write_text(RULE.format(title="one"))
    assert [lr.rule.title for lr in load_rules([rules], builtin=False)] == ["one"]
    real = rulebook._load_rules

    def no_build(roots):
        raise AssertionError("built again")

    monkeypatch.setattr(rulebook, "_load_rules", no_build)
    assert [lr.rule.title for lr in load_rules([rules], builtin=False)] == ["one"]  # a hit
    monkeypatch.setattr(rulebook, "_load_rules", real)
    (rules / "r.yaml").write_text(RULE.format(title="two"))  # same size, other bytes
    assert [lr.rule.title for lr in load_rules([rules], builtin=False)] == ["two"]
    (rules / "s.yaml").write_text(RULE.format(title="three").replace("my-rule", "other-rule"))
    assert sorted(lr.rule.title for lr in load_rules([rules], builtin=False)) == ["three", "two"]


def test_build_runs_once_per_key(cache, tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("a")
    calls = []

    def build():
        calls.append(1)
        return {"n": len(calls)}

    assert rulecache.cached("k", [f], (), build) == {"n": 1}
    assert rulecache.cached("k", [f], (), build) == {"n": 1}
    f.write_text("b")
    assert rulecache.cached("k", [f], (), build) == {"n": 2}
    assert calls == [1, 1]


def test_a_torn_or_foreign_entry_is_rebuilt(cache, tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("a")
    assert rulecache.cached("k", [f], (), lambda: "good") == "good"
    (entry,) = cache.glob("k-*.pickle")
    entry.write_bytes(b"\x80\x05garbage")  # torn
    assert rulecache.cached("k", [f], (), lambda: "rebuilt") == "rebuilt"
    assert rulecache.cached("k", [f], (), lambda: "not called") == "rebuilt"  # and written again, whole
    os.chmod(entry, 0o666)  # anyone could have written it: never unpickled
    assert rulecache.cached("k", [f], (), lambda: "distrusted") == "distrusted"
    assert not list(cache.glob(".*.tmp"))  # no temporary left behind


def test_off_writes_nothing_and_xdg_is_the_default_home(tmp_path, monkeypatch):
    f = tmp_path / "in.txt"
    f.write_text("a")
    monkeypatch.setenv(rulecache.ENV, "")
    assert rulecache.cache_dir() is None
    assert rulecache.cached("k", [f], (), lambda: 1) == 1
    monkeypatch.delenv(rulecache.ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert rulecache.cache_dir() == tmp_path / "xdg" / "correlator"
    rulecache.cached("k", [f], (), lambda: 1)
    assert len(list((tmp_path / "xdg" / "correlator").glob("k-*.pickle"))) == 1


def test_an_unwritable_cache_only_costs_the_rebuild(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(rulecache.ENV, str(blocker / "cache"))
    assert len(load_rules()) > 100


def test_invalid_rules_are_not_cached(cache, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "r.yaml").write_text(RULE.format(title="x").replace("category: other", "category: nonsense"))
    for _ in range(2):
        with pytest.raises(RuleError):
            load_rules([rules], builtin=False)
    assert not list(cache.glob("rules-*.pickle"))


@pytest.mark.parametrize("argv", [["--help"], ["rules", "list"], ["rules", "show", "cuda-oom"], ["analyze", "--help"]])
def test_commands_that_read_no_logs_load_no_data_library(argv, cache):
    probe = (
        "import sys\n"
        f"sys.argv = ['correlator', *{argv!r}]\n"
        "from correlator.__main__ import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('LOADED', sorted(m for m in ('polars', 'pyarrow', 'duckdb') if m in sys.modules), file=sys.stderr)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    for _ in range(2):  # the first run of rules list builds the cache (DuckDB checks the regexes)
        res = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120)
    assert "LOADED []" in res.stderr, res.stderr[-2000:]


def test_memoized_rule_analysis_hands_out_copies():
    from correlator.analysis.rulebook import _conjuncts

    first = _conjuncts("e.kind = 'a' AND e.level = 'ERROR'")
    first.append("changed by a caller")
    assert _conjuncts("e.kind = 'a' AND e.level = 'ERROR'") == ["e.kind = 'a'", "e.level = 'ERROR'"]


def test_a_verdict_from_the_cached_rulebook_equals_one_from_a_fresh_load(cache):
    from correlator.analysis import rulebook
    from correlator.analysis.analyze import analyze

    job = str(ROOT / "sample_logs" / "torchrun-tee-console")
    fresh = analyze(job).model_dump()  # builds the entry
    rulebook._MEMO.clear()  # as a new process: rules and memo come from the pickle
    assert list(cache.glob("rules-*.pickle"))
    cached = analyze(job).model_dump()
    assert cached == fresh
