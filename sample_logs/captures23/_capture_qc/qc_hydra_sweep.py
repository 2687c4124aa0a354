"""qc_hydra_sweep.py: Hydra app (multirun sweeps over the learning rate); each Hydra job launches torchrun
--standalone with qc_train.py, streams torchrun's output into torchrun.log in the job's output dir and logs its own
progress through Hydra's job logging (<job dir>/qc_hydra_sweep.log)."""
import logging, os, subprocess, sys
import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

log = logging.getLogger(__name__)

@hydra.main(version_base=None, config_path="conf", config_name="sweep")
def main(cfg: DictConfig) -> float:
    out = HydraConfig.get().runtime.output_dir; num = HydraConfig.get().job.num
    here = hydra.utils.get_original_cwd()
    cmd = ["torchrun", "--standalone", f"--nproc-per-node={cfg.nproc}", os.path.join(here, "qc_train.py"),
           "--rows", str(cfg.rows), "--epochs", str(cfg.epochs), "--lr", str(cfg.lr), "--warn", "--class-counts"]
    log.info("job %d: lr=%s -> %s", num, cfg.lr, " ".join(cmd))
    with open(os.path.join(out, "torchrun.log"), "w") as f:
        rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=out)
    if rc:
        log.error("job %d: torchrun exited %d", num, rc); raise SystemExit(rc)
    acc = None
    for line in open(os.path.join(out, "torchrun.log")):
        if "train acc" in line: acc = float(line.rsplit(" ", 1)[1])
    log.info("job %d: finished, train acc %s", num, acc)
    return acc

if __name__ == "__main__":
    main()
