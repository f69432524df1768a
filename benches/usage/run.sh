#!/usr/bin/env bash
# What showing resource usage costs (issue 33), not part of CI:
#   bash benches/usage/run.sh [PODS] [SECONDS]
# Starts `ktui demo-server --pods PODS` (100,000 by default; it serves metrics.k8s.io), then
# runs the release ktui on the all-namespaces pods view in tmux twice — `[metrics] enabled =
# false`, then the defaults (polled every 15 s) — and prints, for each, RSS after the list
# and SECONDS (default 60) of polling, its CPU over those seconds, and (metrics on) the last
# poll's duration as `:informers` shows it; then `kubectl top pods -A` timed by farm-bench on
# the same server. Needs tmux, kubectl and farm-bench on PATH. KTUI_BIN measures another build;
# KTUI_ENV (`MALLOC_ARENA_MAX=2`) is set for ktui alone; ONLY=on skips the other runs.
set -euo pipefail
PODS="${1:-100000}"
SECS="${2:-60}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
if [[ -z "${KTUI_BIN:-}" ]]; then
  cargo build --release --bin ktui >/dev/null 2>&1
fi
# KTUI_BIN: another build to measure (a debug one, another branch's).
BIN="${KTUI_BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/ktui}"
WORK="$(mktemp -d)"
SESSION="ktui-usage-$$"
PORT=$((20000 + RANDOM % 20000))
cleanup() {
  tmux kill-session -t "$SESSION" 2>/dev/null || true
  [[ -n "${SERVER:-}" ]] && kill "$SERVER" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
"$BIN" demo-server --addr "127.0.0.1:$PORT" --kubeconfig-out "$WORK/kubeconfig" --pods "$PODS" --churn 0 \
  >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 600); do [[ -s "$WORK/kubeconfig" ]] && break; sleep 0.1; done

# Prints the pane until `pattern` shows (or gives up after `limit` seconds).
wait_for() {
  local pattern="$1" limit="$2"
  for _ in $(seq 1 $((limit * 4))); do
    if tmux capture-pane -p -t "$SESSION" | grep -q -- "$pattern"; then return 0; fi
    sleep 0.25
  done
  echo "gave up waiting for: $pattern" >&2
  tmux capture-pane -p -t "$SESSION" >&2
  return 1
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_mb() { awk -v k="$2" '$1 == k":" {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }


run() {
  local label="$1" config="$2"
  printf '%s' "$config" >"$WORK/config.toml"
  HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" tmux new-session -d -s "$SESSION" -x 200 -y 50 \
    "KUBECONFIG=$WORK/kubeconfig ${KTUI_ENV:-} $BIN --config $WORK/config.toml -A; sleep 600"
  local pid=""
  for _ in $(seq 1 100); do
    pid="$(pgrep -n -f "$BIN --config $WORK/config.toml" || true)"
    [[ -n "$pid" ]] && break
    sleep 0.1
  done
  wait_for "pods(all)\[[0-9,]*\]" 300
  local t0 c0
  t0=$(date +%s.%N)
  c0=$(cpu_ticks "$pid")
  sleep "$SECS"
  local c1 t1 hz
  c1=$(cpu_ticks "$pid")
  t1=$(date +%s.%N)
  hz=$(getconf CLK_TCK)
  local cpu
  cpu=$(awk -v a="$c0" -v b="$c1" -v s="$t0" -v e="$t1" -v hz="$hz" 'BEGIN {printf "%.1f", (b - a) / hz / (e - s) * 100}')
  printf '%-12s RSS %5s MB (peak %s MB), CPU over %ss %5s %%' "$label" "$(rss_mb "$pid" VmRSS)" \
    "$(rss_mb "$pid" VmHWM)" "$SECS" "$cpu"
  if [[ "$config" != *"enabled = false"* ]]; then
    tmux send-keys -t "$SESSION" ':informers' Enter
    wait_for "pods.metrics.k8s.io" 30
    local polled
    polled="$(tmux capture-pane -p -t "$SESSION" | grep -o 'pods.metrics.k8s.io (all).*' | head -1 | tr -s ' ')"
    printf ', poll: %s' "$polled"
  fi
  echo
  tmux kill-session -t "$SESSION"
  sleep 1
}

echo "ktui with $PODS demo pods (and the demo's own), all namespaces, 200x50:"
if [[ "${ONLY:-}" != on ]]; then
  run "metrics off" $'[metrics]\nenabled = false\n'
fi
run "metrics on" $'[metrics]\nenabled = true\n'
[[ "${ONLY:-}" == on ]] && exit 0
echo
echo "kubectl top pods -A on the same server:"
farm-bench -n 3 --timeout 600 -- kubectl --kubeconfig "$WORK/kubeconfig" top pods -A 2>&1 | tail -n 8
