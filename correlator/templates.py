"""Message templates: the same event on different ranks gets the same template.

Variable parts (stamps, numbers, hex ids, addresses, paths, NCCL host:pid:tid
headers) are masked with one combined regex, run once per *distinct* message
(NCCL init chatter and collateral errors repeat across ranks; computing them
per line would redo the same work thousands of times).
"""

from __future__ import annotations

import polars as pl

# Order matters: the alternation is tried left to right at each position.
_MASKS = (
    # NCCL "host:pid:tid" header (the host differs per node)
    (r"^(?:\[[^\]]*\] )?[^\s:\[\]]+:\d+:\d+ ", "<host>:<pid>:<tid> "),
)
_TOKEN = (
    r"0x[0-9a-fA-F]+"  # addresses, comm ids
    r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"  # uuids
    r"|\d{1,3}(?:\.\d{1,3}){3}(?:[:<]\d+>?)?"  # IPv4 with port
    r"|(?:[\w.+-]*/)+[\w.+-]+"  # paths
    r"|(?-u:\b)[0-9a-fA-F]*\d[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*(?-u:\b)"  # hex words with a digit (busId 9b000)
    r"|\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?"  # numbers, incl. stamps' parts
)


def mask(messages: pl.Series) -> pl.Series:
    """Template for each message (vectorised; call on distinct messages)."""
    out = messages.str.replace_all(r"\r", "")
    for pattern, repl in _MASKS:
        out = out.str.replace(pattern, repl)
    out = out.str.replace_all(_TOKEN, "<*>")
    # collapse runs like "<*>-<*>-<*> <*>:<*>:<*>" (a masked timestamp) to one token
    return out.str.replace_all(r"<\*>(?:[-:., T/_]*<\*>)+", "<*>")


def templates(messages: pl.Series) -> pl.Series:
    """Templates for a column of messages, computed once per distinct message.

    Only the first line of a multi-line event is templated, plus the last line
    of a traceback (its exception line): the frames carry paths and line numbers
    that differ between builds but not between ranks of one job.
    """
    head = messages.str.split_exact("\n", 1).struct.field("field_0")
    last = pl.when(messages.str.contains("\n")).then(
        pl.lit(" … ") + messages.str.extract(r"\n([^\n]*)\s*$", 1)
    )
    key = pl.select(pl.concat_str([head, last.fill_null("")])).to_series()
    uniq = key.unique()
    lookup = pl.DataFrame({"key": uniq, "template": mask(uniq)})
    return pl.DataFrame({"key": key}).join(lookup, on="key", how="left", maintain_order="left")["template"]
