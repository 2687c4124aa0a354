#!/bin/bash
# LightningCLI: `python ea_cli.py fit --config cli_healthy.yaml` (cpu, devices 2, ddp over gloo); console.log = both
# processes' output; CSVLogger under runs/tiny/.
# Nothing wrong: Lightning's own warnings (few DataLoader workers, etc.), a WARNING and an ERROR with a caught
# ConnectionRefusedError traceback from each rank at fit start; max_epochs=3 reached.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE"/cli_*.yaml .
timeout -s TERM 100 nice $PY ea_cli.py fit --config cli_healthy.yaml > console.log 2>&1
rc launcher $?
