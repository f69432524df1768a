//! The demo server the usage e2e tests run as their own process, and the figures computed by
//! hand from its answers (the pod or node and its PodMetrics / NodeMetrics over plain HTTP).

use crate::usage_screen::{self as us, Table};
use crate::util;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use util::*;

/// `ktui demo-server ARGS` as its own process, with its kubeconfig and address.
pub(super) struct Server {
    pub(super) child: Child,
    pub(super) kubeconfig: PathBuf,
    /// `127.0.0.1:PORT`.
    pub(super) addr: String,
}

impl Server {
    pub(super) fn start(dir: &Path, name: &str, args: &[&str]) -> Server {
        let kubeconfig = dir.join(format!("{name}.kubeconfig"));
        let child = Command::new(env!("CARGO_BIN_EXE_ktui"))
            .arg("demo-server")
            .args(args)
            .arg("--kubeconfig-out")
            .arg(&kubeconfig)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        let text = loop {
            let text = std::fs::read_to_string(&kubeconfig).unwrap_or_default();
            if text.contains("current-context") {
                break text;
            }
            assert!(start.elapsed() < SLOW, "the demo server wrote no kubeconfig");
            std::thread::sleep(Duration::from_millis(50));
        };
        let addr = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("server: http://"))
            .find(|a| !a.contains('/'))
            .expect("the admin cluster's server")
            .to_owned();
        Server {
            child,
            kubeconfig,
            addr,
        }
    }

    pub(super) fn signal(&self, sig: libc::c_int) {
        // SAFETY: kill(2) on our own child's pid (not reaped before drop).
        unsafe { libc::kill(self.child.id() as libc::pid_t, sig) };
    }

    /// GET `path` as the admin (`/viewer/…` as the viewer): status and JSON body.
    pub(super) fn get(&self, path: &str) -> (u16, Value) {
        let mut s = std::net::TcpStream::connect(&self.addr).expect("connect to the demo server");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let token = if path.starts_with("/viewer/") {
            "ktui-demo-viewer-token"
        } else {
            "ktui-demo-token"
        };
        write!(
            s,
            "GET {path} HTTP/1.0\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nAccept: application/json\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("read the answer");
        let at = crate::pty::find(&raw, b"\r\n\r\n").expect("an HTTP answer");
        let head = String::from_utf8_lossy(&raw[..at]);
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("status line of {head:?}"));
        let body = serde_json::from_slice(&raw[at + 4..])
            .unwrap_or_else(|e| panic!("GET {path}: {e}: {}", String::from_utf8_lossy(&raw)));
        (status, body)
    }

    pub(super) fn get_ok(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.signal(libc::SIGCONT);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `[metrics] interval` config in `dir`; the `--config` argument for it.
pub(super) fn interval_config(dir: &Path, interval: &str) -> String {
    let path = dir.join(format!("metrics-{interval}.toml"));
    std::fs::write(&path, format!("[metrics]\ninterval = \"{interval}\"\n")).unwrap();
    path.display().to_string()
}

/// A pod's figures as ktui should draw them, from the server's answers now; `None` when
/// the server has no metrics for it (see [`us::pod_figures`]).
pub(super) fn pod_figures(server: &Server, ns: &str, name: &str) -> Option<Vec<(&'static str, String)>> {
    let pod = server.get_ok(&format!("/api/v1/namespaces/{ns}/pods/{name}"));
    let (status, metrics) = server.get(&format!(
        "/apis/metrics.k8s.io/v1beta1/namespaces/{ns}/pods/{name}"
    ));
    if status == 404 {
        return None;
    }
    assert_eq!(status, 200, "{metrics}");
    Some(us::pod_figures(&pod, &metrics))
}

/// A node's figures as `kubectl top nodes` prints them, from the server's answers now;
/// `None` when the server has no metrics for it (see [`us::node_figures`]).
pub(super) fn node_figures(server: &Server, name: &str) -> Option<Vec<(&'static str, String)>> {
    let node = server.get_ok(&format!("/api/v1/nodes/{name}"));
    let (status, metrics) = server.get(&format!("/apis/metrics.k8s.io/v1beta1/nodes/{name}"));
    if status == 404 {
        return None;
    }
    assert_eq!(status, 200, "{metrics}");
    Some(us::node_figures(&node, &metrics))
}

/// Names of the server's pods in `ns` starting with `prefix` that have metrics, in name order.
pub(super) fn pods_with_metrics(server: &Server, ns: &str, prefix: &str) -> Vec<String> {
    let list = server.get_ok(&format!("/apis/metrics.k8s.io/v1beta1/namespaces/{ns}/pods"));
    let mut names: Vec<String> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["metadata"]["name"].as_str())
        .filter(|n| n.starts_with(prefix))
        .map(str::to_owned)
        .collect();
    names.sort();
    names
}

/// The one kube-proxy pod checked: the first with metrics; asserts the premise (one
/// container, requests, no limits).
pub(super) fn limitless_pod(server: &Server) -> String {
    let name = pods_with_metrics(server, "kube-system", "kube-proxy-")
        .into_iter()
        .next()
        .expect("a kube-proxy pod with metrics");
    let pod = server.get_ok(&format!("/api/v1/namespaces/kube-system/pods/{name}"));
    let containers = pod["spec"]["containers"].as_array().unwrap();
    assert_eq!(containers.len(), 1, "{name}: {containers:?}");
    let resources = &containers[0]["resources"];
    assert!(
        resources["requests"]["cpu"].is_string() && resources["limits"].is_null(),
        "{name} should request CPU and set no limits: {resources}"
    );
    name
}

/// The hidden-columns note must count the columns `all` has that `t` does not show and name
/// them in column order (cut with `…` when the title is short).
pub(super) fn assert_hidden_note(screen: &str, all: &[String], t: &Table) {
    let hidden: Vec<&str> = all.iter().map(String::as_str).filter(|h| !t.has(h)).collect();
    let note = us::hidden_note(screen)
        .unwrap_or_else(|| panic!("no hidden-columns note; hidden {hidden:?}\n{screen}"));
    let (count, names) = note.split_once(" hidden: ").unwrap_or_else(|| panic!("{note:?}"));
    assert_eq!(
        count.parse::<usize>().ok(),
        Some(hidden.len()),
        "note {note:?} for hidden {hidden:?}"
    );
    let names = names.trim_end_matches(" · shift-←/→");
    let full = hidden.join(" ");
    match names.strip_suffix('…') {
        Some(cut) => assert!(
            full.starts_with(cut) && !cut.is_empty(),
            "note {note:?} names other columns than {full:?}"
        ),
        None => assert_eq!(names, full, "note {note:?}"),
    }
}

// The screen reader and the hand computation themselves (tests/support/usage_screen.rs).

#[test]
fn hand_computation_quantities_and_rounding() {
    let u = us::quantity("65892735n");
    assert_eq!(us::cpu_cell(u), "66m");
    assert_eq!(us::pct_cell(us::pct_floor(u, Some(us::quantity("100m")))), "65%");
    assert_eq!(us::pct_cell(us::pct_floor(u, None)), "n/a");
    assert_eq!(us::mem_cell(us::quantity("48212Ki")), "47Mi");
    assert_eq!(us::quantity("1.5Gi"), us::quantity("1536Mi"));
    assert_eq!(us::quantity("0.5"), us::quantity("500m"));
    assert_eq!(
        us::kubectl_pct(us::quantity("283023336n"), us::quantity("7800m")),
        3
    );
    assert_eq!(us::quantity("100m") + us::quantity("20m"), us::quantity("120m"));
}

#[test]
fn screen_tables_are_cut_at_their_headers() {
    let screen = "\
┌ pods[2] ── 2 hidden: RESTARTS AGE · shift-←/→ ┐
│NAME↑   STATUS   CPU↓       MEM   %CPU/L│
│a       Running  no sample              │
│b-1     Running  66m        47Mi  n/a   │
└ metrics: stale since 2s ───────────────┘";
    let t = us::table(screen).unwrap();
    assert_eq!(t.headers(), ["NAME", "STATUS", "CPU", "MEM", "%CPU/L"]);
    assert_eq!(t.drawn_header("CPU").as_deref(), Some("CPU↓"));
    assert_eq!(t.cell("a", "CPU").as_deref(), Some("no sample"));
    assert_eq!(t.cell("b-1", "%CPU/L").as_deref(), Some("n/a"));
    assert_eq!(t.names(), ["a", "b-1"]);
    assert_eq!(
        us::bottom_border(screen).as_deref(),
        Some("metrics: stale since 2s")
    );
    assert_eq!(
        us::hidden_note(screen).as_deref(),
        Some("2 hidden: RESTARTS AGE · shift-←/→")
    );
}
