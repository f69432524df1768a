//! End-to-end tests of the session: exit and terminal restore, signals and hangup, and
//! startup with an unreachable API server — the real binary in a pseudo-terminal. The
//! unreachable-server test needs no cluster.
use crate::{pty, support, util};

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pty::Tui;
use util::*;

// ---------------------------------------------------------------------------------------
// 6. quitting

/// `:q` exits 0 and hands the terminal back (alternate screen left, cursor shown, raw mode
/// off); so does ctrl-c.
#[test]
#[ignore = "real tier"]
fn quit_and_ctrl_c_exit_zero_and_restore_the_terminal() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-quit");

    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.command("q");
    let (status, took) = k
        .wait_exit(SLOW)
        .unwrap_or_else(|| panic!("`:q` did not exit\n{}", k.dump()));
    eprintln!("timing: `:q` exit: {took:.2?}");
    assert!(
        status.success() && status.exit_code() == 0,
        "`:q` exited with {status:?}\n{}",
        k.dump()
    );
    assert_terminal_restored(&k);

    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.press_ctrl_c();
    let (status, took) = k
        .wait_exit(SLOW)
        .unwrap_or_else(|| panic!("ctrl-c did not exit\n{}", k.dump()));
    eprintln!("timing: ctrl-c exit: {took:.2?}");
    assert!(
        status.success() && status.exit_code() == 0,
        "ctrl-c exited with {status:?}\n{}",
        k.dump()
    );
    assert_terminal_restored(&k);
}

// ---------------------------------------------------------------------------------------
// 7. signals and hangup

/// Exited on its own (not killed by a signal) and not through a panic (exit code 101).
fn assert_clean_exit(k: &Tui, how: &str, status: &portable_pty::ExitStatus) {
    assert!(
        status.signal().is_none() && status.exit_code() != 101,
        "{how}: ktui ended with {status:?} (101 = a Rust panic) instead of a clean exit\n{}",
        k.dump()
    );
}

/// SIGTERM makes ktui restore the terminal and exit cleanly with status 143 (128 + 15), the
/// status a shell reports for a process SIGTERM ended (the time it took is reported).
#[test]
#[ignore = "real tier"]
fn sigterm_restores_the_terminal_and_exits() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-sigterm");
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.signal(libc::SIGTERM);
    let (status, took) = k
        .wait_exit(SLOW)
        .unwrap_or_else(|| panic!("SIGTERM: still running after {SLOW:?}\n{}", k.dump()));
    eprintln!("timing: SIGTERM exit: {took:.2?}, status {status:?}");
    assert_clean_exit(&k, "SIGTERM", &status);
    assert_eq!(
        status.exit_code(),
        128 + 15,
        "SIGTERM: ktui must exit with 128 + 15 as a shell reports it\n{}",
        k.dump()
    );
    assert_terminal_restored(&k);
}

/// Closing the pty (every fd we hold on the master) makes ktui exit cleanly, leaving no
/// process behind (the time it took is reported).
#[test]
#[ignore = "real tier"]
fn closing_the_pty_ends_ktui() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-hangup");
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    let pid = k.pid();
    k.close_pty();
    let (status, took) = k.wait_exit(SLOW).unwrap_or_else(|| {
        panic!(
            "pty closed: ktui (pid {pid}) still running after {SLOW:?}\n{}",
            k.dump()
        )
    });
    eprintln!("timing: exit after pty close: {took:.2?}, status {status:?}");
    assert!(
        !support::process_alive(pid),
        "pid {pid} still alive after the pty closed"
    );
    assert_clean_exit(&k, "pty closed", &status);
}

// ---------------------------------------------------------------------------------------
// 8. unreachable API server

/// With the API server unreachable the UI is drawn (goal: 1 s), answers keys, and soon says
/// why the list is empty (unreachable / reconnecting / cannot connect) — never
/// "no resources". Needs no cluster. Timings are reported, only hangs fail.
#[test]
fn unreachable_server_ui_is_up_and_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let kubeconfig: PathBuf = dir.path().join("kubeconfig");
    std::fs::write(
        &kubeconfig,
        "apiVersion: v1\nkind: Config\n\
         clusters:\n- name: dead\n  cluster:\n    server: https://127.0.0.1:1\n\
         users:\n- name: u\n  user:\n    token: e2e\n\
         contexts:\n- name: dead\n  context: {cluster: dead, user: u, namespace: e2e}\n\
         current-context: dead\n",
    )
    .unwrap();
    let mut k = ktui_with(&kubeconfig, &[], ROWS);

    k.wait_until("the header", SLOW, |s| {
        s.lines()
            .next()
            .is_some_and(|l| l.contains("context: dead") && l.contains("https://127.0.0.1:1"))
    });
    let up = k.started.elapsed();
    report_timing(
        "header drawn after spawn (server unreachable)",
        up,
        Duration::from_secs(1),
    );

    let help_open = |s: &str| s.lines().any(|l| l.contains('┌') && l.contains("help"));
    let t0 = Instant::now();
    k.type_keys("?");
    k.wait_until("`?` to open the help", SLOW, help_open);
    let took = t0.elapsed();
    report_timing(
        "help opened after `?` (server unreachable)",
        took,
        Duration::from_secs(1),
    );
    k.press_esc();
    k.wait_until("the help to close", SLOW, |s| !help_open(s));

    let says_why = |s: &str| {
        let s = s.to_lowercase();
        ["unreachable", "reconnecting", "cannot connect"]
            .iter()
            .any(|w| s.contains(w))
    };
    let took = k.wait_until("unreachable/reconnecting/cannot connect", SLOW, says_why);
    eprintln!(
        "timing: unreachable state shown {took:.2?} after the help closed ({:.2?} after spawn)",
        k.started.elapsed()
    );
    // stays explained, never "no resources"
    let until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < until {
        let s = k.screen();
        assert!(
            !s.contains("no resources"),
            "unreachable server shown as \"no resources\"\n{}",
            k.dump()
        );
        assert!(says_why(&s), "the unreachable state went away\n{}", k.dump());
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !k.raw_contains("no resources"),
        "\"no resources\" was drawn at some point\n{}",
        k.dump()
    );
}
