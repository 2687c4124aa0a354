#!/usr/bin/env python3
"""mc_pl_jsonarg.py: Lightning Trainer(strategy=DDPStrategy(process_group_backend="gloo", timeout=...),
accelerator="cpu", devices=N) started as a plain script (Lightning's subprocess launcher re-runs it for ranks 1..N-1),
configured through jsonargparse.CLI (config file given with --config). The DataModule's setup() waits until the
node's stage-in sidecar has written data/ready-<global_rank> (the rank's shard copied to local disk), polling and
logging every 5 s, for at most stage_in_timeout s. Logging: `%(asctime)s %(levelname)s [rank R] %(name)s: %(message)s`
on stderr plus Lightning's own messages."""
import datetime, logging, os, sys, time
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy
from torch.utils.data import DataLoader, TensorDataset


def get_log(rank):
    log = logging.getLogger(f"mc.stagein")
    if not log.handlers:
        h = logging.StreamHandler(sys.stderr)
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s"))
        log.addHandler(h); log.setLevel(logging.INFO); log.propagate = False
    return log


class StagedData(pl.LightningDataModule):
    def __init__(self, ready_dir, stage_in_timeout, batch_size):
        super().__init__()
        self.ready_dir, self.timeout, self.bs = ready_dir, stage_in_timeout, batch_size

    def setup(self, stage):
        r = self.trainer.global_rank
        log = get_log(r)
        marker = os.path.join(self.ready_dir, f"ready-{r}")
        t0 = time.time()
        while not os.path.exists(marker):
            waited = time.time() - t0
            if waited > self.timeout:
                raise TimeoutError(f"stage-in marker {marker} not found after {self.timeout}s")
            log.info("waiting for stage-in marker %s (%.0fs elapsed, timeout %ds)", marker, waited, self.timeout)
            time.sleep(5)
        log.info("stage-in complete: %s", open(marker).read().strip())
        g = torch.Generator().manual_seed(r)
        x = torch.randn(1024, 32, generator=g)
        y = (x @ torch.randn(32, 4, generator=torch.Generator().manual_seed(0))).argmax(1)
        self.ds = TensorDataset(x, y)

    def train_dataloader(self):
        return DataLoader(self.ds, batch_size=self.bs, shuffle=True)


class Clf(pl.LightningModule):
    def __init__(self, lr):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4)); self.lr = lr

    def training_step(self, b, i):
        loss = F.cross_entropy(self.net(b[0]), b[1])
        self.log("train_loss", loss, prog_bar=True, sync_dist=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.lr)


def main(devices: int = 3, max_epochs: int = 2, lr: float = 0.05, batch_size: int = 64, ready_dir: str = "data",
         stage_in_timeout: int = 600, pg_timeout_s: int = 30):
    """Train the classifier on the staged shards."""
    trainer = pl.Trainer(accelerator="cpu", devices=devices, max_epochs=max_epochs, logger=False,
                         enable_checkpointing=False, enable_progress_bar=False, log_every_n_steps=4,
                         strategy=DDPStrategy(process_group_backend="gloo",
                                              timeout=datetime.timedelta(seconds=pg_timeout_s)))
    trainer.fit(Clf(lr), datamodule=StagedData(ready_dir, stage_in_timeout, batch_size))
    get_log(trainer.global_rank).info("fit finished: %s", {k: float(v) for k, v in trainer.callback_metrics.items()})


if __name__ == "__main__":
    from jsonargparse import CLI
    CLI(main)
