# The peers ktui is measured against, for the benchmark drivers (benches/compare/run.sh,
# benches/real_sync/run.sh); source it. Both look in the test binary cache ($KTUI_TEST_BIN,
# else ~/.cache/ktui-test/bin; tests/cluster/build.sh builds kubectl there), k9s built there
# with `go install` when Go is present and it is missing. Each prints the binary's path on
# stdout, or says on stderr why there is none and fails.
#
#   k9s=$(peer_k9s) && args+=(--k9s "$k9s")
#   kubectl=$(peer_kubectl) && args+=(--kubectl "$kubectl")

K9S_VERSION=v0.50.16
PEER_BIN=${KTUI_TEST_BIN:-$HOME/.cache/ktui-test/bin}

# `go install` leaves k9s's own version "dev": ask Go which module version the binary is.
k9s_ok() {
    [[ -x $PEER_BIN/k9s ]] || return 1
    command -v go >/dev/null || return 0
    go version -m "$PEER_BIN/k9s" | grep -qE "^\s+mod\s+github.com/derailed/k9s\s+$K9S_VERSION"
}

peer_k9s() {
    if ! k9s_ok; then
        if ! command -v go >/dev/null; then
            echo "note: no Go and no $PEER_BIN/k9s: k9s left out" >&2
            return 1
        fi
        echo "building k9s $K9S_VERSION into $PEER_BIN" >&2
        mkdir -p "$PEER_BIN"
        GOBIN=$PEER_BIN nice -n 10 go install "github.com/derailed/k9s@$K9S_VERSION" >&2 || {
            echo "note: building k9s failed: k9s left out" >&2
            return 1
        }
    fi
    echo "$PEER_BIN/k9s"
}

peer_kubectl() {
    if [[ -x $PEER_BIN/kubectl ]]; then
        echo "$PEER_BIN/kubectl"
    elif command -v kubectl >/dev/null; then
        command -v kubectl
    else
        echo "note: no kubectl (run tests/cluster/build.sh): kubectl left out" >&2
        return 1
    fi
}
