#!/usr/bin/env bash
# Initial sync on a real kube-apiserver, streamed vs paged (issue 14), JSON vs protobuf, beside
# k9s and kubectl; not part of CI. Starts a minimal test cluster (etcd + kube-apiserver
# v1.37.2, tests/cluster/up.sh with KTUI_TEST_MINIMAL=1: nothing else writes, pods stay
# Pending), loads N pods (or, with --resource configmaps, N ConfigMaps) through the API
# (load.py, ~500 objects/s on 2 cores), then runs benches/real_sync.rs: the release ktui in a
# pty on that resource in all namespaces, launch → first row and → live. Pods: `[watch]
# streaming_lists` and `protobuf` true vs false. ConfigMaps (a kind the revision history
# records, so listed as paged JSON): history on (the default) vs `[history] max_mib = 0`
# (history off: protobuf, streamed under "auto"). Each round also k9s v0.50.16 (found or built
# into the test binary cache, benches/peers.sh), and once per run the cache's kubectl
# (`get RESOURCE -A --no-headers` and `-o json`, to /dev/null). Ends with a markdown table.
#
#   bash benches/real_sync/run.sh N [--resource pods|configmaps] [--rounds R] [--no-peers]
#     e.g. bash benches/real_sync/run.sh 100000
#   KEEP=DIR bash benches/real_sync/run.sh N   reuses (or leaves) the loaded cluster in DIR (a
#     resource is loaded into it once per N: DIR/loaded.RESOURCE holds the count loaded)
#   --no-peers: ktui only (no k9s, no kubectl)
set -euo pipefail
cd "$(dirname "$0")/../.."
usage='usage: run.sh N [--resource pods|configmaps] [--rounds R] [--no-peers]'
N=${1:?$usage}
shift
peers=1
resource=pods
args=()
while (($#)); do
    case $1 in
        --no-peers) peers=0 ;;
        --resource)
            resource=${2:?$usage}
            shift
            ;;
        *) args+=("$1") ;;
    esac
    shift
done
case $resource in
    pods | configmaps) ;;
    *) echo "$usage" >&2; exit 2 ;;
esac
source benches/peers.sh
nice -n 10 cargo bench --no-run --bench real_sync >&2
# Before the cluster starts: building k9s takes minutes.
if ((peers)) && k9s=$(peer_k9s); then args+=(--k9s "$k9s"); fi
DIR=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/ktui-real-sync.XXXXXX")}
if [[ ! -f $DIR/kubeconfig ]]; then
    KTUI_TEST_MINIMAL=1 bash tests/cluster/up.sh "$DIR"
fi
[[ -n ${KEEP:-} ]] || trap 'bash tests/cluster/down.sh "$DIR"' EXIT
loaded=$(cat "$DIR/loaded.$resource" 2>/dev/null || echo 0)
if ((loaded < N)); then
    python3 benches/real_sync/load.py "$DIR" "$N" --kind "$resource"
    echo "$N" >"$DIR/loaded.$resource"
fi
# The cluster's own kubectl (up.sh builds it into the cache and names it in DIR/env).
if ((peers)) && kubectl=$(peer_kubectl); then args+=(--kubectl "$kubectl"); fi
cargo bench --bench real_sync -- --bench --kubeconfig "$DIR/kubeconfig" --resource "$resource" --count "$N" "${args[@]}"
