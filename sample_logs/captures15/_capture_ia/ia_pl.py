#!/usr/bin/env python3
"""ia_pl.py: tiny Lightning text classifier (EmbeddingBag over token ids) trained with strategy="ddp_spawn" on CPU
(gloo). Each process reads its own pre-tokenized shard data/shard-<RR>.npz (token ids + labels + the tokenizer name
and vocab size recorded at tokenization time). Lightning's own console output + print() lines `[shard] ...`.

make data:  python ia_pl.py --make-data DIR --world W [--v2-rank R]  (rank R's shard tokenized with the newer
            tokenizer: vocab 1280 instead of 1000)
"""
import argparse, os, sys

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("--make-data", default=None)
p.add_argument("--world", type=int, default=2)
p.add_argument("--v2-rank", type=int, default=-1)
p.add_argument("--data", default="data")
p.add_argument("--vocab", type=int, default=1000)
p.add_argument("--epochs", type=int, default=2)
p.add_argument("--devices", type=int, default=2)
args = p.parse_args()

if args.make_data:
    os.makedirs(args.make_data, exist_ok=True)
    for r in range(args.world):
        v2 = r == args.v2_rank
        vocab, tok = (1280, "wordpiece-1280-v2") if v2 else (1000, "wordpiece-1000-v1")
        rng = np.random.default_rng(40 + r)
        ids = rng.integers(0, vocab, size=(256, 24))
        labels = (ids[:, :4].sum(1) % 3)
        np.savez(os.path.join(args.make_data, f"shard-{r:02d}.npz"), ids=ids, labels=labels, tokenizer=tok,
                 vocab_size=vocab)
    sys.exit(0)

import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset


class TextClf(L.LightningModule):
    def __init__(self, vocab):
        super().__init__()
        self.save_hyperparameters()
        self.emb = nn.EmbeddingBag(vocab, 32, mode="mean")
        self.head = nn.Linear(32, 3)

    def forward(self, ids):
        return self.head(self.emb(ids))

    def training_step(self, batch, idx):
        ids, y = batch
        loss = F.cross_entropy(self(ids), y)
        self.log("train_loss", loss, prog_bar=True, sync_dist=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


class ShardData(L.LightningDataModule):
    def setup(self, stage=None):
        r = self.trainer.global_rank
        z = np.load(os.path.join(args.data, f"shard-{r:02d}.npz"))
        print(f"[shard] rank {r}: {args.data}/shard-{r:02d}.npz, {len(z['ids'])} sequences, tokenizer "
              f"{z['tokenizer']} (vocab {int(z['vocab_size'])})", flush=True)
        self.ds = TensorDataset(torch.from_numpy(z["ids"]).long(), torch.from_numpy(z["labels"]).long())

    def train_dataloader(self):
        # the shard is already this rank's part: no DistributedSampler
        return DataLoader(self.ds, batch_size=32, shuffle=True)


if __name__ == "__main__":
    torch.set_num_threads(1)
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, strategy="ddp_spawn", max_epochs=args.epochs,
                        use_distributed_sampler=False, enable_checkpointing=False, logger=False,
                        enable_progress_bar=False, log_every_n_steps=2)
    trainer.fit(TextClf(args.vocab), datamodule=ShardData())
    print("fit finished", flush=True)
