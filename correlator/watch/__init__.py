"""``correlator watch``: follow a running job's logs, alert while it runs, post-mortem at the end.

Modules, one job each, in data-flow order:

    follow    the files (and standard input) as they grow: appended bytes -> lines
    wake      what wakes the next read: a timer, or change notifications (local filesystems)
    streams   whose lines a file holds where they name no rank (stage 2's per-file readings, live)
    progress  per-rank progress learned from the job's lines; silence by its own cadence
    stated    the collective timeout the logs state at start-up (the silence rule falls before it)
    probe     the verdict on the logs so far: ``analyze`` itself, when errors arrive
    alerts    alerts from the probe's verdict and from the progress; withdrawal on recovery
    session   the loop; the end (launcher exit line, --idle, Ctrl-C) and the post-mortem

Lines are parsed by ingest's own per-file stages (``correlator.ingest.AppendParser``)
and the verdicts come from ``correlator.analysis``: no second parser, no second
rulebook. May import: ``correlator.ingest``, ``correlator.analysis``,
``correlator.verdict``, ``correlator.timeline``. Never the CLI.
"""
