"""slow stage-in of one shard file (writes the file in place, in two halves)"""
import sys, time
src, dst = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
with open(dst, "wb") as f:
    f.write(data[: len(data) // 2]); f.flush()
    time.sleep(float(sys.argv[3]))
    f.write(data[len(data) // 2:])
print(f"stage-in complete: {dst} ({len(data)} bytes)", flush=True)
