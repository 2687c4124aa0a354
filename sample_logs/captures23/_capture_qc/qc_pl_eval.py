"""qc_pl_eval.py: Lightning DDP (CPU, gloo) classifier; validation collects per-rank predictions and gathers them
with self.all_gather at the end of the validation epoch to compute a global confusion count on rank 0."""
import os, sys, datetime, torch, torch.nn as nn, lightning as L
from lightning.pytorch.strategies import DDPStrategy
from torch.utils.data import DataLoader, TensorDataset, DistributedSampler

VAL_ROWS = int(os.environ.get("VAL_ROWS", "600"))

class M(L.LightningModule):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4)); self.preds = []
    def training_step(self, b, i):
        x, y = b; loss = nn.functional.cross_entropy(self.net(x), y); self.log("train_loss", loss, sync_dist=True); return loss
    def validation_step(self, b, i):
        x, y = b; self.preds.append(self.net(x).argmax(1))
    def on_validation_epoch_end(self):
        local = torch.cat(self.preds); self.preds = []
        print(f"[rank {self.global_rank}] val preds local: {tuple(local.shape)}", flush=True)
        allp = self.all_gather(local)
        print(f"[rank {self.global_rank}] val preds gathered: {tuple(allp.shape)}", flush=True)
        self.log("val_pos_frac", (allp == 1).float().mean(), sync_dist=True)
    def configure_optimizers(self): return torch.optim.SGD(self.parameters(), lr=0.05)

def data(n, seed):
    g = torch.Generator().manual_seed(seed); X = torch.randn(n, 16, generator=g)
    return TensorDataset(X, (X[:, :4].sum(1) * 10).long().abs() % 4)

if __name__ == "__main__":
    tr = data(3000, 1)
    # validation split files are read per rank: the file list is split by rank, not sampled (each rank reads its own
    # files; file sizes differ)
    trainer = L.Trainer(accelerator="cpu", devices=3, strategy=DDPStrategy(process_group_backend="gloo",
                        timeout=datetime.timedelta(seconds=30)), max_epochs=2, log_every_n_steps=10,
                        enable_progress_bar=False, logger=False, enable_checkpointing=False)
    rank = int(os.environ.get("LOCAL_RANK", 0))
    va = data([600, 600, 587][rank] if rank < 3 else 600, 2 + rank)
    trainer.fit(M(), DataLoader(tr, batch_size=32), DataLoader(va, batch_size=64))
    print("fit finished", flush=True)
