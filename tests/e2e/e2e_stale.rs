//! End-to-end: a frozen API server (the demo server stopped with SIGSTOP) is never shown
//! `live`. With bookmarks every second and `[watch]` set to 3 intervals, the header and
//! `:informers` say `stale: no word from the server for …` within seconds; after SIGCONT
//! the watch speaks again and the header is back to `live` (issue 13, break 3).
use crate::util;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use util::*;

/// `ktui demo-server` as its own process (so that it alone can be stopped).
struct Server {
    child: Child,
    kubeconfig: std::path::PathBuf,
}

impl Server {
    fn start(dir: &std::path::Path) -> Server {
        let kubeconfig = dir.join("kubeconfig");
        let child = Command::new(env!("CARGO_BIN_EXE_ktui"))
            .args(["demo-server", "--bookmark-secs", "1", "--kubeconfig-out"])
            .arg(&kubeconfig)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while !kubeconfig.exists() {
            assert!(start.elapsed() < SLOW, "the demo server wrote no kubeconfig");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(100));
        Server { child, kubeconfig }
    }

    fn signal(&self, sig: libc::c_int) {
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(self.child.id() as libc::pid_t, sig) };
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.signal(libc::SIGCONT);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_frozen_server_reads_stale_never_live() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "[watch]\nbookmark_interval = \"1s\"\nstale_intervals = 3\n",
    )
    .unwrap();
    let cfg = config.display().to_string();
    let mut k = ktui_with(&server.kubeconfig, &["--config", &cfg, "-A"], ROWS);
    k.wait_until("live demo pods", SLOW, |s| {
        s.contains("Running") && state_words(s).contains(&"live")
    });
    server.signal(libc::SIGSTOP);
    k.wait_until("the header saying stale", SLOW, |s| {
        state_line(s).contains("stale: no word from the server for")
    });
    std::thread::sleep(Duration::from_secs(4));
    assert!(
        !state_words(&k.screen()).contains(&"live"),
        "a frozen server shown live\n{}",
        k.dump()
    );
    k.command("informers");
    k.wait_until(":informers saying stale", SLOW, |s| {
        s.contains("pods@*") && s.contains("stale: no word")
    });
    k.press_esc();
    server.signal(libc::SIGCONT);
    k.command("pods");
    k.wait_until("live again once the server speaks", SLOW, |s| {
        s.contains("Running") && state_words(s).contains(&"live")
    });
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}
