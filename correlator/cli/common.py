"""What every command shares: its errors (exit 2, one line), option checks, and
the rule that outputs never land on inputs.

A command's error is one line on stderr and exit code 2, never a traceback, for
what the user can fix: an input that is not a readable timeline, an output that
cannot be written (missing or read-only directory, full disk), an output that
would overwrite an input, a bad option value. ``CORRELATOR_DEBUG=1`` shows the
traceback instead.
"""

from __future__ import annotations

import errno
import os
import sys
import zoneinfo
from collections.abc import Iterable

import click

from correlator.ingest import NothingToRead
from correlator.output import (
    OutputRefused,
    check_writable_dir,
    exit_on_sigterm,
    refuse_overwriting_inputs,
)
from correlator.report.terminal import CleanStream, clean, clean_line

EXIT_ERROR = 2


class CliError(click.ClickException):
    """One line on stderr, exit code 2 (analyze keeps 1 for "the job failed")."""

    exit_code = EXIT_ERROR

    def __init__(self, message: str, *, lines: bool = False) -> None:
        super().__init__(message)
        self.lines = lines  # a list of problems (invalid rules), one a line

    def format_message(self) -> str:
        return clean(self.message).rstrip() if self.lines else clean_line(self.message)


def _os_message(exc: OSError) -> str:
    what = exc.strerror or (str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    if exc.filename:
        return f"{exc.filename}: {what}"
    return what


def _is_duckdb_io(exc: BaseException) -> bool:
    # not imported here: loading DuckDB costs an ingest ~0.2 s before its workers start
    return type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb") and type(exc).__name__ in (
        "IOException", "PermissionException", "OutOfMemoryException", "InvalidInputException",
        "SerializationException")


class Main(click.Group):
    """The ``correlator`` group: user-fixable failures of any command become ``CliError``."""

    @staticmethod
    def real_stderr():
        """stderr beneath the cleaning wrapper ``invoke`` puts on it: a progress bar's
        carriage returns are its own, not a log's, and must reach the terminal."""
        return getattr(sys.stderr, "_stream", sys.stderr) if isinstance(sys.stderr, CleanStream) else sys.stderr

    def invoke(self, ctx: click.Context):
        exit_on_sigterm()  # a kill mid-write removes the temporary file, as Ctrl-C does
        stderr = sys.stderr
        sys.stderr = CleanStream(stderr)  # warnings name files; names come from archives
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:
            if os.environ.get("CORRELATOR_DEBUG"):
                raise
            target = sys.modules.get("correlator.target")  # loaded if it raised (and it loads DuckDB)
            if isinstance(exc, OutputRefused | NothingToRead) or (target and isinstance(exc, target.NotATimeline)):
                raise CliError(str(exc)) from exc
            if isinstance(exc, OSError):
                if exc.errno == errno.EPIPE:
                    raise
                raise CliError(_os_message(exc)) from exc
            if _is_duckdb_io(exc):
                raise CliError(str(exc).splitlines()[0]) from exc
            raise
        finally:
            sys.stderr = stderr


# --------------------------------------------------------------------------- option values


def check_tz(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--tz``: an IANA name (a typo would read every stamp as NULL)."""
    if value is None:
        return value
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise click.BadParameter(f"{value!r} is not a known time zone (IANA name, e.g. UTC or Europe/Berlin)") from None
    return value


ENGINE_HELP = ("Where the work runs: local (this machine's processes) or ray (Ray tasks on the cluster at "
               "--address; needs correlator[ray]).")
engine_option = click.option("--engine", type=click.Choice(["local", "ray"]), default="local", show_default=True,
                             help=ENGINE_HELP)
address_option = click.option(
    "--address", default=None, metavar="ADDRESS",
    help="With --engine ray: the cluster (auto, ray://HOST:10001; default $RAY_ADDRESS, else a Ray started here).")


def make_engine(name: str, workers: int | None, address: str | None):
    """The engine asked for (None for ``local``: the command's own default pool), or one
    line saying why it cannot run (Ray not installed, no cluster at the address)."""
    from correlator.engine import EngineUnavailable, engine_for

    if address is not None and name != "ray":
        raise click.UsageError("--address is for --engine ray")
    if name == "local":
        return None
    try:
        return engine_for(name, workers=workers, address=address)
    except EngineUnavailable as exc:
        raise CliError(str(exc)) from exc


TZ_HELP = "Time zone of stamps printed without one (IANA name, e.g. Europe/Berlin)."
tz_option = click.option("--tz", default="UTC", show_default=True, callback=check_tz, help=TZ_HELP)
WORKERS = click.IntRange(min=1)


# --------------------------------------------------------------------------- outputs


def guard_outputs(outputs: Iterable[str | None], inputs: Iterable[str | None], *, dirs: bool = False) -> None:
    """Before any work: each output can be written and overwrites no input."""
    outputs = [o for o in outputs if o]
    inputs = list(inputs)
    try:
        refuse_overwriting_inputs(outputs, inputs)
        for o in outputs:
            check_writable_dir(o, is_dir=dirs)
    except OutputRefused as exc:
        raise CliError(str(exc)) from exc
