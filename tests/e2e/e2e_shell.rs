//! `s` (shell) and `a` (attach) against the real cluster's hollow kubelets, in a pty: the
//! session runs a command and its exit code comes back to the footer, the terminal's size and
//! its resizes reach the remote pty, a container without bash gets sh and `ctrl-c` interrupts
//! its foreground command, attach reaches the main process and finds it again after a
//! detach, the screen comes back as it was, read-only mode offers neither key.
//!
//! The hollow kubelet runs `-t` sessions and a container's main process (its env's
//! `HOLLOW_ATTACH_CMD`) on ptys of their own; lines are typed ending in `\n`.

use std::time::Duration;

use crate::util::{assert_terminal_restored, ktui, wait_live, Ktui, SLOW};

/// Creates one object given as JSON on the real cluster.
fn create(cluster: &crate::support::Cluster, obj: serde_json::Value) {
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), obj.to_string()).expect("write manifest");
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
}

/// A running pod `name` in `ns` with container `app` and extra `env`.
fn pod(cluster: &crate::support::Cluster, ns: &str, name: &str, env: serde_json::Value) {
    create(
        cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": ns},
            "spec": {"containers": [{"name": "app", "image": "example.com/app:1", "env": env}],
                     "terminationGracePeriodSeconds": 1}}),
    );
}

/// The screen with ages (`12s`, `3m`) masked and the footer line dropped: what must be
/// identical before and after a session.
fn stable(screen: &str) -> String {
    let age = regex::Regex::new(r"\b\d+[smhd]\b").unwrap();
    let lines: Vec<&str> = screen.lines().collect();
    let keep = lines.len().saturating_sub(1);
    lines[..keep]
        .iter()
        .map(|l| age.replace_all(l, "AGE").into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Waits until `pod` runs and the list's bottom line says why there is no usage in
/// discovery's words. The metrics poll's first answer (a 404) can come before discovery's and
/// is replaced at the next poll (15 s), so a screen compared across a session is taken after.
fn wait_settled(k: &Ktui, pod: &str) {
    k.wait_until(
        "the pod runs and the metrics note is discovery's",
        Duration::from_secs(60),
        |s| {
            s.contains(pod)
                && s.contains("Running")
                && s.contains("metrics: not served (no metrics.k8s.io in discovery")
        },
    );
}

#[test]
#[ignore = "real tier"]
fn real_shell_runs_a_command_exits_with_its_code_and_the_screen_comes_back() {
    let Some(cluster) = crate::support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-shell");
    pod(
        &cluster,
        &ns,
        "box",
        serde_json::json!([{"name": "GREETING", "value": "from-the-pod"}]),
    );
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    wait_settled(&k, "box");
    let before = stable(&k.screen());
    k.type_keys("s");
    k.wait_until("the session on the main screen", SLOW, |_| !k.alternate_screen());
    let t = k.termios().unwrap();
    assert!(t.c_lflag & libc::ICANON == 0, "a session keeps raw mode");
    // bash is found first; the command sees the container's env.
    k.send(b"echo \"shell=$0 $GREETING $((6*7))\"\n");
    k.wait_for("shell=bash from-the-pod 42", SLOW);
    // The terminal's size, then a resize, reach the remote pty.
    let (rows, cols) = (k.rows, k.cols);
    k.send(b"stty size\n");
    k.wait_until("the remote pty's size", SLOW, |s| {
        s.lines().any(|l| l.trim() == format!("{rows} {cols}"))
    });
    // The resize travels SIGWINCH → ktui → API server → kubelet → the pty: ask until it
    // has arrived.
    k.resize(rows + 6, cols + 20);
    let resized = format!("{} {}", rows + 6, cols + 20);
    let t0 = std::time::Instant::now();
    loop {
        k.send(b"stty size\n");
        std::thread::sleep(Duration::from_millis(500));
        if k.screen().lines().any(|l| l.trim() == resized) {
            break;
        }
        assert!(
            t0.elapsed() < SLOW,
            "the resize never reached the remote pty\n{}",
            k.dump()
        );
    }
    // Back to the first size before leaving, so ktui's screen can be compared with before.
    k.resize(rows, cols);
    k.send(b"exit 3\n");
    k.wait_until("ktui's screen again", SLOW, |s| {
        k.alternate_screen() && s.contains("bash in pod/box -c app: exit code 3")
    });
    assert_eq!(stable(&k.screen()), before, "the screen after the session");
    assert!(k.cursor_hidden(), "{}", k.dump());
    // Keys reach ktui again.
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
    assert_terminal_restored(&k);
}

#[test]
#[ignore = "real tier"]
fn real_a_container_without_bash_gets_sh_and_ctrl_c_reaches_it() {
    let Some(cluster) = crate::support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-sh");
    // The container's PATH holds only `sh` (the hollow kubelet looks commands up there).
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/bin/sh", bin.path().join("sh")).unwrap();
    std::os::unix::fs::symlink("/bin/sleep", bin.path().join("sleep")).unwrap();
    let path = bin.path().to_str().unwrap().to_owned();
    pod(
        &cluster,
        &ns,
        "tiny",
        serde_json::json!([{"name": "PATH", "value": path}]),
    );
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_until("the pod runs", Duration::from_secs(60), |s| {
        s.contains("tiny") && s.contains("Running")
    });
    k.type_keys("s");
    k.wait_until("the session", SLOW, |_| !k.alternate_screen());
    k.send(b"echo \"shell=$0\"\n");
    k.wait_for("shell=sh", SLOW);
    // ctrl-c is a byte in raw mode: it goes to the remote pty, not to ktui (which would
    // quit on it), and interrupts the shell's foreground command there.
    k.send(b"sleep 600\n");
    k.wait_for("sleep 600", SLOW);
    std::thread::sleep(Duration::from_millis(700));
    k.press_ctrl_c();
    k.send(b"echo interrupted-$?\n");
    k.wait_for("interrupted-130", SLOW);
    k.send(b"exit 0\n");
    k.wait_until("ktui again", SLOW, |s| {
        k.alternate_screen() && s.contains("sh in pod/tiny -c app: exit code 0")
    });
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
    assert_terminal_restored(&k);
}

#[test]
#[ignore = "real tier"]
fn real_readonly_offers_no_shell_and_attach_is_reported_when_refused() {
    let Some(cluster) = crate::support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-ro");
    pod(&cluster, &ns, "quiet", serde_json::json!([]));
    let mut k = ktui(&cluster, &["--readonly", "-n", &ns]);
    wait_live(&k);
    k.wait_until("the pod runs", Duration::from_secs(60), |s| {
        s.contains("quiet") && s.contains("Running")
    });
    k.type_keys("s");
    k.type_keys("?");
    k.wait_for("logs of the selected pod, workload or service", SLOW);
    let help = k.screen();
    assert!(
        !help.contains("shell in the selected"),
        "read-only help offers no shell\n{help}"
    );
    assert!(!help.contains("attach to the container"), "{help}");
    assert!(k.alternate_screen(), "no session started");
    k.press_esc();
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
    // Not read-only: this container has no main process to attach to (no HOLLOW_ATTACH_CMD),
    // the hollow kubelet refuses, and the footer says so.
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_until("the pod runs", Duration::from_secs(60), |s| {
        s.contains("quiet") && s.contains("Running")
    });
    k.type_keys("?");
    k.wait_for("shell in the selected pod or container", SLOW);
    k.press_esc();
    k.type_keys("a");
    k.wait_until("attach refused", SLOW, |s| {
        k.alternate_screen() && s.contains("attach in pod/quiet -c app:")
    });
    // The server's words (the kubelet's refusal, or the broken pipe the API server meets when
    // the kubelet hangs up first), never a success.
    let footer = k.lines().last().cloned().unwrap_or_default();
    assert!(
        !footer.contains("exit code") && !footer.contains("detached"),
        "{footer}"
    );
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
    assert_terminal_restored(&k);
}

#[test]
#[ignore = "real tier"]
fn real_attach_reaches_the_main_process_and_finds_it_again_after_a_detach() {
    let Some(cluster) = crate::support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-attach");
    // The container's main process is an interactive sh on the hollow kubelet's pty (the
    // spec asks for stdin and a tty, as `kubectl run -it` does).
    create(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "main", "namespace": ns},
            "spec": {"containers": [{"name": "app", "image": "example.com/app:1",
                                     "stdin": true, "tty": true,
                                     "env": [{"name": "HOLLOW_ATTACH_CMD", "value": "sh"}]}],
                     "terminationGracePeriodSeconds": 1}}),
    );
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    wait_settled(&k, "main");
    let before = stable(&k.screen());
    k.type_keys("a");
    k.wait_until("the session on the main screen", SLOW, |_| !k.alternate_screen());
    k.send(b"MARK=kept-$((40+2))\n");
    k.send(b"echo first:$MARK\n");
    k.wait_for("first:kept-42", SLOW);
    // ctrl-p ctrl-q detaches: ktui is back, the process goes on.
    k.send([0x10, 0x11]);
    k.wait_until("ktui after the detach", SLOW, |s| {
        k.alternate_screen() && s.contains("attach in pod/main -c app: detached")
    });
    assert_eq!(stable(&k.screen()), before, "the screen after the detach");
    // Attaching again finds the same process: the variable set before is still there.
    k.type_keys("a");
    k.wait_until("the second session", SLOW, |_| !k.alternate_screen());
    k.send(b"echo again:$MARK\n");
    k.wait_for("again:kept-42", SLOW);
    // The main process exiting ends the attach (with success: the API reports no exit code
    // for attach).
    k.send(b"exit 4\n");
    k.wait_until("ktui when the main process ended", SLOW, |s| {
        k.alternate_screen() && s.contains("attach in pod/main -c app: exit code 0")
    });
    // Each attach began with kubectl's hint, and how to leave.
    assert!(
        k.raw_contains("try pressing enter. ctrl-p ctrl-q detaches."),
        "{}",
        k.dump()
    );
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
    assert_terminal_restored(&k);
}
