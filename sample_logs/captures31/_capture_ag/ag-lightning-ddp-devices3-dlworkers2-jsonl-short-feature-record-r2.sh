#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p data && python ag_mkdata.py data/train.jsonl 1800 2
# one record of the export lost its last two features (export job cut the list)
python - <<'PY'
import json
lines = open("data/train.jsonl").read().splitlines()
r = json.loads(lines[1377]); r["x"] = r["x"][:10]; lines[1377] = json.dumps(r)
open("data/train.jsonl", "w").write("\n".join(lines) + "\n")
PY
python ag_pl.py --strategy ddp --devices 3 --epochs 4 --workers 2 --csv > console.log 2>&1
rc python $?
