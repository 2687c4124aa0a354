#!/usr/bin/env cwl-runner
# the training workflow: one scatter job per rank (run with cwltool --parallel so that all ranks run at once)
cwlVersion: v1.2
class: Workflow
requirements:
  ScatterFeatureRequirement: {}
inputs:
  ranks: int[]
  world: int
  port: int
  config: File
  trainer: File
  extra: string[]
outputs: []
steps:
  train:
    run: xc_train_rank.cwl
    scatter: rank
    in:
      rank: ranks
      world: world
      port: port
      config: config
      trainer: trainer
      extra: extra
    out: []
