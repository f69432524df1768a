//! End-to-end: kubeconfig users authenticated by exec credential plugins (real shell scripts)
//! against the demo server, ktui in a pty. A plugin that reads and writes `/dev/tty` must not
//! reach the terminal (it runs in its own session: its token still works, its stderr goes to
//! the log); hanging plugins time out, are killed as a process group on a context switch and
//! at exit, and never stop another context from connecting (issue 13, breaks 1 and 2).
use crate::{support, util};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use util::*;

const TOKEN_JSON: &str =
    r#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t"}}"#;

/// A demo server on its own runtime plus a kubeconfig whose contexts `good` (a static token),
/// `tty` (a plugin reading /dev/tty), `h1` and `h2` (plugins that hang) all point at it.
struct Setup {
    _rt: tokio::runtime::Runtime,
    _demo: ktui::sim::cli::DemoHandle,
    dir: tempfile::TempDir,
    kubeconfig: PathBuf,
}

impl Setup {
    fn new(current: &str) -> Setup {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let demo = rt
            .block_on(ktui::sim::cli::start_in_process(ktui::sim::DemoOptions::default()))
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        script(
            &d.join("tty.sh"),
            &format!(
                "echo $$ > '{p}/tty.pid'\necho 'plugin says hello on stderr' >&2\n\
                 printf 'Password: ' > /dev/tty\nread x < /dev/tty\necho \"$x\" > '{p}/typed'\n\
                 printf '%s' '{TOKEN_JSON}'\n",
                p = d.display()
            ),
        );
        script(
            &d.join("hang.sh"),
            &format!(
                "sleep 100000 &\necho $! > '{p}/'\"$1\".pid\nwait\n",
                p = d.display()
            ),
        );
        let exec_user = |name: &str, cmd: &str, args: &str| {
            format!(
                "- name: {name}\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      \
                 command: {cmd}\n      args: [{args}]\n      interactiveMode: IfAvailable\n"
            )
        };
        let ctx = |name: &str| {
            format!(
                "- name: {name}\n  context:\n    cluster: demo\n    user: {name}\n    namespace: default\n"
            )
        };
        let yaml = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: demo\n  cluster:\n    server: {url}\n\
             contexts:\n{c1}{c2}{c3}{c4}current-context: {current}\nusers:\n\
             - name: good\n  user:\n    token: static\n{u2}{u3}{u4}",
            url = demo.server.url(),
            c1 = ctx("good"),
            c2 = ctx("tty"),
            c3 = ctx("h1"),
            c4 = ctx("h2"),
            u2 = exec_user("tty", &d.join("tty.sh").display().to_string(), ""),
            u3 = exec_user("h1", &d.join("hang.sh").display().to_string(), "h1"),
            u4 = exec_user("h2", &d.join("hang.sh").display().to_string(), "h2"),
        );
        let kubeconfig = d.join("kubeconfig");
        std::fs::write(&kubeconfig, yaml).unwrap();
        Setup {
            _rt: rt,
            _demo: demo,
            dir,
            kubeconfig,
        }
    }

    /// The pid a plugin wrote into `name.pid`, waiting for it.
    fn pid(&self, name: &str) -> u32 {
        let path = self.dir.path().join(format!("{name}.pid"));
        let start = Instant::now();
        loop {
            if let Some(pid) = std::fs::read_to_string(&path)
                .ok()
                .and_then(|s| s.trim().parse().ok())
            {
                return pid;
            }
            assert!(start.elapsed() < SLOW, "plugin {name} never started");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Waits until `pid` is gone; false after `within`.
fn dies(pid: u32, within: Duration) -> bool {
    let start = Instant::now();
    while support::process_alive(pid) {
        if start.elapsed() > within {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

#[test]
fn exec_plugin_reading_the_tty_never_reaches_the_screen() {
    let s = Setup::new("tty");
    let mut k = ktui_with(&s.kubeconfig, &["-A"], ROWS);
    // Its token works: without a terminal the plugin's tty reads fail and it answers anyway.
    k.wait_until("the demo pods over the plugin's token", SLOW, |sc| {
        sc.contains("context: tty") && sc.contains("Running")
    });
    // Keys bound to nothing (`a` would attach: the demo answers attach now).
    k.type_keys("oiz");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !k.raw_contains("Password:"),
        "the plugin wrote on the terminal\n{}",
        k.dump()
    );
    let typed = std::fs::read_to_string(s.dir.path().join("typed")).unwrap_or_default();
    assert!(
        !typed.contains("oiz"),
        "the plugin read the user's keys: {typed:?}"
    );
    assert!(!k.screen().contains("plugin says hello"), "{}", k.dump());
    let pid = s.pid("tty");
    assert!(
        dies(pid, Duration::from_secs(5)),
        "the plugin outlived its answer"
    );
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
    let log = std::fs::read_to_string(k.log_file.clone().unwrap()).unwrap_or_default();
    // Its stderr is counted in the log, never copied there: a plugin may print credentials.
    assert!(
        log.contains("exec plugin wrote to stderr") && !log.contains("plugin says hello on stderr"),
        "stderr is logged by size only:\n{log}"
    );
}

#[test]
fn hung_exec_plugins_never_wedge_other_contexts_and_die_on_switch() {
    let s = Setup::new("good");
    let mut k = ktui_with(&s.kubeconfig, &["-A"], ROWS);
    k.wait_until("the good context", SLOW, |sc| {
        sc.contains("context: good") && sc.contains("Running")
    });
    k.command("ctx h1");
    let h1 = s.pid("h1");
    k.command("ctx h2");
    let h2 = s.pid("h2");
    assert!(
        dies(h1, Duration::from_secs(5)),
        "h1's plugin survived the switch"
    );
    k.command("ctx good");
    k.wait_until("good again, though two plugins hung", SLOW, |sc| {
        sc.contains("context: good") && sc.contains("Running")
    });
    assert!(
        dies(h2, Duration::from_secs(5)),
        "h2's plugin survived the switch"
    );
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}

#[test]
fn hung_exec_plugin_times_out_then_dies_with_ktui() {
    let s = Setup::new("h1");
    let mut k = ktui_with(&s.kubeconfig, &["-A"], ROWS);
    let h1 = s.pid("h1");
    k.wait_for("did not answer within 15s", SLOW);
    assert!(
        dies(h1, Duration::from_secs(2)),
        "the timed-out plugin is still running"
    );
    k.command("ctx h2");
    let h2 = s.pid("h2");
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q while a plugin hangs");
    assert!(dies(h2, Duration::from_secs(2)), "the plugin outlived ktui");
}
