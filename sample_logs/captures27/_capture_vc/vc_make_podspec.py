"""vc_make_podspec.py OUT.json PY PORT WORKER1_MEM MASTER_DELAY EXTRA...: a PyTorchJob-shaped pod spec (master-0,
worker-0, worker-1), env as the training operator sets it (MASTER_ADDR = master pod name, RANK, WORLD_SIZE)."""
import json, sys
out, py, port, w1mem, delay = sys.argv[1:6]; extra = sys.argv[6:]
pods = []
for i, (name, mem) in enumerate([("pytorchjob-master-0", "3Gi"), ("pytorchjob-worker-0", "3Gi"),
                                  ("pytorchjob-worker-1", w1mem)]):
    pods.append({"name": name, "container": "pytorch", "resources": {"limits": {"memory": mem, "cpu": "1"}},
                 "startDelaySeconds": float(delay) if i == 0 else 0,
                 "env": {"MASTER_ADDR": "pytorchjob-master-0", "MASTER_PORT": port, "WORLD_SIZE": "3",
                         "RANK": str(i), "PYTHONUNBUFFERED": "1"},
                 "command": [py, "-u", "vc_train.py"] + extra})
json.dump({"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "namespace": "ml-train", "pods": pods},
          open(out, "w"), indent=1)
