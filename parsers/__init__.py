"""One module per log source; each declares ``SOURCE`` and ``PATTERNS`` (see ``base``).

Registry order matters only between *specific* patterns that can match the same
event: the earlier module wins (NCCL's own socket error beats gloo's generic one).
"""

from parsers import (
    accelerate,
    app,
    c10d,
    collect_env,
    colossalai,
    deepspeed,
    hccl,
    horovod,
    hydra,
    kernel,
    kubernetes,
    nccl,
    nvidia_smi,
    process,
    python,
    ray,
    slurm,
    torchrun,
    tsl,
    ucx,
)
from parsers.base import LEVEL_WORDS, Pattern

MODULES = (nccl, c10d, torchrun, deepspeed, horovod, accelerate, colossalai, kernel, nvidia_smi, collect_env, slurm, ucx, hccl, kubernetes, ray, hydra, tsl, python, app, process)
PATTERNS: tuple[Pattern, ...] = tuple(p for m in MODULES for p in m.PATTERNS)

__all__ = ["LEVEL_WORDS", "MODULES", "PATTERNS", "Pattern"]
