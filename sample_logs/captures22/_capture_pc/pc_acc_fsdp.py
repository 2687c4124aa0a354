"""pc_acc_fsdp.py: accelerate + FSDP (config file) training of a small transformer-ish MLP stack on CPU/gloo."""
import argparse, time
import torch, torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger
import logging
p = argparse.ArgumentParser(); p.add_argument("--steps", type=int, default=300); p.add_argument("--sleep", type=float, default=0.2)
a = p.parse_args()
logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO)
acc = Accelerator()
log = get_logger("fsdp_train")


class Block(nn.Module):
    def __init__(s, d):
        super().__init__(); s.ln = nn.LayerNorm(d); s.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(s, x):
        return x + s.ff(s.ln(x))


model = nn.Sequential(nn.Linear(32, 128), *[Block(128) for _ in range(4)], nn.Linear(128, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
log.info(f"distributed_type={acc.distributed_type} num_processes={acc.num_processes}", main_process_only=False)
model, opt = acc.prepare(model, opt)
log.info(f"prepared: {type(model).__name__}", main_process_only=False)
g = torch.Generator().manual_seed(acc.process_index)
w = torch.randn(32, 1, generator=torch.Generator().manual_seed(0))
for step in range(a.steps):
    x = torch.randn(64, 32, generator=g); y = x @ w
    loss = nn.functional.mse_loss(model(x), y)
    acc.backward(loss); opt.step(); opt.zero_grad()
    if step % 5 == 0:
        l = acc.gather(loss.detach()).mean()
        log.info(f"step {step} loss {loss.item():.4f} mean {l.item():.4f}", main_process_only=False)
    time.sleep(a.sleep)
log.info("training complete", main_process_only=False)
acc.end_training()
