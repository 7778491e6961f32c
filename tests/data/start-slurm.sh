#!/usr/bin/env bash
# Starts a private one-node Slurm cluster on localhost for the tests (a CTest fixture): munged,
# slurmctld and slurmd with a configuration generated in DIR, on free ports, so it touches nothing
# of the machine's own Slurm. The tests point SLURM_CONF at DIR/slurm.conf. When Slurm is not
# installed (scripts/install-deps.sh installs Debian's slurm-wlm and munge) or its daemons cannot
# start here, DIR/unavailable says why and the tests that need it skip. stop-slurm.sh DIR stops it.
set -uo pipefail
dir=${1:?usage: start-slurm.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
"$here/stop-slurm.sh" "$dir"
rm -rf "$dir/state" "$dir/spool" "$dir/log" "$dir/unavailable"
mkdir -p "$dir/state" "$dir/spool" "$dir/log"

unavailable() {
  echo "$1" > "$dir/unavailable"
  echo "start-slurm: $1"
  "$here/stop-slurm.sh" "$dir"
  exit 0
}

for program in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$program" >/dev/null 2>&1 || [ -x "/usr/sbin/$program" ] ||
    unavailable "$program is not installed (Debian packages slurm-wlm and munge)"
done
sbin() { command -v "$1" 2>/dev/null || echo "/usr/sbin/$1"; }

# A free TCP port on 127.0.0.1 from $1 upwards.
free_port() {
  local port=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
  echo "$port"
}
ctld_port=$(free_port 16817)
slurmd_port=$(free_port $((ctld_port + 1)))
user=$(id -un)
node=$(hostname -s)

head -c 1024 /dev/urandom > "$dir/munge.key"
chmod 400 "$dir/munge.key"
"$(sbin munged)" --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge.seed" \
  --force >/dev/null 2>&1 || unavailable "munged did not start: $(tail -n 3 "$dir/log/munged.log" 2>/dev/null)"

cat > "$dir/slurm.conf" <<CONF
ClusterName=mctsattest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
SlurmUser=$user
SlurmdUser=$user
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
"$(sbin slurmctld)" -f "$SLURM_CONF" >/dev/null 2>&1 ||
  unavailable "slurmctld did not start: $(tail -n 3 "$dir/log/slurmctld.log" 2>/dev/null)"
"$(sbin slurmd)" -f "$SLURM_CONF" >/dev/null 2>&1 ||
  unavailable "slurmd did not start: $(tail -n 3 "$dir/log/slurmd.log" 2>/dev/null)"
for _ in $(seq 1 60); do
  if [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; then
    echo "start-slurm: a one-node cluster is up (SLURM_CONF=$SLURM_CONF)"
    exit 0
  fi
  sleep 0.5
done
unavailable "the node did not become idle in 30 s: $(sinfo -h 2>&1 | head -n 2) $(tail -n 3 "$dir/log/slurmd.log" 2>/dev/null)"
