"""uc_luigi_tasks.py: luigi pipeline of the training job. TrainJob requires one TrainRank per rank; each TrainRank is
an ExternalProgramTask running one env:// rank of uc_train.py and, when the rank exits 0, writes its marker
markers/train-rank<R>.done (the task's output target, which luigi checks to decide what is left to run)."""
import os
import sys

import luigi
from luigi.contrib.external_program import ExternalProgramTask


class TrainRank(ExternalProgramTask):
    rank = luigi.IntParameter()
    world = luigi.IntParameter(default=3)
    port = luigi.IntParameter(default=29877)
    epochs = luigi.IntParameter(default=2)

    def program_args(self):
        return [sys.executable, "uc_train.py", "--epochs", str(self.epochs), "--pg-timeout", "40", "--final-eval",
                "--fmt", "%(asctime)s %(levelname)s [rank {rank}] %(message)s"]

    def program_environment(self):
        env = os.environ.copy()
        env.update(RANK=str(self.rank), LOCAL_RANK=str(self.rank), WORLD_SIZE=str(self.world),
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=str(self.port))
        return env

    def output(self):
        return luigi.LocalTarget(f"markers/train-rank{self.rank}.done")

    def run(self):
        super().run()
        with self.output().open("w") as fh:
            fh.write(f"rank {self.rank} ok\n")


class TrainJob(luigi.WrapperTask):
    world = luigi.IntParameter(default=3)

    def requires(self):
        return [TrainRank(rank=r, world=self.world) for r in range(self.world)]
