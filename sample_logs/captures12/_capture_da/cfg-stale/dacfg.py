"""training config (release 2.2)"""
from dataclasses import dataclass

__version__ = "2.2.1"


@dataclass
class TrainConfig:
    lr: float = 0.05
    batch_size: int = 8
