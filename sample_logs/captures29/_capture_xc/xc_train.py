"""xc_train.py: small data-parallel (gloo, CPU) trainer for the round-V xc captures (adapted from round U's
wc_train.py). Rank / world from --rank/--world, RANK/WORLD_SIZE (env://) or SLURM_PROCID/SLURM_NTASKS. Data:
synthetic rows, or per-rank CSV shards read with numpy.loadtxt (--data), optionally padded variable-length
sequences (--lengths). Logging: a stdout format, no handler at all (--no-handler: records propagate to the host
process's logging, e.g. a task queue worker), OpenTelemetry's LoggingHandler with the console exporter (--otel), a
plain FileHandler, or a handler handed in by an in-process launcher: main(argv, handler)."""
import argparse, datetime, json, logging, os, socket, sys, time


def build_parser():
    p = argparse.ArgumentParser(prog="xc_train")
    p.add_argument("--rank", type=int, default=None); p.add_argument("--world", type=int, default=None)
    p.add_argument("--backend", default="gloo"); p.add_argument("--init-method", default="env://")
    p.add_argument("--config", default="", help="YAML run config (keys override the options)")
    p.add_argument("--rows", type=int, default=1600); p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--bs", type=int, default=32); p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--optim", default="sgd"); p.add_argument("--weight-decay", default=0.0)
    p.add_argument("--sleep", type=float, default=0.02); p.add_argument("--pg-timeout", type=float, default=60)
    p.add_argument("--log-every", type=int, default=10)
    p.add_argument("--fmt", default="%(asctime)s %(levelname)s rank={rank} %(name)s: %(message)s")
    p.add_argument("--no-handler", action="store_true", help="add no handler (the host process's logging is used)")
    p.add_argument("--otel", action="store_true", help="OpenTelemetry LoggingHandler + ConsoleLogExporter")
    p.add_argument("--logfile", default="", help="also log to this file ({rank} expanded)")
    p.add_argument("--no-stdout", action="store_true")
    p.add_argument("--stderr", action="store_true", help="log records to stderr instead of stdout")
    p.add_argument("--data", default="", help="per-rank CSV shard ({rank} expanded): 16 features + label")
    p.add_argument("--lengths", default="", help="per-rank JSON list of sequence lengths ({rank} expanded)")
    p.add_argument("--nan-guard", action="store_true", help="stop when the loss is not finite")
    p.add_argument("--hardneg-url", default="", help="rank --hardneg-rank fetches hard negatives at --hardneg-step")
    p.add_argument("--hardneg-rank", type=int, default=-1); p.add_argument("--hardneg-step", type=int, default=20)
    p.add_argument("--ext-lib", default="", help="custom op library to load after the process group is up")
    p.add_argument("--eval-rank", type=int, default=-1, help="this rank logs sample predictions after each epoch")
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--freeze-first", action="store_true", help="freeze the first layer (linear-probe warm start)")
    p.add_argument("--ckpt-every", type=int, default=0); p.add_argument("--ckpt-dir", default="ckpt")
    p.add_argument("--final-eval", action="store_true"); p.add_argument("--warn", action="store_true")
    return p


class Args: pass


a = Args()
RANK = WORLD = 0
log = logging.getLogger("xc.train")


def _fmt():
    return logging.Formatter(a.fmt.replace("{rank}", str(RANK)).replace("{world}", str(WORLD)))


def setup_logging(handler=None):
    root = logging.getLogger(); root.setLevel(logging.INFO)
    hs = []
    if handler is not None:
        hs.append(handler)
    elif a.no_handler:
        pass
    elif a.otel:
        from opentelemetry._logs import set_logger_provider
        from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
        from opentelemetry.sdk._logs.export import ConsoleLogExporter, SimpleLogRecordProcessor
        from opentelemetry.sdk.resources import Resource
        lp = LoggerProvider(resource=Resource.create({"service.name": "xc-train", "host.name": socket.gethostname(),
                                                      "rank": RANK, "world_size": WORLD}))
        lp.add_log_record_processor(SimpleLogRecordProcessor(ConsoleLogExporter()))
        set_logger_provider(lp)
        hs.append(LoggingHandler(level=logging.INFO, logger_provider=lp))
    elif not a.no_stdout:
        h = logging.StreamHandler(sys.stderr if a.stderr else sys.stdout); h.setFormatter(_fmt()); hs.append(h)
    if a.logfile:
        h = logging.FileHandler(a.logfile.replace("{rank}", str(RANK))); h.setFormatter(_fmt()); hs.append(h)
    for h in hs:
        root.addHandler(h)
    logging.captureWarnings(True)
    return hs


def main(argv=None, handler=None):
    global a, RANK, WORLD
    a, _ = build_parser().parse_known_args(argv)
    env = os.environ
    RANK = a.rank if a.rank is not None else int(env.get("RANK", env.get("SLURM_PROCID", 0)))
    WORLD = a.world if a.world is not None else int(env.get("WORLD_SIZE", env.get("SLURM_NTASKS", 1)))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    cfg = {}
    if a.config:
        import yaml
        with open(a.config) as f:
            cfg = yaml.safe_load(f) or {}
        for k, v in cfg.items():
            setattr(a, k.replace("-", "_"), v)
    import torch, torch.distributed as dist, torch.nn as nn
    hs = setup_logging(handler)
    if a.config:
        log.info("run config %s: %s", a.config, ", ".join(f"{k}={v!r}" for k, v in cfg.items()))
    try:
        _run(torch, dist, nn)
    except BaseException:
        log.exception("rank %d: training failed", RANK)
        raise
    finally:
        for h in hs:
            h.flush()
        if a.otel:
            from opentelemetry._logs import get_logger_provider
            get_logger_provider().shutdown()


def load_rows(torch):
    g = torch.Generator().manual_seed(1000 + RANK)
    if a.data:
        import numpy as np
        path = a.data.replace("{rank}", str(RANK))
        log.info("reading shard %s", path)
        arr = np.loadtxt(path, delimiter=",", skiprows=1)
        X = torch.from_numpy(arr[:, :16]).float(); Y = torch.from_numpy(arr[:, 16]).long()
        log.info("shard %s: %d rows, %d features", path, X.shape[0], X.shape[1])
        return X, Y
    X = torch.randn(a.rows, 16, generator=g)
    Y = (X[:, :4].sum(1) * 10).long().abs() % 4
    return X, Y


def build_net(nn):
    return nn.Sequential(nn.Linear(16, a.hidden), nn.ReLU(), nn.Linear(a.hidden, 64), nn.ReLU(), nn.Linear(64, 4))


def _run(torch, dist, nn):
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, TensorDataset
    log.info("start pid=%d host=%s rank=%d world=%d torch=%s", os.getpid(), socket.gethostname(), RANK, WORLD,
             torch.__version__)
    dist.init_process_group(a.backend, init_method=a.init_method, rank=RANK, world_size=WORLD,
                            timeout=datetime.timedelta(seconds=a.pg_timeout))
    log.info("process group up (%s, world %d, timeout %.0fs)", a.backend, dist.get_world_size(), a.pg_timeout)
    if a.ext_lib:
        log.info("loading custom ops from %s", a.ext_lib)
        torch.ops.load_library(a.ext_lib)
        log.info("custom ops loaded: %s", a.ext_lib)
    X, Y = load_rows(torch)
    lengths = None
    if a.lengths:
        path = a.lengths.replace("{rank}", str(RANK))
        with open(path) as f:
            lengths = json.load(f)
        log.info("sequence lengths %s: %d samples, max %d", path, len(lengths), max(lengths))
        lengths = torch.tensor(lengths[:len(X)])
        ds = TensorDataset(X, Y, lengths)
    else:
        ds = TensorDataset(X, Y)
    dl = DataLoader(ds, batch_size=a.bs, shuffle=True, generator=torch.Generator().manual_seed(RANK))
    log.info("loader: %d batches per epoch (bs %d)", len(dl), a.bs)
    torch.manual_seed(0)
    net = build_net(nn)
    if a.freeze_first:
        for prm in net[0].parameters():
            prm.requires_grad_(False)
        log.info("first layer frozen (%d trainable tensors)", sum(prm.requires_grad for prm in net.parameters()))
    model = DDP(net); core = model.module
    if a.optim == "adamw":
        opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=a.weight_decay)
    else:
        opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
    log.info("optimizer %s lr %g", type(opt).__name__, a.lr)
    if a.warn:
        import warnings
        warnings.warn("torch.cpu.amp.autocast(args...) is deprecated. Please use torch.amp.autocast('cpu', args...) "
                      "instead.", FutureWarning)
    if a.ckpt_every and RANK == 0:
        os.makedirs(a.ckpt_dir, exist_ok=True)
    step = 0; t0 = time.time(); loss = torch.tensor(0.)
    for ep in range(a.epochs):
        for b, batch in enumerate(dl):
            xb, yb = batch[0], batch[1]
            if lengths is not None:
                L = int(batch[2].max())
                if L > 4096:
                    log.warning("batch %d: padding %d sequences to length %d (no max_len set)", b + 1, len(xb), L)
                seq = torch.zeros(len(xb), L, 16)
                seq[:, 0] = xb
                xb = seq.mean(1) * L
            out = model(xb)
            loss = nn.functional.cross_entropy(out, yb)
            if a.nan_guard and not torch.isfinite(loss):
                log.error("non-finite loss %s at epoch %d step %d", loss.item(), ep, step + 1)
                raise FloatingPointError(f"rank {RANK}: loss is {loss.item()} at step {step + 1}, stopping")
            opt.zero_grad(); loss.backward()
            opt.step(); step += 1
            if a.hardneg_url and RANK == a.hardneg_rank and step == a.hardneg_step:
                import urllib.request
                log.info("fetching hard negatives from %s", a.hardneg_url)
                with urllib.request.urlopen(a.hardneg_url) as r:
                    log.info("hard negatives: %d bytes", len(r.read()))
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
        if RANK == a.eval_rank:
            xb, yb = next(iter(dl))[:2]
            with torch.no_grad():
                pred = model.predict(xb[:8])
            log.info("sample predictions: %s (labels %s)", pred.tolist(), yb[:8].tolist())
        dist.barrier()
    if a.final_eval:
        with torch.no_grad():
            correct = torch.zeros(2)
            for batch in dl:
                hit = model(batch[0]).argmax(1) == batch[1]
                correct += torch.tensor([hit.sum().item(), len(batch[1])])
            dist.all_reduce(correct)
        log.info("final eval: accuracy %.4f over %d samples", (correct[0] / correct[1]).item(), int(correct[1]))
    log.info("done: %d steps in %.1fs, last loss %.4f", step, time.time() - t0, loss.item())
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
