#!/usr/bin/env bash
# A single-node Grid Engine on this machine, without systemd: for CI and for trying
# `oxo-flow run --executor sge` (Debian/Ubuntu gridengine packages, as root).
#
#   scripts/sge-up.sh            # install if needed, configure the cell, start qmaster and execd
#   export SGE_ROOT=/var/lib/gridengine SGE_CELL=default
#   scripts/sge-up.sh stop       # stop the daemons again
#
# Idempotent: when the queue already answers, it does nothing. OXO_SGE_DIR holds its scratch files.
set -euo pipefail
export SGE_ROOT=${SGE_ROOT:-/var/lib/gridengine} SGE_CELL=${SGE_CELL:-default}
D=${OXO_SGE_DIR:-/tmp/oxo-sge}
H=$(hostname)
COMMON=$SGE_ROOT/$SGE_CELL/common

if [ "${1:-}" = stop ]; then
  qdel -u "$(id -un)" >/dev/null 2>&1 || true
  /etc/init.d/gridengine-exec stop >/dev/null 2>&1 || true
  /etc/init.d/gridengine-master stop >/dev/null 2>&1 &
  sleep 3
  # sge_qmaster can take minutes to leave on SIGTERM: do not wait for it.
  pkill -x sge_qmaster 2>/dev/null || true
  exit 0
fi

if ! command -v qsub >/dev/null || [ ! -x /etc/init.d/gridengine-master ] || [ ! -x /etc/init.d/gridengine-exec ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gridengine-master gridengine-exec gridengine-client >/dev/null
fi

if qstat -f 2>/dev/null | grep -q "all.q@$H"; then
  # The queue answers; its execution daemon may still have died (the host then shows state "u" and
  # jobs wait forever): start it again.
  pgrep -x sge_execd >/dev/null || /etc/init.d/gridengine-exec start >/dev/null
  echo "sge: already up (SGE_ROOT=$SGE_ROOT SGE_CELL=$SGE_CELL)"
  exit 0
fi

mkdir -p "$D"
# 127.0.0.1 resolves back to `localhost` while the host calls itself $H: make them one host.
names=$(awk '$1 == "127.0.0.1" || $1 == "127.0.1.1" { for (i = 2; i <= NF; i++) print $i }' /etc/hosts | grep -vx "$H" | sort -u | tr '\n' ' ')
echo "$H localhost $names" > "$COMMON/host_aliases"
echo "$H" > "$COMMON/act_qmaster"

pgrep -x sge_qmaster >/dev/null || /etc/init.d/gridengine-master start >/dev/null
for _ in $(seq 1 100); do qstat -f >/dev/null 2>&1 && break; sleep 0.2; done
qconf -ah "$H" >/dev/null 2>&1 || true
qconf -as "$H" >/dev/null 2>&1 || true

# Root's jobs are refused by default (min_uid 1000); the file loaded with -Mconf must be called `global`.
qconf -sconf global | sed -e 's/^min_uid .*/min_uid 0/' -e 's/^min_gid .*/min_gid 0/' > "$D/global"
qconf -Mconf "$D/global" >/dev/null 2>&1 || true
# Schedule every second, not every 15 s.
qconf -ssconf | sed -e 's/^schedule_interval .*/schedule_interval 0:0:1/' > "$D/sconf"
qconf -Msconf "$D/sconf" >/dev/null 2>&1 || true

if ! qconf -sel 2>/dev/null | grep -qx "$H"; then
  printf 'hostname %s\nload_scaling NONE\ncomplex_values NONE\nuser_lists NONE\nxuser_lists NONE\nprojects NONE\nxprojects NONE\nusage_scaling NONE\nreport_variables NONE\n' "$H" > "$D/exec"
  qconf -Ae "$D/exec" >/dev/null
fi
# A parallel environment for `threads`: all slots on one host.
if ! qconf -spl 2>/dev/null | grep -qx smp; then
  printf 'pe_name smp\nslots 999\nuser_lists NONE\nxuser_lists NONE\nstart_proc_args NONE\nstop_proc_args NONE\nallocation_rule $pe_slots\ncontrol_slaves FALSE\njob_is_first_task TRUE\nurgency_slots min\naccounting_summary FALSE\nqsort_args NONE\n' > "$D/pe"
  qconf -Ap "$D/pe" >/dev/null
fi
if ! qconf -sql 2>/dev/null | grep -qx all.q; then
  cat > "$D/queue" <<Q
qname all.q
hostlist $H
seq_no 0
load_thresholds NONE
suspend_thresholds NONE
nsuspend 1
suspend_interval 00:05:00
priority 0
min_cpu_interval 00:05:00
processors UNDEFINED
qtype BATCH INTERACTIVE
ckpt_list NONE
pe_list make smp
rerun FALSE
slots $(nproc)
tmpdir /tmp
shell /bin/sh
prolog NONE
epilog NONE
shell_start_mode posix_compliant
starter_method NONE
suspend_method NONE
resume_method NONE
terminate_method NONE
notify 00:00:60
owner_list NONE
user_lists NONE
xuser_lists NONE
subordinate_list NONE
complex_values NONE
projects NONE
xprojects NONE
calendar NONE
initial_state default
s_rt INFINITY
h_rt INFINITY
s_cpu INFINITY
h_cpu INFINITY
s_fsize INFINITY
h_fsize INFINITY
s_data INFINITY
h_data INFINITY
s_stack INFINITY
h_stack INFINITY
s_core INFINITY
h_core INFINITY
s_rss INFINITY
h_rss INFINITY
s_vmem INFINITY
h_vmem INFINITY
Q
  qconf -Aq "$D/queue" >/dev/null
fi

# Only now the execution daemon: one started before min_uid was lowered keeps refusing root's jobs.
pgrep -x sge_execd >/dev/null || /etc/init.d/gridengine-exec start >/dev/null
for _ in $(seq 1 150); do
  if qstat -f 2>/dev/null | grep -q "all.q@$H"; then
    echo "sge: up (SGE_ROOT=$SGE_ROOT SGE_CELL=$SGE_CELL)"
    exit 0
  fi
  sleep 0.2
done
echo "sge: the queue did not come up; see $SGE_ROOT/$SGE_CELL/spool/" >&2
exit 1
