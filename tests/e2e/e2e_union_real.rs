//! End-to-end on the real tier: a union of contexts over the real test cluster and two
//! `ktui demo-server` processes (seeds 2 and 3) behind one kubeconfig the test writes (the real
//! cluster's cluster and user entries copied as they are: CA data and bearer token). Contexts,
//! in the union's order: `demo-a`, `ktui-test` (the real cluster), `demo-b`.
//!
//! Two pods run on the real cluster (hollow kubelets) in a namespace of the test's own, and
//! the pod to delete also exists, same namespace and name, in both demo clusters: the union's
//! pods view shows the three copies, one per CONTEXT; `y` on the real row opens its YAML in the
//! real cluster (`@ ktui-test`, the real uid); `ctrl-d`, `y` deletes it there — checked with
//! kubectl — while the demo copies keep their uids and the demo servers their pod counts
//! (plain HTTP). Then one demo server is SIGKILLed mid-view: within 15 s the header says in
//! words that its member is not live (`reconnecting …`), the real cluster's member stays live
//! (its bare row count, or `COUNT ● live`), and the filter still finds the real pod that is
//! left. The namespace (deleted with `--wait=false`), the demo servers and ktui are cleaned
//! up on drop, a panic included.
use crate::usage_screen as us;
use crate::{support, util};

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::Cluster;
use util::*;

const WIDE: u16 = 200;
const TALL: u16 = 50;
const CTRL_D: &[u8] = b"\x04";
/// The demo members' contexts (seeds 2 and 3); the real one is [`support::ADMIN`].
const DEMO_A: &str = "demo-a";
const DEMO_B: &str = "demo-b";
/// How long a killed member may still read `live`.
const NOTICE: Duration = Duration::from_secs(15);

/// `ktui demo-server --seed N` as its own process (so it alone can be killed), with the
/// admin's server URL and token from the kubeconfig it writes. Killed on drop.
struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    url: String,
    token: String,
}

impl Server {
    fn start(dir: &Path, seed: u64) -> Server {
        let kubeconfig = dir.join(format!("seed-{seed}.kubeconfig"));
        let child = Command::new(env!("CARGO_BIN_EXE_ktui"))
            .args(["demo-server", "--seed", &seed.to_string()])
            .arg("--kubeconfig-out")
            .arg(&kubeconfig)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // From here on the child is killed on drop, a panic below included.
        let mut server = Server {
            child,
            url: String::new(),
            token: String::new(),
        };
        let start = Instant::now();
        let text = loop {
            let text = std::fs::read_to_string(&kubeconfig).unwrap_or_default();
            if text.contains("current-context") && text.contains("preferences") {
                break text;
            }
            assert!(
                start.elapsed() < SLOW,
                "demo server (seed {seed}) wrote no kubeconfig"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        (server.url, server.token) = admin_of(&text);
        server
    }

    /// `127.0.0.1:PORT`.
    fn addr(&self) -> &str {
        self.url.strip_prefix("http://").unwrap()
    }

    fn kill(&self) {
        // SAFETY: kill(2) on our own child's pid (not reaped before drop).
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGKILL) };
    }

    /// `METHOD path` as the admin, with a JSON body if given: status and JSON answer.
    fn request(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let mut s = std::net::TcpStream::connect(self.addr()).expect("connect to the demo server");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        write!(
            s,
            "{method} {path} HTTP/1.0\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
             Accept: application/json\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            self.addr(),
            self.token,
            body.len()
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
        let answer = serde_json::from_slice(&raw[at + 4..])
            .unwrap_or_else(|e| panic!("{method} {path}: {e}: {}", String::from_utf8_lossy(&raw)));
        (status, answer)
    }

    fn get(&self, path: &str) -> (u16, Value) {
        self.request("GET", path, None)
    }

    /// POST `body` to `path`; panics unless the server created it.
    fn create(&self, path: &str, body: Value) -> Value {
        let (status, answer) = self.request("POST", path, Some(&body));
        assert_eq!(status, 201, "POST {path}: {answer}");
        answer
    }

    /// The number of pods the server lists in all namespaces.
    fn pod_count(&self) -> usize {
        let (status, list) = self.get("/api/v1/pods");
        assert_eq!(status, 200, "GET /api/v1/pods: {list}");
        list["items"].as_array().expect("a pod list").len()
    }

    /// `ns/name` as the server has it now: `(uid, deletionTimestamp)`, `None` when gone.
    fn pod(&self, ns: &str, name: &str) -> Option<(String, Option<String>)> {
        let (status, pod) = self.get(&format!("/api/v1/namespaces/{ns}/pods/{name}"));
        if status == 404 {
            return None;
        }
        assert_eq!(status, 200, "GET pod {ns}/{name}: {pod}");
        let uid = pod["metadata"]["uid"].as_str().expect("a uid").to_owned();
        let deleting = pod["metadata"]["deletionTimestamp"].as_str().map(str::to_owned);
        Some((uid, deleting))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The admin's server URL (the cluster whose URL has no path: not the viewer's `…/viewer`)
/// and token (user `ktui-demo`'s) in a kubeconfig the demo server wrote.
fn admin_of(kubeconfig: &str) -> (String, String) {
    let url = kubeconfig
        .lines()
        .filter_map(|l| l.trim().strip_prefix("server: "))
        .find(|u| u.strip_prefix("http://").is_some_and(|a| !a.contains('/')))
        .unwrap_or_else(|| panic!("no admin server in\n{kubeconfig}"))
        .to_owned();
    let users = kubeconfig
        .split_once("\nusers:\n")
        .unwrap_or_else(|| panic!("no users in\n{kubeconfig}"))
        .1;
    let token = users
        .split_once("- name: ktui-demo\n")
        .and_then(|(_, rest)| rest.lines().find_map(|l| l.trim().strip_prefix("token: ")))
        .unwrap_or_else(|| panic!("no token of user ktui-demo in\n{kubeconfig}"))
        .to_owned();
    (url, token)
}

/// Makes a file path in a kubeconfig entry absolute (relative paths are relative to the
/// kubeconfig they came from, which the merged one does not sit beside).
fn absolute(entry: &mut Value, key: &str, base: &Path) {
    if let Some(p) = entry.get(key).and_then(Value::as_str) {
        if Path::new(p).is_relative() {
            entry[key] = json!(base.join(p).display().to_string());
        }
    }
}

/// One kubeconfig (mode 0600) with contexts `demo-a`, `ktui-test`, `demo-b`: the real
/// cluster's context with its cluster and user entries copied from its kubeconfig as they
/// are (CA data, token; file paths made absolute), the demo servers' admin URL and token.
/// Written as JSON (a kubeconfig is YAML, and JSON is YAML).
fn merged_kubeconfig(cluster: &Cluster, a: &Server, b: &Server, path: &Path) {
    let real = kube::config::Kubeconfig::read_from(&cluster.kubeconfig)
        .unwrap_or_else(|e| panic!("read {}: {e}", cluster.kubeconfig.display()));
    let context = real
        .contexts
        .iter()
        .find(|c| c.name == support::ADMIN)
        .and_then(|c| c.context.clone())
        .unwrap_or_else(|| panic!("no context {} in the real kubeconfig", support::ADMIN));
    let base = cluster.kubeconfig.parent().unwrap();
    let mut real_cluster = serde_json::to_value(
        real.clusters
            .iter()
            .find(|c| c.name == context.cluster)
            .expect("the real context's cluster"),
    )
    .unwrap();
    absolute(&mut real_cluster["cluster"], "certificate-authority", base);
    let user = context.user.clone().expect("the real context's user");
    let mut real_user = serde_json::to_value(
        real.auth_infos
            .iter()
            .find(|u| u.name == user)
            .expect("the real context's user entry"),
    )
    .unwrap();
    for key in ["client-certificate", "client-key", "tokenFile"] {
        absolute(&mut real_user["user"], key, base);
    }
    assert!(
        real_user["user"].get("token").is_some_and(Value::is_string)
            || real_user["user"].get("client-certificate-data").is_some(),
        "the real user's credentials did not survive the copy: {}",
        real_user["user"]
            .as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>().join(","))
            .unwrap_or_default()
    );
    let demo = |name: &str, s: &Server| {
        (
            json!({"name": name, "cluster": {"server": s.url}}),
            json!({"name": name, "user": {"token": s.token}}),
            json!({"name": name, "context": {"cluster": name, "user": name}}),
        )
    };
    let (a_cluster, a_user, a_context) = demo(DEMO_A, a);
    let (b_cluster, b_user, b_context) = demo(DEMO_B, b);
    let config = json!({
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [a_cluster, real_cluster, b_cluster],
        "users": [a_user, real_user, b_user],
        "contexts": [
            a_context,
            {"name": support::ADMIN, "context": {"cluster": context.cluster, "user": user}},
            b_context,
        ],
        "current-context": support::ADMIN,
        "preferences": {},
    });
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .unwrap();
    f.write_all(serde_json::to_string_pretty(&config).unwrap().as_bytes())
        .unwrap();
}

/// Deletes the test's namespace on the real cluster (and so its pods) on drop, a panic
/// included.
struct NsGuard<'a> {
    cluster: &'a Cluster,
    ns: String,
}

impl Drop for NsGuard<'_> {
    fn drop(&mut self) {
        let _ = self.cluster.kubectl(&[
            "delete",
            "namespace",
            &self.ns,
            "--ignore-not-found",
            "--wait=false",
        ]);
    }
}

/// A pod that runs on the hollow nodes (any image not from a `*.invalid` registry pulls).
fn running_pod(ns: &str, name: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": ns, "labels": {"e2e": "union-real"}},
        "spec": {"containers": [{"name": "app", "image": "example.com/app:1"}],
                 "terminationGracePeriodSeconds": 1}
    })
}

/// The real pod `ns/name` through kubectl: `None` when gone, else `(uid, deletionTimestamp)`.
fn real_pod(cluster: &Cluster, ns: &str, name: &str) -> Option<(String, Option<String>)> {
    let out = cluster.kubectl_ok(&["-n", ns, "get", "pod", name, "-o", "json", "--ignore-not-found"]);
    if out.trim().is_empty() {
        return None;
    }
    let pod: Value = serde_json::from_str(&out).expect("kubectl's JSON");
    let uid = pod["metadata"]["uid"].as_str().expect("a uid").to_owned();
    let deleting = pod["metadata"]["deletionTimestamp"].as_str().map(str::to_owned);
    Some((uid, deleting))
}

/// The per-member parts of header line 2 (after `│`): `(context, words after it)`, e.g.
/// `("demo-a", "19")` (live) or `("demo-b", "19 ↻ reconnecting (attempt 2, 1s): …")`.
fn members(screen: &str) -> Vec<(String, String)> {
    let Some((_, parts)) = state_line(screen).split_once('│') else {
        return Vec::new();
    };
    parts
        .split(" · ")
        .filter_map(|p| {
            let (name, rest) = p.trim().split_once(' ')?;
            Some((name.to_owned(), rest.trim().to_owned()))
        })
        .collect()
}

/// What header line 2 says of member `context` (`None`: not named).
fn member(screen: &str, context: &str) -> Option<String> {
    members(screen)
        .into_iter()
        .find(|(c, _)| c == context)
        .map(|(_, w)| w)
}

/// The member's list is complete and live: its words are `COUNT` alone (a live member is
/// named by its count) or `COUNT ● live` (the same with its state spelled out).
fn is_live(words: &str) -> bool {
    let w: Vec<&str> = words.split_whitespace().collect();
    let count = w
        .first()
        .is_some_and(|c| !c.is_empty() && c.chars().all(|c| c.is_ascii_digit() || c == ','));
    count && (w.len() == 1 || w[1..] == ["●", "live"] || w[1..] == ["live"])
}

fn member_live(screen: &str, context: &str) -> bool {
    member(screen, context).is_some_and(|w| is_live(&w))
}

/// The union's own state (header line 2 before `│`) says live: `live`, or `N/N live` with
/// every member live.
fn union_live(screen: &str) -> bool {
    let own = state_line(screen).split('│').next().unwrap_or("");
    let w: Vec<&str> = own.split_whitespace().collect();
    let Some((&"live", before)) = w.split_last() else {
        return false;
    };
    // The word before it: `N/M` members live (the count of rows, `SHOWN/ALL`, comes earlier).
    before
        .last()
        .and_then(|x| x.split_once('/'))
        .is_none_or(|(a, b)| a == b)
}

/// The distinct CONTEXT cells of the table on screen.
fn shown_contexts(screen: &str) -> Vec<String> {
    let Some(t) = us::table(screen) else {
        return Vec::new();
    };
    let mut cells = t.column("CONTEXT");
    cells.retain(|c| !c.is_empty());
    cells.sort();
    cells.dedup();
    cells
}

/// `(CONTEXT, STATUS)` of every row of the table named `name`, top to bottom.
fn rows_named(screen: &str, name: &str) -> Vec<(String, String)> {
    let Some(t) = us::table(screen) else {
        return Vec::new();
    };
    t.rows
        .iter()
        .filter(|r| t.cell_of(r, "NAME").as_deref() == Some(name))
        .map(|r| {
            (
                t.cell_of(r, "CONTEXT").unwrap_or_default(),
                t.cell_of(r, "STATUS").unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
#[ignore = "real tier"]
fn a_union_with_the_real_cluster_deletes_there_alone_and_outlives_a_killed_member() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let real = support::ADMIN;
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (Server::start(dir.path(), 2), Server::start(dir.path(), 3));
    let kubeconfig = dir.path().join("merged.kubeconfig");
    merged_kubeconfig(&cluster, &a, &b, &kubeconfig);

    // Two running pods on the real cluster, in a namespace of the test's own.
    let guard = NsGuard {
        ns: cluster.create_ns("e2e-union-real"),
        cluster: &cluster,
    };
    let ns = guard.ns.clone();
    let suffix = ns.rsplit('-').next().unwrap().to_owned();
    let doomed = format!("union-del-{suffix}");
    let keeper = format!("union-keep-{suffix}");
    let file = dir.path().join("pods.json");
    std::fs::write(
        &file,
        json!({"apiVersion": "v1", "kind": "List",
               "items": [running_pod(&ns, &doomed), running_pod(&ns, &keeper)]})
        .to_string(),
    )
    .unwrap();
    cluster.kubectl_ok(&["create", "-f", file.to_str().unwrap()]);
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "wait",
        "--for=condition=Ready",
        &format!("pod/{doomed}"),
        &format!("pod/{keeper}"),
        "--timeout=60s",
    ]);
    let (real_uid, _) = real_pod(&cluster, &ns, &doomed).expect("the pod to delete");
    // The same namespace and pod in both demo clusters: a delete sent to the wrong cluster
    // would find an object there too.
    let demo_uids: Vec<String> = [&a, &b]
        .iter()
        .map(|s| {
            s.create(
                "/api/v1/namespaces",
                json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}),
            );
            let pod = s.create(
                &format!("/api/v1/namespaces/{ns}/pods"),
                running_pod(&ns, &doomed),
            );
            pod["metadata"]["uid"].as_str().expect("a uid").to_owned()
        })
        .collect();
    eprintln!("real {doomed} uid {real_uid}; demo copies {demo_uids:?}");

    let union = format!("{DEMO_A},{real},{DEMO_B}");
    let mut k = ktui_sized(&kubeconfig, &["--context", &union, "-A"], TALL, WIDE);
    let took = k.wait_until(
        "the union's header, all three members live, rows of all three",
        SLOW,
        |s| {
            s.lines()
                .next()
                .is_some_and(|l| l.contains(&format!("context: union of 3: {DEMO_A}, {real}, {DEMO_B}")))
                && [DEMO_A, real, DEMO_B].iter().all(|c| member_live(s, c))
                && union_live(s)
                && us::table(s).is_some_and(|t| t.headers().starts_with(&["CONTEXT", "NAMESPACE", "NAME"]))
                && shown_contexts(s) == [DEMO_A, DEMO_B, real]
        },
    );
    eprintln!("union up after {took:.2?}: {:?}", state_line(&k.screen()));

    // The real pods' rows: the real context in CONTEXT, Running.
    // Two terms (fzf style): the prefix and the suffix of the test's pod names.
    k.type_keys(&format!("/^union- -{suffix}$"));
    k.press_enter();
    k.wait_until("the test's pods: the real two and the demo copies", SLOW, |s| {
        rows_named(s, &keeper) == [(real.to_owned(), "Running".to_owned())]
            && rows_named(s, &doomed).len() == 3
            && rows_named(s, &doomed)
                .iter()
                .any(|(c, st)| c == real && st == "Running")
    });
    let screen = k.screen();
    let t = us::table(&screen).unwrap();
    let doomed_rows = rows_named(&screen, &doomed);
    let mut contexts: Vec<&str> = doomed_rows.iter().map(|(c, _)| c.as_str()).collect();
    contexts.sort();
    assert_eq!(contexts, [DEMO_A, DEMO_B, real], "{}", k.dump());
    // Select the real copy of the pod to delete (the selection starts on the first row).
    let at = t
        .rows
        .iter()
        .position(|r| {
            t.cell_of(r, "NAME").as_deref() == Some(doomed.as_str())
                && t.cell_of(r, "CONTEXT").as_deref() == Some(real)
        })
        .unwrap();
    k.type_keys(&"j".repeat(at));

    // `y`: its YAML, read from the real cluster.
    k.type_keys("y");
    k.wait_until("the real pod's YAML, pinned to the real cluster", SLOW, |s| {
        s.lines().nth(1).is_some_and(|l| l.contains(&format!("@ {real}")))
            && s.contains(&format!("name: {doomed}"))
            && s.contains(&real_uid)
    });
    assert!(
        demo_uids.iter().all(|u| !k.screen().contains(u.as_str())),
        "the YAML shows a demo copy's uid\n{}",
        k.dump()
    );
    k.press_esc();
    k.wait_until("the list again", SLOW, |s| rows_named(s, &doomed).len() == 3);

    // Demo pod counts before the delete.
    let counts_before = [a.pod_count(), b.pod_count()];
    k.send(CTRL_D);
    k.wait_until("the delete dialog of the real pod", SLOW, |s| {
        s.contains(&format!("delete pod/{doomed}?")) && s.contains(&format!("context: {real}"))
    });
    let dialog = k.screen();
    assert!(
        !dialog.contains(&format!("context: {DEMO_A}")) && !dialog.contains(&format!("context: {DEMO_B}")),
        "the dialog names a demo context\n{}",
        k.dump()
    );
    k.type_keys("y");
    let t0 = Instant::now();
    k.wait_for(&format!("deleted pod/{doomed} (context {real})"), SLOW);

    // Through kubectl: gone or going on the real cluster; the other real pod untouched.
    loop {
        match real_pod(&cluster, &ns, &doomed) {
            None | Some((_, Some(_))) => break,
            Some((uid, None)) => assert_eq!(uid, real_uid, "a new pod under the old name"),
        }
        assert!(
            t0.elapsed() < SLOW,
            "the real {doomed} was not deleted\n{}",
            k.dump()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    eprintln!(
        "real {doomed}: {:?} {:.2?} after the confirm",
        real_pod(&cluster, &ns, &doomed),
        t0.elapsed()
    );
    assert!(
        matches!(real_pod(&cluster, &ns, &keeper), Some((_, None))),
        "the real {keeper} was touched"
    );
    // Through each demo server: its copy the same object, not being deleted; its pods all
    // there (the scenario's own churn — a replaced frontend pod, a rollout, a job — may move
    // the count by a pod or two meanwhile).
    for ((name, s), uid) in [(DEMO_A, &a), (DEMO_B, &b)].iter().zip(&demo_uids) {
        assert_eq!(
            s.pod(&ns, &doomed),
            Some((uid.clone(), None)),
            "{name}'s copy of {doomed} was touched\n{}",
            k.dump()
        );
    }
    let counts_after = [a.pod_count(), b.pod_count()];
    eprintln!("demo pod counts before {counts_before:?}, after {counts_after:?}");
    for (i, name) in [DEMO_A, DEMO_B].iter().enumerate() {
        assert!(
            counts_before[i].abs_diff(counts_after[i]) <= 3,
            "{name}: {} pods before the delete, {} after",
            counts_before[i],
            counts_after[i]
        );
    }
    // The screen follows: the real row Terminating or gone, the demo copies Running.
    k.wait_until(
        "the real row Terminating or gone, the copies as they were",
        SLOW,
        |s| {
            let rows = rows_named(s, &doomed);
            rows.iter().filter(|(c, st)| c != real && st == "Running").count() == 2
                && rows.iter().all(|(c, st)| c != real || st != "Running")
        },
    );
    k.press_esc();
    k.wait_until("the whole list again", SLOW, |s| {
        us::table(s).is_some_and(|t| t.names().iter().any(|n| !n.contains(&suffix)))
            && [DEMO_A, real, DEMO_B].iter().all(|c| member_live(s, c))
    });

    // Kill demo-b mid-view.
    b.kill();
    let killed = Instant::now();
    let not_live = |s: &str| {
        member(s, DEMO_B).is_some_and(|w| !is_live(&w)) && member_live(s, real) && member_live(s, DEMO_A)
    };
    let shown = k.try_wait_until(NOTICE, not_live);
    assert!(
        shown.is_some(),
        "{DEMO_B} SIGKILLed {:.2?} ago: the header should say it is not live, the others \
         live\n{}",
        killed.elapsed(),
        k.dump()
    );
    let said = member(&k.screen(), DEMO_B).unwrap_or_default();
    eprintln!(
        "SIGKILL → header says {DEMO_B} {said:?} after {:.2?}: {:?}",
        killed.elapsed(),
        state_line(&k.screen())
    );
    assert!(
        ["reconnecting", "unreachable", "not connected", "stale"]
            .iter()
            .any(|w| said.contains(w)),
        "{DEMO_B}'s state is not in words: {said:?}\n{}",
        k.dump()
    );
    // A while later: still not live, the real member still live.
    std::thread::sleep(Duration::from_secs(3));
    k.wait_until(
        "the killed member still not live, the real one live",
        Duration::from_secs(5),
        not_live,
    );

    // The keys still work: the filter finds the real pod that is left.
    let t1 = Instant::now();
    k.type_keys(&format!("/^{keeper}$"));
    k.wait_until("the filter to narrow to the real pod left", SLOW, |s| {
        us::table(s).is_some_and(|t| t.names() == [keeper.clone()])
            && rows_named(s, &keeper) == [(real.to_owned(), "Running".to_owned())]
    });
    report_timing(
        "filter with a killed member",
        t1.elapsed(),
        Duration::from_secs(1),
    );
    k.press_esc();
    k.wait_until("esc to restore the whole list", SLOW, |s| {
        us::table(s).is_some_and(|t| t.names().iter().any(|n| *n != keeper))
    });
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
    eprintln!("test took {:.2?}", started.elapsed());
}
