"""uc_train.py: small DDP (gloo, CPU) trainer for the round-S uc captures. Rank / world come from --rank/--world or
RANK/WORLD_SIZE (env://). Data: synthetic rows, parquet shards (--parquet-dir), or .npy shards from a local cache with a
fall-back fetch from a feature-store URL (--shard-cache/--featstore). Logging layout chosen by flags (stdout, a
logging SocketHandler to a collector). main(argv) can also be called in-process by a launcher."""
import argparse, datetime, logging, logging.handlers, os, shutil, sys, tempfile, time


def build_parser():
    p = argparse.ArgumentParser(prog="uc_train")
    p.add_argument("--rank", type=int, default=None); p.add_argument("--world", type=int, default=None)
    p.add_argument("--rows", type=int, default=1600); p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--bs", type=int, default=32); p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--sleep", type=float, default=0.02); p.add_argument("--pg-timeout", type=float, default=60)
    p.add_argument("--log-every", type=int, default=10)
    p.add_argument("--fmt", default="%(asctime)s %(levelname)s rank={rank} %(name)s: %(message)s",
                   help="logging format; {rank} and {world} are filled in")
    p.add_argument("--socket-log", default="", help="HOST:PORT of a logging SocketHandler collector (no stdout)")
    p.add_argument("--multilabel", action="store_true", help="4 independent labels, sigmoid head + BCE")
    p.add_argument("--train-acc", action="store_true", help="rank 0 logs a training accuracy on log steps")
    p.add_argument("--ckpt-every", type=int, default=0, help="rank 0 writes a checkpoint every N steps")
    p.add_argument("--ckpt-dir", default="ckpt")
    p.add_argument("--parquet-dir", default="", help="read DIR/part-<R>.parquet (f0..f15, label)")
    p.add_argument("--shard-cache", default="", help="local cache dir of shard-<R>.npy files")
    p.add_argument("--featstore", default="", help="base URL to fetch a shard missing from the cache")
    p.add_argument("--ready-timeout", type=float, default=30, help="monitored_barrier timeout after data staging")
    p.add_argument("--samples", default="", help="jsonl with a 'text' field; a few are logged at start")
    p.add_argument("--outdir", default="", help="per-rank output dir; asks before overwriting an existing one")
    p.add_argument("--final-eval", action="store_true")
    p.add_argument("--warn", action="store_true", help="emit a few library-style warnings")
    return p


class Args: pass


a = Args()
RANK = WORLD = 0
log = logging.getLogger("uc.train")


class RankFilter(logging.Filter):
    def filter(self, record):
        record.rank = RANK; record.world = WORLD
        return True


def setup_logging():
    root = logging.getLogger(); root.setLevel(logging.INFO)
    if a.socket_log:
        host, port = a.socket_log.rsplit(":", 1)
        h = logging.handlers.SocketHandler(host, int(port))
    else:
        h = logging.StreamHandler(sys.stdout)
        h.setFormatter(logging.Formatter(a.fmt.replace("{rank}", str(RANK)).replace("{world}", str(WORLD))))
    h.addFilter(RankFilter())
    root.addHandler(h); logging.captureWarnings(True)
    return h


def main(argv=None):
    global a, RANK, WORLD
    a, _ = build_parser().parse_known_args(argv)
    RANK = a.rank if a.rank is not None else int(os.environ.get("RANK", 0))
    WORLD = a.world if a.world is not None else int(os.environ.get("WORLD_SIZE", 1))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    import torch, torch.distributed as dist, torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader
    h = setup_logging()
    try:
        _run(torch, dist, nn, DDP, DataLoader)
    except BaseException:
        log.exception("rank %d: training failed", RANK)
        raise
    finally:
        h.flush()


def atomic_save(torch, obj, path):
    """write to a temp file first, then rename it into place (readers never see a half-written checkpoint)"""
    fd, tmp = tempfile.mkstemp(prefix=".ckpt-", suffix=".tmp")
    with os.fdopen(fd, "wb") as fh:
        torch.save(obj, fh)
    os.rename(tmp, path)


def load_rows(torch):
    """(X, Y) for this rank"""
    if a.parquet_dir:
        import pandas as pd
        path = os.path.join(a.parquet_dir, f"part-{RANK:05d}.parquet")
        df = pd.read_parquet(path)
        log.info("data: %s (%d rows, %d columns)", path, len(df), df.shape[1])
        X = torch.as_tensor(df[[f"f{i}" for i in range(16)]].to_numpy(), dtype=torch.float32)
        Y = torch.as_tensor(df["label"].to_numpy())
        return X, Y
    if a.shard_cache:
        import numpy as np
        path = os.path.join(a.shard_cache, f"shard-{RANK}.npy")
        if not os.path.exists(path):
            import urllib.request
            url = f"{a.featstore}/shards/{RANK}.npy"
            log.warning("shard %d not in local cache %s, fetching %s", RANK, a.shard_cache, url)
            with urllib.request.urlopen(url) as r:  # the feature store's client sets no timeout
                data = r.read()
            with open(path, "wb") as fh:
                fh.write(data)
            log.info("fetched %d bytes into %s", len(data), path)
        arr = np.load(path)
        log.info("data: %s (%d rows)", path, len(arr))
        t = torch.from_numpy(arr).float()
        return t[:, :16].contiguous(), t[:, 16].long()
    g = torch.Generator().manual_seed(1000 + RANK)
    X = torch.randn(a.rows, 16, generator=g)
    if a.multilabel:
        Y = (X[:, :4] + 0.3 * X[:, 4:8] > 0).float()
    else:
        Y = (X[:, :4].sum(1) * 10).long().abs() % 4
    return X, Y


def ask_overwrite(path):
    if not os.path.isdir(path) or not os.listdir(path):
        return True
    sys.stdout.write(f"rank {RANK}: output dir {path} exists ({len(os.listdir(path))} files). Overwrite? [y/N] ")
    sys.stdout.flush()
    ans = sys.stdin.readline().strip().lower()
    return ans in ("y", "yes")


def _run(torch, dist, nn, DDP, DataLoader):
    log.info("start pid=%d host=%s rank=%d world=%d torch=%s", os.getpid(), os.uname().nodename, RANK, WORLD,
             torch.__version__)
    if a.outdir:
        od = a.outdir.format(rank=RANK)
        if not ask_overwrite(od):
            log.error("not overwriting %s, exiting", od); sys.exit(3)
        shutil.rmtree(od, ignore_errors=True); os.makedirs(od)
        log.info("output dir %s ready", od)
    dist.init_process_group("gloo", rank=RANK, world_size=WORLD, timeout=datetime.timedelta(seconds=a.pg_timeout))
    log.info("process group up (gloo, world %d, timeout %.0fs)", dist.get_world_size(), a.pg_timeout)

    if a.samples:
        import json
        with open(a.samples, encoding="utf-8") as fh:
            recs = [json.loads(l) for l in fh]
        mine = recs[RANK::WORLD][:2]
        for r in mine:
            log.info("sample %s (%d chars): %s", r["id"], r["text"])

    X, Y = load_rows(torch)
    if a.shard_cache:
        log.info("waiting for all ranks to finish data staging (monitored barrier, %.0fs)", a.ready_timeout)
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=a.ready_timeout))
        log.info("all ranks staged")
    dl = DataLoader(list(zip(X, Y)), batch_size=a.bs, shuffle=True, generator=torch.Generator().manual_seed(RANK))
    log.info("loader: %d batches per epoch (bs %d)", len(dl), a.bs)

    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 4))
    model = DDP(net)
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
    if a.warn:
        import warnings
        warnings.warn("torch.cpu.amp.autocast(args...) is deprecated. Please use torch.amp.autocast('cpu', args...) "
                      "instead.", FutureWarning)
    if a.ckpt_every and RANK == 0:
        os.makedirs(a.ckpt_dir, exist_ok=True)
    step = 0; t0 = time.time(); loss = torch.tensor(0.)
    for ep in range(a.epochs):
        for b, (xb, yb) in enumerate(dl):
            out = model(xb)
            if a.multilabel:
                probs = torch.sigmoid(out)
                loss = nn.functional.binary_cross_entropy(probs, yb)
            else:
                loss = nn.functional.cross_entropy(out, yb)
            logging_step = (step + 1) % a.log_every == 0
            if a.train_acc and logging_step and RANK == 0:
                acc = (probs.round_() == yb).float().mean().item() if a.multilabel else \
                    (out.argmax(1) == yb).float().mean().item()
                log.info("step %d train acc (rank 0 batch) %.3f", step + 1, acc)
            opt.zero_grad(); loss.backward(); opt.step(); step += 1
            if logging_step:
                lt = loss.detach().clone(); dist.all_reduce(lt); lt /= WORLD
                log.info("epoch %d step %d batch %d/%d loss %.4f global %.4f", ep, step, b + 1, len(dl),
                         loss.item(), lt.item())
            if a.ckpt_every and step % a.ckpt_every == 0 and RANK == 0:
                path = os.path.join(a.ckpt_dir, f"step{step:06d}.pt")
                atomic_save(torch, {"model": model.module.state_dict(), "optim": opt.state_dict(), "step": step},
                            path)
                log.info("checkpoint step %d written to %s", step, path)
            time.sleep(a.sleep)
        log.info("epoch %d finished (%d steps, %.1fs)", ep, step, time.time() - t0)
    if a.final_eval:
        with torch.no_grad():
            correct = torch.zeros(2)
            for xb, yb in dl:
                pred = model(xb)
                hit = ((pred > 0).float() == yb).all(1) if a.multilabel else pred.argmax(1) == yb
                correct += torch.tensor([hit.sum().item(), len(yb)])
            dist.all_reduce(correct)
        log.info("final eval: accuracy %.4f over %d samples", (correct[0] / correct[1]).item(), int(correct[1]))
    if a.outdir:
        torch.save(model.module.state_dict(), os.path.join(a.outdir.format(rank=RANK), "model.pt"))
    log.info("done: %d steps in %.1fs, last loss %.4f", step, time.time() - t0, loss.item())
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
