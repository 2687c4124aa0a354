"""Step 5: the verdict.

The winning hypothesis, the initiating rank (or "all ranks alike"), the root
cause, the collateral groups, the first deviating line in the winner's story,
why the others lost, and the missing fact when the evidence is thin.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import pairwise

import duckdb

from correlator.analysis.classifier import Classification, Phase, classify_failure
from correlator.analysis.evidence import cite, epoch, one, rows
from correlator.analysis.first_odd import first_odd_line, odd_value_lines
from correlator.analysis.hypotheses import (
    OWN_DEED,
    SIMULTANEOUS_S,
    SURVIVED_S,
    WAIT_CATEGORIES,
    Hyp,
    corroborate,
    group_rank_names_rank,
    hypotheses,
    is_launcher_pointer,
    launcher_names_rank,
    same_error_everywhere,
    says_what_failed,
    score,
    steps_at,
    stopped_rank_printed_it,
    teardown_after_a_task_failed,
    why_not,
    with_message,
)
from correlator.analysis.outcome import phase_of
from correlator.analysis.rendezvous import late_node
from correlator.analysis.rulebook import LoadedRule
from correlator.analysis.stopped import (
    StoppedShort,
    ends_in_cadence,
    finished_loop,
    mid_loop,
    signal_trace,
    stopped_short,
)
from correlator.timeline.kinds import LAUNCHER_SAW_A_FAILURE, METRIC_RECORDS, sql_list
from correlator.verdict import (
    ClockOffset,
    Collateral,
    Evidence,
    FirstDeviating,
    Hypothesis,
    Initiating,
    RootCause,
    Verdict,
    ranges,
)

SUSPECT_CONFIDENCE = 0.5  # a rank named from the absence of its report, not from a line of its own
CONTEXT_EVENTS = 100  # events kept before the first deviating line in the JSON
MIN_CONFIDENCE = 0.35  # below this the verdict is "inconclusive"



# categories of a machine's resources and set-up, which all of its ranks share (not a GPU's
# fault, nor one process's memory)
NODE_SHARED_CATEGORIES = ("storage_io", "config_error", "version_mismatch")
# torchrun's --log-dir tree: the restart attempt a file belongs to
_ATTEMPT_OF_FILE = r"TRY_CAST(regexp_extract(file, '(?:^|/)attempt_(\d+)/', 1) AS INTEGER)"
_ATTEMPT = re.compile(r"(?:^|/)attempt_(\d+)/")


def _attempt_of(file: str) -> int | None:
    m = _ATTEMPT.search(file)
    return int(m.group(1)) if m else None


def decide(
    con: duckdb.DuckDBPyConnection, rules: list[LoadedRule], baseline: str | None
) -> Verdict:
    """The verdict from the tables the earlier steps made on ``con``."""
    by_id = {lr.rule.id: lr for lr in rules}

    job, n_events = con.execute("SELECT any_value(job), count(*) FROM timeline_raw").fetchone()
    # the files view counts each file's events already (a distinct over every row is not free)
    n_files = con.execute("SELECT count(*) FROM files WHERE events > 0").fetchone()[0]
    if not n_files and n_events:  # a timeline that came without its files table
        n_files = con.execute("SELECT count(DISTINCT file) FROM timeline_raw").fetchone()[0]
    known_ranks = sorted(r for (r,) in con.execute("SELECT rank FROM known_ranks").fetchall())
    # the job's size as the story tells it: a rank only a launcher names (a child it
    # spawned or killed) counts too, so the header never says fewer ranks than the findings
    world = set(known_ranks) | {r for (r,) in con.execute(
        "SELECT rank FROM findings WHERE rank IS NOT NULL UNION SELECT rank FROM blame_pid WHERE rank IS NOT NULL"
    ).fetchall()}
    nodes = sorted(n for (n,) in con.execute("SELECT DISTINCT node FROM events WHERE node IS NOT NULL").fetchall())
    clock = [
        ClockOffset(node=r["node"], offset_s=round(r["offset_s"], 3), keys=r["keys"],
                    spread_s=round(r["spread_s"], 3), applied=bool(r["applied"]))
        for r in rows(con, "SELECT * FROM clock_offsets ORDER BY node")
    ]
    ref = con.execute("SELECT node FROM reference_node").fetchone()
    verdict = Verdict(
        job=job or "job", ranks=len(world), nodes=len(nodes), files=n_files, events=n_events,
        status="healthy", clock=clock, reference_node=ref[0] if ref else None, baseline=baseline,
    )

    jobs = separate_jobs(con)
    if jobs:
        verdict.status = "inconclusive"
        verdict.status_reason = (
            f"this directory holds {len(jobs)} separate jobs ({', '.join(jobs[:5])}{', ...' if len(jobs) > 5 else ''}): "
            "their logs do not overlap in time and each has its own rank 0"
        )
        verdict.missing.append("analyse one job directory at a time, or all of them with `correlator batch "
                               "DIR --out REPORTS/` (a summary and a report per job)")
        return verdict

    root_rows = rows(
        con,
        """SELECT f.*, d.n_ranks FROM findings f
           LEFT JOIN template_spread d ON d.template = f.template
           WHERE f.role = 'root'
             -- a cause its own stream said it completed after (a caught and logged error, a
             -- retried write) ended nothing
             AND NOT EXISTS (SELECT 1 FROM stream_completion c
                             WHERE c.file = f.file AND c.rank IS NOT DISTINCT FROM f.printed_by
                               AND c.last_line > coalesce(f.line_end, f.line_no))
             -- nor a cause that is only a warning, where the rank it blames trained on after it
             -- (a stall Horovod reported, then the stalled rank's first step)
             AND NOT EXISTS (SELECT 1 FROM events w
                             JOIN stream_progress s ON s.file = w.file AND s.rank IS NOT DISTINCT FROM f.rank
                             WHERE w.file = f.file AND w.line_no = f.line_no AND w.level = 'WARNING'
                               AND s.last_line > coalesce(f.line_end, f.line_no))
           ORDER BY coalesce(f.ts_aligned, f.ts_bound) NULLS LAST, f.file, f.line_no""",
    )
    # (within a second, a line the rules call the consequence of another finding of the same
    # process comes after that finding, as in deviation.sql's candidates: the watchdog's timeout
    # report before c10d's "Some NCCL operations have failed", whichever was printed first)
    collateral_rows = rows(
        con, "SELECT * FROM findings f WHERE role = 'collateral' AND NOT EXISTS (SELECT 1 FROM survived_findings s "
             "WHERE s.file = f.file AND s.line_no = f.line_no) "
             "ORDER BY date_trunc('second', ts_aligned) NULLS LAST, "
             "EXISTS (SELECT 1 FROM findings c JOIN rule_edges g ON g.cause = c.rule_id "
             "        WHERE g.effect = f.rule_id AND c.file = f.file AND c.line_no <> f.line_no "
             "          AND c.printed_by IS NOT DISTINCT FROM f.printed_by "
             "          AND date_trunc('second', c.ts_aligned) IS NOT DISTINCT FROM date_trunc('second', f.ts_aligned)), "
             "ts_aligned NULLS LAST, file, line_no"
    )
    candidates = rows(con, "SELECT * FROM first_deviating_candidates ORDER BY sort_key LIMIT 5000")
    first_dev = candidates[:1]

    hyps = hypotheses(con, root_rows, by_id, known_ranks, candidates)
    recovered_by = con.execute("SELECT epoch(t) FROM job_recovered_by").fetchone()[0]
    if recovered_by is not None:
        # the job completed after them (a restart's next attempt): causes of nothing
        hyps = [h for h in hyps if h.ts is None or h.ts >= recovered_by]
    recovered_attempt = con.execute("SELECT attempt FROM job_recovered_attempt").fetchone()[0]
    if recovered_attempt is not None:
        # (the same where only the attempt's directory says when: unstamped stderr files)
        hyps = [h for h in hyps if h.evidence is None or _attempt_of(h.evidence.file) is None
                or _attempt_of(h.evidence.file) >= recovered_attempt]
    # a signal srun sent because a task had already failed is that failure's echo: the
    # task's own error (a rule's, or the failure evidence below) is what to name
    teardown = teardown_after_a_task_failed(con, hyps)
    hyps = [h for h in hyps if not any(h is t for t in teardown)]
    # an error line before a runtime's warning line: NCCL's WARN is the failure only where
    # nothing reported one as an error (a paste of NCCL's lines alone)
    # (not one the job completed after all: an elastic restart's next attempt finished on every rank)
    failures = rows(con, "SELECT * FROM failure_evidence WHERE NOT coalesce(coalesce(ts_aligned, ts) < "
                         "(SELECT t FROM job_recovered_by), false) AND NOT coalesce(" + _ATTEMPT_OF_FILE + " < "
                         "(SELECT attempt FROM job_recovered_attempt), false) ORDER BY coalesce(level = 'WARNING', "
                         "false), coalesce(ts_aligned, ts) NULLS LAST, file, line_no LIMIT 1")
    if failures and failures[0]["level"] != "WARNING" and not says_what_failed(con, failures[0]):
        # ... unless the error does not say what failed (a traceback the paste cut before its
        # exception line) and the runtime's WARN above it in the same file does
        warn = rows(con, "SELECT * FROM failure_evidence WHERE level = 'WARNING' AND file = ? AND line_no < ? "
                         "ORDER BY line_no LIMIT 1", [failures[0]["file"], failures[0]["line_no"]])
        failures = warn or failures
    # echoes a worker printed (a launcher's SIGTERM to every child echoes nothing of the failure)
    worker_echoes = [r for r in collateral_rows if r["printed_by"] is not None]
    # an unplaced error below an echo of its own stream is that echo's own end (the raise
    # that follows a watchdog's timeout report, the traceback of a lost connection): a
    # cause comes before the waits it causes
    if failures and any(r["file"] == failures[0]["file"] and r["printed_by"] == failures[0]["rank"]
                        and r["line_no"] < failures[0]["line_no"] for r in collateral_rows):
        failures = []
    if failures and collateral_rows and failures[0]["kind"] in LAUNCHER_SAW_A_FAILURE:
        # a launcher's record that a worker failed is the evidence only where nothing else is:
        # beside the ranks' own echoes (their timeouts, its table's signal deaths), those say more
        failures = []
    if failures and not worker_echoes and not any(h.rule is not None or h.inference is None for h in hyps):
        # an error the run did not survive, that no rule and no deviation placed
        # (one pasted traceback, every rank failing alike out of view); with echoes
        # about (peers timing out), the cross-rank inferences decide instead: an
        # unplaced error among them is as likely an echo's own log line
        h = failure_hypothesis(con, failures[0])
        same_error_everywhere(h, rows(con, "SELECT rank, ts_aligned, file, line_no, line_end FROM failure_evidence "
                                      "WHERE shape = ?",
                                      [failures[0]["shape"]]), known_ranks, bool(collateral_rows), con)
        hyps.append(h)
    elif worker_echoes and not any(h.rule is not None or h.inference is None for h in hyps):
        own = _own_error_before_the_echoes(con, worker_echoes)
        if own is not None:
            hyps.append(own)
    for h in hyps:
        if h.rule is None and h.inference is None and h.evidence is not None and h.classification is None:
            if is_launcher_pointer(con, h):
                h.category = "other"  # its words are the launcher's, not the cause's
            else:
                _classify(con, h)
        elif h.rule is not None and h.rule.rule.category_from_detail and h.evidence is not None:
            _refine_by_detail(con, h)

    if not hyps:
        hyps = teardown  # nothing else was found: the signal is all there is to say
    # Failed = a cause or an echo was found; errors every rank survived are not a failure.
    failing = bool(hyps or collateral_rows)
    if not failing:
        verdict.collateral = _collateral(con, collateral_rows, by_id, None)
        if first_dev:
            verdict.first_deviating = _first_deviating(con, first_dev[0])
        _healthy_or_not(con, verdict)
        return verdict

    score(hyps, by_id, collateral_rows, len(known_ranks))
    hyps.sort(key=lambda h: -h.score)
    total = sum(h.score for h in hyps) or 1.0
    began = _nan_began_earlier(con, hyps[0], hyps) if hyps else None
    if began is not None:  # listed first too: the verdict's hypotheses read in the order it decided
        hyps.remove(began)
        hyps.insert(0, began)
    verdict.hypotheses = [
        Hypothesis(
            rule_id=h.rule.rule.id if h.rule else None, category=h.category, rank=h.rank, node=h.node,
            score=round(h.score / total, 3), evidence=h.evidence,
            why_not=None if i == 0 else why_not(h, hyps[0]),
        )
        for i, h in enumerate(hyps[:10])
    ]
    verdict.missing = _missing(con, known_ranks, hyps, collateral_rows)
    if not hyps:
        verdict.status = "failed" if collateral_rows else "inconclusive"  # echoes prove a failure, not whose
        verdict.collateral = _collateral(con, collateral_rows, by_id, None)
        if first_dev:
            verdict.first_deviating = _first_deviating(con, first_dev[0])
        elif collateral_rows:
            # nothing but echoes: the first of them is where the logs first leave the normal
            verdict.first_deviating = _first_deviating(con, {
                **collateral_rows[0], "subject_rank": None,
                "why": "the earliest echo: no line of the rank that caused it was found"})
        _echoes_only(verdict, collateral_rows)
        return verdict
    top = hyps[0]
    corroborate(top, hyps)
    # hypotheses naming the same rank for the same category are one conclusion reached
    # twice (its loss line and its exception): they add up, they do not compete. After
    # corroboration: a node-level winner (an Xid whose GPU no NCCL line ties to one rank)
    # that a rank's own error named agrees with it, and with the node's other reports of
    # the fault, as it does where the bus named the rank directly
    confidence = sum(h.score for h in hyps if h is top or _agrees(h, top)) / total
    if began is not None:
        # the other ranks' non-finite losses and guards are that divergence spread: one story
        confidence = sum(h.score for h in hyps if h.category == top.category) / total
    all_ranks = top.rank is None and (
        top.n_ranks_same >= max(2, len(known_ranks)) if top.rule is None
        else top.n_ranks_same >= max(2, len(known_ranks)) or top.rule.rule.scope == "job"
    ) and top.inference is None
    external = top.category == "killed_by_scheduler" or bool(
        top.classification and top.classification.entry.external
    )
    waited = (top.rank is None and top.n_ranks_same < 2 and not external
              and _waited_for_it(top, collateral_rows, known_ranks))
    if waited and (all_ranks or top.category in ("config_error", "version_mismatch")):
        # a set-up failure printed once, while every other known rank only waited (timed out,
        # lost a peer): they passed the step it failed, so it was one process's
        all_ranks = False
        top.notes.append("the other ranks only waited for it: they passed the step it failed")
    # (a setting one process alone stated is that process's, by the inference's own reading)
    if (not all_ranks and not external and not waited and top.inference != "launch_settings_disagree"
            and _deterministic_everywhere(con, top, hyps)):
        all_ranks = True
        top.notes.append("a deterministic check raised before training: every rank runs it alike")
    all_ranks = all_ranks and not external  # stopped from outside: no rank to blame, nor a failure of every rank
    if (all_ranks and top.rank is None and top.rule is not None and top.rule.rule.scope == "job"
            and top.n_ranks_same < 2 and len(nodes) >= 2 and top.evidence is not None):
        # a failure any node would meet alike, met by one node only while the other machines' logs
        # show none: that machine's copy of the launch (its command line, its port, its set-up)
        node = _one_node_only(con, top)
        if node is not None:
            all_ranks = False
            top.node = node
            top.notes.append(f"only node {node} raises it; the other nodes' logs show no such error")
    named_elsewhere = top.rule is not None and top.rule.rule.blames.startswith("node:")  # (not the printer's)
    if (not all_ranks and not external and top.rank is None and top.node is not None and len(nodes) <= 1
            and top.category in NODE_SHARED_CATEGORIES and not named_elsewhere):
        # a machine's disk, /dev/shm, limits or set-up in a job that ran on that machine alone:
        # every rank shares it (in a job of several machines it is that node's)
        all_ranks = True
        top.notes.append(f"node {top.node} is the job's only machine: what it lacks, every rank lacks")
    if (not all_ranks and not external and top.rank is not None and len(nodes) >= 2 and top.n_ranks_same >= 2
            and top.category in NODE_SHARED_CATEGORIES and top.evidence is not None):
        # two or more ranks of one machine fail alike on what they share (its disk, its limits,
        # its set-up) and the other machines' ranks do not: that machine, not its first printer
        node = _one_node_only(con, top)
        if node is not None:
            top.rank, top.node = None, node
            top.notes.append(f"only node {node}'s ranks raise it; the other nodes' logs show no such error")
            confidence = sum(h.score for h in hyps if h is top or h.category == top.category) / total
    if all_ranks:
        # the same failure on every rank: its reports on the other ranks are that conclusion
        # again, not rivals (four ranks' "Duplicate GPU" scored a quarter each and read
        # inconclusive)
        confidence = sum(h.score for h in hyps if h is top or h.category == top.category) / total
    odd_lines: dict[int, dict] | None = None

    def odd_lines_once() -> dict[int, dict]:  # one scan of the job's set-up lines, asked for twice at most
        nonlocal odd_lines
        if odd_lines is None:
            odd_lines = odd_value_lines(con)
        return odd_lines

    renamed_by_odd_values = False
    if not (all_ranks or external):
        # a launcher's summary names a rank only where nothing concluded "all ranks" or "from outside"
        launcher_names_rank(con, top)
        stopped_rank_printed_it(con, top, hyps)
        group_rank_names_rank(con, top)
        renamed_by_odd_values = _odd_values_name_the_mismatched_rank(top, odd_lines_once)
        _the_only_process(con, top, known_ranks)
    witness_only = False
    late = None
    if (top.category == "rendezvous" and top.rank is None and top.rule is not None and not known_ranks
            and top.rule.rule.scope != "job"):  # a store that never started is no late node's
        # agents only, no worker started: the reports are witnesses of a node that did not join
        late = late_node(con, datetime.fromtimestamp(top.ts, UTC) if top.ts is not None else None)
        all_ranks, external, witness_only = False, late is not None, late is None
        served = _store_served_elsewhere(collateral_rows, by_id, top) if late is None else None
        if served is not None:
            # the store was up (its host waited there for clients) and this node alone could not
            # reach it: its own address, port or network, not a witness of a missing store
            witness_only = False
            top.notes.append(f"node {served}'s store was up, waiting for clients; node {top.node} did not reach it")
        if late is not None:
            top.node = late[0]
            top.notes.append(f"node {late[0]}'s first line ({late[1]:%H:%M:%S}) comes after another node's agent "
                             "had given up waiting: it started late")
    # "rank" only where the logs name the rank (or the node) that started it: a lone
    # pasted traceback names no process, and whether the job's other ranks failed alike,
    # or one of them first, is not in it. Its kind is "unknown"; the root cause and the
    # first deviating line still say what failed.
    # an error that no rule placed and whose meaning is a wait or a lost peer (a connect
    # that failed, a timeout) was printed by a witness: the culprit is whom it waited for
    if (not (all_ranks or external) and top.rule is None and top.inference is None
            and top.classification is not None and top.classification.entry.echo
            and (top.rank is not None or top.node is not None)):
        witness_only = True
        top.notes.append("the line is a wait or a lost peer: whoever printed it was waiting on another process")
    if top.reporters and any(h is not top and h.rule is top.rule and h.rank != top.rank
                             and h.score >= top.score - 1e-9 for h in hyps):
        # two ranks name each other alike (each one's check names the other as the odd one):
        # the lines cannot say which of them differs
        witness_only = True
        top.notes.append("the ranks' reports name each other alike: which one is odd is not in the logs")
    if top.inference == "missing_reporter":
        # absence alone: the rank is the suspect to look at first, not established (the
        # missing report may be a cut paste, or the rank may have printed it elsewhere):
        # named, at the confidence of a suspect
        confidence = min(confidence, SUSPECT_CONFIDENCE)
        top.notes.append("named from absence alone: the suspect to look at first, not an established culprit")
    kind = ("external" if external else "all_ranks" if all_ranks
            else "unknown" if witness_only
            else "rank" if top.rank is not None or top.node is not None else "unknown")
    nobody = all_ranks or external
    unnamed = nobody or witness_only  # the initiator is not named; the story still follows the line
    local_rank, gpu = (None, None) if unnamed else _device_of(con, top)
    verdict.initiating = Initiating(
        kind=kind, rank=None if unnamed else top.rank,
        node=late[0] if late is not None else None if unnamed else top.node,
        local_rank=local_rank, gpu=gpu, all_ranks=all_ranks, confidence=round(confidence, 3),
    )
    verdict.root_cause = _root_cause(top)
    _second_opinion(con, top, verdict.root_cause)
    # (whose failure it was may be uncertain; that it failed is not, where ranks' echoes say so)
    verdict.status = "failed" if confidence >= MIN_CONFIDENCE or collateral_rows else "inconclusive"
    verdict.status_reason = (
        f"failure evidence at {top.evidence.file}:{top.evidence.line_no}" if top.evidence is not None
        else "inferred from the other ranks' reports"
    )
    init_rank = None if nobody else top.rank
    # Echoes: collateral findings, and the winner's peers repeating a root signature
    # after it (every rank raising "Loss is NaN" once rank 1's loss went inf).
    echoes = collateral_rows + [
        r for r in root_rows
        if not nobody and r["rank"] is not None and r["rank"] != init_rank
        and (top.ts is None or r["ts_aligned"] is None or epoch(r["ts_aligned"]) >= top.ts - SIMULTANEOUS_S)
    ]
    verdict.collateral = _collateral(con, echoes, by_id, init_rank)
    chosen = _pick_first_deviating(candidates, top, init_rank, nobody)
    if top.inference is not None and top.evidence is not None and _cites_what_it_did(con, top) \
            and not (chosen is not None and _before(chosen, top.evidence)):
        # the inference cites the rank's own deed (its error, its early finish): that is its
        # deviation, unless the rank deviated earlier still (a warning before the error)
        verdict.first_deviating = _evidence_as_first_deviating(con, top, nobody)
    elif chosen is not None and top.evidence is not None and top.evidence.rank is None and init_rank is not None \
            and top.evidence.file == chosen["file"] and top.evidence.line_no < chosen["line_no"]:
        # the root cause's own line printed without a rank (a C++ abort on a shared stderr),
        # whose rank a launcher line below it gave: it comes first
        verdict.first_deviating = _evidence_as_first_deviating(con, top, nobody)
    elif chosen is not None:
        verdict.first_deviating = _first_deviating(con, chosen)
    elif (earlier := _earlier_error_in_its_file(con, top) if all_ranks else None) is not None:
        # the same failure on every rank, whose first error lines came before the one the
        # verdict cites (the workers' EMFILE before the main process's ancdata error)
        verdict.first_deviating = _first_deviating(con, {
            **earlier, "subject_rank": None, "why": "every rank failed alike: the first error line of that failure"})
    elif top.evidence is not None and (top.rule is not None or top.inference is None):
        # (a report that names another rank, Horovod's coordinator listing the rank it waits
        # for, is a line of its printer's)
        printer = (_printer_of(con, top.evidence) if top.rule is not None and top.rule.rule.blames != "rank"
                   else _EVIDENCE_RANK)
        verdict.first_deviating = _evidence_as_first_deviating(con, top, nobody, rank=printer)
    elif top.inference == "missing_reporter" and top.evidence is not None:
        # a suspect, not a culprit: the line it cites (its last, else the first report), as
        # the line of whoever printed it
        verdict.first_deviating = _evidence_as_first_deviating(con, top, nobody, rank=_printer_of(con, top.evidence))
    elif top.inference is not None and init_rank is not None:
        odd = _odd_collective_frame(con, top, init_rank) or first_odd_line(con, init_rank)
        if odd is not None:
            verdict.first_deviating = _first_deviating(con, odd)
    fd = verdict.first_deviating
    if init_rank is not None and fd is not None and (
            renamed_by_odd_values or (fd.rank is not None and fd.rank != init_rank)
            or _launchers_report_of_a_death(con, fd)
            or ((printer := _printer_of(con, fd)) is not None and printer != init_rank)):
        # what is cited is not the culprit's own (a peer's report of the mismatch or about it, an
        # echo, the launcher's report of its death: a process the kernel killed prints nothing): a
        # line the culprit printed with other values than every peer, before it, is where it
        # began to differ (its shard of 16000 rows where each peer's has 512). (Its own error
        # line stays its deviation: an INFO line is no warning.)
        odd = odd_lines_once().get(init_rank)
        # (in another file, a line with no stamp of its own is not known to come first)
        if odd is not None and (_before(odd, fd) or (odd["file"] != fd.file and (fd.ts is None or fd.ts_estimated))):
            verdict.first_deviating = _first_deviating(con, odd)
    if init_rank is not None and verdict.first_deviating is not None:
        own = _culprits_earlier_line_of_the_same_failure(top, hyps, init_rank, verdict.first_deviating)
        if own is not None:
            verdict.first_deviating = _first_deviating(con, own)
    warned = top.warned_at or _warned_alike_before(con, top)
    if warned is not None and (verdict.first_deviating is None or _before(warned, verdict.first_deviating)):
        # the warning that says what the failure was (the failure's own text did not) is where it began
        verdict.first_deviating = _first_deviating(con, {
            **warned, "subject_rank": None,
            "why": "the failure's own lines say nothing of its cause; this warning above it does"})
    _no_later_than_the_first_report(con, verdict, top, root_rows, init_rank)
    if init_rank is None and top.category == "killed_by_scheduler":
        _the_schedulers_own_word_first(con, verdict)
    fd = verdict.first_deviating
    if fd is not None and (top.category == "killed_by_scheduler" or _launchers_report_of_a_death(con, fd)
                           or _DEATH_BY_SIGNAL.search(fd.text)):
        _the_signal_senders_word_first(con, verdict)
    return verdict


# a scheduler's own record that it stopped the job (Slurm's `*** JOB N ON host CANCELLED AT ...`,
# with or without its reason; submitit's timeout and preemption notices)
SCHEDULER_STOPS = frozenset({"slurm.cancelled", "slurm.submitit_timeout", "slurm.submitit_preempted"})


def _the_schedulers_own_word_first(con: duckdb.DuckDBPyConnection, verdict: Verdict) -> None:
    """A stop from outside began where the scheduler said it stopped the job, not where a
    launcher said it received the signal: torchrun's "Received 15 death signal" and the
    workers' SIGTERMs follow the scheduler's cancel line (above them in the same output, or
    stamped no later than a second after), even where a rule about the signal won."""
    fd = verdict.first_deviating
    if fd is None:
        return
    said = rows(con, f"""SELECT * FROM events WHERE kind IN ({sql_list(SCHEDULER_STOPS)})
                         AND ((file = ? AND line_no < ?)
                              OR (file <> ? AND ts_aligned IS NOT NULL AND ?::TIMESTAMPTZ IS NOT NULL
                                  AND ts_aligned <= ?::TIMESTAMPTZ + INTERVAL 1 SECOND))
                         ORDER BY ts_aligned NULLS LAST, file, line_no LIMIT 1""",
                [fd.file, fd.line_no, fd.file, fd.ts, fd.ts])
    if said:
        verdict.first_deviating = _first_deviating(con, {
            **said[0], "subject_rank": None,
            "why": "the scheduler's own record that it stopped the job: the signals the launcher and "
                   "the workers report follow it"})


SIGNAL_SENT_BEFORE_S = 60  # how long before the first report of a death a sender's word may come
# a first deviating line that reports a death by signal (only there is a sender's word the beginning)
_DEATH_BY_SIGNAL = re.compile(r"SIGKILL|SIGTERM|signal (?:9|15)\b|exit ?code:? -(?:9|15)\b|death signal|\bKilled\b")


def _the_signal_senders_word_first(con: duckdb.DuckDBPyConnection, verdict: Verdict) -> None:
    """A process killed by a signal began dying where whatever sent it said so (a memory
    watchdog's "rss ... > limit, sending SIGKILL", a stale-job reaper's "sending SIGTERM"), not
    where the launcher reported the death or received the signal: that line, above the first
    deviating line in its file or stamped at most a minute before it (and no later than a second
    after), comes first. A stop from outside with no rank to blame is then that sender's
    machine's, where its line names one."""
    fd = verdict.first_deviating
    if fd is None:
        return
    said = rows(con, """SELECT * FROM events WHERE kind = 'process.signal_sent'
                        AND ((file = ? AND line_no < ?)
                             OR (ts_aligned IS NOT NULL AND ?::TIMESTAMPTZ IS NOT NULL
                                 AND ts_aligned <= ?::TIMESTAMPTZ + INTERVAL 1 SECOND
                                 AND ts_aligned >= ?::TIMESTAMPTZ - to_seconds(?)))
                        ORDER BY ts_aligned NULLS LAST, file, line_no LIMIT 1""",
                [fd.file, fd.line_no, fd.ts, fd.ts, fd.ts, SIGNAL_SENT_BEFORE_S])
    if not said or (said[0]["file"] == fd.file and said[0]["line_no"] == fd.line_no):
        return
    verdict.first_deviating = _first_deviating(con, {
        **said[0], "subject_rank": None,
        "why": "the word of whatever sent the signal: the death the launcher reports follows it"})
    ini = verdict.initiating
    if ini is not None and ini.kind == "external" and ini.node is None and said[0]["node"] is not None:
        ini.node = said[0]["node"]


def _the_only_process(con: duckdb.DuckDBPyConnection, top: Hyp, known_ranks: list[int]) -> None:
    """A line no prefix places, in a job of one process (its world size stated as 1, no
    rank but 0 named anywhere), is that process's: rank 0 (a script run without a
    launcher, DataParallel over the node's GPUs, a single-process debug run)."""
    if top.rank is not None or top.node is not None or any(r != 0 for r in known_ranks):
        return
    sizes = one(con, "SELECT max(world_size), min(world_size) FROM files WHERE world_size IS NOT NULL", [])
    if sizes is None or sizes[0] != 1 or sizes[1] != 1:
        return
    top.rank = 0
    top.notes.append("the job states a world size of 1: its one process, rank 0, printed every line")


def _odd_values_name_the_mismatched_rank(top: Hyp, odd_lines: Callable[[], dict[int, dict]]) -> bool:
    """Ranks that disagree on a collective: whichever noticed reports it (gloo's receiver,
    both sides of a tie), not necessarily the one that ran something else. Where exactly
    one rank printed, before the failure, a line whose values differ from every peer's
    (its class count, its checkpoint's size), that rank is the odd one. A fingerprint
    comparison (TORCH_DISTRIBUTED_DEBUG=DETAIL, Flight Recorder) that named one is kept."""
    if top.category != "collective_mismatch" or top.inference in ("mismatch_odd_rank", "fr_op_mismatch"):
        return False
    # (a failure with no stamp, or an estimated one, only a lower bound, is not known to come first)
    ev = top.evidence
    odd = {r: row for r, row in odd_lines().items()
           if ev is None or ev.ts is None or ev.ts_estimated or _before(row, ev)}
    if len(odd) != 1:
        return False
    rank, row = next(iter(odd.items()))
    if rank == top.rank:
        return False
    top.rank, top.node = rank, row.get("node")
    top.notes.append(f"rank {rank} alone printed a line with other values than every peer before the mismatch "
                     f"({row['file']}:{row['line_no']}): it is the rank that ran something different")
    return True


def _earlier_error_in_its_file(con: duckdb.DuckDBPyConnection, top: Hyp) -> dict | None:
    """The first error line above the winner's evidence in the same file that the run did
    not survive (``failure_evidence``: no echo, no context, no warning) and that says the
    same failure (the classifier places it in the verdict's category)."""
    ev = top.evidence
    if ev is None:
        return None
    for row in rows(con, "SELECT * FROM failure_evidence WHERE file = ? AND line_no < ? "
                         "AND level IN ('ERROR', 'CRITICAL') ORDER BY line_no LIMIT 50", [ev.file, ev.line_no]):
        # the same failure: an exception the classifier places in the verdict's category
        c = classify_failure(with_message(con, row)["message"], None)
        if c is not None and c.category == top.category and c.entry.id != "python-exception":
            return row
    return None


def _no_later_than_the_first_report(
    con: duckdb.DuckDBPyConnection, verdict: Verdict, top: Hyp, root_rows: list[dict], init_rank: int | None
) -> None:
    """The first deviating line comes no later than the winning rule's first report about
    the winning rank. A launcher reports one death twice (its ``failed (exitcode: -11)
    local_rank: 1`` line, then the table entry), and deviation, which compares lines with
    their digits masked, finds the first the same as a healthy worker's exit line."""
    fd = verdict.first_deviating
    if fd is None or top.rule is None or init_rank is None:
        return
    reports = [r for r in root_rows if r["rule_id"] == top.rule.rule.id and r["rank"] == init_rank]
    # in the first deviating line's own file, line order; elsewhere a clearly earlier stamp
    # (a launcher's table cuts its time to the second)
    here = [r for r in reports if r["file"] == fd.file and r["line_no"] < fd.line_no]
    there = [r for r in reports if r["file"] != fd.file and r.get("ts_aligned") is not None and fd.ts is not None
             and (fd.ts - r["ts_aligned"]).total_seconds() > 1]
    first = min(here, key=lambda r: r["line_no"]) if here else min(
        there, key=lambda r: r["ts_aligned"]) if there else None
    if first is not None:
        verdict.first_deviating = _first_deviating(
            con, {**first, "subject_rank": init_rank, "why": "the first report of the root cause about this rank"})


def _culprits_earlier_line_of_the_same_failure(top: Hyp, hyps: list[Hyp], init_rank: int, fd: FirstDeviating) -> dict | None:
    """The same conclusion reached from an earlier line of the culprit's own: its job's
    "non-finite loss" error right above the exception that stopped it, faulthandler's
    "Fatal Python error" (no rank: the workers share a console) above the launcher's
    ``failed (exitcode: -11) local_rank: 0`` report of that death. Where a hypothesis of the
    winner's category cites such a line, above the cited one and in the same burst, that line
    is where the failure began. A line placed by its meaning (a rule about the printer's own
    state, or the classifier reading the message), not an echo; an unranked one only where it
    is the only one (two unranked crash lines could be any two ranks')."""
    own = [h for h in hyps if h is not top and h.category == top.category and h.evidence is not None
           and h.inference is None
           # in the same burst: within seconds, or (a line with no time of its own) in the same file
           and (abs(h.ts - top.ts) <= SURVIVED_S if h.ts is not None and top.ts is not None
                else h.evidence.file == fd.file)
           and (h.rule.rule.blames == "rank" if h.rule is not None
                else h.classification is not None and h.classification.by_meaning)]
    ranked = [h for h in own if h.rank == init_rank]
    unranked = [h for h in own if h.rank is None and h.evidence is not None and h.evidence.rank is None]
    pool = ranked or (unranked if len(unranked) == 1 else [])
    rows_ = []
    for h in pool:
        ev = h.evidence
        assert ev is not None
        row = {"file": ev.file, "line_no": ev.line_no, "line_end": ev.line_end, "rank": init_rank, "node": ev.node,
               "ts_aligned": ev.ts, "ts_estimated": ev.ts_estimated, "message": ev.text, "subject_rank": init_rank,
               "why": "the culprit's own earlier line of the same failure"}
        if _before(row, fd):
            rows_.append(row)
    if not rows_:
        return None
    return min(rows_, key=lambda r: (r["file"] != fd.file, r["line_no"] if r["file"] == fd.file else 0,
                                     r["ts_aligned"] is None))


def _store_served_elsewhere(collateral_rows: list[dict], by_id: dict[str, LoadedRule], top: Hyp) -> str | None:
    """The node, other than the winner's, whose own rendezvous report (another rule's: the
    store's host giving up on its clients) shows the store was there to be reached."""
    if top.node is None or top.rule is None:
        return None
    other = {r["node"] for r in collateral_rows
             if r["node"] is not None and r["node"] != top.node and r["rule_id"] != top.rule.rule.id
             and r["rule_id"] in by_id and by_id[r["rule_id"]].rule.category == "rendezvous"}
    return other.pop() if len(other) == 1 else None


def _nan_began_earlier(con: duckdb.DuckDBPyConnection, top: Hyp, hyps: list[Hyp]) -> Hyp | None:
    """A non-finite loss spreads: one rank's NaN reaches every rank through the next
    all-reduce, and whichever rank then raises first (a NaN guard, a refusal to save the final
    model) is only the first to notice. Where one rank's own lines show the divergence at an
    earlier training step than any other rank's, that rank is where it began, whatever the
    stamps say (skewed clocks, a guard that raises late)."""
    if top.category != "nan_divergence" or top.rank is None:
        return None
    group = [h for h in hyps if h.category == "nan_divergence" and h.rank is not None and h.inference is None
             and h.evidence is not None]
    if len(group) < 2 or top not in group:
        return None
    steps = steps_at(con, group)
    known = [(s, h) for s, h in zip(steps, group, strict=True) if s is not None]
    if not known:
        return None
    first = min(s for s, _ in known)
    at_first = {h.rank for s, h in known if s == first}
    top_step = steps[group.index(top)]
    if len(at_first) != 1 or top.rank in at_first or (top_step is not None and top_step <= first):
        return None
    began = min((h for s, h in known if s == first), key=lambda h: -h.score)
    began.notes.append(f"its loss went non-finite at step {first}, before any other rank's")
    return began


def _agrees(h: Hyp, top: Hyp) -> bool:
    """``h`` reaches the winner's conclusion: the same category, and the same rank, or
    (a winner whose rank corroboration gave) the same node without a rank of its own."""
    if h.category != top.category or top.rank is None:
        return False
    return h.rank == top.rank or (top.corroborated and h.rank is None and h.node == top.node)


# the op an odd-one-out inference names: "it runs gloo:all_gather while ...", "runs op ALLGATHER while ..."
_ODD_OP = re.compile(r"\bruns (?:op )?(?:\w+:)?([A-Za-z_]+) while\b")


def _odd_collective_frame(con: duckdb.DuckDBPyConnection, top: Hyp, rank: int) -> dict | None:
    """The odd rank's own report that runs through the odd collective.

    Every rank of a mismatched collective times out alike, so its error deviates in
    nothing but the call it came from: its traceback's frame ``in all_gather`` where its
    peers' say ``in all_reduce``. That report, not the dump entry, is the line a reader
    opens. Found by the op the inference names, spelt as the API's function (underscores
    and case ignored: ``ALLGATHER`` is ``all_gather``)."""
    if top.inference not in ("fr_op_mismatch", "mismatch_odd_rank") or not top.notes:
        return None
    m = _ODD_OP.search(top.notes[0])
    if not m:
        return None
    op = m.group(1).replace("_", "").lower()
    found = rows(
        con,
        """SELECT file, line_no, line_end, rank, node, ts, ts_aligned, ts_estimated, message FROM events
           WHERE rank = $rank AND source NOT IN ('flight_recorder', 'torchrun', 'slurm')
             AND regexp_matches(replace(lower(message), '_', ''), ', in ' || $op || '\\b')
           ORDER BY ts_aligned NULLS LAST, file, line_no LIMIT 1""",
        {"rank": rank, "op": op},
    )
    if not found:
        return None
    row = found[0]
    row["subject_rank"] = rank
    row["why"] = f"its own report runs through the odd collective ({m.group(1)}) where its peers' do not"
    return row


def _before(row: dict, ev: Evidence) -> bool:
    """The candidate line comes before the evidence: earlier in the same file, else earlier in time."""
    if row["file"] == ev.file:
        return row["line_no"] < ev.line_no
    ts = row.get("ts_aligned")
    return ts is not None and ev.ts is not None and ts < ev.ts


def _cites_what_it_did(con: duckdb.DuckDBPyConnection, top: Hyp) -> bool:
    """The inferred winner's evidence is what it did (its error, its early end, the collective it
    ran), not merely its last line."""
    if top.inference in OWN_DEED or top.inference in ("collective_tie", "mismatch_odd_rank"):
        return True
    ev = top.evidence
    assert ev is not None
    kind = one(con, "SELECT any_value(kind) FROM events WHERE file = ? AND line_no = ?", [ev.file, ev.line_no])
    return bool(kind and kind[0] == "app.run_completed")


def _device_of(con: duckdb.DuckDBPyConnection, top: Hyp) -> tuple[int | None, str | None]:
    """The winner's local rank and GPU, where its own lines say so.

    The local rank is the one the rank's events carry, if they agree. The GPU is
    the PCI address of the evidence itself (an Xid names the device), else the
    CUDA device and bus id NCCL printed when it set up the rank's largest
    communicator. Nothing is inferred from the local rank alone: it is the CUDA
    device only under the usual one-GPU-per-process launch.
    """
    local_rank = gpu = None
    if top.rank is not None:
        row = one(con, "SELECT min(local_rank), count(DISTINCT local_rank) FROM events "
                        "WHERE rank = ? AND local_rank IS NOT NULL", [top.rank])
        if row and row[1] == 1:
            local_rank = row[0]
    if top.evidence is not None:
        row = one(con, "SELECT any_value(attrs['pci']) FROM timeline_raw WHERE file = ? AND line_no = ?",
                   [top.evidence.file, top.evidence.line_no])
        if row and row[0]:
            gpu = f"PCI {row[0]}"
    if gpu is None and top.rank is not None:
        row = one(
            con,
            """SELECT attrs['cuda_dev'], attrs['bus_id'] FROM events
               WHERE kind = 'nccl.comm_init' AND rank = ? AND attrs['cuda_dev'] IS NOT NULL
               ORDER BY TRY_CAST(attrs['nranks'] AS INTEGER) DESC NULLS LAST, file, line_no LIMIT 1""",
            [top.rank],
        )
        if row:
            pci = _pci_of_nccl_bus(row[1]) if row[1] else None
            gpu = f"cuda:{row[0]}" + (f" (PCI {pci})" if pci else "")
    return local_rank, gpu


def _pci_of_nccl_bus(bus: str) -> str | None:
    """NCCL's busId is the PCI address with ':' and '.' removed, printed as %lx
    (``3a000`` = ``0000:3a:00.0``; docs/formats/nccl.md §1)."""
    if not re.fullmatch(r"[0-9a-fA-F]{4,12}", bus):
        return None
    s = bus.lower().zfill(9)
    return f"{s[:-5].zfill(4)}:{s[-5:-3]}:{s[-3:-1]}.{s[-1]}"


def _pick_first_deviating(candidates: list[dict], top: Hyp, init_rank: int | None, all_ranks: bool) -> dict | None:
    """The earliest deviating line that belongs to the verdict's story.

    Deviation alone is blind to who failed first; the verdict is not. So the
    first deviating line is the earliest candidate of the initiating rank (or
    node, for node-level evidence), else the earliest at all. An all-ranks
    failure deviates from nothing across ranks: its first occurrence is used.
    """
    if all_ranks or top.corroborated:
        return None
    if init_rank is not None:
        mine = [c for c in candidates if c["subject_rank"] == init_rank]
        # a line its rank trained on after (a slow batch, a retried read) is not where
        # its failure began, when a later one it did not survive is there: whether such
        # a warning deviates at all hangs on how many ranks printed it, which a longer
        # or a wider job changes (all of 64 ranks' long logs; 158 of 1,024 short ones)
        picked = [c for c in mine if not c["survived"]] or mine
        return picked[0] if picked else None
    if top.node is not None:
        return None  # node-level evidence: the root cause's own line
    return candidates[0] if candidates else None


_EVIDENCE_RANK = object()  # the evidence's own rank


def _launchers_report_of_a_death(con: duckdb.DuckDBPyConnection, ev: Evidence) -> bool:
    """The line is a launcher's record that a worker failed (torchrun's `failed (exitcode: -9)`,
    mpirun's, the DeepSpeed launcher's), not anything the worker printed itself."""
    kinds = one(con, "SELECT list(DISTINCT kind) FROM events WHERE file = ? AND line_no = ?",
                [ev.file, ev.line_no])[0] or []
    return any(k in LAUNCHER_SAW_A_FAILURE for k in kinds)


def _printer_of(con: duckdb.DuckDBPyConnection, ev: Evidence) -> int | None:
    """The rank that printed an evidence line (not the rank it blames)."""
    return one(con, "SELECT any_value(rank) FROM events WHERE file = ? AND line_no = ?", [ev.file, ev.line_no])[0]


def _evidence_as_first_deviating(con: duckdb.DuckDBPyConnection, top: Hyp, all_ranks: bool,
                                 rank: int | object | None = _EVIDENCE_RANK) -> FirstDeviating:
    """The winner's evidence as the first deviating line (``rank``: the line's, where the
    evidence carries the rank it blames rather than its printer's)."""
    ev = top.evidence
    assert ev is not None
    row = {"file": ev.file, "line_no": ev.line_no, "line_end": ev.line_end,
           "rank": ev.rank if rank is _EVIDENCE_RANK else rank, "node": ev.node,
           "ts_aligned": ev.ts, "ts_estimated": ev.ts_estimated, "message": ev.text,
           "why": "every rank printed it: the same failure everywhere (first occurrence)" if all_ranks
           else "the root-cause evidence (no line of this rank deviates from its peers)" if top.inference is None
           else "the line the inference cites: " + top.notes[0]}
    return _first_deviating(con, row)


_INFERENCE_TITLES = {
    "awaited_rank_finished": "A rank finished early while its peers waited for it",
    "stopped_early_alone": "A rank stopped early on its own check while its peers went on",
    "mismatch_odd_rank": "One rank ran a different collective than the others",
    "collective_tie": "Two ranks ran different collectives: a tie, neither can be named",
    "missing_reporter": "Suspect: the one rank missing from its peers' timeout reports (they waited for it)",
    "launch_settings_disagree": "A process started with launch settings the others do not share "
                                "(MASTER_ADDR / MASTER_PORT / WORLD_SIZE / RANK)",
}


def _root_cause(top: Hyp) -> RootCause:
    if top.rule is None:
        c = top.classification
        if c is not None:
            exc = c.facts.exception_type
            return RootCause(
                rule_id=None, category=top.category,  # type: ignore[arg-type]
                title=f"{exc or 'Failure'} ({c.category.replace('_', ' ')}): no rule names it",
                explanation=f"{c.entry.why}. " + "; ".join(top.notes),
                evidence=top.evidence,
                basis=[f"classifier {c.entry.id}: {c.basis_text()}"],
            )
        return RootCause(
            rule_id=None, category=top.category,  # type: ignore[arg-type]
            title=_INFERENCE_TITLES.get(top.inference or "")
            or ("Silent rank: its peers timed out waiting for it" if top.category in WAIT_CATEGORIES
                else "Unclassified failure"),
            explanation="; ".join(top.notes) or "no rule in the knowledge base matches this evidence",
            evidence=top.evidence,
            basis=[f"inference {top.inference}"] if top.inference else ["no rule and no classifier entry placed it"],
        )
    r = top.rule.rule
    refined = top.classification is not None and top.category != r.category
    return RootCause(
        rule_id=r.id, category=top.category if refined else r.category,  # type: ignore[arg-type]
        title=r.title, explanation=r.root_cause, fix=r.fix,
        verify=r.verify, evidence=top.evidence,
        rule_evidence=f"{r.evidence.kind}: {r.evidence.provenance}",
        basis=[f"rule {r.id}"] + ([
            f"its category from what the error's own text says (classifier {top.classification.entry.id}: "
            f"{top.classification.basis_text()}), not the rule's {r.category}: the rule names the class of result only"]
            if refined and top.classification is not None else []),
    )


def _collateral(con: duckdb.DuckDBPyConnection, found: list[dict], by_id: dict[str, LoadedRule],
                init_rank: int | None) -> list[Collateral]:
    """Echo findings grouped by rule; the initiating rank's own echoes are left out."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in found:
        if init_rank is not None and r["rank"] == init_rank:
            continue
        groups[r["rule_id"]].append(r)
    ranked = {r["rank"] for r in found if r["rank"] is not None}
    out = []
    for rule_id, rs in groups.items():
        rule = by_id[rule_id].rule
        ranks = ({r["rank"] for r in rs if r["rank"] is not None} | _console_echo_ranks(con, rs, ranked, init_rank)
                 | _group_report_ranks(con, rs, init_rank))
        out.append(Collateral(
            rule_id=rule_id, category=rule.category, title=rule.title,
            ranks=sorted(ranks),
            nodes=sorted({r["node"] for r in rs if r["node"] is not None}),
            count=len({(r["file"], r["line_no"]) for r in rs}), first=cite(rs[0]),
        ))
    return sorted(out, key=lambda c: (-len(c.ranks), -c.count))


def _group_report_ranks(con: duckdb.DuckDBPyConnection, group: list[dict], init_rank: int | None) -> set[int]:
    """The ranks unranked watchdog reports name themselves (``[Rank 3] Watchdog caught ...``).

    Where no report carries a launcher's rank, the rank inside the message is the one
    the job's logs give (``watchdog_reports.who``, the one definition of whose report it
    is: the group's rank, the global one on the default group); the claims that name
    a culprit already read it that way."""
    loose = [(r["file"], r["line_no"]) for r in group if r["rank"] is None]
    if not loose:
        return set()
    found = con.execute(
        "SELECT DISTINCT who FROM watchdog_reports w JOIN (SELECT unnest(?) AS f, unnest(?) AS l) x "
        "ON w.file = x.f AND w.line_no = x.l WHERE w.printed_by IS NULL AND w.who IS NOT NULL",
        [[f for f, _ in loose], [ln for _, ln in loose]]).fetchall()
    return {who for (who,) in found if who != init_rank}


def _console_echo_ranks(con: duckdb.DuckDBPyConnection, group: list[dict], ranked: set[int],
                        init_rank: int | None) -> set[int]:
    """The ranks behind a launcher console's unranked echoes, taken as a set.

    A worker whose stderr is the launcher's (torchrun without --tee or --log-dir) prints
    its traceback there with no rank on it; a failure before init_process_group has no
    ``[rankN]:`` prefix either. The agent's failure table in the same console names the
    ranks that exited with an error. When the ranks it lists as failed (a positive exit
    code, not a signal), less the initiating rank and the ranks whose echoes are shown
    elsewhere with their rank, are exactly as many as the processes the unranked echoes
    come from (the copies of one template), those ranks are the echoes' ranks. Which line
    is which rank's is not known and not claimed; only the set.
    """
    loose = [r for r in group if r["rank"] is None]
    if not loose:
        return set()
    files = sorted({r["file"] for r in loose})
    if len(files) != 1:
        return set()
    per_template = Counter(r.get("template") for r in loose)
    processes = max(per_template.values())
    failed = {
        rank for (rank,) in con.execute(
            """SELECT DISTINCT TRY_CAST(attrs['failed_rank'] AS INTEGER) FROM events
               WHERE kind = 'torchrun.failure_entry' AND file = ?
                 AND TRY_CAST(attrs['exitcode'] AS INTEGER) > 0""", [files[0]]).fetchall()
        if rank is not None
    }
    failed -= ranked | ({init_rank} if init_rank is not None else set())
    return failed if len(failed) == processes else set()


def _first_deviating(con: duckdb.DuckDBPyConnection, row: dict) -> FirstDeviating:
    row = with_message(con, row)
    ctx = rows(
        con,
        """SELECT * FROM events WHERE file = ? AND line_no < ?
           AND (rank IS NOT DISTINCT FROM ? OR rank IS NULL)
           ORDER BY line_no DESC LIMIT ?""",
        [row["file"], row["line_no"], row["rank"], CONTEXT_EVENTS],
    )
    base = cite(row)
    if row.get("subject_rank") is not None:
        base.rank = row["subject_rank"]  # a launcher line about rank 1 is rank 1's deviation
    return FirstDeviating(**base.model_dump(), context=[cite(c) for c in reversed(ctx)], why=row["why"])


def _missing(
    con: duckdb.DuckDBPyConnection, known_ranks: list[int], hyps: list[Hyp], collateral_rows: list[dict]
) -> list[str]:
    out = []
    silent = [r for (r,) in con.execute("SELECT rank FROM ranks_without_logs ORDER BY rank").fetchall()]
    if silent:
        out.append(f"rank(s) {ranges(silent)} left no log in this directory: collect their output")
    kinds = {k for (k,) in con.execute("SELECT DISTINCT kind FROM events WHERE kind IS NOT NULL").fetchall()}
    if any(r["category"] == "nccl_timeout_hang" for r in collateral_rows) and not any(k.startswith("nccl.") for k in kinds):
        out.append("no NCCL lines: re-run with NCCL_DEBUG=INFO to see which peer or link failed")
    for h in hyps[:1]:
        if h.inference == "collective_tie":
            out.append("a tie: " + h.notes[0].split(": ", 1)[-1])
    if "c10d.watchdog_timeout" in kinds and "c10d.dump_signal" not in kinds:
        out.append("enable the flight recorder (TORCH_NCCL_TRACE_BUFFER_SIZE=2000, TORCH_NCCL_DUMP_ON_TIMEOUT=1) "
                   "to see each rank's last collective")
    return out



def _waited_for_it(top: Hyp, echoes: list[dict], known_ranks: list[int]) -> bool:
    """Every known rank but at most one echoed a wait or a lost peer, after ``top``: by the
    ranks that printed echoes, and where no prefix names them (workers sharing a launcher's
    stderr), by their echoes' tracebacks, one a process."""
    after = [r for r in echoes if top.ts is None or r.get("ts_aligned") is None
             or epoch(r["ts_aligned"]) >= top.ts - SIMULTANEOUS_S]
    ranked = {r["printed_by"] for r in after if r["printed_by"] is not None}
    unranked = sum(1 for r in after if r["printed_by"] is None and r.get("rank") is None
                   and "Traceback (most recent call last)" in (r.get("message") or ""))
    return len(known_ranks) >= 2 and len(ranked) + unranked >= len(known_ranks) - 1


def _own_error_before_the_echoes(con: duckdb.DuckDBPyConnection, echoes: list[dict]) -> Hyp | None:
    """Among echoes, a rank's own error that says what went wrong by its meaning (a guard's
    "non-finite loss", an errno), not a wait or a lost peer, and that it printed before the
    first echo: the cause the echoes followed. An unplaced error that says nothing of its
    own (a bare traceback) stays out: it is as likely an echo's own log line."""
    stamped = [epoch(r["ts_aligned"]) for r in echoes if r.get("ts_aligned") is not None]
    if not stamped:
        return None
    first_echo = min(stamped)
    for row in rows(con, "SELECT * FROM failure_evidence WHERE rank IS NOT NULL AND ts_aligned IS NOT NULL "
                         "ORDER BY ts_aligned, file, line_no LIMIT 20"):
        if epoch(row["ts_aligned"]) > first_echo:
            break
        h = failure_hypothesis(con, row)
        _classify(con, h)
        c = h.classification
        if c is not None and c.by_meaning and not c.entry.echo:
            h.notes.append("its own error, before its peers' echoes")
            return h
    return None


def failure_hypothesis(con: duckdb.DuckDBPyConnection, row: dict) -> Hyp:
    """A hypothesis from failure evidence nothing else placed."""
    d = with_message(con, row)
    return Hyp(rule=None, category="code_exception" if "Traceback" in d["message"] else "other",
               rank=d["rank"], node=d["node"], ts=epoch(d["ts_aligned"]), evidence=cite(d), base=0.6,
               notes=["an error its stream did not go on after"])


def _classify(con: duckdb.DuckDBPyConnection, h: Hyp) -> None:
    """The general classifier's category for a rule-less failure, with its basis."""
    assert h.evidence is not None
    phase = phase_of(con, h.evidence.ts, h.evidence.file, h.evidence.line_no)
    c = classify_failure(h.evidence.text, phase)
    if c is None:
        c = _classify_by_warnings_before(con, h, phase)
    if c is not None:
        h.category = c.category
        h.classification = c
        if c.by_meaning:
            # what the error says places it as surely as a rule's signature would: its prior is
            # a rule's, not an unknown error's (a thread limit hit first, then the DataLoader's
            # report of its dead worker: the first, not the rule that knows the second)
            h.base = max(h.base, CLASSIFIED_BASE)


def _refine_by_detail(con: duckdb.DuckDBPyConnection, h: Hyp) -> None:
    """A rule that names only a class of results (NCCL's result code) takes the category of
    what its event's text says failed, where the classifier places that by its meaning
    (NCCL's last error: a shared-memory segment it could not create is the container's
    setting, not the network)."""
    assert h.evidence is not None and h.rule is not None
    c = classify_failure(h.evidence.text, phase_of(con, h.evidence.ts, h.evidence.file, h.evidence.line_no))
    if c is not None and c.by_meaning and c.category != h.rule.rule.category:
        h.category = c.category
        h.classification = c


CLASSIFIED_BASE = 1.0  # the prior of an error the classifier placed by its message or errno
# how far above a failure that says nothing of itself its stream's warnings are read
WARNINGS_BEFORE_S = 300
WARNINGS_BEFORE_LINES = 200


def _classify_by_warnings_before(con: duckdb.DuckDBPyConnection, h: Hyp, phase: Phase | None) -> Classification | None:
    """A failure whose own text places it nowhere (a traceback cut before its exception line,
    a bare exit) takes its category from what its stream warned of just before it (a loss
    scale collapsing, a NaN found, a file missing): the first deviating warning says what the
    failure was, where the failure does not. Only what the warning's meaning places (its
    message or errno), never a wait or a lost peer (those name someone else)."""
    assert h.evidence is not None
    ev = h.evidence
    found = rows(
        con,
        """SELECT * FROM events
           WHERE file = ? AND line_no < ? AND line_no >= ? AND level IN ('WARNING', 'ERROR', 'CRITICAL')
             AND (rank IS NULL OR ? IS NULL OR rank = ?)
             AND (ts_aligned IS NULL OR ?::TIMESTAMPTZ IS NULL
                  OR ts_aligned >= ?::TIMESTAMPTZ - to_seconds(?))
           ORDER BY line_no""",
        [ev.file, ev.line_no, ev.line_no - WARNINGS_BEFORE_LINES, h.rank, h.rank,
         _ts_or_none(h.ts), _ts_or_none(h.ts), WARNINGS_BEFORE_S],
    )
    for row in found:
        c = classify_failure(row["message"], phase)
        if c is not None and c.by_meaning:
            h.notes.append("its own text says nothing of its cause; its stream warned just before: "
                           + row["message"][:160])
            h.warned_at = row
            return c
    return None


def _warned_alike_before(con: duckdb.DuckDBPyConnection, top: Hyp) -> dict | None:
    """The first warning just above the winner's evidence, in its stream, whose own text places
    it in the same category by what it means (transformers' "PyTorch >= 2.4 is required but
    found 2.1.2" above an ImportError of a torch name): the failure began there. Only where the
    winner was placed by a rule or by meaning too, and never a wait or a lost peer (those name
    someone else)."""
    ev = top.evidence
    if (ev is None or top.category in ("nccl_timeout_hang", "rendezvous", "nccl_network", "killed_by_scheduler")
            or not (top.rule is not None or (top.classification is not None and top.classification.by_meaning))):
        return None
    found = rows(
        con,
        """SELECT * FROM events e
           WHERE file = ? AND line_no < ? AND line_no >= ? AND level = 'WARNING'
             AND (rank IS NULL OR ? IS NULL OR rank = ?)
             -- (not a line a rule calls an echo or context: a launcher's report is no beginning)
             AND NOT EXISTS (SELECT 1 FROM findings f WHERE f.file = e.file AND f.line_no = e.line_no
                             AND f.role <> 'root')
             AND (ts_aligned IS NULL OR ?::TIMESTAMPTZ IS NULL
                  OR ts_aligned >= ?::TIMESTAMPTZ - to_seconds(?))
           ORDER BY line_no""",
        [ev.file, ev.line_no, ev.line_no - WARNINGS_BEFORE_LINES, top.rank, top.rank,
         _ts_or_none(top.ts), _ts_or_none(top.ts), WARNINGS_BEFORE_S],
    )
    for row in found:
        c = classify_failure(row["message"], None)
        if c is not None and c.by_meaning and c.category == top.category:
            return row
    return None


def _ts_or_none(ts: float | None) -> datetime | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC)


def _second_opinion(con: duckdb.DuckDBPyConnection, top: Hyp, rc: RootCause) -> None:
    """Where a rule and the classifier disagree, the rule wins and the verdict says so."""
    if top.rule is None or top.evidence is None:
        return
    c = classify_failure(top.evidence.text, phase_of(con, top.evidence.ts, top.evidence.file, top.evidence.line_no))
    if c is not None and c.category != rc.category and c.entry.id != "python-exception":
        rc.basis.append(f"the general classifier would say {c.category} ({c.entry.id}: {c.basis_text()}); "
                        "the rule wins")


# frames or calls of the distributed stack in a failure's own text
_DISTRIBUTED_STACK = re.compile(
    r"torch/distributed/|/accelerate/|/deepspeed/|/megatron/|\b(?:barrier|init_process_group|all_reduce|"
    r"all_gather|broadcast)\(|[Aa]ccelerator\b|create_accelerator|DistributedDataParallel|torchrun"
)


def _deterministic_everywhere(con: duckdb.DuckDBPyConnection, top: Hyp, hyps: list[Hyp]) -> bool:
    """A configuration, environment or version error raised before training is the
    same on every rank (each runs the same check), unless another rank visibly did
    something else: trained on, or failed differently."""
    if top.category not in ("config_error", "version_mismatch") or top.evidence is None:
        return False
    # "every rank" needs ranks: a job that states a world of one has no other rank, and a
    # lone paste that names no process is one process's unless its own stack is the
    # distributed stack's (a check in torch.distributed, accelerate or DeepSpeed that every
    # rank runs)
    n_known = con.execute("SELECT count(*) FROM known_ranks").fetchone()[0]
    world = con.execute("SELECT max(world_size) FROM files").fetchone()[0]
    if world == 1 or (n_known == 0 and not _DISTRIBUTED_STACK.search(top.evidence.text)):
        return False
    if top.rule is not None and top.rule.rule.scope != "job" and top.n_ranks_same < 2:
        return False  # a rule about one rank's own state (a short batch, a bad sample) is not everywhere
    if top.reporters:
        return False  # other ranks' lines name this one: it is about that rank, not every rank
    phase = phase_of(con, top.evidence.ts, top.evidence.file, top.evidence.line_no)
    if phase == "during_training":
        return False
    node = _one_node_only(con, top)
    if node is not None:
        # every rank of one machine fails the same check and the other machines' ranks
        # only wait: that machine's setting (its interface name, its limits, its copy)
        top.rank, top.node = None, node
        top.notes.append(f"only node {node}'s ranks raise it; the other nodes' logs show no such error")
        return False
    others = {h.category for h in hyps[1:] if h.rank is not None and h.rank != top.rank and h.rule is not None}
    if others - {top.category}:
        return False
    if top.rank is not None:
        # another rank that only waited for it (its peer gone, its wait run out) ran the check
        # and passed it: the failure was this rank's own (its own stale checkout, its own file)
        # (a rank its launcher terminated did not wait: it may have been killed before the check)
        waited = con.execute(
            "SELECT count(*) FROM findings WHERE role = 'collateral' AND rank IS NOT NULL AND rank <> ? "
            "AND category IN ('nccl_timeout_hang', 'nccl_network', 'rendezvous')",
            [top.rank],
        ).fetchone()[0]
        if waited and top.n_ranks_same < 2:
            return False
        if top.n_ranks_same < 2 and _peers_passed_its_last_step(con, top.rank):
            # the others printed the line it printed last and went on past it: the step it
            # failed at (its own shard, its own file) was one they got through
            top.notes.append("the other ranks printed its last line and went on: they passed the step it failed at")
            return False
    # progress of another rank, or of a stream no prefix names (rank 0's bar in a console the
    # ranks share, the failing rank's own then being named): the job was training, not checking
    trained = con.execute(
        "SELECT count(*) FROM stream_progress WHERE rank IS DISTINCT FROM ?", [top.rank]
    ).fetchone()[0]
    return not trained


def _peers_passed_its_last_step(con: duckdb.DuckDBPyConnection, rank: int) -> bool:
    """Did every other known rank print the line ``rank`` printed last (its last stamped record
    of INFO or below, by template) and then a record of another template after it? Then the
    step ``rank`` was at when it failed is one each of them got through: its failure is its own,
    not a check every rank fails alike."""
    row = con.execute(
        """WITH own AS (
               SELECT template FROM events
               WHERE rank = $r AND ts_aligned IS NOT NULL AND NOT coalesce(ts_estimated, false)
                 AND coalesce(level, 'INFO') IN ('INFO', 'DEBUG') AND template IS NOT NULL
               ORDER BY ts_aligned DESC, line_no DESC LIMIT 1),
           at_it AS (
               SELECT e.rank, min(e.ts_aligned) AS t FROM events e, own o
               WHERE e.rank IS NOT NULL AND e.rank <> $r AND e.template = o.template
                 AND e.ts_aligned IS NOT NULL AND NOT coalesce(e.ts_estimated, false)
               GROUP BY e.rank),
           went_on AS (
               SELECT DISTINCT a.rank FROM at_it a, own o, events n
               WHERE n.rank = a.rank AND n.ts_aligned > a.t AND NOT coalesce(n.ts_estimated, false)
                 AND coalesce(n.level, 'INFO') IN ('INFO', 'DEBUG') AND n.template IS DISTINCT FROM o.template)
           SELECT (SELECT count(*) FROM known_ranks WHERE rank <> $r),
                  (SELECT count(*) FROM went_on WHERE rank IN (SELECT rank FROM known_ranks))""",
        {"r": rank},
    ).fetchone()
    return row is not None and row[0] > 0 and row[0] == row[1]


def _one_node_only(con: duckdb.DuckDBPyConnection, top: Hyp) -> str | None:
    """The node whose ranks alone raise the winner's error, in a job whose other nodes left
    logs of their own without it; None where it is seen on several nodes, or only one
    node's logs are here."""
    assert top.evidence is not None
    found = con.execute(
        """WITH s AS (SELECT shape FROM failure_evidence WHERE file = ? AND line_no = ? LIMIT 1)
           SELECT list(DISTINCT f.node) FILTER (WHERE f.node IS NOT NULL),
                  (SELECT count(DISTINCT node) FROM events WHERE node IS NOT NULL)
           FROM failure_evidence f JOIN s ON f.shape = s.shape""",
        [top.evidence.file, top.evidence.line_no],
    ).fetchone()
    if found is None or not found[0] or len(found[0]) != 1 or found[1] < 2:
        return None
    return found[0][0]


def _echoes_only(verdict: Verdict, collateral_rows: list[dict]) -> None:
    """Only echoes (timeouts, closed connections, SIGTERMs): their category, culprit unknown."""
    if not collateral_rows:
        verdict.status_reason = "errors were found but none the run did not survive"
        return
    cat = Counter(r["category"] for r in collateral_rows).most_common(1)[0][0]
    ranks = sorted({r["rank"] for r in collateral_rows if r["rank"] is not None})
    verdict.root_cause = RootCause(
        rule_id=None, category=cat, title="Culprit unknown: only echoes of the failure were found",
        explanation=(f"{len(collateral_rows)} echo(es) of category {cat}"
                     + (f" on rank(s) {ranges(ranks)}" if ranks else "")
                     + ", but no line of the rank that caused them"),
        evidence=cite(collateral_rows[0]),
        basis=["echoes only: " + ", ".join(sorted({r['rule_id'] for r in collateral_rows}))],
    )
    verdict.initiating = Initiating(kind="unknown", all_ranks=False, confidence=0.0)
    verdict.status_reason = "only echoes of a failure were found (the job failed; whose fault is unknown)"
    verdict.missing.append("the culprit's log: every line found is a peer waiting on, or cut off from, "
                           "another rank; collect every rank's output (and the launcher's)")


def _healthy_or_not(con: duckdb.DuckDBPyConnection, verdict: Verdict) -> None:
    """No failure: healthy only with evidence of a healthy end, else inconclusive."""
    done = rows(con, "SELECT * FROM completion_evidence ORDER BY coalesce(ts_aligned, ts) DESC NULLS LAST, "
                     "file, line_no DESC LIMIT 1")
    if done:
        verdict.status = "healthy"
        verdict.status_reason = f"the run reports a healthy end at {done[0]['file']}:{done[0]['line_no']}"
        return
    short = stopped_short(con)
    if short is not None:
        _stopped_short(verdict, short, signal_trace(con))
        return
    survived = _survived_anomalies(con)
    if survived is not None:
        verdict.status = "healthy"
        verdict.status_reason = survived
        return
    finished = finished_loop(con)
    if finished is not None:
        verdict.status = "healthy"
        verdict.status_reason = (f"the training loop finished its last epoch at {finished['file']}:"
                                 f"{finished['line_no']} and nothing failed")
        return
    verdict.status = "inconclusive"
    step = con.execute("SELECT max(TRY_CAST(attrs['step'] AS BIGINT)) FROM events "
                       "WHERE kind = 'app.step_metrics'").fetchone()[0]
    where = f"at step {step}" if step is not None else ("mid-run" if verdict.events else "with no events at all")
    verdict.status_reason = f"no failure and no completion: the logs end {where} with no exit status"
    verdict.missing.append(f"the logs end {where} with neither a failure nor a completion line or exit status: "
                           "collect the scheduler's record of the job (its exit code) or the rest of the log")


def _stopped_short(verdict: Verdict, short: StoppedShort, signal: dict | None) -> None:
    """Every rank's progress stopped short of its stated total, with no error and no completion.

    Where the ranks stopped at once and a line reports a signal or a kill, one thing stopped
    them from outside. With no such trace the logs cannot tell a job killed without a word
    from a snapshot of one still running (collected mid-run, the commonest case among the
    unseen logs this was measured on): inconclusive, with the fact that would settle it."""
    where = f"at step {short.step} of {short.total}"
    if not short.together or short.last is None or signal is None:
        verdict.status = "inconclusive"
        verdict.status_reason = f"no failure and no completion: the logs end {where}, short of the run's end"
        if short.together and short.last is not None:
            verdict.status_reason += (" (every rank stopped at once, with no trace of a signal: a kill from "
                                      "outside and a snapshot of a running job read alike)")
        verdict.missing.append(f"the logs end {where} with neither a failure nor a completion line or exit "
                               "status: collect the scheduler's record of the job (its exit code) or the rest "
                               "of the log")
        return
    verdict.status = "failed"
    verdict.status_reason = f"every rank stopped at once {where}, with no error and no completion"
    verdict.initiating = Initiating(kind="external", all_ranks=False, confidence=0.5)
    verdict.root_cause = RootCause(
        rule_id=None, category="killed_by_scheduler", title="Stopped from outside: every rank stopped at once mid-run",
        explanation=(f"the step lines count to {short.total}; every rank's progress stopped {where} within a "
                     "few step intervals of the others, no rank printed an error or a completion, and a line "
                     "reports a signal or a kill: one thing stopped every process (a scheduler's or "
                     "container's kill, a time limit, a timeout wrapper's signal)"),
        evidence=cite(signal),
        basis=["progress stopped short of its stated total on every rank, at once",
               f"a signal's trace: {signal['file']}:{signal['line_no']}"],
    )
    verdict.missing.append("the scheduler's or container runtime's record of the job's end (sacct State and "
                           "ExitCode, kubectl describe pod, the launcher's exit code, dmesg for the OOM killer)")


def _survived_anomalies(con: duckdb.DuckDBPyConnection) -> str | None:
    """Why a run that printed warnings (or errors it survived) and no failure is healthy, or None.

    A warning is a claim that something may go wrong, not that it did: where the run
    trained on after its last anomaly (a warning, a caught and logged error, a nan
    gradient norm the loss scaler skipped), nothing failed; and logs that hold warnings
    and nothing of a run that stopped (a pasted warning, a test run's noise) say nothing
    failed either. A log whose progress stops at or before its last anomaly stays
    inconclusive: it may have hung there."""
    row = one(con, f"""
        WITH w AS (SELECT file, rank, stream_node(rank, node) AS node_key,
                          max(coalesce(line_end, line_no)) AS last_warn, count(*) AS n,
                          count(*) FILTER (WHERE level = 'WARNING') AS n_warn
                   FROM events
                   WHERE level IN ('WARNING', 'ERROR', 'CRITICAL')
                      OR (kind IN ({sql_list(METRIC_RECORDS)})
                          AND (lower(attrs['grad_norm']) IN ('nan', 'inf') OR lower(attrs['loss']) IN ('nan', 'inf')))
                   GROUP BY ALL)
        SELECT sum(w.n), sum(w.n_warn), (SELECT count(*) FROM stream_progress),
               count(*) FILTER (WHERE s.last_line > w.last_warn),
               count(*) FILTER (WHERE s.last_line <= w.last_warn)
        FROM w LEFT JOIN stream_progress s ON s.file = w.file AND s.rank IS NOT DISTINCT FROM w.rank
                                           AND s.node_key IS NOT DISTINCT FROM w.node_key""", [])
    if not row or not row[0]:
        return None
    n_any, n_warn, any_progress, trained_after, stopped_at = row
    # (progress bars count too: a paste of a bar frozen at 34% of its epoch is a snapshot)
    inside = mid_loop(con)
    if inside.n_streams and inside.n_inside == inside.n_streams:
        return None  # every counted stream stopped inside its loop: the logs end mid-run, not at its end
    if ends_in_cadence(con) and not (inside.n_streams and inside.n_inside == 0) and finished_loop(con) is None:
        # every stream stops on one more of its repeated records, none at the end of a loop it counts
        # through (`iter 20/20`): a snapshot, not an end
        return None
    if trained_after and not stopped_at:  # no stream's progress stopped at its anomaly
        return f"{n_any} warning(s) or survived error(s), and it trained on after them"
    if not any_progress and n_warn == n_any and not _last_bar_short_of_its_total(con):
        return f"the logs hold {n_warn} warning(s) and no error: nothing says the run failed"
    return None


def _last_bar_short_of_its_total(con: duckdb.DuckDBPyConnection) -> bool:
    """A progress bar that moved (drawn at two positions or more) and whose last drawing in
    its stream stands short of its total (`198/1450`, `199/1450`): the logs are of a run
    still inside its loop, however few drawings there are, so warnings without an error say
    nothing of how it ended. (A bar drawn once, at 0% or at an evaluation's 18%, says less.)"""
    return bool(one(con, """
        SELECT count(*) FROM (
            SELECT arg_max(TRY_CAST(attrs['done'] AS BIGINT) < TRY_CAST(attrs['total'] AS BIGINT),
                           (coalesce(ts_aligned, TIMESTAMPTZ '1970-01-01'), line_no)) AS short,
                   count(DISTINCT attrs['done']) AS positions
            FROM events WHERE kind = 'app.progress_bar' GROUP BY file, rank, stream_node(rank, node))
        WHERE short AND positions >= 2""", [])[0])


def separate_jobs(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The top-level directories of the target, when they hold separate jobs: two or
    more, each with its own rank 0, whose stamped logs do not overlap in time (the
    directories of one job's nodes run at the same time). Empty otherwise."""
    # the files table knows each file's ranks: most jobs (one job's node directories
    # included) have rank 0 in one top directory only, and need no scan of the events
    with_rank0 = con.execute(
        "SELECT count(DISTINCT split_part(file, '/', 1)) FROM files WHERE file LIKE '%/%' AND list_contains(ranks, 0)"
    ).fetchone()[0]
    if with_rank0 < 2:
        return []
    per_dir = con.execute(
        """SELECT split_part(file, '/', 1) AS top, min(t0) AS t0, max(t1) AS t1, bool_or(has_rank0) AS rank0
           FROM (SELECT file, min(ts) AS t0, max(ts) AS t1, bool_or(rank = 0) AS has_rank0
                 FROM timeline_raw WHERE ts IS NOT NULL GROUP BY file)
           WHERE file LIKE '%/%'
           GROUP BY top ORDER BY t0"""
    ).fetchall()
    if len(per_dir) < 2 or not all(r[3] for r in per_dir):
        return []
    if any(later[1] <= earlier[2] for earlier, later in pairwise(per_dir)):
        return []
    return [r[0] for r in per_dir]
