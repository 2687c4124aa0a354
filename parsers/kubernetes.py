"""Kubernetes: what ``kubectl get pods`` and ``kubectl describe pod`` say of a pod that
stopped (docs/formats/wrappers.md §4).

A pod is a worker's machine as the job sees it (``kubectl logs`` files are named by
pod), so the pod's name is the event's ``host``. The kubelet's own words decide the
cause: ``OOMKilled`` (the container passed its memory limit, exit 137), ``Evicted``
(the node ran short of memory or disk and the kubelet removed the pod), ``Error``
(the container's process exited non-zero: its own log says why).
"""

from parsers.base import Pattern

SOURCE = "kubernetes"

_STATUS = r"OOMKilled|OutOfmemory|OutOfcpu|Evicted|Error|CrashLoopBackOff|ContainerStatusUnknown|Init:Error|Init:OOMKilled|Init:CrashLoopBackOff"

PATTERNS = (
    # a row of `kubectl get pods`: NAME READY STATUS RESTARTS AGE [IP NODE ...]
    Pattern(
        "kubernetes.pod_status",
        triggers=("OOMKilled", "Evicted", "Error ", "CrashLoopBackOff", "ContainerStatusUnknown", "OutOfmemory"),
        regex=(
            # `-A` adds a NAMESPACE column, `get all` names the pod `pod/<name>`
            rf"(?m)^\s*(?:[a-z0-9-]+\s+)?(?:pod/)?(?P<host>[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)\s+\d+/\d+\s+"
            rf"(?P<pod_status>{_STATUS})\s+"
            r"(?P<restarts>\d+)(?: \([^)]*\))?\s+\S+"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "fc6b601ca7bb04acb911-n0-0-dn0-0   0/1     OOMKilled   0          126m",
            "      impt           pod/user-directory-646bbbc878-lf4tq                 2/3     OOMKilled   16 (5m13s ago)   57m",
            "llama-finetune-master-0                         0/1     Evicted            0          3h15m",
            "trainer-worker-1   0/1     CrashLoopBackOff   5 (2m ago)   20m",
        ),
        near_misses=(
            "ffc6b601ca7bb04acb911-n0-0         0/1     Completed   0          126m",
            "      impt           pod/modelmesh-serving-ovms-bd59db7d8-fmr2v          4/4     Running     0                55m",
        ),
    ),
    # `kubectl describe pod`: the container's last state and the pod's status reason
    Pattern(
        "kubernetes.terminated_reason",
        triggers=("Reason:",),
        regex=r"^\s*Reason:\s+(?P<pod_status>OOMKilled|Evicted|Error|DeadlineExceeded|Preempting|Shutdown)\s*$",
        source=SOURCE,
        level="ERROR",
        examples=("      Reason:       OOMKilled", "Reason:         Evicted"),
        near_misses=("      Reason:       Completed",),
    ),
    # the kubelet's eviction message (pod status Message:, or an event's text)
    Pattern(
        "kubernetes.node_pressure",
        triggers=("The node was low on resource",),
        regex=r"The node was low on resource: (?P<resource>[\w-]+)\.",
        source=SOURCE,
        level="ERROR",
        examples=(
            "`The node was low on resource: memory.`",
            "  Warning  Evicted    3m    kubelet  The node was low on resource: ephemeral-storage.",
        ),
    ),
)
