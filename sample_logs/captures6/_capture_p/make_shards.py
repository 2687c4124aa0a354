"""Write per-rank CSV batches: OUT/rank{R}/batch-{step:04d}.csv, 8 lines of 16 floats + label.
--bad-utf8 R:S   put a latin-1 byte (0xe9, 'é') into rank R's batch S (a non-UTF-8 export)
--hold R:S       write rank R's batch S to OUT.staging/ instead (to be staged later)
--drop-col R:S   rank R's batch S has 15 feature columns instead of 16 (a changed export schema)"""
import argparse, os, random
p = argparse.ArgumentParser()
p.add_argument("out"); p.add_argument("--ranks", type=int, default=3); p.add_argument("--steps", type=int, default=12)
p.add_argument("--bad-utf8", default=None); p.add_argument("--drop-col", default=None); p.add_argument("--hold", default=None)
a = p.parse_args()
rnd = random.Random(7)
bad = tuple(map(int, a.bad_utf8.split(":"))) if a.bad_utf8 else None
drop = tuple(map(int, a.drop_col.split(":"))) if a.drop_col else None
hold = tuple(map(int, a.hold.split(":"))) if a.hold else None
for r in range(a.ranks):
    for s in range(1, a.steps + 1):
        lines = [",".join(f"{rnd.gauss(0, 1):.4f}" for _ in range(16)) + f",{rnd.randrange(4)}" for _ in range(8)]
        if drop == (r, s):
            lines = [",".join(l.split(",")[1:]) for l in lines]
        data = ("\n".join(lines) + "\n").encode()
        if bad == (r, s):
            v = lines[5].split(","); v[3] = "caf\xe9"
            lines[5] = ",".join(v)
            data = ("\n".join(lines) + "\n").encode("latin-1")
        d = os.path.join(a.out + (".staging" if hold == (r, s) else ""), f"rank{r}")
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, f"batch-{s:04d}.csv"), "wb").write(data)
