#!/bin/bash
# Snakemake 9 (Snakefile: rule train_rank per env:// rank, --cores 3 so all three run at once; rule summary greps the
# rank logs). Layout: snakemake's console (snakemake.console), its own run log .snakemake/log/<stamp>.snakemake.log,
# and the rule log files logs/train_r<R>.log. Healthy run (FutureWarning, c10d hostname warnings).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice snakemake --cores 3 --snakefile Snakefile --config port=29916 --printshellcmds \
  > snakemake.console 2>&1
rc snakemake $?
