"""Rules whose evidence is the software's own source say which source and which version.

A rule mined from a `raise`, an `assert` or a `WARN(...)` is only as good as its
pointer back to that text: the file it was read in and the release it was read
from, so that a reader can check it and a later release that rewords the message
can be found. Its regex must be the format string's shape, not one incident's
values: a number printed in an example (a port, a step count, a rank) must not
be spelled out in the regex.
"""

from __future__ import annotations

import re

import pytest

from correlator.analysis.rulebook import LoadedRule, load_rules

# Families whose source rules quote program code; hardware/ and scheduler/ quote
# vendor catalogues and daemon texts that have no source file to name.
CODE_FAMILIES = {
    "transformers", "trl", "accelerate", "deepspeed", "c10d", "torchrun", "nccl",
    "python", "data", "storage", "oom", "version",
}
SOURCE_FILE = re.compile(r"[\w./-]+\.(?:py|cc|cpp|cu|c|h|hpp)\b")
# a run of digits in an example that is long enough not to be part of the fixed text
VARIABLE_NUMBER = re.compile(r"(?<![\w.])\d{2,}(?![\w])")


def _code_source_rules() -> list[LoadedRule]:
    return [
        lr for lr in load_rules()
        if lr.rule.evidence.kind == "source" and lr.path.parent.name in CODE_FAMILIES
    ]


def _ids(rules: list[LoadedRule]) -> list[str]:
    return [lr.rule.id for lr in rules]


RULES = _code_source_rules()


def test_there_are_source_rules_in_every_mined_family():
    families = {lr.path.parent.name for lr in RULES}
    assert {"transformers", "trl", "accelerate", "deepspeed", "c10d", "nccl"} <= families


@pytest.mark.parametrize("lr", RULES, ids=_ids(RULES))
def test_a_source_rule_names_its_version_and_source_file(lr: LoadedRule):
    ev = lr.rule.evidence
    assert ev.version and re.search(r"\d", ev.version), f"{lr.path}: evidence.version must name a release"
    assert SOURCE_FILE.search(ev.provenance), f"{lr.path}: evidence.provenance must name the source file read"


@pytest.mark.parametrize(
    "lr", [lr for lr in RULES if lr.rule.match.regex], ids=_ids([lr for lr in RULES if lr.rule.match.regex])
)
def test_a_source_rule_regex_does_not_spell_out_an_example_value(lr: LoadedRule):
    regex = lr.rule.match.regex or ""
    # digits inside a quantifier ({2}, {1,3}) are pattern syntax, not values
    literal_text = re.sub(r"\{\d+(?:,\d*)?\}", "", regex)
    spelled = {
        n for ex in lr.rule.examples for n in VARIABLE_NUMBER.findall(ex)
        if re.search(rf"(?<!\d){n}(?!\d)", literal_text)
    }
    assert not spelled, f"{lr.path}: regex spells out example value(s) {sorted(spelled)}; use \\d+"


def test_the_value_check_catches_a_spelled_out_number():
    regex = r"Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 1000"
    example = "NCCL WARN Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 1000"
    found = {n for n in VARIABLE_NUMBER.findall(example) if re.search(rf"(?<!\d){n}(?!\d)", regex)}
    assert found == {"1000"}
