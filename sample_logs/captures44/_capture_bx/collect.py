#!/usr/bin/env python3
"""collect.py NAME GLOB...: copy the job's log files (globs relative to the scratch dir $JOBS/NAME, default
/home/user/capBX/jobs) into $OUT/NAME/ (default: the batch folder above this script), layout kept; then writes the
.correlatorignore (exactly README.md, truth.json, .correlatorignore). The only change to any byte: the interpreter
and cache prefixes of the capturing account's home are neutralised the way every earlier capture batch did it
(`~/.pyenv/` -> `/home/user/.pyenv/`, `~/.cache/` -> `/home/user/.cache/`, ~ the capturing account's home), any other
path under that home or under the top directory holding this script -> a neutral /home/user/... one, and the per-job
scratch dir /home/user/capBX/jobs/NAME/ (named after the folder slug) -> /home/user/project/. The machine prefixes
are derived at run time (home from expanduser, the top directory from this script's own location)."""
import glob, os, sys

_HOME = os.path.expanduser("~").rstrip("/").encode()
_HERE = os.path.dirname(os.path.abspath(__file__))
_TOP = ("/" + _HERE.strip("/").split("/")[0]).encode()
HOME_MAP = [(b"/home/user/capBI/venv/", b"/home/user/venv/"), (_HOME + b"/.pyenv/", b"/home/user/.pyenv/"), (_HOME + b"/.cache/", b"/home/user/.cache/"),
            (_HERE.encode() + b"/", b"/home/user/capBX/scripts/"), (_TOP + b"/", b"/home/user/top/")]
if _HOME != b"/home/user":
    HOME_MAP.append((_HOME + b"/", b"/home/user/"))
name, pats = sys.argv[1], sys.argv[2:]
old = os.environ.get("SRC_NAME", name)   # scratch dir of a job whose folder was renamed after the run
# the scratch dir is named after the capture folder (whose slug describes the fault): neutralise it to a plain project dir
HOME_MAP.insert(0, (("/home/user/capBX/jobs/" + old + "/").encode(), b"/home/user/project/"))
HOME_MAP.insert(1, (("/home/user/capBX/jobs/" + old).encode(), b"/home/user/project"))
HOME_MAP.insert(2, (b"/home/user/capBX/", b"/home/user/"))
src = os.path.join(os.environ.get("JOBS", "/home/user/capBX/jobs"), name)
dst = os.path.join(os.environ.get("OUT", os.path.join(_HERE, "..")), name)
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
