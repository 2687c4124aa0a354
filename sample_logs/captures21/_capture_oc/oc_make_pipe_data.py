"""oc_make_pipe_data.py OUT ROWS [BADROW:LABEL ...]: features.npy (float32 [ROWS, 48]) and labels.npy (int64, 0..9),
optionally some labels overwritten."""
import os, sys
import numpy as np

out, rows = sys.argv[1], int(sys.argv[2])
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(3)
x = rng.normal(size=(rows, 48)).astype(np.float32)
y = (np.abs(x[:, :10]).argmax(1)).astype(np.int64)
for s in sys.argv[3:]:
    r, l = map(int, s.split(":"))
    y[r] = l
np.save(os.path.join(out, "features.npy"), x)
np.save(os.path.join(out, "labels.npy"), y)
