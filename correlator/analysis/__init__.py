"""Stages 2-5: the timeline in, the verdict out.

Reads: a timeline (through ``correlator.target``) and the rules (``rules/`` and
the user's rule directories). Never opens a log file itself.
Writes: nothing; returns a ``correlator.verdict.Verdict``.
May import: ``correlator.timeline``, ``correlator.target``, ``correlator.verdict``,
the ingest package's public names (``correlator.ingest``: options, and
``lines_as_events`` for rule examples). Never the reports, batch or the CLI.

The steps, each a module with its named SQL beside it; each reads the tables the
previous one made on the DuckDB connection and writes its own:

    align       per-node clock offsets -> view ``events`` with ``ts_aligned`` (align.sql)
    findings    the rules' matches -> ``findings`` (matching: ``rulebook``)
    deviation   templates only a minority of ranks print, or a baseline never did
                -> ``first_deviating_candidates`` (bounds.sql, deviation.sql)
    copies      the copies of one failure (stderr.log, error.json, tee echo, launcher
                table) -> ``copies``, one primary each; estimated stamps' intervals
                -> ``stamp_bounds``, ``findings.ts_lo/ts_hi`` (copies.sql)
    hypotheses  cross-rank inferences (inferences.sql) and root findings -> scored hypotheses
    decide      the winner, the collateral, why the others lost -> the verdict

``analyze`` runs them on a target; ``evidence`` turns rows into cited evidence;
``rulebook`` loads, validates and matches the rules; ``evaluate`` scores verdicts
against a scenario's truth.json (``correlator eval``).
"""
