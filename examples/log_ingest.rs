//! Log ingest harness (issue 15): the demo server's generator pods (`--log-rate`) streamed
//! into one log view's hub through ktui's real log feed (pod watch, `pods/log` streams, line
//! splitting, de-duplication, ring buffer), then the same stream through `kubectl logs -f`.
//! Prints lines/s for both, ktui's lag behind the newest line, and buffer size and RSS at the
//! bound. Figures, not pass/fail.
//!
//! `cargo run --release --example log_ingest -- [LINES_PER_SEC_PER_POD] [PODS] [SECONDS]`
//! (defaults 50000, 1, 10). `KUBECTL` names kubectl (default `~/.cache/ktui-test/bin/kubectl`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

use ktui::kube::logs::{self, ContainerPick, LogLimits, LogTarget, PodPick, StreamPlan};
use ktui::sim::cli::start_in_process;
use ktui::sim::DemoOptions;

fn rss_mib() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// User + system CPU seconds of this process.
fn cpu_secs() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = s.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let rate = args.first().copied().unwrap_or(50_000);
    let pods = args.get(1).copied().unwrap_or(1) as usize;
    let secs = args.get(2).copied().unwrap_or(10);
    let demo = start_in_process(DemoOptions {
        log_rate: rate,
        log_pods: pods,
        ..DemoOptions::default()
    })
    .await
    .unwrap();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let kc = kube::config::Kubeconfig::read_from(&demo.kubeconfig).unwrap();
    let config = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default())
        .await
        .unwrap();
    let client = kube::Client::try_from(config).unwrap();
    let target = LogTarget {
        namespace: "demo".into(),
        pods: if pods == 1 {
            PodPick::Named("loggen-0".into())
        } else {
            PodPick::Selector("app=loggen".into())
        },
        containers: ContainerPick::Default,
    };
    let plan = StreamPlan {
        follow: true,
        tail: Some(0),
        max_line: 16 << 10,
        ..StreamPlan::default()
    };
    let limits = LogLimits {
        max_lines: 100_000,
        max_bytes: 64 << 20,
        max_streams: 50,
    };
    let feed = logs::start(
        &tokio::runtime::Handle::current(),
        client,
        target,
        plan.clone(),
        limits,
        Box::new(|| {}),
    );
    // Wait for the first line, then measure.
    let t0 = Instant::now();
    while feed.hub.lock().buffer.next_seq() == 0 && t0.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let start_seq = feed.hub.lock().buffer.next_seq();
    let start = Instant::now();
    let mut worst_lag = 0.0f64;
    for _ in 0..secs {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let s = feed.hub.lock();
        if let Some(newest) = s.newest() {
            let lag = (jiff::Timestamp::now().as_nanosecond() - newest.as_nanosecond()) as f64 / 1e9;
            worst_lag = worst_lag.max(lag);
        }
    }
    let (lines, held, bytes, dropped) = {
        let s = feed.hub.lock();
        (
            s.buffer.next_seq() - start_seq,
            s.buffer.len(),
            s.buffer.bytes(),
            s.buffer.dropped(),
        )
    };
    let took = start.elapsed().as_secs_f64();
    println!(
        "ktui feed: {pods} pod(s) x {rate} lines/s offered: {:.0} lines/s ingested over {took:.1}s; worst lag {worst_lag:.2}s; \
         buffer {held} lines / {:.1} MiB, {dropped} dropped; RSS {:.0} MiB (server in the same process)",
        lines as f64 / took,
        bytes as f64 / (1 << 20) as f64,
        rss_mib()
    );
    drop(feed);
    // Idle: one quiet view (postgres-0, a line every ~3 s) for SECONDS; process CPU time,
    // the in-process demo server (its scenario ticks and the generator pods) included.
    let quiet = LogTarget {
        namespace: "data".into(),
        pods: PodPick::Named("postgres-0".into()),
        containers: ContainerPick::Default,
    };
    let client2 = {
        let kc = kube::config::Kubeconfig::read_from(&demo.kubeconfig).unwrap();
        let c = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default())
            .await
            .unwrap();
        kube::Client::try_from(c).unwrap()
    };
    let idle = logs::start(
        &tokio::runtime::Handle::current(),
        client2,
        quiet,
        plan.clone(),
        limits,
        Box::new(|| {}),
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    let cpu0 = cpu_secs();
    tokio::time::sleep(Duration::from_secs(secs)).await;
    println!(
        "idle quiet view: {:.1}% of one core over {secs}s (whole process, demo server included)",
        (cpu_secs() - cpu0) / secs as f64 * 100.0
    );
    drop(idle);
    let kubectl = std::env::var("KUBECTL").unwrap_or_else(|_| {
        format!(
            "{}/.cache/ktui-test/bin/kubectl",
            std::env::var("HOME").unwrap_or_default()
        )
    });
    let mut cmd = std::process::Command::new(&kubectl);
    cmd.arg("--kubeconfig")
        .arg(&demo.kubeconfig)
        .args(["-n", "demo", "logs", "-f", "--tail=0"]);
    if pods == 1 {
        cmd.arg("loggen-0");
    } else {
        cmd.args([
            "-l",
            "app=loggen",
            "--prefix",
            &format!("--max-log-requests={pods}"),
        ]);
    }
    let Ok(mut child) = cmd.stdout(std::process::Stdio::piped()).spawn() else {
        println!("kubectl: not found at {kubectl}");
        return;
    };
    let out = child.stdout.take().unwrap();
    let counter = std::thread::spawn(move || {
        let mut n = 0u64;
        let mut first: Option<Instant> = None;
        let mut r = BufReader::new(out);
        let mut line = Vec::new();
        while r.read_until(b'\n', &mut line).map(|n| n > 0).unwrap_or(false) {
            first.get_or_insert_with(Instant::now);
            n += 1;
            line.clear();
        }
        (n, first)
    });
    std::thread::sleep(Duration::from_secs(secs + 1));
    let _ = child.kill();
    let _ = child.wait();
    let (n, first) = counter.join().unwrap();
    let took = first.map_or(secs as f64, |f| f.elapsed().as_secs_f64());
    println!("kubectl logs -f: {:.0} lines/s over {took:.1}s", n as f64 / took);
}
