"""Pasted, damaged and partial logs (issue 20 §3): the error events survive.

The damages are ``tests/paste_damage.py``'s (tested first, below). Then, over the
real sample jobs (``sample_logs/*/``) and the real pastes (``sample_logs/public/``):
each file's set of (kind, level) of its ERROR/CRITICAL events must be the same after
a damage (after ``cut_last``: what was before the cut is kept, nothing new but a
traceback cut short), and for a handful of jobs the verdict's status and category
must be the same after wrap, prefixes stripped/added and glued progress bars.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import zlib
from functools import cache
from pathlib import Path

import duckdb
import paste_damage as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from correlator.ingest import ingest, lines_as_events

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
NOT_JOBS = {"_assemble", "_capture", "hangs", "public"}
NOT_LOGS = {"README.md", "truth.json", ".correlatorignore", "FIRST_SIGHT.txt"}
# A paste the reporter's terminal already wrapped at 137 columns: its lines are wrap
# pieces, so damaging them line by line (wrapping again, prefixing every piece) is
# no paste that happens; it is read as it is (tests/test_hard_wrap.py).
ALREADY_WRAPPED = {
    "public/open-r1-grpo-broadcast-timeout-wrapped/console.log",
    # pasted wrapped at 183 columns (its README): wrapping it again cuts the pieces' pieces
    "heldout10/y-nemo-speech13562-rank0-allgather-532341-vs-ranks-1-2-broadcast-532339/train.log",
}
ERROR_LEVELS = ("ERROR", "CRITICAL")
TRUNCATED = ("python.traceback", "ERROR")  # what a traceback cut short still is


# --- the damages themselves ---------------------------------------------------------

TB = (
    "[rank1]:[W1130 05:07:40 x.cpp:1] warming up\n"
    "[rank1]: Traceback (most recent call last):\n"
    '[rank1]:   File "train.py", line 12, in <module>\n'
    "[rank1]:     main()\n"
    "[rank1]: ValueError: corrupt sample\n"
)


def test_wrap_cuts_every_long_line_at_the_width():
    out = pd.wrap("a" * 10 + "\nshort\n" + "b" * 25 + "\n", 10)
    assert out == "a" * 10 + "\nshort\n" + "b" * 10 + "\n" + "b" * 10 + "\n" + "b" * 5 + "\n"
    assert all(len(line) <= 10 for line in out.splitlines())
    with pytest.raises(ValueError):
        pd.wrap("x", 0)


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="\r\n"), max_size=300), st.integers(1, 200))
def test_wrap_loses_no_character(line, width):
    assert "".join(pd.wrap(line, width).split("\n")) == line


def test_cut_header_drops_traceback_headers_only():
    out = pd.cut_header(TB)
    assert "Traceback" not in out
    assert out.splitlines() == [line for line in TB.splitlines() if "Traceback" not in line]
    two = TB + TB
    assert pd.cut_header(two, seed=3).count("Traceback") == 1


def test_cut_last_drops_the_last_lines():
    assert pd.cut_last(TB, 2).splitlines() == TB.splitlines()[:-2]
    assert pd.cut_last(TB, 0) == TB
    assert pd.cut_last(TB, 99) == ""


def test_chain_puts_another_exception_before_the_first_traceback():
    out = pd.chain(TB, seed=0)
    lines = out.splitlines()
    assert out.count("Traceback (most recent call last):") == 2
    assert "[rank1]: During handling of the above exception, another exception occurred:" in lines
    assert lines[-1] == "[rank1]: ValueError: corrupt sample"
    assert all(line.startswith("[rank1]:") for line in lines)  # the traceback's own prefix
    assert pd.chain(TB, seed=0) == out and pd.chain("no traceback\n") == "no traceback\n"


def test_strip_and_insert_prefixes():
    assert pd.strip_prefixes(TB).splitlines()[1] == "Traceback (most recent call last):"
    assert pd.strip_prefixes("[1,50]<stderr>:x\n[default3]:y\n12: z\n") == "x\ny\nz\n"
    kube = "2025-05-12T14:30:43.450560417Z [rank0]: boom\n"
    assert pd.strip_prefixes(kube) == "2025-05-12T14:30:43.450560417Z boom\n"  # kubectl's stamp stays
    assert pd.insert_prefixes(TB, "mpirun").splitlines()[1] == "[1,1]<stderr>:Traceback (most recent call last):"
    assert pd.insert_prefixes("a\n", "default", rank=3) == "[default3]:a\n"
    assert pd.insert_prefixes("a\n", "srun", rank=7) == "7: a\n"
    assert pd.insert_prefixes("a\n[rank2]: b\n", "rank", rank=None) == "a\n[rank2]: b\n"
    assert pd.insert_prefixes(kube, "default") == "2025-05-12T14:30:43.450560417Z [default0]:boom\n"
    with pytest.raises(ValueError):
        pd.make_prefix("pbs", 0)


def test_glue_progress_glues_bars_before_records_only():
    out = pd.glue_progress(TB, seed=1, share=1.0).splitlines()
    assert re.match(r"^\[rank1\]:.*it/s\]\[W1130", out[0])  # a stamped record, after the prefix
    assert re.match(r"^\[rank1\]: .*(?:it/s|s/it)[^\]]*\]Traceback", out[1])
    assert out[2:] == TB.splitlines()[2:]  # frames and the exception line: inside a record
    assert pd.glue_progress(TB, seed=1) == pd.glue_progress(TB, seed=1)


# --- the files they are applied to --------------------------------------------------

def _read(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8", "replace")


def _documentation(rel: Path) -> bool:
    """A folder's collectors' notes (README-a.md) and capture scripts (_capture_k/): no logs."""
    return rel.parts[0].startswith("_") or (len(rel.parts) == 1 and rel.suffix in (".md", ".py", ".sh"))


def _log_files() -> list[Path]:
    out = []
    for job in sorted(SAMPLES.iterdir()):
        if not job.is_dir() or job.name in NOT_JOBS:
            continue
        out += [f for f in sorted(job.rglob("*")) if f.is_file() and f.name not in NOT_LOGS
                and not _documentation(f.relative_to(job))]
    for paste in sorted((SAMPLES / "public").iterdir()):
        if paste.is_dir():
            out += [f for f in sorted(paste.rglob("*")) if f.is_file() and f.name not in NOT_LOGS]
    seen: set[bytes] = set()  # gzip-data-error-per-rank is gloo-data-error-per-rank again
    unique = []
    for f in out:
        data = _read(f).encode()
        if f.suffix != ".json" and data not in seen:  # torchrun's error.json is no paste
            seen.add(data)
            unique.append(f)
    return unique


def _rel(path: Path) -> str:
    return str(path.relative_to(SAMPLES)).removesuffix(".gz")


def _events(text: str, rel: str) -> list[tuple[str, str, int, int]]:
    """(kind, level, line_no, line_end) of the ERROR/CRITICAL events of one file's text."""
    ev = lines_as_events(text.split("\n"), file=rel)
    return [
        (k, lv, start, end) for k, lv, start, end in zip(
            ev.column("kind").to_pylist(), ev.column("level").to_pylist(), ev.column("line_no").to_pylist(),
            ev.column("line_end").to_pylist(), strict=True,
        ) if lv in ERROR_LEVELS
    ]


@cache
def _before(rel: str) -> tuple[str, list[tuple[str, str, int, int]]]:
    """The undamaged text of sample file ``rel`` and its error events."""
    path = SAMPLES / rel if (SAMPLES / rel).exists() else SAMPLES / (rel + ".gz")
    text = _read(path)
    return text, _events(text, rel)


def _file_rank(rel: str) -> int | None:
    m = re.search(r"rank(\d+)", rel)
    return int(m.group(1)) if m else None


def _cases() -> list[tuple[str, str]]:
    """(file, damage) pairs: every file with an error event, each damage in turn,
    two damages a file (the whole matrix is ~1,300 ingests; this is a rotation of it)."""
    files = [_rel(f) for f in _log_files()]
    n = len(pd.DAMAGES)
    # a file's damages follow from its own path, not from its place among the others:
    # a folder added to the corpus changes no other file's case
    return [(rel, pd.DAMAGES[(zlib.crc32(rel.encode()) + k) % n]) for rel in files for k in range(2)]


def _keyset(events: list[tuple[str, str, int, int]]) -> set[tuple[str, str]]:
    return {(k, lv) for k, lv, _, _ in events}


# Damages the reader does not survive yet (found when the rotation became per file;
# strict: a fix turns them into failures to remove from here).
_JSON_RECORD_DAMAGED = ("a JSON-lines log: its records' levels are fields (correlator/ingest/json_records.py); a damage that "
    "breaks the object (wrapped, a prefix before its brace) leaves text whose level nothing states")
KNOWN_GAPS = {
    # JSON-lines logs read by their fields since session 27: the damaged copies lose what the fields said
    ("captures16/ja-mpirun-dictconfig-json-pair-collate-r1/logs/rank2.jsonl",
     "wrap80"):
        _JSON_RECORD_DAMAGED,
    ("captures16/ja-mpirun-dictconfig-json-pair-collate-r1/logs/rank2.jsonl",
     "wrap120"):
        _JSON_RECORD_DAMAGED,
    ("captures17/kc-bashloop-jsonl-detail-stale-lock-r1/logs/rank-0.jsonl",
     "wrap160"):
        _JSON_RECORD_DAMAGED,
    ("captures6/p-jsonl-silent-hang/logs/rank0.log",
     "insert_default"):
        _JSON_RECORD_DAMAGED,
    ("captures6/p-jsonl-silent-hang/logs/rank0.log",
     "insert_rank"):
        _JSON_RECORD_DAMAGED,
    ("captures6/p-jsonl-silent-hang/logs/rank2.log",
     "insert_default"):
        _JSON_RECORD_DAMAGED,
    ("captures6/p-jsonl-silent-hang/logs/rank2.log",
     "insert_rank"):
        _JSON_RECORD_DAMAGED,
    ("captures7/s-ray-tempdir-nan-spread/rt/session_2026-12-05_19-21-20_753788_9418/logs/train/ray-train-app-worker-cca08931df6392f6faa2809ce032d1a60862f7c3985132cbd1fe7bf1.log",
     "wrap80"):
        _JSON_RECORD_DAMAGED,
    # found by round U's batch (2026-12-07), the same on session 29's starting code (054959b)
    ("heldout29/wb-openinstruct-flashattn-symbol/console.log", "cut_last"):
        "a paste hard-wrapped at 90 columns, the launcher's traceback cut in its frames: the fragment left (a "
        "header and wrapped frames of no exception) is no error event",
    # found by round T's batch (2026-12-07), the same on the code before that session's changes (054959b)
    ("heldout28/vb-megatron-shm-buserror/part1_console.log", "cut_last"):
        "three ranks' tracebacks interleaved line by line, the paste cut within them: the last lines cut off, "
        "the fragment left (a header and frames of no exception) is no error event",
    # found by round Q's batch (2026-12-06), the same on the code before that session's changes
    ("heldout25/sa-nccl573-mpspawn-pci-realpath/console.log", "cut_last"):
        "an mp.spawn child's traceback cut within its frames: the event the cut went through is no error "
        "event any more",
    # found by round P's batch (2026-12-06), the same on the code before that session's changes
    ("captures24/rc-script-q-c-per-rank-typescripts-world-size-too-big-all/typescripts/rank1.typescript",
     "insert_srun"):
        "a `script` typescript (CR-LF lines) of a store timeout: with srun labels inserted, its traceback is "
        "no longer an error event of its own (the store error's event is kept)",
    ("captures24/rc-script-q-c-per-rank-typescripts-world-size-too-big-all/typescripts/rank2.typescript",
     "insert_srun"):
        "the same on rank 2's typescript",
    # found by round O's batch (2026-12-06), the same on the code before that session's changes
    ("captures23/qc-tmux-window-per-rank-pipepane-label-offset-r2/logs/win-r0.log", "strip_prefixes"):
        "a tmux pane's `[rank0]:` traceback of a gloo error, its prefixes stripped, reads as a plain traceback "
        "beside the gloo event (an extra error event, none lost)",
    ("heldout23/qb-horovod469-mpirun-rank7-sigkill/console.log", "wrap80"):
        "mpirun's 'process rank 7 ... exited on signal 9 (Killed).' wrapped at 80 columns: the head piece "
        "no longer holds the signal, so it is no process exit",
    ("heldout21/oa-openrlhf265-2node-vllm-tcpstore-docker-bridge-ip-timeout/console.log", "wrap80"):
        "a Ray actor's c10d watchdog timeout (`[E... ProcessGroupNCCL.cpp:...] [Rank 1] Watchdog caught ...`) "
        "wrapped at 80 columns: the head piece keeps the C++ record, its kind is lost with the cut text",
    ("heldout21/oa-openrlhf265-2node-vllm-tcpstore-docker-bridge-ip-timeout/console.log", "wrap120"):
        "the same at 120 columns",
    ("captures19/mc-elastic-launch-api-redirect-logspecs-truncated-rankstate-r1/console.log", "wrap120"):
        "an agent's E-level glog record quoting a child's traceback, wrapped at 120 columns: a wrap piece "
        "that starts with the glog head reads as one more agent ERROR event",
    ("captures3/c-spawn-silent-hang-logfiles/logs/rank1.log", "wrap120"):
        "a gloo timeout's traceback wrapped at 120 columns is read as a plain traceback (kind lost)",
    ("heldout18/lb-kubeflow1638-elastic-pytorchjob-worker1-pod-deleted-worker0-gloo-closed/worker-0.log", "cut_last"):
        "torchelastic's DEBUG 'User process failed with error data: {' whose JSON dump (the error) was cut off "
        "is no error event",
    ("heldout5/h-ldcast-lightning-strategy-none-valueerror/train.log", "cut_last"):
        "a bare 'ValueError:' whose message line was cut off is no error event",
    ("heldout6/n-arjuna-slurm-cgroup-oom-kill-cgcnn/error_191.err", "cut_last"):
        "the shell's 'Killed' line alone, its slurmstepd oom-kill line cut off, is no error event",
    ("captures9/x-ray-train-hang-r2-logfmt/rt/session_2026-12-05_21-43-48_821013_30504/logs/"
     "worker-4141b8f8f742b5af51388a9754c9d435b4123700fbc324f793e88904-01000000-31717.err", "cut_header"):
        "Ray's worker traceback without its header reads as a traceback beside the gloo timeout it reports "
        "(an extra error event, none lost)",
    # found by round C's batch (2026-12-06), the same before and after that session's changes
    ("captures11/cz-nblauncher-csv-row-r1/console.log", "wrap120"):
        "a torch log record with its header on every line, wrapped at 120 columns: the wrap pieces break the "
        "run of repeated headers, and the lines after a piece read as records of their own (an extra error "
        "event, none lost)",
    ("heldout11/aa-colossalai3425-chat-trainer-keyerror-attention-mask-rich-traceback-rank0-exit1/train.log",
     "wrap80"):
        "the agent's 'failed (exitcode: N) local_rank: ...' line wrapped at 80 columns is no longer read as a "
        "worker's failure",
    # found by round R's batch (2026-12-07), the same at session 28's start (a9ab68f)
    ("heldout26/ta-verl161-ray-generation-duplicate-gpu-device-10/console.log", "wrap160"):
        "Ray's one-line error summary wrapped at 160 columns: the piece holding 'NCCL error' no longer reads as "
        "the NCCL error line it continues, so the error is the DistBackendError around it (another error kind, "
        "none lost)",
    # found by round D's batch (2026-12-06), the same at that session's start (1e3e4fe)
    ("captures12/da-submitit-timeout-min-ext/sublogs/12403/12403_1_log.err", "strip_prefixes"):
        "submitit's two ERROR records of one exception ('submitit ERROR (...) - Submitted job triggered an "
        "exception' and the job's own '... ERROR [rank 1] submitit: ...') read as one error event once their "
        "prefixes are stripped",
    # found by rounds V and W's batches (2026-12-07), the same at session 30's start (1f20fa5)
    ("captures29/xc-lua-luaposix-fork-poll-launcher-jobtable-prestart-hooks-rankfiles-launchlog-rank2-hook-waits-"
     "sync-lock-store-timeout-r2/out/rank0.log", "wrap160"):
        "a record wrapped at 160 columns leaves a piece that reads as an error line of its own (an extra error "
        "event, none lost)",
    ("captures30/yc-healthy-forever-node-monitor-start-per-rank-uid-max-1-forever-out-err-logs-forever-list-"
     "final-eval/forever/rank2.forever.log", "insert_default"):
        _JSON_RECORD_DAMAGED,
    ("captures30/yc-healthy-forever-node-monitor-start-per-rank-uid-max-1-forever-out-err-logs-forever-list-"
     "final-eval/forever/rank2.forever.log", "insert_rank"):
        _JSON_RECORD_DAMAGED,
    ("heldout30/xa-vllm-tp2-sampler-warmup-oom/vllm-serve-part2.log", "wrap80"):
        "vLLM's worker records wrapped at 80 columns: a piece reads as an error line of its own (an extra error "
        "event, none lost)",
    ("heldout35/ak-torchtune-gemma2b-lora-epoch-end-allgather-timeout/console.log", "strip_prefixes"):
        "without its [rankN]: prefixes the watchdog's timeout line reads as a plain c10d C++ log record (an "
        "error event kept, its kind lost; fails on session 31's round-Z code too)",
    ("heldout33/ad-megatron-duplicate-gpu/console.log", "cut_last"):
        "two ranks' DistBackendError lines interleaved mid-word (`torch.distributedtorch.distributed...`); cut "
        "inside the C++ frames below them, the piece left is no error event (fails on session 31's start too)",
    ("heldout36/an-olmo2-1b-8xa100-midtrain-allgather-timeout-after-hours/console.log", "wrap160"):
        "the paste's watchdog lines are already cut at 175 characters (`NumelIn=18561`); wrapped again at 160 the "
        "rejoined line reads as a plain c10d C++ log record (an error event kept, its kind lost; fails on "
        "session 32's start, 4a537d0, too)",
}


def _case(rel: str, damage: str):
    gap = KNOWN_GAPS.get((rel, damage))
    return pytest.param(rel, damage, marks=pytest.mark.xfail(reason=gap, strict=True)) if gap else (rel, damage)


@pytest.mark.parametrize(("rel", "damage"), [_case(*c) for c in _cases()], ids=lambda v: v)
def test_error_events_survive(rel, damage):
    text, before = _before(rel)
    if not before:
        pytest.skip("no error event to keep")
    if rel in ALREADY_WRAPPED:
        pytest.skip("a wrapped paste: its lines are wrap pieces")
    seed = len(rel)
    k = 1 + seed % 3
    damaged = pd.cut_last(text, k) if damage == "cut_last" else pd.damage(damage, text, seed=seed, rank=_file_rank(rel))
    after = _events(damaged, rel)
    if damage != "cut_last":
        assert _keyset(after) == _keyset(before), f"{damage}: lost {_keyset(before) - _keyset(after)}, new {_keyset(after) - _keyset(before)}"
        return
    kept_lines = pd.split_lines(text)[: len(pd.split_lines(text)) - k]
    # the last line kept that has text (a blank line ends no event)
    last = next((i for i in range(len(kept_lines), 0, -1) if kept_lines[i - 1].strip()), 0)
    kept = _keyset([e for e in before if e[3] <= last])  # events wholly before the cut
    assert kept <= _keyset(after), f"lost {kept - _keyset(after)}"
    # the event the cut went through is still an error, of any kind its rest has: a
    # traceback without its exception line, a torchrun table entry without its error
    if any(e[2] <= last < e[3] for e in before):
        assert any(e[3] >= last for e in after), "the error event the cut went through is gone"
    cut_kinds = _keyset([e for e in after if e[3] >= last])
    assert _keyset(after) <= _keyset(before) | cut_kinds | {TRUNCATED}, f"new {_keyset(after) - _keyset(before)}"


def test_a_traceback_cut_mid_frame_is_still_an_error():
    # the last traceback of each real per-rank log, cut after its header and first frame
    files = [f for f in sorted((SAMPLES / "gloo-data-error-per-rank").glob("rank*.log")) if "Traceback" in f.read_text()]
    assert len(files) == 3  # rank 0 was SIGTERMed silently
    for f in files:
        lines = _read(f).splitlines()
        at = max(i for i, line in enumerate(lines) if "Traceback (most recent call last):" in line)
        cut = "\n".join(lines[: at + 2]) + "\n"
        assert (TRUNCATED, at + 1, at + 2) in {((k, lv), start, end) for k, lv, start, end in _events(cut, _rel(f))}


@pytest.mark.parametrize("line", [
    "FileExistsError: [Errno 17] File exists: '/x'",
    "ValueError: corrupt sample at index 526",
    "[rank3]: ModuleNotFoundError: No module named 'flash_attn'",
])
def test_a_bare_exception_line_is_an_error(line):
    ev = lines_as_events(["INFO starting", line, "INFO done"], file="console.log")
    kinds = dict(zip(ev.column("message").to_pylist(), zip(ev.column("kind").to_pylist(), ev.column("level").to_pylist(), strict=True), strict=True))
    assert kinds[line.removeprefix("[rank3]: ")] == TRUNCATED


def test_mpirun_tags_give_the_rank():
    lines = pd.insert_prefixes(TB, "mpirun", rank=None).replace("[1,1]", "[1,50]").splitlines()
    ev = lines_as_events(lines, file="console.log")
    errors = [(k, r) for k, lv, r in zip(ev.column("kind").to_pylist(), ev.column("level").to_pylist(),
                                          ev.column("rank").to_pylist(), strict=True) if lv == "ERROR"]
    assert errors == [("python.traceback", 50)]


# --- a whole job: ingest + DuckDB, and the verdict ----------------------------------

def _damage_job(job: str, damage: str, dest: Path, seed: int, kind: str = "mpirun") -> Path:
    out = dest / job
    shutil.copytree(SAMPLES / job, out)
    for f in out.rglob("*"):
        if not f.is_file() or f.name in NOT_LOGS or f.suffix not in (".log", ".out", ".txt"):
            continue
        text = f.read_text(errors="replace")
        rank = _file_rank(str(f.relative_to(out)))
        if damage == "insert_prefixes":
            text = pd.insert_prefixes(text, kind, rank=rank)
        else:
            text = pd.damage(damage, text, seed=seed, rank=rank)
        f.write_text(text)
    return out


def _job_errors(target: Path, tmp: Path) -> set[tuple[str, str, str, str | None]]:
    parquet = tmp / f"{target.name}-{len(list(tmp.iterdir()))}.parquet"
    ingest(target, out_parquet=parquet)
    rows = duckdb.sql(
        f"SELECT file, kind, level, CAST(rank AS VARCHAR) FROM read_parquet('{parquet}') "
        "WHERE level IN ('ERROR', 'CRITICAL')"
    ).fetchall()
    return set(rows)


def test_a_directory_keeps_its_error_events_and_ranks(tmp_path):
    # per-rank logs re-prefixed by mpirun --tag-output, then wrapped at 100 columns
    job = "collective-mismatch-detail"
    base = _job_errors(SAMPLES / job, tmp_path)
    prefixed = _damage_job(job, "insert_prefixes", tmp_path / "a", seed=0)
    assert _job_errors(prefixed, tmp_path) == base
    wrapped = tmp_path / "b" / job
    shutil.copytree(prefixed, wrapped)
    for f in wrapped.glob("*.log"):
        f.write_text(pd.wrap(f.read_text(), 100))
    assert _job_errors(wrapped, tmp_path) == base


VERDICT_JOBS = {  # job -> the launcher whose prefixes replace its own
    "collective-mismatch-detail": "mpirun",
    "slurm-combined-srun-label": "default",
    "torchrun-tee-console": "rank",
    "import-error-all-ranks": "srun",
}
VERDICT_DAMAGES = ("wrap", "strip_prefixes", "insert_prefixes", "glue_progress")
# Verdicts that do not survive for a reason in the analysis, not the ingest.
VERDICT_XFAIL = {
    ("torchrun-tee-console", "strip_prefixes"): (
        "analysis: the one console of a `torchrun --tee 3` job with its [defaultN]: prefixes stripped "
        "names no rank on any line; the ingest keeps every error event (3 c10d.gloo_timeout, 4 "
        "torchrun.failure_entry, worker_failed, child_failed_error), but the verdict came only from the "
        "silent_rank inference (rank 3 logged no error while its peers timed out), which needs per-rank "
        "lines, and rank-less gloo timeouts give no hypothesis: no hypotheses -> inconclusive, no category"
    ),
}


def _verdict_cases() -> list:
    return [
        pytest.param(job, damage, id=f"{job}-{damage}", marks=(
            [pytest.mark.xfail(strict=True, reason=VERDICT_XFAIL[job, damage])] if (job, damage) in VERDICT_XFAIL else []
        ))
        for job in VERDICT_JOBS for damage in VERDICT_DAMAGES
    ]


@pytest.mark.parametrize(("job", "damage"), _verdict_cases())
def test_the_verdict_survives(job, damage, tmp_path):
    from correlator.analysis.analyze import analyze

    truth = json.loads((SAMPLES / job / "truth.json").read_text())
    seed = len(job)
    name = f"wrap{80 + 20 * (seed % 5)}" if damage == "wrap" else damage
    target = _damage_job(job, name, tmp_path, seed=seed, kind=VERDICT_JOBS[job])
    verdict = analyze(str(target))
    category = verdict.root_cause.category if verdict.root_cause else None
    assert (verdict.status, category) == (truth["status"], truth["root_cause"]["category"])
