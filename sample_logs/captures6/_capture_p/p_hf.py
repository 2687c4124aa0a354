"""transformers.Trainer under torchrun (CPU, gloo) for p-hf-*: a tiny token classifier over a
JSONL dataset (--data), default_data_collator, no downloads."""
import argparse, json
import torch, torch.nn as nn
from transformers import Trainer, TrainingArguments, default_data_collator

p = argparse.ArgumentParser()
p.add_argument("--data", default="train.jsonl")
p.add_argument("--max-steps", type=int, default=12)
args = p.parse_args()


class TinyClassifier(nn.Module):
    def __init__(self, vocab=100, dim=32, n_labels=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.head = nn.Linear(dim, n_labels)

    def forward(self, input_ids=None, labels=None):
        logits = self.head(self.emb(input_ids))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


rows = [json.loads(l) for l in open(args.data)]
targs = TrainingArguments(output_dir="out", per_device_train_batch_size=4, max_steps=args.max_steps,
                          learning_rate=1e-3, logging_steps=2, save_strategy="no", report_to=[],
                          use_cpu=True, ddp_backend="gloo", ddp_timeout=20, disable_tqdm=True, seed=42)
trainer = Trainer(model=TinyClassifier(), args=targs, train_dataset=rows, data_collator=default_data_collator)
trainer.train()
print("training finished")
