"""The repository stands on its own.

* No tracked text file refers to the reference shelf the project was first written
  beside (the parent directory's ``shared`` folder): formats live in docs/formats/,
  the encyclopedia example in tests/data/.
* No absolute path of the machine the samples were captured on (its checkout and venv
  under ``/work``, its scratch ``/tmp/correlator-jobs``, its ``/root`` home) remains in
  sample logs, rules, parsers or code; sample_logs/_capture/neutral_paths.py rewrites
  them. What may stay is listed in ALLOWED below, each with its reason, and an entry
  that no longer matches anything fails too.
"""

from __future__ import annotations

import gzip
import io
import os
import pickle
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Spelled in two pieces so that this file does not match its own test.
SHELF_REFS = ("../" + "shared", "/work" + "/shared")

# The capture machine's paths: this checkout (where capture.sh runs), the venv it ran
# with ($PYENV), the capture scripts' old scratch directory, root's home.
CAPTURE_PATH = re.compile(
    "|".join([re.escape(str(ROOT) + "/"), r"/tmp/correlator-jobs", r"/root/"]
             + ([re.escape(os.environ["PYENV"].rstrip("/") + "/")]
                if os.environ.get("PYENV", "/home/user/venv").rstrip("/") != "/home/user/venv" else []))
)
PATH_SCOPES = ("sample_logs/", "rules/", "parsers/", "correlator/")

# (file, or folder ending in "/") -> {exact substring that may stay: why}
ALLOWED: dict[str, dict[str, str]] = {
    "sample_logs/_capture/neutral_paths.py": {
        "/tmp/correlator-jobs": "the rewriter names the prefixes it replaces",
        "/root/": "the rewriter names the prefixes it replaces (and says public/ keeps its own)",
    },
    "sample_logs/public/": {
        "/root/": "verbatim pastes from public issue threads: the reporters' machines, not ours "
        "(each scenario's README names the thread)",
    },
    "sample_logs/heldout3/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout4/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout5/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout6/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout7/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout8/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout9/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout10/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout11/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout12/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout13/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout14/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout15/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout16/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout17/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout19/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout21/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout22/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout25/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout27/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout28/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout29/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout30/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout32/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout34/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout36/": {
        "/root/": "verbatim pastes from public issue threads, as in public/",
    },
    "sample_logs/heldout37/": {
        "/root/": "verbatim logs committed to public repositories (MLPerf results' container mounts)",
    },
    "sample_logs/heldout40/": {
        "/root/": "verbatim logs committed to public repositories (a torchtitan run's own /root/ paths)",
    },
    "sample_logs/heldout42/": {
        "/root/": "verbatim logs committed to public repositories (verl's data paths, a conda env under /root)",
    },
    "sample_logs/heldout44/": {
        "/root/": "verbatim logs committed to public repositories (an MLPerf container's /root paths, and their URLs)",
    },
    "sample_logs/heldout46/": {
        "/root/": "verbatim logs from public sources (a ColossalAI checkout under /root in a pasted traceback)",
    },
    "sample_logs/_assemble/assemble.py": {
        "/root/autodl-tmp/": "comment saying how the public Seg-R1 traceback's own paths were "
        "replaced (chenqiu1024/Seg-R1 docs/runtime_error_in_output-20250831.md)",
    },
    "parsers/deepspeed.py": {
        "/root/miniconda3/envs/llm_test/bin/python": "verbatim DeepSpeed launcher line from a public "
        "log (DeepSpeed 0.13-0.15), kept as the parser's example",
    },
    "rules/oom/host-oom-sigkill.yaml": {
        "/root/miniconda3/bin/python": "verbatim torchrun line from lmzpai/roboMamba issue 10 "
        "(docs/formats/torchrun-elastic.md §1), kept as the rule's example",
    },
}


def _tracked() -> list[str]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: nothing says which files are tracked")
    return [p for p in out.decode().split("\0") if p and (ROOT / p).is_file()]


def _text(rel: str) -> str | None:
    """The file as text (a .gz decompressed), or None for binary files."""
    data = (ROOT / rel).read_bytes()
    if rel.endswith(".gz"):
        data = gzip.decompress(data)
    if b"\0" in data[:65536]:
        return None
    return data.decode("utf-8", errors="replace")


def _allowed_for(rel: str) -> dict[str, str]:
    allowed: dict[str, str] = {}
    for key, subs in ALLOWED.items():
        if rel == key or (key.endswith("/") and rel.startswith(key)):
            allowed.update(subs)
    return allowed


def test_no_tracked_file_refers_to_the_shared_shelf():
    hits = []
    for rel in _tracked():
        text = _text(rel)
        if text is None:
            continue
        for no, line in enumerate(text.splitlines(), 1):
            if any(ref in line for ref in SHELF_REFS):
                hits.append(f"{rel}:{no}: {line.strip()[:120]}")
    assert hits == [], "files outside the repository are referred to:\n" + "\n".join(hits)


def test_no_capture_machine_paths_in_samples_rules_parsers_code():
    hits, used = [], set()
    for rel in _tracked():
        if not rel.startswith(PATH_SCOPES):
            continue
        text = _text(rel)
        if text is None:
            continue
        allowed = _allowed_for(rel)
        for no, line in enumerate(text.splitlines(), 1):
            if not CAPTURE_PATH.search(line):
                continue
            rest = line
            for sub in allowed:
                if sub in rest:
                    used.add(sub)
                    rest = rest.replace(sub, "")
            if CAPTURE_PATH.search(rest):
                hits.append(f"{rel}:{no}: {line.strip()[:140]}")
    assert hits == [], (
        "capture-machine paths (run sample_logs/_capture/neutral_paths.py, or add to ALLOWED with "
        "the reason):\n" + "\n".join(hits)
    )
    stale = {s for subs in ALLOWED.values() for s in subs} - used
    assert stale == set(), f"ALLOWED entries that match nothing any more: {sorted(stale)}"


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module, name):  # a Flight Recorder dump holds no objects
        raise pickle.UnpicklingError(f"unexpected global {module}.{name}")


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v)


def test_flight_recorder_dumps_load_and_name_no_capture_machine_paths():
    dumps = [r for r in _tracked() if re.search(r"^sample_logs/.*/fr_dump/rank_\d+$", r)]
    assert dumps, "the hang scenarios ship Flight Recorder dumps"
    hits = []
    for rel in dumps:
        obj = _PlainUnpickler(io.BytesIO((ROOT / rel).read_bytes())).load()
        assert isinstance(obj, dict) and "entries" in obj, rel
        hits += [f"{rel}: {s[:120]}" for s in _strings(obj) if CAPTURE_PATH.search(s)]
    assert hits == []


def test_neutral_paths_has_nothing_left_to_rewrite():
    """The rewriter is idempotent and the committed corpus is its fixed point."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "neutral_paths", ROOT / "sample_logs" / "_capture" / "neutral_paths.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    left = [
        str(p.relative_to(ROOT))
        for p in sorted((ROOT / "sample_logs").rglob("*"))
        if p.is_file() and p.resolve() != mod.SELF and "__pycache__" not in p.parts
        and mod.new_content(p) is not None
    ]
    assert left == []
