"""uc_make_samples.py OUT: a few text samples (jsonl: id, text) that the trainer logs at start."""
import json, sys
texts = ["the quick brown fox", "jumps over the lazy dog", "pack my box with five dozen liquor jugs",
         "how vexingly quick daft zebras jump", "sphinx of black quartz judge my vow", "the five boxing wizards jump"]
with open(sys.argv[1], "w") as fh:
    for i, t in enumerate(texts):
        fh.write(json.dumps({"id": f"s{i:03d}", "text": t}) + "\n")
