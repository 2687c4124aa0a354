"""Hugging Face Trainer fine-tuning of a tiny BERT sequence classifier (random init from a config, CPU / gloo) on the
toy token windows; run under torchrun."""
import argparse, json, os
import numpy as np
import torch
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments, set_seed

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--output-dir", default="out")
p.add_argument("--model-config", default="model_config.json")
p.add_argument("--max-steps", type=int, default=90)
p.add_argument("--eval-steps", type=int, default=30)
p.add_argument("--batch-size", type=int, default=16)
args = p.parse_args()


class Windows(torch.utils.data.Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.rows = [json.loads(l) for l in f]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        r = self.rows[i]
        return {"input_ids": torch.tensor(r["input_ids"]) % 500 + 2, "labels": r["label"]}


def compute_metrics(eval_pred):
    preds = eval_pred.predictions.argmax(-1)
    return {"accuracy": float((preds == eval_pred.label_ids).mean())}


def main():
    set_seed(3)
    with open(args.model_config) as f:
        cfg = BertConfig(**json.load(f))
    model = BertForSequenceClassification(cfg)
    train = Windows(os.path.join(args.data, "windows_00.jsonl"))
    val = Windows(os.path.join(args.data, "windows_01.jsonl"))
    val.rows = val.rows[:192]
    targs = TrainingArguments(output_dir=args.output_dir, max_steps=args.max_steps, per_device_train_batch_size=args.batch_size,
                              per_device_eval_batch_size=32, learning_rate=5e-4, eval_strategy="steps",
                              eval_steps=args.eval_steps, logging_steps=10, save_strategy="no", report_to="none",
                              use_cpu=True, ddp_backend="gloo", dataloader_num_workers=0, seed=3, disable_tqdm=False)
    trainer = Trainer(model=model, args=targs, train_dataset=train, eval_dataset=val, compute_metrics=compute_metrics)
    trainer.train()
    metrics = trainer.evaluate()
    trainer.log_metrics("eval", metrics)
    trainer.save_model(os.path.join(args.output_dir, "final"))


if __name__ == "__main__":
    main()
