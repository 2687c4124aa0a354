#!/usr/bin/env python3
"""collect.py NAME GLOB...: copy the job's log files (globs relative to the scratch dir /home/user/jobs/NAME)
into $OUT/NAME/ (default: the batch folder above this script), layout kept, bytes unchanged except this machine's
interpreter and cache paths, rewritten with sample_logs/_capture/neutral_paths.py's HOME_MAP (as
captures7's collect.py does); then checks that no path of the checkout, of /tmp or of those prefixes is left."""
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "_capture"))
from neutral_paths import CHECKOUT, HOME_MAP  # noqa: E402

name, pats = sys.argv[1], sys.argv[2:]
src = f"/home/user/jobs/{name}"
dst = os.path.join(os.environ.get("OUT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")), name)
MAP = [(a.encode(), b.encode()) for a, b in HOME_MAP]
LEFT_OVER = (CHECKOUT.encode(), b"/tmp/", *(a for a, _ in MAP))
os.makedirs(dst, exist_ok=True)
bad = n = 0
for pat in pats:
    for f in sorted(glob.glob(os.path.join(src, pat), recursive=True)):
        if not os.path.isfile(f):
            continue
        rel = os.path.relpath(f, src)
        data = open(f, "rb").read()
        for a, b in MAP:
            data = data.replace(a, b)
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        open(os.path.join(dst, rel), "wb").write(data)
        n += 1
        for tok in LEFT_OVER:
            if tok in data:
                print(f"LEFT {tok.decode()} in {rel}")
                bad = 1
print(f"{name}: {n} files")
sys.exit(bad)
