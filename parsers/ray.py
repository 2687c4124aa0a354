"""Ray: what the driver and its workers print when an actor or a node of the cluster dies.

Ray Train runs each rank in an actor (``RayTrainWorker``) on some node of the cluster; the
driver learns of a rank's death as an ``ActorDiedError`` (a ``RayActorError``) whose message
lists the actor's context a tab-indented field a line and then why it died (ray's
``python/ray/exceptions.py``, ``ActorDiedError.__init__``)::

    ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.
    \tclass_name: RayTrainWorker
    \tactor_id: 4473bb2424de8ebfec88acc402000000
    \tpid: 6420
    \tip: 10.72.56.3
    The actor is dead because its node has died. Node Id: 677df2a9...

The GCS says so of the node itself when its raylet stops answering, in the driver's log
(``worker.py`` WARNING) or the GCS's (``gcs_server.out``); before Ray 2.x with the node's
``ip``, after with ``address`` and ``node name``. The node's address is the event's
``dead_node``: the rules about a node's death blame that node, not the process that
printed the news.
"""

from parsers.base import Pattern

SOURCE = "ray"

PATTERNS = (
    Pattern(
        "ray.actor_died",
        triggers=("The actor died unexpectedly before finishing this task.",),
        regex=(
            r"(?P<exc_type>[\w.]*(?:RayActorError|ActorDiedError)): The actor died unexpectedly before finishing "
            r"this task\.(?:\n\tclass_name: (?P<actor_class>\S+))?"
            r"(?:(?:\n\t[a-z_]+: [^\n]*)*?\n\tip: (?P<actor_node>\S+))?(?:\n\t[a-z_]+: [^\n]*)*"
            r"(?:\n(?P<death_cause>The actor is dead because [^\n.]*))?"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.\n"
            "\tclass_name: RayTrainWorker\n\tactor_id: 4473bb2424de8ebfec88acc402000000\n\tpid: 6420\n"
            "\tnamespace: c53c8492-c985-4b6e-9247-fdf5ea623abd\n\tip: 10.72.56.3\n"
            "The actor is dead because its node has died. Node Id: 677df2a9020c5db45e755b0078c469e2ce51e05ea093ed3b283505a0",
        ),
    ),
    # the raylet's report of a worker process that died without raising (core_worker's
    # "Worker unexpectedly exits": SIGKILL, a native crash, `ray stop --force`), with the
    # dead process's pid, the rank's whose own lines carry that pid
    Pattern(
        "ray.worker_died",
        triggers=("worker died or was killed while executing a task",),
        # (the sentence's head only: a terminal that wraps the raylet's long line at 80 columns cuts it
        # within "by an unexpected system error")
        regex=(
            r"A worker died or was killed while executing a task(?: by an unexpected system error\.)?"
            r"(?:[^\n]*?\bWorker PID: (?P<worker_pid>\d+))?(?:[^\n]*?\bWorker exit type: (?P<exit_type>\w+))?"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "(raylet) A worker died or was killed while executing a task by an unexpected system error. To "
            "troubleshoot the problem, check the logs for the dead worker. Lease ID: 0600 Worker ID: 4a3e Node ID: "
            "75d2 Worker IP address: 127.0.0.1 Worker port: 45523 Worker PID: 16435 Worker exit type: SYSTEM_ERROR "
            "Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.",
            "(raylet) A worker died or was killed while executing a task by an unexpected system",
        ),
    ),
    # the raylet's memory monitor's periodic summary of the workers it killed to keep its node
    # from running out of memory (node_manager.cc), sent to the driver's console as "(raylet) ..."
    # with the node's address (a terminal may wrap the line before "node (ID: ...")
    Pattern(
        "ray.memory_monitor_kill",
        triggers=("killed due to memory pressure (OOM)",),
        regex=(
            r"(?P<oom_killed>[1-9]\d*) Workers? \(tasks /\s+actors\) killed due to memory pressure \(OOM\)"
            r"(?:[^\n]*\n?[^\n]*?\bnode \(ID: [0-9a-f]+(?:\n[0-9a-f]+)?, IP: (?P<oom_node>[^)\s]+)\))?"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "(raylet) [2025-12-07 09:57:19,206 E 393463 393463] (raylet) node_manager.cc:3277: 2 Workers (tasks / "
            "actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: "
            "8289f87b78d161ae21bf723c7c57838345a56248dd48a2c3f0d5ac73, IP: 172.24.0.226) over the last time period.",
        ),
    ),
    Pattern(
        "ray.node_marked_dead",
        triggers=("has been marked dead because the detector has missed too many heartbeats",),
        regex=(
            r"The node with node id: (?P<dead_node_id>\w+) and (?:ip|address): (?P<dead_node>[^\s]+)"
            r"(?: and node name: \S+)? has been marked dead because the detector has missed too many heartbeats"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "2021-09-05 05:42:38,294     WARNING worker.py:1228 -- The node with node id: "
            "0fc14938add3345146c57e92449e77a584cace230879f50fd0813cc0 and ip: 172.31.57.35 has been marked dead "
            "because the detector has missed too many heartbeats from it. This can happen when a raylet crashes "
            "unexpectedly or has lagging heartbeats.",
            "The node with node id: ada3a3771fac751bd7c6b674e3b5e2df045b93550e6d31a410cad0be and address: "
            "156.176.0.154 and node name: 156.176.0.154 has been marked dead because the detector has missed too "
            "many heartbeats from it. This can happen when a \t(1) raylet crashes unexpectedly (OOM, etc.)",
        ),
    ),
)
