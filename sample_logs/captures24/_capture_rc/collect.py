#!/usr/bin/env python3
"""collect.py NAME GLOB...: copy the job's log files (globs relative to the scratch dir $JOBS/NAME, default
/home/user/jobsP) into $OUT/NAME/ (default: the batch folder above this script), layout kept, bytes unchanged;
then writes the .correlatorignore (exactly README.md, truth.json, .correlatorignore)."""
import glob, os, shutil, sys

name, pats = sys.argv[1], sys.argv[2:]
src = os.path.join(os.environ.get("JOBS", "/home/user/jobsP"), name)
dst = os.path.join(os.environ.get("OUT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")), name)
os.makedirs(dst, exist_ok=True)
n = 0
for pat in pats:
    for f in sorted(glob.glob(os.path.join(src, pat), recursive=True)):
        if not os.path.isfile(f):
            continue
        rel = os.path.relpath(f, src)
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copyfile(f, os.path.join(dst, rel))
        n += 1
with open(os.path.join(dst, ".correlatorignore"), "w") as f:
    f.write("README.md\ntruth.json\n.correlatorignore\n")
print(f"{name}: {n} files")
