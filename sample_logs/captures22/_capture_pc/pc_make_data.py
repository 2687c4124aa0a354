"""pc_make_data.py DIR WORLD ROWS [BAD]: write DIR/shard-<r>.jsonl (one {"x":[16 floats],"y":int} per line);
BAD = "r:line" cuts that line of rank r's shard in half (an interrupted export)."""
import json, os, random, sys
d, world, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bad = sys.argv[4] if len(sys.argv) > 4 else None
os.makedirs(d, exist_ok=True)
rng = random.Random(7)
for r in range(world):
    with open(os.path.join(d, f"shard-{r:05d}.jsonl"), "w") as f:
        for i in range(rows):
            x = [round(rng.gauss(0, 1), 5) for _ in range(16)]
            line = json.dumps({"id": r * rows + i, "x": x, "y": int(sum(x[:4]) > 0)})
            if bad and bad == f"{r}:{i}":
                line = line[: len(line) // 2]
            f.write(line + "\n")
