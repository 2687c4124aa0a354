#!/bin/bash
# python bv_ray_actors.py --workers 4 --epochs 3: a local Ray 2.60 instance (ray.init(num_cpus=2)) with 4 Trainer actors
# forming a gloo process group and training a DDP MLP on their shards; the driver prints the epochs and the final
# accuracy, then shuts Ray down. No fault. Console of the driver (Ray forwards the actors' prints, prefixed).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bv_prep.py --out data --shards 4 --rows 2048 > prep.log
$PY bv_ray_actors.py --workers 4 --epochs 3 > console.log 2>&1
rc python $?
