#!/usr/bin/env bash
# Side-by-side benchmark of ktui, k9s and kubectl against the demo server (issue 14); not
# part of CI. Builds release ktui, finds kubectl and k9s in the test binary cache
# ($KTUI_TEST_BIN, else ~/.cache/ktui-test/bin), building k9s there with `go install` when Go
# is present and it is missing (benches/peers.sh), then runs benches/compare.rs and prints
# one table per N.
#
#   bash benches/compare/run.sh [N ...] [--nodes X] [--events Y] [--samples S]
#                               [--key-samples K] [--cpu-secs T] [--tools ktui,k9s,kubectl]
#   e.g. bash benches/compare/run.sh 10000 100000
#        bash benches/compare/run.sh 150000 --nodes 5000 --events 50000
#
# Builds run under `nice -n 10`; the measurement itself does not.
set -euo pipefail
cd "$(dirname "$0")/../.."

source benches/peers.sh

nice -n 10 cargo build --release --bin ktui >&2
nice -n 10 cargo bench --no-run --bench compare >&2

tools=()
if k9s=$(peer_k9s); then tools+=(--k9s "$k9s"); fi
if kubectl=$(peer_kubectl); then tools+=(--kubectl "$kubectl"); fi
echo "tools: ${tools[*]}" >&2

cargo bench --bench compare -- --bench "${tools[@]}" "$@"
cat <<'EOF'

Method and its limits:
- each demo server is measured only once it has settled (at most 50 changes/s, plus the
  churn asked for, three seconds in a row): at scale it first starts its daemonsets' pods
  on every load node, which is no tool's idle load;
- every tool runs in the same pseudo-terminal harness (tests/support/pty.rs, 45×160, vt100
  parser); a screen change wakes the waiter at once (else it re-checks every 20 ms), so
  latencies include the harness's read and parse of the tool's output, a few ms;
- change → screen: a probe pod is created / deleted (gracePeriodSeconds=0) through the demo
  server's HTTP API by the harness itself, timed from just before the request to the pod's
  name appearing in / leaving the view filtered to `cmp-probe` (kubectl: its ADDED / DELETED
  line in `get pods -A -w --output-watch-events`); a change not shown in 10 s counts as missed;
- filter keystroke → screen: from `q`, the first letter after `/` (both ktui and k9s filter
  as you type), to the view's count showing fewer pods;
- keystroke → screen under 1,000 changes/s: in the view of the churning server, `q` and
  backspace typed alternately into the `/` prompt (100 keystrokes, 40–160 ms apart, at most
  120 s of them), each timed to the count showing the narrower / the whole set; the render
  loop's CPU is ktui's UI thread (the main thread) over the CPU window;
- RSS with views warm: after the probes, the nodes view and the all-namespaces events view
  are opened until each holds what the server has, then the pods view again (ktui keeps an
  unused informer 30 s, so all three are held); then ctrl-c, timed to the terminal leaving
  the alternate screen and to the process gone (polled every millisecond);
- k9s runs with its defaults (refresh every 2 s) plus --headless --logoless --splashless
  --readonly and an empty config dir;
- CPU per pod: the tool's utime+stime from launch to the full count, over N (10 ms ticks);
- RSS and peak RSS (VmRSS, VmHWM) are read 2 s after the full count; kubectl's are of its
  `get -w` process after the whole list is printed; CPU is /proc utime+stime over the window
  (10 ms ticks), with the server quiet, then against a second server making 1,000 changes/s;
- kubectl's full count is `get pods -A` exiting after its last row (in the pty);
  `-o json > /dev/null` is a separate run without a terminal;
- the demo server runs on the same machine: 2 shared cores, possibly busy with other work;
  figures vary by tens of percent between runs. One run per figure, no warm-up.
EOF
