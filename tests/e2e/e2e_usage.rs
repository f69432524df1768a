//! End-to-end: resource usage on screen (issue 33's "Done when"), against `ktui demo-server`
//! as its own process (so it alone can be stopped) with usage fixed for the test
//! (`--metrics-window 3600s`: one window an hour). Every figure checked is computed by hand
//! from the server's own answers — the pod or node and its PodMetrics / NodeMetrics, fetched
//! over plain HTTP — and found as an exact cell of the row on the screen: a limit-less
//! `kube-proxy` pod's %CPU/R and `n/a` %CPU/L, a `cart` pod's %CPU/L, nodes' %CPU and %MEM
//! against allocatable as `kubectl top nodes` computes them; the narrow terminal's drop
//! order and hidden-columns note; `--no-metrics` and `--metrics forbidden` saying why there
//! are no columns; `:top` and `C`; a stopped server's values marked stale.
use crate::usage_screen::{self as us, quantity, Quantity, Table};
use crate::util;

use std::time::{Duration, Instant};

use util::*;

/// The pods view's usage columns (not wide), in the order drawn.
const POD_FIGURES: [&str; 6] = ["CPU", "MEM", "%CPU/R", "%CPU/L", "%MEM/R", "%MEM/L"];
const NODE_FIGURES: [&str; 4] = ["CPU", "%CPU", "MEM", "%MEM"];
const WIDE: u16 = 200;
const TALL: u16 = 40;

mod server;

use server::*;

#[test]
fn pod_usage_cells_equal_a_hand_computation_wide_and_narrow() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), "demo", &["--metrics-window", "3600s"]);
    let proxy = limitless_pod(&server);
    let cart = pods_with_metrics(&server, "shop", "cart-")
        .into_iter()
        .next()
        .expect("a cart pod with metrics");
    let mut k = ktui_sized(&server.kubeconfig, &["-A"], TALL, WIDE);
    k.wait_until("the pods with their usage columns", SLOW, |s| {
        us::table(s).is_some_and(|t| POD_FIGURES.iter().all(|h| t.has(h)))
    });

    // The limit-less pod: %CPU/R from its request, n/a against the limits it does not set.
    let (proxy_want, t) = us::wait_figures(&k, SLOW, &proxy, || {
        pod_figures(&server, "kube-system", &proxy).expect("kube-proxy has metrics")
    });
    let at = |h: &str| proxy_want.iter().find(|(w, _)| *w == h).unwrap().1.clone();
    assert_eq!(at("%CPU/L"), "n/a", "{proxy_want:?}");
    assert_eq!(at("%MEM/L"), "n/a", "{proxy_want:?}");
    assert_ne!(at("%CPU/R"), "n/a", "{proxy_want:?}");
    eprintln!("{proxy}: screen = hand computation {proxy_want:?}");
    assert_eq!(t.cell(&proxy, "NAMESPACE").as_deref(), Some("kube-system"));

    // A pod with a limit: %CPU/L against it (near the limit, the demo's `cart`).
    let (want, _) = us::wait_figures(&k, SLOW, &cart, || {
        pod_figures(&server, "shop", &cart).expect("cart has metrics")
    });
    let cpu_l = want.iter().find(|(h, _)| *h == "%CPU/L").unwrap().1.clone();
    let pct: u32 = cpu_l
        .strip_suffix('%')
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("cart's %CPU/L is {cpu_l:?}"));
    assert!(pct >= 80, "cart runs near its CPU limit: {want:?}");
    eprintln!("{cart}: screen = hand computation {want:?}");

    // Narrow: the pods of one namespace at 60 columns keep NAME, STATUS, CPU (and its exact
    // figure); the title names what was dropped.
    k.command("pods kube-system");
    k.wait_until("kube-system's pods", SLOW, |s| {
        us::table(s)
            .is_some_and(|t| !t.has("NAMESPACE") && t.cell(&proxy, "CPU").is_some_and(|c| c.ends_with('m')))
    });
    let all: Vec<String> = us::table(&k.screen())
        .unwrap()
        .headers()
        .iter()
        .map(|h| h.to_string())
        .collect();
    assert!(us::hidden_note(&k.screen()).is_none(), "{}", k.dump());
    k.resize(ROWS, 60);
    let cpu = at("CPU");
    k.wait_until("the narrow table", SLOW, |s| {
        us::table(s).is_some_and(|t| t.cell(&proxy, "CPU").as_deref() == Some(cpu.as_str()))
            && us::hidden_note(s).is_some()
    });
    let screen = k.screen();
    let t = us::table(&screen).unwrap();
    for h in ["NAME", "STATUS", "CPU"] {
        assert!(t.has(h), "{h} dropped at 60 columns\n{}", k.dump());
    }
    assert_eq!(t.cell(&proxy, "STATUS").as_deref(), Some("Running"));
    assert_hidden_note(&screen, &all, &t);
    // What the narrow view drops first: TREND and the limits before the requests, and
    // those before CPU (README § Resource usage).
    let shown: Vec<&str> = t.headers();
    for (kept, dropped_first) in [("CPU", "TREND"), ("CPU", "%CPU/L"), ("CPU", "%CPU/R")] {
        assert!(
            !shown.contains(&dropped_first) || shown.contains(&kept),
            "{dropped_first} kept over {kept}: {shown:?}"
        );
    }
    eprintln!(
        "at 60 columns: {:?}; title: {:?}",
        shown,
        us::hidden_note(&screen).unwrap()
    );

    // All namespaces at 60 columns: NAME and STATUS stay, the note says what went.
    k.command("pods all");
    k.wait_until("all namespaces, narrow", SLOW, |s| {
        us::table(s).is_some_and(|t| t.has("NAMESPACE") && t.names().len() > 5)
    });
    let screen = k.screen();
    let t = us::table(&screen).unwrap();
    assert!(t.has("NAME") && t.has("STATUS"), "{}", k.dump());
    let mut all_ns = vec!["NAMESPACE".to_owned()];
    all_ns.extend(all.iter().cloned());
    assert_hidden_note(&screen, &all_ns, &t);
    eprintln!(
        "all namespaces at 60 columns: {:?}; title: {:?}",
        t.headers(),
        us::hidden_note(&screen).unwrap()
    );
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}

#[test]
fn no_metrics_and_forbidden_say_why_in_place_of_the_columns() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = interval_config(dir.path(), "2s");
    let off = Server::start(dir.path(), "off", &["--no-metrics"]);
    let forbidden = Server::start(dir.path(), "forbidden", &["--metrics", "forbidden"]);
    // The server's side: no group at all; the admin may read metrics, the viewer may not.
    let (status, _) = off.get("/apis/metrics.k8s.io/v1beta1/pods");
    assert_eq!(status, 404);
    assert_eq!(forbidden.get("/apis/metrics.k8s.io/v1beta1/pods").0, 200);
    assert_eq!(forbidden.get("/viewer/apis/metrics.k8s.io/v1beta1/pods").0, 403);

    let k_off = ktui_sized(&off.kubeconfig, &["--config", &cfg, "-A"], ROWS, WIDE);
    let k_forbidden = ktui_sized(
        &forbidden.kubeconfig,
        &["--config", &cfg, "--context", "ktui-demo-viewer", "-A"],
        ROWS,
        WIDE,
    );
    let no_columns = |s: &str| {
        us::table(s).is_some_and(|t| {
            t.cell_of(t.rows.first().map_or("", String::as_str), "STATUS")
                .is_some_and(|c| !c.is_empty())
                && !POD_FIGURES.iter().any(|h| t.has(h))
                && !t.has("TREND")
        })
    };
    let not_served = "metrics: not served (no metrics.k8s.io in discovery (no metrics-server))";
    let took = k_off.wait_until("discovery's reason on the border", SLOW, |s| {
        us::bottom_border(s).as_deref() == Some(not_served) && no_columns(s)
    });
    report_timing(
        "--no-metrics: discovery's reason on the border",
        took,
        Duration::from_secs(3),
    );
    let why = "metrics: forbidden: list pods.metrics.k8s.io";
    let took = k_forbidden.wait_until("the viewer's 403 on the border", SLOW, |s| {
        us::bottom_border(s).as_deref() == Some(why) && no_columns(s)
    });
    report_timing(
        "--metrics forbidden: the 403 on the border",
        took,
        Duration::from_secs(3),
    );
    // Still so a poll later: the reason stays, no column comes back.
    std::thread::sleep(Duration::from_millis(2500));
    for (k, line) in [(&k_off, not_served), (&k_forbidden, why)] {
        let s = k.screen();
        assert!(
            us::bottom_border(&s).as_deref() == Some(line) && no_columns(&s),
            "{}",
            k.dump()
        );
    }
}

#[test]
fn top_sorts_by_cpu_and_nodes_show_usage_against_allocatable() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), "demo", &["--metrics-window", "3600s"]);
    // A short interval: nodes' usage follows their pods, which the demo moves.
    let cfg = interval_config(dir.path(), "1s");
    let mut k = ktui_sized(&server.kubeconfig, &["--config", &cfg, "-A"], TALL, WIDE);
    k.wait_for("Running", SLOW);
    k.command("top");
    // Highest first: the top row is the server's busiest pod.
    let busiest = || {
        let list = server.get_ok("/apis/metrics.k8s.io/v1beta1/pods");
        list["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                let cpu: Quantity = i["containers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| quantity(c["usage"]["cpu"].as_str().unwrap()))
                    .sum();
                cpu.milli_ceil()
            })
            .max()
            .unwrap()
    };
    let cpus = |t: &Table| t.column("CPU");
    let sorted = |t: &Table, mark: &str| t.drawn_header("CPU").as_deref() == Some(&format!("CPU{mark}")[..]);
    let top = busiest();
    k.wait_until(":top sorted by CPU, busiest first", SLOW, |s| {
        us::table(s).is_some_and(|t| {
            sorted(&t, "↓") && cpus(&t).first().and_then(|c| us::cpu_millis(c)) == Some(top as u64)
        })
    });
    let check_order = |t: &Table, descending: bool| {
        let cells = cpus(t);
        let values: Vec<u64> = cells.iter().map_while(|c| us::cpu_millis(c)).collect();
        assert!(values.len() >= 5, "few rows with a CPU figure: {cells:?}");
        let ordered = values
            .windows(2)
            .all(|w| if descending { w[0] >= w[1] } else { w[0] <= w[1] });
        assert!(ordered, "CPU not ordered (descending {descending}): {cells:?}");
        // Rows without a figure come last either way.
        assert!(
            cells[values.len()..].iter().all(|c| c == "no sample"),
            "{cells:?}"
        );
        values
    };
    let t = us::table(&k.screen()).unwrap();
    let down = check_order(&t, true);
    assert_eq!(t.drawn_header("NAME").as_deref(), Some("NAME"), "one sort mark");
    k.type_keys("C");
    k.wait_until("C again: lowest first", SLOW, |s| {
        us::table(s).is_some_and(|t| sorted(&t, "↑"))
    });
    let up = check_order(&us::table(&k.screen()).unwrap(), false);
    assert_eq!(up.last(), down.first(), "reversed: {down:?} / {up:?}");
    eprintln!(":top CPU column {down:?}; after C {up:?}");

    // Nodes: CPU %CPU MEM %MEM as `kubectl top nodes` computes them; NotReady worker-4 none.
    k.command("nodes");
    k.wait_until("nodes with usage", SLOW, |s| {
        us::table(s).is_some_and(|t| NODE_FIGURES.iter().all(|h| t.has(h)))
    });
    let nodes = server.get_ok("/apis/metrics.k8s.io/v1beta1/nodes");
    let with_metrics: Vec<String> = nodes["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(with_metrics.len() >= 3, "{nodes}");
    for node in &with_metrics {
        let (want, _) = us::wait_figures(&k, SLOW, node, || node_figures(&server, node).expect("metrics"));
        eprintln!("{node}: screen = kubectl top nodes' computation {want:?}");
    }
    assert_eq!(
        server.get("/apis/metrics.k8s.io/v1beta1/nodes/worker-4").0,
        404,
        "worker-4 has no metrics"
    );
    let t = us::table(&k.screen()).unwrap();
    assert_eq!(t.cell("worker-4", "STATUS").as_deref(), Some("NotReady"));
    assert_eq!(
        t.cell("worker-4", "CPU").as_deref(),
        Some("no sample"),
        "{}",
        k.dump()
    );
    for h in ["%CPU", "MEM", "%MEM"] {
        assert_eq!(t.cell("worker-4", h).as_deref(), Some(""), "{h}\n{}", k.dump());
    }
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}

#[test]
fn a_stopped_server_leaves_its_last_usage_marked_stale() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), "demo", &["--metrics-window", "3600s"]);
    const INTERVAL: Duration = Duration::from_secs(1);
    let cfg = interval_config(dir.path(), "1s");
    let proxy = limitless_pod(&server);
    let k = ktui_sized(
        &server.kubeconfig,
        &["--config", &cfg, "-n", "kube-system"],
        ROWS,
        WIDE,
    );
    let (want, _) = us::wait_figures(&k, SLOW, &proxy, || {
        pod_figures(&server, "kube-system", &proxy).expect("kube-proxy has metrics")
    });
    assert_eq!(us::bottom_border(&k.screen()), None, "{}", k.dump());
    // Each figure with a value gets its `*`; `n/a` has no value to age.
    let marked: Vec<(&'static str, String)> = want
        .iter()
        .map(|(h, v)| (*h, if v == "n/a" { v.clone() } else { format!("{v}*") }))
        .collect();
    server.signal(libc::SIGSTOP);
    let took = k.wait_until("the figures marked stale", SLOW, |s| {
        us::table(s).is_some_and(|t| us::same(&t, &proxy, &marked))
            && us::bottom_border(s).is_some_and(|b| {
                b.starts_with("metrics: stale since ") && b.ends_with(" · * = older than 2 intervals")
            })
    });
    let border = us::bottom_border(&k.screen()).unwrap();
    eprintln!("SIGSTOP → {marked:?} and {border:?} after {took:.2?}");
    report_timing("stale marks after SIGSTOP (1 s interval)", took, INTERVAL * 3);
    assert!(
        took <= INTERVAL * 4 + Duration::from_secs(2),
        "stale marks only after {took:?}\n{}",
        k.dump()
    );
    // Every row with figures is marked, not just the one checked.
    let t = us::table(&k.screen()).unwrap();
    for cell in t.column("CPU") {
        assert!(
            cell == "no sample" || cell.ends_with("m*"),
            "{cell:?}\n{}",
            k.dump()
        );
    }
    // Back: the marks and the line go at the next poll.
    server.signal(libc::SIGCONT);
    let back = Instant::now();
    us::wait_figures(&k, SLOW, &proxy, || {
        pod_figures(&server, "kube-system", &proxy).expect("kube-proxy has metrics")
    });
    k.wait_until("the stale line gone", SLOW, |s| us::bottom_border(s).is_none());
    let took = back.elapsed();
    report_timing("marks gone after SIGCONT", took, INTERVAL * 3);
}
