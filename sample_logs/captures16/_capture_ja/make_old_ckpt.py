#!/usr/bin/env python3
"""make_old_ckpt.py OUT: the resume checkpoint as the old training code wrote it: model + optimizer state plus a
`meta` entry holding the argparse.Namespace of the run and a numpy scalar for the best metric (pickled objects that
torch.load's default weights_only=True unpickler refuses)."""
import argparse, sys
import numpy as np, torch, torch.nn as nn
sys.path.insert(0, ".")
torch.manual_seed(0)
net = nn.Sequential()
fc1, fc2 = nn.Linear(16, 32), nn.Linear(32, 4)
model = {"fc1.weight": fc1.weight.data, "fc1.bias": fc1.bias.data, "fc2.weight": fc2.weight.data, "fc2.bias": fc2.bias.data}
opt = torch.optim.SGD(list(fc1.parameters()) + list(fc2.parameters()), lr=0.05, momentum=0.9)
run_args = argparse.Namespace(lr=0.05, batch=16, hidden=32, steps=200, data="synthetic")
torch.save({"step": 120, "model": model, "optim": opt.state_dict(),
            "meta": {"args": run_args, "best_acc": np.float64(0.8125), "torch": "1.13.1"}}, sys.argv[1])
