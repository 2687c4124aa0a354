"""The verdict as a story that fits a terminal: every claim with file:line and time.

It stays within a screen at any world size: rank lists are counted and written as
ranges, cut at a width (``counted_ranks``); every line is clipped to ``_WIDTH``
but the root cause's explanation, fix and verification command.
"""

from __future__ import annotations

from correlator.verdict import Evidence, Verdict, ranges

_WIDTH = 110
_GROUPS_SHOWN = 8  # collateral groups told; the rest counted
SUSPECT_BELOW = 0.6  # an initiator named at less confidence than this is said to be a suspect


def _where(e: Evidence) -> str:
    span = f"{e.line_no}" if not e.line_end or e.line_end == e.line_no else f"{e.line_no}-{e.line_end}"
    who = []
    if e.rank is not None:
        who.append(f"rank {e.rank}")
    if e.node:
        who.append(e.node)
    when = e.ts.strftime("%Y-%m-%d %H:%M:%S") + " UTC" if e.ts else "no time"
    if e.ts and e.ts_estimated:
        when = f"~{when}, estimated: no stamp of its own"
    return f"{e.file}:{span}  ({', '.join(who) or 'launcher/node'}, {when})"


def _clip(text: str, n: int = _WIDTH) -> str:
    text = text.rstrip()
    return text if len(text) <= n else text[: n - 1] + "…"


def _last_lines(text: str, n: int) -> list[str]:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) <= n:
        return lines
    return [lines[0], "  …", *lines[-(n - 2):]]


def counted_ranks(ranks: list[int], width: int = 48) -> str:
    """'3 ranks (0-2)'; at 1,024 ranks a list of ranges is cut at ``width`` ('…'):
    the count says how many, the verdict JSON names them all."""
    rs = ranges(ranks)
    if len(rs) > width:
        cut = rs.rfind(",", 0, width)
        rs = (rs[:cut] if cut > 0 else rs[:width]) + ",…"
    return f"{len(ranks)} rank{'s' if len(ranks) != 1 else ''} ({rs})"


def render(v: Verdict) -> str:
    out: list[str] = []
    add = out.append
    head = f"{v.job}: {v.status.upper()}"
    if v.initiating:
        head += f" (confidence {v.initiating.confidence:.2f})"
    add(head)
    add(f"  {v.ranks} ranks, {v.nodes} nodes, {v.files} files, {v.events:,} events"
        + (f"; compared with baseline {v.baseline}" if v.baseline else ""))
    if v.status_reason:
        add(f"  status: {v.status_reason}")
    if v.status == "healthy":
        return "\n".join(out) + "\n"

    add("")
    if v.initiating:
        i = v.initiating
        if i.kind == "external":
            add("Initiating: from outside the job (a scheduler, a signal, a preemption): no rank to blame")
        elif i.kind == "unknown" and i.rank is None and i.node is None:
            echoes_only = v.root_cause is None or any(b.startswith("echoes only") for b in v.root_cause.basis)
            seen_by = v.root_cause.evidence.rank if v.root_cause and v.root_cause.evidence else None
            add("Initiating: unknown (only echoes of the failure were found)" if echoes_only
                else f"Initiating: unknown (rank {seen_by} only reports waiting on, or losing, another process)"
                if seen_by is not None
                else "Initiating: unknown (the logs do not say which process printed it, nor whether others failed alike)")
        elif i.all_ranks:
            add("Initiating: all ranks alike (the same failure everywhere: configuration or code, not one bad rank)")
        else:
            where = [f"rank {i.rank}" if i.rank is not None else "no single rank"]
            if i.node:
                where.append(f"node {i.node}")
            if i.local_rank is not None:
                where.append(f"local rank {i.local_rank}")
            if i.gpu:
                where.append(f"GPU {i.gpu}")
            suspect = f" (a suspect: confidence {i.confidence:.2f})" if i.confidence < SUSPECT_BELOW else ""
            add("Initiating: " + ", ".join(where) + suspect)
    rc = v.root_cause
    if rc:
        add(f"Root cause: {rc.title} [{rc.category}]" + (f"  (rule {rc.rule_id})" if rc.rule_id else ""))
        if rc.evidence:
            add(f"  at {_where(rc.evidence)}")
            for ln in _last_lines(rc.evidence.text, 4):
                add("    | " + _clip(ln, _WIDTH - 6))
        add("  Why:    " + _clip(rc.explanation, 400))
        if rc.fix:
            add("  Fix:    " + _clip(rc.fix, 400))
        if rc.verify:
            add("  Verify: " + _clip(rc.verify, 400))
        for b in rc.basis:
            add("  Basis:  " + _clip(b, 300))
        if rc.rule_evidence:
            add("  (rule evidence: " + _clip(rc.rule_evidence, 200) + ")")

    fd = v.first_deviating
    if fd:
        add("")
        add(f"First deviating line ({fd.why}):")
        add(f"  at {_where(fd)}")
        for c in fd.context[-3:]:
            add("    " + _clip(c.text.splitlines()[0] if c.text else "", _WIDTH - 4))
        for ln in _last_lines(fd.text, 6):
            add("  > " + _clip(ln, _WIDTH - 4))

    if v.collateral:
        add("")
        add("Collateral (echoes of the root cause):")
        for c in v.collateral[:_GROUPS_SHOWN]:
            ranks = counted_ranks(c.ranks) if c.ranks else "node-level"
            line = f"  {c.title} on {ranks} ({c.count} events) [{c.rule_id}]"
            if len(line) <= _WIDTH:
                add(line)
            else:  # a long title or rank list: the ranks on a line of their own
                add(_clip(f"  {c.title} [{c.rule_id}]"))
                add(f"    on {ranks}, {c.count} events")
            add(f"    first: {_where(c.first)}")
        if len(v.collateral) > _GROUPS_SHOWN:
            add(f"  and {len(v.collateral) - _GROUPS_SHOWN} more groups (the verdict JSON lists them all)")

    others = v.hypotheses[1:] if v.root_cause else v.hypotheses
    if others:
        add("")
        add("Other hypotheses considered:")
        for h in others[:5]:
            who = f"rank {h.rank}" if h.rank is not None else (h.node or "all ranks")
            add(f"  {h.rule_id or 'unclassified'} [{h.category}] on {who}: score {h.score:.2f}; "
                + _clip(h.why_not or "", 80))

    applied = [c for c in v.clock if c.applied]
    if applied:
        add("")
        add(f"Clocks aligned to {v.reference_node}: "
            + "; ".join(f"{c.node} {c.offset_s:+.1f} s ({c.keys} sync points)" for c in applied))
    if v.missing:
        add("")
        add("Missing facts:")
        for m in v.missing:
            add("  - " + m)
    return "\n".join(out) + "\n"
