"""Stages 2-5: the timeline in, the verdict out.

Reads: a timeline (through ``correlator.target``) and the rules (``rules/`` and
the user's rule directories). Never opens a log file itself.
Writes: nothing; returns a ``correlator.verdict.Verdict``.
May import: ``correlator.timeline``, ``correlator.target``, ``correlator.verdict``,
the ingest package's public names (``correlator.ingest``: options, and
``lines_as_events`` for rule examples). Never the reports, batch or the CLI.

The steps, each a module with its named SQL beside it:

    align       per-node clock offsets from events that happen together (align.sql)
    rulebook    the rules: load, validate, match -> ``findings``
    deviation   templates only a minority of ranks print, or a baseline never did
                (bounds.sql, deviation.sql)
    analyze     hypotheses from findings and cross-rank inferences (inferences.sql),
                scored; the winner, collateral, why the others lost -> the verdict
    evaluate    the verdict against a scenario's truth.json (``correlator eval``)
"""
