#!/usr/bin/env bash
# Initial sync on a real kube-apiserver, streamed vs paged (issue 14); not part of CI.
# Starts a minimal test cluster (etcd + kube-apiserver v1.37.2, tests/cluster/up.sh with
# KTUI_TEST_MINIMAL=1: nothing else writes, pods stay Pending), loads N pods through the API
# (load_pods.py, ~500 pods/s on 2 cores), then runs benches/real_sync.rs: the release ktui
# in a pty, launch → first row and → live, `[watch] streaming_lists` and `protobuf` true vs false.
#
#   bash benches/real_sync/run.sh N [--rounds R]     e.g. bash benches/real_sync/run.sh 100000
#   KEEP=DIR bash benches/real_sync/run.sh N   reuses (or leaves) the loaded cluster in DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:?usage: run.sh N [--rounds R]}
shift
nice -n 10 cargo bench --no-run --bench real_sync >&2
DIR=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/ktui-real-sync.XXXXXX")}
if [[ ! -f $DIR/kubeconfig ]]; then
    KTUI_TEST_MINIMAL=1 bash tests/cluster/up.sh "$DIR"
    python3 benches/real_sync/load_pods.py "$DIR" "$N"
fi
[[ -n ${KEEP:-} ]] || trap 'bash tests/cluster/down.sh "$DIR"' EXIT
cargo bench --bench real_sync -- --bench --kubeconfig "$DIR/kubeconfig" --pods "$N" "$@"
