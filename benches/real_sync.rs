//! Initial sync on a real kube-apiserver, streamed vs paged (issue 14): runs the ktui binary
//! in a pseudo-terminal on all-namespaces pods of an already loaded cluster
//! (benches/real_sync/run.sh starts one and loads it) and prints, per list method
//! (`[watch] streaming_lists = true | false`), launch → first row and launch → live with the
//! full count, each round alternating which goes first, and the median. Run:
//! `cargo bench --bench real_sync -- --bench --kubeconfig PATH --pods N [--rounds R]`. Under
//! `cargo test` it only says how to run it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../tests/support/pty.rs"]
mod pty;

mod harness;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use harness::{status_kb, KTUI};

fn count_of(screen: &str) -> Option<u64> {
    let line = screen.lines().nth(1)?;
    let word = line.split_whitespace().nth(1)?;
    word.split('/').next()?.replace(',', "").parse().ok()
}

/// One launch: (first row, live with `pods` rows, peak RSS MB).
fn launch(kubeconfig: &Path, pods: u64, streaming: bool) -> (Duration, Duration, f64) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, format!("[watch]\nstreaming_lists = {streaming}\n")).unwrap();
    let log = dir.path().join("ktui.log");
    let args: Vec<&OsStr> = vec![
        OsStr::new("--kubeconfig"),
        kubeconfig.as_os_str(),
        OsStr::new("-A"),
        OsStr::new("--log-file"),
        log.as_os_str(),
    ];
    let home = dir.path().as_os_str();
    let envs: [(&str, &OsStr); 4] = [
        ("HOME", home),
        ("XDG_CONFIG_HOME", home),
        ("XDG_STATE_HOME", home),
        ("KTUI_CONFIG", config.as_os_str()),
    ];
    // KTUI_BIN: a copy of the binary, when others build into the same target directory.
    let bin = std::env::var("KTUI_BIN").unwrap_or_else(|_| KTUI.to_owned());
    let start = Instant::now();
    let k = pty::Tui::spawn(&bin, &args, &envs, 45, 160);
    k.wait_until("the first row", Duration::from_secs(300), |s| s.contains("load-"));
    let first = start.elapsed();
    k.wait_until("live", Duration::from_secs(600), |s| {
        s.lines().nth(1).is_some_and(|l| l.contains("live")) && count_of(s).is_some_and(|n| n >= pods)
    });
    let live = start.elapsed();
    let hwm = status_kb(k.pid(), "VmHWM:") as f64 / 1024.0;
    (first, live, hwm)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("real_sync: run with `bash benches/real_sync/run.sh N` (or `cargo bench --bench real_sync -- --bench --kubeconfig PATH --pods N`)");
        return;
    }
    let value = |name: &str| {
        let i = args.iter().position(|a| a == name)?;
        args.get(i + 1).cloned()
    };
    let kubeconfig = PathBuf::from(value("--kubeconfig").expect("--kubeconfig PATH"));
    let pods: u64 = value("--pods").expect("--pods N").parse().unwrap();
    let rounds: usize = value("--rounds").map_or(3, |r| r.parse().unwrap());
    let mut results: [(Vec<Duration>, Vec<Duration>); 2] = Default::default();
    for round in 0..rounds {
        for j in 0..2 {
            let streaming = (round + j) % 2 == 0;
            let (first, live, hwm) = launch(&kubeconfig, pods, streaming);
            let name = if streaming { "streamed" } else { "paged" };
            eprintln!(
                "round {round} {name:>8}: first row {:>6.0} ms, live {:>6.0} ms, peak RSS {hwm:.0} MB",
                first.as_secs_f64() * 1e3,
                live.as_secs_f64() * 1e3
            );
            let r = &mut results[usize::from(!streaming)];
            r.0.push(first);
            r.1.push(live);
        }
    }
    println!("{pods} pods, all namespaces, real kube-apiserver; median of {rounds} launches:");
    for (name, (first, live)) in ["streamed", "paged"].iter().zip(results) {
        println!(
            "  {name:>8}: launch → first row {:>6.0} ms, launch → live {:>6.0} ms",
            median(first).as_secs_f64() * 1e3,
            median(live).as_secs_f64() * 1e3
        );
    }
}
