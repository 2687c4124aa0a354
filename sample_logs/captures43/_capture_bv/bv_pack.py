"""Pack the .npz shards into the binary record format read by bv_pl.py --packed: shard_XX.bin (float32 records of
16 features + label) and shard_XX.idx (int64 byte offset of each record)."""
import argparse, glob, os
import numpy as np
p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--bad-offset", default="")   # "shard:record": that shard's index entry written from an uninitialised slot
a = p.parse_args()
for f in sorted(glob.glob(os.path.join(a.data, "shard_*.npz"))):
    d = np.load(f); s = int(f[-6:-4])
    rec = np.concatenate([d["x"].astype(np.float32), d["y"][:, None].astype(np.float32)], 1)
    rec.tofile(f[:-4] + ".bin")
    off = np.arange(len(rec), dtype=np.int64) * 17 * 4
    if a.bad_offset and s == int(a.bad_offset.split(":")[0]):
        off[int(a.bad_offset.split(":")[1])] = 0x7f3a5c2e1000
    off.tofile(f[:-4] + ".idx")
    print(f"packed {f}: {len(rec)} records")
