#!/usr/bin/env python3
"""ia_ray.py: Ray Train TorchTrainer (2 workers, CPU, gloo) with RunConfig(failure_config=FailureConfig(max_failures=1))
and a checkpoint per epoch. At the end of each epoch every worker posts its epoch metrics to a small TCP metrics sink
that the driver runs on 127.0.0.1 (--sink-port); the sink resets the first connection it accepts (SO_LINGER 0 close:
a sink that is still starting up), serves the later ones.
Logging: the worker uses Python logging `%(asctime)s %(levelname)s [rank R] ia.ray: msg` on stderr (Ray prefixes
each line with `(RayTrainWorker pid=..)`); the driver prints `[driver] ...`.
"""
import argparse, datetime, json, logging, os, socket, struct, sys, tempfile, threading, time

p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, default=4)
p.add_argument("--steps", type=int, default=6)
p.add_argument("--sink-port", type=int, default=29790)
p.add_argument("--storage", default=None)
args = p.parse_args()


def sink_server(port):
    srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port)); srv.listen(8)
    n = 0
    while True:
        c, _ = srv.accept(); n += 1
        if n == 1:
            time.sleep(0.2)
            c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            c.close()
            continue
        try:
            c.recv(65536); c.sendall(b"ok\n")
        finally:
            c.close()


def train_loop(config):
    import torch, torch.nn as nn, torch.nn.functional as F
    import ray.train as rt
    import ray.train.torch as rtt
    ctx = rt.get_context()
    rank = ctx.get_world_rank()
    log = logging.getLogger("ia.ray")
    if not log.handlers:
        h = logging.StreamHandler(sys.stderr)
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s"))
        log.addHandler(h); log.setLevel(logging.INFO); log.propagate = False
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    start = 0
    ck = rt.get_checkpoint()
    if ck:
        with ck.as_directory() as d:
            st = torch.load(os.path.join(d, "state.pt"))
        model.load_state_dict(st["model"]); opt.load_state_dict(st["opt"]); start = st["epoch"] + 1
        log.info("resumed from checkpoint %s at epoch %d", ck.path, start)
    model = rtt.prepare_model(model)
    g = torch.Generator().manual_seed(7 + rank)
    x = torch.randn(256, 16, generator=g); y = (x @ torch.linspace(-1, 1, 64).reshape(16, 4)).argmax(1)
    for epoch in range(start, config["epochs"]):
        for s in range(config["steps"]):
            i = torch.randint(0, 256, (16,), generator=g)
            loss = F.cross_entropy(model(x[i]), y[i])
            opt.zero_grad(); loss.backward(); opt.step()
            time.sleep(0.1)
        log.info("epoch %d loss %.4f", epoch, loss.item())
        with socket.create_connection(("127.0.0.1", config["sink_port"]), timeout=10) as c:
            c.sendall(json.dumps({"rank": rank, "epoch": epoch, "loss": loss.item()}).encode())
            ack = c.recv(16)
        with tempfile.TemporaryDirectory() as d:
            if rank == 0:
                torch.save({"model": model.module.state_dict() if hasattr(model, "module") else model.state_dict(),
                            "opt": opt.state_dict(), "epoch": epoch}, os.path.join(d, "state.pt"))
            rt.report({"epoch": epoch, "loss": loss.item()},
                      checkpoint=rt.Checkpoint.from_directory(d) if rank == 0 else None)


if __name__ == "__main__":
    import ray
    from ray.train import ScalingConfig, RunConfig, FailureConfig, CheckpointConfig
    from ray.train.torch import TorchTrainer, TorchConfig
    threading.Thread(target=sink_server, args=(args.sink_port,), daemon=True).start()
    print(f"[driver] metrics sink on 127.0.0.1:{args.sink_port}", flush=True)
    ray.init(num_cpus=2, include_dashboard=False)
    trainer = TorchTrainer(
        train_loop,
        train_loop_config={"epochs": args.epochs, "steps": args.steps, "sink_port": args.sink_port},
        torch_config=TorchConfig(backend="gloo"),
        scaling_config=ScalingConfig(num_workers=2, use_gpu=False, resources_per_worker={"CPU": 1}),
        run_config=RunConfig(name="ia-ray", storage_path=os.path.abspath(args.storage or "ray_results"),
                             failure_config=FailureConfig(max_failures=1),
                             checkpoint_config=CheckpointConfig(num_to_keep=2)),
    )
    result = trainer.fit()
    print(f"[driver] training finished: metrics={result.metrics} checkpoint={result.checkpoint}", flush=True)
    ray.shutdown()
