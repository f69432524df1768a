#!/usr/bin/env bash
# The project's test command: `bash tests/run.sh [extra cargo test args]`.
# Builds (or reuses) the real-tier binaries, starts one shared test cluster for the whole
# run, runs `cargo test --locked --all-targets "$@"`, stops the cluster, and exits with
# cargo's status. Real-tier tests find the cluster via KTUI_TEST_CLUSTER_DIR.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export KTUI_TEST_BIN="${KTUI_TEST_BIN:-$HOME/.cache/ktui-test/bin}"

bash "$ROOT/tests/cluster/build.sh" >/dev/null

CLUSTER_DIR="$(mktemp -d "${TMPDIR:-/tmp}/ktui-test-cluster.XXXXXX")"
trap 'bash "$ROOT/tests/cluster/down.sh" "$CLUSTER_DIR"' EXIT
bash "$ROOT/tests/cluster/up.sh" "$CLUSTER_DIR"
export KTUI_TEST_CLUSTER_DIR="$CLUSTER_DIR"

cd "$ROOT"
status=0
cargo test --locked --all-targets "$@" || status=$?
exit "$status"
