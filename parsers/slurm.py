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
    Pattern(
        "mpi.process_exited",
        triggers=("noticed that process rank",),
        regex=r"noticed that process rank (?P<failed_rank>\d+) with PID (?P<child_pid>\d+) on node (?P<host>\S+) exited on signal (?P<signal_num>\d+)",
        level="ERROR",
    ),
)
