#!/usr/bin/env python3
"""kc_hf.py: HF Trainer on a tiny bag-of-embeddings text classifier for the roundI kc-* jobs (launched by accelerate).
Each rank reads its own jsonl shard data/train-RRRRR.jsonl ({"ids": [...], "label": k}) and builds a padded int32
feature cache (pad to the longest document of the shard) before training; the Trainer then runs on the local cache."""
import json, os, sys, logging
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset
from transformers import Trainer, TrainingArguments, set_seed
from transformers.utils import logging as hf_logging

rank = int(os.environ.get("RANK", 0))
logging.basicConfig(format=f"%(asctime)s - %(levelname)s - %(name)s - [rank{rank}] %(message)s",
                    datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO, stream=sys.stdout)
log = logging.getLogger("kc_hf")
hf_logging.set_verbosity_info()


class Bow(nn.Module):
    def __init__(self, vocab=5000, dim=32, n_labels=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean", padding_idx=0)
        self.head = nn.Linear(dim, n_labels)

    def forward(self, input_ids=None, labels=None):
        logits = self.head(self.emb(input_ids.long()))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


class Cache(Dataset):
    def __init__(self, path):
        docs = [json.loads(l) for l in open(path)]
        lens = [len(d["ids"]) for d in docs]
        log.info("%s: %d documents, tokens min/median/max %d/%d/%d", path, len(docs), min(lens),
                 int(np.median(lens)), max(lens))
        max_len = max(lens)
        log.info("building padded feature cache [%d x %d] int32", len(docs), max_len)
        self.ids = np.zeros((len(docs), max_len), dtype=np.int32)
        for i, d in enumerate(docs):
            self.ids[i, :len(d["ids"])] = d["ids"]
        self.labels = np.array([d["label"] for d in docs])

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": torch.from_numpy(self.ids[i][:256].copy()), "labels": int(self.labels[i])}


if __name__ == "__main__":
    set_seed(3)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16, num_train_epochs=1, max_steps=30,
                             logging_steps=5, save_strategy="no", report_to=[], use_cpu=True,
                             dataloader_num_workers=0, learning_rate=5e-3, disable_tqdm=False)
    log.info("process rank %s local_rank %s world %s, device %s", rank, args.local_rank, args.world_size,
             args.device)
    ds = Cache(f"data/train-{rank:05d}.jsonl")
    trainer = Trainer(model=Bow(), args=args, train_dataset=ds)
    res = trainer.train()
    log.info("train done: %s", res.metrics)
