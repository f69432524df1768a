//! History's cost at scale (issue 18): `ktui demo-server --pods 100000 --deployments 5000
//! --configmaps 20000 --churn 1000` (a fifth of the changes hit deployments and configmaps),
//! and in a child process per run the real informer pool (`TableDecoders`, real client, real
//! HTTP) watching all pods, deployments and configmaps — once without history, once recording
//! into a 64 MiB `History`, alternately, R rounds. Prints for each run: time to sync, this
//! process's CPU % over 30 s of churn, VmRSS and VmHWM, and the history's objects, revisions,
//! bytes and evictions; then the summary the issue asks for: the recording overhead in CPU
//! (on vs off), whether the history stayed inside its budget, the peak RSS. Run: `cargo bench
//! --bench history_load -- --bench [PODS] [--deployments N] [--configmaps M] [--secs S]
//! [--rounds R]` (R off/on pairs, default 2)
//! (small sizes check the harness in the test profile).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::client::{connect, install_crypto_provider, ConnectOptions};
use ktui::kube::history::{History, HistoryConfig};
use ktui::kube::informer::InformerConfig;
use ktui::kube::key::ResourceKey;
use ktui::kube::pool::InformerPool;

mod harness;

use harness::{Server, KTUI};

fn cpu_secs() -> f64 {
    // SAFETY: getrusage only writes the struct we pass.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(ru.ru_utime) + secs(ru.ru_stime)
}

fn status_mb(field: &str) -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1024.0
}

/// The sizes of a run: pods, deployments, configmaps, seconds of churn measured, and how
/// many off/on pairs of phases run.
#[derive(Clone, Copy)]
struct Sizes {
    pods: usize,
    deployments: usize,
    configmaps: usize,
    secs: u64,
    rounds: usize,
}

/// One run in this (child) process: `record` says whether the pool records history.
fn phase(kubeconfig: &str, record: bool, sizes: Sizes) {
    install_crypto_provider();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let opts = ConnectOptions {
            kubeconfig: Some(kubeconfig.into()),
            context: None,
        };
        let (client, _) = connect(&opts).await.unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move { while rx.recv().await.is_some() {} });
        let mut pool = InformerPool::new(
            client,
            Arc::new(ktui::table::TableDecoders),
            tx,
            InformerConfig::default(),
            Duration::from_secs(30),
        );
        let history = History::new(HistoryConfig::default(), 0);
        if record {
            pool = pool.record_into(history.clone());
        }
        let start = Instant::now();
        let subs: Vec<_> = [BuiltinKind::Pod, BuiltinKind::Deployment, BuiltinKind::ConfigMap]
            .into_iter()
            .map(|k| pool.subscribe(ResourceKey::new(k, None)))
            .collect();
        let want = [sizes.pods, sizes.deployments, sizes.configmaps];
        loop {
            let done = subs
                .iter()
                .zip(want)
                .all(|(s, n)| s.slot.peek().listed && s.slot.peek().rows.len() >= n);
            if done {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(600), "no sync");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let synced = start.elapsed();
        tokio::time::sleep(Duration::from_secs(5)).await;
        let (c0, t0) = (cpu_secs(), Instant::now());
        tokio::time::sleep(Duration::from_secs(sizes.secs)).await;
        let cpu = (cpu_secs() - c0) / t0.elapsed().as_secs_f64() * 100.0;
        let s = history.stats();
        println!(
            "history {:<3}: synced in {:>5.1} s, CPU under churn {:>5.1} %, VmRSS {:>4.0} MB, VmHWM {:>4.0} MB, history {} objects, {} revisions, {:.1} MiB of {} MiB, {} evicted",
            if record { "on" } else { "off" },
            synced.as_secs_f64(),
            cpu,
            status_mb("VmRSS:"),
            status_mb("VmHWM:"),
            s.objects,
            s.revisions,
            s.bytes as f64 / 1048576.0,
            s.budget >> 20,
            s.evicted
        );
        // For the summary the parent prints.
        println!(
            "FIGURES {} {cpu:.3} {:.1} {} {}",
            if record { "on" } else { "off" },
            status_mb("VmHWM:"),
            s.bytes,
            s.budget
        );
        drop(subs);
        pool.shutdown();
    });
}

/// The value after `--name` in `args`.
fn flag(args: &[String], name: &str) -> Option<usize> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--phase") {
        let record = args[i + 1] == "on";
        let kubeconfig = &args[i + 2];
        let n = |k: usize| args[i + k].parse::<usize>().unwrap();
        let sizes = Sizes {
            pods: n(3),
            deployments: n(4),
            configmaps: n(5),
            secs: n(6) as u64,
            rounds: 1,
        };
        phase(kubeconfig, record, sizes);
        return;
    }
    if !args.iter().any(|a| a == "--bench") {
        println!(
            "history_load: run with `cargo bench --bench history_load -- --bench [PODS] [--deployments N] [--configmaps M] [--secs S] [--rounds R]`"
        );
        return;
    }
    // The first bare number is the pod count (the flags' values are not bare).
    let mut pods = 100_000;
    let mut skip = false;
    for a in &args {
        if std::mem::take(&mut skip) {
            continue;
        }
        if a.starts_with("--") {
            skip = a != "--bench";
            continue;
        }
        if let Ok(n) = a.parse() {
            pods = n;
            break;
        }
    }
    let sizes = Sizes {
        pods,
        deployments: flag(&args, "--deployments").unwrap_or(5_000),
        configmaps: flag(&args, "--configmaps").unwrap_or(20_000),
        secs: flag(&args, "--secs").unwrap_or(30) as u64,
        rounds: flag(&args, "--rounds").unwrap_or(2).max(1),
    };
    run(sizes);
}

/// Starts the demo server, runs the phases off/on/off/on in child processes, prints each
/// phase's line and the summary the issue asks for.
fn run(sizes: Sizes) {
    let pods = sizes.pods;
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    let child = Command::new(KTUI)
        .args(["demo-server", "--addr", "127.0.0.1:0", "--kubeconfig-out"])
        .arg(&kc)
        .args([
            "--pods",
            &pods.to_string(),
            "--deployments",
            &sizes.deployments.to_string(),
            "--configmaps",
            &sizes.configmaps.to_string(),
            "--churn",
            "1000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start demo-server");
    let _server = Server(child);
    let t = Instant::now();
    while !kc.exists() && t.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(500));
    let me = std::env::current_exe().unwrap();
    // (record, cpu %, VmHWM MB, history bytes, budget bytes) per phase.
    let mut figures: Vec<(bool, f64, f64, usize, usize)> = Vec::new();
    let phases = (0..sizes.rounds).flat_map(|_| ["off", "on"]);
    for record in phases {
        let out = Command::new(&me)
            .args(["--phase", record])
            .arg(&kc)
            .args([pods, sizes.deployments, sizes.configmaps, sizes.secs as usize].map(|n| n.to_string()))
            .output()
            .expect("run a phase");
        let text = String::from_utf8_lossy(&out.stdout);
        for line in text.lines() {
            match line.strip_prefix("FIGURES ") {
                Some(f) => {
                    let v: Vec<&str> = f.split_whitespace().collect();
                    figures.push((
                        v[0] == "on",
                        v[1].parse().unwrap(),
                        v[2].parse().unwrap(),
                        v[3].parse().unwrap(),
                        v[4].parse().unwrap(),
                    ));
                }
                None => println!("{line}"),
            }
        }
        if !out.status.success() {
            eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        }
    }
    let mean = |on: bool| {
        let v: Vec<f64> = figures.iter().filter(|f| f.0 == on).map(|f| f.1).collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    };
    let (off, on) = (mean(false), mean(true));
    println!(
        "summary: recording overhead {:+.1} % CPU (history on {on:.2} % vs off {off:.2} %, mean of {} runs each; issue: ≤ 10 %)",
        if off > 0.0 { (on - off) / off * 100.0 } else { 0.0 },
        sizes.rounds
    );
    // Each round's own overhead (its on phase against the off phase just before it): the
    // spread says how far one shared-machine round can be trusted.
    let mut per_round: Vec<f64> = figures
        .chunks(2)
        .filter(|p| p.len() == 2 && p[0].1 > 0.0)
        .map(|p| (p[1].1 - p[0].1) / p[0].1 * 100.0)
        .collect();
    per_round.sort_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (per_round.first(), per_round.last()) {
        println!(
            "summary: per-round overhead median {:+.1} % (min {lo:+.1} %, max {hi:+.1} %, {} rounds)",
            per_round[per_round.len() / 2],
            per_round.len()
        );
    }
    let bytes = figures.iter().filter(|f| f.0).map(|f| f.3).max().unwrap_or(0);
    let budget = figures.iter().map(|f| f.4).max().unwrap_or(0);
    println!(
        "summary: history {:.1} MiB of its {} MiB budget: {}",
        bytes as f64 / 1048576.0,
        budget >> 20,
        if bytes <= budget { "inside" } else { "OVER" }
    );
    let hwm = figures.iter().map(|f| f.2).fold(0.0, f64::max);
    println!("summary: peak RSS (VmHWM) {hwm:.0} MB over all runs (issue: ≤ 200 MB)");
}
