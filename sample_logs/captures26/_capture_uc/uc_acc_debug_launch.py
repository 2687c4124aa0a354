"""uc_acc_debug_launch.py: CPU training run started with accelerate's debug_launcher (torch start_processes, fork,
file:// rendezvous); every process logs only through a logging.handlers.SocketHandler to the team's log collector."""
import argparse, logging, logging.handlers, os, sys, time

p = argparse.ArgumentParser()
p.add_argument("--nproc", type=int, default=3); p.add_argument("--collector", default="127.0.0.1:9020")
p.add_argument("--epochs", type=int, default=12); p.add_argument("--rows", type=int, default=1536)
p.add_argument("--sleep", type=float, default=0.05)
args = p.parse_args()


def train(a):
    import torch, torch.nn as nn
    from accelerate import Accelerator
    acc = Accelerator(cpu=True)
    host, port = a.collector.rsplit(":", 1)
    h = logging.handlers.SocketHandler(host, int(port))

    class RankFilter(logging.Filter):
        def filter(self, record):
            record.rank = acc.process_index
            return True
    h.addFilter(RankFilter())
    root = logging.getLogger(); root.setLevel(logging.INFO); root.addHandler(h)
    logging.captureWarnings(True)
    log = logging.getLogger("train")
    log.info("process %d/%d up (pid %d, %s, backend %s)", acc.process_index, acc.num_processes, os.getpid(),
             acc.device, acc.state.backend)
    g = torch.Generator().manual_seed(acc.process_index)
    X = torch.randn(a.rows, 16, generator=g); Y = (X[:, :4].sum(1) * 10).long().abs() % 4
    dl = torch.utils.data.DataLoader(list(zip(X, Y)), batch_size=32, shuffle=True)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 4))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, opt, dl = acc.prepare(model, opt, dl)
    log.info("prepared: %d batches per epoch per process", len(dl))
    t0 = time.time(); step = 0
    for ep in range(a.epochs):
        for xb, yb in dl:
            loss = nn.functional.cross_entropy(model(xb), yb)
            acc.backward(loss); opt.step(); opt.zero_grad(); step += 1
            if step % 10 == 0:
                g_loss = acc.gather(loss.detach().reshape(1)).mean().item()
                log.info("epoch %d step %d loss %.4f (mean over processes %.4f)", ep, step, loss.item(), g_loss)
            time.sleep(a.sleep)
        log.info("epoch %d done (%.1fs)", ep, time.time() - t0)
    acc.wait_for_everyone()
    log.info("training finished: %d steps in %.1fs", step, time.time() - t0)
    if acc.is_main_process:
        torch.save(acc.unwrap_model(model).state_dict(), "model.pt")
        log.info("saved model.pt")
    acc.end_training()


if __name__ == "__main__":
    from accelerate import debug_launcher
    debug_launcher(train, args=(args,), num_processes=args.nproc)
