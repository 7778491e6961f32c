#!/usr/bin/env bash
# Stops the daemons start-slurm.sh DIR started (slurmd, slurmctld, munged), from their pid files,
# and removes munged's socket directory. Daemons still running after three seconds are killed.
set -uo pipefail
dir=${1:?usage: stop-slurm.sh DIR}
pids=()
for daemon in slurmd slurmctld munged; do
  pid_file="$dir/$daemon.pid"
  [ -f "$pid_file" ] || continue
  pid=$(cat "$pid_file")
  rm -f "$pid_file"
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && pids+=("$pid")
done
for _ in $(seq 1 30); do
  alive=0
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
  [ "$alive" -eq 0 ] && break
  sleep 0.1
done
for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null; done
if [ -f "$dir/socket-dir" ]; then
  rm -rf "$(cat "$dir/socket-dir")"
  rm -f "$dir/socket-dir"
fi
exit 0
