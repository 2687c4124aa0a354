"""FSDP (FullyShardedDataParallel, CPU, gloo) trainer: conf/train.json plus an optional per-rank debug override
conf/override.rank<LOCAL_RANK>.json (the site's way to try settings on one rank); prints to stdout."""
import os, sys, json, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy

R = int(os.environ["RANK"]); LR = int(os.environ["LOCAL_RANK"])
def out(msg): print(f"{time.strftime('%H:%M:%S')} [fsdp r{R}] {msg}", flush=True)

cfg = json.load(open("conf/train.json"))
ov = f"conf/override.rank{LR}.json"
if os.path.exists(ov):
    cfg.update(json.load(open(ov)))
    out(f"applied {ov}")
dist.init_process_group("gloo", timeout=timedelta(seconds=cfg["pg_timeout_s"]))
out(f"config: sharding_strategy={cfg['sharding_strategy']} lr={cfg['lr']} steps={cfg['steps']} "
    f"pg_timeout={cfg['pg_timeout_s']}s")
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 10))
model = FSDP(m, sharding_strategy=ShardingStrategy[cfg["sharding_strategy"]], device_id=torch.device("cpu"))
out(f"wrapped: {sum(p.numel() for p in model.parameters())} local params")
opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
g = torch.Generator().manual_seed(R)
for step in range(1, cfg["steps"] + 1):
    x = torch.randn(32, 64, generator=g); y = torch.randint(0, 10, (32,), generator=g)
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0 or step == 1:
        out(f"step {step} loss {loss.item():.4f}")
out("done")
dist.destroy_process_group()
