"""The HTML report in a real browser: Debian's headless Chromium over the DevTools
protocol (a pipe, no port, no extra package).

Checked: the page loads with no console error, no uncaught exception and no
network request; its script runs (it marks the page ready); the chart has one lane
per rank (or per node for a 1,024-rank job from the generator); links resolve.
Skipped only when Chromium is not installed (``.ci/install-chromium.sh`` installs it).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from correlator.ingest import IngestOptions
from correlator.report.common import load_report_data
from correlator.report.html import render_html

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "", shutil.which("chromium-browser") or "")
                 if p and os.access(p, os.X_OK)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/install-chromium.sh)")

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
         "--disable-dev-shm-usage", "--mute-audio")


class Browser:
    """The smallest DevTools client: JSON messages, NUL-terminated, over fds 3 and 4."""

    def __init__(self) -> None:
        self.profile = tempfile.mkdtemp(prefix="correlator-chromium-")
        import fcntl

        r, self._w = os.pipe()
        self._r, w = os.pipe()
        # the child's ends above fd 10, so that placing them on 3 and 4 cannot clobber either
        to_chrome_r, from_chrome_w = fcntl.fcntl(r, fcntl.F_DUPFD, 10), fcntl.fcntl(w, fcntl.F_DUPFD, 10)
        os.close(r)
        os.close(w)

        # The protocol wants its pipe on fds 3 and 4; bash puts it there (dash takes no fd above 9).
        cmd = [shutil.which("bash") or "/bin/bash", "-c",
               f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w} {to_chrome_r}<&- {from_chrome_w}>&-',
               CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe", "about:blank"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, pass_fds=(to_chrome_r, from_chrome_w))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict] = []

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 60) -> dict:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        want = self._id
        deadline = time.monotonic() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_for(self, method: str, timeout: float = 60) -> dict:
        deadline = time.monotonic() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                return self.events.pop(i)
        while True:
            m = self._read(deadline)
            if m.get("method") == method:
                return m
            self.events.append(m)

    def _read(self, deadline: float) -> dict:
        import select

        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from chromium")
            ready, _, _ = select.select([self._r], [], [], left)
            if ready:
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.send("Browser.close", timeout=10)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._r, self._w):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)


def load_page(path: Path) -> dict:
    """Open ``path``; return console messages, exceptions, requests and DOM facts."""
    b = Browser()
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            b.send(f"{domain}.enable", session=s)
        b.events.clear()
        url = path.resolve().as_uri()
        b.send("Page.navigate", {"url": url}, session=s)
        b.wait_for("Page.loadEventFired", timeout=120)
        facts = b.send("Runtime.evaluate", {"returnByValue": True, "expression": """(() => {
            const charts = Array.from(document.querySelectorAll('svg.chart'));
            const ids = new Set(Array.from(document.querySelectorAll('[id]')).map(e => e.id));
            const links = Array.from(document.querySelectorAll('a[href^="#"]')).map(a => a.getAttribute('href').slice(1));
            return {
              ready: document.documentElement.getAttribute('data-ready'),
              charts: charts.map(c => ({lanes: c.querySelectorAll('g.lane').length,
                                        declared: +c.getAttribute('data-lanes'), mode: c.getAttribute('data-mode'),
                                        width: c.getBoundingClientRect().width,
                                        height: c.getBoundingClientRect().height})),
              laneKeys: charts.length ? Array.from(charts[0].querySelectorAll('g.lane')).map(g => g.dataset.lane) : [],
              broken: links.filter(l => !ids.has(l)),
              links: links.length,
              title: document.title,
            };
        })()"""}, session=s)["result"]["value"]
        time.sleep(0.3)  # let late console messages arrive
        b.send("Runtime.evaluate", {"expression": "1"}, session=s)
        console = [m["params"] for m in b.events if m.get("method") == "Runtime.consoleAPICalled"]
        errors = [c for c in console if c.get("type") in ("error", "assert")]
        exceptions = [m["params"] for m in b.events if m.get("method") == "Runtime.exceptionThrown"]
        logs = [m["params"]["entry"] for m in b.events if m.get("method") == "Log.entryAdded"
                and m["params"]["entry"].get("level") == "error"]
        requests = [m["params"]["request"]["url"] for m in b.events
                    if m.get("method") == "Network.requestWillBeSent" and m["params"]["request"]["url"] != url]
        return {"facts": facts, "errors": errors, "exceptions": exceptions, "logs": logs, "requests": requests}
    finally:
        b.close()


def _assert_clean(res: dict) -> None:
    assert not res["errors"], res["errors"]
    assert not res["exceptions"], res["exceptions"]
    assert not res["logs"], res["logs"]
    assert not res["requests"], f"the page fetched {res['requests']}"
    assert res["facts"]["ready"] == "1", "the page's script did not run to the end"
    assert not res["facts"]["broken"], res["facts"]["broken"]


def test_small_job_report_loads_clean_with_a_lane_per_rank(tmp_path):
    from test_reports import QUIET, build_job, rules_dir

    job = build_job(tmp_path / "job")
    d = load_report_data(str(job), rules_dirs=(rules_dir(tmp_path),), builtin_rules=False, options=QUIET)
    page = tmp_path / "report.html"
    page.write_text(render_html(d.verdict, d.events, d.facts))
    res = load_page(page)
    _assert_clean(res)
    f = res["facts"]
    assert f["title"] == "correlator: job"
    chart = f["charts"][0]
    assert chart["mode"] == "rank" and chart["lanes"] == chart["declared"]
    assert sorted(k for k in f["laneKeys"] if k.startswith("r")) == sorted(f"r{r}" for r in range(6))
    assert chart["width"] > 600 and chart["height"] > 100  # drawn, not collapsed
    assert f["links"] > 5


def test_script_error_would_be_caught(tmp_path):
    # the harness sees a console error and a thrown exception when there is one
    page = tmp_path / "bad.html"
    page.write_text("<!DOCTYPE html><html><body><script>console.error('boom'); undefinedCall();</script>"
                    "</body></html>")
    res = load_page(page)
    assert res["errors"] and res["exceptions"]


def test_1024_rank_generator_job_opens_in_chromium(tmp_path):
    from test_batch import NOT_LOGS, write_rules

    from correlator import synth

    job = tmp_path / "big"
    synth.generate_job(job, ranks=1024, nodes=128, size="3MB", scenario="oom-cascade", seed=3)
    d = load_report_data(str(job), rules_dirs=(write_rules(tmp_path / "rules"),), builtin_rules=False,
                         options=IngestOptions(echo_problems=False, workers=os.cpu_count(), exclude=NOT_LOGS))
    assert d.verdict.ranks == 1024 and d.verdict.root_cause is not None
    html = render_html(d.verdict, d.events, d.facts)
    assert len(html.encode()) < 3_000_000, len(html)
    page = tmp_path / "big.html"
    page.write_text(html)
    res = load_page(page)
    _assert_clean(res)
    chart = res["facts"]["charts"][0]
    assert chart["mode"] == "node"
    node_lanes = [k for k in res["facts"]["laneKeys"] if k.startswith("n")]
    assert len(node_lanes) == 128 and chart["lanes"] == chart["declared"]
    assert chart["height"] < 2000  # 128 lanes stay on about one screen
