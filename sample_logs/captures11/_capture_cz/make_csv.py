"""make_csv.py WORLD ROWS BAD_RANK BAD_ROW: data/part-{R}.csv with f0..f15,label; row BAD_ROW (1-based data
row) of BAD_RANK's shard joins f6 and f7 with ';' (a locale export) instead of ','."""
import os, random, sys
world, rows, bad_rank, bad_row = map(int, sys.argv[1:5])
os.makedirs("data", exist_ok=True)
for r in range(world):
    rnd = random.Random(r)
    with open(f"data/part-{r}.csv", "w") as f:
        f.write(",".join([f"f{k}" for k in range(16)] + ["label"]) + "\n")
        for i in range(1, rows + 1):
            v = [f"{rnd.gauss(0, 1):.4f}" for _ in range(16)]
            lab = str(rnd.randrange(4))
            if r == bad_rank and i == bad_row:
                f.write(",".join(v[:6] + [v[6] + ";" + v[7]] + v[8:] + [lab]) + "\n")
            else:
                f.write(",".join(v + [lab]) + "\n")
