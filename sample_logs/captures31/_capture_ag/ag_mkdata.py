import json, random, sys
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 0)
n = int(sys.argv[2])
with open(sys.argv[1], "w") as f:
    for i in range(n):
        x = [round(random.gauss(0, 1), 4) for _ in range(12)]
        f.write(json.dumps({"id": i, "x": x, "y": int(x[0] > 0) + int(x[1] > 0.5)}) + "\n")
