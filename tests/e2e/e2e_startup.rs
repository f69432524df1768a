//! End-to-end: ktui started where it cannot run says why in one plain sentence and exits 1 —
//! without a terminal (stdout a pipe, no controlling terminal) and with a kubeconfig that
//! does not exist (the cause said once, KUBECONFIG named only when it is set) — and never
//! panics or leaves a terminal raw. A namespace that cannot be one (`-n 'Bad Name'`, `-n ''`,
//! a kubeconfig context's) is refused with the API server's rule instead of retried.

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

#[test]
fn a_namespace_flag_that_cannot_be_a_namespace_is_a_usage_error() {
    for (ns, says) in [
        (
            "Bad Name",
            "\"Bad Name\" is not a valid namespace name: a lowercase RFC 1123 label",
        ),
        ("", "a namespace name cannot be empty (-A lists all namespaces)"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_ktui"))
            .args(["--demo", "-n", ns])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{ns:?}: {err}");
        assert!(err.contains(says), "{ns:?}: {err}");
        assert!(out.stdout.is_empty(), "nothing drawn");
    }
}

#[test]
fn a_kubeconfig_namespace_that_cannot_be_one_is_said_not_retried() {
    use crate::util::*;
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("config");
    std::fs::write(
        &kubeconfig,
        "apiVersion: v1\nkind: Config\ncurrent-context: t\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:9\ncontexts:\n- name: t\n  context:\n    cluster: c\n    user: u\n    namespace: Bad Name\nusers:\n- name: u\n  user: {}\n",
    )
    .unwrap();
    let mut k = ktui_sized(&kubeconfig, &[], 24, 100);
    k.wait_for("not a valid namespace name", SLOW);
    let screen = k.screen();
    assert!(screen.contains("\"Bad Name\""), "{screen}");
    assert!(!screen.contains("invalid uri character"), "{screen}");
    k.press_ctrl_c();
    k.wait_exit(SLOW).expect("ktui exits on ctrl-c");
    assert_terminal_restored(&k);
}
