"""uc_make_parquet.py OUTDIR: the upstream feature export, one parquet part per rank (f0..f15 float32, label int64).
Part 2 was re-exported from the CSV dump of a labelling tool, where the label column came back as text."""
import os, sys
import numpy as np, pandas as pd

out = sys.argv[1]; os.makedirs(out, exist_ok=True)
for part in range(3):
    rng = np.random.default_rng(100 + part)
    X = rng.standard_normal((1200, 16)).astype("float32")
    y = (np.abs(X[:, :4].sum(1) * 10).astype("int64")) % 4
    df = pd.DataFrame({f"f{i}": X[:, i] for i in range(16)})
    df["label"] = y
    if part == 2:
        df["label"] = df["label"].map(lambda v: f"{v}")  # CSV round trip of the labelling tool
    df.to_parquet(os.path.join(out, f"part-{part:05d}.parquet"), index=False)
    print(f"part-{part:05d}.parquet", len(df), dict(df.dtypes.astype(str).value_counts()))
