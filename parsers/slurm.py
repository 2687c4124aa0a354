"""Slurm (srun, slurmstepd) and MPI launcher lines: docs/formats/wrappers.md §1, §3.

``task N`` is the Slurm task id, a rank only when Slurm starts one task per rank.
"""

from parsers.base import Pattern

SOURCE = "slurm"

PATTERNS = (
    Pattern(
        "slurm.cancelled",
        triggers=("CANCELLED AT",),
        regex=(
            r"\*\*\* (?P<entity>JOB|STEP) (?P<slurm_job>[\w.]+) ON (?P<host>\S+) CANCELLED AT "
            r"(?P<cancel_time>\S+)(?: DUE TO (?P<reason>[A-Z ]+?))?(?:, SEE SLURMCTLD LOG FOR DETAILS)? \*\*\*"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "slurmstepd: error: *** JOB 494583 ON ... CANCELLED AT 2024-04-20T09:09:37 DUE TO TIME LIMIT ***",
            "slurmstepd-localhost: error: *** STEP 204.0 ON localhost CANCELLED AT 2021-02-13T16:38:01 ***",
        ),
    ),
    Pattern(
        "slurm.task_exit",
        triggers=("srun: error:",),
        regex=r"srun: error: (?P<host>\S+): tasks? (?P<tasks>[\d,-]+): (?P<task_status>Exited with exit code (?P<exitcode>\d+)|Terminated|Killed|Out Of Memory)",
        source=SOURCE,
        level="ERROR",
        examples=("srun: error: nid008637: tasks 0-2: Terminated",),
    ),
    Pattern(
        "slurm.oom_kill",
        triggers=("oom-kill event", "oom_kill event"),
        regex=r"Detected (?P<oom_kills>\d+) oom[-_]kill event(?:s|\(s\))? in (?:step |StepId=)?(?P<step>[\w.]+)",
        examples=(
            "slurmstepd: error: Detected 2 oom-kill event(s) in step 3756240.batch cgroup.",
            "slurmstepd: error: Detected 1 oom_kill event in StepId=11300781.0. Some of the step tasks have been OOM Killed.",
        ),
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "slurm.srun",
        envelope=True,
        triggers=("srun: ", "slurmstepd"),
        regex=r"^(?:srun|slurmstepd[\w.-]*)(?:\.slurm)?: (?:(?P<lvl>error): )?",
        source=SOURCE,
    ),
    # Open MPI's summary of the first rank that exited non-zero ("... thus causing the job to
    # be terminated. The first process to do so was:" then "Process name: [[jobid,1],RANK]")
    Pattern(
        "mpi.first_failed",
        triggers=("The first process to do so was",),
        # (a paste cut after the first line is still the launcher's report of a failure)
        regex=r"The first process to do so was:(?:\s*\n\s*Process name: \[\[\d+,\d+\],(?P<failed_rank>\d+)\])?",
        level="ERROR",
        examples=(
            "the job to be terminated. The first process to do so was:\n\n  Process name: [[29322,1],1]\n  Exit code:    1",
        ),
    ),
    # Open MPI's help text when a process called MPI_Abort (ompi/runtime/help-mpi-api.txt): the
    # rank that chose to end the job (mpi4py's default for an uncaught exception, a program's
    # own check), and the code it gave; Open MPI then kills every process
    Pattern(
        "mpi.abort_invoked",
        triggers=("MPI_ABORT was invoked on rank",),
        # (a two-line paste's hard-wrap joiner may glue the lines: "MPI_COMM_WORLDwith")
        regex=(r"MPI_ABORT was invoked on rank (?P<failed_rank>\d+) in communicator (?P<comm>\S+?)\s*"
               r"with errorcode (?P<exitcode>-?\d+)"),
        level="ERROR",
        examples=(
            "MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD\nwith errorcode 3.",
            "MPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD \nwith errorcode -1.",
        ),
    ),
    # Open MPI's help texts when mpirun could not start the program: checked before launch, on
    # every process alike ("unable to find the specified executable file, and therefore did not
    # launch the job"), or on one node at its process's start ("could not access or execute an
    # executable: ... Node: HOST ... while attempting to start process rank N")
    Pattern(
        "mpi.executable_not_found",
        triggers=("was unable to find the specified executable file",),
        regex=r"mpirun was unable to find the specified executable file,?\s*and therefore\s*did not launch the job",
        level="ERROR",
        examples=("mpirun was unable to find the specified executable file, and therefore\ndid not launch the job.  "
                  "This error was first reported for process\nrank 0; it may have occurred for other processes as well.",),
    ),
    # Open MPI's help text when a process could not initialise MPI (help-opal-runtime.txt,
    # help-orte-runtime.txt, help-mpi-runtime.txt): "It looks like opal_init failed for some
    # reason; your parallel process is likely to abort", the failing step named below it
    # ("opal_shmem_base_select failed"); then MPI_ERRORS_ARE_FATAL on a NULL communicator
    Pattern(
        "mpi.init_failed",
        triggers=("failed for some reason; your parallel process is",),
        regex=(r"It looks like (?P<mpi_init_stage>opal_init|orte_init|MPI_INIT|ompi_mpi_init|ompi_rte_init) failed "
               r"for some reason; your parallel process is\s+likely to abort"
               r"(?:[\s\S]*?\n\s+(?P<mpi_init_step>\w+(?:: \w+)? failed)\s*\n)?"),
        level="ERROR",
        examples=(
            "It looks like opal_init failed for some reason; your parallel process is\nlikely to abort.  There are many "
            "reasons that a parallel process can\nfail during opal_init; some of which are due to configuration or\n"
            "environment problems.  This failure appears to be an internal failure;\nhere's some additional "
            "information (which may only be relevant to an\nOpen MPI developer):\n\n  opal_shmem_base_select failed\n"
            "  --> Returned value -1 instead of OPAL_SUCCESS",
        ),
    ),
    Pattern(
        "mpi.exec_failed_on_node",
        triggers=("was unable to launch the specified application",),
        regex=(r"mpirun was unable to launch the specified application as it could\s*not\s*"
               r"(?:access\s*or execute|find)\s*an\s*executable:"
               r"(?:[\s\S]*?\bNode:\s*(?P<exec_node>[\w.-]+))?"
               r"(?:[\s\S]*?while attempting to start process rank (?P<failed_rank>\d+))?"),
        level="ERROR",
        examples=(
            "mpirun was unable to launch the specified application as it could not access\nor execute an executable:"
            "\n\nExecutable: ./attention-mpi\nNode: rdma5\n\nwhile attempting to start process rank 8.",
            "mpirun was unable to launch the specified application as it could not find\nan executable:\n\n"
            "Executable: a.out_32\nNode: compil02\n\nwhile attempting to start process rank 1.",
        ),
    ),
    # Open MPI's notice that it ended the job because a process exited non-zero (its
    # "first process to do so" report, when printed, follows): a failure, whose rank it names
    # there or nowhere
    Pattern(
        "mpi.job_aborted",
        triggers=("Per user-direction, the job has been aborted",),
        regex=(r"Primary job\s*terminated normally, but (?P<n_failed>\d+) process(?:es)? returned\s*"
               r"a non-zero exit code\.?\s*Per user-direction, the job has been aborted"),
        level="ERROR",
        examples=("Primary job  terminated normally, but 1 process returned\na non-zero exit code. Per user-direction, "
                  "the job has been aborted.",),
    ),
    # Open MPI's help messages about a lost machine (orte/mca/errmgr help text, framed by
    # dashed lines): the daemon of a node stopped answering, or a peer process vanished. The
    # node is named on a line of its own ("Remote daemon: [[j,0],n] on node HOST", "hostname:
    # HOST", "Peer host:  HOST"), which is the machine the failure blames.
    Pattern(
        "mpi.lost_daemon",
        triggers=("ORTE has lost communication with",),
        # (the help text is one event: the node it names, on a line of its own, is read from it)
        regex=(r"ORTE has lost communication with (?:a remote daemon|its daemon located on node)"
               r"(?:[\s\S]*?(?:\n\s*hostname:\s+|Remote daemon\s*: \[\[\d+,\d+\],\d+\] on node )(?P<dead_node>[\w.-]+))?"),
        level="ERROR",
        examples=("ORTE has lost communication with a remote daemon.",
                  " ORTE has lost communication with its daemon located on node:\n\n   hostname:  ip-10-1-2-3.ec2.internal"),
    ),
    Pattern(
        "mpi.lost_daemon_node",
        triggers=("Remote daemon:",),
        # (not anchored: a paste's re-wrapping may glue it to the HNP daemon line above)
        regex=r"Remote daemon\s*: \[\[\d+,\d+\],\d+\] on node (?P<dead_node>[\w.-]+)",
        level="ERROR",
        examples=("Remote daemon: [[11377,0],1] on node mpijob-0-worker-0",
                  "  Remote daemon: [[43015,0],20] on node tf-bert-1572827779-worker-19"),
    ),
    Pattern(
        "mpi.peer_disconnected",
        triggers=("An MPI communication peer process has unexpectedly disconnected",),
        regex=(r"An MPI communication peer process has unexpectedly disconnected"
               r"(?:[\s\S]*?\n\s*Peer host:\s+(?P<dead_node>[\w.-]+))?"),
        level="ERROR",
    ),
    Pattern(
        "mpi.peer_host",
        triggers=("Peer host:",),
        regex=r"(?m)^\s*Peer host:\s+(?P<dead_node>[\w.-]+)\s*$",
        level="ERROR",
        examples=("  Local host: node-a\n  Local PID:  7720\n  Peer host:  node-b",),
    ),
    # pyxis / enroot (Slurm's container plugin): the container could not start the task
    Pattern(
        "slurm.container_failed",
        triggers=("enroot-switchroot: ", "pyxis: ", "enroot-mount: ", "enroot-nsenter: "),
        regex=(r"(?P<container_tool>enroot-\w+|pyxis): "
               r"(?P<container_error>[^\n]*?(?:failed|error|couldn't|could not)[^\n]*)"),
        source=SOURCE,
        level="ERROR",
        examples=("enroot-switchroot: failed to execute: /bin/bash: No such file or directory",
                  "pyxis: couldn't start container",
                  "slurmstepd: error: pyxis: container start failed with error code: 1"),
        near_misses=("pyxis: importing docker image: nvcr.io#nvidia/pytorch:24.01-py3",),
    ),
    # submitit (the Python front end of Slurm and of its local executor) when the job ran out of
    # its time limit: its own log line, and the exception the caller gets
    Pattern(
        "slurm.submitit_timeout",
        triggers=("Job has timed out. Ran", "this job is timed-out", "Job not requeued because: timed-out"),
        regex=(r"Job has timed out\. Ran (?P<ran_min>\d+) minutes out of requested (?P<limit_min>\d+) minutes"
               r"|Caught signal SIGUSR2 on \S+: this job is timed-out|Job not requeued because: timed-out"),
        source=SOURCE,
        level="ERROR",
        examples=("submitit INFO (2026-12-06 05:12:09,881) - Job has timed out. Ran 1 minutes out of requested 1 minutes.",
                  "submitit WARNING (2022-08-12 02:06:11,453) - Caught signal SIGUSR2 on gpu-7: this job is timed-out.",
                  "submitit.core.utils.UncompletedJobError: Job not requeued because: timed-out and not checkpointable."),
        near_misses=("submitit WARNING (2022-08-12 02:06:11,453) - Caught signal SIGUSR2 on SERVER_NAME: this job is preempted.",),
    ),
    # submitit's word when Slurm preempts the job (its signal handler sees the job has not run
    # out of time): the attempt was stopped from outside, whether or not it is requeued
    Pattern(
        "slurm.submitit_preempted",
        triggers=("this job is preempted",),
        regex=r"Caught signal (?P<signal_name>SIG\w+) on (?P<host>[\w.-]+): this job is preempted",
        source=SOURCE,
        level="ERROR",
        examples=("submitit WARNING (2022-07-12 04:18:45,881) - Caught signal SIGHUP on learnfair0293: this job is preempted.",
                  "submitit WARNING (2022-08-12 02:06:11,453) - Caught signal SIGUSR2 on SERVER_NAME: this job is preempted."),
    ),
    # PALS (HPE Cray's mpiexec, MPICH on Aurora / Polaris) on a rank it saw die: "<host>: rank 256
    # died from signal 11"; the others it then kills die "from signal 15"
    Pattern(
        "mpi.rank_died",
        triggers=("died from signal",),
        regex=r"\brank (?P<failed_rank>\d+) died from signal (?P<signal_num>\d+)",
        level="ERROR",
        examples=("x4006c0s6b0n0.hsn.cm.aurora.alcf.anl.gov: rank 256 died from signal 11",),
    ),
    Pattern(
        "mpi.process_exited",
        triggers=("noticed that process rank",),
        # (a paste may mask the pid and the host: "with PID xxxxxx on node xxxxxxxx"; the line
        # still says which rank died of which signal)
        regex=r"noticed that process rank (?P<failed_rank>\d+) with PID (?:(?P<child_pid>\d+)|\S+) on node (?P<host>\S+) exited on signal (?P<signal_num>\d+)",
        level="ERROR",
        examples=(
            "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).",
            "mpirun noticed that process rank 1 with PID xxxxxx on node xxxxxxxx exited on signal 9 (Killed).",
        ),
    ),
)
