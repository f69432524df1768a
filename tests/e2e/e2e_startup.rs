//! End-to-end: ktui started where it cannot run says why in one plain sentence and exits 1 —
//! without a terminal (stdout a pipe, no controlling terminal) and with a kubeconfig that
//! does not exist (the cause said once, KUBECONFIG named only when it is set) — and never
//! panics or leaves a terminal raw.

use std::process::{Command, Stdio};

#[test]
fn without_a_terminal_it_says_so_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ktui"))
        .args(["--demo", "--log-file"])
        .arg(dir.path().join("ktui.log"))
        .env("HOME", dir.path())
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("not a terminal") && err.contains("run it in a terminal"),
        "{err}"
    );
    assert!(!err.contains("os error 6") && !err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty(), "nothing drawn into the pipe");
}

#[test]
fn a_missing_kubeconfig_is_said_once_and_wrapped_at_60x15() {
    use crate::util::*;
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-kubeconfig");
    let mut k = ktui_sized(&missing, &[], 15, 60);
    k.wait_for("cannot read the kubeconfig", SLOW);
    let screen = k.screen();
    let flat: String = screen
        .lines()
        .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(flat.matches("os error 2").count(), 1, "the cause once\n{screen}");
    assert!(
        flat.contains("no-such-kubeconfig"),
        "the path is not cut\n{screen}"
    );
    k.press_ctrl_c();
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on ctrl-c");
    assert!(status.success(), "{status:?}");
    assert_terminal_restored(&k);
}
