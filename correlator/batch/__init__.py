"""Batch post-mortems: every job under a directory, analysed, then summarised.

Reads: job directories (each analysed as ``correlator analyze`` would).
Writes: a collection (``correlator.timeline.collection``: ``summary.parquet``,
one timeline per job) plus per-job reports and the index.
May import: everything below it (ingest, timeline, analysis, report, verdict);
never the CLI.

    run     find the jobs, run them in a process pool, resume, write the summary
    index   failures by category over time and the repeat-offender nodes/GPUs
"""
