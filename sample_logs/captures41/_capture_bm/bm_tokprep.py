"""write per-rank JSONL files of 32-token windows (input_ids, label)."""
import argparse, json, os, random
p = argparse.ArgumentParser(); p.add_argument("--out", required=True); p.add_argument("--shards", type=int, default=3)
p.add_argument("--rows", type=int, default=800); p.add_argument("--window", type=int, default=32)
p.add_argument("--short-row", default="")  # shard:row -> that window is one token short (tokenizer edge case)
a = p.parse_args(); os.makedirs(a.out, exist_ok=True); rnd = random.Random(0)
bad = tuple(map(int, a.short_row.split(":"))) if a.short_row else (-1, -1)
for s in range(a.shards):
    with open(os.path.join(a.out, f"windows_{s:02d}.jsonl"), "w") as f:
        for i in range(a.rows):
            lab = rnd.randrange(4); n = a.window - 1 if (s, i) == bad else a.window
            ids = [rnd.randrange(lab * 128, lab * 128 + 160) % 512 for _ in range(n)]
            f.write(json.dumps({"id": f"doc{s}-{i:05d}", "input_ids": ids, "label": lab}) + "\n")
print(f"wrote {a.shards} files of {a.rows} windows to {a.out}")
