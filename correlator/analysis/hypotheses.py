"""Step 4: hypotheses, scored.

Each root finding per rank (or one for an error every rank printed alike), the
first unexplained error a rank did not survive, and the cross-rank inferences of
``inferences.sql`` (a rank that fell silent while its peers timed out waiting;
the rank whose store key the others waited on; the awaited rank's own earlier
error or early finish; the rank running a different collective, or a tie)
become hypotheses, scored on prior (rule weight / inference strength), timing,
causal edges and specificity.

Order of a failure that spreads: by training step first, then by aligned time.
The same root signature on every rank within seconds is one "all ranks alike"
hypothesis, unless one rank shows it at an earlier step than all the others
(a NaN all-reduced from one rank): then it started there.

What the awaited rank did first wins over the waits that name it: its own error
(category from the general classifier) or its early end; the wait hypotheses
naming it are weakened (``own_error_first``).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field

import duckdb

from correlator.analysis.classifier import Classification, classify_failure, facts_of
from correlator.analysis.evidence import cite, epoch, one, rows, sql_file
from correlator.analysis.flight_recorder import create_fr_inferences
from correlator.analysis.outcome import phase_of
from correlator.analysis.rulebook import LoadedRule
from correlator.timeline.kinds import LAUNCHER_SAW_A_FAILURE, sql_list
from correlator.verdict import Evidence, ranges

SIMULTANEOUS_S = 2.0  # stamps this close are "at the same time" (1 s stamps, tee lag)

TIME_DECAY_S = 120.0  # a hypothesis this much later than the earliest scores 1/e as much

ALL_RANKS_WINDOW_S = 10.0  # an "all ranks alike" failure happens on every rank within this

# inferences citing what the awaited rank did (its own error, its early end, the wrong setting it started with)
OWN_DEED = ("quiet_rank_own_error", "awaited_rank_finished", "launch_settings_disagree", "stopped_early_alone")

WAIT_CATEGORIES = ("nccl_timeout_hang", "rendezvous")  # a peer waited (a collective, a store key) and gave up

LEAD_WINDOW_S = 3600.0  # a cause precedes its echoes by at most about a (long) collective timeout



def create_inferences(con: duckdb.DuckDBPyConnection) -> None:
    """Tables of ``inferences.sql``: ``inferred``, ``known_ranks``, ``last_progress``, ..."""
    con.execute(sql_file("inferences.sql"))
    create_fr_inferences(con)  # Flight Recorder dumps compared across ranks


@dataclass
class Hyp:
    rule: LoadedRule | None
    category: str
    rank: int | None
    node: str | None
    ts: float | None  # epoch seconds, aligned
    evidence: Evidence | None
    base: float  # prior from role / kind of inference
    n_ranks_same: int = 1  # ranks where the same rule matched
    corroborated: bool = False  # node-level evidence whose rank another hypothesis named
    notes: list[str] = field(default_factory=list)
    score: float = 0.0
    inference: str | None = None  # the cross-rank inference that proposed it (inferences.sql)
    classification: Classification | None = None  # the general classifier's reading of a rule-less failure
    warned_at: dict | None = None  # the warning above it that gave its category (its own text gave none)
    reporters: int = 0  # other ranks whose lines name this rank (a rule that blames someone else)


def hypotheses(
    con: duckdb.DuckDBPyConnection, root_rows: list[dict], by_id: dict[str, LoadedRule],
    known_ranks: list[int], candidates: list[dict],
) -> list[Hyp]:
    hyps: dict[tuple, Hyp] = {}
    ranks_per_rule: dict[str, set] = defaultdict(set)
    ranked_nodes: dict[str, set] = defaultdict(set)
    for r in root_rows:
        if r["rank"] is not None:
            ranks_per_rule[r["rule_id"]].add(r["rank"])
            ranked_nodes[r["rule_id"]].add(r["node"])
    # A launcher's copy of a child's error (the torchrun table quotes the child's
    # traceback) adds nothing when the child's own line is there; nor does a copy that names
    # no node either (a console that gathers every machine's output: clush, a job system's log)
    root_rows = [
        r for r in root_rows
        if r["rank"] is not None or not (r["node"] in ranked_nodes[r["rule_id"]] or None in ranked_nodes[r["rule_id"]]
                                         or (r["node"] is None and ranked_nodes[r["rule_id"]]))
    ]
    for r in root_rows:
        if r["rank"] is None:
            ranks_per_rule[r["rule_id"]].add(("node", r["node"]))
    # reporters per blamed rank, for the rules whose line names someone else: several peers
    # naming the same rank (each rank's DDP check naming the one whose model differs) say more
    # than one
    reporters: dict[tuple, set] = defaultdict(set)
    for r in root_rows:
        if r["rank"] is not None and r.get("printed_by") is not None and r["printed_by"] != r["rank"]:
            reporters[(r["rule_id"], r["rank"])].add(r["printed_by"])
    for r in root_rows:
        lr = by_id[r["rule_id"]]
        key = (r["rule_id"], r["rank"], r["node"] if r["rank"] is None else None)
        if key in hyps:
            continue
        hyps[key] = Hyp(
            rule=lr, category=lr.rule.category, rank=r["rank"], node=r["node"],
            ts=epoch(r["ts_aligned"] or r.get("ts_bound")),
            evidence=cite(r), base=lr.rule.weight, n_ranks_same=len(ranks_per_rule[r["rule_id"]]),
        )
        if r["ts_aligned"] is None and r.get("ts_bound") is not None:
            hyps[key].notes.append("no wall-clock stamp: placed no later than the failure it caused")
        named_by = reporters.get((r["rule_id"], r["rank"]), set())
        hyps[key].reporters = len(named_by)
        if len(named_by) > 1:
            hyps[key].base *= 1 + 0.5 * (len(named_by) - 1)
            hyps[key].notes.append(f"named by {len(named_by)} ranks' reports ({ranges(sorted(named_by))})")
    # A rule's match in tracebacks that several unnamed processes interleaved in one console
    # is theirs alike (as same_error_everywhere reads an unexplained one)
    for h in hyps.values():
        if h.rank is None and h.rule.rule.scope != "job" and h.n_ranks_same < 2:
            _count_interleaved(con, h)
    # An all-ranks failure is one hypothesis, not one per rank: the same root
    # signature on every known rank, close together in (aligned) time.
    first_step = con.execute("SELECT min(first) FROM last_progress").fetchone()[0]
    for rule_id, ranks in ranks_per_rule.items():
        if len(known_ranks) < 2 or len(ranks) < len(known_ranks):
            continue
        group = [h for k, h in hyps.items() if k[0] == rule_id]
        if any(h.reporters for h in group):
            continue  # the ranks' lines name each other: whom they name is the question, not "all"
        times = [h.ts for h in group if h.ts is not None]
        if times and max(times) - min(times) > ALL_RANKS_WINDOW_S:
            continue  # the same failure at different times: per-rank hypotheses compete
        if _one_rank_a_step_earlier(con, group):
            continue  # it spread from that rank: per-rank hypotheses, ordered by step
        first = min(group, key=lambda h: (h.ts is None, h.ts or 0))
        for k in [k for k in hyps if k[0] == rule_id]:
            del hyps[k]
        first.rank = None
        first.notes.append(f"matched on all {len(ranks)} ranks within {ALL_RANKS_WINDOW_S:.0f} s")
        if first_step is not None and first.ts is not None and first.ts > first_step.timestamp():
            # after training started, a failure everywhere at once is more often an
            # echo (a NaN spread by all-reduce, a lost peer) than the cause
            first.base *= 0.6
            first.notes.append("after training had started")
        first.n_ranks_same = len(ranks)
        hyps[(rule_id, "all")] = first

    out = list(hyps.values())
    # A deviating error no rule explains is still a hypothesis (unclassified).
    # The first unexplained ERROR that its rank did not survive is a hypothesis too
    # (a WARNING is a symptom to show, not a cause; an error the rank kept training
    # after, like a retried read, did not stop the job).
    unexplained = [
        c for c in candidates
        if c["rule_role"] is None and c["level"] in ("ERROR", "CRITICAL") and not c["survived"]
    ]
    echoes = bool(one(con, "SELECT count(*) FROM findings WHERE role = 'collateral'", [])[0])
    if unexplained and echoes:
        # among echoes, a traceback the paste cut before its exception line names no failure of
        # its own (on a waiting rank it is as likely that wait's raise): the echoes decide
        unexplained = [c for c in unexplained if says_what_failed(con, c)]
    elif len(unexplained) > 1 and not says_what_failed(con, unexplained[0]):
        # one rank's traceback cut before its exception line, another rank's that says what
        # failed: the one that says it is the failure to name (the cut one is as likely the
        # same failure, or that rank's echo of it)
        unexplained = [c for c in unexplained if says_what_failed(con, c)] or unexplained
    if unexplained:
        d = with_message(con, unexplained[0])
        is_tb = "Traceback (most recent call last)" in d["message"]
        h = Hyp(rule=None, category="code_exception" if is_tb else "other", rank=d["rank"],
                node=d["node"], ts=epoch(d["ts_aligned"]), evidence=cite(d), base=0.6,
                notes=["deviating error that no rule explains"])
        same_error_everywhere(h, [c for c in unexplained if c["shape"] == unexplained[0]["shape"]], known_ranks,
                              echoes, con)
        out.append(h)
    out.extend(_inferred_hypotheses(con))
    own_error_first(out)
    _survived_by_their_rank(con, out)
    return out


def teardown_after_a_task_failed(con: duckdb.DuckDBPyConnection, hyps: list[Hyp]) -> list[Hyp]:
    """The hypotheses that are a signal with no reason of its own (a launcher's "Received 15
    death signal", a process's SIGTERM) printed after srun had reported a task's error exit
    in the same output: srun tearing the step down because that task failed
    (--kill-on-bad-exit, the step's end), an echo of the task's failure, not a stop from
    outside. A scheduler line that states its reason (a time limit, a preemption) is a
    job-scope rule and keeps its meaning."""
    found = []
    for h in hyps:
        if (h.category != "killed_by_scheduler" or h.evidence is None
                or (h.rule is not None and h.rule.rule.scope == "job")):
            continue
        failed = con.execute(
            """SELECT min(line_no) FROM events WHERE file = ? AND line_no < ? AND kind = 'slurm.task_exit'
               AND TRY_CAST(attrs['exitcode'] AS INTEGER) <> 0""",
            [h.evidence.file, h.evidence.line_no],
        ).fetchone()[0]
        if failed is not None:
            h.notes.append(f"srun had reported a task's error exit above it ({h.evidence.file}:{failed}): "
                           "the step torn down after that failure, not a stop from outside")
            found.append(h)
    return found


SURVIVED_S = 5.0  # trained on this long after its evidence: the rank went on (failure_evidence's margin)


def _survived_by_their_rank(con: duckdb.DuckDBPyConnection, hyps: list[Hyp]) -> None:
    """A rule's cause its own rank trained on after (torchrun restarted the worker group and
    the rank resumed in attempt_1, a retried step) did not end the run: it stays a
    hypothesis, a weak one, behind the failure the run did not survive."""
    if len(hyps) < 2:
        return
    last = dict(con.execute("SELECT rank, epoch(t) FROM last_progress WHERE rank IS NOT NULL AND t IS NOT NULL")
                .fetchall())
    for h in hyps:
        if h.rule is None or h.rank is None or h.ts is None or last.get(h.rank) is None:
            continue
        if last[h.rank] > h.ts + SURVIVED_S:
            h.base *= 0.2
            h.notes.append(f"rank {h.rank} trained on after it (its last step {last[h.rank] - h.ts:.0f} s later): "
                           "a failure it went on from, not the one that ended the run")


_EXCEPTION_LINE = re.compile(
    r"^(?:\s*\[[^\]]*\]:?)*\s*(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception):[^\n]*$", re.M)
_CHAINED = ("During handling of the above exception", "The above exception was the direct cause")
_INTERLEAVED_LINES = 500  # how far below the evidence interleaved copies are looked for


def _interleaved_copies(con: duckdb.DuckDBPyConnection, h: Hyp) -> int:
    """How many processes raised ``h``'s exception into its file, where their tracebacks
    interleaved (several workers writing one console at once: the fold cannot tell their
    frames apart, so one event holds two exception lines, or a header cut by the next
    one's): the number of exception lines, digits aside, equal to the first one at or after
    ``h``'s evidence among the file's unranked tracebacks within ``ALL_RANKS_WINDOW_S``.
    A chained traceback (one exception raised while handling another) is one process's."""
    ev = h.evidence
    if ev is None or 'File "' not in ev.text:
        return 0  # (no traceback: nothing to interleave)
    # the tracebacks that follow within a few hundred lines (unstamped, as a console's
    # tracebacks often are: the file's unstamped ones)
    found = con.execute(
        """SELECT message FROM events WHERE file = ? AND line_no BETWEEN ? AND ? + ?
           AND rank IS NULL AND level IN ('ERROR', 'CRITICAL') AND contains(message, 'File "')
           AND CASE WHEN ?::DOUBLE IS NULL THEN ts_aligned IS NULL
                    ELSE abs(epoch(ts_aligned) - ?) <= ? END ORDER BY line_no""",
        [ev.file, ev.line_no, ev.line_no, _INTERLEAVED_LINES, h.ts, h.ts, ALL_RANKS_WINDOW_S],
    ).fetchall()
    lines, glued = [], False
    for (message,) in found:
        if any(c in message for c in _CHAINED):
            continue
        own = [re.sub(r"\d+", "0", m.group(0).strip()) for m in _EXCEPTION_LINE.finditer(message)]
        glued = glued or len(own) >= 2
        lines += own
    # only where one traceback holds two exception lines: interleaved. One process that logs
    # its traceback and raises it again prints two whole ones, one after the other
    return lines.count(lines[0]) if lines and glued else 0


def _count_interleaved(con: duckdb.DuckDBPyConnection | None, h: Hyp) -> None:
    """``h`` raised by as many processes as its exception's interleaved copies, two at least:
    tracebacks that interleave were raised at the same moment, which a failure spreading from
    one process to the rest (as timeouts, lost peers) is not."""
    if con is not None and (n := _interleaved_copies(con, h)) >= 2 and n > h.n_ranks_same:
        h.n_ranks_same = n
        h.notes.append(f"the same exception raised {n} times in tracebacks interleaved in one file by "
                       "processes no prefix names: raised alike by each")


def same_error_everywhere(h: Hyp, same: list[dict], known_ranks: list[int], echoes: bool = False,
                          con: duckdb.DuckDBPyConnection | None = None) -> None:
    """An error no rule knows, raised alike on every known rank at once (each rank ran the
    same failing line: a file every rank loads, a call every rank makes), is one failure of
    all ranks, not the first printer's: the same shape (digits aside) on each rank, close
    together in time (``same``: the rows of that shape). A failure that spreads from one rank reaches its peers as other
    lines (timeouts, closed connections), which rules place, so it does not look alike.

    Unranked, the same traceback printed more than once into one file (a launcher's console
    that two workers share: each raised it, and no prefix says who) is alike on that many
    processes, at least as many as the ranks the logs know. Not a one-line error repeated (a
    CUDA kernel's assertion prints once per failing thread of one process), nor where other
    processes only waited or lost a peer (``echoes``): those passed where these failed."""
    if h.rank is None and h.evidence is not None:
        if echoes:
            # (tracebacks that interleave were raised at the same moment: no peer's echo)
            _count_interleaved(con, h)
            return
        copies = [c for c in same if c["rank"] is None and c.get("file") == h.evidence.file
                  and (c.get("line_end") or c.get("line_no") or 0) > (c.get("line_no") or 0)]
        times = [epoch(c["ts_aligned"]) for c in copies if c["ts_aligned"] is not None]
        if (len(copies) >= max(2, len(known_ranks)) and h.n_ranks_same < len(copies)
                and not (times and max(times) - min(times) > ALL_RANKS_WINDOW_S)):
            h.n_ranks_same = len(copies)
            h.notes.append(f"the same error printed {len(copies)} times into one file by processes no prefix "
                           "names: raised alike by each")
        else:
            _count_interleaved(con, h)
        return
    if len(known_ranks) < 2 or h.rank is None:
        return
    same = [c for c in same if c["rank"] is not None]
    ranks = {c["rank"] for c in same}
    if not set(known_ranks) <= ranks:
        if con is not None and (n := _every_rank_exited_on_its_own(con, known_ranks, h.rank)):
            h.rank = None
            h.n_ranks_same = n
            h.notes.append(f"the launcher's failure table lists all {n} ranks exiting with the same error code, "
                           "none by a signal, and no peer reported waiting: each failed on its own, alike")
        return
    times = [epoch(c["ts_aligned"]) for c in same if c["ts_aligned"] is not None]
    if times and max(times) - min(times) > ALL_RANKS_WINDOW_S:
        return
    h.rank = None
    h.n_ranks_same = len(ranks)
    h.notes.append(f"the same error on all {len(ranks)} ranks within {ALL_RANKS_WINDOW_S:.0f} s")


def _every_rank_exited_on_its_own(con: duckdb.DuckDBPyConnection, known_ranks: list[int], rank: int) -> int:
    """The number of ranks torchrun's failure table lists, where it lists every known rank
    (two or more) as exiting with one and the same positive code: each raised and exited by
    itself. A rank that only waited on a failed peer is killed by the launcher's SIGTERM
    (exit code -15) or reports the lost peer, which rules place as an echo; so where no rank
    but the erring one printed an echo, a failure seen in one rank's traceback (the others'
    output filtered or lost) is every rank's. 0 where this is not so."""
    table = con.execute(
        """SELECT DISTINCT TRY_CAST(attrs['failed_rank'] AS INTEGER), TRY_CAST(attrs['exitcode'] AS INTEGER)
           FROM events WHERE kind = 'torchrun.failure_entry'""").fetchall()
    failed = {r for r, _ in table if r is not None}
    codes = {c for _, c in table}
    if len(failed) < 2 or not set(known_ranks) <= failed or len(codes) != 1 or not (codes.pop() or 0) > 0:
        return 0
    peers_waited = one(con, """SELECT count(*) FROM findings f JOIN events e ON e.file = f.file AND e.line_no = f.line_no
                               WHERE f.role = 'collateral' AND e.rank IS NOT NULL AND e.rank <> ?""", [rank])[0]
    return 0 if peers_waited else len(failed)


def steps_at(con: duckdb.DuckDBPyConnection, group: list[Hyp]) -> list[int | None]:
    """The training step each hypothesis's rank was at when it showed the evidence: the
    evidence's own step, else the last step line above it in the same file, else (an
    uncaught exception its rank printed to a stream of its own, the launcher's stderr,
    with no step lines) its rank's last step: the error ended the rank there.
    One query for the whole group (a 1,024-rank job has 1,024 of them)."""
    keys = [(i, h.evidence.file, h.evidence.line_no, h.rank) for i, h in enumerate(group) if h.evidence is not None]
    if not keys:
        return [None] * len(group)
    found = dict(con.execute(
        """WITH k AS (SELECT unnest($i) AS i, unnest($f) AS file, unnest($l) AS line_no, unnest($r) AS rank),
                s AS (SELECT rank, file, line_no, TRY_CAST(attrs['step'] AS BIGINT) AS step FROM events
                      WHERE kind = 'app.step_metrics' AND rank IN (SELECT rank FROM k))
           SELECT k.i,
                  CASE WHEN count(*) FILTER (WHERE s.file = k.file) > 0
                       THEN max(s.step) FILTER (WHERE s.file = k.file AND s.line_no <= k.line_no)
                       ELSE max(s.step) END
           FROM k LEFT JOIN s ON s.rank = k.rank GROUP BY k.i""",
        {"i": [k[0] for k in keys], "f": [k[1] for k in keys], "l": [k[2] for k in keys],
         "r": [k[3] for k in keys]},
    ).fetchall())
    return [found.get(i) for i in range(len(group))]


def _one_rank_a_step_earlier(con: duckdb.DuckDBPyConnection, group: list[Hyp]) -> bool:
    """A failure that spreads (a NaN through all_reduce, a lost peer) reaches every
    rank within a second, so time cannot order it; the training step can: the one
    rank that shows it at an earlier step than every other is where it started.
    That hypothesis is strengthened and the others weakened (they are its echoes)."""
    steps = {id(h): st for h, st in zip(group, steps_at(con, group), strict=True)}
    if len(group) < 2 or any(s is None for s in steps.values()):
        return False
    first = min(steps.values())
    earliest = [h for h in group if steps[id(h)] == first]
    if len(earliest) != 1:
        return False
    lead = earliest[0]
    lead.base *= 1.5
    lead.notes.append(f"shows it at step {first}, before every other rank (they show it at a later step)")
    for h in group:
        if h is not lead:
            h.base *= 0.5
            h.notes.append(f"shows it at step {steps[id(h)]}, after rank {lead.rank} did at step {first}")
    return True


def _inferred_hypotheses(con: duckdb.DuckDBPyConnection) -> list[Hyp]:
    """Hypotheses from the cross-rank inferences in ``inferences.sql``.

    Inferences that name the same rank for the same reason (silent, odd one out,
    the key the store waited for) agree: one hypothesis, the strongest, with the
    others' notes, so that agreement raises the confidence instead of splitting it.
    An inference that cites the rank's own error (``quiet_rank_own_error``) has
    its category from the general classifier.
    """
    out: dict[tuple, Hyp] = {}
    for r in rows(con, "SELECT * FROM inferred ORDER BY base DESC, inference, rank"):
        category = r["category"]
        classification = None
        if category is None:
            text = r["message"] or ""
            classification = classify_failure(text, phase_of(con, r["ts_aligned"], r["file"], r["line_no"]))
            category = classification.category if classification else (
                "code_exception" if "Traceback (most recent call last)" in text else "other")
        evidence = cite(r) if r["file"] else None
        if evidence is not None and r["rank"] is None:  # an inference naming nobody cites a line some rank printed
            printed = con.execute("SELECT min(rank) FROM events WHERE file = ? AND line_no = ?",
                                  [r["file"], r["line_no"]]).fetchone()
            evidence.rank = printed[0] if printed else None
        h = Hyp(
            rule=None, category=category, rank=r["rank"], node=r["node"], ts=epoch(r["ts_aligned"]),
            evidence=evidence, base=r["base"],
            notes=[f"{r['inference']}: {r['note']}"], inference=r["inference"], classification=classification,
        )
        key = (r["rank"], category) if r["rank"] is not None else (r["inference"], len(out))
        if key in out:
            out[key].notes.append(f"agrees: {r['inference']}: {r['note']}")
            continue
        out[key] = h
    return list(out.values())


def own_error_first(hyps: list[Hyp]) -> None:
    """A rank the others waited for that printed an error of its own first, or said
    it had finished: the wait hypotheses naming it (a peer's monitored-barrier
    report, its silence) are echoes of that, not the cause."""
    own = {h.rank for h in hyps if h.inference in OWN_DEED and h.rank is not None}
    cited = {(h.evidence.file, h.evidence.line_no) for h in hyps if h.inference in OWN_DEED and h.evidence}
    # the same line proposed twice (an unexplained error that is also the awaited rank's own): one hypothesis
    hyps[:] = [h for h in hyps if h.inference is not None or h.rule is not None or h.evidence is None
               or (h.evidence.file, h.evidence.line_no) not in cited]
    for h in hyps:
        if h.rank in own and h.inference not in OWN_DEED and h.category in WAIT_CATEGORIES:
            h.base *= 0.4
            h.notes.append("what it did first (its own error, its early end, its setting) explains why the others waited")


def score(hyps: list[Hyp], by_id: dict[str, LoadedRule], collateral_rows: list[dict], n_ranks: int) -> None:
    """Score = prior (rule weight / inference strength) x timing x causal edges x specificity.

    Timing is measured against the failure: the echoes (collateral) mark when
    the job broke; a cause precedes them by at most about a collective timeout
    (``LEAD_WINDOW_S``). Inside that window the earliest hypothesis is preferred;
    evidence from long before (a warning hours earlier that training survived)
    fades, and so does evidence after the earliest.
    """
    echo_times = [epoch(r["ts_aligned"]) for r in collateral_rows if r["ts_aligned"] is not None]
    times = [h.ts for h in hyps if h.ts is not None]
    t_fail = min(echo_times) if echo_times else (max(times) if times else None)
    window = [t for t in times if t_fail is None or t >= t_fail - LEAD_WINDOW_S]
    t0 = min(window) if window else None
    collateral_rules = {r["rule_id"] for r in collateral_rows}
    for h in hyps:
        s = h.base
        if h.ts is None:
            s *= 0.5
        elif t_fail is not None and h.ts < t_fail - LEAD_WINDOW_S:
            s *= math.exp(-(t_fail - LEAD_WINDOW_S - h.ts) / LEAD_WINDOW_S) * 0.5
            h.notes.append("long before the failure")
        elif t0 is not None:
            late = max(0.0, h.ts - t0 - SIMULTANEOUS_S)
            s *= math.exp(-late / TIME_DECAY_S)
        if h.rule is not None:
            echoes = set(h.rule.rule.leads_to) & collateral_rules
            if echoes:
                s *= 1.25
                h.notes.append("its known consequences were seen: " + ", ".join(sorted(echoes)))
            if h.rank is not None and n_ranks >= 2 and h.n_ranks_same > 1:
                # the same failure on several ranks is less specific to this one
                s *= 1.0 / (1.0 + math.log(h.n_ranks_same))
        h.score = s
    _earlier_in_its_stream(hyps)


def _placed(h: Hyp) -> bool:
    """A hypothesis whose evidence says what failed: a rule's signature, or an error the
    classifier placed by its message or errno (not a wait, a lost peer, a bare type)."""
    if h.rule is not None:
        return h.rule.rule.role == "root"
    c = h.classification
    return c is not None and c.by_meaning


def _printed_before(a: Hyp, b: Hyp) -> bool:
    """``a``'s line came before ``b``'s: above it in one file; else by stamp, where an equal
    stamp that ``b`` only inherited (a traceback printed after the stamped line above it) is
    no earlier than ``a``'s own."""
    ea, eb = a.evidence, b.evidence
    assert ea is not None and eb is not None and a.ts is not None and b.ts is not None
    if ea.file == eb.file:
        return ea.line_no < eb.line_no
    return a.ts < b.ts or (a.ts == b.ts and eb.ts_estimated and not ea.ts_estimated)


def _earlier_in_its_stream(hyps: list[Hyp]) -> None:
    """Two causes on one rank, printed together: the one printed first is what happened
    first, the other most often its consequence (a thread limit hit, then the DataLoader's
    report of the worker that died of it). Where both say what failed, the later one yields."""
    by_rank: dict[int, list[Hyp]] = defaultdict(list)  # (a large job has many ranks, each a few causes)
    for h in hyps:
        if h.rank is not None and h.evidence is not None and h.inference is None and h.ts is not None and _placed(h):
            by_rank[h.rank].append(h)
    for placed in by_rank.values():
        for later in placed:
            assert later.evidence is not None and later.ts is not None
            first = [h for h in placed if h is not later and h.category != later.category
                     and abs(later.ts - h.ts) <= SIMULTANEOUS_S and _printed_before(h, later)]
            if first:
                later.score *= 0.6
                later.notes.append(f"rank {later.rank} printed another cause just before it "
                                   f"({first[0].evidence.file}:{first[0].evidence.line_no}): most often this "
                                   "is its consequence")


def why_not(h: Hyp, winner: Hyp) -> str:
    reasons = []
    if h.ts is not None and winner.ts is not None and h.ts - winner.ts > SIMULTANEOUS_S:
        reasons.append(f"{h.ts - winner.ts:.0f} s after the winner's evidence")
    if h.n_ranks_same > 1 and h.rank is not None:
        reasons.append(f"the same signature on {h.n_ranks_same} ranks")
    if h.rule is None:
        reasons.append("no rule explains it" if not h.notes else h.notes[0])
    if not reasons:
        reasons.append("weaker evidence (rule weight, role or timing)")
    return "; ".join(reasons)


def corroborate(top: Hyp, hyps: list[Hyp]) -> None:
    """A node-level winner (an Xid in dmesg) takes its rank from a ranked hypothesis
    of the same category on the same node within the time window (the rank whose
    own error names the same fault), when exactly one rank says so."""
    if top.rank is None and top.node is None:
        _same_fault_names_whom(top, hyps)
        return
    if top.rank is not None or top.node is None:
        return
    ranks = {
        h.rank for h in hyps[1:]
        if h.rank is not None and h.node == top.node and h.category == top.category
        and (h.ts is None or top.ts is None or abs(h.ts - top.ts) <= ALL_RANKS_WINDOW_S * 60)
    }
    if len(ranks) == 1:
        top.rank = ranks.pop()
        top.corroborated = True
        top.notes.append(f"rank {top.rank} on the same node reports the same fault")


def _same_fault_names_whom(top: Hyp, hyps: list[Hyp]) -> None:
    """A winner that names nobody (a cgroup's "oom-kill event" line) takes the node, and
    the rank, of the other reports of the same fault in the same window when they all name
    the same one (srun's "gpu20-15: task 0: Out Of Memory"): one conclusion, reached twice,
    once with a name. Not for a job-wide winner (a time limit, a check every rank ran)."""
    if top.rule is None or top.rule.rule.scope == "job" or top.n_ranks_same >= 2:
        return
    same = [
        h for h in hyps[1:]
        if h.category == top.category and h.rule is not None and h.inference is None
        and (h.node is not None or h.rank is not None)
        and (h.ts is None or top.ts is None or abs(h.ts - top.ts) <= ALL_RANKS_WINDOW_S * 60)
    ]
    nodes = {h.node for h in same if h.node is not None}
    ranks = {h.rank for h in same if h.rank is not None}
    if len(nodes) == 1 and all(h.node is not None for h in same):
        top.node = nodes.pop()
        top.notes.append(f"another report of the same fault names node {top.node}")
    if len(ranks) == 1 and all(h.rank is not None for h in same):
        top.rank = ranks.pop()
        top.corroborated = True
        top.notes.append(f"another report of the same fault names rank {top.rank}")


def is_launcher_pointer(con: duckdb.DuckDBPyConnection, top: Hyp) -> bool:
    """Whether the winner's own line is a launcher's record of a worker's failure (the
    evidence where nothing else is: mpirun's notice, its report of a rank's signal)."""
    if top.evidence is None:
        return False
    return bool(con.execute(
        f"SELECT count(*) FROM events WHERE file = ? AND line_no = ? AND kind IN "
        f"({sql_list(LAUNCHER_SAW_A_FAILURE)})", [top.evidence.file, top.evidence.line_no]).fetchone()[0])


def launcher_names_rank(con: duckdb.DuckDBPyConnection, top: Hyp) -> None:
    """An unattributed winner (a C++ abort printed without a rank prefix, a child's
    traceback the launcher logged for it) takes its rank from the launcher's first observed
    failure when exactly one rank is named (evidence, not verdict: used only when nothing
    better names the rank)."""
    if top.rank is not None or top.node is not None:
        return
    if top.rule is None and top.classification is None and not is_launcher_pointer(con, top):
        return
    ranks = [r for (r,) in con.execute(
        f"SELECT DISTINCT f.rank FROM findings f JOIN events e ON e.file = f.file AND e.line_no = f.line_no "
        f"WHERE f.kind IN ({sql_list(LAUNCHER_SAW_A_FAILURE)}) AND f.rank IS NOT NULL "
        # (not the ranks the launcher then stopped itself: a SIGTERM's death is its teardown's)
        "AND coalesce(e.attrs['signal_num'], '') NOT IN ('15', '1') "
        # mp.spawn's parent names the child (its spawn index, the rank the job passes on)
        # whose death it raises, whether or not a rule placed that death
        "UNION SELECT DISTINCT TRY_CAST(attrs['failed_rank'] AS INTEGER) FROM events "
        "WHERE kind = 'python.spawn_child_exited' AND attrs['failed_rank'] IS NOT NULL"
    ).fetchall()]
    if len(ranks) == 1:
        top.rank = ranks[0]
        top.notes.append(f"the launcher saw rank {top.rank} fail first")
        return
    local = _only_node_local_rank(con, top)
    if local is not None:
        top.rank = local
        top.notes.append(f"the launcher names local rank {local}; the logs show one node and no rank beyond "
                         f"its workers, so it is rank {local} (on a job of several nodes it would not be)")


_GROUP_RANK = re.compile(r"\[(?:(PG [^\]]*?) )?Rank (\d+)\]")


def group_rank_names_rank(con: duckdb.DuckDBPyConnection, top: Hyp) -> None:
    """An unattributed winner whose own line is c10d's report of the default process group
    (``[Rank 7] NCCL watchdog thread terminated ...``, ``[PG ID 0 ... Rank 7]``) takes that rank,
    where no line of the job names ranks otherwise: in the default group, the group's rank is
    the job's (an old release's group-less ``[Rank N]`` is taken as the default group's, and said
    so). Used only when nothing better names the rank."""
    if top.rank is not None or top.node is not None or top.evidence is None or top.inference is not None:
        return  # (an inference cites a line it reasons from, not its culprit's own)
    if top.rule is not None and top.rule.rule.blames != "rank":
        return  # (the line names someone else: the rule said whom)
    # (read from the text: the pattern that placed the line, a CUDA error's, need not keep it)
    m = _GROUP_RANK.search(top.evidence.text or "")
    if m is None:
        return
    pg, pg_rank = m.group(1) or "", int(m.group(2))
    if pg and not re.match(r"PG (?:ID )?0(?:\D|$)", pg):
        return
    if con.execute("SELECT count(*) FROM events WHERE rank IS NOT NULL").fetchone()[0]:
        return  # the job names its ranks: a line that does not is not read as one
    top.rank = pg_rank
    top.notes.append(f"its own line is rank {pg_rank}'s of the "
                     + ("default process group" if pg else "process group it names none of (taken as the default)"))


def stopped_rank_printed_it(con: duckdb.DuckDBPyConnection, top: Hyp, hyps: list[Hyp]) -> None:
    """An unattributed winner (glibc's abort line, a runtime's fatal line, printed with no
    rank into a console the ranks share) is the rank that fell silent while its peers
    reported echoes, where it stands in the same file after that rank's last line and
    before the first echo: printed as the rank stopped, before its peers noticed. Not for a
    job-wide winner."""
    if (top.rank is not None or top.node is not None or top.evidence is None
            or (top.rule is None and top.classification is None)
            or (top.rule is not None and top.rule.rule.scope == "job") or top.n_ranks_same >= 2):
        return
    odd = [h for h in hyps if h.inference == "odd_one_out" and h.rank is not None and h.evidence is not None]
    if len(odd) != 1:
        return
    last = odd[0].evidence
    assert last is not None
    if last.file != top.evidence.file or last.line_no >= top.evidence.line_no:
        return
    echoes_before = con.execute(
        "SELECT count(*) FROM findings WHERE role = 'collateral' AND file = ? AND line_no > ? AND line_no < ?",
        [last.file, last.line_no, top.evidence.line_no],
    ).fetchone()[0]
    if echoes_before:
        return
    top.rank = odd[0].rank
    top.notes.append(f"printed without a rank after rank {top.rank}'s last line and before its peers reported "
                     "losing it (it is the one rank whose peers did): printed as it stopped")


def _only_node_local_rank(con: duckdb.DuckDBPyConnection, top: Hyp) -> int | None:
    """The local rank a torchrun agent says failed, as the global rank, where the logs
    show one machine only: one node (or none named), and no rank, NCCL world size or
    stated world size beyond the agent's own workers (the children its lines name)."""
    if top.evidence is None:
        return None
    row = one(
        con,
        """WITH children AS (
               SELECT count(DISTINCT attrs['child_pid']) AS n FROM events
               WHERE kind IN ('torchrun.closing_signal', 'torchrun.worker_failed', 'torchrun.forced_kill')
                 AND file = $file AND attrs['child_pid'] IS NOT NULL)
           SELECT TRY_CAST(e.attrs['failed_local_rank'] AS INTEGER), (SELECT n FROM children),
                  (SELECT count(DISTINCT node) FROM events WHERE node IS NOT NULL),
                  (SELECT max(rank) FROM known_ranks),
                  (SELECT max(nranks) FROM nccl_inits)
           FROM events e WHERE e.file = $file AND e.line_no = $line AND e.kind = 'torchrun.worker_failed'""",
        {"file": top.evidence.file, "line": top.evidence.line_no},
    )
    if row is None or row[0] is None or not row[1]:
        return None
    local, n_children, n_nodes, max_rank, world = row
    if n_nodes > 1 or local >= n_children:
        return None
    if (max_rank is not None and max_rank >= n_children) or (world is not None and world > n_children):
        return None
    return int(local)



def says_what_failed(con: duckdb.DuckDBPyConnection, row: dict) -> bool:
    """The error names an exception, a signal or a message of its own (not a traceback cut
    before its exception line)."""
    text = with_message(con, row)["message"]
    if "Traceback (most recent call last)" not in text and 'File "' not in text:
        return True
    return bool(facts_of(text).exceptions)


def with_message(con: duckdb.DuckDBPyConnection, row: dict) -> dict:
    """A deviating line's row with its message, which ``deviating`` leaves out.

    Found again by file, lines, kind and shape: two events of one line (pieces of a
    progress-bar line) that also share those differ in digits at most."""
    if "message" in row:
        return row
    found = one(con, "SELECT message FROM events WHERE file = ? AND line_no = ? AND line_end = ? "
                      "AND kind IS NOT DISTINCT FROM ? AND shape = ? AND ts IS NOT DISTINCT FROM ? LIMIT 1",
                 [row["file"], row["line_no"], row["line_end"], row["kind"], row["shape"], row["ts"]])
    return {**row, "message": found[0] if found else row["template"]}

