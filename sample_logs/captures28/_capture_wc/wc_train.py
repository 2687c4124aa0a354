"""wc_train.py: small data-parallel (gloo, CPU) trainer for the round-U wc captures (adapted from round T's
vc_train.py). Rank / world from --rank/--world or RANK/WORLD_SIZE (env://). Data: synthetic rows, optionally
preallocated from a per-rank manifest (--manifest). Logging layout chosen by flags: a stdout format, structlog's
ConsoleRenderer through ProcessorFormatter, a SysLogHandler (UDP), an SMTPHandler for ERROR records, tornado's
LogFormatter, a plain FileHandler, or a handler handed in by an in-process launcher: main(argv, handler)."""
import argparse, datetime, json, logging, logging.handlers, os, socket, sys, time


def build_parser():
    p = argparse.ArgumentParser(prog="wc_train")
    p.add_argument("--rank", type=int, default=None); p.add_argument("--world", type=int, default=None)
    p.add_argument("--backend", default="gloo"); p.add_argument("--init-method", default="env://")
    p.add_argument("--rows", type=int, default=1600); p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--bs", type=int, default=32); p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--sleep", type=float, default=0.02); p.add_argument("--pg-timeout", type=float, default=60)
    p.add_argument("--log-every", type=int, default=10)
    p.add_argument("--fmt", default="%(asctime)s %(levelname)s rank={rank} %(name)s: %(message)s")
    p.add_argument("--structlog", action="store_true", help="render records with structlog's ConsoleRenderer")
    p.add_argument("--syslog", default="", help="HOST:PORT of a UDP syslog receiver (SysLogHandler)")
    p.add_argument("--smtp", default="", help="HOST:PORT of a mail relay: ERROR records mailed (SMTPHandler)")
    p.add_argument("--tornado-log", action="store_true", help="tornado.log.LogFormatter on stdout")
    p.add_argument("--logfile", default="", help="also log to this file ({rank} expanded)")
    p.add_argument("--no-stdout", action="store_true")
    p.add_argument("--model-card", default="", help="JSON model card; refuses when min_torch is newer")
    p.add_argument("--model-pkg", action="store_true", help="build the network with wcmodel.build (PYTHONPATH)")
    p.add_argument("--stage-fifo", default="", help="rank --stage-rank waits for a stage-in marker on this fifo")
    p.add_argument("--stage-rank", type=int, default=-1)
    p.add_argument("--manifest", default="", help="per-rank JSON manifest ({rank} expanded): rows to preallocate")
    p.add_argument("--overrides", default="", help="YAML file of option overrides (sweep)")
    p.add_argument("--loss-limit", type=float, default=0.0, help="stop when the loss exceeds this (divergence)")
    p.add_argument("--nan-guard", action="store_true", help="stop when the loss is not finite")
    p.add_argument("--metrics-push", default="", help="HOST:PORT of a metrics gateway, tried at start (noise)")
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--ckpt-every", type=int, default=0); p.add_argument("--ckpt-dir", default="ckpt")
    p.add_argument("--final-eval", action="store_true"); p.add_argument("--warn", action="store_true")
    return p


class Args: pass


a = Args()
RANK = WORLD = 0
log = logging.getLogger("wc.train")


class RankFilter(logging.Filter):
    def filter(self, record):
        record.rank = RANK; record.world = WORLD
        return True


def _fmt():
    return logging.Formatter(a.fmt.replace("{rank}", str(RANK)).replace("{world}", str(WORLD)))


def setup_logging(handler=None):
    root = logging.getLogger(); root.setLevel(logging.INFO)
    hs = []
    if handler is not None:
        hs.append(handler)
    elif a.structlog:
        import structlog
        pre = [structlog.stdlib.add_log_level, structlog.stdlib.add_logger_name,
               structlog.processors.TimeStamper(fmt="iso"),
               lambda _l, _m, ev: {**ev, "rank": RANK}]
        h = logging.StreamHandler(sys.stdout)
        h.setFormatter(structlog.stdlib.ProcessorFormatter(
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                        structlog.dev.ConsoleRenderer(colors=False)], foreign_pre_chain=pre))
        hs.append(h)
    elif a.tornado_log:
        from tornado.log import LogFormatter
        h = logging.StreamHandler(sys.stdout); h.setFormatter(LogFormatter(color=False)); hs.append(h)
    elif not a.no_stdout:
        h = logging.StreamHandler(sys.stdout); h.setFormatter(_fmt()); hs.append(h)
    if a.syslog:
        host, port = a.syslog.rsplit(":", 1)
        h = logging.handlers.SysLogHandler((host, int(port)), facility=logging.handlers.SysLogHandler.LOG_LOCAL3)
        h.setFormatter(logging.Formatter(f"wc_train[%(process)d]: r{RANK}/{WORLD} %(levelname)s %(name)s: %(message)s"))
        hs.append(h)
    if a.smtp:
        host, port = a.smtp.rsplit(":", 1)
        h = logging.handlers.SMTPHandler((host, int(port)), f"wc-train-r{RANK}@{socket.gethostname()}",
                                         ["ml-oncall@example.org"], f"[wc-train] rank {RANK} ERROR on {socket.gethostname()}")
        h.setLevel(logging.ERROR); h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        hs.append(h)
    if a.logfile:
        h = logging.FileHandler(a.logfile.replace("{rank}", str(RANK))); h.setFormatter(_fmt()); hs.append(h)
    for h in hs:
        h.addFilter(RankFilter()); root.addHandler(h)
    logging.captureWarnings(True)
    return hs


def main(argv=None, handler=None):
    global a, RANK, WORLD
    a, _ = build_parser().parse_known_args(argv)
    RANK = a.rank if a.rank is not None else int(os.environ.get("RANK", 0))
    WORLD = a.world if a.world is not None else int(os.environ.get("WORLD_SIZE", 1))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    if a.overrides:
        import yaml
        with open(a.overrides) as f:
            ov = yaml.safe_load(f) or {}
        for k, v in ov.items():
            setattr(a, k.replace("-", "_"), v)
    import torch, torch.distributed as dist, torch.nn as nn
    hs = setup_logging(handler)
    if a.overrides:
        log.info("overrides from %s: %s", a.overrides, ", ".join(f"{k}={v}" for k, v in ov.items()))
    try:
        _run(torch, dist, nn)
    except BaseException:
        log.exception("rank %d: training failed", RANK)
        raise
    finally:
        for h in hs:
            h.flush()


def check_card(torch):
    with open(a.model_card) as f:
        card = json.load(f)
    need = card.get("min_torch", "0")
    have = torch.__version__.split("+")[0]
    log.info("model card %s: %s format %s (min_torch %s)", a.model_card, card.get("name"), card.get("format"), need)
    if tuple(int(x) for x in have.split(".")[:2]) < tuple(int(x) for x in need.split(".")[:2]):
        raise RuntimeError(f"model card {a.model_card} (format {card.get('format')}) needs torch>={need}, "
                           f"this is torch {torch.__version__}")


def load_rows(torch):
    g = torch.Generator().manual_seed(1000 + RANK)
    if a.manifest:
        import numpy as np
        path = a.manifest.replace("{rank}", str(RANK))
        with open(path) as f:
            man = json.load(f)
        rows = int(man["rows"])
        log.info("manifest %s: shard %s, %d rows x %d features; preallocating feature cache (%.2f GiB)", path,
                 man["shard"], rows, 16, rows * 16 * 8 / 2**30)
        cache = np.full((rows, 16), 0.0)
        log.info("feature cache ready (%d rows)", rows)
        n = min(rows, a.rows)
        cache[:n] = torch.randn(n, 16, generator=g).numpy()
        X = torch.from_numpy(cache[:n]).float()
    else:
        X = torch.randn(a.rows, 16, generator=g)
    Y = (X[:, :4].sum(1) * 10).long().abs() % 4
    return X, Y


def build_net(nn):
    if a.model_pkg:
        import wcmodel
        log.info("model from wcmodel %s (%s)", wcmodel.__version__, os.path.dirname(wcmodel.__file__))
        return wcmodel.build(a.hidden)
    return nn.Sequential(nn.Linear(16, a.hidden), nn.ReLU(), nn.Linear(a.hidden, 64), nn.ReLU(), nn.Linear(64, 4))


def push_metrics():
    host, port = a.metrics_push.rsplit(":", 1)
    for i in range(3):
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
            log.info("metrics gateway %s reachable", a.metrics_push); return
        except OSError as e:
            log.warning("metrics push to %s failed (%s), retry %d/3", a.metrics_push, e, i + 1)
            time.sleep(0.5)
    log.error("metrics gateway %s unreachable after 3 tries; continuing without metrics push", a.metrics_push)


def _run(torch, dist, nn):
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, TensorDataset
    log.info("start pid=%d host=%s rank=%d world=%d torch=%s", os.getpid(), socket.gethostname(), RANK, WORLD,
             torch.__version__)
    if a.model_card:
        check_card(torch)
    dist.init_process_group(a.backend, init_method=a.init_method, rank=RANK, world_size=WORLD,
                            timeout=datetime.timedelta(seconds=a.pg_timeout))
    log.info("process group up (%s, world %d, timeout %.0fs)", a.backend, dist.get_world_size(), a.pg_timeout)
    if a.metrics_push:
        push_metrics()
    if a.stage_fifo and RANK == a.stage_rank:
        log.info("stage-in: waiting for the copy agent's ready marker on %s", a.stage_fifo)
        with open(a.stage_fifo) as f:
            log.info("stage-in: %s", f.readline().strip())
    X, Y = load_rows(torch)
    dl = DataLoader(TensorDataset(X, Y), batch_size=a.bs, shuffle=True, generator=torch.Generator().manual_seed(RANK))
    log.info("loader: %d batches per epoch (bs %d)", len(dl), a.bs)
    torch.manual_seed(0)
    net = build_net(nn)
    model = DDP(net); core = model.module
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
    log.info("optimizer SGD lr %g momentum 0.9", a.lr)
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
                log.error("non-finite loss %s at epoch %d step %d", loss.item(), ep, step + 1)
                raise FloatingPointError(f"rank {RANK}: loss is {loss.item()} at step {step + 1}, stopping")
            if a.loss_limit and loss.item() > a.loss_limit:
                log.error("loss %.4g exceeds the divergence limit %.0e at epoch %d step %d (lr %g)", loss.item(),
                          a.loss_limit, ep, step + 1, a.lr)
                raise FloatingPointError(f"rank {RANK}: training diverged at step {step + 1} (loss {loss.item():.4g})")
            opt.zero_grad(); loss.backward()
            opt.step(); step += 1
            if step % a.log_every == 0:
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
