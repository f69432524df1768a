//! Initial sync on a real kube-apiserver, streamed vs paged (issue 14), JSON vs protobuf
//! (issue 36), beside the peers a user would pick instead: runs the ktui binary in a
//! pseudo-terminal on all-namespaces pods of an already loaded cluster (benches/real_sync/run.sh
//! starts one and loads it) and prints, per list method and encoding (`[watch]
//! streaming_lists`, `[watch] protobuf`), launch → first row, launch → live with the full
//! count, peak RSS, ktui's CPU until live (and per pod) and the API server's CPU over the same
//! time (its pid from `kube-apiserver.pid` beside the kubeconfig), each round rotating which
//! goes first, and the medians. With `--k9s PATH`, each round then launches k9s on
//! all-namespaces pods in the same pty (first row, full count in its title, its peak RSS and
//! CPU, the API server's CPU); with `--kubectl PATH`, once per run (it is slow at scale),
//! `kubectl get pods -A --no-headers` and `kubectl get pods -A -o json`, each to /dev/null
//! (wall time, its peak RSS and CPU from wait4, the API server's CPU). Ends with a markdown
//! table of all of them. Run: `cargo bench --bench real_sync -- --bench --kubeconfig PATH
//! --pods N [--rounds R] [--only paged] [--k9s PATH] [--kubectl PATH]`. Under `cargo test`
//! it only says how to run it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../tests/support/pty.rs"]
mod pty;

mod harness;

#[allow(dead_code)] // real_sync drives k9s and ktui only, and no filter or warm views
#[path = "compare/tools.rs"]
mod tools;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use harness::{cpu_ticks, status_kb, timed_run, KTUI};
use tools::Tool;

/// How long ktui may take to its first row, and from launch to live.
const KTUI_TIMEOUT: (Duration, Duration) = (Duration::from_secs(300), Duration::from_secs(600));
/// How long k9s may take to its first row, and from launch to the full count (26–48 s at
/// 100k pods before).
const K9S_TIMEOUT: (Duration, Duration) = (Duration::from_secs(300), Duration::from_secs(300));

/// What one launch (or one kubectl run) measured.
struct Launch {
    /// Launch → the first pod row on screen; `None` for kubectl (its rows go to /dev/null).
    first: Option<Duration>,
    /// Launch → live with the full count (k9s: the full count in its title; kubectl: exit).
    live: Duration,
    /// Peak RSS, MB.
    hwm: f64,
    /// The client's CPU from launch to live, seconds.
    cpu: f64,
    /// The API server's CPU over the same time, seconds (0 when its pid is unknown).
    server_cpu: f64,
}

/// A column of the results: one ktui variant, k9s, or one kubectl command, and its runs.
struct Column {
    name: &'static str,
    /// Whose CPU `Launch::cpu` is.
    client: &'static str,
    /// What `Launch::live` ends at.
    end: &'static str,
    /// One per round, or one per run (kubectl); `Err` says why a run has no figures.
    runs: Vec<Result<Launch, String>>,
}

/// A pod row is on screen (the loaded pods are `load-NNNNNN` in namespaces `load-NN`, and
/// stay Pending, so compare's `Running` test does not apply).
fn first_row(screen: &str) -> bool {
    screen.contains("load-")
}

/// Waits for `t`'s first row and then until `full(screen)`, both timed from its spawn, and
/// reads its CPU and peak RSS and the API server's CPU since `server_before` (ticks).
fn watch(
    t: &pty::Tui,
    (first_timeout, full_timeout): (Duration, Duration),
    full: impl Fn(&str) -> bool,
    server: Option<u32>,
    server_before: u64,
) -> Result<Launch, String> {
    let timed_out = |what: &str, after: Duration| {
        eprintln!("{}", t.dump());
        format!("timed out ({what}, {} s)", after.as_secs())
    };
    t.try_wait_until(first_timeout, first_row)
        .ok_or_else(|| timed_out("no row", first_timeout))?;
    let first = t.started.elapsed();
    t.try_wait_until(full_timeout.saturating_sub(first), full)
        .ok_or_else(|| timed_out("count short", full_timeout))?;
    let live = t.started.elapsed();
    Ok(Launch {
        first: Some(first),
        live,
        cpu: cpu_ticks(t.pid()) as f64 / 100.0,
        server_cpu: server.map_or(0, |p| cpu_ticks(p).saturating_sub(server_before)) as f64 / 100.0,
        hwm: status_kb(t.pid(), "VmHWM:") as f64 / 1024.0,
    })
}

/// One ktui launch with `[watch] streaming_lists = streaming` and `protobuf = protobuf`.
fn launch(
    kubeconfig: &Path,
    pods: u64,
    streaming: bool,
    protobuf: bool,
    server: Option<u32>,
) -> Result<Launch, String> {
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
    let mut k = pty::Tui::spawn(&bin, &args, &envs, tools::ROWS, tools::COLS);
    k.log_file = Some(log);
    let full = |s: &str| tools::synced(Tool::Ktui, s, pods as usize);
    watch(&k, KTUI_TIMEOUT, full, server, server_before)
}

/// One k9s launch on all-namespaces pods (compare's command line and private HOME/XDG dirs).
fn launch_k9s(bin: &Path, kubeconfig: &Path, pods: u64, server: Option<u32>) -> Result<Launch, String> {
    let dir = tempfile::tempdir().unwrap();
    let server_before = server.map_or(0, cpu_ticks);
    let k = tools::spawn(Tool::K9s, bin, kubeconfig, dir.path(), &[]);
    let full = |s: &str| tools::synced(Tool::K9s, s, pods as usize);
    watch(&k, K9S_TIMEOUT, full, server, server_before)
}

/// `kubectl --kubeconfig KUBECONFIG get pods -A EXTRA… > /dev/null`, to its exit.
fn run_kubectl(bin: &Path, kubeconfig: &Path, extra: &[&str], server: Option<u32>) -> Result<Launch, String> {
    let kc = kubeconfig.to_str().expect("a UTF-8 kubeconfig path");
    let mut args = vec!["--kubeconfig", kc, "get", "pods", "-A"];
    args.extend_from_slice(extra);
    let server_before = server.map_or(0, cpu_ticks);
    let ran = timed_run(bin, &args)?;
    Ok(Launch {
        first: None,
        live: ran.took,
        hwm: ran.peak_mb,
        cpu: ran.cpu,
        server_cpu: server.map_or(0, |p| cpu_ticks(p).saturating_sub(server_before)) as f64 / 100.0,
    })
}

fn median_f(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The medians of a column's runs that produced figures.
struct Medians {
    first: Option<Duration>,
    live: Duration,
    hwm: f64,
    cpu: f64,
    server_cpu: f64,
}

impl Column {
    /// `None` when no run produced figures.
    fn medians(&self) -> Option<Medians> {
        let ok: Vec<&Launch> = self.runs.iter().filter_map(|r| r.as_ref().ok()).collect();
        if ok.is_empty() {
            return None;
        }
        let of = |f: fn(&Launch) -> f64| median_f(ok.iter().map(|l| f(l)).collect());
        let firsts: Vec<f64> = ok
            .iter()
            .filter_map(|l| l.first)
            .map(|d| d.as_secs_f64())
            .collect();
        Some(Medians {
            first: (!firsts.is_empty()).then(|| Duration::from_secs_f64(median_f(firsts))),
            live: Duration::from_secs_f64(of(|l| l.live.as_secs_f64())),
            hwm: of(|l| l.hwm),
            cpu: of(|l| l.cpu),
            server_cpu: of(|l| l.server_cpu),
        })
    }

    /// A table cell for a column without figures (the reasons are on stderr and in the
    /// median lines).
    fn failed_cell(&self) -> &'static str {
        match self.runs.iter().filter_map(|r| r.as_ref().err()).next() {
            Some(e) if e.starts_with("timed out") => "timed out",
            Some(_) => "failed",
            None => "n/a",
        }
    }

    /// Why the column has no figures, or how many of its runs have none ("" when all do).
    fn failures(&self) -> String {
        let errs: Vec<&String> = self.runs.iter().filter_map(|r| r.as_ref().err()).collect();
        match errs.first() {
            None => String::new(),
            Some(e) => format!("{e}, {} of {} runs", errs.len(), self.runs.len()),
        }
    }
}

/// A run as one line of text (the per-round and median lines).
fn describe(c: &Column, m: &Medians, pods: u64) -> String {
    let first = m.first.map_or_else(
        || format!("{:>9}", "n/a"),
        |d| format!("{:>6.0} ms", d.as_secs_f64() * 1e3),
    );
    format!(
        "first row {first}, {} {:>6.0} ms, peak RSS {:.0} MB, {} CPU {:.2} s ({:.1} µs/pod), API server CPU {:.2} s",
        c.end,
        m.live.as_secs_f64() * 1e3,
        m.hwm,
        c.client,
        m.cpu,
        m.cpu * 1e6 / pods as f64,
        m.server_cpu
    )
}

/// `launch` as a one-run column's medians, for the per-round line.
fn single(l: &Launch) -> Medians {
    Medians {
        first: l.first,
        live: l.live,
        hwm: l.hwm,
        cpu: l.cpu,
        server_cpu: l.server_cpu,
    }
}

/// Adds a run to `c` and says what it measured on stderr.
fn record(c: &mut Column, label: &str, r: Result<Launch, String>, pods: u64) {
    match &r {
        Ok(l) => eprintln!("{label} {:>17}: {}", c.name, describe(c, &single(l), pods)),
        Err(e) => eprintln!("{label} {:>17}: {e}", c.name),
    }
    c.runs.push(r);
}

fn secs_or_ms(d: Duration) -> String {
    match d.as_secs_f64() {
        s if s >= 10.0 => format!("{s:.1} s"),
        s => format!("{:.0} ms", s * 1e3),
    }
}

/// The markdown table: one column per ktui variant and peer, one row per figure.
fn table(cols: &[Column], pods: u64) {
    let meds: Vec<Option<Medians>> = cols.iter().map(Column::medians).collect();
    let header: Vec<&str> = cols.iter().map(|c| c.name).collect();
    println!("\n| {pods} pods | {} |", header.join(" | "));
    println!("|---|{}", "---:|".repeat(cols.len()));
    type Figure = fn(&Medians, u64) -> String;
    let rows: [(&str, Figure); 5] = [
        ("first row", |m, _| m.first.map_or("n/a".to_owned(), secs_or_ms)),
        ("live / full count", |m, _| secs_or_ms(m.live)),
        ("API server CPU until live", |m, _| {
            format!("{:.2} s", m.server_cpu)
        }),
        ("client CPU until live (per pod)", |m, pods| {
            format!("{:.2} s ({:.0} µs)", m.cpu, m.cpu * 1e6 / pods as f64)
        }),
        ("peak RSS", |m, _| format!("{:.0} MB", m.hwm)),
    ];
    for (name, figure) in rows {
        let cells: Vec<String> = cols
            .iter()
            .zip(&meds)
            .map(|(c, m)| match m {
                Some(m) => figure(m, pods),
                None => c.failed_cell().to_owned(),
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
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
    let k9s = value("--k9s").map(PathBuf::from);
    let kubectl = value("--kubectl").map(PathBuf::from);
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
    let column = |name, client, end| Column {
        name,
        client,
        end,
        runs: Vec::new(),
    };
    let mut cols: Vec<Column> = variants
        .iter()
        .map(|(name, _, _)| column(name, "ktui", "live"))
        .collect();
    if k9s.is_some() {
        cols.push(column("k9s", "k9s", "full count"));
    }
    for round in 0..rounds {
        let label = format!("round {round}");
        for j in 0..variants.len() {
            let v = (round + j) % variants.len();
            let (_, streaming, protobuf) = variants[v];
            let l = launch(&kubeconfig, pods, streaming, protobuf, server);
            record(&mut cols[v], &label, l, pods);
        }
        if let Some(bin) = &k9s {
            let l = launch_k9s(bin, &kubeconfig, pods, server);
            record(cols.last_mut().unwrap(), &label, l, pods);
        }
    }
    if let Some(bin) = &kubectl {
        for (name, extra) in [
            ("kubectl get", &["--no-headers"][..]),
            ("kubectl -o json", &["-o", "json"][..]),
        ] {
            let mut c = column(name, "kubectl", "exit");
            let r = run_kubectl(bin, &kubeconfig, extra, server);
            record(&mut c, "once   ", r, pods);
            cols.push(c);
        }
    }
    println!(
        "{pods} pods, all namespaces, real kube-apiserver; median of {rounds} launches{}:",
        if kubectl.is_some() {
            " (kubectl: one run each)"
        } else {
            ""
        }
    );
    for c in &cols {
        match c.medians() {
            Some(m) => {
                let failed = c.failures();
                let failed = if failed.is_empty() {
                    failed
                } else {
                    format!("; {failed}")
                };
                println!("  {:>17}: {}{failed}", c.name, describe(c, &m, pods));
            }
            None => println!("  {:>17}: {}", c.name, c.failures()),
        }
    }
    table(&cols, pods);
}
