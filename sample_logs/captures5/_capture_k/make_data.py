"""Write per-sample .pt files (x: 8x16, y: 8) for k_train.py --data-dir; --truncate I cuts sample I's file in half."""
import argparse, os, torch
p = argparse.ArgumentParser(); p.add_argument("out"); p.add_argument("--n", type=int, default=64)
p.add_argument("--truncate", type=int, default=None); a = p.parse_args()
os.makedirs(a.out, exist_ok=True); g = torch.Generator().manual_seed(7)
for i in range(a.n):
    f = os.path.join(a.out, f"sample-{i:06d}.pt")
    torch.save({"x": torch.randn(8, 16, generator=g), "y": torch.randint(0, 4, (8,), generator=g)}, f)
    if i == a.truncate:
        b = open(f, "rb").read(); open(f, "wb").write(b[: len(b) // 2])
