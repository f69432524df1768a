//! `shift-f` and `:pf` against the real cluster, in a pty: the prompt offers the pod's port,
//! a taken local port is explained and not listed, local port 0 forwards to the test's own
//! listener (the hollow kubelet connects port P to 127.0.0.1:P), the view shows the forward
//! with its state and counters, the header counts it, `ctrl-d` stops it; read-only mode
//! offers no `shift-f`.

use std::io::{Read, Write};
use std::time::Duration;

use crate::util::{assert_terminal_restored, ktui, wait_live, SLOW};

/// An echo listener on 127.0.0.1 (any port) in a thread; returns its port.
fn echo() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            std::thread::spawn(move || {
                let mut s = s;
                let mut buf = [0u8; 4096];
                while let Ok(n) = s.read(&mut buf) {
                    if n == 0 || s.write_all(&buf[..n]).is_err() {
                        return;
                    }
                }
            });
        }
    });
    port
}

#[test]
#[ignore = "real tier"]
fn real_shift_f_forwards_a_pod_port_and_pf_lists_and_stops_it() {
    let Some(cluster) = crate::support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-pf");
    let port = echo();
    let file = tempfile::NamedTempFile::new().unwrap();
    let pod = serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "echo", "namespace": ns},
        "spec": {"containers": [{"name": "app", "image": "example.com/app:1",
                 "ports": [{"containerPort": port}]}], "terminationGracePeriodSeconds": 0}});
    std::fs::write(file.path(), pod.to_string()).unwrap();
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_until("the pod runs", Duration::from_secs(60), |s| {
        s.contains("echo") && s.contains("Running")
    });
    k.type_keys("F");
    let offered = format!("pf pod/echo -n {ns} {port}:{port}");
    k.wait_for(&offered, SLOW);
    // Same local port as the pod's: the test's own listener holds it.
    k.press_enter();
    k.wait_for(
        &format!("port-forward not started: 127.0.0.1:{port} is in use by another program"),
        SLOW,
    );
    k.command(&format!("pf pod/echo -n {ns} 0:{port}"));
    k.wait_for("forwarding 127.0.0.1:", SLOW);
    let screen = k.screen();
    let local: u16 = screen
        .split("forwarding 127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no local port on screen\n{screen}"));
    k.wait_for("⇄ 1 port-forward", SLOW);
    let mut s = std::net::TcpStream::connect(("127.0.0.1", local)).unwrap();
    s.set_read_timeout(Some(SLOW)).unwrap();
    s.write_all(b"ping through ktui").unwrap();
    let mut got = [0u8; 17];
    s.read_exact(&mut got).unwrap();
    assert_eq!(&got, b"ping through ktui");
    k.command("pf");
    k.wait_until("the forward listed, active, with its connection", SLOW, |s| {
        s.contains(&format!("127.0.0.1:{local}"))
            && s.contains(&format!("pod/echo:{port}"))
            && s.contains("active")
            && s.contains("1 open, 1 in all")
            && s.contains("17 B / 17 B")
    });
    assert!(
        !k.screen().contains(&format!("127.0.0.1:{port} ")),
        "the refused forward is not listed"
    );
    drop(s);
    k.send(b"\x04"); // ctrl-d
    k.wait_until("the forward stopped", SLOW, |s| s.contains("port-forwards[0]"));
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", local)).is_err(),
        "listener closed"
    );
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
    assert_terminal_restored(&k);
    // Read-only: no shift-f in help.
    let mut k = ktui(&cluster, &["--readonly", "-n", &ns]);
    wait_live(&k);
    k.wait_for("echo", SLOW);
    k.type_keys("?");
    k.wait_for("logs of the selected pod, workload or service", SLOW);
    assert!(
        !k.screen().contains("port-forward to the selected"),
        "{}",
        k.screen()
    );
    k.press_esc();
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
}
