"""Secrets are masked by default in every report and export (issue 22, "Trust", task 3).

Each kind of secret is planted as real jobs print it, and looked for in every
format: terminal text, verdict JSON, Markdown, HTML, the Perfetto trace (its
event args carry templates too), and in batch's shared timelines. Not only the
whole value must be gone: no ten characters of it may be left (a template with
its digits replaced is still a leak).
"""

from __future__ import annotations

import html as htmllib
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from click.testing import CliRunner

from correlator.batch.run import BatchOptions, _align, run_batch
from correlator.cli import main
from correlator.timeline.secrets import PATTERNS_ID, SECRETS_KEY

PEM_BODY = [
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj",
    "MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu",
    "NMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ",
    "qgtzJ6GR3eqoYSW9b9UMvkBpZODSctWSNGj3P7jRFDO5VoTwCQAWbFnOjDfH5Ulg",
    "Xq0wSg==",
]

# kind: (the line a job prints, the secret in it)
PLANTED: dict[str, tuple[str, str]] = {
    "pgpassword": ("PGPASSWORD=Hunter2Xyzzy9Quux psql -h db.internal -U train", "Hunter2Xyzzy9Quux"),
    "aws-secret-json": ('{"AccessKeyId": "ASIAZ7QW2ER5TY8UI1OP", "SecretAccessKey": '
                        '"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY"}', "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY"),
    "aws-session-json": ('{"SessionToken": "IQoJb3JpZ2luX2VjEJrQw8Er2Ty6Ui0Op4As9Df3Gh7Jk1LzXcVbNm5"}',
                         "IQoJb3JpZ2luX2VjEJrQw8Er2Ty6Ui0Op4As9Df3Gh7Jk1LzXcVbNm5"),
    "redis": ("cache at redis://:Sup3rSecretPw9@redis.internal:6379/0", "Sup3rSecretPw9"),
    "jwt": ("got token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ0cmFpbmVyIiwicm9sZSI6ImFkbWluIn0."
            "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c from the broker",
            "eyJzdWIiOiJ0cmFpbmVyIiwicm9sZSI6ImFkbWluIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
    "slack-webhook": ("notify https://hooks.slack.com/services/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",
                      "T0A1B2C3D/B0E1F2G3H/q8WzX4vR7tY2uP5sK9mN3bL6"),
    "slack-token": ("slack client with xoxb-2048613579-QwErTyUiOpAsDfGhJkLz", "2048613579-QwErTyUiOpAsDfGhJkLz"),
    "google": ("maps key AIzaSyD4x9Qk2Lm7Np3Rs8Tv1Wx5Yz0Ab6Cd2Ef", "SyD4x9Qk2Lm7Np3Rs8Tv1Wx5Yz0Ab6Cd2Ef"),
    "azure": ("DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4UXV1eFNlY3JldA9Lk==;"
              "EndpointSuffix=core.windows.net", "Zm9vYmFyYmF6cXV4UXV1eFNlY3JldA9Lk=="),
    "anthropic": ("client = Anthropic(api_key='sk-ant-api03-Xy7Qw2Er5Ty8Ui1Op4As7Df0Gh3Jk6Lz9')",
                  "api03-Xy7Qw2Er5Ty8Ui1Op4As7Df0Gh3Jk6Lz9"),
    "openai": ("using sk-proj-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv for evals", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv"),
    "pem-lines": ("\n".join(["-----BEGIN PRIVATE KEY-----", *PEM_BODY, "-----END PRIVATE KEY-----"]),
                  "\n".join(PEM_BODY)),
}
FORMATS = ["text", "json", "md", "html", "perfetto"]
WINDOW = 10


def _ts(s: int) -> str:
    return f"2024-05-01 12:{s // 60:02d}:{s % 60:02d},000"


def build_job(root: Path, lines: list[str], culprit: int = 3) -> Path:
    """Four ranks on two nodes; the culprit prints ``lines`` (one log line each)
    and fails with the last of them in its error; the others lose their peer."""
    for r in range(4):
        out = [f"{_ts(s)} - INFO - __main__ - step {s} | rank {r} | loss 1.{s}" for s in range(1, 6)]
        if r == culprit:
            out += [f"{_ts(6)} - INFO - __main__ - {ln}" for ln in lines]
            out += [f"{_ts(7)} - ERROR - __main__ - Traceback (most recent call last):",
                    '  File "train.py", line 7, in <module>',
                    f"BoomError: bad sample ({lines[-1]})"]
        else:
            out.append(f"{_ts(40)} - ERROR - __main__ - RuntimeError: peer went away")
        p = root / f"node-{r // 2}" / f"rank{r}.log"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("\n".join(out) + "\n")
    return root


def rules_dir(root: Path) -> str:
    root.mkdir(parents=True, exist_ok=True)
    (root / "boom.yaml").write_text(yaml.safe_dump({
        "id": "boom", "title": "boom title", "category": "data_error", "role": "root", "signature": "BoomError",
        "match": {"regex": "BoomError"}, "root_cause": "boom cause", "fix": "boom fix", "verify": "boom --verify",
        "evidence": {"kind": "observed", "provenance": "test"}, "examples": ["BoomError: bad sample"],
    }))
    return str(root)


def render_cli(job: Path, rules: str, fmt: str, tmp: Path, *, redact: bool = True) -> str:
    """``fmt`` as the command writes it."""
    extra = ["--workers", "1"] + ([] if redact else ["--no-redact"])
    runner = CliRunner()
    if fmt == "perfetto":
        out = tmp / f"trace-{job.name}-{redact}.json"
        res = runner.invoke(main, ["export", str(job), "--rules", rules, "--out", str(out), *extra])
        assert res.exit_code == 0, res.output
        return out.read_text()
    res = runner.invoke(main, ["analyze", str(job), "--rules", rules, "--format", fmt, *extra])
    assert res.exit_code == 1, res.output  # failed
    return htmllib.unescape(res.stdout) if fmt == "html" else res.stdout


def render_all(job: Path, rules: str) -> dict[tuple[str, bool], str]:
    """Every format, masked and not, from one analysis, rendered as the commands
    render them (``correlator.cli``: analyze's text and JSON, reports, export)."""
    from correlator.ingest import IngestOptions
    from correlator.report.common import load_report_data
    from correlator.report.html import render_html
    from correlator.report.markdown import render_markdown
    from correlator.report.perfetto import perfetto_trace
    from correlator.report.redact import redact, redact_verdict
    from correlator.report.text import render

    d = load_report_data(str(job), rules_dirs=(rules,), options=IngestOptions(echo_problems=False, workers=1))
    got = {}
    for on in (True, False):
        shown = redact_verdict(d.verdict) if on else d.verdict
        got[("text", on)] = redact(render(shown)) if on else render(shown)
        got[("json", on)] = redact(shown.model_dump_json()) if on else shown.model_dump_json()
        got[("md", on)] = render_markdown(d.verdict, d.events, d.facts, redact=on)
        got[("html", on)] = htmllib.unescape(render_html(d.verdict, d.events, d.facts, redact=on))
        got[("perfetto", on)] = json.dumps(perfetto_trace(d.verdict, d.events, redact=on), ensure_ascii=False)
    return got


def leaks(text: str, secret: str) -> list[str]:
    """Pieces of ``secret`` (WINDOW characters, from any of its lines) found in ``text``."""
    found = []
    for part in secret.split("\n"):
        for i in range(0, max(1, len(part) - WINDOW + 1)):
            piece = part[i:i + WINDOW]
            if piece in text or piece.replace("/", "\\/") in text:
                found.append(piece)
    return found


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("secrets")
    return {"dir": base, "rules": rules_dir(base / "rules")}


@pytest.fixture(scope="module")
def per_kind(base) -> dict:
    """Each kind's own job (its secret in the failing line and the lines before),
    every format, masked and (to prove the test can fail) not."""
    return {kind: render_all(build_job(base["dir"] / kind, text.split("\n")), base["rules"])
            for kind, (text, _) in PLANTED.items()}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", list(PLANTED))
def test_a_planted_secret_is_masked_in_every_format(per_kind, kind, fmt):
    secret = PLANTED[kind][1]
    raw = per_kind[kind][(fmt, False)]
    assert leaks(raw, secret), f"{fmt} does not show {kind} even unmasked: the test could not fail"
    masked = per_kind[kind][(fmt, True)]
    assert leaks(masked, secret) == [], (kind, fmt)
    assert "***" in masked


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_commands_mask_every_kind(base, fmt):
    """The same through the commands, on one job that prints every kind."""
    job = base["dir"] / "every"
    if not job.exists():
        build_job(job, [ln for text, _ in PLANTED.values() for ln in text.split("\n")])
    masked = render_cli(job, base["rules"], fmt, base["dir"])
    for kind, (_, secret) in PLANTED.items():
        assert leaks(masked, secret) == [], (kind, fmt)
    raw = render_cli(job, base["rules"], fmt, base["dir"], redact=False)
    assert any(leaks(raw, secret) for _, secret in PLANTED.values())


def test_batch_timelines_are_masked_in_every_text_column(tmp_path):
    root = tmp_path / "root"
    lines = [ln for text, _ in PLANTED.values() for ln in text.split("\n")]
    job = build_job(root / "job", lines)
    # a file name that is itself a secret, and a problem about it
    (job / "node-0" / "HF_TOKEN=hf_SecretInAFileName0123456789.log").write_text(
        f"{_ts(3)} - INFO - __main__ - hello\n")
    out = tmp_path / "out"
    res = run_batch(str(root), str(out), BatchOptions(workers=1, html=False, rules_dirs=(rules_dir(tmp_path / "r"),)),
                    progress=None)
    assert res.errors == 0, res.rows
    tl = out / "timelines" / "job.parquet"
    table = pq.read_table(tl)
    text = json.dumps(table.to_pylist(), default=str) + json.dumps(
        {k.decode(): v.decode() for k, v in (pq.read_schema(tl).metadata or {}).items()})
    for kind, (_, secret) in PLANTED.items():
        assert leaks(text, secret) == [], kind
    assert "hf_SecretInAFileName" not in text
    assert "SecretInAFileName" not in (out / "jobs" / "job.json").read_text()


def test_ingest_keeps_the_raw_text_unless_told(tmp_path):
    job = build_job(tmp_path / "job", PLANTED["pgpassword"][0].split("\n"))
    runner = CliRunner()
    assert runner.invoke(main, ["ingest", str(job), "--out", str(tmp_path / "raw.parquet")]).exit_code == 0
    res = runner.invoke(main, ["ingest", str(job), "--redact", "--out", str(tmp_path / "masked.parquet"),
                               "--db", str(tmp_path / "masked.duckdb")])
    assert res.exit_code == 0, res.output
    raw = json.dumps(pq.read_table(tmp_path / "raw.parquet").to_pylist(), default=str)
    masked = json.dumps(pq.read_table(tmp_path / "masked.parquet").to_pylist(), default=str)
    assert "Hunter2Xyzzy9Quux" in raw
    assert "Hunter2Xyzzy9Quux" not in masked and "PGPASSWORD=***" in masked
    res = runner.invoke(main, ["sql", str(tmp_path / "masked.duckdb"),
                               "SELECT count(*) AS n FROM events WHERE message LIKE '%Hunter2%'", "--format", "csv"])
    assert res.exit_code == 0 and res.stdout.split() == ["n", "0"], res.output
    res = runner.invoke(main, ["sql", str(tmp_path / "masked.duckdb"),
                               "SELECT count(*) AS n FROM events", "--format", "csv"])
    assert int(res.stdout.split()[1]) > 10


# --------------------------------------------------------------------------- ingest's scan, batch's skip


def _ingested(job: Path, out: Path) -> Path:
    from correlator.ingest import IngestOptions, ingest

    ingest(job, out_parquet=out, options=IngestOptions(workers=1, echo_problems=False))
    return out


def _note(path: Path) -> dict | None:
    raw = (pq.read_schema(path).metadata or {}).get(SECRETS_KEY.encode())
    return json.loads(raw) if raw is not None else None


def _rewritten(src: Path, dest: Path, note: str | None) -> Path:
    """``src`` with its ``SECRETS_KEY`` replaced by ``note`` (None: left out, as an
    older timeline has it)."""
    table = pq.read_table(src)
    meta = {k: v for k, v in (table.schema.metadata or {}).items() if k != SECRETS_KEY.encode()}
    if note is not None:
        meta[SECRETS_KEY.encode()] = note.encode()
    pq.write_table(table.replace_schema_metadata(meta), dest)
    return dest


def _masked_columns(path: Path) -> list[str]:
    from correlator.report.redact import _VOCABULARY, _text_type

    return [f.name for f in pq.read_schema(path) if _text_type(f.type) and f.name not in _VOCABULARY]


@pytest.mark.parametrize("kind", [None, *PLANTED])
def test_ingest_records_whether_a_secret_was_found(tmp_path, kind):
    from correlator.report.redact import _any_secret

    lines = PLANTED[kind][0].split("\n") if kind else ["loading shard 3 of 8 from /data/train-00003.bin"]
    tl = _ingested(build_job(tmp_path / "job", lines), tmp_path / "t.parquet")
    assert _note(tl) == {"found": kind is not None, "patterns": PATTERNS_ID}
    # the same answer as the shared timeline's own scan, which it stands in for
    assert _any_secret(tl, _masked_columns(tl)) is (kind is not None)


def test_ingest_finds_a_secret_outside_the_messages(tmp_path):
    job = build_job(tmp_path / "job", ["nothing to see"])
    (job / "node-0" / "HF_TOKEN=hf_SecretInAFileName0123456789.log").write_text(f"{_ts(3)} - INFO - x - hello\n")
    assert _note(_ingested(job, tmp_path / "t.parquet"))["found"] is True


def test_the_patterns_treat_digits_alike():
    # the condition for reading a batch's distinct message shapes instead of its messages
    from correlator.timeline.secrets import DIGIT_BLIND, _digit_blind

    assert DIGIT_BLIND
    assert _digit_blind(r"(?i)\b(key-)[A-Za-z0-9_]{20,}\s[^\d]|[\w.]")
    assert not _digit_blind(r"\b(AKIA)[A-Z2-7]{16}")
    assert not _digit_blind(r"(?:x|sk_1)")
    assert not _digit_blind(r"[^0]")


def test_stage_2s_added_attr_is_no_secret():
    # the one text stage 2 adds to parts it rewrites, which ingest does not look at again
    from correlator.timeline.secrets import column_has_secret

    assert not column_has_secret("attrs", pa.array([[("child_rank", str(n))] for n in (0, 7, 12345, 2**31 - 1)],
                                                   pa.map_(pa.string(), pa.string())))
    assert column_has_secret("attrs", pa.array([[("HF_TOKEN", "hf_abcdefghijklmnopqrstuvwxyz")]],
                                               pa.map_(pa.string(), pa.string())))


@pytest.mark.parametrize("secret", [False, True])
def test_shared_timeline_is_the_same_with_and_without_ingests_answer(tmp_path, secret):
    from correlator.report.redact import redact_parquet

    lines = [ln for text, _ in PLANTED.values() for ln in text.split("\n")] if secret else ["plain line"]
    tl = _ingested(build_job(tmp_path / "job", lines), tmp_path / "t.parquet")
    old = _rewritten(tl, tmp_path / "old.parquet", None)  # as written before ingest looked

    def shift(t: pa.Table) -> pa.Table:  # batch's clock alignment: the rewrite, not the rename
        return _align(t, {"node-0": 2.5})

    for transform in (None, shift):
        redact_parquet(tl, tmp_path / "new-out.parquet", transform=transform)
        redact_parquet(old, tmp_path / "old-out.parquet", transform=transform)
        new_out, old_out = pq.read_table(tmp_path / "new-out.parquet"), pq.read_table(tmp_path / "old-out.parquet")
        assert new_out.to_pylist() == old_out.to_pylist()
        meta = {k: v for k, v in new_out.schema.metadata.items() if k != SECRETS_KEY.encode()}
        assert meta == old_out.schema.metadata
        text = json.dumps(new_out.to_pylist(), default=str)
        for _, value in PLANTED.values():
            assert leaks(text, value) == []


def test_a_timeline_without_a_current_answer_is_scanned(tmp_path):
    from correlator.report.redact import redact_parquet

    text, value = PLANTED["pgpassword"]
    tl = _ingested(build_job(tmp_path / "job", [text]), tmp_path / "t.parquet")
    no = json.dumps({"found": False, "patterns": PATTERNS_ID})
    stale = json.dumps({"found": False, "patterns": "an older list"})
    for note in (None, stale):  # an older timeline; one looked at by other patterns
        out = tmp_path / "out.parquet"
        redact_parquet(_rewritten(tl, tmp_path / "in.parquet", note), out)
        assert value not in json.dumps(pq.read_table(out).to_pylist(), default=str), note
    # and the answer is what decides: a timeline that (falsely) says "none" is not read again
    redact_parquet(_rewritten(tl, tmp_path / "in.parquet", no), tmp_path / "out.parquet")
    assert value in json.dumps(pq.read_table(tmp_path / "out.parquet").to_pylist(), default=str)


def test_batch_shares_a_clean_timeline_as_ingest_wrote_it(tmp_path):
    root = tmp_path / "root"
    job = build_job(root / "job", ["plain line"])
    out = tmp_path / "out"
    res = run_batch(str(root), str(out), BatchOptions(workers=1, html=False, rules_dirs=(rules_dir(tmp_path / "r"),)),
                    progress=None)
    assert res.errors == 0, res.rows
    shared = out / "timelines" / "job.parquet"
    assert _note(shared) == {"found": False, "patterns": PATTERNS_ID}
    own = _ingested(job, tmp_path / "t.parquet")
    cols = [c for c in pq.read_schema(own).names if c not in ("job", "ts_aligned")]
    assert pq.read_table(shared, columns=cols).to_pylist() == pq.read_table(own, columns=cols).to_pylist()
