//! Shared helpers of the end-to-end tests: run ktui in a pty with its own log and home,
//! read the table and the state line, create and force-delete pods, report timings against
//! their goals and assert the restored terminal. Declared once in tests/e2e/main.rs as `util`.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

use crate::pty::{self, Tui};
use crate::support::Cluster;

pub const ROWS: u16 = 30;
pub const COLS: u16 = 120;
/// The live-update goal: a change made with kubectl should show within this. Reported next
/// to each measurement ([`report_timing`]), never asserted: a loaded, shared machine is slow
/// without ktui being wrong (latency goals belong in benchmarks).
pub const LIVE: Duration = Duration::from_secs(2);
/// How long a poll or an exit may take before the test fails: long enough that only a hang,
/// not a slow machine, reaches it.
pub const SLOW: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------------------------------
// helpers

/// A running ktui plus the temp dir holding its log file and home.
pub struct Ktui {
    pub tui: Tui,
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
pub fn ktui_with(kubeconfig: &Path, args: &[&str], rows: u16) -> Ktui {
    ktui_sized(kubeconfig, args, rows, COLS)
}

/// [`ktui_with`] in a `rows`×`cols` pty.
pub fn ktui_sized(kubeconfig: &Path, args: &[&str], rows: u16, cols: u16) -> Ktui {
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
    let mut tui = Tui::spawn(env!("CARGO_BIN_EXE_ktui"), &all, &envs, rows, cols);
    tui.log_file = Some(log);
    Ktui { tui, _dir: dir }
}

pub fn ktui(cluster: &Cluster, args: &[&str]) -> Ktui {
    ktui_with(&cluster.kubeconfig, args, ROWS)
}

/// The table line showing `name` as a whole cell, if any.
pub fn row_of(screen: &str, name: &str) -> Option<String> {
    screen
        .lines()
        .find(|l| {
            l.split(|c: char| c.is_whitespace() || c == '│')
                .any(|cell| cell == name)
        })
        .map(str::to_string)
}

/// Whether a line shows both `ns` and `name` as whole cells (all-namespaces view).
pub fn ns_row(screen: &str, ns: &str, name: &str) -> bool {
    screen.lines().any(|l| {
        let cells: Vec<&str> = l.split(|c: char| c.is_whitespace() || c == '│').collect();
        cells.contains(&ns) && cells.contains(&name)
    })
}

pub fn has_row(screen: &str, name: &str) -> bool {
    row_of(screen, name).is_some()
}

/// Line 2 of the screen: `<kind>  <count>  <state>`.
pub fn state_line(screen: &str) -> &str {
    screen.lines().nth(1).unwrap_or("")
}

/// The whitespace-separated words of the state line (the count is the second).
pub fn state_words(screen: &str) -> Vec<&str> {
    state_line(screen).split_whitespace().collect()
}

/// Create bare pods (one container that never runs: its image, from registry.invalid, never
/// pulls on the hollow nodes) in `ns`, in one call.
pub fn create_pods(cluster: &Cluster, ns: &str, names: &[&str]) {
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

/// Really remove a pod now (a graceful delete waits for its kubelet to confirm it).
pub fn force_delete_pod(cluster: &Cluster, ns: &str, name: &str) {
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
pub fn wait_live(k: &Tui) -> Duration {
    k.wait_until("the state line to say `live`", SLOW, |s| {
        state_words(s).contains(&"live")
    })
}

/// Reports a measured latency on stderr next to its goal (`timing: …`) and says when it
/// missed it. Asserts nothing: the poll that measured `took` fails on a hang ([`SLOW`]).
pub fn report_timing(what: &str, took: Duration, goal: Duration) {
    let missed = if took > goal { ", over the goal" } else { "" };
    eprintln!("timing: {what}: {took:.2?} (goal {goal:.2?}{missed})");
}

/// Everything that says "the terminal was handed back": ktui's output ends with leaving the
/// alternate screen and showing the cursor (nothing re-enters or hides it afterwards), and
/// the pty is out of raw mode again.
pub fn assert_terminal_restored(k: &Tui) {
    assert!(
        k.wait_output_done(SLOW),
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
