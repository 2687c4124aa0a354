"""Tiny Hugging Face Accelerate trainer (CPU, gloo) with gradient accumulation.

Written like the `accelerate` example scripts (`nlp_example.py`, the `run_*_no_trainer.py`
scripts): `accelerate.logging.get_logger`, HF logging format `%m/%d/%Y %H:%M:%S`,
`logger.info(accelerator.state, main_process_only=False)`, `accelerator.prepare`,
`with accelerator.accumulate(model):`.

The data set has a size that is not a multiple of world_size * batch_size, and the
prepared DataLoader is built with `even_batches=False` (no wrap-around padding): the
rank that gets the final, short batch is the only one to see fewer than
`--per-device-batch-size` samples. With `--fail short_batch_reshape` the model's
forward does what much user code does, `x.view(batch_size, groups, -1)` with the
*configured* batch size, which only fails on that short batch.

Launched with `accelerate launch --multi_gpu --num_processes 4 acc_train.py --cpu`:
`--multi_gpu` makes accelerate start the workers through torchrun, and
`Accelerator(cpu=True)` then picks DistributedType.MULTI_CPU with the gloo backend.
"""

import argparse
import logging
import math

import torch
from accelerate import Accelerator, DataLoaderConfiguration
from accelerate.logging import get_logger
from accelerate.utils import set_seed
from torch import nn
from torch.utils.data import DataLoader, Dataset

logger = get_logger(__name__)


class SyntheticRegression(Dataset):
    def __init__(self, n, dim):
        self.n = n
        self.dim = dim
        g = torch.Generator().manual_seed(1234)
        self.w = torch.randn(dim, 1, generator=g)

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        g = torch.Generator().manual_seed(idx)
        x = torch.randn(self.dim, generator=g)
        y = x @ self.w + 0.01 * torch.randn(1, generator=g)
        return {"x": x, "y": y}


class GroupedMLP(nn.Module):
    """Splits the features into groups, a shared Linear per group, then a head."""

    def __init__(self, dim, groups, hidden, batch_size, fixed_batch_view):
        super().__init__()
        self.groups = groups
        self.batch_size = batch_size
        self.fixed_batch_view = fixed_batch_view
        self.group_proj = nn.Linear(dim // groups, hidden)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(groups * hidden, 1))

    def forward(self, x):
        if self.fixed_batch_view:
            # user code written for a fixed batch size
            h = x.view(self.batch_size, self.groups, -1)
        else:
            h = x.view(x.shape[0], self.groups, -1)
        h = self.group_proj(h)
        return self.head(h.flatten(1))


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--cpu", action="store_true")
    p.add_argument("--num-samples", type=int, default=341)
    p.add_argument("--per-device-batch-size", type=int, default=8)
    p.add_argument("--gradient-accumulation-steps", type=int, default=4)
    p.add_argument("--dim", type=int, default=16)
    p.add_argument("--groups", type=int, default=4)
    p.add_argument("--hidden", type=int, default=8)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--num-epochs", type=int, default=1)
    p.add_argument("--even-batches", choices=["true", "false"], default="false")
    p.add_argument("--fail", choices=["none", "short_batch_reshape"], default="none")
    return p.parse_args()


def main():
    args = parse_args()
    dataloader_config = DataLoaderConfiguration(even_batches=args.even_batches == "true")
    accelerator = Accelerator(
        cpu=args.cpu,
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        dataloader_config=dataloader_config,
    )
    logging.basicConfig(
        format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
        datefmt="%m/%d/%Y %H:%M:%S",
        level=logging.INFO,
    )
    logger.info(accelerator.state, main_process_only=False)
    set_seed(42)

    ds = SyntheticRegression(args.num_samples, args.dim)
    train_dataloader = DataLoader(ds, batch_size=args.per_device_batch_size, shuffle=False)
    model = GroupedMLP(args.dim, args.groups, args.hidden, args.per_device_batch_size,
                       fixed_batch_view=args.fail == "short_batch_reshape")
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)

    num_update_steps_per_epoch = math.ceil(len(train_dataloader) / args.gradient_accumulation_steps)
    max_train_steps = args.num_epochs * num_update_steps_per_epoch
    total_batch_size = args.per_device_batch_size * accelerator.num_processes * args.gradient_accumulation_steps
    logger.info("***** Running training *****")
    logger.info(f"  Num examples = {len(ds)}")
    logger.info(f"  Num Epochs = {args.num_epochs}")
    logger.info(f"  Instantaneous batch size per device = {args.per_device_batch_size}")
    logger.info(f"  Total train batch size (w. parallel, distributed & accumulation) = {total_batch_size}")
    logger.info(f"  Gradient Accumulation steps = {args.gradient_accumulation_steps}")
    logger.info(f"  Total optimization steps = {max_train_steps}")
    logger.info(f"  Batches on this process = {len(train_dataloader)}", main_process_only=False)

    loss_fn = nn.MSELoss()
    completed_steps = 0
    for epoch in range(args.num_epochs):
        model.train()
        for step, batch in enumerate(train_dataloader):
            with accelerator.accumulate(model):
                out = model(batch["x"])
                loss = loss_fn(out, batch["y"])
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
            if accelerator.sync_gradients:
                completed_steps += 1
                logger.info(
                    f"epoch {epoch} step {completed_steps} (batch {step + 1}, {batch['x'].shape[0]} samples): "
                    f"loss {loss.item():.4f}",
                    main_process_only=False,
                )
    accelerator.wait_for_everyone()
    logger.info(f"Training finished: {completed_steps} optimization steps")
    accelerator.end_training()


if __name__ == "__main__":
    main()
