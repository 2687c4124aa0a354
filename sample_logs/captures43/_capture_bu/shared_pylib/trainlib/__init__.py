"""trainlib 0.4: small shared training helpers."""
import math, random
import numpy as np
import torch

__version__ = "0.4.2"


def seed_all(seed):
    random.seed(seed); np.random.seed(seed); torch.manual_seed(seed)


def cosine_lr(opt, total):
    return torch.optim.lr_scheduler.CosineAnnealingLR(opt, total)
