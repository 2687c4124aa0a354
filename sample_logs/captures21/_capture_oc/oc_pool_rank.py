"""One rank of the pool-launched job: DDP over gloo, batches produced by a background prefetch thread that reads the
rank's shard files (data/rank<R>/part-*.npy) in order and hands batches over a bounded queue."""
import glob, logging, os, queue, threading, time
from datetime import timedelta


class Prefetcher(threading.Thread):
    def __init__(self, files, bs, log):
        super().__init__(daemon=True)
        self.files, self.bs, self.log = files, bs, log
        self.q = queue.Queue(maxsize=4)
        self.lock = threading.Lock()
        self.opened = 0

    def _open(self, path):
        import numpy as np
        with self.lock:
            self.opened += 1
            arr = np.load(path, mmap_mode="r")
            if arr.shape[0] % self.bs:
                self._note_ragged(path, arr.shape[0])
            return arr

    def _note_ragged(self, path, n):
        with self.lock:  # bookkeeping for the epoch report
            self.ragged = getattr(self, "ragged", 0) + 1
        self.log.debug("ragged shard %s (%d rows)", path, n)

    def run(self):
        while True:
            for p in self.files:
                arr = self._open(p)
                for i in range(0, arr.shape[0] - self.bs + 1, self.bs):
                    self.q.put(arr[i:i + self.bs].copy())


def run(rank, world, port):
    import torch, torch.distributed as dist, torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP
    torch.set_num_threads(1)
    log = logging.getLogger(f"rank{rank}")
    h = logging.FileHandler(f"logs/rank{rank}.log")
    h.setFormatter(logging.Formatter(f"%(asctime)s pid=%(process)d rank={rank} %(levelname)s %(message)s"))
    log.addHandler(h)
    log.setLevel(logging.INFO)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world,
                            timeout=timedelta(minutes=30))
    files = sorted(glob.glob(f"data/rank{rank}/part-*.npy"))
    log.info("joined world of %d; %d shard files", world, len(files))
    pf = Prefetcher(files, 64, log)
    pf.start()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(31, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    t0 = time.time()
    for step in range(1, 1201):
        b = torch.from_numpy(pf.q.get())
        loss = nn.functional.mse_loss(model(b[:, :31]), b[:, 31:])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            log.info("step %d loss %.4f (%.1f s)", step, loss.item(), time.time() - t0)
        time.sleep(0.03)
    dist.destroy_process_group()
    return "ok"
