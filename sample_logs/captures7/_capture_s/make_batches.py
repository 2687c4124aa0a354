"""make_batches.py DIR --ranks R --steps S [--inf RANK:STEP]: DIR/rank{r}/batch-{step:04d}.pt with x (8x16
float32) and y (8 labels). --inf: one feature of one sample of that batch is 3e38*10 (float32 overflow -> inf),
as an unnormalised raw value would be."""
import argparse, os
import torch
p = argparse.ArgumentParser()
p.add_argument("dir"); p.add_argument("--ranks", type=int, default=3); p.add_argument("--steps", type=int, default=16)
p.add_argument("--inf", default=None)
a = p.parse_args()
bad = tuple(int(v) for v in a.inf.split(":")) if a.inf else None
g = torch.Generator().manual_seed(0)
for r in range(a.ranks):
    os.makedirs(os.path.join(a.dir, f"rank{r}"), exist_ok=True)
    for s in range(1, a.steps + 1):
        x = torch.randn(8, 16, generator=g); y = torch.randint(0, 4, (8,), generator=g)
        if bad == (r, s):
            x[3, 5] = float("inf")
        torch.save({"x": x, "y": y}, os.path.join(a.dir, f"rank{r}", f"batch-{s:04d}.pt"))
