"""ColossalAI's launcher (``colossalai run``): its closing report, one line per node.

Once every node's ``torchrun`` has returned, ``colossalai/cli/launcher/run.py`` prints each
host's outcome under a banner, ``success`` or ``failure`` (a failure makes the launcher exit
1), and then, under a second banner, the same hosts once it has stopped them (``finish``)::

    ====== Training on All Nodes =====
    127.0.0.1: success

    ====== Stopping All Nodes =====
    127.0.0.1: finish

Where several hosts' lines fill a file, ingest reads ``127.0.0.1: `` as the node's prefix and
the line's text is the bare word. A ``success`` is that node's whole run ending well (a healthy end where nothing failed); a
``failure`` is the launcher's word that something on that node failed, without the why.
"""

from parsers.base import Pattern

SOURCE = "colossalai"

# the hostfile's names or addresses ("127.0.0.1", "gpu-node-03"): one with a digit, so that a
# script's own "validation: success" is no node's report
_HOST = r"(?P<host>[A-Za-z0-9][\w.-]*\d[\w.-]*)"

PATTERNS = (
    Pattern(
        "colossalai.node_succeeded",
        triggers=("success",),
        regex=rf"^(?:{_HOST}: )?success[ \t]*$",
        source=SOURCE,
        level="INFO",
        examples=("127.0.0.1: success", "gpu-node-03: success", "success"),
        near_misses=("validation: success", "127.0.0.1: success rate 0.93"),
    ),
    Pattern(
        "colossalai.node_failed",
        triggers=("failure",),
        regex=rf"^(?:{_HOST}: )?failure[ \t]*$",
        source=SOURCE,
        level="ERROR",
        examples=("10.0.0.12: failure", "failure"),
        near_misses=("checkpoint upload: failure, retrying",),
    ),
)
