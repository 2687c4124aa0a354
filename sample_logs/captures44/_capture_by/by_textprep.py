"""Build the toy text-classification corpus (train/val JSONL, one record per line) and a word-level tokenizer
(tokenizers WordLevel, saved as tokenizer.json) over a vocabulary of --vocab words."""
import argparse, json, os, random
from tokenizers import Tokenizer, models, pre_tokenizers
p = argparse.ArgumentParser()
p.add_argument("--out", required=True)
p.add_argument("--vocab", type=int, default=500)
p.add_argument("--train", type=int, default=1200)
p.add_argument("--val", type=int, default=160)
p.add_argument("--label-key", default="label")
p.add_argument("--null-text", type=int, default=-1)  # a train record whose text field is null (export bug)
p.add_argument("--tokenizer-dir", default="tokenizer")
p.add_argument("--str-label", default="")  # "idx:name": a train record whose label was exported as the class name
p.add_argument("--val-no-label", action="store_true")  # the val export written by the inference exporter (no label field)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rnd = random.Random(0)
specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
words = [f"w{i:04d}" for i in range(a.vocab - len(specials))]
vocab = {t: i for i, t in enumerate(specials + words)}
tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
os.makedirs(a.tokenizer_dir, exist_ok=True)
tok.save(os.path.join(a.tokenizer_dir, "tokenizer.json"))
band = len(words) // 4
for split, n in (("train", a.train), ("val", a.val)):
    with open(os.path.join(a.out, f"{split}.jsonl"), "w") as f:
        for i in range(n):
            lab = rnd.randrange(4)
            ws = [words[(lab * band + rnd.randrange(band + band // 2)) % len(words)] for _ in range(rnd.randint(12, 24))]
            text = None if (split == "train" and i == a.null_text) else " ".join(ws)
            rec = {"id": f"{split}-{i:05d}", "text": text, a.label_key: lab}
            if split == "train" and a.str_label and i == int(a.str_label.split(":")[0]):
                rec[a.label_key] = a.str_label.split(":")[1]
            if split == "val" and a.val_no_label:
                del rec[a.label_key]
            f.write(json.dumps(rec) + "\n")
print(f"wrote {a.train}/{a.val} records, tokenizer with {len(vocab)} entries")
