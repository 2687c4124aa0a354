"""yc_make_nb.py OUT: write the recipe notebook train.ipynb (parameters cell tagged `parameters`)."""
import sys
import nbformat as nbf
nb = nbf.v4.new_notebook()
p = nbf.v4.new_code_cell("rank = 0\nworld = 3\nport = 29953\nepochs = 2")
p.metadata["tags"] = ["parameters"]
nb.cells = [
    nbf.v4.new_markdown_cell("# DDP recipe (gloo, CPU)\nRun one copy of this notebook per rank (papermill `-p rank R`)."),
    p,
    nbf.v4.new_code_cell("import os, sys\nos.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT=str(port), "
                         "PYTHONUNBUFFERED='1')\nprint(f'rank {rank}/{world} on {os.uname().nodename}, python "
                         "{sys.version.split()[0]}')"),
    nbf.v4.new_code_cell("# the recipe uses torch.distributed features of 2.14 (see recipe README)\n"
                         "import yc_train\nyc_train.main(['--rank', str(rank), '--world', str(world), '--epochs', "
                         "str(epochs), '--pg-timeout', '60', '--require', 'torch>=2.14,numpy>=2.0', '--fmt', "
                         "'%(asctime)s %(levelname)s [r{rank}] %(message)s'])"),
    nbf.v4.new_code_cell("print('rank', rank, 'finished')"),
]
nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, sys.argv[1])
