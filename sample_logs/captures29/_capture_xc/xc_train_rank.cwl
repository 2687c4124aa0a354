#!/usr/bin/env cwl-runner
# one rank of the data-parallel trainer as a CWL CommandLineTool (env:// variables from the inputs)
cwlVersion: v1.2
class: CommandLineTool
requirements:
  EnvVarRequirement:
    envDef:
      RANK: $(String(inputs.rank))
      LOCAL_RANK: $(String(inputs.rank))
      WORLD_SIZE: $(String(inputs.world))
      MASTER_ADDR: 127.0.0.1
      MASTER_PORT: $(String(inputs.port))
      OMP_NUM_THREADS: "1"
      PYTHONUNBUFFERED: "1"
  InlineJavascriptRequirement: {}
baseCommand: [/home/user/venv/bin/python]
inputs:
  trainer: {type: File, inputBinding: {position: 0}}
  config: {type: File, inputBinding: {position: 1, prefix: --config}}
  rank: int
  world: int
  port: int
  extra: {type: "string[]", default: [], inputBinding: {position: 2}}
outputs: []
