"""yc_make_csv.py OUTDIR NRANKS ROWS [--semicolon-rank R] [--huge-rank R --huge-row I]: write per-rank CSV shards
part-<R>.csv (16 features + label, header row)."""
import argparse, os, random
p = argparse.ArgumentParser()
p.add_argument("outdir"); p.add_argument("n", type=int); p.add_argument("rows", type=int)
p.add_argument("--semicolon-rank", type=int, default=-1)
p.add_argument("--huge-rank", type=int, default=-1); p.add_argument("--huge-row", type=int, default=-1)
a = p.parse_args()
os.makedirs(a.outdir, exist_ok=True)
for r in range(a.n):
    rnd = random.Random(r)
    sep = ";" if r == a.semicolon_rank else ","
    with open(os.path.join(a.outdir, f"part-{r}.csv"), "w") as f:
        f.write(sep.join([f"f{i}" for i in range(16)] + ["label"]) + "\n")
        for i in range(a.rows):
            x = [rnd.gauss(0, 1) for _ in range(16)]
            if r == a.huge_rank and i >= a.huge_row:
                x = [v * 3.0e38 for v in x]
            y = int(abs(sum(x[:4]) * 10)) % 4 if r != a.huge_rank or i < a.huge_row else 1
            f.write(sep.join(f"{v:.6g}" for v in x) + f"{sep}{y}\n")
