"""TensorFlow, XLA and JAX's C++ log records (TSL / absl logging): a stamp with microseconds,
a colon, the level letter and the source file, before the message::

    2019-08-26 18:41:15.943905: E tensorflow/stream_executor/cuda/cuda_driver.cc:828] failed to allocate 2.96G ...
    2024-01-11 05:43:11.726254: E external/xla/xla/service/gpu/nccl_utils.cc:211] Aborting communicator: ...

The level letter is the record's level (E an error, F fatal), as glog's is for torch's own
lines (``python.torch_log``); what the message says is read by the rules and the classifier.
"""

from parsers.base import Pattern

SOURCE = "tsl"

PATTERNS = (
    Pattern(
        "tsl.log",
        envelope=True,
        triggers=(".cc:",),
        regex=r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: (?P<lvl>[IWEF]) [\w./+-]+\.cc:\d+\] ",
        source=SOURCE,
        examples=(
            "2019-08-26 18:41:15.943905: E tensorflow/stream_executor/cuda/cuda_driver.cc:828] failed to allocate "
            "2.96G (3173555200 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory",
            "2024-01-11 05:43:11.726254: E external/xla/xla/service/gpu/nccl_utils.cc:211] Aborting communicator: "
            "0x7f3e427e55b0 due to async NCCL error: remote process exited or there was a network error",
            "2019-11-04 16:59:38.489335: W tensorflow/core/common_runtime/base_collective_executor.cc:216] "
            "BaseCollectiveExecutor::StartAbort Internal: Collective Op  has group_size 8",
        ),
        near_misses=("I1206 12:39:35.790000 26298 torch/distributed/run.py:992] ",),
    ),
    # JAX's xla_bridge found NVIDIA devices on the machine but could not start its CUDA backend,
    # and runs on the CPU instead (jax/_src/xla_bridge.py's warning; the reason follows the colon)
    Pattern(
        "jax.cuda_backend_failed",
        triggers=("CUDA backend failed to initialize: ",),
        regex=r"CUDA backend failed to initialize: (?P<backend_error>[^\n]+?)(?: \(Set TF_CPP_MIN_LOG_LEVEL=0[^)]*\))?\.?$",
        source="jax",
        level="ERROR",
        examples=(
            "CUDA backend failed to initialize: jaxlib/cuda/versions_helpers.cc:90: operation gpuDeviceGetAttribute( "
            "&major, GPU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) failed: CUDA_ERROR_NOT_INITIALIZED (Set "
            "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)",
            "WARNING:jax._src.xla_bridge:CUDA backend failed to initialize: Unable to load CUDA. (Set "
            "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)",
        ),
    ),
)
