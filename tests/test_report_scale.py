"""Reports and exports at scale: what they keep bounded, and what they must still say.

- the Perfetto trace spans the job, not the weeks a dmesg reaches back to boot, and
  counts the node lines it leaves out;
- the HTML report of a 1,024-rank job stays under 500 KB and still names (and
  anchors) every line it cites;
- the terminal story of a 1,024-rank job fits a screen, rank lists counted as ranges;
- a batch's shared outputs never hold a planted secret, wherever it was planted;
- the event sample drawn without window functions is the one the window query draws.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from correlator import synth
from correlator.analysis.analyze import _report_events, analysis_open
from correlator.batch.run import BatchOptions, run_batch
from correlator.ingest import IngestOptions, ingest
from correlator.report.common import anchor, evidence_lines, make_lanes, report_data_on, span
from correlator.report.html import render_html
from correlator.report.perfetto import perfetto_trace, step_events, trace_span
from correlator.report.sample import report_events
from correlator.report.text import render

QUIET = IngestOptions(echo_problems=False, exclude=("truth.json",))


def _timeline(job: Path, base: Path) -> str:
    tl = base / "timeline.parquet"
    ingest(str(job), out_parquet=str(tl), options=QUIET)
    return str(tl)


# --------------------------------------------------------------------------- Perfetto span


@pytest.fixture(scope="module")
def dmesg_job(tmp_path_factory) -> str:
    """8 ranks on 4 nodes; the generator writes some nodes' dmesg as ``dmesg -T``,
    stamped from boot, days to weeks before the job."""
    base = tmp_path_factory.mktemp("span")
    synth.generate_job(base / "job", ranks=8, nodes=4, size="400KB", seed=3)
    return _timeline(base / "job", base)


def test_perfetto_trace_spans_the_job_and_counts_the_boot_lines(dmesg_job):
    with analysis_open(dmesg_job, options=QUIET) as (v, con):
        events = report_events(con, 20000)
        steps = step_events(con, v)
        window = trace_span(con, v)
        # the job's own lines (every rank's) bound it; the kernel's boot lines do not
        rank_lo, rank_hi = con.execute(
            "SELECT epoch_us(min(ts_aligned)), epoch_us(max(ts_aligned)) FROM events WHERE rank IS NOT NULL"
        ).fetchall()[0]
        early = dict(con.execute(
            "SELECT node, count(*) FROM events WHERE epoch_us(ts_aligned) < ? GROUP BY node",
            [window.start_us]).fetchall())
        oldest = con.execute("SELECT epoch_us(min(ts_aligned)) FROM events").fetchall()[0][0]
    assert early and rank_hi - oldest > 2 * 86400e6, "the job must hold kernel lines from days before it"
    assert window.start_us <= rank_lo and window.end_us >= rank_hi
    assert window.end_us - window.start_us < (rank_hi - rank_lo) * 1.2 + 700e6  # the job plus its margin

    trace = perfetto_trace(v, events, steps, window=window)
    timed = [e for e in trace["traceEvents"] if e["ph"] != "M"]
    assert all(window.start_us <= e["ts"] <= window.end_us for e in timed), "nothing drawn outside the span"
    # each node with lines before the span has one instant on its own track that counts them
    procs = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"] if e["name"] == "process_name"}
    summaries = [e for e in timed if e.get("cat") == "outside_span"]
    counted = {procs[e["pid"]]: e["args"]["lines"] for e in summaries if e["ts"] == window.start_us}
    assert counted == early
    assert all(e["ts"] == window.start_us and "before the job" in e["name"] for e in summaries
               if e["args"]["node"] in early)
    info = trace["otherData"]["outside_span"]
    assert info["events"] == sum(early.values())
    assert {k for k, o in info["per_node"].items() if o["before"]} == set(early)


def test_perfetto_trace_without_a_timeline_still_summarises(dmesg_job):
    # a caller with only the sample: the window from the sample, its own outside lines counted
    with analysis_open(dmesg_job, options=QUIET) as (v, con):
        events = report_events(con, 20000)
    trace = perfetto_trace(v, events)
    window = trace["otherData"]["window"]
    assert window is not None
    outside = trace["otherData"]["outside_span"]
    assert outside["events"] > 0
    assert any(e.get("cat") == "outside_span" for e in trace["traceEvents"])


# --------------------------------------------------------------------------- the sample


def test_sample_without_windows_is_the_window_querys(dmesg_job):
    """The same rows as the one-query form (ties in time aside, the same order too)."""
    key = ["file", "line_no", "rule_id", "role", "ts_aligned", "message"]
    for max_events in (50, 20000):
        with analysis_open(dmesg_job, options=QUIET) as (_v, con):
            fast = report_events(con, max_events)
            slow = _report_events(con, max_events)
        assert fast.num_rows == slow.num_rows == min(max_events, slow.num_rows)
        as_set = lambda t: {tuple(r[k] for k in key) for r in t.select(key).to_pylist()}  # noqa: E731
        assert as_set(fast) == as_set(slow)


# --------------------------------------------------------------------------- 1,024 ranks


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("ranks1024")
    synth.generate_job(base / "job", ranks=1024, nodes=128, size="10MB", seed=1)
    tl = _timeline(base / "job", base)
    with analysis_open(tl, options=QUIET) as (v, con):
        data = report_data_on(con, v)
    return {"verdict": v, "events": data.events, "facts": data.facts}


def test_html_report_at_1024_ranks_is_small_and_names_every_cited_line(big):
    v, events = big["verdict"], big["events"]
    page = render_html(v, events, big["facts"], redact=False)
    size = len(page.encode())
    assert size < 500_000, f"{size:,} bytes"
    lines = evidence_lines(v, events, make_lanes(events, v.ranks))
    assert len(lines) > 200  # echoes on many ranks: the case the references are for
    for ln in lines:
        assert f'id="{anchor(ln.ev.file, ln.ev.line_no)}"' in page, ln.ev.file
        assert f"{ln.ev.file}:{span(ln.ev)}" in page
    # and no link in the page points nowhere
    import re

    ids = set(re.findall(r'id="(L-[^"]+)"', page))
    assert set(re.findall(r'href="#(L-[^"]+)"', page)) <= ids


def test_terminal_story_at_1024_ranks_fits_a_screen(big):
    v = big["verdict"]
    text = render(v)
    rows = sum(max(1, math.ceil(len(line) / 120)) for line in text.splitlines())
    assert rows <= 60, text
    assert v.collateral
    for c in v.collateral[:8]:
        if c.ranks:
            assert f"on {len(c.ranks)} ranks (" in text  # counted, then the ranges
    assert any("-" in line and "ranks (" in line for line in text.splitlines())


# --------------------------------------------------------------------------- batch


SECRET = "hf_PlantedSecretForTheSharedOutputs0123"
AWS = "AKIAPLANTEDKEY012345"


def test_batch_shared_outputs_never_hold_a_planted_secret(tmp_path):
    root = tmp_path / "jobs"
    synth.generate_job(root / "job-a", ranks=4, nodes=2, size="200KB", seed=5)
    synth.generate_job(root / "job-b", ranks=4, nodes=2, size="200KB", seed=6)
    job = root / "job-a"
    rank_log = sorted(p for p in job.rglob("*.log") if "rank" in p.name)[0]
    with rank_log.open("a") as fh:  # in a message, in an env dump, in a URL
        fh.write(f"export HF_TOKEN={SECRET}\nAWS_ACCESS_KEY_ID={AWS}\n"
                 f"git clone https://user:{SECRET}@example.com/repo\n")
    (job / f"env-{SECRET}.log").write_text(f"WANDB_API_KEY={SECRET}\n")  # in a file name
    out = tmp_path / "out"
    res = run_batch(str(root), str(out), BatchOptions(workers=1, exclude=("truth.json",)), progress=None)
    assert res.errors == 0, [r.get("error") for r in res.rows]
    shared = [p for p in out.rglob("*") if p.is_file()]
    assert {p.name for p in shared} >= {"summary.parquet", "index.html", "job-a.html", "job-a.json",
                                        "job-a.parquet", "job-b.parquet"}
    masked_seen = False
    for p in shared:
        if p.suffix == ".parquet":
            pf = pq.ParquetFile(p)
            text = json.dumps(pf.read().to_pylist(), default=str) + repr(pf.schema_arrow.metadata)
        else:
            text = p.read_bytes().decode("utf-8", "replace")
        assert SECRET not in text and AWS not in text, p
        masked_seen |= "hf_***" in text
    assert masked_seen  # the lines were kept, their secrets masked
    # the job with no secret keeps every event
    tl = pq.read_table(out / "timelines" / "job-b.parquet", columns=["line_no"])
    assert tl.num_rows == next(r["events"] for r in res.rows if r["job"] == "job-b")


def test_many_steps_come_back_as_each_ranks_first_and_last(dmesg_job):
    """Past the limit, step_events gives each rank's first and last step and its count:
    the phases are the same as from every step line, with no per-step slice."""
    with analysis_open(dmesg_job, options=QUIET) as (v, con):
        every = step_events(con, v)
        ends = step_events(con, v, limit=0)
    ranks = set(every.column("rank").to_pylist())
    assert ranks and ends.num_rows == 2 * len(ranks)
    counts = {r: every.column("rank").to_pylist().count(r) for r in ranks}
    assert {r["rank"]: r["n"] for r in ends.to_pylist()} == counts

    def phases(trace: dict) -> dict:
        return {(e["tid"], e["name"]): e["args"].get("steps") for e in trace["traceEvents"]
                if e["ph"] == "X" and e.get("cat") == "phase"}

    empty = every.slice(0, 0)
    full = perfetto_trace(v, empty, every)
    cut = perfetto_trace(v, empty, ends)
    assert phases(cut) == phases(full) and any(k[1].startswith("training") for k in phases(cut))
    assert not [e for e in cut["traceEvents"] if e.get("cat") == "step"]
