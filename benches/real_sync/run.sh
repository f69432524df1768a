#!/usr/bin/env bash
# Initial sync on a real kube-apiserver, streamed vs paged (issue 14), beside k9s and kubectl;
# not part of CI. Starts a minimal test cluster (etcd + kube-apiserver v1.37.2,
# tests/cluster/up.sh with KTUI_TEST_MINIMAL=1: nothing else writes, pods stay Pending), loads
# N pods through the API (load_pods.py, ~500 pods/s on 2 cores), then runs
# benches/real_sync.rs: the release ktui in a pty, launch → first row and → live,
# `[watch] streaming_lists` and `protobuf` true vs false; each round also k9s v0.50.16 (found
# or built into the test binary cache, benches/peers.sh), and once per run the cache's
# kubectl (`get pods -A --no-headers` and `-o json`, to /dev/null). Ends with a markdown table.
#
#   bash benches/real_sync/run.sh N [--rounds R] [--no-peers]   e.g. bash benches/real_sync/run.sh 100000
#   KEEP=DIR bash benches/real_sync/run.sh N   reuses (or leaves) the loaded cluster in DIR
#   --no-peers: ktui only (no k9s, no kubectl)
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:?usage: run.sh N [--rounds R] [--no-peers]}
shift
peers=1
args=()
for a in "$@"; do
    if [[ $a == --no-peers ]]; then peers=0; else args+=("$a"); fi
done
source benches/peers.sh
nice -n 10 cargo bench --no-run --bench real_sync >&2
# Before the cluster starts: building k9s takes minutes.
if ((peers)) && k9s=$(peer_k9s); then args+=(--k9s "$k9s"); fi
DIR=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/ktui-real-sync.XXXXXX")}
if [[ ! -f $DIR/kubeconfig ]]; then
    KTUI_TEST_MINIMAL=1 bash tests/cluster/up.sh "$DIR"
    python3 benches/real_sync/load_pods.py "$DIR" "$N"
fi
[[ -n ${KEEP:-} ]] || trap 'bash tests/cluster/down.sh "$DIR"' EXIT
# The cluster's own kubectl (up.sh builds it into the cache and names it in DIR/env).
if ((peers)) && kubectl=$(peer_kubectl); then args+=(--kubectl "$kubectl"); fi
cargo bench --bench real_sync -- --bench --kubeconfig "$DIR/kubeconfig" --pods "$N" "${args[@]}"
