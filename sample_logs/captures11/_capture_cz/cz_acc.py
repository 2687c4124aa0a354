"""accelerate-based trainer for captures11: run under `accelerate launch` (--mode launch) or through
accelerate.notebook_launcher (--mode notebook, N processes on CPU).
Logging: Python logging '[%(asctime)s] {%(filename)s:%(lineno)d} %(levelname)s - [rank R] %(message)s' on stderr.
--data csv: every process reads data/part-{R}.csv (16 float features + label); else random batches.
--lr: learning rate; a non-finite loss raises FloatingPointError on that process."""
import argparse, csv, logging, os, sys, time

import torch
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--mode", default="launch")
p.add_argument("--nproc", type=int, default=2)
p.add_argument("--steps", type=int, default=12)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--data", default="random")
p.add_argument("--sleep", type=float, default=0.2)
a = p.parse_args()


def read_csv_shard(path):
    xs, ys = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            xs.append([float(row[f"f{k}"]) for k in range(16)])
            ys.append(int(row["label"]))
    return torch.tensor(xs), torch.tensor(ys)


def main():
    from accelerate import Accelerator
    acc = Accelerator(cpu=True)
    r = acc.process_index
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, force=True,
                        format=f"[%(asctime)s] {{%(filename)s:%(lineno)d}} %(levelname)s - [rank {r}] %(message)s")
    log = logging.getLogger("cz.acc")
    log.info("accelerator: %s, %d processes, device %s", acc.distributed_type, acc.num_processes, acc.device)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), lr=a.lr)
    log.info("optimizer SGD lr=%g momentum=0", a.lr)
    if a.data == "csv":
        path = f"data/part-{r}.csv"
        log.info("reading %s", path)
        X, Y = read_csv_shard(path)
        log.info("%s: %d rows", path, len(Y))
    else:
        g = torch.Generator().manual_seed(r)
        X, Y = torch.randn(8 * a.steps, 16, generator=g), torch.randint(0, 4, (8 * a.steps,), generator=g)
    dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, Y), batch_size=8)
    model, opt, dl = acc.prepare(model, opt, dl)
    step = 0
    for x, y in dl:
        step += 1
        loss = F.cross_entropy(model(x), y)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"loss is {loss.item()} at step {step} (lr={a.lr})")
        acc.backward(loss); opt.step(); opt.zero_grad()
        mean = acc.gather(loss.detach()[None]).mean().item()
        log.info("step %d loss %.4f mean %.4f", step, loss.item(), mean)
        time.sleep(a.sleep)
        if step >= a.steps:
            break
    acc.wait_for_everyone()
    log.info("training done")


if __name__ == "__main__":
    if a.mode == "notebook":
        from accelerate import notebook_launcher
        notebook_launcher(main, num_processes=a.nproc, use_port="29976")
    else:
        main()
