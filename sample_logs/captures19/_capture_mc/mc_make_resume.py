#!/usr/bin/env python3
"""mc_make_resume.py DIR WORLD [--truncate R:NBYTES]: the previous job's resume state: DIR/model.pt and per-rank
DIR/rank-<r>.pt (AdamW state after 200 steps, RNG state, step, data cursor). --truncate: rank R's file is cut to its
first NBYTES bytes (as an interrupted copy leaves it)."""
import argparse, os
import torch, torch.nn.functional as F
from mc_resume_worker import net
p = argparse.ArgumentParser(); p.add_argument("dir"); p.add_argument("world", type=int); p.add_argument("--truncate")
a = p.parse_args()
os.makedirs(a.dir, exist_ok=True)
torch.manual_seed(0)
m = net(); opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
for _ in range(5):
    x = torch.randn(64, 48); loss = F.cross_entropy(m(x), torch.randint(0, 12, (64,)))
    opt.zero_grad(); loss.backward(); opt.step()
torch.save(m.state_dict(), f"{a.dir}/model.pt")
for r in range(a.world):
    p_ = f"{a.dir}/rank-{r}.pt"
    torch.save({"opt": opt.state_dict(), "rng": torch.get_rng_state(), "step": 200, "cursor": 200 * 64 * (r + 1)}, p_)
    if a.truncate and int(a.truncate.split(":")[0]) == r:
        data = open(p_, "rb").read()[: int(a.truncate.split(":")[1])]
        open(p_, "wb").write(data)
    print(p_, os.path.getsize(p_))
