"""The ``correlator`` command: a thin click layer over the library.

Nothing below imports it: every command parses its options and calls the library.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from correlator import __version__
from correlator.cli.common import (
    WORKERS,
    CliError,
    Main,
    address_option,
    engine_option,
    guard_outputs,
    make_engine,
    tz_option,
)
from correlator.cli.reports import TARGET
from correlator.ingest import IngestOptions, NothingToRead
from correlator.progress import quiet, step

# Polars, pyarrow, DuckDB, the rulebook and pydantic are imported by the commands that
# use them, not here: ``--help`` and ``rules list`` need none of them (0.4 s of imports),
# and an ingest of a big directory hands its files to the workers ~0.2 s sooner.

# Exit codes: 0 ok, 2 an error: a usage error (click's own, a missing path included),
# nothing could be read, an input that is not a timeline, an output that cannot be
# written or would overwrite an input (``cli.common``). analyze: 1 failed, 3 inconclusive.
EXIT_NOTHING_READ = 2


def _options(tz: str, job: str | None, workers: int | None, exclude: tuple[str, ...] = ()) -> IngestOptions:
    return IngestOptions(tz=tz, job=job, workers=workers, exclude=exclude)


_tz_option = tz_option
_job_option = click.option("--job", default=None, help="Job name (default: the target's name).")
_exclude_option = click.option(
    "--exclude", multiple=True, metavar="GLOB",
    help="Leave out files matching GLOB (repeatable); a .correlatorignore in the directory adds more.",
)
_workers_option = click.option(
    "--workers", type=WORKERS, default=None, help="Parallel processes (default: one per CPU)."
)


@click.group(cls=Main)
@click.version_option(__version__, prog_name="correlator")
@click.option("-q", "--quiet", is_flag=True,
              help="No progress bars and no summary lines on stderr: only the result and errors.")
def main(quiet: bool) -> None:
    """Find the rank that broke a distributed training job.

    TARGET (wherever a command takes one) is a log directory, a single log file,
    a .tar/.tar.gz of a log directory, or - for standard input.

    Long steps show progress bars on stderr when it is a terminal (never when it
    is piped, or with --quiet; CORRELATOR_PROGRESS=always|never overrides).
    """
    from correlator import progress

    if progress.configure(quiet=quiet, stream=Main.real_stderr()):
        sys.stderr = progress.AboveBars(sys.stderr)  # warnings mid-step print above the bar (Main restores it)


@main.command(name="ingest")
@click.argument("target", type=TARGET)
@click.option("--out", "out", type=click.Path(),
              help="Write the timeline as Parquet: one file, or a directory of parts when OUT ends with / or "
                   ".timeline or is a directory.")
@click.option("--db", "db", type=click.Path(dir_okay=False), help="Write a DuckDB database.")
@_tz_option
@_job_option
@_exclude_option
@_workers_option
@engine_option
@address_option
@click.option("--redact", is_flag=True,
              help="Mask tokens, keys and passwords in the timeline (default: the logs' text as it is).")
def ingest_cmd(
    target: str, out: str | None, db: str | None, tz: str, job: str | None,
    exclude: tuple[str, ...], workers: int | None, engine: str, address: str | None, redact: bool,
) -> None:
    """Parse TARGET's logs into one timeline (Parquet and/or DuckDB).

    The timeline keeps the logs' text as it is, secrets included: it is a copy of
    the logs. --redact masks them (reports and exports always do, unless told).

    --out DIR/ (or NAME.timeline) keeps the timeline as a directory of Parquet parts
    that DuckDB, Polars and Spark read as one table, and every correlator command
    takes as a timeline: nothing is copied into one file (for jobs of many GB).

    \b
    Example:
      correlator ingest sample_logs/gloo-data-error-per-rank/ --out job.parquet
      correlator ingest slurm-4242.out --db job.duckdb --tz Europe/Berlin
      correlator ingest /shared/big-job/ --out big-job.timeline/ --engine ray
    """
    if out is None and db is None:
        raise click.UsageError("say where the timeline goes: --out FILE.parquet and/or --db FILE.duckdb")
    if out and db and Path(out).resolve() == Path(db).resolve():
        raise CliError(f"--out and --db are the same file: {out}")
    from correlator.timeline.parts_dir import is_timeline_dir, means_directory

    out_dir = out if out and means_directory(out) else None
    if out_dir is not None:
        if redact:
            raise CliError("--redact writes one Parquet file: not yet a directory of parts (--out FILE.parquet)")
        if Path(out_dir).is_dir() and any(Path(out_dir).iterdir()) and not is_timeline_dir(out_dir):
            raise CliError(f"refusing to write the timeline into {out_dir}: a directory that is not a timeline "
                           "(name a new or empty one)")
        guard_outputs((out_dir,), (target,), dirs=True)
    guard_outputs((None if out_dir else out, db), (target,))
    from correlator.ingest import ingest

    runner = make_engine(engine, workers, address)
    try:
        if redact:
            from correlator.cli.redacted import ingest_redacted

            result = ingest_redacted(target, out, db, _options(tz, job, workers, exclude), engine=runner)
        else:
            result = ingest(target, out_parquet=None if out_dir else out, out_db=db, out_dir=out_dir,
                            options=_options(tz, job, workers, exclude), engine=runner)
    except NothingToRead as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_NOTHING_READ)
    mb = result.bytes_read / 1e6
    if not quiet():
        click.echo(
            f"{result.job}: {result.files} files, {result.lines:,} lines, {result.events:,} events, "
            f"{len(result.problems.items)} problems, {mb:.1f} MB in {result.seconds:.2f}s (stamps without a zone read as {tz})",
            err=True,
        )
    for dest in (out, db):
        if dest:
            click.echo(dest)


@main.command(name="sql")
@click.argument("target", type=TARGET)
@click.argument("query")
@click.option(
    "--format", "fmt", type=click.Choice(["table", "csv", "json", "parquet"]), default="table",
    show_default=True, help="Output format.",
)
@click.option("--out", type=click.Path(dir_okay=False), help="Write to a file (required for parquet).")
@click.option(
    "--unsafe", is_flag=True,
    help="Let the query read and write other files (read_csv, COPY ... TO, ATTACH), install and load "
         "extensions and reach the network. Off by default: a query sees the timeline only.",
)
@_tz_option
@_exclude_option
@_workers_option
def sql_cmd(
    target: str, query: str, fmt: str, out: str | None, unsafe: bool, tz: str, exclude: tuple[str, ...],
    workers: int | None,
) -> None:
    """Run SQL over a timeline: views events, files, problems.

    TARGET is a Parquet timeline (a file or a directory of parts), a DuckDB file, or logs
    (ingested on the fly).
    The query reads the timeline and nothing else (no other file, no network, no
    extension to load, no COPY or ATTACH) unless --unsafe.

    \b
    Example:
      correlator sql job.parquet "SELECT ts, rank, message FROM events WHERE level = 'ERROR' ORDER BY ts LIMIT 20"
      correlator sql sample_logs/torchrun-tee-console/ "SELECT rank, level, count(*) FROM events GROUP BY ALL ORDER BY ALL"
    """
    from correlator.target import open_timeline

    if fmt == "parquet" and not out:
        raise click.UsageError("--format parquet needs --out FILE")
    if not unsafe:
        _only_reads(query)
    guard_outputs((out,), (target,))
    try:
        with open_timeline(target, _options(tz, None, workers, exclude), safe=not unsafe) as con:
            try:
                rel = con.sql(query)
            except Exception as exc:  # duckdb's own message says what is wrong with the query
                raise CliError(str(exc)) from exc
            if rel is None:
                return
            _emit(con, rel, fmt, out)
    except NothingToRead as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_NOTHING_READ)


# What a query may do without --unsafe. DuckDB's own settings (external access off,
# locked) already keep it from other files; these statements could still write over
# the timeline itself, which it must read: COPY ... TO, EXPORT, ATTACH.
_SAFE_STATEMENTS = {"SELECT", "EXPLAIN", "CALL", "PRAGMA", "CREATE", "DROP", "INSERT", "UPDATE", "DELETE",
                    "ALTER", "MULTI", "PREPARE", "EXECUTE", "TRANSACTION", "VARIABLE_SET", "SET"}


def _only_reads(query: str) -> None:
    import duckdb

    try:
        statements = duckdb.extract_statements(query)
    except duckdb.Error as exc:
        raise CliError(str(exc)) from exc
    for st in statements:
        kind = str(st.type).rpartition(".")[2]
        if kind not in _SAFE_STATEMENTS:
            raise CliError(f"{kind} statements are off: the query may only read the timeline (--unsafe allows it)")


def _emit(con, rel, fmt: str, out: str | None) -> None:
    from correlator.output import atomic_path, atomic_write_text
    from correlator.report.terminal import clean, strip_controls

    if fmt == "parquet":
        # written here, not by DuckDB (COPY), which may touch no file but the timeline
        import pyarrow.parquet as pq

        reader = rel.to_arrow_reader()
        with atomic_path(out) as tmp, pq.ParquetWriter(tmp, reader.schema, compression="zstd") as writer:
            for batch in reader:
                writer.write_batch(batch)
        return
    if fmt == "csv":
        # CSV has no nested values: lists, structs and maps are written as JSON text
        nested = [c for c, t in zip(rel.columns, rel.types, strict=True) if str(t).endswith("]") or str(t).startswith(("STRUCT", "MAP"))]
        if nested:
            rel = rel.project(", ".join(
                f'to_json("{c}")::VARCHAR AS "{c}"' if c in nested else f'"{c}"' for c in rel.columns
            ))
        text = rel.pl().write_csv()
    elif fmt == "json":
        text = rel.pl().write_ndjson()
    else:
        import polars as pl

        # folded events span lines: show them on one row of the table
        df = rel.pl().with_columns(pl.col(pl.String).str.replace_all("\n", " ⏎ ", literal=True))
        with pl.Config(tbl_rows=200, tbl_cols=-1, fmt_str_lengths=100, tbl_width_chars=200,
                       tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
            text = str(df) + "\n" + f"({df.height} row{'s' if df.height != 1 else ''})\n"
        text = clean(text)  # the logs' escape sequences must not reach the terminal
    if out:
        atomic_write_text(out, text)
    else:
        click.echo(strip_controls(text) if fmt == "json" else clean(text), nl=False)


# --------------------------------------------------------------------------- analyze

# Exit codes of analyze: the job's state, so scripts can branch on it.
EXIT_HEALTHY, EXIT_FAILED, EXIT_INCONCLUSIVE = 0, 1, 3


@main.command(name="analyze")
@click.argument("target", type=TARGET)
@click.option("--baseline", default=None, type=TARGET, help="Logs (or timeline) of a known-good run to diff against.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "md", "html"]), default="text", show_default=True,
    help="text: the terminal story; json: the verdict; md / html: a post-mortem report.",
)
@click.option("--out", type=click.Path(dir_okay=False), help="Write the report to a file.")
@click.option("--no-redact", is_flag=True, help="Do not mask tokens, keys and passwords in the output.")
@_tz_option
@_exclude_option
@_workers_option
@click.option(
    "--rules", "rules_dirs", multiple=True, type=click.Path(exists=True),
    help="Extra rule directory or file (repeatable).",
)
def analyze_cmd(
    target: str, baseline: str | None, fmt: str, out: str | None, no_redact: bool, tz: str,
    exclude: tuple[str, ...], workers: int | None, rules_dirs: tuple[str, ...],
) -> None:
    """Find the initiating rank, the first deviating line, root cause and collateral.

    Exit code: 0 healthy, 1 failed, 3 inconclusive, 2 error.

    \b
    Example:
      correlator analyze sample_logs/gloo-data-error-per-rank/
      correlator analyze logs/ --baseline good-run/ --format json | jq .initiating
    """
    from correlator.analysis.analyze import analyze
    from correlator.analysis.rulebook import RuleError
    from correlator.cli.reports import render_report
    from correlator.output import atomic_write_text
    from correlator.report.redact import redact, redact_verdict
    from correlator.report.terminal import clean, strip_controls
    from correlator.report.text import render

    guard_outputs((out,), (target, baseline, *rules_dirs))
    opts = _options(tz, None, workers, exclude)
    try:
        if fmt in ("md", "html"):
            with step("report"):  # the analysis's own steps show inside it
                verdict, text = render_report(fmt, target, baseline=baseline, rules_dirs=rules_dirs,
                                              options=opts, redact=not no_redact)
        else:
            verdict = analyze(target, baseline=baseline, rules_dirs=rules_dirs, options=opts)
            with step("report"):
                shown = verdict if no_redact else redact_verdict(verdict)
                text = shown.model_dump_json(indent=2) + "\n" if fmt == "json" else clean(render(shown))
                if not no_redact:
                    text = redact(text)
    except NothingToRead as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_NOTHING_READ)
    except RuleError as exc:  # exit 2, not 1: 1 says the job failed
        raise CliError(f"invalid rules:\n{exc}", lines=True) from exc
    if out:
        atomic_write_text(out, text)
    else:
        click.echo(strip_controls(text) if fmt in ("json", "html") else clean(text), nl=False)
    sys.exit({"healthy": EXIT_HEALTHY, "failed": EXIT_FAILED, "inconclusive": EXIT_INCONCLUSIVE}[verdict.status])


@main.command(name="eval")
@click.argument("root", type=click.Path(exists=True, file_okay=False))
@click.option(
    "--min", "minimums", multiple=True, metavar="[FOLDER:]FIELD=FRACTION",
    help="Fail (exit 1) when a field's accuracy is below FRACTION, e.g. --min rank=1.0, over every "
         "scenario, or over one folder's: --min public:status=0.6 ('.' is ROOT's own level; repeatable).",
)
@click.option("--json", "as_json", is_flag=True, help="Print results as JSON.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Scenarios analyzed at once, one process each (default: the CPU count).")
def eval_cmd(root: str, minimums: tuple[str, ...], as_json: bool, workers: int | None) -> None:
    """Analyze every scenario under ROOT and compare with its truth.json.

    \b
    Example:
      correlator eval sample_logs/ --min .:rank=1.0 --min public:category=0.4
    """
    import json

    from correlator.analysis.evaluate import FIELDS, accuracy, by_folder, evaluate, render_table

    wanted: dict[tuple[str | None, str], float] = {}
    for m in minimums:
        spec, _, frac = m.partition("=")
        folder, _, name = spec.rpartition(":")
        try:
            value = float(frac)
        except ValueError:
            value = -1.0
        if name not in FIELDS or not 0.0 <= value <= 1.0:
            raise click.UsageError(f"--min {m!r}: use [FOLDER:]FIELD=FRACTION with FIELD one of {', '.join(FIELDS)} "
                                   "and FRACTION from 0 to 1")
        wanted[(folder or None, name)] = value
    results = evaluate(Path(root), workers=workers)
    acc = accuracy(results)
    folders = {k: accuracy(v) for k, v in by_folder(results).items()}
    if as_json:
        click.echo(json.dumps({
            "scenarios": [
                {"name": r.name, "error": r.error,
                 "fields": {k: {"expected": v.expected, "got": v.got, "ok": v.ok} for k, v in r.fields.items()}}
                for r in results],
            "accuracy": {k: (ok / n if n else None) for k, (ok, n) in acc.items()},
            "by_folder": {folder: {k: (ok / n if n else None) for k, (ok, n) in a.items()}
                          for folder, a in folders.items()},
        }, indent=2, default=str))
    else:
        click.echo(render_table(results), nl=False)
    below = []
    for (folder, f), w in wanted.items():
        a = acc if folder is None else folders.get(folder)
        if a is None:
            raise click.UsageError(f"--min {folder}:{f}: no scenarios in folder {folder!r} (have: {', '.join(folders)})")
        if f in a and a[f][1] and a[f][0] / a[f][1] < w:
            below.append(f"{(folder + ':') if folder else ''}{f} {a[f][0]}/{a[f][1]} < {w:.0%}")
    if below:
        click.echo("below threshold: " + "; ".join(below), err=True)
        sys.exit(1)


@main.command(name="schema")
def schema_cmd() -> None:
    """Print the JSON Schema of the verdict (analyze --format json)."""
    import json

    from correlator.verdict import Verdict

    click.echo(json.dumps(Verdict.model_json_schema(), indent=2))


# --------------------------------------------------------------------------- reports

from correlator.cli.reports import batch_cmd, export_cmd  # noqa: E402 (commands live beside their code)
from correlator.cli.watch import watch_cmd  # noqa: E402

main.add_command(export_cmd)
main.add_command(batch_cmd)
main.add_command(watch_cmd)


# --------------------------------------------------------------------------- rules

_rules_dirs = click.option(
    "--rules", "rules_dirs", multiple=True, type=click.Path(exists=True),
    help="Extra rule directory or file (repeatable), added to the built-in rules.",
)


def _load(rules_dirs: tuple[str, ...], builtin: bool = True) -> list:
    from correlator.analysis.rulebook import RuleError, load_rules

    try:
        return load_rules([Path(d) for d in rules_dirs], builtin=builtin)
    except RuleError as exc:
        raise CliError(f"invalid rules:\n{exc}", lines=True) from exc


@main.group(name="rules")
def rules_group() -> None:
    """The knowledge base: list, show, test and import failure rules."""


@rules_group.command(name="list")
@_rules_dirs
@click.option("--category", default=None, help="Only this category.")
def rules_list(rules_dirs: tuple[str, ...], category: str | None) -> None:
    """One line per rule: id, role, category, evidence, title.

    \b
    Example:
      correlator rules list --category oom
    """
    for lr in _load(rules_dirs):
        r = lr.rule
        if category and r.category != category:
            continue
        click.echo(f"{r.id:42s} {r.role:10s} {r.category:20s} {r.evidence.kind:10s} {r.title}")


@rules_group.command(name="show")
@click.argument("rule_id")
@_rules_dirs
def rules_show(rule_id: str, rules_dirs: tuple[str, ...]) -> None:
    """Print one rule as YAML, with the file it comes from.

    \b
    Example:
      correlator rules show cuda-oom
    """
    import yaml

    for lr in _load(rules_dirs):
        if lr.rule.id == rule_id:
            click.echo(f"# {lr.path}")
            click.echo(yaml.safe_dump(lr.rule.model_dump(exclude_defaults=True), sort_keys=False, allow_unicode=True))
            return
    raise CliError(f"no rule {rule_id!r} (see: correlator rules list)")


@rules_group.command(name="test")
@_rules_dirs
@click.option("--no-builtin", is_flag=True, help="Test only the --rules directories.")
def rules_test(rules_dirs: tuple[str, ...], no_builtin: bool) -> None:
    """Check every rule's examples match it and its near misses do not.

    Examples run through the real parsing pipeline, so a rule that names a
    parser kind is tested together with that parser.

    \b
    Example:
      correlator rules test --rules my-rules/
    """
    from correlator.analysis.classifier import check_classifier
    from correlator.analysis.rulebook import check_examples

    results = check_examples(_load(rules_dirs, builtin=not no_builtin))
    results += check_classifier(tuple(Path(d) for d in rules_dirs), builtin=not no_builtin)
    failed = [r for r in results if not r.ok]
    for r in failed:
        what = "example does not match" if r.expected else "near miss matches"
        first = r.text.splitlines()[0][:100] if r.text else ""
        click.echo(f"FAIL {r.rule_id} ({r.path}): {what}: {first!r}")
    rules = len({r.rule_id for r in results})
    click.echo(f"{len(results) - len(failed)} passed, {len(failed)} failed ({rules} rules and classifier entries)")
    if failed:
        sys.exit(1)


@rules_group.command(name="import")
@click.argument("encyclopedia", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True, help="Directory for the rule files.")
def rules_import(encyclopedia: str, out_dir: str) -> None:
    """Convert encyclopedia entries (JSON object or list, the seeds' shape) to rule files.

    Imported rules are marked evidence: secondhand.

    \b
    Example:
      correlator rules import tests/data/encyclopedia_entry.json --out my-rules/
    """
    import json

    import yaml

    from correlator.analysis.rulebook import import_encyclopedia
    from correlator.output import OutputRefused, atomic_write_text, refuse_overwriting_inputs

    try:
        data = json.loads(Path(encyclopedia).read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CliError(f"{encyclopedia}: not JSON ({exc})") from exc
    entries = data if isinstance(data, list) else [data]
    docs = import_encyclopedia(entries, Path(encyclopedia).name)
    out = Path(out_dir)
    paths = [out / (doc["id"].replace("/", "__") + ".yaml") for doc in docs]
    guard_outputs((out_dir,), (), dirs=True)  # its parent exists: it is made below
    try:
        refuse_overwriting_inputs(paths, (encyclopedia,))
    except OutputRefused as exc:
        raise CliError(str(exc)) from exc
    out.mkdir(parents=True, exist_ok=True)
    for doc, path in zip(docs, paths, strict=True):
        atomic_write_text(path, yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
        click.echo(path)
    # fail now, not at the next analyze, if the result does not validate
    _load((str(out),), builtin=False)
