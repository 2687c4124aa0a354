"""vc_train.py: small data-parallel (gloo, CPU) trainer for the round-T vc captures (adapted from round S's
uc_train.py). Rank / world come from --rank/--world or RANK/WORLD_SIZE (env://, or --init-method). Data: synthetic
rows, or .npy shards (--shard-dir DIR/shard-<R>.npy: 16 features + label column). Gradients are synchronised by DDP,
or by hand (--grad-sync manual: one flat all_reduce per bucket, bucket size from --bucket-kb). Logging layout chosen
by flags (stdout format, logging.config.fileConfig INI, a pyzmq PUBHandler, an HTTPHandler, or a handler handed in
by an in-process launcher: main(argv, handler))."""
import argparse, datetime, logging, logging.handlers, os, sys, time


def build_parser():
    p = argparse.ArgumentParser(prog="vc_train")
    p.add_argument("--rank", type=int, default=None); p.add_argument("--world", type=int, default=None)
    p.add_argument("--backend", default="gloo"); p.add_argument("--init-method", default="env://")
    p.add_argument("--rows", type=int, default=1600); p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--bs", type=int, default=32); p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--sleep", type=float, default=0.02); p.add_argument("--pg-timeout", type=float, default=60)
    p.add_argument("--log-every", type=int, default=10)
    p.add_argument("--fmt", default="%(asctime)s %(levelname)s rank={rank} %(name)s: %(message)s")
    p.add_argument("--logcfg", default="", help="logging.config.fileConfig INI (defaults: rank, world)")
    p.add_argument("--zmq-log", default="", help="connect a zmq PUBHandler to this endpoint")
    p.add_argument("--http-log", default="", help="HOST:PORT of an HTTP log collector (HTTPHandler POST /log)")
    p.add_argument("--shard-dir", default=""); p.add_argument("--workers", type=int, default=0)
    p.add_argument("--nan-guard", action="store_true", help="stop when the loss is not finite")
    p.add_argument("--grad-sync", default="ddp", choices=["ddp", "manual"])
    p.add_argument("--bucket-kb", type=float, default=25.0)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--ckpt-every", type=int, default=0); p.add_argument("--ckpt-dir", default="ckpt")
    p.add_argument("--final-eval", action="store_true"); p.add_argument("--warn", action="store_true")
    p.add_argument("--eval-every", type=int, default=0, help="rank-local eval on a held-out slice every N steps")
    return p


class Args: pass


a = Args()
RANK = WORLD = 0
log = logging.getLogger("vc.train")


class RankFilter(logging.Filter):
    def filter(self, record):
        record.rank = RANK; record.world = WORLD
        return True


def setup_logging(handler=None):
    root = logging.getLogger()
    if a.logcfg:
        from logging import config as logging_config
        logging_config.fileConfig(a.logcfg, defaults={"rank": str(RANK), "world": str(WORLD)},
                                  disable_existing_loggers=False)
        for h in root.handlers:
            h.addFilter(RankFilter())
        logging.captureWarnings(True)
        return root.handlers[0]
    root.setLevel(logging.INFO)
    if handler is not None:
        h = handler
    elif a.zmq_log:
        import zmq
        from zmq.log.handlers import PUBHandler
        sock = zmq.Context.instance().socket(zmq.PUB)
        sock.connect(a.zmq_log)
        time.sleep(0.3)  # slow-joiner: let the subscription arrive
        h = PUBHandler(sock)
        h.setRootTopic(f"train.r{RANK}")
        h.setFormatter(logging.Formatter(a.fmt.replace("{rank}", str(RANK)).replace("{world}", str(WORLD))))
    elif a.http_log:
        h = logging.handlers.HTTPHandler(a.http_log, "/log", method="POST")
    else:
        h = logging.StreamHandler(sys.stdout)
        h.setFormatter(logging.Formatter(a.fmt.replace("{rank}", str(RANK)).replace("{world}", str(WORLD))))
    h.addFilter(RankFilter())
    root.addHandler(h); logging.captureWarnings(True)
    return h


def main(argv=None, handler=None):
    global a, RANK, WORLD
    a, _ = build_parser().parse_known_args(argv)
    RANK = a.rank if a.rank is not None else int(os.environ.get("RANK", 0))
    WORLD = a.world if a.world is not None else int(os.environ.get("WORLD_SIZE", 1))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    import torch, torch.distributed as dist, torch.nn as nn
    h = setup_logging(handler)
    try:
        _run(torch, dist, nn)
    except BaseException:
        log.exception("rank %d: training failed", RANK)
        raise
    finally:
        h.flush()


def load_rows(torch):
    if a.shard_dir:
        import numpy as np
        path = os.path.join(a.shard_dir, f"shard-{RANK}.npy")
        arr = np.load(path)
        log.info("data: %s (%d rows, %d cols, %s)", path, arr.shape[0], arr.shape[1], arr.dtype)
        t = torch.from_numpy(arr).float()
        return t[:, :16].contiguous(), t[:, 16].long()
    g = torch.Generator().manual_seed(1000 + RANK)
    X = torch.randn(a.rows, 16, generator=g)
    Y = (X[:, :4].sum(1) * 10).long().abs() % 4
    return X, Y


def manual_sync(torch, dist, params):
    """flatten the gradients into buckets of about --bucket-kb and all_reduce each bucket"""
    limit = int(a.bucket_kb * 1024 / 4)
    bucket = []
    n = 0
    for p in params:
        bucket.append(p)
        n += p.grad.numel()
        if n >= limit:
            _flush(torch, dist, bucket); bucket, n = [], 0
    if bucket:
        _flush(torch, dist, bucket)


def _flush(torch, dist, bucket):
    flat = torch.cat([p.grad.reshape(-1) for p in bucket])
    dist.all_reduce(flat); flat /= WORLD
    off = 0
    for p in bucket:
        k = p.grad.numel(); p.grad.copy_(flat[off:off + k].view_as(p.grad)); off += k


def _run(torch, dist, nn):
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, TensorDataset
    log.info("start pid=%d host=%s rank=%d world=%d torch=%s", os.getpid(), os.uname().nodename, RANK, WORLD,
             torch.__version__)
    dist.init_process_group(a.backend, init_method=a.init_method, rank=RANK, world_size=WORLD,
                            timeout=datetime.timedelta(seconds=a.pg_timeout))
    log.info("process group up (%s, world %d, timeout %.0fs)", a.backend, dist.get_world_size(), a.pg_timeout)
    X, Y = load_rows(torch)
    dl = DataLoader(TensorDataset(X, Y), batch_size=a.bs, shuffle=True, num_workers=a.workers,
                    generator=torch.Generator().manual_seed(RANK), persistent_workers=a.workers > 0)
    log.info("loader: %d batches per epoch (bs %d, %d workers)", len(dl), a.bs, a.workers)
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(16, a.hidden), nn.ReLU(), nn.Linear(a.hidden, 64), nn.ReLU(), nn.Linear(64, 4))
    if a.grad_sync == "ddp":
        model = DDP(net); core = model.module
    else:
        model = core = net
        for p in net.parameters():
            dist.broadcast(p.data, 0)
        log.info("manual gradient sync, bucket %.1f KiB", a.bucket_kb)
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
            loss = nn.functional.cross_entropy(out, yb)
            if a.nan_guard and not torch.isfinite(loss):
                log.error("non-finite loss %s at epoch %d step %d (batch %d), input abs max %.3g", loss.item(), ep,
                          step + 1, b + 1, xb.abs().max().item())
                raise FloatingPointError(f"rank {RANK}: loss is {loss.item()} at step {step + 1}, stopping")
            opt.zero_grad(); loss.backward()
            if a.grad_sync == "manual":
                manual_sync(torch, dist, list(model.parameters()))
            opt.step(); step += 1
            if (step) % a.log_every == 0:
                lt = loss.detach().clone(); dist.all_reduce(lt); lt /= WORLD
                log.info("epoch %d step %d batch %d/%d loss %.4f global %.4f", ep, step, b + 1, len(dl),
                         loss.item(), lt.item())
            if a.ckpt_every and step % a.ckpt_every == 0 and RANK == 0:
                path = os.path.join(a.ckpt_dir, f"step{step:06d}.pt")
                torch.save({"model": core.state_dict(), "optim": opt.state_dict(), "step": step}, path)
                log.info("checkpoint step %d written to %s", step, path)
            time.sleep(a.sleep)
        log.info("epoch %d finished (%d steps, %.1fs)", ep, step, time.time() - t0)
    if a.final_eval:
        with torch.no_grad():
            correct = torch.zeros(2)
            for xb, yb in dl:
                hit = model(xb).argmax(1) == yb
                correct += torch.tensor([hit.sum().item(), len(yb)])
            dist.all_reduce(correct)
        log.info("final eval: accuracy %.4f over %d samples", (correct[0] / correct[1]).item(), int(correct[1]))
    log.info("done: %d steps in %.1fs, last loss %.4f", step, time.time() - t0, loss.item())
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
