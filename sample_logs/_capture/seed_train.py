"""Accelerate trainer (CPU, gloo) for the three gradient-accumulation seed scenarios.

Written like the accelerate example scripts (`accelerate.logging.get_logger`, HF logging
format, `logger.info(accelerator.state, main_process_only=False)`, `accelerator.prepare`,
`with accelerator.accumulate(model):`), and like them it prints the model and the
"***** Running training *****" summary. Nothing is injected: every failure comes from the
configuration given on the command line.

  --model mlp        Linear -> ReLU -> Linear on fixed-size feature vectors
  --model bn_mlp     Linear -> BatchNorm1d -> ReLU -> Linear (BatchNorm in train mode)
  --model seq_pool   variable-length sequences, padded per batch, mean-pooled, then an MLP;
                     with --max-tokens the DataLoader uses a token-budget batch sampler
                     (length bucketing): the number of samples per micro-batch varies
  --gather-loss      every micro-step, accelerator.gather() the per-sample losses to log
                     the global mean loss (what many scripts do for metrics; not
                     gather_for_metrics, no padding)

Launched with `accelerate launch --multi_gpu --num_processes 4 seed_train.py --cpu ...`
(see capture.sh): torchrun underneath, Accelerator(cpu=True) -> MULTI_CPU/gloo.
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


class SyntheticSequences(Dataset):
    """Sequences of `length(idx)` feature vectors; target = mean of x @ w."""

    def __init__(self, n, dim, long_every):
        self.n = n
        self.dim = dim
        self.long_every = long_every
        g = torch.Generator().manual_seed(1234)
        self.w = torch.randn(dim, 1, generator=g)

    def length(self, idx):
        return 48 if self.long_every and idx % self.long_every == self.long_every - 1 else 32

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        g = torch.Generator().manual_seed(idx)
        x = torch.randn(self.length(idx), self.dim, generator=g)
        y = (x @ self.w).mean(0) + 0.01 * torch.randn(1, generator=g)
        return {"x": x, "y": y}


def pad_collate(items):
    max_len = max(it["x"].shape[0] for it in items)
    x = torch.zeros(len(items), max_len, items[0]["x"].shape[1])
    mask = torch.zeros(len(items), max_len)
    for i, it in enumerate(items):
        x[i, : it["x"].shape[0]] = it["x"]
        mask[i, : it["x"].shape[0]] = 1
    return {"x": x, "mask": mask, "y": torch.stack([it["y"] for it in items])}


class TokenBudgetBatchSampler:
    """Greedy length bucketing: as many consecutive samples as fit in max_tokens
    (padded length * batch size), at most max_batch_size."""

    def __init__(self, ds, max_tokens, max_batch_size):
        self.batches = []
        batch, longest = [], 0
        for idx in range(len(ds)):
            l = max(longest, ds.length(idx))
            if batch and (len(batch) + 1) * l > max_tokens or len(batch) == max_batch_size:
                self.batches.append(batch)
                batch, l = [], ds.length(idx)
            batch.append(idx)
            longest = l
        if batch:
            self.batches.append(batch)

    def __iter__(self):
        return iter(self.batches)

    def __len__(self):
        return len(self.batches)


class MLP(nn.Module):
    def __init__(self, dim, hidden, batchnorm):
        super().__init__()
        layers = [nn.Linear(dim, hidden)]
        if batchnorm:
            layers.append(nn.BatchNorm1d(hidden))
        layers += [nn.ReLU(), nn.Linear(hidden, 1)]
        self.net = nn.Sequential(*layers)

    def forward(self, x, mask=None):
        return self.net(x)


class SeqPool(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.proj = nn.Linear(dim, hidden)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x, mask):
        h = self.proj(x) * mask.unsqueeze(-1)
        h = h.sum(1) / mask.sum(1, keepdim=True)
        return self.head(h)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--cpu", action="store_true")
    p.add_argument("--model", choices=["mlp", "bn_mlp", "seq_pool"], default="mlp")
    p.add_argument("--num-samples", type=int, default=2032)
    p.add_argument("--per-device-batch-size", type=int, default=4)
    p.add_argument("--gradient-accumulation-steps", type=int, default=8)
    p.add_argument("--max-tokens", type=int, default=0, help="token budget per micro-batch (seq_pool)")
    p.add_argument("--long-every", type=int, default=0, help="every N-th sequence is 48 long, else 32")
    p.add_argument("--dim", type=int, default=16)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--num-epochs", type=int, default=1)
    p.add_argument("--even-batches", choices=["true", "false"], default="true")
    p.add_argument("--gather-loss", action="store_true")
    p.add_argument("--log-all-ranks", action="store_true")
    return p.parse_args()


def main():
    args = parse_args()
    accelerator = Accelerator(
        cpu=args.cpu,
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        dataloader_config=DataLoaderConfiguration(even_batches=args.even_batches == "true"),
    )
    logging.basicConfig(
        format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
        datefmt="%m/%d/%Y %H:%M:%S",
        level=logging.INFO,
    )
    logger.info(accelerator.state, main_process_only=False)
    set_seed(42)

    if args.model == "seq_pool":
        ds = SyntheticSequences(args.num_samples, args.dim, args.long_every)
        if args.max_tokens:
            sampler = TokenBudgetBatchSampler(ds, args.max_tokens, args.per_device_batch_size)
            train_dataloader = DataLoader(ds, batch_sampler=sampler, collate_fn=pad_collate)
        else:
            train_dataloader = DataLoader(ds, batch_size=args.per_device_batch_size, collate_fn=pad_collate)
        model = SeqPool(args.dim, args.hidden)
    else:
        ds = SyntheticRegression(args.num_samples, args.dim)
        train_dataloader = DataLoader(ds, batch_size=args.per_device_batch_size, shuffle=False)
        model = MLP(args.dim, args.hidden, batchnorm=args.model == "bn_mlp")
    logger.info(model)
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

    loss_fn = nn.MSELoss(reduction="none")
    completed_steps = 0
    for epoch in range(args.num_epochs):
        model.train()
        running, micro = 0.0, 0
        for step, batch in enumerate(train_dataloader):
            with accelerator.accumulate(model):
                out = model(batch["x"], batch.get("mask"))
                per_sample = loss_fn(out, batch["y"]).squeeze(-1)
                loss = per_sample.mean()
                if args.gather_loss:
                    global_loss = accelerator.gather(per_sample.detach()).mean().item()
                else:
                    global_loss = loss.item()
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
            running += global_loss
            micro += 1
            if accelerator.sync_gradients:
                completed_steps += 1
                logger.info(
                    f"epoch {epoch} step {completed_steps} (batch {step + 1}/{len(train_dataloader)}): "
                    f"loss {running / micro:.4f}",
                    main_process_only=not args.log_all_ranks,
                )
                running, micro = 0.0, 0
    accelerator.wait_for_everyone()
    logger.info(f"Training finished: {completed_steps} optimization steps")
    accelerator.end_training()


if __name__ == "__main__":
    main()
