"""Renderings of a verdict: terminal text, Markdown, HTML, Perfetto; redaction.

Reads: a verdict (``correlator.verdict``) and the event sample and node facts the
analysis draws from the timeline (``common.load_report_data``). Never parses logs.
May import: ``correlator.verdict``, ``correlator.analysis`` (the event sample),
``correlator.target``, ``correlator.ingest``'s public names (options). Never batch or the CLI.

    common    what the Markdown and HTML reports share (inputs, derived facts)
    text      the terminal report
    markdown  a report to paste into a ticket
    html      one self-contained file, no network
    perfetto  the timeline as a Chrome/Perfetto trace
    redact    secrets masked in every report and export
"""
