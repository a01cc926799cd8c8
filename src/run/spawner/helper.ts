// The light spawner's helper: a small Perl program (perl is on every Linux and macOS; the runner
// falls back to Node's spawn where it is not). One helper runs per `run`; for each job it sets its own
// environment to exactly the job's, then forks itself (a few MB, not the runner's whole heap), and the
// child starts a new session (its own process group), goes to the workflow folder, points stdin at
// /dev/null and stdout and stderr at the job's log, and execs the job's argument list (no shell reads
// any of it). The helper waits for the exec (a close-on-exec pipe tells it the errno when it failed),
// then reaps the job and reports the CPU time of what it reaped.
//
// Requests (runner → helper, stdin): fields each ended by a NUL byte, read with split, never eval'd:
//   S id cwd log argc arg… envc NAME=VALUE…   start a job
//   K id                                      SIGKILL the job's group (a second Ctrl-C)
// Replies (helper → runner, stdout): one line each:
//   R                              ready
//   P id pid                       started (after the exec succeeded): the pid is the group id
//   F id errno stage               could not start (stage: what failed: chdir, open its log, exec…)
//   X id status user system        exited: the wait status, and the CPU seconds of what was reaped
// End of stdin (the runner ended or died) ends the helper; jobs still running keep running.
export const HELPER_SOURCE = String.raw`
use strict;
use POSIX ();
$SIG{PIPE} = 'DEFAULT';
my ($cu0, $cs0) = (times)[2, 3];
my (%id_of, %pid_of);
$SIG{CHLD} = sub { };
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
    out("X $id $st $u $s\n");
  }
}
sub failed {
  my ($w, $stage) = @_;
  my $e = $! + 0;
  syswrite($w, "$e $stage");
  POSIX::_exit(127);
}
# The helper's own environment is kept equal to the job's before each fork, changing only what differs
# from the last job's (a few OXO_ values): the child then inherits it, and setting some 80 variables
# afresh in every child (which costs more than the fork) is not needed. The helper itself never reads it.
sub set_env {
  my %want;
  for my $kv (@{$_[0]}) {
    my $i = index($kv, '=');
    $want{substr($kv, 0, $i)} = substr($kv, $i + 1);
  }
  for my $k (keys %ENV) { delete $ENV{$k} unless exists $want{$k}; }
  for my $k (keys %want) { $ENV{$k} = $want{$k} unless defined $ENV{$k} && $ENV{$k} eq $want{$k}; }
}
sub start {
  my ($id, $cwd, $log, $argv, $env) = @_;
  set_env($env);
  my ($r, $w);
  if (!pipe($r, $w)) { out("F $id " . ($! + 0) . " pipe\n"); return; }
  my $pid = fork();
  if (!defined $pid) { out("F $id " . ($! + 0) . " fork\n"); close $r; close $w; return; }
  if ($pid == 0) {
    close $r;
    $SIG{CHLD} = 'DEFAULT';
    POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new());
    defined(POSIX::setsid()) or failed($w, 'setsid');
    chdir($cwd) or failed($w, 'chdir');
    open(STDIN, '<', '/dev/null') or failed($w, 'open /dev/null');
    open(STDOUT, '>>', $log) or failed($w, 'open its log');
    open(STDERR, '>&', \*STDOUT) or failed($w, 'open its log');
    exec { $argv->[0] } @$argv;
    failed($w, 'exec');
  }
  close $w;
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
    out("P $id $pid\n");
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
      return if @f < 5;
      my $argc = $f[4];
      return if @f < 6 + $argc;
      my $envc = $f[5 + $argc];
      return if @f < 6 + $argc + $envc;
      my (undef, $id, $cwd, $log) = splice(@f, 0, 5);
      my @argv = splice(@f, 0, $argc);
      shift @f;
      my @env = splice(@f, 0, $envc);
      start($id, $cwd, $log, \@argv, \@env);
      reap();
    } else {
      print STDERR "oxo-flow spawner: unknown request\n";
      POSIX::_exit(2);
    }
  }
}
out("R\n");
while (1) {
  reap();
  my $rin = '';
  vec($rin, 0, 1) = 1;
  my $n = select(my $rout = $rin, undef, undef, %id_of ? 0.1 : undef);
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
