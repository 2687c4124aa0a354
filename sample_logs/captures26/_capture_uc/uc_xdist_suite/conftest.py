"""Distributed test-suite fixtures: every pytest-xdist worker is one gloo rank (gw0 -> rank 0, ...). Run with
`pytest -n <world> --dist each` so that every worker runs every test in the same order."""
import datetime
import logging
import os

import pytest
import torch.distributed as dist

log = logging.getLogger("ddp_suite")


def pytest_configure(config):
    # per-worker log file (recipe from the pytest-xdist docs)
    worker_id = os.environ.get("PYTEST_XDIST_WORKER")
    if worker_id is not None:
        os.makedirs("logs", exist_ok=True)
        logging.basicConfig(format=config.getini("log_file_format"), datefmt=config.getini("log_file_date_format"),
                            filename=f"logs/tests_{worker_id}.log", level=config.getini("log_file_level"))


@pytest.fixture(scope="session")
def pg():
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    rank = int(worker[2:])
    world = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29833")
    timeout = float(os.environ.get("DDP_SUITE_TIMEOUT", "30"))
    log.info("worker %s -> rank %d/%d, joining gloo group (timeout %.0fs)", worker, rank, world, timeout)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=timeout))
    log.info("rank %d joined", rank)
    yield rank, world
    log.info("rank %d: destroying process group", rank)
    dist.destroy_process_group()


@pytest.fixture(autouse=True)
def _log_test(request):
    log.info("--- %s", request.node.nodeid)
    yield
    log.info("--- %s done", request.node.nodeid)
