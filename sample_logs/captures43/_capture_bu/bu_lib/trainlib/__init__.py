"""trainlib 0.6: small shared training helpers (LR schedules, seeding)."""
import math, random
import numpy as np
import torch

__version__ = "0.6.1"


def seed_all(seed):
    random.seed(seed); np.random.seed(seed); torch.manual_seed(seed)


class WarmupCosine(torch.optim.lr_scheduler.LambdaLR):
    def __init__(self, opt, warmup, total):
        def f(step):
            if step < warmup:
                return (step + 1) / warmup
            return 0.5 * (1 + math.cos(math.pi * min(1.0, (step - warmup) / max(1, total - warmup))))
        super().__init__(opt, f)
