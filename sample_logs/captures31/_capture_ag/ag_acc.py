"""ag_acc.py: accelerate training loop with sharded optimizer-state checkpoints (one file per rank)."""
import argparse, os, time
import torch, torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import set_seed

p = argparse.ArgumentParser()
p.add_argument("--hidden", type=int, default=256); p.add_argument("--steps", type=int, default=240)
p.add_argument("--save-every", type=int, default=120); p.add_argument("--out", default="ckpt")
p.add_argument("--resume", default=""); p.add_argument("--lr", type=float, default=3e-3)
a = p.parse_args()
log = get_logger("ag.acc", log_level="INFO")


def main():
    import logging
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO)
    acc = Accelerator(cpu=True)
    set_seed(0)
    model = nn.Sequential(nn.Linear(32, a.hidden), nn.GELU(), nn.Linear(a.hidden, a.hidden), nn.GELU(), nn.Linear(a.hidden, 8))
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr)
    x = torch.randn(4096, 32); y = (x[:, :8] * 3).argmax(1)
    dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=32, shuffle=True)
    start = 0
    if a.resume:
        model.load_state_dict(torch.load(os.path.join(a.resume, "model.pt")))
        shard = os.path.join(a.resume, f"optim_rank{acc.process_index}.pt")
        opt.load_state_dict(torch.load(shard))
        start = int(os.path.basename(a.resume).split("_")[-1])
        log.info(f"rank {acc.process_index}: restored model + optimizer shard {shard} (step {start})", main_process_only=False)
    model, opt, dl = acc.prepare(model, opt, dl)
    log.info(f"num_processes={acc.num_processes} device={acc.device} distributed_type={acc.distributed_type}")
    step = start
    while step < a.steps:
        for xb, yb in dl:
            loss = nn.functional.cross_entropy(model(xb), yb)
            acc.backward(loss); opt.step(); opt.zero_grad(); step += 1
            if step % 20 == 0:
                l = acc.gather(loss.detach().reshape(1)).mean().item()
                log.info(f"step {step}/{a.steps} loss={l:.4f}")
            if step % a.save_every == 0:
                d = os.path.join(a.out, f"step_{step}"); os.makedirs(d, exist_ok=True)
                acc.wait_for_everyone()
                if acc.is_main_process:
                    torch.save(acc.unwrap_model(model).state_dict(), os.path.join(d, "model.pt"))
                torch.save(opt.state_dict(), os.path.join(d, f"optim_rank{acc.process_index}.pt"))
                log.info(f"saved {d}")
            if step >= a.steps:
                break
            time.sleep(0.01)
    acc.wait_for_everyone()
    log.info("done")
    acc.end_training()


if __name__ == "__main__":
    main()
