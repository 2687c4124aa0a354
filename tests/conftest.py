from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"


@pytest.fixture
def samples() -> Path:
    return SAMPLES


def write_job(root: Path, files: dict[str, str]) -> Path:
    """A job directory under ``root`` holding ``files`` (relative path -> text)."""
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root
