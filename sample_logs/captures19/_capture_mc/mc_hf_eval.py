#!/usr/bin/env python3
"""mc_hf_eval.py: HF Trainer (report_to="none", use_cpu) on a tiny EmbeddingBag text classifier, launched by
`accelerate launch --multi_gpu`. Trains on data/train.jsonl with an in-loop evaluation on data/eval.jsonl every 20
steps (eval_strategy="steps"), the Trainer's own sharding of both sets across processes. Logging: python logging on
stdout with the process rank in each record, transformers at INFO."""
import json, logging, os, sys
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset
from transformers import Trainer, TrainingArguments, set_seed
from transformers.utils import logging as hf_logging

rank = int(os.environ.get("RANK", 0))
logging.basicConfig(format=f"%(asctime)s | %(levelname)-7s | rank={rank} | %(name)s | %(message)s",
                    level=logging.INFO, stream=sys.stdout)
log = logging.getLogger("mc_hf_eval")
hf_logging.set_verbosity_info()
N_LABELS = 4


class Bow(nn.Module):
    def __init__(self, vocab=5000, dim=32, n_labels=N_LABELS):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean", padding_idx=0)
        self.head = nn.Linear(dim, n_labels)

    def forward(self, input_ids=None, labels=None):
        logits = self.head(self.emb(input_ids.long()))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


class Docs(Dataset):
    def __init__(self, path, max_len=128):
        docs = [json.loads(l) for l in open(path)]
        self.ids = np.zeros((len(docs), max_len), dtype=np.int64)
        for i, d in enumerate(docs):
            self.ids[i, :min(len(d["ids"]), max_len)] = d["ids"][:max_len]
        self.labels = np.array([d["label"] for d in docs])
        log.info("%s: %d records (max_len %d)", path, len(docs), max_len)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": torch.from_numpy(self.ids[i]), "labels": int(self.labels[i])}


def acc(p):
    return {"accuracy": float((p.predictions.argmax(-1) == p.label_ids).mean())}


if __name__ == "__main__":
    set_seed(3)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16, per_device_eval_batch_size=16,
                             max_steps=40, logging_steps=5, eval_strategy="steps", eval_steps=20,
                             save_strategy="no", report_to="none", use_cpu=True, dataloader_num_workers=0,
                             learning_rate=5e-3, disable_tqdm=True)
    log.info("process rank %s local_rank %s world %s, device %s", rank, args.local_rank, args.world_size,
             args.device)
    trainer = Trainer(model=Bow(), args=args, train_dataset=Docs("data/train.jsonl"),
                      eval_dataset=Docs("data/eval.jsonl"), compute_metrics=acc)
    res = trainer.train()
    log.info("train done: %s", res.metrics)
    log.info("final eval: %s", trainer.evaluate())
