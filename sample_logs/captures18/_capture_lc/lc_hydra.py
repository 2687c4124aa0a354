#!/usr/bin/env python3
"""lc_hydra.py: Hydra app (conf/config.yaml) run by torchrun; each rank gets its own Hydra run dir
(hydra.run.dir=outputs/run/rank${oc.env:RANK}) with Hydra's job log file lc_hydra.log."""
import datetime, logging, os, time

import hydra
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from omegaconf import DictConfig, OmegaConf
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger(__name__)


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg: DictConfig):
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    log.info("rank %d/%d pid %d, run dir %s", rank, world, os.getpid(), os.getcwd())
    log.info("config:\n%s", OmegaConf.to_yaml(cfg))
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=cfg.trainer.pg_timeout))
    log.info("process group ready (gloo, world %d)", world)
    g = np.random.default_rng(cfg.data.seed + rank)
    x = torch.from_numpy(g.standard_normal((cfg.data.records, cfg.data.features)).astype(np.float32))
    w = torch.linspace(-1, 1, cfg.data.features * cfg.data.label_classes).reshape(cfg.data.features, -1)
    y = (x @ w).argmax(1)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(cfg.data.features, cfg.model.hidden), nn.ReLU(),
                              nn.Linear(cfg.model.hidden, cfg.model.num_classes)))
    opt = torch.optim.SGD(model.parameters(), lr=cfg.optim.lr, momentum=cfg.optim.momentum)
    log.info("model ready: %d parameters, head %d classes", sum(p.numel() for p in model.parameters()),
             cfg.model.num_classes)
    bs = cfg.data.batch_size
    for step in range(1, cfg.trainer.steps + 1):
        i = (step - 1) * bs % (len(y) - bs)
        loss = F.cross_entropy(model(x[i:i + bs]), y[i:i + bs])
        opt.zero_grad(); loss.backward(); opt.step()
        log.info("step %d loss %.4f", step, loss.item())
        time.sleep(cfg.trainer.sleep)
    dist.barrier()
    log.info("done: %d steps", cfg.trainer.steps)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
