#!/usr/bin/env bash
# The project's test command: `bash tests/run.sh [extra cargo test args]`.
# Builds (or reuses) the real-tier binaries, starts one shared test cluster for the whole
# run, runs `cargo test --locked --all-targets "$@" -- --include-ignored` (without
# --all-targets when "$@" names targets, e.g. `--test real`; test-binary arguments after a
# `--` of "$@" are kept), stops the cluster, and exits with cargo's status. Real-tier tests
# are `#[ignore = "real tier"]` (a plain `cargo test` lists them as ignored) and find the
# cluster via KTUI_TEST_CLUSTER_DIR. A few failed tests get one rerun each (tests/retry.py). Test binaries: scenarios, screens, e2e, real (one per
# tier, tests/<tier>/main.rs); e.g. `bash tests/run.sh --test e2e e2e_session::`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export KTUI_TEST_BIN="${KTUI_TEST_BIN:-${HOME:?set HOME or KTUI_TEST_BIN}/.cache/ktui-test/bin}"

bash "$ROOT/tests/cluster/build.sh" >/dev/null

CLUSTER_DIR="$(mktemp -d "${TMPDIR:-/tmp}/ktui-test-cluster.XXXXXX")"
trap 'bash "$ROOT/tests/cluster/down.sh" "$CLUSTER_DIR"' EXIT
bash "$ROOT/tests/cluster/up.sh" "$CLUSTER_DIR"
export KTUI_TEST_CLUSTER_DIR="$CLUSTER_DIR"

# --all-targets unless the caller picked targets (cargo would otherwise build the union).
targets=(--all-targets)
# The real tier is ignored by default: ask every test binary to include it, after the
# caller's own `--` if there is one.
harness=(-- --include-ignored)
for arg in "$@"; do
  case "$arg" in
    --) harness=(--include-ignored); break ;;
    --lib | --bins | --bin | --bin=* | --tests | --test | --test=* | --examples | --example | \
      --example=* | --benches | --bench | --bench=* | --doc | --all-targets) targets=() ;;
  esac
done

cd "$ROOT"
status=0
out="$CLUSTER_DIR/cargo-test.log"
# --no-fail-fast: one failing test binary must not hide the results of the others.
cargo test --locked --no-fail-fast ${targets[@]+"${targets[@]}"} "$@" "${harness[@]}" 2>&1 \
  | tee "$out" || status=$?
# A few failed tests are run once more, each alone (pty tests on a loaded 2-core machine
# have rare timing failures): a test that passes then is printed as `flaky:` and the run
# passes; one that fails twice, or more than a few failures, keeps the run red.
if ((status != 0)); then
  python3 "$ROOT/tests/retry.py" "$out" && status=0
fi
exit "$status"
