"""The knowledge base: declarative failure signatures, validated and matched.

A rule is a YAML file (``rules/<family>/<id>.yaml``; a file may also hold a list
under ``rules:``). It says which events it matches (parser kinds, a regex on the
message, source / level / attr filters, an optional DuckDB SQL condition for
cross-rank facts), what role a match plays (``root`` cause, ``collateral``
echo, or ``context``), and what to tell the user: root cause, fix, a command
that verifies the fix, and where the knowledge comes from (``evidence``).

The schema is compatible with the seeds' encyclopedia entries (id, signature,
regex, domain, category, root_cause, workarounds, dead_ends, transition graph,
docs url); ``import_encyclopedia`` converts them.

Matching compiles every rule to one SQL predicate over the ``events`` view, so
rules run inside DuckDB over the whole timeline, never per line in Python.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from correlator.verdict import CATEGORIES, Category

if TYPE_CHECKING:  # imported where a rule is checked or run: ``rules list`` on a cached rulebook needs none
    import duckdb

Role = Literal["root", "collateral", "context"]
_ID = re.compile(r"^[a-z0-9][a-z0-9._/-]*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Evidence(_Strict):
    """Where a signature comes from; a rule says honestly how well it is known."""

    kind: Literal["observed", "source", "secondhand"] = Field(
        description="observed: seen in real logs; source: read in the software's source; "
        "secondhand: only reported by others (e.g. an encyclopedia), unverified"
    )
    provenance: str = Field(min_length=3, description="where: a file in docs/formats, an issue, a source file")
    version: str | None = Field(default=None, description="software version the text was seen or read in")


class Workaround(_Strict):
    action: str
    why: str | None = None


class DeadEnd(_Strict):
    action: str
    why_fails: str


class Match(_Strict):
    """Which events a rule matches: every given condition must hold."""

    kind: list[str] = Field(default_factory=list, description="parser kinds (events.kind), any of")
    regex: str | None = Field(default=None, description="RE2 regex searched in events.message")
    source: list[str] = Field(default_factory=list)
    level: list[str] = Field(default_factory=list)
    attrs: dict[str, str] = Field(default_factory=dict, description="attr equality, e.g. {xid: '79'}")
    sql: str | None = Field(
        default=None,
        description="extra DuckDB condition on the event row, alias e; may query the events view",
    )

    @model_validator(mode="after")
    def _not_empty(self) -> Match:
        if not (self.kind or self.regex or self.sql or self.attrs):
            raise ValueError("match needs at least one of kind, regex, attrs or sql")
        return self

    @field_validator("sql")
    @classmethod
    def _one_condition(cls, v: str | None) -> str | None:
        """A condition, not a statement: it is spliced into the rule scan's WHERE, so
        ``1=1; COPY ... TO ...`` would otherwise run a second statement."""
        if v is not None:
            import duckdb

            try:
                parsed = duckdb.extract_statements(f"SELECT 1 FROM events e WHERE ({v})")
            except duckdb.Error as exc:
                raise ValueError(f"sql does not parse as a DuckDB condition: {exc}") from exc
            if len(parsed) != 1 or parsed[0].type != duckdb.StatementType.SELECT:
                raise ValueError("sql must be one condition on the event row, not a statement")
        return v

    @field_validator("regex")
    @classmethod
    def _compiles(cls, v: str | None) -> str | None:
        if v is not None:
            import duckdb

            try:
                duckdb.sql("SELECT regexp_matches('', ?)", params=[v]).fetchall()
            except duckdb.Error as exc:
                raise ValueError(f"regex does not compile in DuckDB (RE2): {exc}") from exc
        return v


class Rule(_Strict):
    id: str
    title: str
    category: Category
    role: Role
    domain: str = "pytorch"
    signature: str = Field(description="the line as users see it")
    match: Match
    root_cause: str
    explanation: str | None = None
    fix: str
    verify: str = Field(description="a command that shows the fix worked")
    workarounds: list[Workaround] = Field(default_factory=list)
    dead_ends: list[DeadEnd] = Field(default_factory=list)
    leads_to: list[str] = Field(default_factory=list)
    preceded_by: list[str] = Field(default_factory=list)
    frequently_confused_with: list[str] = Field(default_factory=list)
    docs_url: str | None = None
    evidence: Evidence
    # Seen in healthy runs too: never a first deviating line by itself.
    benign: bool = False
    # Whom a match blames, when not the printing rank: a launcher line about a
    # child ("attr:failed_rank", "attr:failed_local_rank" on the same node; a pid,
    # "attr:child_pid" / "attr:victim_pid": the rank whose own lines carry it or
    # that a launcher line maps it to), a peer named in the message
    # ("attr:peer_rank"), a GPU by PCI address ("attr:pci": the rank whose NCCL
    # init line has that bus id on the same node), or a Slurm task list
    # ("attr:tasks": one finding per task, when the job's tasks are its ranks).
    # "node:<attr>" blames the machine the line names (a node the cluster lost), not
    # any rank: the finding's rank is none and its node that attr's value.
    blames: str = Field(default="rank", pattern=r"^(rank|attr:[a-z_]+|node:[a-z_]+)$")
    # job: the evidence is about the whole job (a scheduler cancelling it), so a
    # verdict it wins says "all ranks", not one rank or node.
    scope: Literal["rank", "job"] = "rank"
    # The rule names a class of results whose own text says the cause (NCCL's "unhandled
    # system error" and its "Last error:" line): where the general classifier places the
    # matched event by its message, that reading's category is the verdict's, the rule's
    # only where it places nothing.
    category_from_detail: bool = False
    weight: float = Field(default=1.0, ge=0.0, le=2.0, description="prior strength when scoring hypotheses")
    examples: list[str] = Field(min_length=1, description="real log text that must match")
    near_misses: list[str] = Field(default_factory=list, description="text that must not match")

    @field_validator("id")
    @classmethod
    def _id_shape(cls, v: str) -> str:
        if not _ID.match(v):
            raise ValueError("id: lowercase letters, digits, '.', '_', '-', '/' only")
        return v


@dataclass(frozen=True)
class LoadedRule:
    rule: Rule
    path: Path


# Pure functions of a rule's text (splitting its SQL, reading its regexes) answer the
# same every run. Their answers for the rulebook's own strings are computed once, when
# the rulebook is built, and kept with it in the disk cache (``load_rules``): a small
# job's run then computes only its own strings (the gate over its shapes), not 0.05 s
# of SQL tokenizing and regex parsing for 190 rules.
_MEMO: dict[tuple[str, str], Any] = {}
_MEMO_MAX = 50_000  # a long batch worker meets many jobs' strings: past this, no more are kept


def _memo(fn: Callable[[str], Any]) -> Callable[[str], Any]:
    name = fn.__name__

    @functools.wraps(fn)
    def memoized(arg: str) -> Any:
        key = (name, arg)
        try:
            value = _MEMO[key]
        except KeyError:
            value = fn(arg)
            if len(_MEMO) < _MEMO_MAX:
                _MEMO[key] = value
        return list(value) if isinstance(value, list) else value  # a copy: callers may change theirs

    return memoized


# The timeline's helpers live beside pyarrow and Polars (0.15 s to import): taken on
# first use, so that loading and listing the rules needs neither.
def sql_literal(s: str) -> str:
    from correlator.timeline.schema import sql_literal

    return sql_literal(s)


def shape_of(text: str) -> str:
    from correlator.timeline.shapes import shape_of

    return shape_of(text)


@_memo
def digit_invariant(regex: str) -> bool:
    from correlator.timeline.shapes import digit_invariant

    return digit_invariant(regex)


class RuleError(Exception):
    """A rule file that does not load; the message names the file."""


def builtin_dir() -> Path:
    return Path(str(resources.files("rules")))


def _docs_in(path: Path) -> list[dict[str, Any]]:
    # the C loader is several times faster than the pure-Python one
    data = yaml.load(path.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if data is None or (isinstance(data, dict) and "classifier" in data):
        return []  # empty, or the general classifier's entries (correlator.analysis.classifier)
    if isinstance(data, dict) and "rules" in data and isinstance(data["rules"], list):
        return data["rules"]
    if isinstance(data, dict):
        return [data]
    raise RuleError(f"{path}: expected a rule mapping or 'rules: [...]'")


def load_rules(dirs: Iterable[Path] = (), *, builtin: bool = True) -> list[LoadedRule]:
    """Load and validate every rule; duplicate ids and invalid files raise ``RuleError``.

    The result is cached on disk, keyed by the files' contents (``rulecache``).
    """
    from correlator.analysis import rulecache

    roots = ([builtin_dir()] if builtin else []) + [Path(d) for d in dirs]
    if not all(root.exists() for root in roots):
        return _load_rules(roots)  # its error names the missing one
    inputs = [f for root in roots for f in _rule_files(root)]
    rules, memo = rulecache.cached("rules", inputs, (__file__, _verdict_file()), lambda: _compiled(roots))
    _MEMO.update(memo)
    return rules


def _compiled(roots: list[Path]) -> tuple[list[LoadedRule], dict[tuple[str, str], Any]]:
    """The rules, and the memo of their own strings' analysis (what ``create_findings``
    asks of every rule, whatever the job)."""
    rules = _load_rules(roots)
    _MEMO.clear()  # only what these rules ask goes with them (a cache: the rest comes back when asked)
    cheap = [(lr, _candidate_filter(lr.rule)) for lr in rules]
    for lr, c in cheap:
        for d in _disjuncts(c) if c else ():
            for conj in _conjuncts(d):
                if m := _MESSAGE_REGEX.fullmatch(conj):
                    digit_invariant(m.group(1).replace("''", "'"))
        if _text_only(lr.rule):
            for alt in _alternatives(lr.rule.match.regex or ""):
                required_literal(alt) or digit_invariant(alt)
    by_text = [c for lr, c in cheap if c and _text_only(lr.rule)]
    if by_text:  # the second operand of create_findings's text gate
        _conjuncts(f"({' OR '.join(f'({c})' for c in by_text)})")
    return rules, dict(_MEMO)


def _verdict_file() -> str:
    import correlator.verdict

    return correlator.verdict.__file__


def _rule_files(root: Path) -> list[Path]:
    return [root] if root.is_file() else sorted([*root.rglob("*.yaml"), *root.rglob("*.yml")])


def _load_rules(roots: list[Path]) -> list[LoadedRule]:
    loaded: dict[str, LoadedRule] = {}
    errors: list[str] = []
    for root in roots:
        if not root.exists():
            errors.append(f"{root}: no such rule directory")
            continue
        files = _rule_files(root)
        for path in files:
            try:
                docs = _docs_in(path)
            except (yaml.YAMLError, RuleError) as exc:
                errors.append(f"{path}: {exc}")
                continue
            for i, doc in enumerate(docs):
                try:
                    rule = Rule.model_validate(doc)
                except ValidationError as exc:
                    where = f"{path}" + (f" (rule {i + 1})" if len(docs) > 1 else "")
                    errors.append(f"{where}: {exc}")
                    continue
                if rule.id in loaded and loaded[rule.id].path != path:
                    errors.append(f"{path}: rule id {rule.id!r} already defined in {loaded[rule.id].path}")
                    continue
                loaded[rule.id] = LoadedRule(rule, path)
    if errors:
        raise RuleError("\n".join(errors))
    ids = set(loaded)
    for lr in loaded.values():
        for ref in (*lr.rule.leads_to, *lr.rule.preceded_by, *lr.rule.frequently_confused_with):
            if ref not in ids:
                errors.append(f"{lr.path}: {lr.rule.id} refers to unknown rule {ref!r}")
    if errors:
        raise RuleError("\n".join(errors))
    return sorted(loaded.values(), key=lambda lr: lr.rule.id)


_META = set(".^$*+?{}[]()|\\")
_ESCAPED_LITERAL = set(".^$*+?{}[]()|\\/-'\" :=<>,#@!%&~`;_")


@_memo
def required_literal(regex: str) -> str | None:
    """The longest plain substring every match of ``regex`` must contain, if any.

    A cheap ``contains`` on it lets DuckDB skip the regex on almost every row.
    Conservative: gives up on alternation outside groups, case-insensitive flags
    and anything it does not understand.
    """
    if regex.startswith("(?") and not regex.startswith(("(?:", "(?P<", "(?<")):
        return None  # inline flags such as (?i) or (?s)
    depth, i, runs, cur = 0, 0, [], ""
    while i < len(regex):
        c = regex[i]
        if c == "\\" and i + 1 < len(regex):
            nxt = regex[i + 1]
            if depth == 0 and nxt in _ESCAPED_LITERAL:
                cur += nxt
                i += 2
                if i < len(regex) and regex[i] in "?*{":
                    cur = cur[:-1]
                    runs.append(cur)
                    cur = ""
                continue
            runs.append(cur)
            cur = ""
            i += 2
            continue
        if c == "|" and depth == 0:
            return None
        if c in "([":
            runs.append(cur)
            cur = ""
            if c == "[":  # skip a character class
                j = regex.find("]", i + 2)
                i = j + 1 if j > 0 else len(regex)
                continue
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif c in "?*{":
            cur = cur[:-1]  # the quantified character is optional
            runs.append(cur)
            cur = ""
        elif c in _META or depth > 0:
            runs.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    runs.append(cur)
    best = max(runs, key=len)
    return best if len(best) >= 4 else None


def predicate(rule: Rule, alias: str = "e") -> str:
    """The rule's match as one SQL boolean expression over an events row."""
    cheap, sql = _predicate_parts(rule, alias)
    return " AND ".join(p for p in (cheap, f"({sql})" if sql else "") if p)


def _predicate_parts(rule: Rule, alias: str = "e", regex: bool = True) -> tuple[str, str | None]:
    """(column filters, the rule's SQL condition): the second runs only on rows the first kept.

    ``regex=False``: the filters without the message regex (a superset, cheaper).
    """
    m = rule.match
    parts = []
    if m.kind:
        parts.append(f"{alias}.kind IN ({', '.join(sql_literal(k) for k in m.kind)})")
    if m.source:
        parts.append(f"{alias}.source IN ({', '.join(sql_literal(s) for s in m.source)})")
    if m.level:
        parts.append(f"{alias}.level IN ({', '.join(sql_literal(lv) for lv in m.level)})")
    for k, v in m.attrs.items():
        parts.append(f"{alias}.attrs[{sql_literal(k)}] = {sql_literal(v)}")
    if m.regex:
        lit = required_literal(m.regex)
        if lit:
            parts.append(_shape_contains(alias, lit))
        if regex:
            parts.append(f"regexp_matches({alias}.message, {sql_literal(m.regex)})")
    return " AND ".join(parts), m.sql


# NCCL init lines, read once: bus ids for blame_bus, the world size in deviation.sql
NCCL_INITS_SQL = """
CREATE OR REPLACE TEMP TABLE nccl_inits AS
SELECT node, rank, attrs['bus_id'] AS bus_id, TRY_CAST(attrs['nranks'] AS INTEGER) AS nranks FROM events
WHERE kind = 'nccl.comm_init';
"""
# The blame tables for a connection that already has ``nccl_inits`` (analyze builds
# it in the scan that aligns clocks).
BLAME_TABLES_GIVEN_INITS_SQL = """
CREATE OR REPLACE TEMP TABLE config_events AS
SELECT job, node, rank, kind, attrs FROM events
WHERE kind IN ('collect_env.report', 'nccl.version', 'nvidia_smi.table', 'nvidia_smi.query',
               'transformers.train_summary', 'deepspeed.config_value', 'accelerate.state');
CREATE OR REPLACE TEMP TABLE rank_nodes AS
SELECT DISTINCT job, rank, node FROM events WHERE rank IS NOT NULL;
CREATE OR REPLACE TEMP TABLE blame_local AS
SELECT DISTINCT local_rank, node, rank FROM events WHERE local_rank IS NOT NULL AND rank IS NOT NULL;
CREATE OR REPLACE TEMP TABLE blame_pid AS
SELECT DISTINCT pid, node, rank FROM events WHERE pid IS NOT NULL AND rank IS NOT NULL
UNION
-- launcher lines naming a child by pid, with the rank attribution learned for it
SELECT DISTINCT TRY_CAST(attrs['child_pid'] AS INTEGER), node, TRY_CAST(attrs['child_rank'] AS INTEGER)
FROM events WHERE kind IN ('torchrun.closing_signal', 'torchrun.worker_failed', 'torchrun.failure_entry',
                           'torchrun.forced_kill', 'deepspeed.launcher_spawn', 'deepspeed.killing_subprocess')
  AND attrs['child_rank'] IS NOT NULL;
-- a ChildFailedError table's entries: which global rank each child pid of an agent was
CREATE OR REPLACE TEMP TABLE blame_child AS
SELECT DISTINCT file, TRY_CAST(attrs['child_pid'] AS INTEGER) AS pid, TRY_CAST(attrs['failed_rank'] AS INTEGER) AS rank
FROM events WHERE kind = 'torchrun.failure_entry' AND attrs['child_pid'] IS NOT NULL AND attrs['failed_rank'] IS NOT NULL;
CREATE OR REPLACE TEMP TABLE blame_bus AS
SELECT DISTINCT ltrim(lower(bus_id), '0') AS bus, node, rank FROM nccl_inits WHERE rank IS NOT NULL;
-- Slurm task ids are global ranks when Slurm starts one task per rank: the job's
-- `srun -l` labelled lines then have a rank equal to their task id (ingest's own
-- assumption), and none names another rank or a torchrun local rank (with one
-- torchrun per task, a task is a node).
CREATE OR REPLACE TEMP TABLE tasks_are_ranks AS
SELECT count(*) > 0 AND bool_and(local_rank IS NULL AND rank IS NOT DISTINCT FROM task) AS yes
FROM events WHERE (rank IS NOT NULL OR local_rank IS NOT NULL) AND task IS NOT NULL;
-- "0-3" / "0,2,5-7" (srun's task lists) -> [0, 1, 2, 3] / [0, 2, 5, 6, 7]; NULL if malformed or huge
CREATE OR REPLACE TEMP MACRO task_ranges(s) AS list_transform(string_split(s, ','), lambda t: [
    TRY_CAST(split_part(t, '-', 1) AS INTEGER),
    coalesce(TRY_CAST(nullif(split_part(t, '-', 2), '') AS INTEGER), TRY_CAST(split_part(t, '-', 1) AS INTEGER))]);
CREATE OR REPLACE TEMP MACRO task_list(s) AS
    CASE WHEN list_bool_and(list_transform(task_ranges(s), lambda r: r[1] IS NOT NULL AND r[2] - r[1] BETWEEN 0 AND 65535))
         THEN flatten(list_transform(task_ranges(s),
                                     lambda r: list_transform(range(r[1], CAST(r[2] AS BIGINT) + 1), lambda x: CAST(x AS INTEGER))))
    END;
"""
BLAME_TABLES_SQL = NCCL_INITS_SQL + BLAME_TABLES_GIVEN_INITS_SQL
"""Small lookup tables (one row per process or report) that ``blamed_rank_sql``
and rules' SQL conditions use, so a rule never re-scans the whole timeline per
finding: ``config_events`` (environment and configuration reports), ``rank_nodes``,
``nccl_inits``, ``blame_*``. A rule's ``sql`` should query these, not ``events``."""


def blamed_rank_sql(rule: Rule, alias: str = "e") -> str:
    """SQL for the rank a match blames (see ``Rule.blames``); needs ``BLAME_TABLES_SQL``.

    ``attr:...tasks`` (a Slurm task list such as ``4-7``) blames several ranks: the
    expression is then an ``unnest`` that yields one row per rank (or one NULL).
    """
    if rule.blames == "rank":
        # (a traceback another rank relayed, torch.distributed.checkpoint's "(RANK 3)", is that rank's)
        return f"coalesce(TRY_CAST({alias}.attrs['relayed_rank'] AS INTEGER), {alias}.rank)"
    if rule.blames.startswith("node:"):
        return "NULL::INTEGER"
    key = rule.blames.split(":", 1)[1]
    val = f"{alias}.attrs[{sql_literal(key)}]"
    if key.endswith("tasks"):
        return (
            f"unnest(CASE WHEN (SELECT yes FROM tasks_are_ranks) AND len(task_list({val})) > 0 "
            f"THEN task_list({val}) ELSE [NULL::INTEGER] END)"
        )
    # a launcher console without a node of its own speaks for its node's ranks
    same_node = f"({alias}.node IS NULL OR x.node = {alias}.node)"
    if key.endswith("local_rank"):
        return (
            # the table's own rank, else the rank ingest learned for the child's pid
            # (attribute.sql's torchrun_children), else the agent's table entry for that pid,
            # else the rank whose own lines carry that pid (NCCL's "host:pid:tid ... rank 2"),
            # else a rank of that local rank on the node
            f"coalesce(TRY_CAST({alias}.attrs['failed_rank'] AS INTEGER), TRY_CAST({alias}.attrs['child_rank'] AS INTEGER), "
            f"(SELECT any_value(c.rank) FROM blame_child c WHERE c.file = {alias}.file "
            f"AND c.pid = TRY_CAST({alias}.attrs['child_pid'] AS INTEGER)), "
            f"(SELECT any_value(x.rank) FROM blame_pid x "
            f"WHERE x.pid = TRY_CAST({alias}.attrs['child_pid'] AS INTEGER) AND {same_node}), "
            f"(SELECT any_value(x.rank) FROM blame_local x "
            f"WHERE x.local_rank = TRY_CAST({val} AS INTEGER) AND {same_node}))"
        )
    if key.endswith("pid"):
        # a launcher line about a child process: the rank whose own lines carry that pid
        return f"(SELECT any_value(x.rank) FROM blame_pid x WHERE x.pid = TRY_CAST({val} AS INTEGER) AND {same_node})"
    if key == "pci":
        # NCCL prints busId as %lx of the PCI id with ':' and '.' removed
        # (docs/formats/nccl.md §1): Xid "0000:9b:00" (function 0 implied) -> "9b000"
        bus = (
            f"ltrim(replace(replace({val}, ':', ''), '.', '') "
            f"|| CASE WHEN contains({val}, '.') THEN '' ELSE '0' END, '0')"
        )
        return (
            f"(SELECT any_value(x.rank) FROM blame_bus x WHERE x.bus = lower({bus}) "
            f"AND x.node IS NOT DISTINCT FROM {alias}.node)"
        )
    return f"TRY_CAST({val} AS INTEGER)"


def blamed_node_sql(rule: Rule, alias: str = "e") -> str:
    """SQL for the node a match names: the one its line names where the rule blames a
    node (``node:<attr>``), else the node that printed it (or the host its text names)."""
    own = f"coalesce({alias}.node, {alias}.attrs['host'])"
    if rule.blames.startswith("node:"):
        return f"coalesce({alias}.attrs[{sql_literal(rule.blames.split(':', 1)[1])}], {own})"
    return own


def match_sql(rules: list[LoadedRule], source: str = "events") -> str:
    """One query returning a row per (rule, matching event) of ``source``.

    Each rule's column filters run first; its SQL condition (which may use
    subqueries) only on the rows they kept.
    """
    selects = []
    for lr in rules:
        r = lr.rule
        cheap, sql = _predicate_parts(r)
        rows = f"(SELECT * FROM {source} e WHERE {cheap or 'true'}) e"
        selects.append(
            f"SELECT {sql_literal(r.id)} AS rule_id, {sql_literal(r.role)} AS role, {sql_literal(r.category)} AS category, "
            f"{'true' if r.benign else 'false'} AS benign, "
            f"{blamed_rank_sql(r)} AS rank, e.rank AS printed_by, {blamed_node_sql(r)} AS node, e.local_rank, e.file, e.line_no, "
            "e.line_end, e.ts, e.ts_aligned, e.ts_estimated, e.level, "
            f"e.kind, e.template, e.message FROM {rows} WHERE {sql or 'true'}"
        )
    return "\nUNION ALL\n".join(selects) if selects else (
        "SELECT NULL::VARCHAR AS rule_id, NULL::VARCHAR AS role, NULL::VARCHAR AS category, "
        "false AS benign, NULL::INTEGER AS rank, NULL::INTEGER AS printed_by, NULL::VARCHAR AS node, "
        "NULL::INTEGER AS local_rank, NULL::VARCHAR AS file, NULL::BIGINT AS line_no, NULL::BIGINT AS line_end, "
        "NULL::TIMESTAMPTZ AS ts, NULL::TIMESTAMPTZ AS ts_aligned, NULL::BOOLEAN AS ts_estimated, "
        "NULL::VARCHAR AS level, NULL::VARCHAR AS kind, "
        "NULL::VARCHAR AS template, NULL::VARCHAR AS message WHERE false"
    )


def _candidate_filter(rule: Rule) -> str:
    """What a row must pass to be a candidate of ``rule``, evaluated in the one scan.

    The column filters and, unless it holds a subquery (run later on the few
    candidates only), the rule's SQL condition too: a rule on a common kind
    (every ``app.step_metrics`` line) must not turn millions of rows into candidates.
    """
    cheap, sql = _predicate_parts(rule)
    if sql and not re.search(r"\bselect\b", sql, re.IGNORECASE):
        sql = _SQL_MESSAGE_REGEX.sub(_with_literal, sql)
        return f"({cheap}) AND ({sql})" if cheap else f"({sql})"
    return cheap


# A message regex inside a rule's SQL condition: regexp_matches(e.message, '...')
_SQL_MESSAGE_REGEX = re.compile(r"regexp_matches\(\s*e\.message\s*,\s*'((?:[^']|'')*)'\s*\)")


def _with_literal(m: re.Match[str]) -> str:
    """``regexp_matches(e.message, r)`` behind a ``contains`` of r's required literal.

    The same truth value in any boolean context (r cannot match without the
    literal), and on most rows decided by the ``contains`` alone.
    """
    lit = required_literal(m.group(1).replace("''", "'"))
    return f"({_shape_contains('e', lit)} AND {m.group(0)})" if lit else m.group(0)


def _shape_contains(alias: str, literal: str) -> str:
    """A test every message containing ``literal`` passes, on the ``shape`` column.

    Shapes keep every character but digits (1-9 become 0), so a message holding
    the literal has a shape holding the literal's shape. ``shape`` is a
    dictionary column: the test runs once per distinct shape, not once per row,
    about 20x faster than on ``message``. Only a prefilter where the literal has
    digits; every caller pairs it with the exact regex.
    """
    return f"contains({alias}.shape, {sql_literal(shape_of(literal))})"


def _text_only(rule: Rule) -> bool:
    m = rule.match
    return bool(m.regex) and not (m.kind or m.source or m.level or m.attrs)


# Past this many shapes matched by the shape regexes, the regexes run on messages.
_MAX_GATE_SHAPES = 1000


def _create_candidates(
    con: duckdb.DuckDBPyConnection, ors: list[str], source: str, shapes: _JobShapes, rows: str | None = None
) -> None:
    """Table ``rule_candidates``: the rows of ``source`` where one of ``ors`` may hold.

    Reading ``message`` and ``attrs`` of every row is most of a scan's cost, and a
    job has far fewer distinct (kind, shape, level, source) than events. So where
    every alternative of ``ors`` implies a condition on those four columns alone,
    the conditions run on the distinct combinations (``job_shapes``), and the
    events are picked by the shapes that pass: one IN filter on a dictionary
    column, pushed into the scan. Where ``rows`` names the same rows with their
    position (``event_row``, see ``query.ROWS_VIEW``), the positions are found
    first and the rows fetched by them: DuckDB then skips the pages of
    ``message`` and ``attrs`` that hold no candidate, which a filter on ``shape``
    does not let it do (0.95 -> 0.5 s on the benchmark job). The candidates are a
    superset; each rule's own predicate runs on them afterwards. Otherwise, or
    when too many shapes pass, one scan tests ``ors`` on every row.
    """
    import duckdb

    try:
        cheap = [_cheap_part(d, shapes) for o in ors for d in _disjuncts(o)]
        passed = shapes.passing(" OR ".join(f"({c})" for c in cheap)) if cheap and all(cheap) else None
    except duckdb.Error:  # a condition this splitting misread: no shortcut, not a wrong one
        passed = None
    if passed is not None:
        test = " OR ".join(
            ([f"e.shape IN ({', '.join(sql_literal(p) for p in passed if p is not None)})"] if any(passed) else [])
            + (["e.shape IS NULL"] if None in passed else [])
        ) or "false"
        if rows is not None:
            con.execute(f"CREATE OR REPLACE TEMP TABLE rule_candidates AS SELECT * EXCLUDE (event_row) FROM {rows} "
                        f"WHERE event_row IN (SELECT event_row FROM {rows} e WHERE {test})")
        else:
            con.execute(f"CREATE OR REPLACE TEMP TABLE rule_candidates AS SELECT * FROM {source} e WHERE {test}")
        return
    where = " OR ".join(f"({o})" for o in ors) or "false"
    con.execute(f"CREATE OR REPLACE TEMP TABLE rule_candidates AS SELECT * FROM {source} e WHERE {where}")


# What makes a condition expensive: the big columns, or a subquery.
_COSTLY = re.compile(r"\be\.(?:message|attrs)\b|\bselect\b", re.IGNORECASE)
# The columns of job_shapes; a condition on others cannot run there.
_SHAPE_COLUMNS = ("kind", "shape", "level", "source")
_COLUMN_REF = re.compile(r"\be\.(\w+)")
_KIND_TEST = re.compile(r"e\.kind (?:IN \(((?:'(?:[^']|'')*'(?:, )?)+)\)|= ('(?:[^']|'')*'))")
_MESSAGE_REGEX = re.compile(r"regexp_matches\(e\.message, '((?:[^']|'')*)'\)")
# Kinds with more rows (and 1% of the job) filter little: a message regex next to them is
# worth trying on shapes.
_COMMON_KIND_ROWS = 1_000
# Past this many shapes passing, listing them costs more than scanning messages.
_MAX_CANDIDATE_SHAPES = 20_000


class _JobShapes:
    """The job's distinct (kind, shape, level, source) and rows per kind, read once
    when first asked for."""

    def __init__(self, con: duckdb.DuckDBPyConnection, source: str) -> None:
        self.con, self.source = con, source
        self._rows: dict[str | None, int] | None = None
        self._loaded = False

    def _load(self) -> None:
        if not self._loaded:
            self.con.execute(f"CREATE OR REPLACE TEMP TABLE job_shapes AS "
                             f"SELECT DISTINCT {', '.join(_SHAPE_COLUMNS)} FROM {self.source}")
            self._loaded = True

    def rows(self, kinds: list[str] | None) -> int:
        if self._rows is None:
            self._rows = dict(self.con.execute(f"SELECT kind, count(*) FROM {self.source} GROUP BY kind").fetchall())
        return sum(self._rows.values()) if kinds is None else sum(self._rows.get(k, 0) for k in kinds)

    def matching(self, regex: str, kinds: list[str] | None) -> list[str] | None:
        """The shapes (of rows of ``kinds``) ``regex`` matches; None if too many."""
        self._load()
        of_kinds = f"kind IN ({', '.join(sql_literal(k) for k in kinds)}) AND " if kinds else ""
        found = [r[0] for r in self.con.execute(
            f"SELECT DISTINCT shape FROM job_shapes WHERE {of_kinds}regexp_matches(shape, {sql_literal(regex)}) "
            f"LIMIT {_MAX_GATE_SHAPES + 1}").fetchall()]
        return found if len(found) <= _MAX_GATE_SHAPES else None

    def passing(self, condition: str) -> list[str | None] | None:
        """The shapes of the combinations where ``condition`` holds; None if too many."""
        self._load()
        found = [r[0] for r in self.con.execute(
            f"SELECT DISTINCT shape FROM job_shapes e WHERE {condition} LIMIT {_MAX_CANDIDATE_SHAPES + 1}"
        ).fetchall()]
        return found if len(found) <= _MAX_CANDIDATE_SHAPES else None


def _cheap_part(sql: str, shapes: _JobShapes | None = None) -> str | None:
    """The top-level AND operands of ``sql`` that read only kind, shape, level and
    source (their conjunction is implied by ``sql``), or None if there are none.

    Where those test only common kinds (or nothing) and ``sql`` requires a message
    regex that treats all digits alike, the shapes that regex matches are added:
    a message matches it exactly when its shape does.
    """
    conjuncts = _conjuncts(sql)
    keep = [c for c in conjuncts if not _COSTLY.search(c)
            and set(_COLUMN_REF.findall(_without_strings(c))) <= set(_SHAPE_COLUMNS)]
    if shapes is not None and not any("e.shape" in c for c in keep):
        kind = next((m for c in keep if (m := _KIND_TEST.fullmatch(c))), None)
        kinds = [k.replace("''", "'") for k in re.findall(r"'((?:[^']|'')*)'", kind.group(1) or kind.group(2))] \
            if kind else None
        if kinds is None or shapes.rows(kinds) > max(_COMMON_KIND_ROWS, shapes.rows(None) // 100):
            for c in conjuncts:
                m = _MESSAGE_REGEX.fullmatch(c)
                regex = m.group(1).replace("''", "'") if m else None
                if regex and digit_invariant(regex):
                    found = shapes.matching(regex, kinds)
                    if found is not None:
                        keep.append(f"e.shape IN ({', '.join(sql_literal(f) for f in found)})" if found else "false")
                        break
    return " AND ".join(f"({c})" for c in keep) or None


def _without_strings(sql: str) -> str:
    return re.sub(r"'(?:[^']|'')*'", "''", sql)


@_memo
def _disjuncts(sql: str) -> list[str]:
    """The operands of ``sql``'s top-level ORs, recursively (itself if none)."""
    parts = _split_top(_unwrap(sql), "OR")
    return [sql] if len(parts) == 1 else [d for p in parts for d in _disjuncts(p)]


@_memo
def _conjuncts(sql: str) -> list[str]:
    """The operands of ``sql``'s top-level ANDs, nested ones flattened."""
    parts = _split_top(_unwrap(sql), "AND")
    return [_unwrap(sql)] if len(parts) == 1 else [c for p in parts for c in _conjuncts(p)]


def _unwrap(sql: str) -> str:
    """``sql`` without parentheses around all of it."""
    sql = sql.strip()
    while sql.startswith("(") and _closing_paren(sql, 0) == len(sql) - 1:
        sql = sql[1:-1].strip()
    return sql


# SQL as tokens: a quoted string or name, a parenthesis, a word, any other character.
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|[()]|[A-Za-z_][A-Za-z0-9_]*|.", re.DOTALL)


def _top_level(sql: str) -> Iterator[tuple[re.Match[str], int, str]]:
    """Each token of ``sql`` with the nesting depth before it (parentheses and
    CASE ... END) and, for a word that is not a column name, its upper case."""
    depth, prev = 0, ""
    for m in _TOKEN.finditer(sql):
        tok = m.group(0)
        word = tok.upper() if (tok[0].isalpha() or tok[0] == "_") and prev != "." else ""
        yield m, depth, word
        depth += (tok == "(" or word == "CASE") - (tok == ")" or word == "END")
        if not tok.isspace():
            prev = tok


def _closing_paren(sql: str, start: int) -> int:
    for m, depth, _ in _top_level(sql[start:]):
        if m.group(0) == ")" and depth == 1:
            return start + m.start()
    return -1


def _split_top(sql: str, word: str) -> list[str]:
    """``sql`` split at ``word`` (AND / OR) outside parentheses, quotes and
    CASE ... END, and not at the AND of a BETWEEN."""
    # comments: not worth understanding, taken whole (outside string literals only: an
    # HF message quoting `--eval_steps` once sent every rule's candidates to a full scan)
    bare = _without_strings(sql)
    if "--" in bare or "/*" in bare:
        return [sql.strip()]
    parts, start, between = [], 0, False
    for m, depth, token in _top_level(sql):
        if depth != 0 or not token:
            continue
        if token == "BETWEEN":
            between = True
        elif token == word == "AND" and between:
            between = False
        elif token == word:
            parts.append(sql[start:m.start()].strip())
            start = m.end()
    return [*parts, sql[start:].strip()]


def _text_gate(shapes: _JobShapes, regexes: list[str]) -> str:
    """A test every row matching one of ``regexes`` passes, cheap on every row.

    Per alternative of each regex: its required literal, tested on shapes; else,
    if it treats all digits alike, its matches among the job's distinct shapes
    (the regex runs once per shape, not once per row);
    else the alternative itself on the message.
    """
    literals, on_shapes, on_messages = [], [], []
    for regex in regexes:
        for alt in _alternatives(regex):
            if lit := required_literal(alt):
                literals.append(_shape_contains("e", lit))
            elif digit_invariant(alt):
                on_shapes.append(alt)
            else:
                on_messages.append(alt)
    gates = literals
    if on_shapes:
        matched = shapes.matching("|".join(f"(?:{rx})" for rx in on_shapes), None)
        if matched is None:
            on_messages.extend(on_shapes)
        elif matched:  # as constants: an IN over a subquery inside this OR becomes a join per row
            gates.append(f"e.shape IN ({', '.join(sql_literal(m) for m in matched)})")
    if on_messages:
        gates.append(f"regexp_matches(e.message, {sql_literal('|'.join(f'(?:{rx})' for rx in on_messages))})")
    return " OR ".join(gates) or "false"


@_memo
def _alternatives(regex: str) -> list[str]:
    """The top-level alternatives of ``regex``; itself if it has none, or has inline
    flags (``(?i)`` applies to the alternatives after it too), or if a piece
    would not compile on its own."""
    if _INLINE_FLAGS.search(regex):
        return [regex]
    alts, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            if regex[i + 1:i + 2] == "^":
                i += 1
            if regex[i + 1:i + 2] == "]":  # a ']' first in a class is literal
                i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            alts.append(regex[start:i])
            start = i + 1
        i += 1
    alts.append(regex[start:])
    try:
        for alt in alts:
            re.compile(alt)
    except re.error:
        return [regex]
    return alts


_INLINE_FLAGS = re.compile(r"\(\?(?:[a-zA-Z]+(?:-[a-zA-Z]*)?|-[a-zA-Z]+)[):]")


def create_findings(
    con: duckdb.DuckDBPyConnection, rules: list[LoadedRule], source: str = "events", rows: str | None = None
) -> None:
    """Table ``findings``: every (rule, matching event) of ``source``.

    The rows any rule's filters may accept are picked first (``rule_candidates``,
    small: see ``_create_candidates``); the rules then run on those rows only.
    ``rows``: a relation of ``source``'s rows, in its column order, after an
    ``event_row`` column that locates each (optional; it makes picking cheaper).
    """
    cheap = [(lr, _candidate_filter(lr.rule)) for lr in rules]
    shapes = _JobShapes(con, source)
    scanned = [lr for lr, c in cheap if c]
    unfiltered = [lr for lr, c in cheap if not c]  # rules whose only test is a subquery
    # Rules that test only the message share one gate: a single regex pass (RE2
    # runs an alternation as one automaton) instead of one pass per rule.
    by_text = [c for lr, c in cheap if c and _text_only(lr.rule)]
    by_columns = [c for lr, c in cheap if c and not _text_only(lr.rule)]
    ors = list(by_columns)
    if by_text:
        gate = _text_gate(shapes, [lr.rule.match.regex or "" for lr, c in cheap if c and _text_only(lr.rule)])
        ors.append(f"({gate}) AND ({' OR '.join(f'({c})' for c in by_text)})")
    _create_candidates(con, ors, source, shapes, rows)
    if scanned:
        # Only rules with a candidate their filters may keep go into the findings
        # query: binding and planning a hundred selects cost more than running them.
        # (Without their regexes, which the findings query runs anyway.)
        kept = con.execute("SELECT " + ", ".join(
            f"coalesce(bool_or({_predicate_parts(lr.rule, regex=False)[0] or 'true'}), false)" for lr in scanned
        ) + " FROM rule_candidates e").fetchone()
        scanned = [lr for lr, keep in zip(scanned, kept, strict=True) if keep]
    parts = [match_sql(scanned, source="rule_candidates")] if scanned else []
    if unfiltered:
        parts.append(match_sql(unfiltered, source=source))
    con.execute("CREATE OR REPLACE TEMP TABLE findings AS " + ("\nUNION ALL\n".join(parts) or match_sql([])))


# --------------------------------------------------------------------------- import


_CATEGORY_ALIASES = {"hardware": "hardware_xid", "network": "nccl_network", "timeout": "nccl_timeout_hang"}


def import_encyclopedia(entries: list[dict[str, Any]], source_name: str) -> list[dict[str, Any]]:
    """Convert entries in the seeds' encyclopedia JSON shape into rule documents.

    Imported rules are ``secondhand`` evidence: their strings are claims. Their
    example is the entry's own signature, so ``rules test`` checks the regex
    against it, not against reality.
    """
    out = []
    for e in entries:
        category = e.get("category") or "other"
        category = _CATEGORY_ALIASES.get(category, category)
        if category not in CATEGORIES:
            category = "other"
        workarounds = [
            {"action": w.get("action") or w.get("how") or "", "why": None}
            for w in e.get("workarounds", []) if (w.get("action") or w.get("how"))
        ]
        graph = e.get("transition_graph") or {}
        rid = re.sub(r"[^a-z0-9._/-]+", "-", str(e["id"]).lower()).strip("-")
        doc = {
            "id": rid,
            "title": e.get("signature", rid)[:120],
            "category": category,
            "role": "root",
            "domain": e.get("domain") or "pytorch",
            "signature": e.get("signature", ""),
            "match": {"regex": e["regex"]} if e.get("regex") else {"regex": re.escape(e.get("signature", rid))},
            "root_cause": e.get("root_cause") or "(not given by the source)",
            "fix": workarounds[0]["action"] if workarounds else "(no fix given by the source)",
            "verify": "re-run with the fix and confirm the signature is gone: correlator analyze NEW_LOG_DIR",
            "workarounds": workarounds,
            "dead_ends": [
                {"action": d.get("action", ""), "why_fails": d.get("why_fails", "")}
                for d in e.get("dead_ends", []) if d.get("action")
            ],
            "leads_to": [], "preceded_by": [], "frequently_confused_with": [],
            "docs_url": e.get("official_doc_url"),
            "evidence": {
                "kind": "secondhand",
                "provenance": f"imported from {source_name}"
                + (f"; verification_tier={e['verification_tier']}" if e.get("verification_tier") else ""),
                "version": ", ".join(v.get("version", "") for v in e.get("versions", [])) or None,
            },
            "examples": [e.get("signature") or rid],
        }
        # graph references are kept only as text: the target rules may not exist here
        refs = {k: graph.get(k) or [] for k in ("leads_to", "preceded_by", "frequently_confused_with")}
        if any(refs.values()):
            doc["explanation"] = "encyclopedia transition graph: " + json.dumps(refs)
        out.append(doc)
    return out


# --------------------------------------------------------------------------- testing


@dataclass(frozen=True)
class ExampleResult:
    rule_id: str
    path: Path
    text: str
    expected: bool  # True: an example (must match); False: a near miss (must not)
    matched: bool

    @property
    def ok(self) -> bool:
        return self.matched == self.expected


def _example_events(con: duckdb.DuckDBPyConnection, text: str) -> None:
    """Run one example through the real parsing pipeline into a view ``events``."""
    from correlator.ingest import lines_as_events

    con.register("_example", lines_as_events(text.split("\n")))
    con.execute("CREATE OR REPLACE TEMP TABLE events AS SELECT * FROM _example")
    con.execute(BLAME_TABLES_SQL)
    con.unregister("_example")


def check_examples(rules: list[LoadedRule]) -> list[ExampleResult]:
    """Every example must match its rule and every near miss must not."""
    import duckdb

    con = duckdb.connect()
    results = []
    for lr in rules:
        for expected, texts in ((True, lr.rule.examples), (False, lr.rule.near_misses)):
            for text in texts:
                _example_events(con, text)
                n = con.sql(f"SELECT count(*) FROM events e WHERE {predicate(lr.rule)}").fetchall()[0][0]
                results.append(ExampleResult(lr.rule.id, lr.path, text, expected, n > 0))
    con.close()
    return results
