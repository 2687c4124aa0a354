"""Small job directories written for one test each."""

from __future__ import annotations

from pathlib import Path


def write_job(tmp: Path, files: dict[str, str]) -> Path:
    """``tmp/job`` holding ``files`` (relative path -> text)."""
    root = tmp / "job"
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root
