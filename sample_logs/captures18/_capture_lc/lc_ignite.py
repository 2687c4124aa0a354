#!/usr/bin/env python3
"""lc_ignite.py: pytorch-ignite job, idist.Parallel(backend="gloo", nproc_per_node=2) spawning its own workers;
each rank reads data/part-<rank>.jsonl (one record per line: {"x": [...24 floats], "y": int}); ignite's
setup_logger (rank in the logger name via distributed_rank)."""
import json, logging, sys, time

import ignite.distributed as idist
import torch
import torch.nn as nn
from ignite.engine import Events, create_supervised_trainer
from ignite.utils import setup_logger
from torch.utils.data import DataLoader, Dataset


class JsonlRecords(Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.rows = [json.loads(line) for line in f]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        r = self.rows[i]
        return torch.tensor(r["x"], dtype=torch.float32), r["y"]


def training(local_rank, cfg):
    rank = idist.get_rank()
    log = setup_logger(name="lc.ignite", distributed_rank=rank, level=logging.INFO,
                       format=f"%(asctime)s %(name)s rank{rank} %(levelname)s: %(message)s")
    log.info("backend %s, world %d, pid %s", idist.backend(), idist.get_world_size(), __import__("os").getpid())
    ds = JsonlRecords(f"data/part-{rank}.jsonl")
    log.info("data/part-%d.jsonl: %d records", rank, len(ds))
    loader = DataLoader(ds, batch_size=cfg["batch"], shuffle=False)
    torch.manual_seed(0)
    model = idist.auto_model(nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 6)))
    opt = idist.auto_optim(torch.optim.SGD(model.parameters(), lr=0.05))
    trainer = create_supervised_trainer(model, opt, nn.CrossEntropyLoss())
    trainer.logger = setup_logger("ignite.engine.Engine", distributed_rank=rank, level=logging.INFO)

    @trainer.on(Events.ITERATION_COMPLETED(every=2))
    def log_loss(engine):
        log.info("epoch %d iteration %d loss %.4f", engine.state.epoch, engine.state.iteration, engine.state.output)
        time.sleep(cfg["sleep"])

    @trainer.on(Events.EPOCH_COMPLETED)
    def log_epoch(engine):
        log.info("epoch %d complete", engine.state.epoch)

    trainer.run(loader, max_epochs=cfg["epochs"])
    log.info("training done")


if __name__ == "__main__":
    with idist.Parallel(backend="gloo", nproc_per_node=2) as parallel:
        parallel.run(training, {"batch": 16, "epochs": 2, "sleep": 0.2})
