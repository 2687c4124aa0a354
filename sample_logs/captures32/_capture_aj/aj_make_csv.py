"""aj_make_csv.py OUTDIR NRANKS ROWS [--outlier RANK:ROW:VALUE] [--bad RANK:ROW:TEXT]: per-rank CSV shards
(32 float features + an integer label in 0..9) shard-<rank>.csv; optionally one outlier feature value or one
unparsable field planted in one rank's shard."""
import os, random, sys
outdir, n, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
plant = {}
for i, arg in enumerate(sys.argv):
    if arg in ("--outlier", "--bad", "--label"):
        r, row, v = sys.argv[i + 1].split(":", 2); plant[(int(r), int(row))] = (arg, v)
os.makedirs(outdir, exist_ok=True)
for r in range(n):
    rnd = random.Random(100 + r)
    with open(os.path.join(outdir, f"shard-{r}.csv"), "w") as f:
        f.write(",".join([f"f{j}" for j in range(32)] + ["label"]) + "\n")
        for k in range(rows):
            xs = [f"{rnd.gauss(0, 1):.5f}" for _ in range(32)]
            y = str(min(9, max(0, int(sum(float(v) for v in xs[:4]) * 2) + 5)))
            if (r, k) in plant:
                kind, v = plant[(r, k)]
                if kind == "--outlier": xs[7] = v
                elif kind == "--bad": xs[11] = v
                else: y = v
            f.write(",".join(xs + [y]) + "\n")
