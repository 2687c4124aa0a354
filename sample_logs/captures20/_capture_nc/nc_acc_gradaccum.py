"""accelerate training loop on CPU with gradient accumulation (Accelerator(cpu=True, gradient_accumulation_steps=4)),
accelerate.logging.get_logger, per-epoch eval with gather_for_metrics
and a final metrics line."""
import time, math, json
import torch, torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import set_seed
import logging

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO)
log = get_logger("gradaccum")

def main():
    acc = Accelerator(cpu=True, gradient_accumulation_steps=4)
    set_seed(7)
    log.info(acc.state, main_process_only=False)
    g = torch.Generator().manual_seed(0)
    X = torch.randn(2048, 12, generator=g); w = torch.randn(12, 1, generator=g)
    Y = (X @ w + 0.1 * torch.randn(2048, 1, generator=g))
    tr = DataLoader(TensorDataset(X[:1792], Y[:1792]), batch_size=16, shuffle=True)
    ev = DataLoader(TensorDataset(X[1792:], Y[1792:]), batch_size=64)
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model, opt, tr, ev = acc.prepare(model, opt, tr, ev)
    log.info(f"gradient_accumulation_steps={acc.gradient_accumulation_steps} micro-batches/epoch/process={len(tr)}",
             main_process_only=False)
    updates = 0
    for epoch in range(3):
        model.train(); t0 = time.time()
        for i, (x, y) in enumerate(tr):
            with acc.accumulate(model):
                loss = nn.functional.mse_loss(model(x), y)
                acc.backward(loss)
                opt.step(); opt.zero_grad()
            if acc.sync_gradients:
                updates += 1
                if updates % 10 == 0:
                    log.info(f"epoch {epoch} update {updates} loss {loss.item():.4f}")
        model.eval(); se = 0.0; n = 0
        for x, y in ev:
            with torch.no_grad():
                p = model(x)
            p, y = acc.gather_for_metrics((p, y))
            se += ((p - y) ** 2).sum().item(); n += y.numel()
        log.info(f"epoch {epoch} eval rmse {math.sqrt(se / n):.4f} on {n} samples ({time.time() - t0:.1f}s)")
    acc.wait_for_everyone()
    if acc.is_main_process:
        print(json.dumps({"final_eval_rmse": round(math.sqrt(se / n), 4), "optimizer_updates": updates,
                          "epochs": 3, "processes": acc.num_processes}), flush=True)
    log.info("training complete", main_process_only=False)
    acc.end_training()

if __name__ == "__main__":
    main()
