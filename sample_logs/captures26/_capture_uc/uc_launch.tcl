#!/usr/bin/env tclsh
# uc_launch.tcl: site launcher in Tcl. Starts one env:// rank per pipeline (`open |cmd 2>@1`, stdout and stderr
# merged), reads every rank with fileevent callbacks, writes each rank's lines with a local timestamp into
# <logdir>/rank-<R>.log and its own lines into <logdir>/launch.log. When a rank fails the others get SIGTERM after a
# grace period.
# usage: tclsh uc_launch.tcl ?-nproc N? ?-port P? ?-logdir DIR? ?-grace S? -- cmd ?arg ...?
set opts [dict create -nproc 2 -port 29500 -logdir logs -grace 10]
while {[llength $argv] && [lindex $argv 0] ne "--"} {
    set argv [lassign $argv k v]; dict set opts $k $v
}
set cmd [lrange $argv 1 end]
set nproc [dict get $opts -nproc]; set logdir [dict get $opts -logdir]; set grace [dict get $opts -grace]
file mkdir $logdir
set L [open [file join $logdir launch.log] a]; fconfigure $L -buffering line

proc stamp {} {
    set ms [clock milliseconds]
    return [format "%s.%03d" [clock format [expr {$ms / 1000}] -format "%Y-%m-%d %H:%M:%S"] [expr {$ms % 1000}]]
}
proc say {msg} { global L; puts $L "[stamp] uc_launch: $msg" }

set env(MASTER_ADDR) 127.0.0.1; set env(MASTER_PORT) [dict get $opts -port]; set env(WORLD_SIZE) $nproc
set running 0; set failed {}
say "starting $nproc ranks: $cmd (MASTER_PORT $env(MASTER_PORT))"
for {set r 0} {$r < $nproc} {incr r} {
    set env(RANK) $r; set env(LOCAL_RANK) $r
    set out($r) [open [file join $logdir rank-$r.log] w]; fconfigure $out($r) -buffering line
    set fh($r) [open |[list {*}$cmd 2>@1] r]
    fconfigure $fh($r) -blocking 0 -buffering line
    set pids($r) [pid $fh($r)]
    fileevent $fh($r) readable [list onReadable $r]
    incr running
    say "rank $r started, pid $pids($r), log [file join $logdir rank-$r.log]"
}

proc onReadable {r} {
    global fh out running failed grace
    while {[gets $fh($r) line] >= 0} { puts $out($r) "[stamp] $line" }
    if {![eof $fh($r)]} return
    fileevent $fh($r) readable {}
    fconfigure $fh($r) -blocking 1
    set status 0
    if {[catch {close $fh($r)} msg copts]} {
        set ec [dict get $copts -errorcode]
        switch -- [lindex $ec 0] {
            CHILDSTATUS { set status [lindex $ec 2]; say "rank $r exited with status $status ($ec)" }
            CHILDKILLED { set status [lindex $ec 2]; say "rank $r killed by [lindex $ec 2] ($ec)" }
            default     { set status 1; say "rank $r closed: $msg" }
        }
    } else {
        say "rank $r exited with status 0"
    }
    close $out($r); unset fh($r)
    incr running -1
    if {$status ne "0"} {
        if {![llength $failed]} {
            say "rank $r failed; stopping the other ranks in $grace s"
            after [expr {$grace * 1000}] stopRest
        }
        lappend failed $r
    }
    if {$running == 0} { set ::done 1 }
}

proc stopRest {} {
    global fh pids
    foreach r [lsort -integer [array names fh]] {
        say "sending SIGTERM to rank $r (pid $pids($r))"
        catch {exec kill -TERM {*}$pids($r)}
    }
}

vwait done
if {[llength $failed]} {
    say "job failed: ranks [join $failed {, }] did not exit cleanly"
    exit 1
}
say "job finished: all $nproc ranks exited 0"
exit 0
