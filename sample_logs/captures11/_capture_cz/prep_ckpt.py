"""prep_ckpt.py WORLD STEP: write per-rank checkpoints ckpt/rank{R}.pt of cz_train.py's model at STEP."""
import os, sys
import torch, torch.nn as nn
world, step = int(sys.argv[1]), int(sys.argv[2])
os.makedirs("ckpt", exist_ok=True)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
for r in range(world):
    torch.save({"model": model.state_dict(), "step": step}, f"ckpt/rank{r}.pt")
