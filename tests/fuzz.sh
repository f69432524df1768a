#!/usr/bin/env bash
# The fuzz suite's short form, for CI: builds the cargo-fuzz targets of fuzz/ (libFuzzer +
# AddressSanitizer, nightly Rust) and runs each for FUZZ_SECONDS (default 15) from its
# committed seed corpus. Fails on any crash, failed property, timeout (> 10 s on one input),
# leak or out-of-memory (> 2 GiB). Installs cargo-fuzz when it is missing (crates.io only);
# without a nightly toolchain (and none installable) it prints `fuzz: SKIPPED` and exits 0 —
# the only skip. New inputs libFuzzer finds go to a scratch directory, never into
# fuzz/corpus; crash artifacts land in fuzz/artifacts/<target>/ (git-ignored).
# Usage: bash tests/fuzz.sh [target...]   (default: every target of `cargo fuzz list`)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${FUZZ_SECONDS:-15}"
# The fuzz crate has its own workspace and target dir; a CARGO_TARGET_DIR meant for the main
# crate must not mix ASan objects into it.
unset CARGO_TARGET_DIR
TARGET_DIR="$ROOT/fuzz/target"

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz: no nightly toolchain; trying rustup toolchain install nightly --profile minimal" >&2
  if ! rustup toolchain install nightly --profile minimal >&2 || ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz: SKIPPED (no nightly toolchain)"
    exit 0
  fi
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz" >&2
  cargo install cargo-fuzz --locked
fi

cd "$ROOT/fuzz"
if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
[ "${#targets[@]}" -gt 0 ] || { echo "fuzz: no targets found" >&2; exit 1; }

SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/ktui-fuzz.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT
# Every target at once (one cargo invocation shares the ASan build of ktui).
if ! cargo +nightly fuzz build --target-dir "$TARGET_DIR" >"$SCRATCH/build.log" 2>&1; then
  tail -n 60 "$SCRATCH/build.log" >&2
  echo "fuzz: FAILED: the fuzz targets do not build"
  exit 1
fi
failed=()
for t in "${targets[@]}"; do
  mkdir -p "$SCRATCH/$t"
  log="$SCRATCH/$t.log"
  echo "fuzz: $t for ${SECONDS_EACH}s" >&2
  if cargo +nightly fuzz run --target-dir "$TARGET_DIR" "$t" "$SCRATCH/$t" "corpus/$t" -- \
    -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    >"$log" 2>&1; then
    grep -E '^(#[0-9]+[[:space:]]+DONE|Done [0-9]+ runs|stat::number_of_executed_units)' "$log" | tail -n 2 >&2 || true
  else
    echo "fuzz: $t FAILED; its log:" >&2
    tail -n 60 "$log" >&2
    failed+=("$t")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs in fuzz/artifacts/<target>/)"
  exit 1
fi
echo "fuzz: ok (${#targets[@]} targets, ${SECONDS_EACH}s each)"
