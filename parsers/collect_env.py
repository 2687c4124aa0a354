"""``python -m torch.utils.collect_env``: docs/formats/collect-env.md.

The whole report is one event; every ``Label: value`` line becomes an attr with a
snake_case key (``pytorch_version``, ``cuda_used_to_build_pytorch``, ...), and
package lines become ``pip.<name>`` / ``conda.<name>`` attrs, so versions can be
compared across nodes with one SQL query.
"""

from __future__ import annotations

import re

from parsers.base import Pattern

SOURCE = "collect_env"

_LABEL = re.compile(r"^([A-Za-z][A-Za-z0-9 _()/.-]*?): ?(.*)$")
_PIP = re.compile(r"^\[(pip\d?|conda)\] (\S+?)(?:==|\s+)(\S+)")


def _key(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")


def parse_report(message: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    multi_key: str | None = None
    for line in message.split("\n"):
        if not line.strip():
            multi_key = None
            continue
        if p := _PIP.match(line):
            tool = "conda" if p.group(1) == "conda" else "pip"
            attrs[f"{tool}.{p.group(2).lower()}"] = p.group(3)
            continue
        m = _LABEL.match(line)
        if m and not line.startswith(" "):
            key, value = _key(m.group(1)), m.group(2).strip()
            if key in ("collecting_environment_information",):
                continue
            if value:
                attrs.setdefault(key, value)
                multi_key = None
            else:
                multi_key = key
        elif multi_key and multi_key in ("gpu_models_and_configuration", "cudnn_version"):
            attrs[multi_key] = (attrs.get(multi_key, "") + "\n" + line.strip()).strip()
    return attrs


PATTERNS = (
    Pattern(
        "collect_env.report",
        triggers=("Collecting environment information...", "PyTorch version: "),
        regex=r"PyTorch version: (?P<pytorch_version>\S+)",
        source=SOURCE,
        level="INFO",
        post=parse_report,
    ),
)
