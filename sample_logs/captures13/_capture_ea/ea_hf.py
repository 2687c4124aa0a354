"""transformers.Trainer on CPU for captures13, run under `accelerate launch --config_file acc_cpu.yaml` (MULTI_CPU,
several processes, gloo).

    accelerate launch --config_file acc_cpu.yaml ea_hf.py --model-dir tiny-cls [--steps N] [--logging-dir runs/x]

The classifier is loaded with AutoModelForSequenceClassification.from_pretrained(--model-dir) (a local dir; the
capture script writes it with `--make-model DIR` first, or copies a dir written by another release). Synthetic
token data (seeded). Logging: the console gets '%(asctime)s | %(levelname)s | %(name)s | rank=R | msg'; every
process also writes the same records (its own + transformers') to <logging_dir>/process_<R>.log.
--flaky-callback: a metrics push that fails once (ConnectionRefusedError logged at ERROR with traceback), retried.
--legacy-logging-dir: pass logging_dir=<dir> to TrainingArguments (the 4.x-era call; transformers 5 dropped it).
--warn: harmless alarming lines (a deprecation-style FutureWarning, a WARNING about padding).
"""
import argparse, logging, os, sys, warnings

import torch
import transformers
from transformers import (AutoModelForSequenceClassification, BertConfig, BertForSequenceClassification, Trainer,
                          TrainerCallback, TrainingArguments)

p = argparse.ArgumentParser()
p.add_argument("--model-dir", default="tiny-cls")
p.add_argument("--make-model", default="")
p.add_argument("--steps", type=int, default=20)
p.add_argument("--out", default="out")
p.add_argument("--logging-dir", default="runs/ea-hf")
p.add_argument("--logging-steps", type=int, default=2)
p.add_argument("--legacy-logging-dir", action="store_true",
               help="pass logging_dir= to TrainingArguments, as the script did under transformers 4.x")
p.add_argument("--flaky-callback", action="store_true")
p.add_argument("--warn", action="store_true")
args = p.parse_args()

if args.make_model:
    cfg = BertConfig(vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=64, num_labels=2)
    torch.manual_seed(0)
    BertForSequenceClassification(cfg).save_pretrained(args.make_model)
    print("wrote", args.make_model)
    sys.exit(0)

rank = int(os.environ.get("RANK", "0"))
os.makedirs(args.logging_dir, exist_ok=True)
fmt = logging.Formatter(f"%(asctime)s | %(levelname)s | %(name)s | rank={rank} | %(message)s")
root = logging.getLogger()
root.setLevel(logging.INFO)
for h in (logging.StreamHandler(sys.stderr), logging.FileHandler(os.path.join(args.logging_dir, f"process_{rank}.log"))):
    h.setFormatter(fmt); root.addHandler(h)
transformers.utils.logging.disable_default_handler()
transformers.utils.logging.enable_propagation()
transformers.utils.logging.set_verbosity_info() if rank == 0 else transformers.utils.logging.set_verbosity_warning()
logging.captureWarnings(True)
log = logging.getLogger("ea_hf")


class Rows(torch.utils.data.Dataset):
    def __init__(self, n, vocab, seq):
        g = torch.Generator().manual_seed(7)
        self.ids = torch.randint(5, vocab, (n, seq), generator=g)
        self.y = (self.ids[:, 0] % 2).long()

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones_like(self.ids[i]), "labels": self.y[i]}


class FlakyPush(TrainerCallback):
    def __init__(self):
        self.failed = False

    def on_log(self, a, state, control, logs=None, **kw):
        if rank != 0 or not logs:
            return
        try:
            if not self.failed and state.global_step >= 4:
                self.failed = True
                raise ConnectionRefusedError(111, "Connection refused: POST http://127.0.0.1:9091/metrics/job/ea_hf")
            log.info("pushed metrics at step %d", state.global_step)
        except ConnectionRefusedError:
            log.error("metrics push failed at step %d, will retry at next log", state.global_step, exc_info=True)


log.info("loading classifier from %s", args.model_dir)
model = AutoModelForSequenceClassification.from_pretrained(args.model_dir)
log.info("model: %s, %d params", type(model).__name__, sum(q.numel() for q in model.parameters()))
if args.warn:
    warnings.warn("`resume_download` is deprecated and will be removed in version 1.0.0. Downloads always resume "
                  "when possible. If you want to force a new download, use `force_download=True`.", FutureWarning)
    log.warning("tokenizer has no pad token; padding with eos (id 2); sequences are fixed length so nothing is padded")
ds = Rows(2048, model.config.vocab_size, 24)
extra = {"logging_dir": args.logging_dir} if args.legacy_logging_dir else {}
targs = TrainingArguments(output_dir=args.out, max_steps=args.steps,
                          per_device_train_batch_size=8, logging_steps=args.logging_steps, save_strategy="no",
                          report_to=[], use_cpu=True, ddp_backend="gloo", learning_rate=5e-4, disable_tqdm=True,
                          dataloader_num_workers=0, seed=1, **extra)
trainer = Trainer(model=model, args=targs, train_dataset=ds, callbacks=[FlakyPush()] if args.flaky_callback else [])
res = trainer.train()
log.info("train done: global_step=%d train_loss=%.4f", res.global_step, res.training_loss)
