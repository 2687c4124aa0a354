#!/bin/bash
# vc_ckpt_agent.sh LOG PATTERN_FILE PATTERN RANK: the node's preemption / checkpoint agent. When PATTERN shows up in
# the job log, it moves the rank's process into a freezer cgroup and freezes it for a CRIU-style dump; the dump
# helper never reports back, the agent gives up after its own 60 s deadline and thaws the cgroup. Log: LOG.
LOG=$1 SRC=$2 PAT=$3 RANKPID_PAT=$4
say() { printf '%s ckpt-agent[%d]: %s\n' "$(date '+%Y-%m-%dT%H:%M:%S%z')" $$ "$*" >> "$LOG"; }
say "watching $SRC"
until grep -q "$PAT" "$SRC" 2>/dev/null; do sleep 0.2; done
pid=$(sed -n "s/$RANKPID_PAT/\1/p" "$SRC" | head -1)
CG=/sys/fs/cgroup/freezer/ckpt-$pid; mkdir -p $CG
echo "$pid" > $CG/cgroup.procs
say "preemption notice for pid $pid: freezing cgroup $CG for dump (criu dump --leave-running)"
echo FROZEN > $CG/freezer.state
say "freezer.state=$(cat $CG/freezer.state); waiting for dump helper"
sleep 60
say "dump helper did not report within 60s, giving up; thawing $CG"
echo THAWED > $CG/freezer.state
say "freezer.state=$(cat $CG/freezer.state)"
