#!/bin/bash
# batch-job step wrapper: runs the job step under the job's wall-clock limit (TIME_LIMIT seconds), like a
# scheduler's time limit: SIGTERM at the limit, SIGKILL KILL_WAIT seconds later if the step is still there.
exec timeout -s TERM --kill-after="${KILL_WAIT:-30}" "${TIME_LIMIT:?}" "$@"
