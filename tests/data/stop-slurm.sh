#!/usr/bin/env bash
# Stops the daemons start-slurm.sh DIR started (slurmd, slurmctld, munged), from their pid files.
set -uo pipefail
dir=${1:?usage: stop-slurm.sh DIR}
for daemon in slurmd slurmctld munged; do
  pid_file="$dir/$daemon.pid"
  [ -f "$pid_file" ] || continue
  pid=$(cat "$pid_file")
  if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  fi
  rm -f "$pid_file"
done
exit 0
