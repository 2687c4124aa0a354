"""Kernel log (dmesg, kern.log, journalctl): NVRM Xid lines, GPU off the bus, OOM killer.

Formats and the Xid catalogue: docs/formats/nvidia-smi-xid.md §5-6.
"""

from parsers.base import Pattern

SOURCE = "kernel"

PATTERNS = (
    Pattern(
        "kernel.xid",
        triggers=("NVRM: Xid",),
        regex=(
            r"NVRM: Xid \((?:PCI:)?(?P<pci>[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2})[^)]*\): (?P<xid>\d+), "
            r"(?:pid=(?P<xid_pid>'?<?\w+>?'?), )?(?:name=(?P<process_name>[^,]+), )?(?P<xid_text>.*?)"
            r"(?: caused by previous Xid (?P<caused_by_xid>\d+))?\s*$"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "[14328.198504] NVRM: Xid (PCI:0000:0a:00): 31, pid=13332, name=cuda_plot_k32_v, Ch 00000010, intr 00000000. MMU Fault: ENGINE CE2 HUBCLIENT_CE0 faulted @ 0x7f29_5b8c9000. Fault is of type FAULT_PRIV_VIOLATION ACCESS_TYPE_VIRT_READ",
            "kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by previous Xid 149",
            "NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus",
        ),
    ),
    Pattern(
        "kernel.gpu_fallen_off_bus",
        triggers=("fallen off the bus",),
        regex=r"NVRM: (?:The NVIDIA GPU |GPU )(?P<pci>[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2})",
        source=SOURCE,
        level="CRITICAL",
        examples=(
            "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n               NVRM: (PCI ID: 10de:26b5) installed in this system has\n               NVRM: fallen off the bus and is not responding to commands.",
        ),
    ),
    Pattern(
        "kernel.gpu_uuid",
        triggers=("NVRM: GPU at PCI:",),
        regex=r"NVRM: GPU at PCI:(?P<pci>[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}): (?P<gpu_uuid>GPU-[0-9a-fA-F-]+)",
        source=SOURCE,
    ),
    Pattern(
        "kernel.oom_kill",
        triggers=("Out of memory: Kill", "oom-kill:", "Memory cgroup out of memory"),
        regex=r"(?:Out of memory|Memory cgroup out of memory): Kill(?:ed)? process (?P<victim_pid>\d+) \((?P<process_name>[^)]+)\)|oom-kill:.*?,task=(?P<task_name>[^,]+),pid=(?P<victim_pid2>\d+)",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "kernel.nvrm",
        envelope=True,
        triggers=("NVRM: ",),
        source=SOURCE,
    ),
    Pattern(
        "kernel.dmesg_decode",
        envelope=True,
        triggers=("kern  :", "kern :"),
        regex=r"^kern\s*:(?P<lvl>emerg|alert|crit|err|warn|notice|info|debug)\s*:",
        source=SOURCE,
    ),
    Pattern(
        "kernel.syslog",
        envelope=True,
        triggers=(" kernel: ",),
        regex=r"^\w{3} [ \d]\d \d\d:\d\d:\d\d (?P<host>\S+) kernel: ",
        source=SOURCE,
    ),
)
