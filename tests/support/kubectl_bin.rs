//! Where the test cluster's kubectl is (`$KTUI_TEST_BIN/kubectl`, else
//! `~/.cache/ktui-test/bin/kubectl`, built by tests/cluster/build.sh), for the tiers that run
//! kubectl against the demo server. Declared with `#[path]` by each test binary that needs it;
//! needs no cluster.

use std::path::PathBuf;

/// The kubectl binary, or `None` with a note when it was not built — except under
/// `CI=true`, where its absence panics (tests/run.sh builds it), so CI never skips silently.
pub fn kubectl_bin() -> Option<PathBuf> {
    let dir = std::env::var_os("KTUI_TEST_BIN")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ktui-test/bin")))?;
    let bin = dir.join("kubectl");
    if bin.exists() {
        return Some(bin);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{} is missing under CI=true (tests/run.sh builds it)",
        bin.display()
    );
    eprintln!(
        "note: skipping a kubectl test: {} not found (run tests/cluster/build.sh)",
        bin.display()
    );
    None
}
