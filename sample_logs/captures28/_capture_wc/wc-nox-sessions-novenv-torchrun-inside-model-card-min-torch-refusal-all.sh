#!/bin/bash
# nox as the site's task runner (noxfile.py, venv_backend="none"): `nox -s prepare train -- cards/encoder-v5.json`.
# The `train` session runs torchrun --standalone 3 procs. The model card pulled from the model registry for this
# run is format 5 and declares min_torch 2.14; the node's torch is 2.13.0+cpu, so every rank refuses at start.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p cards
cat > cards/encoder-v5.json <<'J'
{"name": "tab-encoder", "format": 5, "min_torch": "2.14.0", "hidden": 128, "exported_by": "torch 2.14.0"}
J
timeout -s TERM 120 nice $V/nox -f noxfile.py -s prepare train -- cards/encoder-v5.json > nox.console 2>&1
rc nox $?
