"""Click commands for reports: ``export`` (Perfetto trace) and ``batch``.

Registered on the main group in ``correlator/cli/__init__.py``; ``render_report`` is what
``analyze --format md|html`` calls.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from correlator.cli.common import (
    WORKERS,
    CliError,
    address_option,
    engine_option,
    guard_outputs,
    make_engine,
    tz_option,
)
from correlator.ingest import IngestOptions, NothingToRead

if TYPE_CHECKING:  # the rulebook and pydantic load with the commands that use them
    from correlator.verdict import Verdict

# A missing path is a usage error (exit 2) naming it, not a traceback; "-" is stdin.
TARGET = click.Path(exists=True, allow_dash=True)

EXIT_NOTHING_READ = 2


def render_report(
    fmt: str,
    target: str,
    *,
    baseline: str | None = None,
    rules_dirs: tuple[str, ...] = (),
    options: IngestOptions | None = None,
    builtin_rules: bool = True,
    redact: bool = True,
) -> tuple[Verdict, str]:
    """The verdict and its report as ``md`` or ``html`` text (secrets masked unless told)."""
    from correlator.report.common import load_report_data

    data = load_report_data(target, baseline=baseline, rules_dirs=rules_dirs, options=options,
                            builtin_rules=builtin_rules)
    if fmt == "html":
        from correlator.report.html import render_html

        return data.verdict, render_html(data.verdict, data.events, data.facts, redact=redact)
    if fmt in ("md", "markdown"):
        from correlator.report.markdown import render_markdown

        return data.verdict, render_markdown(data.verdict, data.events, data.facts, redact=redact)
    raise ValueError(f"unknown report format {fmt!r}")


_rules_option = click.option(
    "--rules", "rules_dirs", multiple=True, type=click.Path(exists=True),
    help="Extra rule directory or file (repeatable).",
)
_no_redact_option = click.option(
    "--no-redact", is_flag=True,
    help="Keep tokens, keys, passwords and URL credentials as they are (masked by default).",
)


@click.command(name="export")
@click.argument("target", type=TARGET)
@click.option("--format", "fmt", type=click.Choice(["perfetto"]), default="perfetto", show_default=True,
              help="perfetto: Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing).")
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="Output file (trace.json).")
@click.option("--baseline", default=None, type=TARGET, help="Logs (or timeline) of a known-good run to diff against.")
@click.option("--max-events", type=click.IntRange(min=0), default=20_000, show_default=True,
              help="Log events drawn as instants (findings, warnings and errors first; then an even sample). "
                   "About 400 bytes of trace each.")
@tz_option
@click.option("--exclude", multiple=True, metavar="GLOB", help="Leave out files matching GLOB (repeatable).")
@click.option("--workers", type=WORKERS, default=None, help="Parallel processes for parsing.")
@_rules_option
@click.option("--no-builtin", is_flag=True, help="Use only the --rules directories.")
@_no_redact_option
def export_cmd(
    target: str, fmt: str, out: str, baseline: str | None, max_events: int, tz: str, exclude: tuple[str, ...],
    workers: int | None, rules_dirs: tuple[str, ...], no_builtin: bool, no_redact: bool,
) -> None:
    """Export TARGET as a trace: a process per node, a track per rank, phases, findings
    and arrows from the root cause to its collateral.

    \b
    Example:
      correlator export logs/ --format perfetto --out trace.json
      (then open trace.json in ui.perfetto.dev or chrome://tracing)
    """
    from correlator.analysis.analyze import analysis_open
    from correlator.analysis.rulebook import RuleError
    from correlator.report.perfetto import perfetto_trace, step_events, trace_span, write_trace
    from correlator.report.sample import report_events

    guard_outputs((out,), (target, baseline, *rules_dirs))
    options = IngestOptions(tz=tz, workers=workers, exclude=exclude)
    try:
        # one open timeline: the verdict, then what the trace draws, on the same connection
        with analysis_open(target, baseline=baseline, rules_dirs=rules_dirs, options=options,
                           builtin_rules=not no_builtin) as (verdict, con):
            _stage("verdict decided; drawing the trace")
            events = report_events(con, max_events)
            steps = step_events(con, verdict)
            window = trace_span(con)
    except NothingToRead as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_NOTHING_READ)
    except RuleError as exc:
        raise CliError(f"invalid rules:\n{exc}", lines=True) from exc
    trace = perfetto_trace(verdict, events, steps, redact=not no_redact, window=window)
    write_trace(trace, out)
    n = len(trace["traceEvents"])
    left_out = trace["otherData"].get("outside_span", {}).get("events", 0)
    click.echo(f"{verdict.job}: {n:,} trace events ({events.num_rows:,} of {verdict.events:,} log events, "
               f"{steps.num_rows:,} steps"
               + (f"; {left_out:,} node lines outside the job's span summarised" if left_out else "")
               + f") -> {out}", err=True)


def _stage(what: str) -> None:
    """A progress line on stderr while a long job is read (only on a terminal)."""
    if sys.stderr.isatty():
        click.echo(f"… {what}", err=True)


@click.command(name="batch")
@click.argument("root", type=click.Path(exists=True))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Output directory (summary.parquet, index.html, jobs/, timelines/).")
@click.option("--workers", type=WORKERS, default=None,
              help="Jobs analysed in parallel (default: one per CPU; with --engine ray, the cluster's CPUs).")
@click.option("--force", is_flag=True, help="Analyse again jobs already analysed in --out.")
@tz_option
@click.option("--no-html", is_flag=True, help="Skip the per-job HTML reports (verdict JSON only).")
@click.option("--exclude", multiple=True, metavar="GLOB",
              help="Leave out files matching GLOB in every job (repeatable), e.g. --exclude truth.json.")
@click.option("--job-timeout", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Stop a job that takes longer and record it as an error (default: no limit).")
@engine_option
@address_option
@_rules_option
@click.option("--no-builtin", is_flag=True, help="Use only the --rules directories.")
@_no_redact_option
def batch_cmd(
    root: str, out_dir: str, workers: int | None, force: bool, tz: str, no_html: bool, exclude: tuple[str, ...],
    job_timeout: float | None, engine: str, address: str | None, rules_dirs: tuple[str, ...], no_builtin: bool,
    no_redact: bool,
) -> None:
    """Analyse every job directory under ROOT (or matching a glob) into --out.

    Resumable: jobs already analysed are skipped unless --force. A job that cannot
    be analysed becomes an "error" row; the batch goes on. Exit code: 0, or 1 when
    some job could not be analysed.

    \b
    Example:
      correlator batch /data/crashed-jobs/ --out reports/
      correlator batch '/data/crashed-jobs/2024-06-*' --out reports/ --workers 8
      correlator batch /data/crashed-jobs/ --out reports/ --job-timeout 600
      correlator batch /shared/crashed-jobs/ --out /shared/reports/ --engine ray --address auto
      correlator sql reports/ "SELECT category, count(*) FROM summary GROUP BY 1"
    """
    from correlator.analysis.rulebook import RuleError, load_rules
    from correlator.batch.run import BatchOptions, run_batch

    guard_outputs((out_dir,), (), dirs=True)
    try:  # fail once, here, rather than once per job in the workers
        load_rules([Path(d) for d in rules_dirs], builtin=not no_builtin)
    except RuleError as exc:
        raise CliError(f"invalid rules:\n{exc}", lines=True) from exc
    opts = BatchOptions(workers=workers, force=force, redact=not no_redact, rules_dirs=rules_dirs,
                        builtin_rules=not no_builtin, tz=tz, html=not no_html, exclude=exclude,
                        job_timeout=job_timeout, engine=engine, address=address)
    # made before any job is looked at: a missing Ray is one line, not a failure per job
    runner = make_engine(engine, workers, address)
    try:
        result = run_batch(root, out_dir, opts, engine=runner)
    except FileNotFoundError as exc:
        raise CliError(str(exc)) from exc
    click.echo(str(Path(out_dir) / "index.html"))
    if result.errors:
        sys.exit(1)
