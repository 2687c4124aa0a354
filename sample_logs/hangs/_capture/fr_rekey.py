"""Copy a Flight Recorder dump dir, re-keying each dump's pg_config from '' to the pg name its entries use.

torch 2.13's gloo dumps say pg_config {'': {'name': '', ...}} while every entry says
process_group ('0', 'default_pg'), and fr_trace then dies with KeyError: ('0', <rank>).
This copy (only pg_config changed) lets fr_trace run; the dumps in the scenario dirs are untouched.
    python fr_rekey.py SRC_DIR DST_DIR
"""
import os
import pickle
import sys

src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
for name in sorted(os.listdir(src)):
    with open(os.path.join(src, name), "rb") as f:
        d = pickle.load(f)
    names = {e["process_group"][0] for e in d.get("entries", [])} or {"0"}
    cfg = d["pg_config"]
    if "" in cfg and len(names) == 1:
        pg = names.pop()
        cfg[pg] = dict(cfg.pop(""), name=pg, desc="default_pg")
    with open(os.path.join(dst, name), "wb") as f:
        pickle.dump(d, f)
