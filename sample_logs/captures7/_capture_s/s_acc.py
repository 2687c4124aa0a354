"""Accelerate trainer for captures7: Accelerator(cpu=True) (MULTI_CPU / gloo under `accelerate launch
--config_file acc_config.yaml`, whose MULTI_GPU entry runs torchrun), rich.logging.RichHandler on every rank
(rich's own time column, level, message, file:line; wrapped at 100 columns), accelerate's
get_logger (main-process lines) plus a per-rank logger.
--steps N --sleep S: a plain run of N steps."""
import argparse, logging, sys, time

import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger
from rich.console import Console
from rich.logging import RichHandler

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=400)
p.add_argument("--sleep", type=float, default=0.2)
args = p.parse_args()

logging.basicConfig(level=logging.INFO, format="%(message)s", datefmt="[%X]",
                    handlers=[RichHandler(console=Console(file=sys.stderr, width=100), show_path=True)])
main_log = get_logger("tiny.train")


def main():
    acc = Accelerator(cpu=True)
    rlog = logging.getLogger(f"tiny.rank{acc.process_index}")
    rlog.info("rank %d/%d up, device=%s", acc.process_index, acc.num_processes, acc.device)
    main_log.info("distributed_type=%s num_processes=%d", acc.distributed_type, acc.num_processes)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    ds = torch.utils.data.TensorDataset(torch.randn(args.steps * 8 * acc.num_processes, 16),
                                        torch.randint(0, 4, (args.steps * 8 * acc.num_processes,)))
    dl = torch.utils.data.DataLoader(ds, batch_size=8)
    model, opt, dl = acc.prepare(model, opt, dl)
    lossf = nn.CrossEntropyLoss()
    for step, (x, y) in enumerate(dl, 1):
        loss = lossf(model(x), y)
        acc.backward(loss)
        opt.step()
        opt.zero_grad()
        if step % 5 == 0:
            g = acc.gather(loss.detach()[None]).mean().item()
            main_log.info("step %d/%d loss %.4f (mean over ranks %.4f)", step, args.steps, loss.item(), g)
        if step % 25 == 0:
            rlog.info("rank %d heartbeat at step %d", acc.process_index, step)
        time.sleep(args.sleep)
    acc.wait_for_everyone()
    main_log.info("training done")
    acc.end_training()


if __name__ == "__main__":
    main()
