//! Initial sync on a real kube-apiserver, streamed vs paged (issue 14), JSON vs protobuf
//! (issue 36): runs the ktui binary in a pseudo-terminal on all-namespaces pods of an already
//! loaded cluster (benches/real_sync/run.sh starts one and loads it) and prints, per list
//! method and encoding (`[watch] streaming_lists`, `[watch] protobuf`), launch → first row,
//! launch → live with the full count, peak RSS, ktui's CPU until live (and per pod) and the
//! API server's CPU over the same time (its pid from `kube-apiserver.pid` beside the
//! kubeconfig), each round rotating which goes first, and the medians. Run:
//! `cargo bench --bench real_sync -- --bench --kubeconfig PATH --pods N [--rounds R]
//! [--only paged]`. Under `cargo test` it only says how to run it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../tests/support/pty.rs"]
mod pty;

mod harness;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use harness::{cpu_ticks, status_kb, KTUI};

fn count_of(screen: &str) -> Option<u64> {
    let line = screen.lines().nth(1)?;
    let word = line.split_whitespace().nth(1)?;
    word.split('/').next()?.replace(',', "").parse().ok()
}

/// What one launch measured.
struct Launch {
    first: Duration,
    live: Duration,
    /// Peak RSS, MB.
    hwm: f64,
    /// ktui's CPU from launch to live, seconds.
    cpu: f64,
    /// The API server's CPU over the same time, seconds (0 when its pid is unknown).
    server_cpu: f64,
}

/// One launch with `[watch] streaming_lists = streaming` and `protobuf = protobuf`.
fn launch(kubeconfig: &Path, pods: u64, streaming: bool, protobuf: bool, server: Option<u32>) -> Launch {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!("[watch]\nstreaming_lists = {streaming}\nprotobuf = {protobuf}\n"),
    )
    .unwrap();
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
    let server_before = server.map_or(0, cpu_ticks);
    let start = Instant::now();
    let k = pty::Tui::spawn(&bin, &args, &envs, 45, 160);
    k.wait_until("the first row", Duration::from_secs(300), |s| s.contains("load-"));
    let first = start.elapsed();
    k.wait_until("live", Duration::from_secs(600), |s| {
        s.lines().nth(1).is_some_and(|l| l.contains("live")) && count_of(s).is_some_and(|n| n >= pods)
    });
    let live = start.elapsed();
    let cpu = cpu_ticks(k.pid()) as f64 / 100.0;
    let server_cpu = server.map_or(0, |p| cpu_ticks(p).saturating_sub(server_before)) as f64 / 100.0;
    let hwm = status_kb(k.pid(), "VmHWM:") as f64 / 1024.0;
    Launch {
        first,
        live,
        hwm,
        cpu,
        server_cpu,
    }
}

fn median_f(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
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
    let server = kubeconfig
        .parent()
        .and_then(|d| std::fs::read_to_string(d.join("kube-apiserver.pid")).ok())
        .and_then(|p| p.trim().parse::<u32>().ok());
    let only = value("--only");
    let variants: Vec<(&str, bool, bool)> = [
        ("paged json", false, false),
        ("paged protobuf", false, true),
        ("streamed json", true, false),
        ("streamed protobuf", true, true),
    ]
    .into_iter()
    .filter(|(name, _, _)| only.as_deref().is_none_or(|o| name.starts_with(o)))
    .collect();
    let mut results: Vec<Vec<Launch>> = variants.iter().map(|_| Vec::new()).collect();
    for round in 0..rounds {
        for j in 0..variants.len() {
            let v = (round + j) % variants.len();
            let (name, streaming, protobuf) = variants[v];
            let l = launch(&kubeconfig, pods, streaming, protobuf, server);
            eprintln!(
                "round {round} {name:>17}: first row {:>6.0} ms, live {:>6.0} ms, peak RSS {:.0} MB, ktui CPU {:.2} s, API server CPU {:.2} s",
                l.first.as_secs_f64() * 1e3,
                l.live.as_secs_f64() * 1e3,
                l.hwm,
                l.cpu,
                l.server_cpu
            );
            results[v].push(l);
        }
    }
    println!("{pods} pods, all namespaces, real kube-apiserver; median of {rounds} launches:");
    for ((name, _, _), r) in variants.iter().zip(results) {
        let cpu = median_f(r.iter().map(|l| l.cpu).collect());
        println!(
            "  {name:>17}: first row {:>6.0} ms, live {:>6.0} ms, peak RSS {:.0} MB, ktui CPU {cpu:.2} s ({:.1} µs/pod), API server CPU {:.2} s",
            median(r.iter().map(|l| l.first).collect()).as_secs_f64() * 1e3,
            median(r.iter().map(|l| l.live).collect()).as_secs_f64() * 1e3,
            median_f(r.iter().map(|l| l.hwm).collect()),
            cpu * 1e6 / pods as f64,
            median_f(r.iter().map(|l| l.server_cpu).collect()),
        );
    }
}
