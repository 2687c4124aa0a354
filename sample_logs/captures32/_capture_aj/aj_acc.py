"""aj_acc.py: HF accelerate training loop (Accelerator, CPU multi-process) for a small MLP regressor on synthetic
rows; accelerator.save_state() every --save-every steps into --output-dir/checkpoint-<step>."""
import argparse, os
import torch
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset
import logging

logger = get_logger(__name__)

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--hidden", type=int, default=1024); p.add_argument("--steps", type=int, default=60)
    p.add_argument("--save-every", type=int, default=20); p.add_argument("--output-dir", default="outputs")
    p.add_argument("--lr", type=float, default=1e-3); p.add_argument("--grad-accum", type=int, default=2)
    a = p.parse_args()
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                        level=logging.INFO)
    acc = Accelerator(cpu=True, gradient_accumulation_steps=a.grad_accum)
    logger.info(acc.state, main_process_only=False)
    set_seed(42)
    x = torch.randn(4096, 64); y = x[:, :8].sum(1, keepdim=True) + 0.1 * torch.randn(4096, 1)
    dl = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = torch.nn.Sequential(torch.nn.Linear(64, a.hidden), torch.nn.GELU(), torch.nn.Linear(a.hidden, a.hidden),
                                torch.nn.GELU(), torch.nn.Linear(a.hidden, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr)
    model, opt, dl = acc.prepare(model, opt, dl)
    logger.info(f"***** Running training ***** num_processes={acc.num_processes} steps={a.steps} "
                f"grad_accum={a.grad_accum} params={sum(p.numel() for p in model.parameters())}")
    step = 0
    while step < a.steps:
        for xb, yb in dl:
            with acc.accumulate(model):
                loss = F.mse_loss(model(xb), yb)
                acc.backward(loss)
                opt.step(); opt.zero_grad()
            if acc.sync_gradients:
                step += 1
                if step % 5 == 0:
                    l = acc.gather(loss.detach()).mean().item()
                    logger.info(f"step {step}: loss {l:.4f}")
                if step % a.save_every == 0:
                    out = os.path.join(a.output_dir, f"checkpoint-{step}")
                    acc.save_state(out)
                    logger.info(f"saved state to {out}")
            if step >= a.steps:
                break
    acc.wait_for_everyone()
    logger.info("training finished")
    acc.end_training()
