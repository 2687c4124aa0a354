"""xc_make_data.py OUTDIR NRANKS ROWS [--bad-row RANK:LINE:TEXT] [--big RANK:LINE:VALUE]: write per-rank CSV
shards (header + ROWS rows of 16 features and an integer label) the way the site's export step does; optional
planted faults: a row replaced by TEXT (a cut row), or one feature of a row set to VALUE."""
import os, sys, random
out, n, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bad = {}; big = {}
args = sys.argv[4:]
for i in range(0, len(args), 2):
    r, line, val = args[i + 1].split(":", 2)
    (bad if args[i] == "--bad-row" else big)[(int(r), int(line))] = val
os.makedirs(out, exist_ok=True)
for r in range(n):
    rnd = random.Random(1000 + r)
    with open(os.path.join(out, f"shard-{r}.csv"), "w") as f:
        f.write(",".join([f"f{i}" for i in range(16)] + ["label"]) + "\n")
        for k in range(rows):
            line = k + 2
            if (r, line) in bad:
                f.write(bad[(r, line)] + "\n"); continue
            x = [rnd.gauss(0, 1) for _ in range(16)]
            y = int(abs(sum(x[:4]) * 10)) % 4
            vals = [f"{v:.6f}" for v in x]
            if (r, line) in big:
                vals[3] = big[(r, line)]
            f.write(",".join(vals + [str(y)]) + "\n")
