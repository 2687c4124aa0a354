"""training config (current release)"""
from dataclasses import dataclass, field

__version__ = "2.3.0"


@dataclass
class AugmentConfig:
    mixup: float = 0.2
    jitter: float = 0.05


@dataclass
class TrainConfig:
    lr: float = 0.05
    batch_size: int = 8
    augment: AugmentConfig = field(default_factory=AugmentConfig)
