"""Tiny DeepSpeed job (CPU, gloo) for the fault captures."""
import argparse

import deepspeed
import torch
import torch.nn as nn


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--local_rank", type=int, default=-1)
    p = deepspeed.add_config_arguments(p)
    args = p.parse_args()
    deepspeed.init_distributed(dist_backend="gloo")
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    engine, opt, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    for step in range(1, 21):
        x, y = torch.randn(4, 16), torch.randn(4, 1)
        loss = nn.functional.mse_loss(engine(x), y)
        engine.backward(loss)
        engine.step()
        if step % 5 == 0 and engine.global_rank == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
    print("training finished", flush=True)


if __name__ == "__main__":
    main()
