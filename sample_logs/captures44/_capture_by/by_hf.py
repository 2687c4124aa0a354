"""Hugging Face Trainer fine-tuning of a small BERT classifier (random init from model_config.json, CPU / gloo) on
the JSONL text corpus, word-level tokenizer from tokenizer/; runs under torchrun or accelerate launch."""
import argparse, json, logging, os, sys, time
import numpy as np
import torch
import transformers
from transformers import (BertConfig, BertForSequenceClassification, EarlyStoppingCallback, PreTrainedTokenizerFast, DataCollatorWithPadding, TrainerCallback,
                          Trainer, TrainingArguments, set_seed)

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--tokenizer", default="tokenizer")
p.add_argument("--model-config", default="model_config.json")
p.add_argument("--output-dir", default="out")
p.add_argument("--max-steps", type=int, default=60)
p.add_argument("--eval-steps", type=int, default=20)
p.add_argument("--save-steps", type=int, default=0)
p.add_argument("--batch-size", type=int, default=16)
p.add_argument("--lr", type=float, default=5e-4)
p.add_argument("--max-len", type=int, default=32)
p.add_argument("--early-stopping", type=int, default=0)       # patience in evaluations (EarlyStoppingCallback)
p.add_argument("--early-stopping-threshold", type=float, default=0.0)
p.add_argument("--save-on-each-node", action="store_true")
p.add_argument("--fp16", action="store_true")
p.add_argument("--resume", default="")
p.add_argument("--dynamic-pad", action="store_true")     # pad per batch with DataCollatorWithPadding
p.add_argument("--callbacks", default="")               # comma list: throughput,metrics-file
p.add_argument("--metrics-file", default="eval_history.jsonl")
p.add_argument("--hf-datasets", action="store_true")     # load the JSONL exports with datasets.load_dataset("json")
p.add_argument("--best-metric", default="")          # load_best_model_at_end on this metric (checkpoints at each eval)
p.add_argument("--grad-accum", type=int, default=1)
p.add_argument("--warmup-steps", type=int, default=0)
args = p.parse_args()

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO, stream=sys.stdout)
log = logging.getLogger("train_clf")


class JsonlText(torch.utils.data.Dataset):
    """records {"id", "text", "label"} -> tokenized features; the label is passed through when the record has one
    (the same class serves the unlabelled inference export)"""
    def __init__(self, path, tok, max_len):
        with open(path) as f:
            self.rows = [json.loads(l) for l in f]
        self.tok, self.max_len = tok, max_len

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        r = self.rows[i]
        if args.dynamic_pad:
            enc = self.tok(r["text"], truncation=True, max_length=self.max_len)
            feat = {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"]}
        else:
            enc = self.tok(r["text"], truncation=True, max_length=self.max_len, padding="max_length")
            feat = {"input_ids": torch.tensor(enc["input_ids"]), "attention_mask": torch.tensor(enc["attention_mask"])}
        feat.update({k: r[k] for k in ("label", "labels") if k in r})
        return feat


def compute_metrics(eval_pred):
    preds = eval_pred.predictions.argmax(-1)
    labels = eval_pred.label_ids
    per_class = np.bincount(labels[preds == labels], minlength=4) / np.maximum(np.bincount(labels, minlength=4), 1)
    return {"accuracy": float((preds == labels).mean()), "worst_class_recall": float(per_class.min())}


class ThroughputCallback(TrainerCallback):
    """log samples/s of the training loop between logging steps"""
    def on_train_begin(self, args_, state, control, **kw):
        self.t, self.step = time.time(), 0

    def on_log(self, args_, state, control, logs=None, **kw):
        if state.is_world_process_zero and logs and "loss" in logs:
            dt = time.time() - self.t
            n = (state.global_step - self.step) * args_.per_device_train_batch_size * args_.world_size
            log.info(f"throughput: {n / max(dt, 1e-6):.1f} samples/s over steps {self.step}-{state.global_step}")
            self.t, self.step = time.time(), state.global_step


class MetricsFileCallback(TrainerCallback):
    """rank 0 appends every evaluation to a JSON-lines history and keeps track of the best accuracy"""
    def __init__(self, path):
        self.path, self.best = path, None

    def on_evaluate(self, args_, state, control, metrics=None, **kw):
        if not state.is_world_process_zero:
            return
        acc = metrics["eval_acc"]
        self.best = acc if self.best is None else max(self.best, acc)
        with open(self.path, "a") as f:
            f.write(json.dumps({"step": state.global_step, "eval_loss": metrics.get("eval_loss"), "eval_acc": acc,
                                "best_acc": self.best}) + "\n")
        log.info(f"eval history: step {state.global_step} acc {acc:.4f} (best {self.best:.4f}) -> {self.path}")


def main():
    set_seed(3)
    transformers.utils.logging.set_verbosity_info() if os.environ.get("HF_VERBOSE") else None
    tok = PreTrainedTokenizerFast(tokenizer_file=os.path.join(args.tokenizer, "tokenizer.json"), unk_token="[UNK]",
                                  pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]")
    with open(args.model_config) as f:
        cfg = BertConfig(**json.load(f))
    log.info(f"tokenizer: {len(tok)} tokens; model: vocab_size={cfg.vocab_size} hidden={cfg.hidden_size} "
             f"layers={cfg.num_hidden_layers}")
    model = BertForSequenceClassification(cfg)
    if args.hf_datasets:
        import datasets
        raw = datasets.load_dataset("json", data_files={"train": os.path.join(args.data, "train.jsonl"),
                                                        "validation": os.path.join(args.data, "val.jsonl")})
        enc = lambda b: tok(b["text"], truncation=True, max_length=args.max_len, padding="max_length")
        train = raw["train"].map(enc, batched=True, remove_columns=["id", "text"])
        val = raw["validation"].map(enc, batched=True, remove_columns=["id", "text"])
    else:
        train = JsonlText(os.path.join(args.data, "train.jsonl"), tok, args.max_len)
        val = JsonlText(os.path.join(args.data, "val.jsonl"), tok, args.max_len)
    log.info(f"train {len(train)} / val {len(val)} records")
    kw = {}
    if args.save_steps:
        kw.update(save_strategy="steps", save_steps=args.save_steps)
    else:
        kw.update(save_strategy="no")
    cbs = []
    for c in filter(None, args.callbacks.split(",")):
        cbs.append({"throughput": ThroughputCallback, "metrics-file": lambda: MetricsFileCallback(args.metrics_file)}[c]())
    if args.best_metric:
        kw.update(load_best_model_at_end=True, metric_for_best_model=args.best_metric, greater_is_better=True,
                  save_strategy="steps", save_steps=args.eval_steps, save_total_limit=2)
    if args.early_stopping:
        kw.update(load_best_model_at_end=True, metric_for_best_model="eval_loss", greater_is_better=False,
                  save_strategy="steps", save_steps=args.eval_steps, save_total_limit=2)
        cbs.append(EarlyStoppingCallback(early_stopping_patience=args.early_stopping,
                                         early_stopping_threshold=args.early_stopping_threshold))
    targs = TrainingArguments(output_dir=args.output_dir, max_steps=args.max_steps, per_device_train_batch_size=args.batch_size,
                              per_device_eval_batch_size=32, learning_rate=args.lr, eval_strategy="steps",
                              eval_steps=args.eval_steps, logging_steps=10, report_to="none", use_cpu=True,
                              ddp_backend="gloo", dataloader_num_workers=0, seed=3, fp16=args.fp16,
                              save_on_each_node=args.save_on_each_node,
                              gradient_accumulation_steps=args.grad_accum, warmup_steps=args.warmup_steps, **kw)
    collator = DataCollatorWithPadding(tok, pad_to_multiple_of=8) if args.dynamic_pad else None
    trainer = Trainer(model=model, args=targs, train_dataset=train, eval_dataset=val, compute_metrics=compute_metrics,
                      callbacks=cbs, data_collator=collator)
    trainer.train(resume_from_checkpoint=args.resume or None)
    metrics = trainer.evaluate()
    trainer.log_metrics("eval", metrics)
    trainer.save_model(os.path.join(args.output_dir, "final"))
    log.info("done")


if __name__ == "__main__":
    main()
