//! End-to-end on `ktui --demo`: the demo cluster answers `s` (exec) and `shift-f`
//! (port-forward) through the same API paths as a real cluster, with its labelled simulated
//! responder — the banner says so, `hostname` answers the pod's name, the terminal size
//! reaches the remote side, `exit 3` brings ktui back with the code, and a TCP client of the
//! forwarded local port gets the labelled response.
use crate::util;

use std::io::{Read, Write};
use std::time::Duration;

use util::*;

/// ktui on the demo in namespace `shop`, the frontend pods listed; returns it and the first
/// Running frontend pod's name (the selected row once the list is filtered to `frontend`).
fn frontend() -> (Ktui, tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_with(&dir.path().join("no-kubeconfig"), &["--demo", "-n", "shop"], ROWS);
    k.wait_until("running frontend pods", SLOW, |s| {
        s.lines()
            .any(|l| l.contains("frontend-") && l.contains("Running"))
    });
    k.type_keys("/frontend");
    k.press_enter();
    k.wait_until("only frontend pods", SLOW, |s| !s.contains("cart-"));
    let screen = k.screen();
    let name = screen
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
        .find(|w| w.starts_with("frontend-") && w.len() > "frontend-".len())
        .unwrap_or_else(|| panic!("no frontend pod\n{screen}"))
        .to_owned();
    (k, dir, name)
}

#[test]
fn demo_shell_is_labelled_answers_from_the_pod_and_exits_with_its_code() {
    let (mut k, _dir, pod) = frontend();
    let before = k.screen();
    k.type_keys("s");
    k.wait_until("the simulated shell's banner", SLOW, |s| {
        !k.alternate_screen() && s.contains(&format!("simulated container frontend of pod shop/{pod}"))
    });
    assert!(k.screen().contains("No real process runs here"), "{}", k.dump());
    k.send(b"hostname\r");
    k.wait_until("the pod's name from hostname", SLOW, |s| {
        s.lines().any(|l| l.trim() == pod)
    });
    // The terminal's size reached the remote side over the resize channel.
    k.send(b"stty size\r");
    k.wait_until("the pty's size", SLOW, |s| {
        s.lines().any(|l| l.trim() == format!("{ROWS} {COLS}"))
    });
    k.send(b"no-such-tool\r");
    k.wait_for("no-such-tool: not found", SLOW);
    k.send(b"exit 3\r");
    k.wait_until("ktui's screen with the exit code", SLOW, |s| {
        k.alternate_screen() && s.contains(&format!("ash in pod/{pod} -c frontend: exit code 3"))
    });
    // The list is back as it was (the footer line aside).
    let strip = |s: &str| {
        s.lines()
            .take(ROWS as usize - 1)
            .map(|l| l.to_owned())
            .collect::<Vec<_>>()
    };
    let (b, a) = (strip(&before), strip(&k.screen()));
    assert_eq!(b.len(), a.len());
    assert!(a.iter().any(|l| l.contains(&pod)), "{}", k.dump());
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
    assert_terminal_restored(&k);
}

/// Connects to 127.0.0.1:`port`, sends an HTTP request and reads the whole answer.
fn http_get(port: u16, path: &str) -> String {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(SLOW)).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").unwrap();
    let mut got = String::new();
    s.read_to_string(&mut got).unwrap();
    got
}

/// The local port of the newest `forwarding 127.0.0.1:PORT` footer.
fn forwarded_port(k: &Ktui) -> u16 {
    k.wait_for("forwarding 127.0.0.1:", SLOW);
    let screen = k.screen();
    screen
        .split("forwarding 127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no local port on screen\n{screen}"))
}

#[test]
fn demo_port_forward_answers_with_the_labelled_response() {
    let (mut k, _dir, pod) = frontend();
    k.type_keys("F");
    k.wait_for(&format!("pf pod/{pod} -n shop 8080:8080"), SLOW);
    // Any free local port (8080 may be taken on the machine running the test).
    k.send(b"\x15"); // ctrl-u: the line's start
    k.type_keys(&format!("pf pod/{pod} -n shop 0:8080"));
    k.press_enter();
    let port = forwarded_port(&k);
    let got = http_get(port, "/hello");
    assert!(got.starts_with("HTTP/1.1 200 OK\r\n"), "{got}");
    assert!(got.contains("X-Ktui-Demo: simulated"), "{got}");
    assert!(
        got.contains(&format!(
            "ktui demo: simulated response from pod shop/{pod}, container frontend, port 8080."
        )),
        "{got}"
    );
    assert!(got.contains("Request: GET /hello HTTP/1.1"), "{got}");
    // Through the service: port 80 targets the pods' 8080.
    k.command("pf svc/frontend -n shop 0:80");
    k.wait_for("⇄ 2 port-forwards", SLOW);
    let port = forwarded_port(&k);
    let got = http_get(port, "/via-service");
    assert!(
        got.contains("simulated response from pod shop/frontend-"),
        "{got}"
    );
    assert!(got.contains("port 8080"), "{got}");
    k.command("pf");
    k.wait_until("both forwards active", SLOW, |s| {
        s.contains("svc/frontend:80") && s.contains("pod/frontend-") && s.matches("active").count() == 2
    });
    // `j` moves to the second forward (the service's); `ctrl-d` stops that one.
    k.type_keys("j");
    k.send(b"\x04");
    k.wait_until("the service's forward stopped", SLOW, |s| {
        s.contains("port-forwards[1]") && !s.contains("svc/frontend:80") && s.contains("pod/frontend-")
    });
    k.command("q");
    let (status, _) = k.wait_exit(Duration::from_secs(30)).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

#[test]
fn demo_without_a_shell_offers_a_debug_container_that_is_confirmed_then_attached() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_with(
        &dir.path().join("no-kubeconfig"),
        &["--demo", "-n", "kube-system"],
        ROWS,
    );
    k.wait_until("running coredns pods", SLOW, |s| {
        s.lines().any(|l| l.contains("coredns-") && l.contains("Running"))
    });
    k.type_keys("/coredns");
    k.press_enter();
    k.wait_until("only coredns pods", SLOW, |s| !s.contains("kube-proxy-"));
    let screen = k.screen();
    let pod = screen
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
        .find(|w| w.starts_with("coredns-") && w.len() > "coredns-".len())
        .unwrap_or_else(|| panic!("no coredns pod\n{screen}"))
        .to_owned();
    k.type_keys("s");
    k.wait_for(&format!(":exec pod/{pod} -n kube-system -c coredns --"), SLOW);
    // The prompt is the exec line; the footer also offers the debug line: type it instead.
    k.send(b"\x15");
    k.type_keys(&format!("debug pod/{pod} -n kube-system -c coredns"));
    k.press_enter();
    k.wait_until("the dialog naming the context", SLOW, |s| {
        s.contains(&format!("add a debug container to pod/{pod}?")) && s.contains("context: ktui-demo")
    });
    k.type_keys("y");
    k.wait_until("the debug container's shell", SLOW, |s| {
        !k.alternate_screen() && s.contains("simulated container debugger-") && s.contains("(busybox:1.36)")
    });
    k.send(b"exit 0\r");
    k.wait_until("ktui again with the exit code", SLOW, |s| {
        k.alternate_screen()
            && s.contains(&format!("debug container in pod/{pod} -c debugger-"))
            && s.contains("exit code 0")
    });
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}
