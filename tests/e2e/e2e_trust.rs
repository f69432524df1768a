//! Issue 37, "nothing that erodes trust", in a pty against the demo cluster: keys written in
//! one burst (pasted, fast-typed) are acted on in order, also across a view switch whose rows
//! have not arrived yet; `esc` after a `:` command stays on the view it opened.

use std::time::Duration;

use crate::util::*;

fn demo(rows: u16) -> Ktui {
    let dir = tempfile::tempdir().unwrap();
    let k = ktui_with(&dir.path().join("no-kubeconfig"), &["--demo"], rows);
    k.wait_for("Running", SLOW);
    k
}

#[test]
fn a_burst_after_a_command_acts_on_the_new_lists_rows_in_order() {
    for attempt in 0..3 {
        let mut k = demo(30);
        // One write: the command, a move and a drill-in.
        k.send(":no\rj\r");
        k.wait_until(
            &format!("pods of the second node (attempt {attempt})"),
            SLOW,
            |s| s.contains("pods of node/worker-1"),
        );
        k.command("q");
        assert!(k.wait_exit(SLOW).is_some());
    }
}

#[test]
fn a_burst_after_can_waits_for_its_answer() {
    let mut k = demo(30);
    // One write: the question, a move to the second subject, and what it may do.
    k.send(":can delete pods -n shop\rj\r");
    k.wait_until("what the deployer may do", SLOW, |s| {
        s.contains("what ServiceAccount shop/deployer may do in shop")
    });
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
}

#[test]
fn a_burst_across_two_views_keeps_its_order() {
    let mut k = demo(30);
    // Deployments, down twice, back to nodes, down to the last: every key lands in order.
    k.send(":deploy\rjj:no\rG\r");
    k.wait_until("pods of the last node", SLOW, |s| {
        s.contains("pods of node/worker-4")
    });
    std::thread::sleep(Duration::from_millis(200));
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
}

/// The local port of the newest `forwarding 127.0.0.1:PORT` footer.
fn forwarded_port(k: &Ktui) -> u16 {
    k.wait_for("forwarding 127.0.0.1:", SLOW);
    let screen = k.screen();
    screen
        .rsplit("forwarding 127.0.0.1:")
        .next()
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port\n{screen}"))
}

#[test]
fn a_port_held_by_ktuis_own_forward_names_it_and_a_broken_forward_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_with(&dir.path().join("no-kubeconfig"), &["--demo", "-n", "shop"], 30);
    k.wait_until("frontend pods", SLOW, |s| {
        s.lines()
            .any(|l| l.contains("frontend-") && l.contains("Running"))
    });
    let screen = k.screen();
    let pod = screen
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
        .find(|w| w.starts_with("frontend-") && w.len() > "frontend-".len())
        .unwrap()
        .to_owned();
    k.command(&format!("pf pod/{pod} -n shop 0:8080"));
    let port = forwarded_port(&k);
    k.wait_for("⇄ 1 port-forward", SLOW);
    // The same local port again: ktui's own forward holds it, and says which.
    k.command(&format!("pf svc/frontend -n shop {port}:80"));
    k.wait_for(&format!("held by ktui's port-forward to pod/{pod}:8080"), SLOW);
    // The pod goes: its forward is broken but holds its port, so the header counts it.
    k.type_keys(&format!("/{pod}"));
    k.press_enter();
    k.type_keys("\x04"); // ctrl-d
    k.wait_for("delete pod/", SLOW);
    k.type_keys("y");
    k.command("pf");
    k.wait_for("broken", SLOW);
    let head = k.screen().lines().next().unwrap_or_default().to_owned();
    let holds = std::net::TcpListener::bind(("127.0.0.1", port)).is_err();
    assert!(
        !holds || head.contains("⇄ 1 port-forward"),
        "a broken forward holding 127.0.0.1:{port} is not counted: {head}\n{}",
        k.dump()
    );
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
}

/// `tmux -L <socket> args…`, its stdout.
fn tmux(socket: &str, args: &[&str]) -> Option<String> {
    let out = std::process::Command::new("tmux")
        .arg("-L")
        .arg(socket)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn c_in_a_tmux_pane_with_default_settings_reaches_tmuxs_buffer_and_says_so() {
    if std::process::Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("no tmux: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let socket = format!("ktui-e2e-{}", std::process::id());
    let cmd = format!(
        "env HOME={home} XDG_CONFIG_HOME={home} XDG_STATE_HOME={home} {bin} --demo --kubeconfig {home}/none -n shop",
        home = dir.path().display(),
        bin = env!("CARGO_BIN_EXE_ktui"),
    );
    // A server of its own (default settings: set-clipboard external, allow-passthrough off).
    tmux(
        &socket,
        &[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            "120",
            "-y",
            "30",
            &cmd,
        ],
    )
    .expect("tmux");
    let pane = || tmux(&socket, &["capture-pane", "-p"]).unwrap_or_default();
    let start = std::time::Instant::now();
    while !pane().contains("Running") && start.elapsed() < SLOW {
        std::thread::sleep(Duration::from_millis(200));
    }
    let first = pane()
        .lines()
        .skip_while(|l| !l.contains("NAME"))
        .nth(1)
        .and_then(|l| l.trim_matches('│').split_whitespace().next().map(str::to_owned))
        .unwrap_or_default();
    tmux(&socket, &["send-keys", "c"]);
    let mut buffer = String::new();
    while start.elapsed() < SLOW {
        buffer = tmux(&socket, &["save-buffer", "-"]).unwrap_or_default();
        if !buffer.is_empty() && pane().contains("tmux's paste buffer") {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let screen = pane();
    tmux(&socket, &["kill-server"]);
    assert!(!first.is_empty(), "{screen}");
    assert_eq!(buffer, first, "tmux's buffer holds the selected name\n{screen}");
    assert!(
        screen.contains(&format!("copied {first} · to tmux's paste buffer")),
        "{screen}"
    );
}
