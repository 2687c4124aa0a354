#!/usr/bin/env python3
"""ia_hf.py: HF transformers Trainer (CPU, gloo DDP from RANK/WORLD_SIZE/MASTER_* env) on a tiny MLP classifier.
TrainingArguments(log_on_each_node=False, log_level="info", log_level_replica="warning", logging_steps=4,
eval each epoch). The script's own logger `ia.hf` writes `%(asctime)s %(levelname)s [rank R] %(name)s: msg` to stderr
and to a RotatingFileHandler logs/hf-rank<R>.log; transformers' logger output goes to stderr.
A TrainerCallback posts the logged metrics to a dashboard at --dashboard (host:port); failures are logged with the
traceback and training goes on.
"""
import argparse, logging, logging.handlers, os, socket, sys, json

import torch
import torch.nn as nn
import torch.nn.functional as F
import transformers
from transformers import Trainer, TrainingArguments, TrainerCallback

p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, default=2)
p.add_argument("--dashboard", default="127.0.0.1:8086")
p.add_argument("--out", default="hf_out")
args = p.parse_args()
rank = int(os.environ.get("RANK", 0))

log = logging.getLogger("ia.hf")
fmt = logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s")
for h in (logging.StreamHandler(sys.stderr),
          logging.handlers.RotatingFileHandler(f"logs/hf-rank{rank}.log", maxBytes=100_000, backupCount=1)):
    h.setFormatter(fmt); log.addHandler(h)
log.setLevel(logging.INFO); log.propagate = False


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, x, labels=None):
        logits = self.net(x)
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = F.cross_entropy(logits, labels)
        return out


class DS(torch.utils.data.Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, 16, generator=g)
        self.y = (self.x @ torch.linspace(-1, 1, 64).reshape(16, 4)).argmax(1)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"x": self.x[i], "labels": self.y[i]}


class DashboardPush(TrainerCallback):
    def on_log(self, a, state, control, logs=None, **kw):
        if not state.is_world_process_zero:
            return
        host, port = args.dashboard.split(":")
        try:
            with socket.create_connection((host, int(port)), timeout=2) as c:
                c.sendall(json.dumps({"step": state.global_step, **(logs or {})}).encode())
        except OSError:
            log.exception("dashboard push to %s failed at step %d; metrics stay in the local log", args.dashboard,
                          state.global_step)


if __name__ == "__main__":
    torch.set_num_threads(1)
    log.info("transformers %s, torch %s, rank %s/%s", transformers.__version__, torch.__version__, rank,
             os.environ.get("WORLD_SIZE"))
    ta = TrainingArguments(output_dir=args.out, num_train_epochs=args.epochs, per_device_train_batch_size=16,
                           per_device_eval_batch_size=32, learning_rate=5e-3, logging_steps=4, eval_strategy="epoch",
                           save_strategy="no", report_to="none", use_cpu=True, ddp_backend="gloo",
                           log_on_each_node=False, log_level="info", log_level_replica="warning",
                           dataloader_num_workers=0, disable_tqdm=True, seed=1)
    tr = Trainer(model=MLP(), args=ta, train_dataset=DS(384, 1), eval_dataset=DS(96, 2), callbacks=[DashboardPush()])
    out = tr.train()
    metrics = tr.evaluate()
    log.info("train done: %s; eval %s", {k: round(v, 4) for k, v in out.metrics.items()},
             {k: round(v, 4) for k, v in metrics.items()})
