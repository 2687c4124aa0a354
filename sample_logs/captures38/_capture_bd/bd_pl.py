"""Lightning classifier on per-rank shards; run config (optimizer + LR schedule) from a YAML file."""
import argparse, logging, math, os, sys
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import yaml
import lightning as L
from lightning.pytorch.strategies import DDPStrategy
from datetime import timedelta
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--config", required=True)
p.add_argument("--data", default="data")
p.add_argument("--devices", type=int, default=3)
p.add_argument("--strategy", default="ddp")
p.add_argument("--report-dir", default="")   # rank 0 writes a json report per validation + a `latest` symlink
args = p.parse_args()
cfg = yaml.safe_load(open(args.config))
log = logging.getLogger("train")

class Report(L.Callback):
    """rank 0: results/val_<step>.json + results/latest -> newest report"""
    def on_validation_epoch_end(self, trainer, pl_module):
        if trainer.global_rank != 0 or trainer.sanity_checking:
            return
        import json
        os.makedirs(args.report_dir, exist_ok=True)
        name = f"val_{trainer.global_step:06d}.json"
        with open(os.path.join(args.report_dir, name), "w") as f:
            json.dump({k: round(v.item(), 5) for k, v in trainer.callback_metrics.items()}, f)
        link = os.path.join(args.report_dir, "latest")
        try:
            os.symlink(name, link)
        except FileExistsError:
            log.exception(f"could not point {link} at {name}")
            tmp = link + ".tmp"
            os.symlink(name, tmp); os.replace(tmp, link)
            log.error(f"{link} replaced via rename -> {name}")
        log.info(f"validation report {name}: val_acc {trainer.callback_metrics['val_acc'].item():.4f}")

class ShardData(L.LightningDataModule):
    def setup(self, stage):
        r = self.trainer.global_rank
        d = np.load(os.path.join(args.data, f"shard_{r:02d}.npz"))
        self.ds = TensorDataset(torch.from_numpy(d["x"]), torch.from_numpy(d["y"]))
        v = np.load(os.path.join(args.data, "val.npz"))
        self.val = TensorDataset(torch.from_numpy(v["x"]), torch.from_numpy(v["y"]))
    def train_dataloader(self):
        return DataLoader(self.ds, batch_size=cfg["data"]["batch_size"], shuffle=True)
    def val_dataloader(self):
        return DataLoader(self.val, batch_size=cfg["data"]["batch_size"])

class Clf(L.LightningModule):
    def __init__(self):
        super().__init__()
        h = cfg["model"]["hidden"]
        self.net = nn.Sequential(nn.Linear(16, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 4))
    def training_step(self, batch, i):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        if self.global_step % 50 == 0:
            self.print(f"[rank {self.global_rank}] step {self.global_step} loss {loss.item():.4f} "
                       f"lr {self.optimizers().param_groups[0]['lr']:.5f}")
        return loss
    def validation_step(self, batch, i):
        x, y = batch
        logits = self.net(x)
        self.log("val_loss", F.cross_entropy(logits, y), sync_dist=True)
        self.log("val_acc", (logits.argmax(1) == y).float().mean(), sync_dist=True)
    def configure_optimizers(self):
        o = cfg["optimizer"]; s = cfg["schedule"]
        opt = torch.optim.AdamW(self.parameters(), lr=o["lr"], weight_decay=o["weight_decay"])
        def lr_lambda(step):
            if step < s["warmup_steps"]:
                return (step + 1) / s["warmup_steps"]
            t = min(1.0, (step - s["warmup_steps"]) / s["decay_steps"])
            return s["min_ratio"] + (1 - s["min_ratio"]) * 0.5 * (1 + math.cos(math.pi * t))
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}

if __name__ == "__main__":
    L.seed_everything(cfg.get("seed", 0))
    strategy = DDPStrategy(timeout=timedelta(seconds=60)) if args.strategy == "ddp" else \
        DDPStrategy(start_method="spawn", timeout=timedelta(seconds=60))
    t = cfg["trainer"]
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    trainer = L.Trainer(accelerator="cpu", callbacks=[Report()] if args.report_dir else [], devices=args.devices, strategy=strategy, max_steps=t["max_steps"],
                        val_check_interval=t.get("val_check_interval", 1.0), logger=False, enable_checkpointing=False, use_distributed_sampler=False,
                        enable_progress_bar=False, log_every_n_steps=25)
    trainer.fit(Clf(), datamodule=ShardData())
    trainer.print(f"fit finished at step {trainer.global_step}: "
                  f"{ {k: round(v.item(), 4) for k, v in trainer.callback_metrics.items()} }")
