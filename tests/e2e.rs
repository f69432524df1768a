//! End-to-end tests: the real `ktui` binary in a pseudo-terminal (portable-pty + vt100)
//! against the real test cluster, asserting on what the screen shows — live updates, the
//! fuzzy filter, kind switching and drill-in, namespaces, RBAC, exit and terminal restore,
//! signals and hangup, and startup with an unreachable API server.
//! Run with `bash tests/run.sh --test e2e` (each test uses its own namespace); without a
//! cluster only the unreachable-server test runs.
#[path = "support/pty.rs"]
mod pty;
mod support;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pty::Tui;
use support::Cluster;

const ROWS: u16 = 30;
const COLS: u16 = 120;
/// The live-update budget: a change made with kubectl must show within this.
const LIVE: Duration = Duration::from_secs(2);
/// Generous timeouts for the polls themselves; budgets are asserted separately.
const SLOW: Duration = Duration::from_secs(10);

// ---------------------------------------------------------------------------------------
// helpers

/// A running ktui plus the temp dir holding its log file and home.
struct Ktui {
    tui: Tui,
    _dir: tempfile::TempDir,
}

impl std::ops::Deref for Ktui {
    type Target = Tui;
    fn deref(&self) -> &Tui {
        &self.tui
    }
}
impl std::ops::DerefMut for Ktui {
    fn deref_mut(&mut self) -> &mut Tui {
        &mut self.tui
    }
}

/// Run ktui on `kubeconfig` with `args` in a `rows`×120 pty, with its own log file and
/// HOME/XDG dirs in a temp dir.
fn ktui_with(kubeconfig: &Path, args: &[&str], rows: u16) -> Ktui {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("ktui.log");
    let mut all: Vec<&OsStr> = vec![OsStr::new("--kubeconfig"), kubeconfig.as_os_str()];
    all.extend([OsStr::new("--log-file"), log.as_os_str()]);
    all.extend(args.iter().map(OsStr::new));
    let home = dir.path().as_os_str();
    let envs: [(&str, &OsStr); 5] = [
        ("KUBECONFIG", kubeconfig.as_os_str()),
        ("HOME", home),
        ("XDG_CONFIG_HOME", home),
        ("XDG_STATE_HOME", home),
        ("XDG_CACHE_HOME", home),
    ];
    let mut tui = Tui::spawn(env!("CARGO_BIN_EXE_ktui"), &all, &envs, rows, COLS);
    tui.log_file = Some(log);
    Ktui { tui, _dir: dir }
}

fn ktui(cluster: &Cluster, args: &[&str]) -> Ktui {
    ktui_with(&cluster.kubeconfig, args, ROWS)
}

/// The table line showing `name` as a whole cell, if any.
fn row_of(screen: &str, name: &str) -> Option<String> {
    screen
        .lines()
        .find(|l| {
            l.split(|c: char| c.is_whitespace() || c == '│')
                .any(|cell| cell == name)
        })
        .map(str::to_string)
}

/// Whether a line shows both `ns` and `name` as whole cells (all-namespaces view).
fn ns_row(screen: &str, ns: &str, name: &str) -> bool {
    screen.lines().any(|l| {
        let cells: Vec<&str> = l.split(|c: char| c.is_whitespace() || c == '│').collect();
        cells.contains(&ns) && cells.contains(&name)
    })
}

fn has_row(screen: &str, name: &str) -> bool {
    row_of(screen, name).is_some()
}

/// Line 2 of the screen: `<kind>  <count>  <state>`.
fn state_line(screen: &str) -> &str {
    screen.lines().nth(1).unwrap_or("")
}

/// The whitespace-separated words of the state line (the count is the second).
fn state_words(screen: &str) -> Vec<&str> {
    state_line(screen).split_whitespace().collect()
}

/// Create bare pods (one container, never runs: there is no kubelet) in `ns`, in one call.
fn create_pods(cluster: &Cluster, ns: &str, names: &[&str]) {
    let items: Vec<serde_json::Value> = names
        .iter()
        .map(|n| {
            serde_json::json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": n, "namespace": ns, "labels": {"e2e": "yes"}},
                "spec": {"containers": [{"name": "c", "image": "registry.invalid/e2e:1"}]}
            })
        })
        .collect();
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items});
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), list.to_string()).expect("write pod list");
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
}

/// Really remove a pod (no kubelet confirms a graceful delete, so force it).
fn force_delete_pod(cluster: &Cluster, ns: &str, name: &str) {
    cluster.kubectl_ok(&[
        "-n",
        ns,
        "delete",
        "pod",
        name,
        "--grace-period=0",
        "--force",
        "--wait=false",
    ]);
}

/// Wait until the list in the pty is complete and live (state word `live` on line 2).
fn wait_live(k: &Tui) -> Duration {
    k.wait_until("the state line to say `live`", SLOW, |s| {
        state_words(s).contains(&"live")
    })
}

/// Assert `took` is within `budget`, naming what and dumping the screen.
fn assert_within(k: &Tui, what: &str, took: Duration, budget: Duration) {
    eprintln!("timing: {what}: {took:.2?}");
    assert!(
        took <= budget,
        "{what} took {took:.2?}, more than {budget:?}\n{}",
        k.dump()
    );
}

/// Everything that says "the terminal was handed back": ktui's output ends with leaving the
/// alternate screen and showing the cursor (nothing re-enters or hides it afterwards), and
/// the pty is out of raw mode again.
fn assert_terminal_restored(k: &Tui) {
    assert!(
        k.wait_output_done(Duration::from_secs(2)),
        "pty still open after exit\n{}",
        k.dump()
    );
    let raw = k.raw();
    let tail_from = raw.len().saturating_sub(64);
    let tail = String::from_utf8_lossy(&raw[tail_from..]).into_owned();
    let leave = pty::rfind(&raw, b"\x1b[?1049l");
    let enter = pty::rfind(&raw, b"\x1b[?1049h");
    let show = pty::rfind(&raw, b"\x1b[?25h");
    let hide = pty::rfind(&raw, b"\x1b[?25l");
    assert!(
        enter.is_some(),
        "ktui never entered the alternate screen; output tail {tail:?}"
    );
    assert!(
        leave.is_some_and(|l| l > enter.unwrap() && l >= tail_from),
        "output does not end by leaving the alternate screen (\\x1b[?1049l): tail {tail:?}"
    );
    assert!(
        show.is_some_and(|s| hide.is_none_or(|h| s > h) && s >= tail_from),
        "output does not end with the cursor shown (\\x1b[?25h): tail {tail:?}"
    );
    assert!(
        !k.alternate_screen(),
        "vt100 still on the alternate screen; tail {tail:?}"
    );
    assert!(
        !k.cursor_hidden(),
        "vt100 says the cursor is still hidden; tail {tail:?}"
    );
    let t = k.termios().expect("tcgetattr on the pty");
    assert!(
        t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0,
        "pty left in raw mode (ICANON/ECHO off): c_lflag={:#o}",
        t.c_lflag
    );
}

// ---------------------------------------------------------------------------------------
// 1. live updates

/// A pod created with kubectl appears, a status change shows in the STATUS cell, and a
/// deletion removes the row — each within 2 s of kubectl returning.
#[test]
fn created_changed_and_deleted_pods_show_within_2s() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-live");
    let k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_for("no resources", SLOW);
    k.wait_for(&format!("pods({ns})[0]"), SLOW);

    create_pods(&cluster, &ns, &["e2e-pod-a"]);
    let took = k.wait_until("e2e-pod-a to appear", SLOW, |s| has_row(s, "e2e-pod-a"));
    assert_within(&k, "created pod appeared", took, LIVE);
    k.wait_for(&format!("pods({ns})[1]"), LIVE);

    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "patch",
        "pod",
        "e2e-pod-a",
        "--subresource=status",
        "--type=merge",
        "-p",
        r#"{"status":{"phase":"Failed","reason":"Evicted","message":"e2e"}}"#,
    ]);
    let took = k.wait_until("the STATUS of e2e-pod-a to become Evicted", SLOW, |s| {
        row_of(s, "e2e-pod-a").is_some_and(|r| r.split_whitespace().any(|w| w == "Evicted"))
    });
    assert_within(&k, "status change showed", took, LIVE);

    force_delete_pod(&cluster, &ns, "e2e-pod-a");
    let took = k.wait_until("e2e-pod-a to disappear", SLOW, |s| !has_row(s, "e2e-pod-a"));
    assert_within(&k, "deleted pod disappeared", took, LIVE);
    k.wait_for(&format!("pods({ns})[0]"), LIVE);
}

// ---------------------------------------------------------------------------------------
// 2. fuzzy filter

/// `/` + letters narrows the list live to the fuzzy matches, the state line and the title
/// show `matched/total`, `enter` keeps the filter and `esc` restores the full list.
#[test]
fn fuzzy_filter_narrows_and_esc_restores() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-filter");
    let all = ["frontend-1", "frontend-2", "backend-1", "cache-1"];
    create_pods(&cluster, &ns, &all);
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_until("all four pods", SLOW, |s| all.iter().all(|n| has_row(s, n)));
    k.wait_for(&format!("pods({ns})[4]"), LIVE);

    let narrowed = |s: &str| {
        has_row(s, "frontend-1")
            && has_row(s, "frontend-2")
            && !has_row(s, "backend-1")
            && !has_row(s, "cache-1")
            && state_words(s).get(1) == Some(&"2/4")
            && s.contains(&format!("pods({ns})[2/4]"))
    };
    k.type_keys("/fro");
    k.wait_until(
        "`/fro` to narrow the list to frontend-1, frontend-2 with 2/4 in the state line and title",
        Duration::from_secs(3),
        narrowed,
    );
    k.press_enter();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        narrowed(&k.screen()),
        "`enter` did not keep the filter\n{}",
        k.dump()
    );

    k.press_esc();
    k.wait_until(
        "`esc` to restore all four pods with count 4",
        Duration::from_secs(3),
        |s| {
            all.iter().all(|n| has_row(s, n))
                && state_words(s).get(1) == Some(&"4")
                && s.contains(&format!("pods({ns})[4]"))
        },
    );
}

// ---------------------------------------------------------------------------------------
// 3. kinds and drill-in

/// `:deploy` lists the namespace's deployment (READY 0/3: pods never run), `enter` shows
/// just its pods, `esc` goes back to the deployments.
#[test]
fn deploy_view_drills_into_pods_and_back() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-deploy");
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "create",
        "deployment",
        "e2e-web",
        "--image=registry.invalid/e2e:1",
        "--replicas=3",
    ]);
    create_pods(&cluster, &ns, &["e2e-loner"]);
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_until("the bare pod e2e-loner", SLOW, |s| has_row(s, "e2e-loner"));

    k.command("deploy");
    k.wait_for(&format!("deployments({ns})"), Duration::from_secs(3));
    k.wait_until("deployment e2e-web with READY 0/3", SLOW, |s| {
        row_of(s, "e2e-web").is_some_and(|r| r.split_whitespace().nth(1) == Some("0/3"))
    });
    assert_eq!(
        state_words(&k.screen()).first(),
        Some(&"deployments"),
        "\n{}",
        k.dump()
    );

    k.press_enter();
    let pods_of_web = |s: &str| {
        s.lines()
            .filter(|l| l.trim_start_matches('│').starts_with("e2e-web-"))
            .count()
    };
    k.wait_until("the 3 pods of e2e-web after `enter`", SLOW, |s| {
        pods_of_web(s) == 3 && s.contains(&format!("pods({ns})[3]"))
    });
    let screen = k.screen();
    assert!(
        !has_row(&screen, "e2e-loner"),
        "drill-in shows a pod not of e2e-web\n{}",
        k.dump()
    );
    assert!(
        state_line(&screen).contains("e2e-web"),
        "state line does not name the deployment\n{}",
        k.dump()
    );

    k.press_esc();
    k.wait_until(
        "`esc` to go back to the deployments",
        Duration::from_secs(3),
        |s| s.contains(&format!("deployments({ns})[1]")) && has_row(s, "e2e-web") && pods_of_web(s) == 0,
    );
}

// ---------------------------------------------------------------------------------------
// 4. namespaces

/// `-n <ns>` shows only that namespace; `-A` adds a NAMESPACE column and shows pods of
/// several namespaces. (Namespaces start with "0" so they sort first among all the
/// shared cluster's namespaces.)
#[test]
fn namespace_flag_and_all_namespaces() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns_a = cluster.create_ns("0e2e-nsa");
    let ns_b = cluster.create_ns("0e2e-nsb");
    create_pods(&cluster, &ns_a, &["pod-in-a"]);
    create_pods(&cluster, &ns_b, &["pod-in-b"]);

    let k = ktui(&cluster, &["-n", &ns_a]);
    wait_live(&k);
    k.wait_until("pod-in-a", SLOW, |s| has_row(s, "pod-in-a"));
    k.wait_for(&format!("pods({ns_a})[1]"), LIVE);
    let screen = k.screen();
    assert!(
        screen
            .lines()
            .next()
            .unwrap_or("")
            .contains(&format!("namespace: {ns_a}")),
        "\n{}",
        k.dump()
    );
    assert!(
        !has_row(&screen, "pod-in-b"),
        "-n {ns_a} shows a pod of {ns_b}\n{}",
        k.dump()
    );
    assert!(
        !screen.contains("NAMESPACE"),
        "-n shows a NAMESPACE column\n{}",
        k.dump()
    );
    drop(k);

    let k = ktui_with(&cluster.kubeconfig, &["-A"], 60);
    wait_live(&k);
    k.wait_until("NAMESPACE column and pods of both namespaces", SLOW, |s| {
        s.lines().any(|l| l.contains("NAMESPACE") && l.contains("NAME"))
            && ns_row(s, &ns_a, "pod-in-a")
            && ns_row(s, &ns_b, "pod-in-b")
    });
    assert!(
        k.line(0).contains("namespace: all"),
        "header does not say all namespaces\n{}",
        k.dump()
    );
}

// ---------------------------------------------------------------------------------------
// 5. RBAC

/// The viewer context lists team-a's pods; in `default` (not allowed) the state line says
/// `forbidden: list pods` and the list never claims "no resources".
#[test]
fn viewer_sees_team_a_and_forbidden_elsewhere() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let pod = support::unique_ns("e2e-viewer");
    create_pods(&cluster, support::VIEWER_NS, &[&pod]);
    struct Cleanup<'a>(&'a Cluster, &'a str);
    impl Drop for Cleanup<'_> {
        fn drop(&mut self) {
            let _ = self.0.kubectl(&[
                "-n",
                support::VIEWER_NS,
                "delete",
                "pod",
                self.1,
                "--grace-period=0",
                "--force",
            ]);
        }
    }
    let _cleanup = Cleanup(&cluster, &pod);

    let k = ktui(
        &cluster,
        &["--context", support::VIEWER, "-n", support::VIEWER_NS],
    );
    wait_live(&k);
    k.wait_until("the viewer to see its pod in team-a", SLOW, |s| has_row(s, &pod));
    assert!(k.line(0).contains("context: ktui-viewer"), "\n{}", k.dump());
    drop(k);

    let k = ktui(&cluster, &["--context", support::VIEWER, "-n", "default"]);
    let deadline = Instant::now() + SLOW;
    let mut forbidden_since: Option<Instant> = None;
    // Watch from spawn until the state has said forbidden for 2 s: never "no resources".
    loop {
        let s = k.screen();
        assert!(
            !s.contains("no resources"),
            "forbidden list shown as \"no resources\"\n{}",
            k.dump()
        );
        if state_line(&s).contains("forbidden: list pods") {
            let since = *forbidden_since.get_or_insert_with(Instant::now);
            if since.elapsed() > Duration::from_secs(2) {
                break;
            }
        } else if forbidden_since.is_some() {
            panic!("the forbidden state went away again\n{}", k.dump());
        }
        assert!(
            Instant::now() < deadline,
            "no `forbidden: list pods` in the state line\n{}",
            k.dump()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !k.raw_contains("no resources"),
        "\"no resources\" was drawn at some point\n{}",
        k.dump()
    );
}

// ---------------------------------------------------------------------------------------
// 6. quitting

/// `:q` exits 0 and hands the terminal back (alternate screen left, cursor shown, raw mode
/// off); so does ctrl-c.
#[test]
fn quit_and_ctrl_c_exit_zero_and_restore_the_terminal() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-quit");

    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.command("q");
    let (status, took) = k
        .wait_exit(Duration::from_secs(3))
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
        .wait_exit(Duration::from_secs(3))
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

/// SIGTERM makes ktui restore the terminal and exit cleanly within 2 s.
#[test]
fn sigterm_restores_the_terminal_and_exits() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-sigterm");
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.signal(libc::SIGTERM);
    let (status, took) = k
        .wait_exit(Duration::from_secs(2))
        .unwrap_or_else(|| panic!("SIGTERM: still running after 2 s\n{}", k.dump()));
    eprintln!("timing: SIGTERM exit: {took:.2?}, status {status:?}");
    assert_clean_exit(&k, "SIGTERM", &status);
    assert_terminal_restored(&k);
}

/// Closing the pty (every fd we hold on the master) makes ktui exit within 2 s, cleanly,
/// leaving no process behind.
#[test]
fn closing_the_pty_ends_ktui() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-hangup");
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    let pid = k.pid();
    k.close_pty();
    let (status, took) = k.wait_exit(Duration::from_secs(2)).unwrap_or_else(|| {
        panic!(
            "pty closed: ktui (pid {pid}) still running after 2 s\n{}",
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

/// With the API server unreachable the UI is drawn within 1 s, answers keys, and soon says
/// why the list is empty (unreachable / reconnecting / cannot connect) — never
/// "no resources". Needs no cluster.
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

    k.wait_until("the header", Duration::from_secs(5), |s| {
        s.lines()
            .next()
            .is_some_and(|l| l.contains("context: dead") && l.contains("https://127.0.0.1:1"))
    });
    let up = k.started.elapsed();
    assert_within(
        &k,
        "header drawn after spawn (server unreachable)",
        up,
        Duration::from_secs(1),
    );

    let help_open = |s: &str| s.lines().any(|l| l.contains('┌') && l.contains("help"));
    let t0 = Instant::now();
    k.type_keys("?");
    k.wait_until("`?` to open the help", Duration::from_secs(3), help_open);
    let took = t0.elapsed();
    assert_within(
        &k,
        "help opened after `?` (server unreachable)",
        took,
        Duration::from_secs(1),
    );
    k.press_esc();
    k.wait_until("the help to close", Duration::from_secs(3), |s| !help_open(s));

    let says_why = |s: &str| {
        let s = s.to_lowercase();
        ["unreachable", "reconnecting", "cannot connect"]
            .iter()
            .any(|w| s.contains(w))
    };
    let took = k.wait_until(
        "unreachable/reconnecting/cannot connect",
        Duration::from_secs(8),
        says_why,
    );
    eprintln!(
        "timing: unreachable state shown {took:.2?} after the help closed ({:.2?} after spawn)",
        k.started.elapsed()
    );
    assert!(
        k.started.elapsed() < Duration::from_secs(6),
        "took too long to say the server is unreachable\n{}",
        k.dump()
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
