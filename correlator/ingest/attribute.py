"""Who printed a line: rank, local rank and node from a file's path.

Line prefixes (``correlator.ingest.demux``) are trusted most, then the path (here),
then content learned elsewhere in the job (``correlator.attribute_sql``).
Path rules, from the layouts users really have (docs/formats/torchrun-elastic.md §4,
docs/formats/wrappers.md):

- ``rank3.log``, ``rank_03.txt``, ``rank-3/``, ``log_rank_3.out`` -> global rank
- ``<run>/attempt_0/3/stdout.log`` (torchrun ``--log-dir``) -> local rank 3
- ``node-12/...``, ``gpu-node-07/...``, ``worker-1.log`` (k8s pod), ``nid008637/``
  -> node (not Ray's ``worker-<id>-<job>-<pid>.out``: a process's log)
- ``dmesg*``, ``kern.log``, ``syslog``, ``nvidia-smi*``, ``collect_env*`` ->
  node-level files: a node and no rank

The node a path names is only a name within its job (``node-1`` of five jobs is five
machines): stage 2 puts the host the logs name in its place and keeps it as
``node_alias``. ``sibling`` names a file's family of numbered siblings (``worker-N.log``,
``rankN.log``, ``node-N/console.log``), from which stage 2 gives a silent member the
rank its number says when the members that show a rank all agree with theirs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# (`rank.2`: OpenMPI's --output-filename tree, `<dir>/1/rank.2/stdout`)
_RANK = re.compile(r"(?i)(?:^|[^a-z])(?:global[_-]?)?rank[._-]?(\d+)(?![\d])")
_LOCAL_RANK = re.compile(r"(?i)(?:^|[^a-z])local[_-]?rank[._-]?(\d+)(?![\d])")
_TORCHRUN_TREE = re.compile(r"(?:^|/)attempt_(\d+)/(\d+)/(?:stdout\.log|stderr\.log|error\.json)$")
_NODE_DIR = re.compile(
    r"(?i)^(?:node|host|worker|master|compute|nid|gpu|gpunode|gpu[-_]node|ip|trainer|pod)"
    r"(?:(?:[-_.]?[a-z]*)*[-_.]?\d[\w.-]*"
    # (or machines told apart by a letter: node-a, node-b, hostB; not a plural: workers/)
    r"|[-_.][a-z]|(?-i:[A-Z]))$"
)
_NODE_LEVEL = re.compile(
    r"(?i)(?:^|/)(?:dmesg|kern(?:el)?(?:\.log)?|syslog|messages|journal|journalctl|"
    r"nvidia[-_]?smi|nvsmi|collect[-_]?env|env[-_]?info|ds[-_]?report)[^/]*$"
)
# Ray's per-process session logs (`logs/worker-<worker id>-<job id>-<pid>.out|.err`): one
# worker process each (an actor, a task runner), not a machine
_RAY_WORKER_LOG = re.compile(r"(?i)^worker-[0-9a-f]{32,}-[0-9a-f]{8}-\d+$")
_STRIP_EXT = re.compile(r"(?:\.(?:log|txt|out|err|gz|bz2|xz|zst|json))+$", re.I)
# the last run of digits of a path (extensions stripped): what tells siblings apart
_LAST_NUMBER = re.compile(r"^(.*\D)?(\d{1,6})(\D*)$", re.S)


@dataclass(frozen=True)
class PathFacts:
    rank: int | None = None
    local_rank: int | None = None
    node: str | None = None
    node_level: bool = False  # dmesg, nvidia-smi, collect_env: a node, never a rank
    attempt: int | None = None


def facts_from_path(rel: str) -> PathFacts:
    parts = [p for p in rel.split("/") if p]
    name = parts[-1] if parts else rel
    stem = _STRIP_EXT.sub("", name)
    node_level = bool(_NODE_LEVEL.search(rel))

    rank = local_rank = attempt = None
    if m := _TORCHRUN_TREE.search(rel):
        attempt, local_rank = int(m.group(1)), int(m.group(2))
    # the deepest component that names a rank wins (rank dirs hold rank files)
    for comp in reversed([*parts[:-1], stem]):
        if local_rank is None and (m := _LOCAL_RANK.search(comp)):
            local_rank = int(m.group(1))
            continue
        if rank is None and (m := _RANK.search(comp)) and not _LOCAL_RANK.search(comp):
            rank = int(m.group(1))

    node = None
    for comp in reversed(parts[:-1]):
        if _NODE_DIR.match(comp):
            node = comp
            break
    if node is None and rank is None and _NODE_DIR.match(stem) and not _RAY_WORKER_LOG.match(stem):
        node = stem  # worker-1.log: one pod (node) per file
    if node_level:
        rank = local_rank = None
    return PathFacts(rank=rank, local_rank=local_rank, node=node, node_level=node_level, attempt=attempt)


def sibling(rel: str) -> tuple[str, int] | None:
    """The family of numbered siblings ``rel`` belongs to and its number in it:
    the path (extensions stripped) with its last run of digits written as ``#``.
    ``worker-3.log`` -> (``worker-#``, 3); ``node-1/console.log`` -> (``node-#/console``, 1);
    None for a path without digits. Whether the number is a rank is for the
    members' own lines to say (stage 2 checks that they agree)."""
    parts = rel.split("/")
    path = "/".join([*parts[:-1], _STRIP_EXT.sub("", parts[-1])])
    m = _LAST_NUMBER.match(path)
    if not m:
        return None
    return f"{m.group(1) or ''}#{m.group(3)}", int(m.group(2))
