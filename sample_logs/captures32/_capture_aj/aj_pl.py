"""aj_pl.py: a small LightningModule (MLP classifier on synthetic rows) trained with Trainer(accelerator="cpu",
devices=N, strategy=...); EarlyStopping on val_loss, ModelCheckpoint top-k (+ last), CSVLogger. Options: a DDP comm
hook (fp16 compression with a range guard) through DDPStrategy(ddp_comm_hook=...), per-rank training shards
(--per-rank-data, optionally one planted outlier row), resume from a checkpoint (--ckpt-path)."""
import argparse, math
import lightning as L
import torch
import torch.nn.functional as F
from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint
from lightning.pytorch.loggers import CSVLogger
from lightning.pytorch.strategies import DDPStrategy
import torch.distributed as dist
from torch.utils.data import DataLoader, TensorDataset


class Classifier(L.LightningModule):
    def __init__(self, d_in=32, hidden=96, classes=4, lr=0.2):
        super().__init__()
        self.save_hyperparameters()
        self.net = torch.nn.Sequential(torch.nn.Linear(d_in, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, classes))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, i):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, i):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.cross_entropy(logits, y), sync_dist=True, prog_bar=True)
        self.log("val_acc", (logits.argmax(1) == y).float().mean(), sync_dist=True)

    def on_train_start(self):
        # Lightning only wires DDPStrategy(ddp_comm_hook=...) on CUDA; register the hook on the DDP wrapper here
        if COMM_HOOK is not None and not getattr(self, "_hook_registered", False):
            self.trainer.strategy.model.register_comm_hook(None, COMM_HOOK)
            self._hook_registered = True
            print(f"[rank {self.global_rank}] registered DDP comm hook {COMM_HOOK.__name__}", flush=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9)


COMM_HOOK = None


def data(n, seed, outlier=None):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 32, generator=g)
    y = (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()
    if outlier is not None:
        row, col, v = outlier
        x[row, col] = v
    return TensorDataset(x, y)


def fp16_guard_hook(state, bucket):
    """fp16 compression with a range guard: casting a bucket whose values exceed the fp16 range would silently
    turn into inf on every rank, so refuse it here."""
    buf = bucket.buffer()
    m = buf.abs().max().item()
    if not math.isfinite(m) or m > 65504.0:
        raise OverflowError(f"fp16_guard: bucket {bucket.index()} ({buf.numel()} elems) has max |grad| {m:.4g}, "
                            f"out of fp16 range")
    t = buf.to(torch.float16).div_(dist.get_world_size())
    fut = dist.all_reduce(t, async_op=True).get_future()
    return fut.then(lambda f: buf.copy_(f.value()[0]))


class PerRankData(L.LightningDataModule):
    """each rank reads its own training shard (no DistributedSampler); validation is shared"""
    def __init__(self, rows, outlier_rank, outlier):
        super().__init__()
        self.rows, self.outlier_rank, self.outlier = rows, outlier_rank, outlier

    def train_dataloader(self):
        r = self.trainer.global_rank
        ds = data(self.rows, 100 + r, self.outlier if r == self.outlier_rank else None)
        return DataLoader(ds, batch_size=64, shuffle=True)

    def val_dataloader(self):
        return DataLoader(data(512, 2), batch_size=128)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--devices", type=int, default=2); p.add_argument("--strategy", default="ddp_spawn")
    p.add_argument("--max-epochs", type=int, default=30); p.add_argument("--patience", type=int, default=3)
    p.add_argument("--comm-hook", default=""); p.add_argument("--per-rank-data", type=int, default=0)
    p.add_argument("--outlier", default="", help="RANK:ROW:COL:VALUE planted in that rank's training shard")
    p.add_argument("--ckpt-path", default=None); p.add_argument("--version", type=int, default=None)
    p.add_argument("--progress", type=int, default=1)
    a = p.parse_args()
    L.seed_everything(7)
    strategy = a.strategy
    if a.comm_hook == "fp16_guard":
        COMM_HOOK = fp16_guard_hook
    if a.per_rank_data:
        orank, row, col, val = (a.outlier.split(":") if a.outlier else (-1, 0, 0, 0))
        dm = PerRankData(a.per_rank_data, int(orank), (int(row), int(col), float(val)))
        loaders = dict(datamodule=dm)
    else:
        loaders = dict(train_dataloaders=DataLoader(data(2048, 1), batch_size=64, shuffle=True),
                       val_dataloaders=DataLoader(data(512, 2), batch_size=128))
    val = DataLoader(data(512, 2), batch_size=128)
    trainer = L.Trainer(accelerator="cpu", devices=a.devices, strategy=strategy, max_epochs=a.max_epochs,
                        logger=CSVLogger("lightning_logs", name="clf", version=a.version), log_every_n_steps=8,
                        enable_progress_bar=bool(a.progress), use_distributed_sampler=not a.per_rank_data,
                        callbacks=[EarlyStopping("val_loss", patience=a.patience, min_delta=0.002, verbose=True),
                                   ModelCheckpoint(monitor="val_loss", save_top_k=2, save_last=True,
                                                   filename="{epoch}-{val_loss:.3f}")])
    trainer.fit(Classifier(), ckpt_path=a.ckpt_path, **loaders)
    best = trainer.checkpoint_callback.best_model_path if a.strategy != "ddp_spawn" else None
    if trainer.is_global_zero:
        print(f"best checkpoint: {trainer.checkpoint_callback.best_model_path}")
    if best or trainer.is_global_zero:
        res = trainer.validate(ckpt_path=best or trainer.checkpoint_callback.best_model_path, dataloaders=val,
                               verbose=False)
        if trainer.is_global_zero:
            print(f"best checkpoint validation: {res}")
