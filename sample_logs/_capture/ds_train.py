"""Tiny DeepSpeed trainer (CPU, gloo) used for the deepspeed-batch-config-error sample.

The DeepSpeed config is passed as a JSON file (--deepspeed_config); the one in
capture.sh has train_batch_size != micro_batch * grad_accum * world_size, which
DeepSpeed rejects on every rank in deepspeed.initialize().
"""
import argparse
import logging
import sys

import deepspeed
import torch
import torch.nn as nn

logger = logging.getLogger("ds_train")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--local_rank", type=int, default=-1)
    p.add_argument("--steps", type=int, default=20)
    p = deepspeed.add_config_arguments(p)
    args = p.parse_args()
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
                        datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO)
    deepspeed.init_distributed(dist_backend="gloo")
    rank = torch.distributed.get_rank()
    logger.info("rank %d: torch %s, deepspeed %s, python %s", rank, torch.__version__,
                deepspeed.__version__, sys.version.split()[0])
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    loss_fn = nn.MSELoss()
    for step in range(1, args.steps + 1):
        x = torch.randn(engine.train_micro_batch_size_per_gpu(), 16)
        loss = loss_fn(engine(x), torch.zeros(x.shape[0], 1))
        engine.backward(loss)
        engine.step()
        if step % 5 == 0:
            logger.info("step %d | rank %d | loss %.4f", step, rank, loss.item())


if __name__ == "__main__":
    main()
