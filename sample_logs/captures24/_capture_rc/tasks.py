"""tasks.py: the project's task runner (invoke-style, built on typer): `python tasks.py prepare|train|...`.
Each task echoes the commands it runs (`[tasks] $ ...`) and their exit status."""
import shlex, subprocess, sys, time
import typer
app = typer.Typer(add_completion=False)
def run(cmd, **kw):
    typer.echo(f"[tasks {time.strftime('%H:%M:%S')}] $ {shlex.join(cmd)}"); sys.stdout.flush()
    rc = subprocess.call(cmd, **kw)
    typer.echo(f"[tasks {time.strftime('%H:%M:%S')}] exit status {rc}"); sys.stdout.flush()
    return rc
@app.command()
def prepare(cache_dir: str = "cache"):
    """make the cache dir (the dataset cache itself is built by rank 0 on first use)"""
    raise typer.Exit(run(["mkdir", "-p", cache_dir]))
@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def train(ctx: typer.Context, nproc: int = 3, logdir: str = "", tee: bool = False):
    """torchrun the trainer; extra args go to rc_train.py"""
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={nproc}"]
    if logdir: cmd += ["--log-dir", logdir] + (["--tee", "3"] if tee else ["--redirects", "3"])
    rc = run(cmd + ["rc_train.py"] + ctx.args)
    if rc: typer.echo(f"[tasks] task 'train' failed (exit {rc})", err=True)
    raise typer.Exit(rc)
if __name__ == "__main__":
    app()
