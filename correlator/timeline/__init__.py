"""The timeline: the one contract between ingest and everything after it.

One row per event (``schema.EVENT_SCHEMA``), stored as Parquet or in DuckDB, with
the job's input files and input problems beside it (``schema.FILE_SCHEMA``,
``problems``). ``shapes`` defines an event's digit shape (a column, and the SQL
that computes it); ``secrets`` the patterns of secrets a timeline's text may hold and
the metadata key where ingest records whether it holds any; ``collection`` is the
layout of many jobs' timelines (what ``correlator batch`` writes); ``parts_dir`` the
layout of one timeline kept as a directory of Parquet parts (``ingest --out DIR/``).

Reads and writes nothing by itself beyond ``collection``'s views.
May import: nothing of correlator but ``correlator.output``.
"""
