"""correlator: find the rank that broke a distributed training job.

The folders follow the data, files -> timeline -> findings -> verdict -> report:

    ingest/     stage 1: log files -> the timeline (one module per stage)
    timeline/   the contract in the middle: the events' schema, shapes, problems,
                and the layout of many jobs' timelines
    target.py   what the user pointed a command at (logs, Parquet, DuckDB, a batch
                output), opened as DuckDB views ``events``, ``files``, ``problems``
    analysis/   the timeline and the rules -> findings -> the verdict
    verdict.py  the verdict's schema (JSON), the contract between analysis and reports
    report/     the verdict rendered: terminal, Markdown, HTML, Perfetto
    batch/      many jobs: analysed in parallel, summarised, repeat offenders
    cli/        the ``correlator`` command, a thin click layer; nothing imports it
    output.py   atomic writes for every output
    synth.py    synthetic jobs of any size, for the benchmark and the tests

``parsers/`` (one module per log source) and ``rules/`` (the knowledge base,
one YAML file per failure signature) sit beside this package as data.
tests/test_layers.py checks from the import graph that no layer reaches up.
"""

__version__ = "0.1.0"
