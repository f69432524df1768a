//! Side-by-side benchmark (issue 14): for each N, starts `ktui demo-server --pods N` (and a
//! second one with 1,000 changes/s), runs ktui, k9s and kubectl in the same pseudo-terminal
//! harness against it, and prints one table per N with ratios to ktui. Run it through
//! `benches/compare/run.sh N…` (builds release ktui, finds or builds k9s and kubectl), or
//! `cargo bench --bench compare -- --bench [--k9s PATH] [--kubectl PATH] [--nodes X]
//! [--events Y] [--samples S] [--key-samples K] [--cpu-secs T] [--tools ktui,k9s,kubectl]
//! N…`. Under `cargo test` it only says how to run it. Measuring and printing only; no figure is fixed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // measuring code may panic

#[path = "../tests/support/pty.rs"]
mod pty;

mod harness;

#[path = "compare/api.rs"]
mod api;
#[path = "compare/churn.rs"]
mod churn;
#[path = "compare/measure.rs"]
mod measure;
#[path = "compare/table.rs"]
mod table;
#[path = "compare/tools.rs"]
mod tools;

use std::path::{Path, PathBuf};
use std::time::Duration;

use measure::{Plan, Quiet};
use tools::{Bins, Tool};

/// Command-line options (see the module doc).
struct Opts {
    sizes: Vec<usize>,
    nodes: usize,
    events: usize,
    samples: usize,
    key_samples: usize,
    cpu_secs: u64,
    tools: Vec<Tool>,
    bins: Bins,
}

fn parse_opts(args: &[String]) -> Opts {
    let mut o = Opts {
        sizes: Vec::new(),
        nodes: 0,
        events: 0,
        samples: 20,
        key_samples: 100,
        cpu_secs: 60,
        tools: vec![Tool::Ktui, Tool::K9s, Tool::Kubectl],
        bins: Bins {
            ktui: PathBuf::from(harness::KTUI),
            k9s: None,
            kubectl: None,
        },
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{a} needs a value")).clone();
        match a.as_str() {
            "--bench" => {}
            "--k9s" => o.bins.k9s = Some(PathBuf::from(val())),
            "--kubectl" => o.bins.kubectl = Some(PathBuf::from(val())),
            "--nodes" => o.nodes = val().parse().expect("--nodes N"),
            "--events" => o.events = val().parse().expect("--events N"),
            "--samples" => o.samples = val().parse().expect("--samples N"),
            "--key-samples" => o.key_samples = val().parse().expect("--key-samples N"),
            "--cpu-secs" => o.cpu_secs = val().parse().expect("--cpu-secs SECONDS"),
            "--tools" => {
                o.tools = val()
                    .split(',')
                    .map(|t| Tool::parse(t).unwrap_or_else(|| panic!("unknown tool {t}")))
                    .collect()
            }
            n => o
                .sizes
                .push(n.parse().unwrap_or_else(|_| panic!("unknown argument {n}"))),
        }
    }
    if o.sizes.is_empty() {
        o.sizes = vec![10_000, 100_000];
    }
    o
}

fn server(o: &Opts, pods: usize, churn: u32, kubeconfig: &Path) -> harness::Server {
    let args: Vec<String> = [
        ("--pods", pods),
        ("--churn", churn as usize),
        ("--nodes", o.nodes),
        ("--events", o.events),
    ]
    .iter()
    .flat_map(|(k, v)| [k.to_string(), v.to_string()])
    .collect();
    let srv = harness::demo_server(&args, kubeconfig, Duration::from_secs(900));
    assert!(kubeconfig.exists(), "the demo server wrote no kubeconfig");
    // The scenario's own start (daemonset pods on every node) is not the churn asked for.
    let calm = 50 + u64::from(churn) * 13 / 10;
    let took = api::Api::from_kubeconfig(kubeconfig).settle(calm, Duration::from_secs(300));
    eprintln!("{pods} pods, churn {churn}/s: server settled (≤ {calm} changes/s) after {took:.1?}");
    srv
}

/// Runs `f`, turning a panic (a tool that broke the harness's expectations) into a
/// figure-less result that says so.
fn guarded<T>(what: &str, fallback: impl FnOnce(&str) -> T, f: impl FnOnce() -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(e) => {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            eprintln!("{what}: {}", msg.lines().next().unwrap_or(""));
            fallback("harness error, see stderr")
        }
    }
}

fn measure(o: &Opts, pods: usize) {
    let dir = tempfile::tempdir().unwrap();
    let tools: Vec<Tool> = o
        .tools
        .iter()
        .copied()
        .filter(|t| o.bins.of(*t).is_some())
        .collect();
    let (kc_quiet, kc_churn) = (dir.path().join("kubeconfig"), dir.path().join("kubeconfig-churn"));
    let plan = |kubeconfig| Plan {
        pods,
        nodes: o.nodes,
        events: o.events,
        samples: o.samples,
        key_samples: o.key_samples,
        cpu_window: Duration::from_secs(o.cpu_secs),
        sync_timeout: Duration::from_secs(900),
        bins: &o.bins,
        kubeconfig,
        dir: dir.path(),
    };
    let quiet_plan = plan(&kc_quiet);
    let srv = server(o, pods, 0, quiet_plan.kubeconfig);
    let api = api::Api::from_kubeconfig(quiet_plan.kubeconfig);
    let mut quiet: Vec<Quiet> = Vec::new();
    for &t in &tools {
        eprintln!("{pods} pods: {} with a quiet server…", t.name());
        quiet.push(guarded(t.name(), Quiet::failed, || match t {
            Tool::Kubectl => measure::kubectl(&quiet_plan, &api),
            _ => measure::interactive(t, &quiet_plan, &api),
        }));
    }
    drop(srv);
    let churn_plan = plan(&kc_churn);
    let srv = server(o, pods, 1000, churn_plan.kubeconfig);
    let mut cols = Vec::new();
    for (&t, q) in tools.iter().zip(quiet) {
        eprintln!("{pods} pods: {} under 1,000 changes/s…", t.name());
        let churn = guarded(t.name(), churn::Churn::failed, || churn::measure(t, &churn_plan));
        cols.push(table::Column {
            tool: t,
            quiet: q,
            churn,
        });
    }
    drop(srv);
    let title = format!(
        "{pods} pods, {} load nodes, {} load events (demo server); {} change samples, {} keystrokes under churn, CPU over {} s",
        o.nodes, o.events, o.samples, o.key_samples, o.cpu_secs
    );
    table::print(&title, &cols);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("compare: run with `bash benches/compare/run.sh [N ...]`");
        return;
    }
    let o = parse_opts(&args);
    for tool in [Tool::K9s, Tool::Kubectl] {
        if o.tools.contains(&tool) && o.bins.of(tool).is_none() {
            println!("{}: not given (--{}), left out", tool.name(), tool.name());
        }
    }
    for &n in &o.sizes {
        measure(&o, n);
    }
}
