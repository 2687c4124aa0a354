"""DDP training of a small classifier over frozen item features; rows are fetched from the feature table by the
native `gather_rows` helper (libfusedgather.so, ctypes). Each rank reads its own index shard
data/items-rank<R>.npy; the last batch of a shard is padded to the full batch size with the table's padding id."""
import ctypes, logging, os, sys, time
from datetime import timedelta
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format=f"%(levelname)s rank{rank} %(name)s: %(message)s")
log = logging.getLogger("itemclf")
BS, DIM, PAD_ID = 128, 64, None

lib = ctypes.CDLL(os.path.abspath("libfusedgather.so"))
lib.gather_rows.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
                            ctypes.c_void_p]


def gather(table, idx):
    out = np.empty((len(idx), table.shape[1]), dtype=np.float32)
    lib.gather_rows(table.ctypes.data, table.shape[0], table.shape[1], idx.ctypes.data, len(idx), out.ctypes.data)
    return torch.from_numpy(out)


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    table = np.load("data/item_features.npy")
    pad_id = table.shape[0]  # padding row id (one past the last item)
    items = np.load(f"data/items-rank{rank}.npy")
    labels = (items % 7).astype(np.int64)
    log.info("feature table %s, shard %d items (%d batches of %d)", table.shape, len(items),
             -(-len(items) // BS), BS)
    model = DDP(nn.Sequential(nn.Linear(DIM, 128), nn.ReLU(), nn.Linear(128, 7)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    t0 = time.time()
    for epoch in range(2):
        for b, i in enumerate(range(0, len(items), BS)):
            idx = items[i:i + BS].astype(np.int64)
            y = torch.from_numpy(labels[i:i + BS])
            if len(idx) < BS:
                log.info("epoch %d batch %d: short batch of %d, padding to %d with id %d", epoch, b, len(idx), BS,
                         pad_id)
                idx = np.concatenate([idx, np.full(BS - len(idx), pad_id, dtype=np.int64)])
                y = torch.cat([y, torch.full((BS - len(y),), -100)])
            x = gather(table, idx)
            loss = nn.functional.cross_entropy(model(x), y, ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if b % 8 == 0:
                log.info("epoch %d batch %d loss %.4f (%.1fs)", epoch, b, loss.item(), time.time() - t0)
            time.sleep(0.05)
    log.info("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
