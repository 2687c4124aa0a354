"""The ``correlator`` command (and ``python -m correlator``).

Nothing is imported at module level on purpose: ingest's worker processes are
spawned, not forked, and each one imports the launching script again (as
``__mp_main__``). Had the script imported ``correlator.cli`` itself, every worker
would load DuckDB and the rulebook (~0.15 s each) before parsing a line.
"""


def main() -> None:
    from correlator.cli import main as cli

    cli()


if __name__ == "__main__":
    main()
