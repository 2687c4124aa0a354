"""Lightning classifier (DDP / DDP-spawn on CPU) on per-rank shards; Trainer settings and callbacks from the command line."""
import argparse, os, time, warnings
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import Callback, ModelCheckpoint
from lightning.pytorch.loggers import CSVLogger, TensorBoardLogger
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--devices", type=int, default=2)
p.add_argument("--strategy", default="ddp")
p.add_argument("--max-epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--num-classes", type=int, default=4)
p.add_argument("--lr", type=float, default=0.003)
p.add_argument("--ckpt", action="store_true")          # ModelCheckpoint on val_loss (top 1 + last)
p.add_argument("--ckpt-path", default=None)            # resume: Trainer.fit(ckpt_path=...)
p.add_argument("--val-f1", action="store_true")        # macro F1 on the validation set
p.add_argument("--label-audit", action="store_true")   # callback checking each training batch's labels
p.add_argument("--manual-opt", action="store_true")   # manual optimization (two-stage step)
p.add_argument("--clip", type=float, default=None)     # Trainer(gradient_clip_val=...)
p.add_argument("--step-sleep", type=float, default=0.01)
p.add_argument("--progress", action="store_true")
p.add_argument("--root", default="runs")
p.add_argument("--logger", default="csv")              # csv | tb (TensorBoardLogger)
p.add_argument("--optim", default="adamw")             # adamw | sgd
p.add_argument("--momentum", type=float, default=0.9)
p.add_argument("--detect-anomaly", action="store_true")
p.add_argument("--sched", default="")                 # "" | onecycle (OneCycleLR)
p.add_argument("--sched-interval", default="step")
args = p.parse_args()


class ShardData(L.LightningDataModule):
    def setup(self, stage):
        r = self.trainer.global_rank
        d = np.load(os.path.join(args.data, f"shard_{r:02d}.npz"))
        self.ds = TensorDataset(torch.from_numpy(d["x"]), torch.from_numpy(d["y"]))
        v = np.load(os.path.join(args.data, "val.npz"))
        self.val = TensorDataset(torch.from_numpy(v["x"]), torch.from_numpy(v["y"]))

    def train_dataloader(self):
        return DataLoader(self.ds, batch_size=args.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val, batch_size=args.batch_size)


class Clf(L.LightningModule):
    def __init__(self, hidden=64, num_classes=4, lr=0.003):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(16, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, num_classes))
        self.val_out = []
        self.automatic_optimization = not args.manual_opt

    def training_step(self, batch, i):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        time.sleep(args.step_sleep)
        if self.automatic_optimization:
            return loss
        opt = self.optimizers()
        opt.zero_grad()
        self.manual_backward(loss)
        opt.step()

    def validation_step(self, batch, i):
        x, y = batch
        logits = self.net(x)
        self.log("val_loss", F.cross_entropy(logits, y), sync_dist=True)
        self.log("val_acc", (logits.argmax(1) == y).float().mean(), sync_dist=True, prog_bar=True)
        if args.val_f1:
            self.val_out.append((logits.argmax(1), y))

    def on_validation_epoch_end(self):
        if args.val_f1:
            from torchmetrics.functional import f1_score
            preds = torch.cat([p for p, _ in self.val_out]); target = torch.cat([t for _, t in self.val_out])
            self.val_out.clear()
            self.log("val_f1", f1_score(preds, target, task="multiclass", average="macro"), sync_dist=True)
        if not self.trainer.sanity_checking:
            self.print(f"epoch {self.current_epoch} step {self.global_step}: "
                       f"val_loss {self.trainer.callback_metrics['val_loss'].item():.4f} "
                       f"val_acc {self.trainer.callback_metrics['val_acc'].item():.4f}")

    def configure_optimizers(self):
        if args.optim == "sgd":
            opt = torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=args.momentum)
        else:
            opt = torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)
        if not args.sched:
            return opt
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=self.hparams.lr,
                                                    total_steps=int(self.trainer.estimated_stepping_batches))
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": args.sched_interval, "frequency": 1}}


class LabelAudit(Callback):
    """fail fast on label ids outside the model's head instead of training on garbage"""
    def on_train_batch_start(self, trainer, pl_module, batch, batch_idx):
        y = batch[1]
        n = pl_module.hparams.num_classes
        if y.min() < 0 or y.max() >= n:
            bad = y[(y < 0) | (y >= n)]
            raise ValueError(f"label audit: batch {batch_idx} of epoch {trainer.current_epoch} on rank "
                             f"{trainer.global_rank} has {bad.numel()} label(s) outside [0, {n}): {sorted(set(bad.tolist()))}")


if __name__ == "__main__":
    L.seed_everything(11)
    cbs = []
    if args.label_audit:
        cbs.append(LabelAudit())
    if args.ckpt:
        cbs.append(ModelCheckpoint(monitor="val_loss", mode="min", save_top_k=1, save_last=True,
                                   filename="clf-{epoch:02d}-{val_loss:.3f}"))
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, strategy=args.strategy, max_epochs=args.max_epochs,
                        default_root_dir=args.root, use_distributed_sampler=False, log_every_n_steps=20,
                        logger=(TensorBoardLogger(args.root, name="clf") if args.logger == "tb" else CSVLogger(args.root, name="clf")),
                        detect_anomaly=args.detect_anomaly, callbacks=cbs, enable_progress_bar=args.progress,
                        gradient_clip_val=args.clip)
    trainer.fit(Clf(args.hidden, args.num_classes, args.lr), datamodule=ShardData(), ckpt_path=args.ckpt_path)
    trainer.print(f"final metrics: { {k: round(v.item(), 4) for k, v in trainer.callback_metrics.items()} }")
