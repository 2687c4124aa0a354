"""Hugging Face Trainer fine-tuning of a small BERT classifier (random init from model_config.json, CPU / gloo) on the
JSONL text corpus, word-level tokenizer from tokenizer/; run under accelerate launch. Recipe-level requirement checks
in the style of the transformers example scripts; optional checkpoint mirror callback (copies each checkpoint to the
shared "latest" directory that the eval service watches)."""
import argparse, json, logging, os, shutil, sys, time
import torch
import transformers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast, Trainer,
                          TrainerCallback, TrainingArguments, set_seed)
from transformers.utils.versions import require_version

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--tokenizer", default="tokenizer")
p.add_argument("--model-config", default="model_config.json")
p.add_argument("--output-dir", default="out")
p.add_argument("--max-steps", type=int, default=60)
p.add_argument("--eval-steps", type=int, default=20)
p.add_argument("--save-strategy", default="no")
p.add_argument("--save-steps", type=int, default=0)
p.add_argument("--batch-size", type=int, default=16)
p.add_argument("--lr", type=float, default=5e-4)
p.add_argument("--max-len", type=int, default=32)
p.add_argument("--load-best", action="store_true")
p.add_argument("--mirror", default="")            # copy each saved checkpoint to this dir (rank 0)
p.add_argument("--requirements", default="")      # file of "pkg>=x" lines checked at start (require_version)
p.add_argument("--warmup-steps", type=int, default=0)
p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--grad-ckpt", action="store_true")
args = p.parse_args()

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO, stream=sys.stdout)
log = logging.getLogger("train_clf")

if args.requirements:
    with open(args.requirements) as f:
        for req in (l.strip() for l in f):
            if req and not req.startswith("#"):
                require_version(req, "To fix: pip install -r requirements.txt")


class JsonlText(torch.utils.data.Dataset):
    def __init__(self, path, tok, max_len):
        with open(path) as f:
            self.rows = [json.loads(l) for l in f]
        self.tok, self.max_len = tok, max_len

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        r = self.rows[i]
        enc = self.tok(r["text"], truncation=True, max_length=self.max_len, padding="max_length")
        return {"input_ids": torch.tensor(enc["input_ids"]), "attention_mask": torch.tensor(enc["attention_mask"]),
                "labels": r["label"]}


class CheckpointMirror(TrainerCallback):
    """after each save, rank 0 copies the new checkpoint to <mirror>/latest for the eval watcher"""
    def __init__(self, root):
        self.root = root

    def on_save(self, targs, state, control, **kw):
        if not state.is_world_process_zero:
            return
        src = os.path.join(targs.output_dir, f"checkpoint-{state.global_step}")
        dst = os.path.join(self.root, "latest")
        os.makedirs(self.root, exist_ok=True)
        shutil.copytree(src, dst)
        log.info(f"mirrored {src} -> {dst}")


class Throttle(TrainerCallback):
    def on_step_end(self, targs, state, control, **kw):
        time.sleep(args.step_sleep)


def compute_metrics(eval_pred):
    preds = eval_pred.predictions.argmax(-1)
    return {"accuracy": float((preds == eval_pred.label_ids).mean())}


def main():
    set_seed(3)
    tok = PreTrainedTokenizerFast(tokenizer_file=os.path.join(args.tokenizer, "tokenizer.json"), unk_token="[UNK]",
                                  pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]")
    with open(args.model_config) as f:
        cfg = BertConfig(**json.load(f))
    log.info(f"tokenizer: {len(tok)} tokens; model: vocab_size={cfg.vocab_size} hidden={cfg.hidden_size} "
             f"layers={cfg.num_hidden_layers}")
    model = BertForSequenceClassification(cfg)
    train = JsonlText(os.path.join(args.data, "train.jsonl"), tok, args.max_len)
    val = JsonlText(os.path.join(args.data, "val.jsonl"), tok, args.max_len)
    log.info(f"train {len(train)} / val {len(val)} records")
    kw = dict(save_strategy=args.save_strategy)
    if args.save_steps:
        kw.update(save_steps=args.save_steps)
    if args.load_best:
        kw.update(load_best_model_at_end=True, metric_for_best_model="accuracy", greater_is_better=True)
    targs = TrainingArguments(output_dir=args.output_dir, max_steps=args.max_steps, per_device_train_batch_size=args.batch_size,
                              per_device_eval_batch_size=32, learning_rate=args.lr, eval_strategy="steps",
                              eval_steps=args.eval_steps, logging_steps=10, report_to="none", use_cpu=True,
                              ddp_backend="gloo", dataloader_num_workers=0, seed=3, warmup_steps=args.warmup_steps,
                              gradient_checkpointing=args.grad_ckpt, **kw)
    cbs = []
    if args.mirror:
        cbs.append(CheckpointMirror(args.mirror))
    if args.step_sleep:
        cbs.append(Throttle())
    trainer = Trainer(model=model, args=targs, train_dataset=train, eval_dataset=val, compute_metrics=compute_metrics,
                      callbacks=cbs)
    trainer.train()
    metrics = trainer.evaluate()
    trainer.log_metrics("eval", metrics)
    trainer.save_model(os.path.join(args.output_dir, "final"))
    log.info("done")


if __name__ == "__main__":
    main()
