"""Tiny Accelerate job for the fault captures: --accelerator JSON goes to Accelerator(**kw)."""
import argparse
import json

import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import GradientAccumulationPlugin
import logging

logger = get_logger(__name__)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--accelerator", default="{}")
    p.add_argument("--plugin-steps", type=int, default=0)
    p.add_argument("--steps", type=int, default=20)
    args = p.parse_args()
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
                        datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO)
    kw = json.loads(args.accelerator)
    if args.plugin_steps:
        kw["gradient_accumulation_plugin"] = GradientAccumulationPlugin(num_steps=args.plugin_steps)
    accelerator = Accelerator(cpu=True, **kw)
    logger.info(accelerator.state, main_process_only=False)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    ds = torch.utils.data.TensorDataset(torch.randn(640, 16), torch.randn(640, 1))
    dl = torch.utils.data.DataLoader(ds, batch_size=8)
    model, opt, dl = accelerator.prepare(model, opt, dl)
    for step, (x, y) in enumerate(dl, 1):
        with accelerator.accumulate(model):
            loss = nn.functional.mse_loss(model(x), y)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
        if step % 5 == 0:
            logger.info("step %d loss %.4f", step, loss.item())
        if step >= args.steps:
            break
    accelerator.wait_for_everyone()
    logger.info("training finished")


if __name__ == "__main__":
    main()
