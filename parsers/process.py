"""How any program's end is printed: fatal signals and non-zero exit codes.

Launchers, shells and runtimes each say it their own way; the more specific
modules (torchrun's failure table, Slurm's task exits, DeepSpeed's launcher)
come first in the registry and name these lines when they can. What is left
(a pasted "signal 9 (SIGKILL) received by PID 36071", a shell's "Segmentation
fault (core dumped)", a helper process "exited with code 1") is still failure
evidence, whoever printed it. They set no level: often a launcher's summary of
a failure printed better elsewhere, they are no deviation of their own, and the
analysis counts them as failure evidence only where nothing else is
(``correlator/analysis/outcome.sql``).
"""

from parsers.base import Pattern

SOURCE = "app"

PATTERNS = (
    # a program's own word that it is sending a signal to a process: a memory watchdog, a stale-job
    # reaper, a health checker, a wrapper's timeout ("pid 7875 rss 1216 MiB > 1200 MiB, sending
    # SIGKILL", "job 7731 (pid 12523) not in active job list, sending SIGTERM", a logged `kill -9
    # 4242`). Not the launchers' own teardown ("Sending process 4242 closing signal SIGTERM",
    # "Terminating process 4697 via signal SIGTERM"): those name no reason, this line is one
    Pattern(
        "process.signal_sent",
        triggers=("sending SIG", "Sending SIG", "sent SIG", "send SIG", "kill -", "sending signal", "Sending signal"),
        regex=(
            r"\b(?:[Ss]ending|sent|[Ss]end)\s+(?:signal\s+)?(?P<sent_signal>SIG(?:KILL|TERM|INT|HUP|QUIT|ABRT|USR1|USR2)"
            r"|9|15)\b"
            r"|\bkill\s+(?:-s\s+)?-?(?P<kill_signal>9|15|KILL|TERM|SIGKILL|SIGTERM)\s+(?P<target_pid>\d{2,7})\b"
        ),
        level="WARNING",
        examples=(
            "2026-12-07 17:37:53 memwatch: pid 7875 (python3 -u train.py) rss 1216 MiB > 1200 MiB, sending SIGKILL",
            "2026-12-07 20:16:01 trn-c12 reaper: job 7731 (pid 12523) not in active job list, sending SIGTERM",
            "watchdog: no heartbeat from rank 3 for 600 s, sent SIGTERM to pid 4242",
            "+ kill -9 31337",
        ),
        near_misses=(
            "Sending process 4242 closing signal SIGTERM",
            "W1205 08:51:17.876000 4694 torch/multiprocessing/spawn.py:165] Terminating process 4697 via signal SIGTERM",
            "torch.distributed.elastic.multiprocessing.api.SignalException: Process 4242 got signal: 15",
        ),
    ),
    Pattern(
        "process.fatal_signal",
        triggers=("SIGKILL", "SIGSEGV", "SIGBUS", "SIGABRT", "SIGFPE", "SIGILL", "Segmentation fault",
                  "Bus error", "core dumped"),
        regex=r"(?P<signal_name>SIG(?:KILL|SEGV|BUS|ABRT|FPE|ILL))\b|(?P<signal_text>Segmentation fault|Bus error|core dumped)",
        examples=(
            "traceback : signal 9 (SIGKILL) received by PID 36071",
            "Segmentation fault (core dumped)",
            "Caught signal 7 (Bus error: nonexistent physical address)",
        ),
        near_misses=("Sending process 4242 closing signal SIGTERM",),
    ),
    # the shell's report of a child killed by SIGKILL (bash job control: "line 6:  3305 Killed
    # python train.py", or the bare word as the last line), in the C locale and zh_CN's
    Pattern(
        "process.shell_killed",
        triggers=("Killed", "已杀死"),
        regex=r"^(?:Killed|已杀死)\s*$|: line \d+: +(?P<child_pid>\d+) +(?:Killed|已杀死)\b|^\[\d+\][+-]? +(?:Killed|已杀死)\b",
        level="ERROR",
        examples=(
            "/home/u/bin/jac-crun: line 6:  3305 Killed                  python train.py",
            "Killed",
            "已杀死",
            "[1]+  Killed                  python train.py > log.txt",
        ),
        near_misses=("DataLoader worker (pid 32554) is killed by signal: Killed.", "Killed process 4242 (python)"),
    ),
    # a C or CUDA assert() that failed: glibc prints "prog: file.c:12: func: Assertion `x' failed.",
    # a CUDA kernel "file.cu:108: kernel: block: [0,0,0], thread: [8,0,0] Assertion `x` failed."
    # once per failing thread; the Python error that follows ("device-side assert triggered")
    # says only that one fired, this line says which
    Pattern(
        "process.assertion_failed",
        triggers=("Assertion `",),
        regex=r"(?P<assert_site>[^\s:]+\.(?:cu|cuh|c|cc|cpp|h|hpp)):\d+: .*Assertion `(?P<assertion>.+?)['`] failed",
        level="ERROR",
        examples=(
            "/pytorch/aten/src/THCUNN/ClassNLLCriterion.cu:108: cunn_ClassNLLCriterion_updateOutput_kernel: "
            "block: [0,0,0], thread: [8,0,0] Assertion `t >= 0 && t < n_classes` failed.",
            "python: ../nptl/pthread_mutex_lock.c:81: __pthread_mutex_lock: Assertion `mutex->__data.__owner == 0' "
            "failed.",
        ),
        near_misses=("AssertionError: `x` failed", "assert `len(x) > 0` failed in my_check()"),
    ),
    # a C++ CHECK macro that failed (glog, absl, Chromium's base, XLA's client): the site, then
    # "Check failed: <condition>", and the process aborts ("file.cc:123] Check failed: ...", absl's
    # "file.cc(123)] ...", XLA's "file.cc:1291 : Check failed: ..."). The site is required: "Check
    # failed:" alone is also an application's own word for a check it retries
    Pattern(
        "process.check_failed",
        triggers=("Check failed: ",),
        regex=r"(?P<check_site>[\w./+-]+\.(?:cc|cpp|cu|h|hpp)(?::\d+|\(\d+\)))\]? ?:? Check failed: (?P<check>.*)",
        level="ERROR",
        examples=(
            "Exception in device=TPU:0: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:1291 : Check "
            "failed: session.Run({tensorflow::Output(result, 0)}, &outputs) == ::tensorflow::Status::OK() "
            "(Internal: From /job:tpu_worker/replica:0/task:0:",
            "[1353857:1:0711/111512.736019:FATAL:ruby_utils.cc(1053)] Check failed: false.  LogicalLineItems::size()=2",
        ),
        near_misses=("[WARN] [Updater] Check failed: network unreachable",
                     "[balance] check failed: timeout, proceeding without balance gate"),
    ),
    # A launcher that starts its remote processes over ssh could not reach a host: OpenSSH's own
    # words ("ssh: Could not resolve hostname H: ...", "ssh: connect to host H port 22: ..."), which
    # mpirun, pdsh and horovodrun pass through, and DeepSpeed's runner's check of its hostfile
    Pattern(
        "process.ssh_unreachable",
        triggers=("ssh: Could not resolve hostname ", "ssh: connect to host ", "was not reachable via ssh"),
        regex=r"(?:^ssh: Could not resolve hostname |^ssh: connect to host |host=)(?P<ssh_host>[^\s:,]+)"
              r"(?:: | port \d+: | was not reachable via ssh)",
        level="ERROR",
        examples=(
            "ssh: Could not resolve hostname lm-horovod-job-worker-5.lm-horovod-job: Name or service not known",
            "RuntimeError: Using hostfile at /home/552/dz9214/hostfile but host=gadi-gpu-v100-0011 was not reachable "
            "via ssh. If you are running with a single node please remove /home/552/dz9214/hostfile or setup",
        ),
        near_misses=("+ ssh -o PasswordAuthentication=no gadi-gpu-v100-0011 hostname",),
    ),
    # A native allocator giving up before the process aborts: Rust's standard library
    # (the tokenizers, safetensors and polars extensions) prints this and calls abort();
    # C++'s std::bad_alloc says "terminate called after throwing an instance of 'std::bad_alloc'"
    Pattern(
        "process.allocation_failed",
        triggers=("memory allocation of ", "std::bad_alloc"),
        regex=r"memory allocation of (?P<alloc_bytes>\d+) bytes failed|instance of 'std::bad_alloc'",
        level="ERROR",
        examples=(
            "memory allocation of 4194304 bytes failed",
            "terminate called after throwing an instance of 'std::bad_alloc'",
        ),
        near_misses=("memory allocation of 4194304 bytes succeeded after retry",),
    ),
    # glibc's allocator and the compiler's runtime checks abort the process with one line of
    # their own (malloc_printerr's texts, __stack_chk_fail, __fortify_fail): native memory
    # corruption in an extension or the runtime, reported before the SIGABRT that follows
    Pattern(
        "process.heap_corruption",
        triggers=("free(): ", "malloc(): ", "realloc(): ", "munmap_chunk(): ", "malloc_consolidate(): ",
                  "double free or corruption", "corrupted size vs", "corrupted double-linked list",
                  "smashing detected", "overflow detected"),
        regex=(r"(?P<heap_error>(?:free|malloc|realloc|munmap_chunk|malloc_consolidate|_int_free|_int_malloc)"
               r"\(\): (?:double free|invalid|corrupted|unaligned|memory corruption|unsorted)[^\n]*"
               r"|double free or corruption \([^)\n]*\)|corrupted size vs\. prev_size[^\n]*"
               r"|corrupted double-linked list[^\n]*|\*\*\* (?:stack smashing|buffer overflow) detected \*\*\*)"),
        level="ERROR",
        examples=(
            "free(): double free detected in tcache 2",
            "double free or corruption (!prev)",
            "munmap_chunk(): invalid pointer",
            "malloc(): corrupted top size",
            "corrupted size vs. prev_size",
            "*** stack smashing detected ***: terminated",
            "[1,3]<stderr>:free(): invalid pointer",
        ),
        near_misses=("free(): 12 GiB available", "malloc(): allocated 4096 bytes", "buffer overflow in tokenizer"),
    ),
    # PaddlePaddle's launcher naming the one trainer that failed (paddle.distributed.launch:
    # "ABORT!!! Out of all 4 trainers, the trainer process with rank=[3] was aborted. Please check
    # its log." and, in its newer launcher, "Container rank 6 status failed cmd [...] code -6"):
    # the line is about that rank's process, so it carries its rank (a list of several names none)
    Pattern(
        "process.launcher_child_failed",
        triggers=("was aborted", " status failed cmd"),
        regex=(r"^(?:.*the trainer process with rank=\[|Container rank )(?P<failed_rank>\d+)"
               r"(?:\] was aborted| status failed cmd .* code (?P<exitcode>-?\d+))"),
        fills={"failed_rank": "rank"},
        source=SOURCE,
        level="ERROR",
        examples=(
            "ERROR 2021-05-24 17:17:14,611 launch_utils.py:545] ABORT!!! Out of all 8 trainers, the trainer process "
            "with rank=[5] was aborted. Please check its log.",
            "Container rank 2 status failed cmd ['/usr/bin/python', '-u', 'train.py'] code 1 log log/workerlog.2",
        ),
        near_misses=("the trainer process with rank=[1, 2] was aborted. Please check its log.",),
    ),
    Pattern(
        "process.nonzero_exit",
        triggers=("exited with code", "exit code", "exit status", "non-zero exit status", " (rc="),
        # (and a process manager's word on its child: honcho's "trainer2.1 stopped (rc=1)")
        regex=(r"(?i)(?:exited with (?:exit )?code|exit (?:code|status)|returned non-zero exit status"
               r"|\b(?:stopped|exited|terminated|died) \(rc=)"
               r"[ :=]*(?P<exitcode>-?[1-9]\d*)"),
        examples=(
            "0: INFO    24-11-02 11:27:15.349457 - 0:01:15 - Async data process 3544 exited with code 1",
            "subprocess.CalledProcessError: Command '['python', 'train.py']' returned non-zero exit status 1.",
            "trainer2.1 stopped (rc=1)",
        ),
        near_misses=("Process 3544 exited with code 0", "Job finished with exit code 0", "ps.1 stopped (rc=0)"),
    ),
)
