"""tc_train.py: small DDP (gloo, CPU) trainer for the round-R tc captures. Rank / world come from --rank/--world, from
RANK/WORLD_SIZE (env://) or from MPICH's PMI_RANK/PMI_SIZE. Data: synthetic rows, or float32 shard files under
--data-dir/rank<R>/ read through a DataLoader. Logging layout and site conditions are chosen by flags; main(argv) can
also be called in-process by a launcher."""
import argparse, datetime, logging, logging.handlers, os, sys, time


def build_parser():
    p = argparse.ArgumentParser(prog="tc_train")
    p.add_argument("--rank", type=int, default=None); p.add_argument("--world", type=int, default=None)
    p.add_argument("--rows", type=int, default=1600); p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--bs", type=int, default=32); p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--sleep", type=float, default=0.02); p.add_argument("--pg-timeout", type=float, default=60)
    p.add_argument("--log-every", type=int, default=10)
    p.add_argument("--fmt", default="%(asctime)s %(levelname)s rank={rank} %(name)s: %(message)s",
                   help="logging format; {rank} and {world} are filled in")
    p.add_argument("--log-file", default="", help="FileHandler path ({rank} filled in) instead of stdout")
    p.add_argument("--memory-handler", type=int, default=0,
                   help="buffer records in a logging.handlers.MemoryHandler of this capacity (flushLevel ERROR)")
    p.add_argument("--model", default="mlp", help="mlp | tied-ckpt (weight-tied block applied twice under "
                                                  "torch.utils.checkpoint, use_reentrant=True)")
    p.add_argument("--find-unused", action="store_true")
    p.add_argument("--zero", action="store_true", help="ZeroRedundancyOptimizer(AdamW) instead of SGD")
    p.add_argument("--ckpt-every", type=int, default=0, help="rank 0 writes a checkpoint every N steps")
    p.add_argument("--ckpt-dir", default="ckpt")
    p.add_argument("--run-cfg", action="store_true", help="rank 0 builds the run config and broadcasts it")
    p.add_argument("--data-dir", default="", help="read shards from DIR/rank<R>/*.bin (float32 rows of 17)")
    p.add_argument("--workers", type=int, default=0); p.add_argument("--dl-timeout", type=float, default=0)
    p.add_argument("--epoch-auc", action="store_true", help="rank 0 predicts a fixed probe set every step and keeps the "
                                                         "predictions for an epoch-end metric")
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--tokenizer", default="", help="tokenizer.json to load (text features)")
    p.add_argument("--warn", action="store_true", help="emit a few library-style warnings")
    p.add_argument("--final-eval", action="store_true")
    return p


class Args: pass


a = Args()
RANK = WORLD = 0
log = logging.getLogger("tc.train")


def setup_logging():
    root = logging.getLogger(); root.setLevel(logging.INFO)
    fmt = logging.Formatter(a.fmt.replace("{rank}", str(RANK)).replace("{world}", str(WORLD)))
    if a.log_file:
        path = a.log_file.format(rank=RANK); os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        h = logging.FileHandler(path, mode="a")
    else:
        h = logging.StreamHandler(sys.stdout)
    h.setFormatter(fmt)
    if a.memory_handler:
        h = logging.handlers.MemoryHandler(a.memory_handler, flushLevel=logging.ERROR, target=h)
    root.addHandler(h); logging.captureWarnings(True)
    return h


def main(argv=None):
    global a, RANK, WORLD
    a, _ = build_parser().parse_known_args(argv)
    RANK = a.rank if a.rank is not None else int(os.environ.get("RANK", os.environ.get("PMI_RANK", 0)))
    WORLD = a.world if a.world is not None else int(os.environ.get("WORLD_SIZE", os.environ.get("PMI_SIZE", 1)))
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    import torch, torch.distributed as dist, torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, Dataset
    h = setup_logging()
    try:
        _run(torch, dist, nn, DDP, DataLoader, Dataset)
    except BaseException:
        log.exception("rank %d: training failed", RANK)
        raise
    finally:
        h.flush()


def _run(torch, dist, nn, DDP, DataLoader, Dataset):
    log.info("start pid=%d host=%s rank=%d world=%d torch=%s", os.getpid(), os.uname().nodename, RANK, WORLD,
             torch.__version__)
    dist.init_process_group("gloo", rank=RANK, world_size=WORLD, timeout=datetime.timedelta(seconds=a.pg_timeout))
    log.info("process group up (gloo, world %d, timeout %.0fs)", dist.get_world_size(), a.pg_timeout)

    cfg = {"lr": a.lr, "epochs": a.epochs, "bs": a.bs}
    if a.run_cfg:
        objs = [None]
        if RANK == 0:
            warm = max(1, 200 // a.bs)
            cfg.update(run_name=f"tc-{time.strftime('%Y%m%d-%H%M%S')}", warmup_steps=warm,
                       schedule=lambda s: min(1.0, (s + 1) / warm))  # LambdaLR factor, built from the YAML's warmup
            log.info("run config built on rank 0: %s", {k: v for k, v in cfg.items() if k != "schedule"})
            objs = [cfg]
        log.info("broadcasting run config from rank 0")
        dist.broadcast_object_list(objs, src=0)
        cfg = objs[0]
        log.info("run config received: run_name=%s warmup_steps=%d", cfg["run_name"], cfg["warmup_steps"])

    if a.tokenizer:
        from tokenizers import Tokenizer
        import tokenizers
        log.info("loading tokenizer %s (tokenizers %s)", a.tokenizer, tokenizers.__version__)
        tok = Tokenizer.from_file(a.tokenizer)
        log.info("tokenizer loaded: vocab %d", tok.get_vocab_size())

    if a.data_dir:
        import glob
        files = sorted(glob.glob(os.path.join(a.data_dir, f"rank{RANK}", "*.bin")))
        log.info("data: %d shard files under %s/rank%d", len(files), a.data_dir, RANK)

        class Shards(Dataset):
            ROWS = 256

            def __len__(self): return len(files) * self.ROWS

            def __getitem__(self, i):
                with open(files[i // self.ROWS], "rb") as fh:
                    fh.seek((i % self.ROWS) * 17 * 4); b = fh.read(17 * 4)
                t = torch.frombuffer(bytearray(b), dtype=torch.float32)
                return t[:16].clone(), int(t[16].item())
        ds = Shards()
        dl = DataLoader(ds, batch_size=a.bs, shuffle=True, num_workers=a.workers, timeout=a.dl_timeout,
                        generator=torch.Generator().manual_seed(RANK), persistent_workers=a.workers > 0)
    else:
        g = torch.Generator().manual_seed(1000 + RANK)
        X = torch.randn(a.rows, 16, generator=g); Y = (X[:, :4].sum(1) * 10).long().abs() % 4
        dl = DataLoader(list(zip(X, Y)), batch_size=a.bs, shuffle=True, generator=torch.Generator().manual_seed(RANK))
    log.info("loader: %d batches per epoch (bs %d, workers %d)", len(dl), a.bs, a.workers)

    torch.manual_seed(0)
    if a.model == "tied-ckpt":
        from torch.utils.checkpoint import checkpoint

        class TiedNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.inp = nn.Linear(16, 64); self.block = nn.Sequential(nn.Linear(64, 64), nn.GELU())
                self.out = nn.Linear(64, 4)

            def forward(self, x):
                h = self.inp(x)
                for _ in range(2):  # the same (weight-tied) block twice, activation-checkpointed to save memory
                    h = checkpoint(self.block, h, use_reentrant=True)
                return self.out(h)
        net = TiedNet()
        log.info("model: TiedNet (block applied 2x, activation checkpointing use_reentrant=True)")
    else:
        net = nn.Sequential(nn.Linear(16, a.hidden), nn.ReLU(), nn.Linear(a.hidden, 64), nn.ReLU(), nn.Linear(64, 4))
    model = DDP(net, find_unused_parameters=a.find_unused)
    if a.warn:
        with torch.cpu.amp.autocast(enabled=False):  # legacy CPU bf16 path, disabled
            pass
    if a.zero:
        from torch.distributed.optim import ZeroRedundancyOptimizer
        opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.AdamW, lr=a.lr)
        log.info("optimizer: ZeroRedundancyOptimizer(AdamW), this rank owns %d param(s)",
                 len(opt.optim.param_groups[0]["params"]))
    else:
        opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, cfg["schedule"]) if "schedule" in cfg else None

    probe_x = torch.randn(256, 16, generator=torch.Generator().manual_seed(5))  # fixed probe set (epoch metric)
    step = 0; t0 = time.time(); loss = torch.tensor(0.)
    for ep in range(a.epochs):
        preds = []
        for b, (xb, yb) in enumerate(dl):
            out = model(xb)
            loss = nn.functional.cross_entropy(out, yb)
            opt.zero_grad(); loss.backward(); opt.step(); step += 1
            if sched: sched.step()
            if a.epoch_auc and RANK == 0:
                preds.append(model.module(probe_x).softmax(1))  # probe-set predictions for the epoch-end metric
            if step % a.log_every == 0:
                lt = loss.detach().clone(); dist.all_reduce(lt); lt /= WORLD
                log.info("epoch %d step %d batch %d/%d loss %.4f global %.4f lr %.4g", ep, step, b + 1, len(dl),
                         loss.item(), lt.item(), opt.param_groups[0]["lr"])
            if a.ckpt_every and step % a.ckpt_every == 0:
                if a.zero and RANK == 0:
                    log.info("step %d: consolidating optimizer state on rank 0 for the checkpoint", step)
                    opt.consolidate_state_dict(to=0)
                if RANK == 0:
                    os.makedirs(a.ckpt_dir, exist_ok=True)
                    sd = {"model": model.module.state_dict(), "optim": opt.state_dict(), "step": step}
                    torch.save(sd, os.path.join(a.ckpt_dir, f"step{step:06d}.pt"))
                    log.info("checkpoint step %d written to %s", step, a.ckpt_dir)
            time.sleep(a.sleep)
        if a.epoch_auc and RANK == 0:
            P = torch.cat(preds)
            log.info("epoch %d: %d probe predictions kept for the epoch metric", ep, len(P))
        log.info("epoch %d finished (%d steps, %.1fs)", ep, step, time.time() - t0)
    if a.final_eval:
        with torch.no_grad():
            correct = torch.zeros(2)
            for xb, yb in dl:
                correct += torch.tensor([(model(xb).argmax(1) == yb).sum().item(), len(yb)])
            dist.all_reduce(correct)
        log.info("final eval: accuracy %.4f over %d samples", (correct[0] / correct[1]).item(), int(correct[1]))
    log.info("done: %d steps in %.1fs, last loss %.4f", step, time.time() - t0, loss.item())
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
