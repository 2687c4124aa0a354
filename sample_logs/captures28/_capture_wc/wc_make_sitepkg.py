"""wc_make_sitepkg.py DIR VERSION: write the site's model package wcmodel (VERSION) into DIR/wcmodel. 1.4.x: the
current layout; 1.3.x: the older one (bottleneck of hidden // 4 in the middle layer)."""
import os, sys
d, ver = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(d, "wcmodel"), exist_ok=True)
mid = "hidden // 4" if ver.startswith("1.3") else "64"
with open(os.path.join(d, "wcmodel", "__init__.py"), "w") as f:
    f.write(f'''"""wcmodel {ver}: the tabular encoder used by the wc training jobs."""
import torch.nn as nn

__version__ = "{ver}"


def build(hidden=128):
    mid = {mid}
    return nn.Sequential(nn.Linear(16, hidden), nn.ReLU(), nn.Linear(hidden, mid), nn.ReLU(), nn.Linear(mid, 4))
''')
