"""noxfile.py for the round-U wc captures: the site's `nox -s <session>` entry points around torchrun (no
virtualenv of its own: venv_backend="none", the job's interpreter from PATH)."""
import nox

nox.options.error_on_missing_interpreters = True


@nox.session(venv_backend="none")
def prepare(session):
    session.run("python", "-c", "import torch, json; print(json.dumps({'torch': torch.__version__, "
                "'threads': torch.get_num_threads()}))")
    session.run("mkdir", "-p", "runs", external=True)


@nox.session(venv_backend="none")
def train(session):
    card = session.posargs[0] if session.posargs else "cards/encoder.json"
    session.run("torchrun", "--standalone", "--nnodes", "1", "--nproc-per-node", "3", "--max-restarts", "0",
                "wc_train.py", "--model-card", card, "--epochs", "1", "--pg-timeout", "20",
                "--fmt", "%(asctime)s [r{rank}] %(levelname)s %(message)s", external=True)
