#!/usr/bin/env bash
# Make every watch that resumes from a resourceVersion taken before this call receive
# 410 Gone ("too old resource version"), on a cluster started by up.sh:
#   1. compact etcd at its current revision (old revisions are gone from storage), then
#   2. restart kube-apiserver on the same etcd with the same arguments: its watch cache
#      is rebuilt from a fresh list, so it cannot replay anything older than that list.
# Step 2 is what produces the 410 (the watch cache serves watches for every built-in
# resource, and compaction alone never reaches it); step 1 makes the old revisions
# unrecoverable from etcd too. Clients keep their kubeconfig: same port, same certs.
# The restart disturbs every client of the cluster: use it on a cluster of your own.
# Usage: tests/cluster/force-410.sh DIR       (add --compact-only or --restart-only to
#        apply one step, e.g. to see which one matters)
set -euo pipefail

STEPS=both
case "${1:-}" in --compact-only) STEPS=compact; shift;; --restart-only) STEPS=restart; shift;; esac
[[ $# -eq 1 ]] || { echo "usage: $0 [--compact-only|--restart-only] DIR" >&2; exit 2; }
DIR="$(cd "$1" && pwd)"
# shellcheck source=/dev/null
source "$DIR/ports.env"
log() { echo "force-410.sh: $*" >&2; }
# ours PID: alive (not a zombie) and started with DIR on its command line
ours() {
  local cmd; cmd="$(tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline")" || return 1
  [[ "$cmd" == *"$DIR"* ]]
}

if [[ $STEPS != restart ]]; then
  # etcd's JSON gateway: the header of any range read carries the current revision.
  header="$(curl -sf -X POST "http://127.0.0.1:$ETCD_PORT/v3/kv/range" -d '{"key":"AA=="}')"
  [[ "$header" =~ \"revision\":\"([0-9]+)\" ]] || { log "no revision in: $header"; exit 1; }
  rev="${BASH_REMATCH[1]}"
  curl -sf -X POST "http://127.0.0.1:$ETCD_PORT/v3/kv/compaction" \
    -d "{\"revision\":\"$rev\",\"physical\":true}" >/dev/null
  log "compacted etcd at revision $rev"
fi

if [[ $STEPS != compact ]]; then
  pid="$(cat "$DIR/kube-apiserver.pid")"
  if ours "$pid"; then
    # A graceful stop waits ~30 s for the controllers' open watches to drain; give it 3 s,
    # then kill it (etcd holds all state, so a crash loses nothing).
    kill -TERM "$pid"
    for _ in $(seq 30); do ours "$pid" || break; sleep 0.1; done
    if ours "$pid"; then kill -KILL "$pid"; fi
    for _ in $(seq 50); do ours "$pid" || break; sleep 0.1; done
  fi
  mapfile -t args <"$DIR/kube-apiserver.args"
  echo "--- restarted by force-410.sh at $(date -u +%FT%TZ) ---" >>"$DIR/kube-apiserver.log"
  "$BIN/kube-apiserver" "${args[@]}" </dev/null >>"$DIR/kube-apiserver.log" 2>&1 &
  echo $! >"$DIR/kube-apiserver.pid"
  token="$(head -n 1 "$DIR/pki/tokens.csv" | cut -d, -f1)"
  for _ in $(seq 600); do
    if [[ "$(curl -s --max-time 2 --cacert "$DIR/pki/ca.crt" -H "Authorization: Bearer $token" \
          "https://127.0.0.1:$API_PORT/readyz" 2>/dev/null)" == ok ]]; then
      log "kube-apiserver restarted (pid $!)"; exit 0
    fi
    kill -0 "$!" 2>/dev/null || break
    sleep 0.2
  done
  log "kube-apiserver did not come back; last lines of its log:"
  tail -n 30 "$DIR/kube-apiserver.log" >&2
  exit 1
fi
