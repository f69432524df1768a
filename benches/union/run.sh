#!/usr/bin/env bash
# Union-of-contexts benchmark (benches/union.rs); not part of CI. Builds release ktui and the
# bench, then runs it: SERVERS demo servers of PODS pods each opened as one union
# (`ktui --context c1,…,cN -A`) beside one demo server of SERVERS×PODS pods (`ktui -A`),
# quiet and under CHURN changes/s in all, then with one server frozen (SIGSTOP); prints one
# Markdown table. Every child (demo servers, ktui) is killed when this script exits.
#
#   bash benches/union/run.sh [servers=10] [pods_per_server=10000] [churn_total=1000] [bench flags…]
#   e.g. bash benches/union/run.sh 10 10000 1000 --cpu-secs 60 --freeze 10
#
# Builds run under `nice -n 10`; the measurement itself does not.
set -euo pipefail
cd "$(dirname "$0")/../.."

servers=${1:-10}
pods=${2:-10000}
churn=${3:-1000}
shift $(($# < 3 ? $# : 3))

# Every process below this script, deepest first (stopped ones are continued, then killed).
descendants() {
    local kid
    for kid in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        descendants "$kid"
        echo "$kid"
    done
}
cleanup() {
    local pids
    pids=$(descendants $$)
    [[ -z $pids ]] && return
    kill -CONT $pids 2>/dev/null || true
    kill -KILL $pids 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

nice -n 10 cargo build --release --bin ktui >&2
nice -n 10 cargo bench --no-run --bench union >&2

start=$SECONDS
cargo bench --bench union -- --bench --servers "$servers" --pods "$pods" --churn "$churn" "$@"
echo
echo "run time (measurement only): $((SECONDS - start)) s"
cat <<'EOF'

Method and its limits:
- the union is `ktui --kubeconfig K --context c1,…,cN -A`, K one kubeconfig (mode 0600) with a
  cluster, user (the demo's admin token) and context per demo server; the single column is
  `ktui --kubeconfig K1 -A` against one server holding all the pods; each server runs with
  `--seed I`, and is measured only once it has settled (compare's rule);
- both run in compare's pseudo-terminal harness (tests/support/pty.rs), 45 rows and wider
  than compare's 160 columns (`--cols`, default 300) so the header holds every member's
  words; each run has its own empty HOME;
- full count: the header's count reaches every pod (99 % under churn, where replacements
  are in flight), the list says live and so does every member (a live one reads
  ` cI 10,000`; one that is not adds its state);
- RSS (VmRSS, peak VmHWM) 2 s after the full count, quiet servers; CPU is /proc
  utime+stime over the window (10 ms ticks); the render loop's is the UI (main) thread's;
- keystroke → screen: compare's (`q` and backspace typed alternately into the `/` prompt,
  40–160 ms apart, each timed to the count showing the narrower / the whole set);
- frozen: SIGSTOP of one server (its TCP port still accepts, nothing answers) under the
  running union view: time until its header words stop saying live, the other members'
  state, the keystroke set again, then SIGCONT and the time until every member is live
  with every pod; and, with quiet servers, a fresh launch with the first (the context
  ktui connects first) and with the last member frozen;
- all servers and ktui share this machine's cores (10 servers making 100 changes/s each
  cost more CPU than one making 1,000/s); one run per figure, no warm-up.
EOF
