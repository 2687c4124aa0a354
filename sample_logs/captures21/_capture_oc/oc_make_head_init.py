"""oc_make_head_init.py OUT: a warm-start file for the output head as the old exporter wrote it (numpy scalars in the
metadata, so torch.load's default weights_only=True refuses it)."""
import sys
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(7)
head = nn.Linear(64, 1)
torch.save({"head": head.state_dict(), "meta": {"date": "2026-11-28", "val_mse": np.float64(0.0412)}}, sys.argv[1])
