"""qc_ds_train.py: DeepSpeed engine on CPU (gloo) around a small MLP; config from ds_config.json."""
import argparse, json, os, torch, torch.nn as nn, deepspeed
p = argparse.ArgumentParser(); p.add_argument("--local_rank", type=int, default=0); p.add_argument("--steps", type=int, default=60)
a = p.parse_args()
deepspeed.init_distributed(dist_backend="gloo")
rank = torch.distributed.get_rank()
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))
engine, opt, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds_config.json")
g = torch.Generator().manual_seed(rank)
for s in range(a.steps):
    x = torch.randn(engine.train_micro_batch_size_per_gpu(), 16, generator=g); y = (x[:, 0] > 0).long()
    loss = nn.functional.cross_entropy(engine(x), y); engine.backward(loss); engine.step()
    if s % 10 == 0: print(f"rank {rank} step {s} loss {loss.item():.4f}", flush=True)
print(f"rank {rank} done", flush=True)
