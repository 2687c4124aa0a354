"""Reports (HTML, Markdown, Perfetto) and redaction, on a small job built here with its
own rules, so nothing depends on the content of rules/.

The job: 6 ranks on 3 nodes; rank 4 (node-2) raises BoomError, the others then
report their peer went away. node-2 runs an older PyTorch (collect_env) and has an
Xid 79 in its kernel log. Rank 4 printed an environment dump full of secrets just
before failing, so they sit in the first deviating line's context.
"""

from __future__ import annotations

import html as htmllib
import json
import re
from collections import defaultdict
from pathlib import Path

import pyarrow as pa
import pytest
import yaml
from click.testing import CliRunner

from correlator.analysis.analyze import REPORT_EVENT_COLUMNS, analyze_with_events
from correlator.ingest import IngestOptions, ingest
from correlator.report.common import env_matrix, load_report_data, make_lanes
from correlator.report.html import render_html
from correlator.report.markdown import render_markdown
from correlator.report.perfetto import perfetto_trace, step_events
from correlator.report.redact import (
    MASK,
    SECRETS,
    redact,
    redact_array,
    redact_table,
    redact_verdict,
)
from correlator.target import open_timeline

QUIET = IngestOptions(echo_problems=False, workers=1)

# Planted secrets: each must vanish from every report, and each is printed in a
# shape real jobs print it.
PLANTED = {
    "hf": ("HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"),
    "wandb": ("WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567", "0123456789abcdef0123456789abcdef01234567"),
    "aws-id": ("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    "aws-secret": ("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                   "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    "github": ("GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345", "ghp_0123456789abcdefghijABCDEFGHIJ012345"),
    "github-pat": ("pip install git+https://github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzAB@github.com/o/r",
                   "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzAB"),
    "password": ("connecting to metrics db with password=hunter2hunter2", "hunter2hunter2"),
    "bearer": ("GET /v1/shards Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.cGF5bG9hZA.c2lnbmF0dXJl",
               "eyJhbGciOiJIUzI1NiJ9.cGF5bG9hZA.c2lnbmF0dXJl"),
    "url": ("BoomError: bad sample from https://alice:s3cr3tpw@data.example.com/shard-7", "s3cr3tpw"),
}
SECRET_VALUES = [v for _, v in PLANTED.values()]


def _rule(rid: str, role: str, category: str, regex: str, example: str, **extra) -> dict:
    return {
        "id": rid, "title": f"{rid} title", "category": category, "role": role, "signature": example,
        "match": {"regex": regex}, "root_cause": f"{rid} cause", "fix": f"{rid} fix", "verify": f"{rid} --verify",
        "evidence": {"kind": "observed", "provenance": "test"}, "examples": [example], **extra,
    }


BOOM = _rule("boom", "root", "data_error", "BoomError", "BoomError: bad sample", leads_to=["peer-gone"])
PEER = _rule("peer-gone", "collateral", "nccl_network", "peer went away", "RuntimeError: peer went away")


def _collect_env(torch: str, cuda: str) -> str:
    return (
        "Collecting environment information...\n"
        f"PyTorch version: {torch}\nIs debug build: False\nCUDA used to build PyTorch: {cuda}\n"
        "ROCM used to build PyTorch: N/A\n\nOS: Ubuntu 22.04.4 LTS (x86_64)\n\n"
        "Python version: 3.11.10 (main, Oct  3 2024, 07:29:13) [GCC 11.2.0] (64-bit runtime)\n"
        "Is CUDA available: True\nNvidia driver version: 550.90.07\n\n"
        "Versions of relevant libraries:\n[pip3] numpy==1.26.4\n"
        f"[pip3] torch=={torch.split('+')[0]}\n"
    )


def _ts(s: int) -> str:
    return f"2024-05-01 12:{s // 60:02d}:{s % 60:02d},000"


def build_job(root: Path, ranks_per_node: int = 2, nodes: int = 3, culprit: int = 4) -> Path:
    """The job described in the module docstring (culprit on the last node)."""
    for n in range(nodes):
        for lr in range(ranks_per_node):
            r = n * ranks_per_node + lr
            lines = [f"{_ts(s)} - INFO - __main__ - step {s} | rank {r} | loss 1.{s}" for s in range(1, 11)]
            if r == culprit:
                lines += [f"{_ts(11)} - INFO - __main__ - env: {text}" for key, (text, _) in PLANTED.items()
                          if key != "url"]
                lines += ["Traceback (most recent call last):", '  File "train.py", line 7, in <module>',
                          PLANTED["url"][0]]
            else:
                lines.append(f"{_ts(40)} - ERROR - __main__ - RuntimeError: peer went away")
            p = root / f"node-{n}" / f"rank{r}.log"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text("\n".join(lines) + "\n")
        old = n == nodes - 1
        (root / f"node-{n}" / "collect_env.txt").write_text(
            _collect_env("2.4.1+cu121" if old else "2.5.1+cu124", "12.1" if old else "12.4"))
    (root / f"node-{nodes - 1}" / "kern.log").write_text(
        f"May  1 12:00:10 node-{nodes - 1} kernel: NVRM: Xid (PCI:0000:3a:00): 79, pid=4242, name=python, "
        "GPU has fallen off the bus.\n")
    return root


def rules_dir(root: Path) -> str:
    d = root / "rules"
    d.mkdir(parents=True, exist_ok=True)
    for doc in (BOOM, PEER):
        (d / f"{doc['id']}.yaml").write_text(yaml.safe_dump(doc))
    return str(d)


@pytest.fixture(scope="module")
def job(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("reports")
    path = build_job(base / "job")
    rules = rules_dir(base)
    data = load_report_data(str(path), rules_dirs=(rules,), builtin_rules=False, options=QUIET)
    return {"path": path, "rules": rules, "data": data, "base": base}


# --------------------------------------------------------------------------- the verdict the reports draw


def test_the_job_analyses_as_designed(job):
    v = job["data"].verdict
    assert v.status == "failed" and v.initiating.rank == 4 and v.initiating.node == "node-2"
    assert v.root_cause.rule_id == "boom"
    assert v.collateral and v.collateral[0].rule_id == "peer-gone"
    assert job["data"].facts.num_rows >= 4  # three collect_env reports and the Xid
    assert set(job["data"].events.column_names) == set(REPORT_EVENT_COLUMNS)


# --------------------------------------------------------------------------- HTML


def _ids_and_links(page: str) -> tuple[set[str], set[str]]:
    ids = set(re.findall(r'\sid="([^"]+)"', page))
    links = set(re.findall(r'href="#([^"]+)"', page))
    return ids, links


def test_html_is_self_contained(job):
    d = job["data"]
    page = render_html(d.verdict, d.events, d.facts)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    # nothing to fetch: no external script, stylesheet, image, font or import
    assert not re.search(r"<(script|img|link|iframe)[^>]*\s(src|href)=", page, re.I)
    assert "@import" not in page and "url(" not in page
    assert not re.search(r'(src|href)="(https?:)?//', page)
    assert "default-src 'none'" in page  # the CSP forbids fetches even from injected content


def test_html_summary_card_carries_the_verdict(job):
    d = job["data"]
    page = htmllib.unescape(render_html(d.verdict, d.events, d.facts))
    card = page[page.index('id="summary"'):page.index('id="timeline"')]
    for needle in ("failed", "rank 4, node node-2", "boom title", "[data_error]", "boom fix", "boom --verify",
                   "boom cause", f"confidence {d.verdict.initiating.confidence:.2f}", "Xid on PCI 0000:3a:00", "node-2/rank4.log:"):
        assert needle in card, needle


def test_html_chart_has_a_lane_per_rank_grouped_by_node(job):
    d = job["data"]
    page = render_html(d.verdict, d.events, d.facts)
    svg = page[page.index("<svg"):page.index("</svg>")]
    lanes = re.findall(r'<g class="lane" data-lane="([^"]+)" data-group="([^"]*)"', svg)
    rank_lanes = [(k, g) for k, g in lanes if k.startswith("r")]
    assert sorted(int(k[1:]) for k, _ in rank_lanes) == list(range(6))
    assert dict(rank_lanes)["r4"] == "node-2" and dict(rank_lanes)["r0"] == "node-0"
    assert f'data-lanes="{len(lanes)}"' in svg and 'data-mode="rank"' in svg
    # lanes of one node are adjacent (grouped)
    groups = [g for _, g in lanes]
    assert all(groups.index(g) + groups.count(g) - 1 == len(groups) - 1 - groups[::-1].index(g) for g in set(groups))
    assert 'class="root-cause"' in svg and 'class="first-deviating"' in svg
    assert svg.count('class="finding collateral"') >= 5  # ranks 0-3 and 5 each echo the failure


def test_html_marks_link_to_lines_that_exist(job):
    d = job["data"]
    page = render_html(d.verdict, d.events, d.facts)
    ids, links = _ids_and_links(page)
    assert links and links <= ids, links - ids
    root = d.verdict.root_cause.evidence
    from correlator.report.common import anchor

    assert anchor(root.file, root.line_no) in links
    # every collateral rank's first echo is cited, so each chart mark has its line
    lines_section = page[page.index('id="lines"'):]
    for r in (0, 1, 2, 3, 5):
        assert f"rank{r}.log:" in lines_section


def test_html_first_deviation_context_collateral_env_gpu_hypotheses(job):
    d = job["data"]
    page = htmllib.unescape(render_html(d.verdict, d.events, d.facts))
    fd = page[page.index('id="first-deviating"'):page.index('id="collateral"')]
    assert "BoomError: bad sample" in fd and "step 10" in fd  # the line and what led up to it
    coll = page[page.index('id="collateral"'):page.index('id="environment"')]
    assert "peer-gone title" in coll and "5 ranks (0-3,5)" in coll
    env = page[page.index('id="environment"'):page.index('id="gpu"')]
    # node-2's older torch is the highlighted cell; the majority value is not
    assert re.search(r'<td class="dev"[^>]*>2\.4\.1\+cu121</td>', env)
    assert not re.search(r'<td class="dev"[^>]*>2\.5\.1\+cu124</td>', env)
    assert "pip.torch" in env
    gpu = page[page.index('id="gpu"'):page.index('id="hypotheses"')]
    assert "Xid 79" in gpu and "0000:3a:00" in gpu and "node-2" in gpu
    hyp = page[page.index('id="hypotheses"'):]
    assert "chosen" in hyp


def test_env_matrix_majority_and_tie():
    def facts(rows):
        return pa.Table.from_pylist([
            {"node": n, "rank": None, "source": "collect_env", "kind": "collect_env.report", "file": f"{n}/c.txt",
             "line_no": 1, "ts": None, "level": "INFO", "attrs": list(a.items()), "message": ""}
            for n, a in rows], schema=report_facts_schema())
    m = env_matrix(facts([("n1", {"pytorch_version": "2.5"}), ("n2", {"pytorch_version": "2.5"}),
                          ("n10", {"pytorch_version": "2.4"})]))
    assert m.rows == ["n1", "n2", "n10"]  # natural order
    col = m.columns.index("pytorch_version")
    assert [row[col] for row in m.deviating] == [False, False, True]
    tie = env_matrix(facts([("a", {"pytorch_version": "2.5"}), ("b", {"pytorch_version": "2.4"})]))
    assert all(row[0] for row in tie.deviating)  # no majority: both cells flagged


def report_facts_schema() -> pa.Schema:
    from correlator.report.common import FACTS_SCHEMA

    return FACTS_SCHEMA


def _large_events(ranks: int = 1024, per_node: int = 8, per_rank: int = 12) -> pa.Table:
    """A report event table shaped like a 1,024-rank job's: steps on every rank, one
    root finding and a collateral echo on every other rank."""
    import datetime as dt

    t0 = dt.datetime(2024, 5, 1, 12, 0, tzinfo=dt.UTC)
    rows = []
    for r in range(ranks):
        node = f"gpu-node-{r // per_node:03d}"
        for s in range(per_rank):
            ts = t0 + dt.timedelta(seconds=s * 10 + (r % 7) * 0.01)
            rows.append({"rank": r, "node": node, "local_rank": r % per_node, "source": "app",
                         "file": f"{node}/rank{r}.log", "line_no": s + 1, "line_end": s + 1, "ts": ts,
                         "ts_aligned": ts, "level": "INFO", "kind": "app.step_metrics", "template": "step <N> loss <N>",
                         "message": f"step {s} loss 1.0", "rule_id": None, "role": None})
        ts = t0 + dt.timedelta(seconds=(per_rank + 60) * 10)
        role, rule = ("root", "boom") if r == 77 else ("collateral", "peer-gone")
        rows.append({"rank": r, "node": node, "local_rank": r % per_node, "source": "python",
                     "file": f"{node}/rank{r}.log", "line_no": per_rank + 1, "line_end": per_rank + 3,
                     "ts": ts, "ts_aligned": ts, "level": "ERROR", "kind": "python.traceback", "template": "x",
                     "message": "Traceback (most recent call last):\n  File \"t.py\"\nRuntimeError: peer went away",
                     "rule_id": rule, "role": role})
    return pa.Table.from_pylist(rows)


def test_large_job_collapses_to_nodes_and_stays_small(job):
    from correlator.verdict import Collateral, Evidence, Initiating, RootCause, Verdict

    events = _large_events()
    root = events.filter(pa.compute.equal(events.column("role"), "root")).to_pylist()[0]
    ev = Evidence(file=root["file"], line_no=root["line_no"], rank=77, node=root["node"], ts=root["ts"],
                  text=root["message"])
    v = Verdict(job="big", ranks=1024, nodes=128, files=1024, events=events.num_rows, status="failed",
                initiating=Initiating(rank=77, node=root["node"], all_ranks=False, confidence=0.8),
                root_cause=RootCause(rule_id="boom", category="data_error", title="Boom", explanation="x",
                                     evidence=ev),
                collateral=[Collateral(rule_id="peer-gone", category="nccl_network", title="peer gone",
                                       ranks=[r for r in range(1024) if r != 77], count=1023, first=ev)])
    page = render_html(v, events, None)
    charts = re.findall(r"<svg class=\"chart\".*?</svg>", page, re.S)
    assert len(charts) == 2  # the whole job, and a zoom on the failure 10 minutes after the last step
    for svg in charts:
        lanes = re.findall(r'<g class="lane" data-lane="([^"]+)"', svg)
        assert 'data-mode="node"' in svg
        assert sorted(lanes) == sorted({f"n{r['node']}" for r in events.select(["node"]).to_pylist()})
    assert len(page.encode()) < 3_000_000
    md = render_markdown(v, events, None)
    assert len(md) < 65_536  # fits a GitHub issue comment


# --------------------------------------------------------------------------- Markdown


def test_markdown_carries_the_same_content(job):
    d = job["data"]
    md = render_markdown(d.verdict, d.events, d.facts)
    for needle in ("# correlator: job — FAILED", "| **Initiating** | rank 4, node node-2 |", "boom title",
                   "boom fix", "`boom --verify`", "## Timeline", "## First deviating line", "BoomError: bad sample",
                   "step 10", "## Collateral", "peer-gone title", "5 ranks (0-3,5)", "## Environment per node",
                   "**⚠ 2.4.1+cu121**", "## GPU and kernel", "Xid 79", "## Hypotheses", "**chosen**",
                   "## Cited lines"):
        assert needle in md, needle
    chart = md[md.index("## Timeline"):md.index("## First deviating line")]
    rows = [ln for ln in chart.splitlines() if re.search(r"rank \d+ \|", ln)]
    assert len(rows) == 6 and "X" in next(r for r in rows if "rank 4 " in r)
    # tables stay tables: no raw newline or unescaped pipe inside a row
    for ln in md.splitlines():
        if ln.startswith("| ") and ln.count("|") > 2:
            assert ln.rstrip().endswith("|")


# --------------------------------------------------------------------------- redaction


@pytest.mark.parametrize("name", list(PLANTED))
def test_redact_masks_each_planted_secret(name):
    text, secret = PLANTED[name]
    out = redact(text)
    assert secret not in out and MASK in out


@pytest.mark.parametrize("text", [
    "tokenizer=gpt2 max_tokens=4096 eos_token_id=2 num_tokens: 512",
    "pad_token: <pad>",
    "commit 0123456789abcdef0123456789abcdef01234567 (git sha, not a W&B key)",
    "Invalid token provided by the client",
    "Reducer buckets have been rebuilt in this iteration. password policy",
    "loading https://huggingface.co/gpt2/resolve/main/config.json",
])
def test_redact_leaves_ordinary_text_alone(text):
    assert redact(text) == text


def test_redact_keeps_what_names_the_secret():
    assert redact("export HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345") == f"export HF_TOKEN=hf_{MASK}"
    assert redact("https://alice:pw@host/x") == f"https://{MASK}@host/x"
    assert redact("Authorization: Bearer abcdefgh12345") == f"Authorization: Bearer {MASK}"
    assert redact("--hub-token abc123xyz --lr 1e-4") == f"--hub-token {MASK} --lr 1e-4"


def test_vectorised_redaction_equals_python():
    texts = [t for t, _ in PLANTED.values()] + [
        "tokenizer=gpt2 pad_token=<pad> password: x1", None, "", "no secret here",
        "wandb: W&B API key is configured 0123456789abcdef0123456789abcdef01234567",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
    ]
    got = redact_array(pa.array(texts, pa.string())).to_pylist()
    assert got == [redact(t) if t is not None else None for t in texts]
    assert all(s.name for s in SECRETS)


def test_redact_table_masks_maps_by_key():
    t = pa.table({"attrs": pa.array([[("HF_TOKEN", "abcdef123456"), ("step", "3")], None],
                                    type=pa.map_(pa.string(), pa.string()))})
    out = redact_table(t).column("attrs").to_pylist()
    assert out == [[("HF_TOKEN", MASK), ("step", "3")], None]


def _all_reports(job, redact_on: bool) -> dict[str, str]:
    d = job["data"]
    return {
        "html": render_html(d.verdict, d.events, d.facts, redact=redact_on),
        "md": render_markdown(d.verdict, d.events, d.facts, redact=redact_on),
        "json": (redact_verdict(d.verdict) if redact_on else d.verdict).model_dump_json(),
        "perfetto": json.dumps(perfetto_trace(d.verdict, d.events, redact=redact_on)),
    }


def test_every_report_masks_planted_secrets(job):
    for fmt, text in _all_reports(job, True).items():
        plain = htmllib.unescape(text) if fmt == "html" else text
        for secret in SECRET_VALUES:
            assert secret not in plain, (fmt, secret)
        assert "data.example.com/shard-7" in plain, fmt  # the URL stays, only its credentials go


def test_no_redact_keeps_secrets(job):
    # the same reports with redaction off do contain them: the test above can fail
    for fmt, text in _all_reports(job, False).items():
        plain = htmllib.unescape(text) if fmt == "html" else text
        assert "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345" in plain, fmt
        assert "s3cr3tpw" in plain, fmt


# --------------------------------------------------------------------------- Perfetto


REQUIRED = {
    "M": {"name", "ph", "pid", "args"},
    "X": {"name", "ph", "ts", "dur", "pid", "tid", "cat"},
    "i": {"name", "ph", "ts", "pid", "tid", "s", "args"},
    "s": {"name", "ph", "ts", "pid", "tid", "id", "cat"},
    "f": {"name", "ph", "ts", "pid", "tid", "id", "cat", "bp"},
}


def validate_trace(trace: dict) -> dict:
    """Structural checks a trace viewer relies on; returns facts for further asserts."""
    assert isinstance(trace["traceEvents"], list) and trace["traceEvents"]
    json.dumps(trace)  # serialisable as is
    procs, threads = {}, {}
    last_ts: dict[tuple, float] = {}
    open_slices: dict[tuple, list] = defaultdict(list)
    flows: dict[int, dict] = defaultdict(dict)
    for e in trace["traceEvents"]:
        ph = e["ph"]
        assert ph in REQUIRED, ph
        assert REQUIRED[ph] <= set(e), (ph, REQUIRED[ph] - set(e))
        if ph == "M":
            if e["name"] == "process_name":
                procs[e["pid"]] = e["args"]["name"]
            elif e["name"] == "thread_name":
                threads[(e["pid"], e["tid"])] = e["args"]["name"]
            continue
        assert isinstance(e["ts"], int) and e["ts"] > 0
        key = (e["pid"], e["tid"])
        assert key in threads, f"event on an unnamed track {key}"
        assert e["ts"] >= last_ts.get(key, 0), "timestamps must not go back on a track"
        last_ts[key] = e["ts"]
        if ph == "X":
            assert e["dur"] >= 0
            stack = open_slices[key]
            while stack and stack[-1] <= e["ts"] and stack[-1] != e["ts"]:
                stack.pop()
            while stack and stack[-1] <= e["ts"]:
                stack.pop()
            end = e["ts"] + e["dur"]
            assert not stack or end <= stack[-1], "slices on a track must nest, not overlap"
            stack.append(end)
        if ph == "i":
            assert e["s"] in ("t", "p", "g")
        if ph in ("s", "f"):
            assert e["id"] not in flows or ph not in flows[e["id"]], "one start and one end per flow id"
            flows[e["id"]][ph] = e
    assert all(set(f) == {"s", "f"} for f in flows.values()), "every flow has a start and an end"
    return {"procs": procs, "threads": threads, "flows": flows}


def _trace_for(job) -> tuple[dict, object]:
    base: Path = job["base"]
    tl = base / "timeline.parquet"
    if not tl.exists():
        ingest(str(job["path"]), out_parquet=str(tl), options=QUIET)
    v, events = analyze_with_events(str(tl), rules_dirs=(job["rules"],), builtin_rules=False, options=QUIET)
    with open_timeline(str(tl)) as con:
        steps = step_events(con, v)
    return perfetto_trace(v, events, steps), v


def test_perfetto_trace_structure(job):
    trace, _v = _trace_for(job)
    facts = validate_trace(trace)
    assert set(facts["procs"].values()) >= {"node-0", "node-1", "node-2"}
    rank_threads = {name for name in facts["threads"].values() if name.startswith("rank ")}
    assert rank_threads == {f"rank {r}" for r in range(6)}
    # each rank's track lives in its node's process
    by_name = {name: key for key, name in facts["threads"].items()}
    assert facts["procs"][by_name["rank 4"][0]] == "node-2" and facts["procs"][by_name["rank 1"][0]] == "node-0"
    instants = [e for e in trace["traceEvents"] if e["ph"] == "i"]
    assert instants and all({"level", "template"} <= set(e["args"]) for e in instants)


def test_perfetto_phases_and_flows(job):
    trace, _v = _trace_for(job)
    facts = validate_trace(trace)
    by_name = {name: key for key, name in facts["threads"].items()}
    slices = [e for e in trace["traceEvents"] if e["ph"] == "X"]

    def on(rank: int) -> list[str]:
        return [e["name"] for e in slices if (e["pid"], e["tid"]) == by_name[f"rank {rank}"]]

    names0 = on(0)
    assert any(n.startswith("training (steps 1–10)") for n in names0)
    assert "hang / failure" in names0  # rank 0 failed 30 s after its last step
    assert sum(n.startswith("step ") for n in names0) == 9
    assert any(n.startswith("root cause: boom title") for n in on(4))
    # arrows: from the root cause on rank 4 to each other rank's first echo
    starts = [f["s"] for f in facts["flows"].values()]
    ends = [f["f"] for f in facts["flows"].values()]
    assert {(s["pid"], s["tid"]) for s in starts} == {by_name["rank 4"]}
    assert {facts["threads"][(e["pid"], e["tid"])] for e in ends} == {f"rank {r}" for r in (0, 1, 2, 3, 5)}


def test_export_command_writes_a_valid_trace(job, tmp_path):
    from correlator.cli.reports import export_cmd

    out = tmp_path / "trace.json"
    res = CliRunner().invoke(export_cmd, [str(job["path"]), "--format", "perfetto", "--out", str(out),
                                          "--rules", job["rules"], "--no-builtin", "--workers", "1"])
    assert res.exit_code == 0, res.output
    trace = json.loads(out.read_text())
    validate_trace(trace)
    assert trace["otherData"]["job"] == "job" and trace["otherData"]["status"] == "failed"
    assert "hunter2hunter2" not in out.read_text()


def test_render_report_helper_for_analyze(job):
    from correlator.cli.reports import render_report

    v, md = render_report("md", str(job["path"]), rules_dirs=(job["rules"],), builtin_rules=False, options=QUIET)
    assert v.initiating.rank == 4 and "boom fix" in md and "hf_AbCd" not in md
    _, page = render_report("html", str(job["path"]), rules_dirs=(job["rules"],), builtin_rules=False,
                            options=QUIET, redact=False)
    assert "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345" in page


def test_lanes_for_rankless_lines():
    # node-level lines (dmesg) get their node's lane; lines with neither rank nor node one "other" lane
    t = pa.Table.from_pylist([{"rank": 0, "node": "a"}, {"rank": 1, "node": "b"}, {"rank": None, "node": "b"},
                              {"rank": None, "node": None}])
    lanes = make_lanes(t)
    assert [ln.key for ln in lanes.lanes] == ["r0", "r1", "nb", "job"]
