#!/usr/bin/env bash
# Stop a cluster started by up.sh: every process named by a DIR/*.pid file (never by
# process name; hollow nodes first), wait until each is gone, then remove DIR. A hollow
# node keeps all its files in DIR/node-I, and the commands it exec'd die with it.
# Usage: tests/cluster/down.sh [--keep] DIR      (--keep: leave DIR and its logs)
set -euo pipefail

KEEP=0
if [[ "${1:-}" == --keep ]]; then KEEP=1; shift; fi
[[ $# -eq 1 ]] || { echo "usage: $0 [--keep] DIR" >&2; exit 2; }
[[ -d "$1" ]] || exit 0                      # nothing to stop
DIR="$(cd "$1" && pwd)"

# ours PID: the process is alive and its command line mentions DIR (guards against a
# stale pid file whose number now belongs to an unrelated process).
ours() {
  local cmd; cmd="$(tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline")" || return 1
  [[ "$cmd" == *"$DIR"* ]]
}

# alive PID: the process exists and is not a zombie. Used after a pid was found ours: an
# exiting process loses its command line before it is gone, so `ours` alone stops waiting
# too early (a large kube-apiserver under load takes a while to tear down).
alive() {
  local stat; stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  [[ "${stat:0:1}" != Z ]]
}

pids=()
# Reverse start order: hollow nodes, scheduler and controller-manager first, etcd last.
nodes=()
for f in "$DIR"/hollow-node-*.pid; do
  [[ -f "$f" ]] && { f="${f##*/}"; nodes+=("${f%.pid}"); }
done
for name in ${nodes[@]+"${nodes[@]}"} kube-scheduler kube-controller-manager kube-apiserver etcd; do
  f="$DIR/$name.pid"
  [[ -f "$f" ]] || continue
  pid="$(cat "$f")"
  if [[ "$pid" =~ ^[0-9]+$ ]] && ours "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    pids+=("$pid")
  fi
  rm -f "$f"
done

# Wait up to 5 s for a clean exit, then SIGKILL the stragglers and wait for them too.
# (kube-apiserver's graceful stop can take ~30 s while clients hold watches open, and
# nothing in DIR is kept, so there is nothing to lose.)
for pid in ${pids[@]+"${pids[@]}"}; do
  for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
  # SIGKILL only what is still ours (a pid number can be reused once the process is gone).
  if ours "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
done

# Only remove a directory that up.sh made (ports.env is its first file).
if [[ $KEEP == 0 && -f "$DIR/ports.env" ]]; then rm -rf "$DIR"; fi
