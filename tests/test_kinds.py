"""The kind groups of ``correlator.timeline.kinds``: one definition that every reader uses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from correlator.analysis.evidence import sql_file
from correlator.analysis.rulebook import load_rules
from correlator.timeline import kinds
from correlator.watch.progress import PROGRESS_KINDS
from parsers import PATTERNS

GROUPS = {name: getattr(kinds, name) for name in ("TRAINING_RECORDS", "METRIC_RECORDS", "STREAM_WENT_ON",
                                                     "COUNTED_PROGRESS")}
ANALYSIS = Path(__file__).resolve().parents[1] / "correlator" / "analysis"


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_every_kind_in_a_group_is_one_a_pattern_emits(group: str) -> None:
    emitted = {p.name for p in PATTERNS}
    assert GROUPS[group] <= emitted, GROUPS[group] - emitted


def test_the_nonfinite_metrics_rule_reads_every_metric_record() -> None:
    rule = next(r for r in load_rules() if r.rule.id == "trainer-metrics-nonfinite")
    assert set(rule.rule.match.kind) == kinds.METRIC_RECORDS


def test_watch_counts_what_the_analysis_counts_as_progress() -> None:
    assert kinds.TRAINING_RECORDS <= PROGRESS_KINDS


def test_sql_files_get_the_groups_written_in() -> None:
    text = sql_file("deviation.sql")
    assert "$STREAM_WENT_ON" not in text
    for kind in kinds.STREAM_WENT_ON:
        assert f"'{kind}'" in text


def test_no_analysis_module_spells_a_group_out_again() -> None:
    # a second hand-written list is how a new progress kind came to count in one place and not another
    spelled = re.compile(r"'app\.(?:trainer_metrics|iteration_record|loss_record|epoch_progress)'")
    offenders = [p.name for p in ANALYSIS.iterdir() if p.suffix in (".py", ".sql") and spelled.search(p.read_text())]
    assert offenders == []
