"""FSDP2 (`torch.distributed.fsdp.fully_shard`) training of a small residual MLP stack on CPU / gloo over a 1-D
DeviceMesh; env:// rendezvous (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT). Model size from configs/model.json,
MODEL_* environment variables override it (site convention)."""
import json, os, sys, time
from datetime import timedelta
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])


def say(msg):
    print(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} rank={rank} {msg}", flush=True)


class Block(nn.Module):
    def __init__(self, d, f):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.up = nn.Linear(d, f)
        self.down = nn.Linear(f, d)

    def forward(self, x):
        return x + self.down(torch.relu(self.up(self.norm(x))))


def main():
    cfg = json.load(open("configs/model.json"))
    for k in list(cfg):
        if f"MODEL_{k.upper()}" in os.environ:
            cfg[k] = int(os.environ[f"MODEL_{k.upper()}"])
    dist.init_process_group("gloo", timeout=timedelta(seconds=float(os.environ.get("PG_TIMEOUT", "45"))))
    mesh = init_device_mesh("cpu", (world,), mesh_dim_names=("dp",))
    say(f"mesh {mesh} cfg {json.dumps(cfg, sort_keys=True)}")
    torch.manual_seed(0)
    d, f = cfg["d_model"], cfg["d_ff"]
    model = nn.Sequential(nn.Linear(32, d), *[Block(d, f) for _ in range(cfg["n_layers"])], nn.Linear(d, 1))
    for m in model:
        if isinstance(m, Block):
            fully_shard(m, mesh=mesh)
    fully_shard(model, mesh=mesh)
    n_local = sum(p.to_local().numel() for p in model.parameters())
    say(f"fully_shard done: {len(list(model.parameters()))} DTensor params, {n_local} local elements")
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    g = torch.Generator().manual_seed(1000 + rank)
    t0 = time.time()
    for step in range(int(os.environ.get("STEPS", "60"))):
        x = torch.randn(32, 32, generator=g)
        y = x[:, :4].sum(1, keepdim=True)
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 10 == 0:
            say(f"step {step} loss {loss.item():.4f} elapsed {time.time() - t0:.1f}s")
        time.sleep(0.1)
    say("training finished")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
