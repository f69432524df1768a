//! Initial sync on a real kube-apiserver, streamed vs paged (issue 14), JSON vs protobuf
//! (issue 36), beside the peers a user would pick instead: runs the ktui binary in a
//! pseudo-terminal on all-namespaces pods (or ConfigMaps) of an already loaded cluster
//! (benches/real_sync/run.sh starts one and loads it) and prints, per ktui variant, launch →
//! first row, launch → live with the full count, peak RSS, ktui's CPU until live (and per
//! object) and the API server's CPU over the same time (its pid from `kube-apiserver.pid`
//! beside the kubeconfig), each round rotating which goes first, and the medians. The variants:
//! for pods, each list method and encoding (`[watch] streaming_lists`, `[watch] protobuf`);
//! for ConfigMaps, a kind the revision history records (so its informer asks for JSON, and
//! under `streaming_lists = "auto"` pages), the default config (history on) against
//! `[history] max_mib = 0` (history off: protobuf, streamed under "auto", and paged). With
//! `--k9s PATH`, each round then launches k9s on the same all-namespaces view in the same pty
//! (first row, full count in its title, its peak RSS and CPU, the API server's CPU); with
//! `--kubectl PATH`, once per run (it is slow at scale), `kubectl get RESOURCE -A
//! --no-headers` and `kubectl get RESOURCE -A -o json`, each to /dev/null (wall time, its peak
//! RSS and CPU from wait4, the API server's CPU). Ends with a markdown table of all of them.
//! Run: `cargo bench --bench real_sync -- --bench --kubeconfig PATH --count N [--resource
//! pods|configmaps] [--rounds R] [--only PREFIX] [--k9s PATH] [--kubectl PATH]` (`--pods N`
//! is `--count N`). Without `--kubeconfig` (`cargo test`, a bare `cargo bench`) it only
//! says how to run it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../tests/support/pty.rs"]
mod pty;

mod harness;

#[allow(dead_code)] // real_sync drives k9s and ktui only, and no filter or warm views
#[path = "compare/tools.rs"]
mod tools;

#[path = "real_sync/report.rs"]
mod report;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use harness::{cpu_ticks, status_kb, timed_run, KTUI};
use report::{describe, record, table, Column, Launch, NAME_WIDTH};
use tools::Tool;

/// How long ktui may take to its first row, and from launch to live.
const KTUI_TIMEOUT: (Duration, Duration) = (Duration::from_secs(300), Duration::from_secs(600));
/// How long k9s may take to its first row, and from launch to the full count (26–48 s at
/// 100k pods before).
const K9S_TIMEOUT: (Duration, Duration) = (Duration::from_secs(300), Duration::from_secs(300));

/// What the cluster was loaded with (benches/real_sync/load.py `--kind`), and the view
/// every tool opens on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Resource {
    Pods,
    ConfigMaps,
}

/// One ktui launch's configuration: a column of the results.
struct Variant {
    name: &'static str,
    /// The whole config.toml.
    config: String,
}

impl Resource {
    fn parse(s: &str) -> Option<Resource> {
        match s {
            "pods" => Some(Resource::Pods),
            "configmaps" => Some(Resource::ConfigMaps),
            _ => None,
        }
    }

    /// The plural as typed after `:`, on kubectl's command line and in ktui's header and
    /// k9s's title.
    fn name(self) -> &'static str {
        match self {
            Resource::Pods => "pods",
            Resource::ConfigMaps => "configmaps",
        }
    }

    /// For "per pod" and "µs/pod".
    fn singular(self) -> &'static str {
        match self {
            Resource::Pods => "pod",
            Resource::ConfigMaps => "configmap",
        }
    }

    /// The ktui variants measured.
    fn variants(self) -> Vec<Variant> {
        match self {
            Resource::Pods => [
                ("paged json", false, false),
                ("paged protobuf", false, true),
                ("streamed json", true, false),
                ("streamed protobuf", true, true),
            ]
            .into_iter()
            .map(|(name, streaming, protobuf)| Variant {
                name,
                config: format!("[watch]\nstreaming_lists = {streaming}\nprotobuf = {protobuf}\n"),
            })
            // ktui as it starts without a config (`streaming_lists = "auto"`, protobuf on).
            .chain([Variant {
                name: "default",
                config: String::new(),
            }])
            .collect(),
            // `[watch]`'s defaults spelled out, and the history's default budget or none:
            // the history records ConfigMaps, so their informer asks for JSON (paged, under
            // "auto"); with the history off it asks for protobuf and streams, or with
            // `streaming_lists = false` pages.
            // "not recorded, paged json" lists as the recorded kind does, without recording:
            // it parts the cost of the JSON encoding from the cost of recording.
            Resource::ConfigMaps => [
                ("recorded (history on)", "\"auto\"", true, ""),
                ("not recorded", "\"auto\"", true, "\n[history]\nmax_mib = 0\n"),
                ("not recorded, paged", "false", true, "\n[history]\nmax_mib = 0\n"),
                (
                    "not recorded, paged json",
                    "false",
                    false,
                    "\n[history]\nmax_mib = 0\n",
                ),
            ]
            .into_iter()
            .map(|(name, streaming, protobuf, history)| Variant {
                name,
                config: format!("[watch]\nstreaming_lists = {streaming}\nprotobuf = {protobuf}\n{history}"),
            })
            .collect(),
        }
    }
}

/// A row is on screen (the loaded objects are `load-NNNNNN` in namespaces `load-NN`; the
/// pods stay Pending, so compare's `Running` test does not apply).
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

/// One ktui launch on all-namespaces `resource` with `variant`'s config.
fn launch(
    kubeconfig: &Path,
    resource: Resource,
    count: u64,
    variant: &Variant,
    server: Option<u32>,
) -> Result<Launch, String> {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, &variant.config).unwrap();
    let log = dir.path().join("ktui.log");
    let mut args: Vec<&OsStr> = vec![
        OsStr::new("--kubeconfig"),
        kubeconfig.as_os_str(),
        OsStr::new("-A"),
        OsStr::new("--log-file"),
        log.as_os_str(),
    ];
    // Pods is the view ktui opens on; anything else is named (`-c`, as typed after `:`).
    if resource != Resource::Pods {
        args.extend([OsStr::new("-c"), OsStr::new(resource.name())]);
    }
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
    // The header names the kind, counts them all and says `live`.
    let full = |s: &str| tools::view_holds(Tool::Ktui, s, resource.name(), count as usize);
    watch(&k, KTUI_TIMEOUT, full, server, server_before)
}

/// One k9s launch on all-namespaces `resource` (compare's command line and private HOME/XDG
/// dirs; its `-c pods` overridden by a later `-c RESOURCE`).
fn launch_k9s(
    bin: &Path,
    kubeconfig: &Path,
    resource: Resource,
    count: u64,
    server: Option<u32>,
) -> Result<Launch, String> {
    let dir = tempfile::tempdir().unwrap();
    let server_before = server.map_or(0, cpu_ticks);
    let extra: &[&str] = match resource {
        Resource::Pods => &[],
        _ => &["-c", resource.name()],
    };
    let k = tools::spawn(Tool::K9s, bin, kubeconfig, dir.path(), extra);
    // Its title, `RESOURCE(all)[COUNT]`, counts them all.
    let full = |s: &str| tools::view_holds(Tool::K9s, s, resource.name(), count as usize);
    watch(&k, K9S_TIMEOUT, full, server, server_before)
}

/// `kubectl --kubeconfig KUBECONFIG get RESOURCE -A EXTRA… > /dev/null`, to its exit.
fn run_kubectl(
    bin: &Path,
    kubeconfig: &Path,
    resource: Resource,
    extra: &[&str],
    server: Option<u32>,
) -> Result<Launch, String> {
    let kc = kubeconfig.to_str().expect("a UTF-8 kubeconfig path");
    let mut args = vec!["--kubeconfig", kc, "get", resource.name(), "-A"];
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

/// A config.toml on one line: `[watch] a = 1, b = 2; [history] c = 3`.
fn one_line(toml: &str) -> String {
    let mut sections: Vec<String> = Vec::new();
    for line in toml.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match sections.last_mut() {
            Some(s) if !line.starts_with('[') => {
                s.push_str(if s.ends_with(']') { " " } else { ", " });
                s.push_str(line);
            }
            _ => sections.push(line.to_owned()),
        }
    }
    sections.join("; ")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo test`, or a bare `cargo bench` (which passes `--bench` too): no cluster to run on.
    if !args.iter().any(|a| a == "--bench") || !args.iter().any(|a| a == "--kubeconfig") {
        println!("real_sync: run with `bash benches/real_sync/run.sh N [--resource configmaps]` (or `cargo bench --bench real_sync -- --bench --kubeconfig PATH --count N [--resource configmaps]`)");
        return;
    }
    let value = |name: &str| {
        let i = args.iter().position(|a| a == name)?;
        args.get(i + 1).cloned()
    };
    let kubeconfig = PathBuf::from(value("--kubeconfig").expect("--kubeconfig PATH"));
    let count: u64 = value("--count")
        .or_else(|| value("--pods"))
        .expect("--count N")
        .parse()
        .unwrap();
    let resource = value("--resource").map_or(Resource::Pods, |r| {
        Resource::parse(&r).expect("--resource pods or configmaps")
    });
    let rounds: usize = value("--rounds").map_or(3, |r| r.parse().unwrap());
    let k9s = value("--k9s").map(PathBuf::from);
    let kubectl = value("--kubectl").map(PathBuf::from);
    let server = kubeconfig
        .parent()
        .and_then(|d| std::fs::read_to_string(d.join("kube-apiserver.pid")).ok())
        .and_then(|p| p.trim().parse::<u32>().ok());
    let only = value("--only");
    let variants: Vec<Variant> = resource
        .variants()
        .into_iter()
        .filter(|v| only.as_deref().is_none_or(|o| v.name.starts_with(o)))
        .collect();
    let column = |name, client, end| Column {
        name,
        client,
        end,
        runs: Vec::new(),
    };
    let mut cols: Vec<Column> = variants.iter().map(|v| column(v.name, "ktui", "live")).collect();
    if k9s.is_some() {
        cols.push(column("k9s", "k9s", "full count"));
    }
    for round in 0..rounds {
        let label = format!("round {round}");
        for j in 0..variants.len() {
            let v = (round + j) % variants.len();
            let l = launch(&kubeconfig, resource, count, &variants[v], server);
            record(&mut cols[v], &label, l, resource, count);
        }
        if let Some(bin) = &k9s {
            let l = launch_k9s(bin, &kubeconfig, resource, count, server);
            record(cols.last_mut().unwrap(), &label, l, resource, count);
        }
    }
    if let Some(bin) = &kubectl {
        for (name, extra) in [
            ("kubectl get", &["--no-headers"][..]),
            ("kubectl -o json", &["-o", "json"][..]),
        ] {
            let mut c = column(name, "kubectl", "exit");
            let r = run_kubectl(bin, &kubeconfig, resource, extra, server);
            record(&mut c, "once   ", r, resource, count);
            cols.push(c);
        }
    }
    println!(
        "{count} {}, all namespaces, real kube-apiserver; median of {rounds} launches{}:",
        resource.name(),
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
                println!(
                    "  {:>NAME_WIDTH$}: {}{failed}",
                    c.name,
                    describe(c, &m, resource, count)
                );
            }
            None => println!("  {:>NAME_WIDTH$}: {}", c.name, c.failures()),
        }
    }
    for v in &variants {
        println!("  {:>NAME_WIDTH$}: {}", v.name, one_line(&v.config));
    }
    table(&cols, resource, count);
}
