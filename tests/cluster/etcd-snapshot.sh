#!/usr/bin/env bash
# Roll a cluster started by up.sh back to older data, as an etcd backup restore does (the
# server's resourceVersions then go backwards under its clients' feet):
#   save DIR SNAP      copy DIR/etcd-data to SNAP (a new path). etcd is paused (SIGSTOP) for
#                      the copy and resumed: the copy is what a crash at that instant would
#                      leave, which etcd recovers from (its WAL); the API server only sees
#                      a slow etcd for the length of the copy.
#   restore DIR SNAP   stop kube-apiserver and etcd, put a copy of SNAP in place of
#                      DIR/etcd-data, start etcd again (DIR/etcd.args) and kube-apiserver
#                      (DIR/kube-apiserver.args, through force-410.sh --restart-only: same
#                      port and certificates) and wait until it is ready. SNAP is kept, so
#                      it can be restored again.
# The restore disturbs every client of the cluster: use it on a cluster of your own
# (up.sh with KTUI_TEST_MINIMAL=1 is enough).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ $# -eq 3 && ( $1 == save || $1 == restore ) ]] || { echo "usage: $0 save|restore DIR SNAP" >&2; exit 2; }
OP=$1
DIR="$(cd "$2" && pwd)"
SNAP=$3
# shellcheck source=/dev/null
source "$DIR/ports.env"
log() { echo "etcd-snapshot.sh: $*" >&2; }
# ours PID: alive (not a zombie) and started with DIR on its command line
ours() {
  local cmd; cmd="$(tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline")" || return 1
  [[ "$cmd" == *"$DIR"* ]]
}
alive() {
  local stat; stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  [[ "${stat:0:1}" != Z ]]
}
# stop NAME: TERM, 3 s, KILL; waits until the process is gone.
stop() {
  local pid; pid="$(cat "$DIR/$1.pid")"
  ours "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 30); do alive "$pid" || return 0; sleep 0.1; done
  if ours "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  for _ in $(seq 100); do alive "$pid" || return 0; sleep 0.1; done
  log "$1 (pid $pid) did not stop"; return 1
}

etcd_pid="$(cat "$DIR/etcd.pid")"
case $OP in
save)
  [[ ! -e "$SNAP" ]] || { log "$SNAP exists"; exit 2; }
  ours "$etcd_pid" || { log "etcd is not running"; exit 1; }
  kill -STOP "$etcd_pid"
  status=0
  cp -a "$DIR/etcd-data" "$SNAP" || status=$?
  kill -CONT "$etcd_pid"
  exit "$status"
  ;;
restore)
  [[ -d "$SNAP/member" ]] || { log "$SNAP is not a saved etcd-data"; exit 2; }
  stop kube-apiserver
  stop etcd
  rm -rf "$DIR/etcd-data"
  cp -a "$SNAP" "$DIR/etcd-data"
  mapfile -t args <"$DIR/etcd.args"
  echo "--- restarted by etcd-snapshot.sh restore at $(date -u +%FT%TZ) ---" >>"$DIR/etcd.log"
  "$BIN/etcd" "${args[@]}" </dev/null >>"$DIR/etcd.log" 2>&1 &
  echo $! >"$DIR/etcd.pid"
  for _ in $(seq 300); do
    if [[ "$(curl -s --max-time 2 "http://127.0.0.1:$ETCD_PORT/health" || true)" == *'"health":"true"'* ]]; then
      exec bash "$HERE/force-410.sh" --restart-only "$DIR"
    fi
    kill -0 "$!" 2>/dev/null || break
    sleep 0.2
  done
  log "etcd did not come back; last lines of its log:"
  tail -n 30 "$DIR/etcd.log" >&2
  exit 1
  ;;
esac
