//! Scale harness (issue 5): starts `ktui demo-server --pods N [--churn R]`, runs the real ktui
//! binary in a pseudo-terminal against it, and prints for each N: time to first row, time to
//! full sync, peak RSS, CPU % idle and under churn, keystroke-to-screen latency of a
//! filter, and the time from ctrl-c to the process gone with everything held. Run: `cargo bench --bench scale_pty -- --bench [N ...]` (default 10000 50000
//! 100000). Under `cargo test` it only says how to run it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../tests/support/pty.rs"]
mod pty;

mod harness;

use harness::{cpu_percent, demo_server, status_kb, Server, KTUI};

use std::ffi::OsStr;
use std::path::Path;
use std::time::{Duration, Instant};

fn server(pods: usize, churn: u32, kubeconfig: &Path) -> Server {
    let args = [
        "--pods".to_owned(),
        pods.to_string(),
        "--churn".to_owned(),
        churn.to_string(),
    ];
    demo_server(&args, kubeconfig, Duration::from_secs(120))
}

fn ktui(kubeconfig: &Path, dir: &Path) -> pty::Tui {
    let log = dir.join("ktui.log");
    let args: Vec<&OsStr> = vec![
        OsStr::new("--kubeconfig"),
        kubeconfig.as_os_str(),
        OsStr::new("-A"),
        OsStr::new("--log-file"),
        log.as_os_str(),
    ];
    let home = dir.as_os_str();
    let envs: [(&str, &OsStr); 3] = [
        ("HOME", home),
        ("XDG_CONFIG_HOME", home),
        ("XDG_STATE_HOME", home),
    ];
    pty::Tui::spawn(KTUI, &args, &envs, 45, 160)
}

fn count_of(screen: &str) -> Option<u64> {
    let line = screen.lines().nth(1)?;
    let word = line.split_whitespace().nth(1)?;
    word.split('/').next()?.replace(',', "").parse().ok()
}

fn measure(pods: usize) {
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    let srv = server(pods, 0, &kc);
    let start = Instant::now();
    let mut k = ktui(&kc, dir.path());
    let first = k.wait_until("the first row", Duration::from_secs(120), |s| {
        s.contains("Running")
    });
    let synced = k.wait_until("full sync", Duration::from_secs(300), |s| {
        s.lines().nth(1).is_some_and(|l| l.contains("live"))
            && count_of(s).is_some_and(|n| n as usize >= pods)
    });
    let total = count_of(&k.screen()).unwrap_or(0);
    let sync_at = start.elapsed();
    let pid = k.pid();
    std::thread::sleep(Duration::from_secs(2));
    let idle = cpu_percent(pid, Duration::from_secs(5));
    // Filter latency: the keystroke that narrows the count, to the screen showing it.
    k.type_keys("/");
    std::thread::sleep(Duration::from_millis(300));
    let before = k.screen();
    let t = Instant::now();
    k.send("q"); // send, not type_keys: its 30 ms pause would be timed
    k.wait_until("the filtered count", Duration::from_secs(10), |s| {
        s != before && s.contains('/') && count_of(s).is_some()
    });
    let keystroke = t.elapsed();
    let t = Instant::now();
    k.send("z");
    k.wait_until("the narrower count", Duration::from_secs(10), |s| {
        s.contains("qz")
    });
    let keystroke2 = t.elapsed();
    let hwm = status_kb(pid, "VmHWM:");
    // Quit with everything held: ctrl-c to the process gone (20 ms polling).
    k.press_esc();
    std::thread::sleep(Duration::from_millis(300));
    k.press_ctrl_c();
    let quit = k
        .wait_exit(Duration::from_secs(10))
        .map_or(f64::NAN, |(_, d)| d.as_secs_f64() * 1e3);
    drop(k);
    drop(srv);
    // Under churn: a second server with 1,000 changes per second.
    let kc2 = dir.path().join("kubeconfig-churn");
    let srv2 = server(pods, 1000, &kc2);
    let k2 = ktui(&kc2, dir.path());
    k2.wait_until("full sync under churn", Duration::from_secs(300), |s| {
        s.lines().nth(1).is_some_and(|l| l.contains("live"))
            && count_of(s).is_some_and(|n| n as usize >= pods)
    });
    std::thread::sleep(Duration::from_secs(2));
    let churn_cpu = cpu_percent(k2.pid(), Duration::from_secs(5));
    let hwm2 = status_kb(k2.pid(), "VmHWM:");
    drop(k2);
    drop(srv2);
    println!(
        "pods {pods:>7} (listed {total}): first row {:>6.0} ms, full sync {:>6.0} ms (wall {:.1} s), peak RSS {:>5.0} MB ({:.0} MB under churn), CPU idle {:>4.1} %, under 1,000 changes/s {:>5.1} %, filter keystroke→screen {:>4.0} ms / {:>4.0} ms, quit {:>4.0} ms",
        first.as_secs_f64() * 1e3,
        (first + synced).as_secs_f64() * 1e3,
        sync_at.as_secs_f64(),
        hwm as f64 / 1024.0,
        hwm2 as f64 / 1024.0,
        idle,
        churn_cpu,
        keystroke.as_secs_f64() * 1e3,
        keystroke2.as_secs_f64() * 1e3,
        quit,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("scale_pty: run with `cargo bench --bench scale_pty -- --bench [N ...]`");
        return;
    }
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() {
        vec![10_000, 50_000, 100_000]
    } else {
        sizes
    };
    for n in sizes {
        measure(n);
    }
}
