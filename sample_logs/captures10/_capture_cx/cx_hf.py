"""transformers.Trainer on CPU with gloo DDP (under torchrun) for captures10.

Builds a tiny BERT encoder from a config and saves it (tiny_bert/), then loads it with
BertForSequenceClassification.from_pretrained (the classifier head is newly initialised: transformers reports it),
trains on random token ids with logging_steps=2, save_steps=6, output_dir out/ (trainer_state.json in each
checkpoint and, via trainer.save_state(), in out/)."""
import os

import torch
import transformers
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, BertModel, Trainer, TrainingArguments

transformers.logging.set_verbosity_info()
rank = int(os.environ.get("RANK", "0"))
if rank == 0 and not os.path.exists("tiny_bert/config.json"):
    cfg = BertConfig(vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=64, max_position_embeddings=64)
    torch.manual_seed(0)
    BertModel(cfg).save_pretrained("tiny_bert")
else:
    import time
    while not os.path.exists("tiny_bert/model.safetensors"):
        time.sleep(0.2)
    time.sleep(0.5)


class RandomText(Dataset):
    def __init__(self, n=192):
        g = torch.Generator().manual_seed(1)
        self.ids = torch.randint(1, 120, (n, 24), generator=g)
        self.labels = torch.randint(0, 2, (n,), generator=g)

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones(24, dtype=torch.long), "labels": self.labels[i]}


model = BertForSequenceClassification.from_pretrained("tiny_bert", num_labels=2)
args = TrainingArguments(output_dir="out", per_device_train_batch_size=8, num_train_epochs=1, learning_rate=5e-3,
                         logging_steps=2, save_steps=6, save_total_limit=1, report_to=[], use_cpu=True,
                         ddp_backend="gloo", disable_tqdm=True, dataloader_num_workers=0, seed=0)
trainer = Trainer(model=model, args=args, train_dataset=RandomText(), eval_dataset=RandomText(32))
trainer.train()
trainer.save_state()
m = trainer.evaluate()
if rank == 0:
    print("eval:", m, flush=True)
