"""The ``correlator`` command (and ``python -m correlator``).

Nothing is imported at module level on purpose: ingest's worker processes are
spawned, not forked, and each one imports the launching script again (as
``__mp_main__``). Had the script imported ``correlator.cli`` itself, every worker
would load DuckDB and the rulebook (~0.15 s each) before parsing a line.
"""


def main() -> None:
    import sys

    from correlator.ingest import workers

    # a big log directory: the workers import the parser while the CLI loads
    workers.start_for_command(sys.argv[1:])
    try:
        from correlator.cli import main as cli

        cli()
    finally:
        workers.discard_early()  # a usage error, or an ingest that needed none


if __name__ == "__main__":
    main()
