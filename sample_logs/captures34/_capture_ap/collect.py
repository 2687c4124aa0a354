#!/usr/bin/env python3
"""collect.py NAME GLOB...: copy the job's log files (globs relative to the scratch dir $JOBS/NAME, default
/home/user/capAB/jobs) into $OUT/NAME/ (default: the batch folder above this script), layout kept; then writes the
.correlatorignore (exactly README.md, truth.json, .correlatorignore). The only change to any byte: the interpreter
and cache prefixes of this machine's root account are neutralised the way every earlier capture
batch did it (`~/.pyenv/` -> `/home/user/.pyenv/`, `~/.cache/` -> `/home/user/.cache/`, ~ the capturing account's home),
and the per-job scratch dir /home/user/capAB/jobs/NAME/ (named after the folder slug) -> /home/user/project/."""
import glob, os, sys

_HOME = os.path.expanduser("~").encode()
HOME_MAP = [(_HOME + b"/.pyenv/", b"/home/user/.pyenv/"), (_HOME + b"/.cache/", b"/home/user/.cache/"), (os.path.dirname(os.path.abspath(__file__)).encode() + b"/", b"/home/user/capAB/scripts/"), (("/" + os.path.abspath(__file__).split("/")[1] + "/").encode(), b"/home/user/top/"), (_HOME + b"/", b"/home/user/")]
name, pats = sys.argv[1], sys.argv[2:]
# the scratch dir is named after the capture folder (whose slug describes the fault): neutralise it to a plain project dir
HOME_MAP.insert(0, (("/home/user/capAB/jobs/" + name + "/").encode(), b"/home/user/project/"))
src = os.path.join(os.environ.get("JOBS", "/home/user/capAB/jobs"), name)
dst = os.path.join(os.environ.get("OUT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")), name)
os.makedirs(dst, exist_ok=True)
n = 0
for pat in pats:
    for f in sorted(glob.glob(os.path.join(src, pat), recursive=True)):
        if not os.path.isfile(f):
            continue
        rel = os.path.relpath(f, src)
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        data = open(f, "rb").read()
        for old, new in HOME_MAP:
            data = data.replace(old, new)
        with open(os.path.join(dst, rel), "wb") as out:
            out.write(data)
        n += 1
with open(os.path.join(dst, ".correlatorignore"), "w") as f:
    f.write("README.md\ntruth.json\n.correlatorignore\n")
print(f"{name}: {n} files")
