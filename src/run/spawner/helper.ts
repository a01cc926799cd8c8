// The light spawner's helper: a small Perl program (perl is on every Linux and macOS; the runner
// falls back to Node's spawn where it is not). One helper runs per `run`. For each job it opens the
// job's log (a new one for a first attempt, appended to for a retry) and writes the attempt's header
// into it, brings its own environment to exactly the job's, then forks itself (a few MB, not the
// runner's whole heap); the child starts a new session (its own process group), goes to the workflow
// folder, points stdin at /dev/null and stdout and stderr at the log, and execs the job's argument
// list (no shell reads any of it). A request may carry a second argument list, the fallback: the
// child then execs the first one directly (a job script that is one plain command, given without
// /bin/sh; src/workflow/render/simple-command.ts) after setting PWD as sh would, and when that exec
// fails for any reason it execs the fallback (`/bin/sh -c SCRIPT`) instead, so a missing program, a
// file that is not executable and the like end exactly as under sh: its message, 127 or 126. The
// helper waits for the exec (a close-on-exec pipe tells it the errno when it failed), reads the
// job's start time (/proc, where there is one), then reaps the job and reports the CPU time of what
// it reaped and the log's size.
//
// Requests (runner → helper, stdin): fields each ended by a NUL byte, read with split, never eval'd:
//   S id cwd log mode header argc arg… setc NAME=VALUE… unsetc NAME… fallc arg…   start a job
//       mode: w (a new log) or a (append); the environment is a change to the last job's;
//       fallc 0: exec the argument list; else exec it directly and, if that fails, the fallback list
//   K id                                      SIGKILL the job's group (a second Ctrl-C)
// Replies (helper → runner, stdout): one line each:
//   R                              ready
//   P id pid start offset          started (after the exec succeeded): the pid is the group id; start:
//                                  the leader's start time (clock ticks since boot, - if unknown);
//                                  offset: the log's size before this attempt's header
//   F id errno stage               could not start (stage: what failed: chdir, open its log, exec…)
//   X id status user system size dropped
//                                  exited: the wait status, the CPU seconds of what was reaped, the
//                                  log's size then (-1 when it is gone), and 1 when the helper removed
//                                  the log of a first attempt that exited 0 and wrote nothing
//                                  (the runner writes it back if it fails the attempt after all)
// End of stdin (the runner ended or died) ends the helper; jobs still running keep running.
export const HELPER_SOURCE = String.raw`
use strict;
use POSIX ();
$SIG{PIPE} = 'DEFAULT';
my ($cu0, $cs0) = (times)[2, 3];
my (%id_of, %pid_of, %log_of);
# Set when a job exits: the wait below then does not block, so an exit that comes between the reap
# and the wait is not left for the timeout to find.
my $exited = 0;
$SIG{CHLD} = sub { $exited = 1; };
sub out {
  my $s = shift;
  while (length $s) {
    my $n = syswrite(STDOUT, $s);
    if (!defined $n) { next if $! == POSIX::EINTR(); POSIX::_exit(0); }
    substr($s, 0, $n) = '';
  }
}
sub settle {
  my ($cu, $cs) = (times)[2, 3];
  my @d = ($cu - $cu0, $cs - $cs0);
  ($cu0, $cs0) = ($cu, $cs);
  return @d;
}
sub reap {
  while ((my $pid = waitpid(-1, POSIX::WNOHANG())) > 0) {
    my $st = $?;
    my ($u, $s) = settle();
    my $id = delete $id_of{$pid};
    next unless defined $id;
    delete $pid_of{$id};
    my ($log, $bare) = @{delete $log_of{$id}};
    my $size = (stat($log))[7];
    # A first attempt that exited 0 and wrote nothing leaves no log: its header is in the run record.
    my $dropped = 0;
    if ($st == 0 && defined $bare && defined $size && $size == $bare && unlink($log)) { $dropped = 1; }
    out("X $id $st $u $s " . (defined $size ? $size : -1) . " $dropped\n");
  }
}
sub failed {
  my ($w, $stage) = @_;
  my $e = $! + 0;
  syswrite($w, "$e $stage");
  POSIX::_exit(127);
}
# The helper's own environment is the job's before each fork: the runner sends what changed since the
# last job (a few OXO_ values), and the child inherits it. The helper itself never reads it.
sub set_env {
  my ($set, $unset) = @_;
  for my $kv (@$set) {
    my $i = index($kv, '=');
    $ENV{substr($kv, 0, $i)} = substr($kv, $i + 1);
  }
  delete $ENV{$_} for @$unset;
}
# The leader's start time, field 22 of /proc/PID/stat (after the command name, which may hold spaces).
sub start_time {
  my $pid = shift;
  open(my $f, '<', "/proc/$pid/stat") or return '-';
  my $line = <$f>;
  close $f;
  return '-' unless defined $line && $line =~ /\)\s(.*)$/s;
  my @f = split(/ /, $1);
  return defined $f[19] && $f[19] =~ /^\d+$/ ? $f[19] : '-';
}
# What sh does with PWD at its start: it keeps an absolute PWD that names the current folder, else
# sets it to the physical path; either way it is exported.
sub sh_pwd {
  my $p = $ENV{PWD};
  if (defined $p && substr($p, 0, 1) eq '/') {
    my @a = stat($p);
    my @b = stat('.');
    return 1 if @a && @b && $a[0] == $b[0] && $a[1] == $b[1];
  }
  my $c = POSIX::getcwd();
  return 0 unless defined $c;
  $ENV{PWD} = $c;
  return 1;
}
sub start {
  my ($id, $cwd, $log, $mode, $header, $argv, $set, $unset, $fallback) = @_;
  set_env($set, $unset);
  my $lf;
  if (!open($lf, $mode eq 'w' ? '>' : '>>', $log)) { out("F $id " . ($! + 0) . " open its log\n"); return; }
  binmode $lf;
  my $offset = $mode eq 'w' ? 0 : (sysseek($lf, 0, 2) || 0) + 0;
  my $hl = length $header;
  my $at = 0;
  while ($at < $hl) {
    my $n = syswrite($lf, $header, $hl - $at, $at);
    if (!defined $n) { next if $! == POSIX::EINTR(); out("F $id " . ($! + 0) . " write its log\n"); close $lf; return; }
    $at += $n;
  }
  my ($r, $w);
  if (!pipe($r, $w)) { out("F $id " . ($! + 0) . " pipe\n"); close $lf; return; }
  my $pid = fork();
  if (!defined $pid) { out("F $id " . ($! + 0) . " fork\n"); close $r; close $w; close $lf; return; }
  if ($pid == 0) {
    close $r;
    $SIG{CHLD} = 'DEFAULT';
    POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new());
    defined(POSIX::setsid()) or failed($w, 'setsid');
    chdir($cwd) or failed($w, 'chdir');
    open(STDIN, '<', '/dev/null') or failed($w, 'open /dev/null');
    open(STDOUT, '>&', $lf) or failed($w, 'open its log');
    open(STDERR, '>&', $lf) or failed($w, 'open its log');
    if (@$fallback) {
      # No warning is printed for a failed exec (no -w): the log gets only what sh writes.
      exec { $argv->[0] } @$argv if sh_pwd();
      exec { $fallback->[0] } @$fallback;
    } else {
      exec { $argv->[0] } @$argv;
    }
    failed($w, 'exec');
  }
  close $w;
  close $lf;
  my $msg = '';
  while (1) {
    my $n = sysread($r, my $b, 512);
    if (!defined $n) { next if $! == POSIX::EINTR(); last; }
    last if $n == 0;
    $msg .= $b;
  }
  close $r;
  if ($msg eq '') {
    $id_of{$pid} = $id;
    $pid_of{$id} = $pid;
    $log_of{$id} = [$log, $mode eq 'w' ? $hl : undef];
    out("P $id $pid " . start_time($pid) . " $offset\n");
  } else {
    waitpid($pid, 0);
    settle();
    out("F $id $msg\n");
  }
}
my $buf = '';
my @f;
sub handle {
  while (@f) {
    my $c = $f[0];
    if ($c eq 'K') {
      return if @f < 2;
      my (undef, $id) = splice(@f, 0, 2);
      my $pid = $pid_of{$id};
      kill('KILL', -$pid) if defined $pid && $pid > 1;
    } elsif ($c eq 'S') {
      return if @f < 7;
      my $argc = $f[6];
      return if @f < 8 + $argc;
      my $setc = $f[7 + $argc];
      return if @f < 9 + $argc + $setc;
      my $unsetc = $f[8 + $argc + $setc];
      return if @f < 10 + $argc + $setc + $unsetc;
      my $fallc = $f[9 + $argc + $setc + $unsetc];
      return if @f < 10 + $argc + $setc + $unsetc + $fallc;
      my (undef, $id, $cwd, $log, $mode, $header) = splice(@f, 0, 7);
      my @argv = splice(@f, 0, $argc);
      shift @f;
      my @set = splice(@f, 0, $setc);
      shift @f;
      my @unset = splice(@f, 0, $unsetc);
      shift @f;
      my @fallback = splice(@f, 0, $fallc);
      start($id, $cwd, $log, $mode, $header, \@argv, \@set, \@unset, \@fallback);
      reap();
    } else {
      print STDERR "oxo-flow spawner: unknown request\n";
      POSIX::_exit(2);
    }
  }
}
out("R\n");
while (1) {
  $exited = 0;
  reap();
  my $rin = '';
  vec($rin, 0, 1) = 1;
  my $n = select(my $rout = $rin, undef, undef, $exited ? 0 : %id_of ? 0.1 : undef);
  next if $n <= 0;
  my $got = sysread(STDIN, my $chunk, 262144);
  if (!defined $got) { next if $! == POSIX::EINTR(); POSIX::_exit(0); }
  POSIX::_exit(0) if $got == 0;
  my @p = split(/\0/, $buf . $chunk, -1);
  $buf = pop @p;
  push @f, @p;
  handle();
}
`;
