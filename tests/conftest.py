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


# Lines a test asks to show in the session's summary, captured output or not (the Ray
# tests' start-up and run times: CI's log shows what Ray costs the suite).
SUMMARY_LINES = pytest.StashKey[list[str]]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[SUMMARY_LINES] = []


@pytest.fixture(scope="session")
def summary_lines(pytestconfig: pytest.Config) -> list[str]:
    """Append a line to show it in the session's summary."""
    return pytestconfig.stash[SUMMARY_LINES]


def pytest_sessionfinish(session: pytest.Session) -> None:
    # under pytest-xdist a worker's lines go back to the controller with the worker's output
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["summary_lines"] = list(session.config.stash.get(SUMMARY_LINES, []))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:  # pytest-xdist's: called on the controller
    node.config.stash.setdefault(SUMMARY_LINES, []).extend(getattr(node, "workeroutput", {}).get("summary_lines", []))


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    for line in config.stash.get(SUMMARY_LINES, []):
        terminalreporter.write_line(line)
