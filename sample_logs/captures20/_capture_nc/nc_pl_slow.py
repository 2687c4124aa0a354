"""Lightning Trainer, DDP on CPU (gloo), devices 2 (Lightning's subprocess launcher), ModelCheckpoint every 50
steps, a slow per-sample augmentation (~0.1 s/batch) so an epoch of 400 batches takes ~40 s; prints from rank 0 via
rank_zero_info and per-rank progress every 40 steps."""
import os, time
import torch, torch.nn as nn
import lightning as L
from lightning.pytorch.utilities import rank_zero_info
from lightning.pytorch.callbacks import ModelCheckpoint
from torch.utils.data import TensorDataset, DataLoader

class Aug(torch.utils.data.Dataset):
    def __init__(s, n):
        g = torch.Generator().manual_seed(0)
        s.x = torch.randn(n, 30, generator=g); s.y = (s.x[:, :3].sum(1) > 0).long()
    def __len__(s): return len(s.x)
    def __getitem__(s, i):
        time.sleep(0.006)  # stand-in for the jpeg decode + random-crop pipeline
        return s.x[i] + 0.01 * torch.randn(30), s.y[i]

class M(L.LightningModule):
    def __init__(s):
        super().__init__(); s.net = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 2))
    def training_step(s, b, i):
        x, y = b; loss = nn.functional.cross_entropy(s.net(x), y)
        if i % 40 == 0:
            print(f"[rank {s.global_rank}] epoch {s.current_epoch} batch {i} loss {loss.item():.4f}", flush=True)
        s.log("train_loss", loss, sync_dist=True)
        return loss
    def configure_optimizers(s): return torch.optim.SGD(s.parameters(), lr=0.1)

if __name__ == "__main__":
    L.seed_everything(3)
    dl = DataLoader(Aug(16 * 800), batch_size=16, num_workers=0)
    t = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", max_epochs=3, enable_progress_bar=False,
                  callbacks=[ModelCheckpoint(dirpath="ckpt", every_n_train_steps=50, save_top_k=-1)],
                  log_every_n_steps=20, logger=False)
    rank_zero_info(f"starting fit: {len(dl)} batches/epoch before sharding, 3 epochs")
    t.fit(M(), dl)
    rank_zero_info("fit finished")
