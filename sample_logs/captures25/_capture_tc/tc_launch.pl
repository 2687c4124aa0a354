#!/usr/bin/perl
# tc_launch.pl: site launcher in Perl. Starts N ranks with IPC::Open3 (separate stdout / stderr pipes), multiplexes
# every pipe with IO::Select and writes one line per record to the job log:
#   <epoch seconds.millis> r<rank> <O|E> <text>      (rank output)
#   <epoch seconds.millis> launch - <text>            (the launcher's own lines)
# env:// variables per rank. When a rank exits non-zero the others get SIGTERM after --grace seconds.
use strict; use warnings;
use IPC::Open3; use IO::Select; use IO::Handle; use Symbol 'gensym'; use Time::HiRes qw(time sleep);
use POSIX ':sys_wait_h'; use Getopt::Long;
my ($n, $port, $logf, $grace) = (2, 29700, 'job.log', 10);
GetOptions('nproc=i' => \$n, 'port=i' => \$port, 'log=s' => \$logf, 'grace=i' => \$grace) or die "bad options\n";
my @cmd = @ARGV;
open(my $LOG, '>>', $logf) or die "cannot open $logf: $!\n"; $LOG->autoflush(1);
sub out { printf $LOG "%.3f %s\n", time, join(' ', @_); }
my $sel = IO::Select->new; my (%fhinfo, %pid2rank, %buf);
out('launch', '-', "starting $n ranks: @cmd (MASTER_PORT=$port)");
for my $r (0 .. $n - 1) {
  local $ENV{RANK} = $r; local $ENV{LOCAL_RANK} = $r; local $ENV{WORLD_SIZE} = $n;
  local $ENV{MASTER_ADDR} = '127.0.0.1'; local $ENV{MASTER_PORT} = $port;
  my $err = gensym;
  my $pid = open3(my $in, my $o, $err, @cmd);
  close $in; $pid2rank{$pid} = $r;
  $sel->add($o, $err); $fhinfo{fileno $o} = "r$r O"; $fhinfo{fileno $err} = "r$r E";
  out('launch', '-', "rank $r pid $pid");
}
my ($failed, $term_at, %done) = (undef, undef);
while ($sel->count) {
  for my $fh ($sel->can_read(0.5)) {
    my $tag = $fhinfo{fileno $fh};
    my $nread = sysread($fh, my $chunk, 65536);
    if (!$nread) {
      out($tag, $buf{$tag}) if defined $buf{$tag} && length $buf{$tag};
      delete $buf{$tag}; $sel->remove($fh); close $fh; next;
    }
    $buf{$tag} .= $chunk;
    while ($buf{$tag} =~ s/^(.*?)\r?\n//) { out($tag, $1); }
  }
  while ((my $pid = waitpid(-1, WNOHANG)) > 0) {
    my $r = $pid2rank{$pid}; my $st = $?;
    my $how = ($st & 127) ? "killed by signal " . ($st & 127) : "exited with code " . ($st >> 8);
    out('launch', '-', "rank $r (pid $pid) $how"); $done{$pid} = 1;
    if ($st != 0 && !defined $failed) {
      $failed = $r; $term_at = time + $grace;
      out('launch', '-', "rank $r failed; SIGTERM to the other ranks in ${grace}s");
    }
  }
  if (defined $term_at && time >= $term_at) {
    for my $pid (grep { !$done{$_} } keys %pid2rank) {
      out('launch', '-', "sending SIGTERM to rank $pid2rank{$pid} (pid $pid)"); kill 'TERM', $pid;
    }
    $term_at = undef;
  }
}
while ((my $pid = waitpid(-1, 0)) > 0) {
  my $st = $?; my $how = ($st & 127) ? "killed by signal " . ($st & 127) : "exited with code " . ($st >> 8);
  out('launch', '-', "rank $pid2rank{$pid} (pid $pid) $how");
}
out('launch', '-', defined $failed ? "job FAILED (first failure: rank $failed)" : "job finished OK");
exit(defined $failed ? 1 : 0);
