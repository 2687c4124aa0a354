"""transformers.Trainer on CPU (ddp_backend='gloo') for captures9; run under torchrun.

    torchrun --nproc-per-node 2 x_hf.py --config model_config.json [--init-from tiny-bert] [--steps N]

A tiny BERT classifier built from --config (a JSON of BertConfig fields) or, with --init-from, loaded with
from_pretrained (head newly initialised). Synthetic token data (seeded). --flaky-callback: a callback whose
'metrics push' fails once with a caught ConnectionRefusedError (logged at ERROR with traceback) and succeeds
on retry. transformers logging at INFO on every rank's main logger."""
import argparse, json, logging, os, sys

import torch
import transformers
from transformers import (BertConfig, BertForSequenceClassification, Trainer, TrainerCallback,
                          TrainingArguments)

p = argparse.ArgumentParser()
p.add_argument("--config", default="model_config.json")
p.add_argument("--init-from", default="")
p.add_argument("--save-init", default="")
p.add_argument("--steps", type=int, default=20)
p.add_argument("--out", default="out")
p.add_argument("--flaky-callback", action="store_true")
args = p.parse_args()

rank = int(os.environ.get("RANK", "0"))
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s - %(levelname)s - %(name)s - [rank{rank}] %(message)s",
                    stream=sys.stderr)
log = logging.getLogger("train_cls")
transformers.utils.logging.set_verbosity_info() if rank == 0 else transformers.utils.logging.set_verbosity_warning()


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
            if not self.failed and state.global_step >= 6:
                self.failed = True
                raise ConnectionRefusedError(111, "Connection refused: metrics push to http://127.0.0.1:9091/metrics/job/train_cls")
            log.info("pushed metrics at step %d", state.global_step)
        except ConnectionRefusedError:
            log.error("metrics push failed at step %d, will retry at next log", state.global_step, exc_info=True)


def main():
    cfg = json.load(open(args.config))
    log.info("model config from %s: %s", args.config, cfg)
    if args.save_init:
        BertForSequenceClassification(BertConfig(**cfg)).bert.save_pretrained(args.save_init)
        return
    targs = TrainingArguments(output_dir=args.out, per_device_train_batch_size=8, max_steps=args.steps,
                              logging_steps=2, learning_rate=5e-4, ddp_backend="gloo", use_cpu=True,
                              report_to=[], save_strategy="no", dataloader_num_workers=0, seed=0)
    if args.init_from:
        model = BertForSequenceClassification.from_pretrained(args.init_from, num_labels=2)
    else:
        model = BertForSequenceClassification(BertConfig(**cfg))
    ds = Rows(640, model.config.vocab_size, 16)
    tr = Trainer(model=model, args=targs, train_dataset=ds,
                 callbacks=[FlakyPush()] if args.flaky_callback else [])
    out = tr.train()
    log.info("train done: %s", out.metrics)


if __name__ == "__main__":
    main()
