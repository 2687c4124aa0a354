"""Click command ``watch``: follow a running job's logs, alert, and end with the post-mortem.

Registered on the main group in ``correlator/cli/__init__.py``. The library is
``correlator.watch``; here: options, where the news go (stderr, ``--json``,
``--on-alert``), and the final report, printed as ``analyze`` prints it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import IO

import click

from correlator.cli.common import WORKERS, guard_outputs, tz_option
from correlator.cli.reports import TARGET
from correlator.ingest import IngestOptions

EXIT_HEALTHY, EXIT_FAILED, EXIT_INCONCLUSIVE, EXIT_NOTHING_READ = 0, 1, 3, 2


class _Console:
    """The sink of a watch run: alerts and notes on stderr, one live status line on a
    terminal (status changes as lines elsewhere), JSON lines, the alert command."""

    def __init__(self, json_out: IO[str] | None, on_alert: str | None, redact: bool, quiet: bool) -> None:
        self.json_out, self.on_alert, self.redact, self.quiet = json_out, on_alert, redact, quiet
        # on a terminal, the process's own stderr, beneath the cleaning (and progress-bar)
        # wrappers: the status line's \r and erase-line must reach it (what is drawn is
        # cleaned first, in _mask); elsewhere the wrapped stream, which cleans
        real = sys.__stderr__
        self.tty = bool(real is not None and real.isatty())
        self.err = real if self.tty and real is not None else sys.stderr
        self._line = ""
        self._children: list[subprocess.Popen[bytes]] = []

    def _mask(self, text: str) -> str:
        from correlator.report.redact import redact
        from correlator.report.terminal import clean

        return clean(redact(text) if self.redact else text)

    def _json(self, obj: dict) -> None:
        if self.json_out is None:
            return
        if self.redact:
            from correlator.report.redact import redact_obj

            obj = redact_obj(obj)
        # a stream others tail: appended line by line, flushed, never replaced
        self.json_out.write(json.dumps(obj, default=str) + "\n")
        self.json_out.flush()

    def _print(self, text: str) -> None:
        if self.tty and self._line:
            self.err.write("\r\033[K")
        self.err.write(text + "\n")
        if self.tty and self._line:
            self.err.write(self._line)
        self.err.flush()

    def alert(self, v) -> None:
        a = v.alert
        lines = [f"ALERT {a.id} [{a.kind}] {a.story}"]
        rc = v.root_cause
        if a.kind != "recovered":
            if rc is not None and rc.evidence is not None:
                e = rc.evidence
                lines.append(f"  evidence: {e.file}:{e.line_no}: {e.text.splitlines()[-1][:160] if e.text else ''}")
            if v.initiating is not None:
                i = v.initiating
                lines.append("  initiating: " + (f"rank {i.rank}" if i.kind == "rank" and i.rank is not None else i.kind)
                             + f", category {rc.category if rc else '?'}, confidence {v.initiating.confidence:.2f}")
            if a.timeout_fires_at is not None:
                lines.append(f"  the collective timeout ({a.timeout_s:g}s) fires at about "
                             f"{a.timeout_fires_at.strftime('%H:%M:%S')} UTC")
            lines += [f"  missing: {m}" for m in v.missing[:3]]
        self._print(self._mask("\n".join(lines)))
        payload = v.model_dump(mode="json")
        self._json({"type": "alert", **payload})
        if self.on_alert:
            self._run(payload, v)

    def _run(self, payload: dict, v) -> None:
        from correlator.report.redact import redact_obj

        body = json.dumps(redact_obj(payload) if self.redact else payload, default=str).encode()
        env = dict(os.environ, CORRELATOR_ALERT_KIND=v.alert.kind, CORRELATOR_ALERT_ID=str(v.alert.id),
                   CORRELATOR_ALERT_RANK="" if v.initiating is None or v.initiating.rank is None
                   else str(v.initiating.rank))
        try:
            child = subprocess.Popen(self.on_alert, shell=True, stdin=subprocess.PIPE, env=env)
        except OSError as exc:
            self._print(f"watch: --on-alert could not start: {exc}")
            return
        try:
            child.communicate(body, timeout=0.5)
        except subprocess.TimeoutExpired:  # still running: reaped later, the watch goes on
            pass
        except BrokenPipeError:
            pass
        self._children.append(child)
        self._children = [c for c in self._children if c.poll() is None]

    def status(self, s: dict) -> None:
        self._json(s)
        if not self.tty and not self.quiet:
            self._print(self._mask("watch: " + status_line(s)))

    def live(self, s: dict) -> None:
        """Redraw the status line (a terminal only)."""
        if not self.tty or self.quiet:
            return
        width = max(40, shutil.get_terminal_size((120, 24)).columns - 1)
        self._line = self._mask("watch: " + status_line(s))[:width]
        self.err.write("\r\033[K" + self._line)
        self.err.flush()

    def note(self, text: str) -> None:
        if not self.quiet:
            self._print(self._mask(f"watch: {text}"))

    def close(self) -> None:
        if self.tty and self._line:
            self.err.write("\r\033[K")
            self._line = ""
        for c in self._children:
            with contextlib.suppress(subprocess.TimeoutExpired):
                c.wait(timeout=10)


def status_line(s: dict) -> str:
    """One line: ranks seen, each rank's last step and seconds since its last line, errors so far."""
    ranks = s["ranks"]
    state = {"starting": "no progress lines yet", "progressing": "progressing", "some_late": "some ranks late",
             "rank_silent": "SILENT: " + ", ".join(s["silent"]),
             "all_paused": f"all ranks paused {s['paused_for_s']:.0f}s",
             "all_paused_long": f"ALL RANKS STOPPED {s['paused_for_s']:.0f}s"}.get(s["state"], s["state"])
    shown = []
    for r in ranks[:8]:
        step = f" step {r['step']}" if r["step"] is not None else ""
        shown.append(f"{r['rank'].replace('rank ', 'r')}{step} {r['last_line_s']:.0f}s")
    more = f" +{len(ranks) - 8} more" if len(ranks) > 8 else ""
    head = f"{len(ranks)} ranks, {s['files']} files | {state} | errors {s['errors']}"
    return head + (" | " + "; ".join(shown) + more if shown else "")


@click.command(name="watch")
@click.argument("target", type=TARGET)
@click.option("--json", "json_path", type=click.Path(dir_okay=False),
              help="Append each alert, each change of status and the final verdict as JSON lines to FILE.")
@click.option("--on-alert", "on_alert", metavar="CMD",
              help="Run CMD (a shell command) for each alert, the alert's JSON on its standard input; "
                   "$CORRELATOR_ALERT_RANK names the suspected rank.")
@click.option("--idle", "idle_s", type=click.FloatRange(min=1), default=600, show_default=True,
              help="End when every file has been idle this many seconds (or a minute past the collective "
                   "timeout the logs state, if longer).")
@click.option("--follow", "follow", type=click.Choice(["auto", "notify", "poll"]), default="auto",
              show_default=True,
              help="How changes are noticed: notify (the filesystem's change notifications), poll (a timer), "
                   "auto (notify on a local filesystem, poll on NFS, Lustre, GPFS, CephFS, SMB, FUSE...: "
                   "notifications do not see other machines' writes).")
@click.option("--poll", "poll_s", type=click.FloatRange(min=0.05), default=2.0, show_default=True,
              help="Seconds between polls; with notifications, the shortest time between two reads while "
                   "files keep changing. An analysis due sooner polls sooner.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="The post-mortem at the end: the terminal story or the verdict JSON (as analyze).")
@click.option("--no-redact", is_flag=True, help="Do not mask tokens, keys and passwords in alerts and the report.")
@tz_option
@click.option("--exclude", multiple=True, metavar="GLOB", help="Leave out files matching GLOB (repeatable).")
@click.option("--workers", type=WORKERS, default=None, help="Parallel processes for the analyses.")
@click.option("--rules", "rules_dirs", multiple=True, type=click.Path(exists=True),
              help="Extra rule directory or file (repeatable).")
def watch_cmd(
    target: str, json_path: str | None, on_alert: str | None, idle_s: float, poll_s: float, fmt: str,
    follow: str, no_redact: bool, tz: str, exclude: tuple[str, ...], workers: int | None, rules_dirs: tuple[str, ...],
) -> None:
    """Follow a running job's logs; alert while it runs; print the post-mortem when it ends.

    TARGET is a log directory (a torchrun --log-dir tree, per-rank files, a Slurm
    output file's folder), one log file, or - for standard input. Files are read
    as they grow (new files, attempt_N/ restarts, rotated or truncated files) and
    parsed as ingest parses them. The live status and the alerts go to stderr; the
    job ends at its launcher's exit line, when standard input closes, after --idle
    seconds without a new byte, or on Ctrl-C, and then the post-mortem is printed
    as analyze prints it, with analyze's exit code (0 healthy, 1 failed,
    3 inconclusive, 2 error).

    \b
    Example:
      correlator watch /shared/jobs/1234/logs/
      srun ... 2>&1 | tee train.log | correlator watch -
      correlator watch logs/ --json alerts.jsonl --on-alert 'notify-team.sh'
    """
    from correlator import progress
    from correlator.report.redact import redact, redact_verdict
    from correlator.report.terminal import clean, strip_controls
    from correlator.report.text import render
    from correlator.watch.session import Session, WatchOptions

    guard_outputs((json_path,), (target,))
    if json_path and target != "-" and Path(target).is_dir() and \
            Path(json_path).resolve().is_relative_to(Path(target).resolve()):
        raise click.UsageError("--json FILE inside the watched folder would be read as a log: put it elsewhere")
    progress.bars_off()  # the status line is the live display
    options = WatchOptions(
        poll_s=poll_s, idle_s=idle_s, rules_dirs=rules_dirs, follow=follow,  # type: ignore[arg-type]
        ingest=IngestOptions(tz=tz, workers=workers, exclude=exclude, echo_problems=False),
    )
    json_out = open(json_path, "a", encoding="utf-8") if json_path else None  # noqa: SIM115 (closed below)
    console = _Console(json_out, on_alert, not no_redact, progress.quiet())
    try:
        session = Session(target, console, options)
        verdict = session.run(before_wait=lambda: console.live(session.status()))
        console.close()
        if verdict is None:
            click.echo(f"error: nothing to read in {target}", err=True)
            sys.exit(EXIT_NOTHING_READ)
        if not progress.quiet():
            click.echo(f"watch: the job ended ({session.ended}); the post-mortem follows", err=True)
        shown = verdict if no_redact else redact_verdict(verdict)
        text = shown.model_dump_json(indent=2) + "\n" if fmt == "json" else clean(render(shown))
        if not no_redact:
            text = redact(text)
        console._json({"type": "final", **shown.model_dump(mode="json")})
    finally:
        console.close()
        if json_out is not None:
            json_out.close()
    click.echo(strip_controls(text) if fmt == "json" else clean(text), nl=False)
    sys.exit({"healthy": EXIT_HEALTHY, "failed": EXIT_FAILED, "inconclusive": EXIT_INCONCLUSIVE}[verdict.status])

