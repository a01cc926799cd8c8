#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, without systemd: for CI and for trying
# `oxo-flow run --executor slurm` on a laptop or VM (Debian/Ubuntu, as root).
#
#   scripts/slurm-up.sh            # install if needed, start munge, slurmctld and slurmd
#   export SLURM_CONF=/tmp/oxo-slurm/slurm.conf
#   scripts/slurm-up.sh stop       # stop the daemons again
#
# Idempotent: when the cluster already answers, it does nothing. OXO_SLURM_DIR moves the state.
set -euo pipefail
D=${OXO_SLURM_DIR:-/tmp/oxo-slurm}
export SLURM_CONF=$D/slurm.conf

if [ "${1:-}" = stop ]; then
  scancel -u "$(id -un)" 2>/dev/null || true
  for f in "$D/slurmd.pid" "$D/slurmctld.pid" /run/munge/munged.pid; do
    p=$(cat "$f" 2>/dev/null) || continue
    kill "$p" 2>/dev/null || continue
    while kill -0 "$p" 2>/dev/null; do sleep 0.2; done
  done
  exit 0
fi

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
fi

if [ -f "$SLURM_CONF" ] && sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
  echo "slurm: already up (SLURM_CONF=$SLURM_CONF)"
  exit 0
fi

H=$(hostname -s)
mkdir -p "$D/state" "$D/spool" "$D/log"
cat > "$SLURM_CONF" <<CONF
ClusterName=oxo
SlurmctldHost=$H
SlurmUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$D/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=256
SchedulerParameters=batch_sched_delay=0
DependencyParameters=kill_invalid_depend
MailProg=/bin/true
ReturnToService=2
MinJobAge=600
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
NodeName=$H CPUs=$(nproc) RealMemory=$(free -m | awk '/^Mem:/{print int($2*0.9)}') State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF

if [ ! -f /etc/munge/munge.key ]; then
  mungekey --create --keyfile=/etc/munge/munge.key
  chown munge: /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
fi
# A host with systemd may already run munged: use it.
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
  install -d -o munge -g munge -m 0755 /run/munge
  runuser -u munge -- /usr/sbin/munged
  until munge -n </dev/null | unmunge >/dev/null 2>&1; do sleep 0.1; done
fi
pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
pid_alive "$D/slurmctld.pid" || slurmctld -c
pid_alive "$D/slurmd.pid" || slurmd
for _ in $(seq 1 150); do
  if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
    echo "slurm: up (SLURM_CONF=$SLURM_CONF)"
    exit 0
  fi
  sleep 0.2
done
echo "slurm: the node did not become idle; see $D/log/" >&2
exit 1
