"""Huawei Ascend NPUs: HCCL (the collective library torch_npu's ProcessGroupHCCL and MindSpore
use) and the CANN runtime's error messages. CANN prints an error code before its message,
then a ``Solution:`` line and its own traceback::

    [ERROR] 2025-04-08-18:07:20 (PID:1292363, Device:1, RankID:1) ERR01100 OPS call acl api failed.
    EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck
    EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.

EI0006 is HCCL's collective timeout (NCCL's watchdog timeout on an Ascend): the printer waited
for a peer. EJ0001 is the device's HCCP process refusing to start, most often because a
previous training process still holds the NPU.
"""

from parsers.base import Pattern

SOURCE = "hccl"

PATTERNS = (
    Pattern(
        "hccl.socket_timeout",
        triggers=("Remote Rank did not send the data in time",),
        regex=r"(?:EI0006: )?(?:\[PID: \d+\] )?[^\n]*?Getting socket times out\. Reason: Remote Rank did not send the data in time",
        source=SOURCE,
        level="ERROR",
        examples=(
            "[rank1]: EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote "
            "Rank did not send the data in time. Please check the reason for the rank being stuck",
        ),
    ),
    Pattern(
        "hccl.hccp_init_failed",
        triggers=("Failed to initialize the HCCP process",),
        regex=r"Failed to initialize the HCCP process\. Reason: (?P<error_text>[^\n]*)",
        source=SOURCE,
        level="ERROR",
        examples=(
            "EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last "
            "training process is running.",
        ),
    ),
)
