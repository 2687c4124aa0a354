"""``correlator watch`` over replayed jobs: are its alerts right, early, and quiet on healthy jobs?

For each folder with stamps (``bench/replay.py``), the job's lines are written back
at their original relative times while a watch session follows them, polled once a
second of *job* time on a virtual clock (no sleeping: a 20-minute hang replays in
seconds; in long quiet stretches past 400 s the polls are 5 s apart). Per folder:

* **right**: the first alert names what ``analyze`` names on the finished files
  (the same initiating rank; or all_ranks / external / unknown alike);
* **early**: that alert came no later than ``--early`` seconds (job time) after the
  root-cause line, or, for a hang (category ``nccl_timeout_hang``: the root-cause
  line is the silent rank's last), before the first line of its peers' echoes
  (their collective timeouts);
* **false alarm**: a healthy job's alert that was not withdrawn by the end;
* **final = analyze**: the watch's post-mortem equals ``analyze`` on the original folder.

Usage (a SMALL subset: every folder costs a few analyses)::

    python bench/watch_replay.py sample_logs/torchrun-tee-console sample_logs/healthy-per-rank
    python bench/watch_replay.py --pick 12            # the first 12 stamped scenario folders, sorted
    python bench/watch_replay.py --pick 12 --json out.json
    python bench/watch_replay.py --from-json out.json --json again.json   # the same folders again
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay import Replay

from correlator.analysis.analyze import analyze
from correlator.ingest import IngestOptions
from correlator.verdict import RunningVerdict, Verdict
from correlator.watch.progress import Rule
from correlator.watch.session import Collect, Session, WatchOptions

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Row:
    folder: str
    status: str
    expected: str  # what analyze names
    first_alert: str | None
    first_alert_kind: str | None
    right: bool | None  # None: nothing to be right about (healthy, no alert)
    early: bool | None
    delay_s: float | None  # alert time minus the root-cause line's (job time)
    before_echo_s: float | None  # first echo line's time minus the alert's
    alerts: int
    false_alarms: int
    withdrawn: int
    final_equal: bool
    seconds: float  # wall time of this folder's replay


def _who(v: Verdict) -> str:
    i = v.initiating
    if i is None:
        return "none"
    if i.kind == "rank":
        return f"rank {i.rank}" if i.rank is not None else f"node {i.node}"
    return i.kind


def _same(alert: Verdict, final: Verdict) -> bool:
    a, f = alert.initiating, final.initiating
    if a is None or f is None:
        return False
    if f.kind == "rank":
        return a.kind == "rank" and (a.rank == f.rank if f.rank is not None else a.node == f.node)
    return a.kind == f.kind


def replay_one(folder: Path, work: Path, early_s: float = 5.0, rule: Rule | None = None) -> Row | None:
    replay = Replay.load(folder)
    if not replay.stamped:
        return None
    started = time.perf_counter()
    out = work / folder.name
    replay.start(out)
    t = 0.0
    sink = Collect()
    raised_at: dict[int, float] = {}
    origin = replay.origin
    assert origin is not None
    # --idle an hour: the replay measures the alerts, not when a quiet job is given up on
    # (a hang at the first collective is silent for its whole 10-minute timeout)
    opts = WatchOptions(poll_s=1.0, idle_s=3600.0, rule=rule or Rule(),
                        ingest=IngestOptions(workers=1, echo_problems=False))
    session = Session(str(out), sink, opts, clock=lambda: t, wall=lambda: origin + timedelta(seconds=t))
    finished = False
    while True:
        replay.write_until(t)
        if replay.done and not finished:
            replay.finish()
            finished = True
        ended = session.step()
        for v in sink.alerts:
            raised_at.setdefault(v.alert.id, t)
        # a quiet stretch longer than --idle ends a real watch; here the replay goes on
        # to its last line, so that the final verdict reads the same files as analyze
        if (ended and replay.done) or (replay.done and t > replay.duration + opts.idle_s + 5):
            break
        nxt = replay.next_time()
        gap = (nxt - t) if nxt is not None else None
        quiet_for = t - (session.follower.last_growth or 0.0)
        if replay.done and quiet_for > 700 and not session.alerts.standing:
            t += 60.0  # only the idle end is left to wait for
        else:
            t += 1.0 if (gap is not None and gap <= 1.0) or quiet_for < 400 else 5.0
    final = session.final()
    expected = analyze(str(folder), options=IngestOptions(workers=1, echo_problems=False))
    final_equal = final is not None and final.model_dump(mode="json") == expected.model_dump(mode="json")
    alerts = [v for v in sink.alerts if v.alert.kind != "recovered"]
    withdrawn = {v.alert.withdraws for v in sink.alerts if v.alert.kind == "recovered"}
    first: RunningVerdict | None = alerts[0] if alerts else None
    right = early = None
    delay = before_echo = None
    if expected.status == "failed" and first is not None:
        right = _same(first, expected)
        t_alert = raised_at[first.alert.id]
        ev = expected.root_cause.evidence if expected.root_cause else None
        t_root = replay.at.get((ev.file, ev.line_no)) if ev else None
        echoes = [replay.at.get((c.first.file, c.first.line_no)) for c in expected.collateral]
        echoes = [e for e in echoes if e is not None]
        if t_root is not None:
            delay = round(t_alert - t_root, 1)
        if echoes:
            before_echo = round(min(echoes) - t_alert, 1)
        # a hang: its root-cause line is the silent rank's last, so "early" is before the
        # peers' first echo (their timeouts); any other failure: soon after its own line
        hang = expected.root_cause is not None and expected.root_cause.category == "nccl_timeout_hang"
        if hang and before_echo is not None:
            early = before_echo > 0
        else:
            early = delay is not None and delay <= early_s
    elif expected.status == "failed":
        right, early = False, False
    false_alarms = sum(1 for v in alerts if v.alert.id not in withdrawn) if expected.status == "healthy" else 0
    return Row(
        folder=str(folder.relative_to(ROOT)) if folder.is_relative_to(ROOT) else str(folder),
        status=expected.status, expected=_who(expected),
        first_alert=_who(first) if first else None, first_alert_kind=first.alert.kind if first else None,
        right=right, early=early, delay_s=delay, before_echo_s=before_echo, alerts=len(alerts),
        false_alarms=false_alarms, withdrawn=len(withdrawn), final_equal=final_equal,
        seconds=round(time.perf_counter() - started, 1),
    )


def _stamped_folders(limit: int, status: str | None = None, skip: int = 0) -> list[Path]:
    """The first ``limit`` scenario folders (sorted, top level first) whose logs carry
    stamps (and whose truth.json says ``status``, if given), after the first ``skip``."""
    found: list[Path] = []
    tops = sorted(p.parent for p in (ROOT / "sample_logs").glob("*/truth.json"))
    deeper = sorted(p.parent for p in (ROOT / "sample_logs").glob("*/*/truth.json"))
    for folder in tops + deeper:
        if len(found) >= limit + skip:
            break
        if status is not None and json.loads((folder / "truth.json").read_text()).get("status") != status:
            continue
        if Replay.load(folder).stamped:
            found.append(folder)
    return found[skip:]


def _hang_folders(limit: int) -> list[Path]:
    """Stamped folders whose truth.json's category is a hang (``nccl_timeout_hang``)."""
    found: list[Path] = []
    for truth in sorted((ROOT / "sample_logs").glob("**/truth.json")):
        if len(found) >= limit:
            break
        cause = json.loads(truth.read_text()).get("root_cause") or {}
        if cause.get("category") == "nccl_timeout_hang" and Replay.load(truth.parent).stamped:
            found.append(truth.parent)
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--pick", type=int, default=0, help="take the first N stamped scenario folders")
    ap.add_argument("--healthy", type=int, default=0, help="add the first N stamped healthy folders")
    ap.add_argument("--hangs", type=int, default=0, help="add the first N stamped folders whose truth is a hang")
    ap.add_argument("--min-silence", type=float, default=Rule().min_silence_s, help="the silence rule's floor")
    ap.add_argument("--early", type=float, default=5.0, help="seconds after the root-cause line still 'early'")
    ap.add_argument("--json", type=Path, help="write the rows as JSON (rewritten after each folder)")
    ap.add_argument("--from-json", type=Path,
                    help="replay the folders an earlier run's --json lists (finding the stamped folders "
                         "among all 800-odd is an ingest of each: most of a --pick 1000 run)")
    ap.add_argument("--table", type=Path, nargs="+", metavar="JSON",
                    help="print the per-folder table of a run's --json (and, given a second, the rows that "
                         "differ between the two) instead of replaying")
    ap.add_argument("--part", default="1/1", help="K/N: every Nth folder from the Kth, to share a run among N processes")
    args = ap.parse_args(argv)
    if args.table:
        runs = [[Row(**r) for r in json.loads(p.read_text())] for p in args.table]
        print(table(runs[-1]))
        if len(runs) == 2:
            print(differences(*runs))
        return 0
    folders = [f.resolve() for f in args.folders]
    if args.from_json:
        folders += [ROOT / _rel(r["folder"]) for r in json.loads(args.from_json.read_text())]
    folders += _stamped_folders(args.pick)
    folders += [f for f in _stamped_folders(args.healthy, "healthy") if f not in folders]
    folders += [f for f in _hang_folders(args.hangs) if f not in folders]
    k, n = (int(x) for x in args.part.split("/"))
    folders = folders[k - 1::n]
    rule = Rule(min_silence_s=args.min_silence)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="watch-replay-") as work:
        for folder in folders:
            row = replay_one(folder, Path(work), args.early, rule)
            if row is None:
                print(f"{folder.name}: no stamps, skipped", file=sys.stderr)
                continue
            rows.append(row)
            if args.json:
                _write_json(args.json, rows)
            print(f"{row.folder:60s} {row.status:12s} analyze: {row.expected:10s} first alert: "
                  f"{(row.first_alert or '-'):10s} {(row.first_alert_kind or ''):12s} right={_yn(row.right)} "
                  f"early={_yn(row.early)} delay={row.delay_s} before_echo={row.before_echo_s} "
                  f"false={row.false_alarms} withdrawn={row.withdrawn} final=analyze:{_yn(row.final_equal)} "
                  f"({row.seconds}s)", flush=True)
    failed = [r for r in rows if r.status == "failed"]
    healthy = [r for r in rows if r.status == "healthy"]
    print(f"\n{len(rows)} folders: failed {len(failed)}, healthy {len(healthy)}, "
          f"other {len(rows) - len(failed) - len(healthy)}")
    print(f"alerts right: {sum(bool(r.right) for r in failed)}/{len(failed)}; "
          f"early: {sum(bool(r.early) for r in failed)}/{len(failed)}; "
          f"false alarms on healthy jobs: {sum(r.false_alarms for r in healthy)} "
          f"(in {sum(1 for r in healthy if r.false_alarms)}/{len(healthy)} jobs; withdrawn: "
          f"{sum(r.withdrawn for r in healthy)}); final = analyze: {sum(r.final_equal for r in rows)}/{len(rows)}")
    if args.json:
        _write_json(args.json, rows)
    return 0


def _rel(folder: str) -> str:
    """A row's folder from ``sample_logs/`` on (rows of a run from another checkout compare)."""
    return folder[folder.index("sample_logs/"):] if "sample_logs/" in folder else folder


def _group(folder: str) -> str:
    parts = Path(folder).parts
    return parts[-2] if len(parts) >= 3 and parts[-3] == "sample_logs" else "(top level)"


def table(rows: list[Row]) -> str:
    """The README's per-folder table: stamped folders, alerts right / early of the failed
    ones, false alarms (and withdrawn alerts) of the healthy ones, final = analyze."""
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(_group(r.folder), []).append(r)
    out = ["| folder | stamped folders | alerts right | alerts early | healthy: false alarms (withdrawn alerts) "
           "| final = analyze |", "| --- | --- | --- | --- | --- | --- |"]

    def line(name: str, rs: list[Row]) -> str:
        failed = [r for r in rs if r.status == "failed"]
        healthy = [r for r in rs if r.status == "healthy"]
        return (f"| {name} | {len(rs)} | {sum(bool(r.right) for r in failed)}/{len(failed)} | "
                f"{sum(bool(r.early) for r in failed)}/{len(failed)} | "
                f"{sum(1 for r in healthy if r.false_alarms)}/{len(healthy)} ({sum(r.withdrawn for r in healthy)}) | "
                f"{sum(r.final_equal for r in rs)}/{len(rs)} |")

    for name in sorted(groups, key=lambda g: (g != "(top level)", g)):
        out.append(line(f"`{name}`", groups[name]))
    out.append(line("**all**", rows))
    return "\n".join(out)


def differences(before: list[Row], after: list[Row]) -> str:
    """The folders whose first alert, right, early, false alarms or final verdict changed."""
    keys = ("first_alert", "first_alert_kind", "right", "early", "false_alarms", "withdrawn", "final_equal")
    old = {_rel(r.folder): r for r in before}
    out = []
    for r in after:
        b = old.get(_rel(r.folder))
        if b is None:
            out.append(f"{r.folder}: only in the second run")
            continue
        changed = [f"{k}: {getattr(b, k)} -> {getattr(r, k)}" for k in keys if getattr(b, k) != getattr(r, k)]
        if changed:
            out.append(f"{r.folder}: " + "; ".join(changed))
    missing = sorted(set(old) - {_rel(r.folder) for r in after})
    out += [f"{f}: only in the first run" for f in missing]
    return "\n".join(out) or "(no folder differs)"


def _write_json(path: Path, rows: list[Row]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps([asdict(r) for r in rows], indent=2))
    tmp.replace(path)


def _yn(v: bool | None) -> str:
    return "-" if v is None else ("yes" if v else "NO")


if __name__ == "__main__":
    os.environ.setdefault("POLARS_MAX_THREADS", "1")
    sys.exit(main())
