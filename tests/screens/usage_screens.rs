//! The usage columns of pods and nodes lists (issue 33) on ratatui's TestBackend, with a
//! metrics snapshot built by hand: the columns and hand-computed percentages at 60 and 200
//! columns, `n/a` for a limit-less container's %CPU/L, `no sample`, threshold colours cell by
//! cell, the sort mark, and the state line on the bottom border (not served and forbidden
//! replace the columns; a stale poll marks values with `*`).

use std::sync::Arc;
use std::time::Duration;

use ktui::app::list::model::{SortBy, UsageCol};
use ktui::app::state::{ListState, Screen, Source, UiState};
use ktui::app::usage::model::UsageSource;
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::capacity::{Capacity, ContainerDemand};
use ktui::kube::key::ResourceKey;
use ktui::kube::metrics::{
    MetricsKey, MetricsSlot, MetricsSnapshot, MetricsState, Objects, Sample, Series, Usage,
};
use ktui::kube::row::RowCtx;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::table::decode_row;
use ktui::ui::theme::Theme;
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;
use serde_json::json;
use tokio::time::Instant;

use crate::screen::{self, render, NOW};

const M: u64 = 1_000_000;
const MI: u64 = 1 << 20;

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn pod(name: &str, containers: &[&str]) -> Vec<u8> {
    let specs: Vec<_> = containers
        .iter()
        .map(|c| json!({"name": c, "image": "nginx"}))
        .collect();
    let statuses: Vec<_> = containers
        .iter()
        .map(|c| json!({"name": c, "ready": true, "restartCount": 0, "state": {"running": {"startedAt": ts(600)}}}))
        .collect();
    serde_json::to_vec(&json!({
        "metadata": {"name": name, "namespace": "shop", "uid": format!("u-{name}"), "resourceVersion": "1",
                     "creationTimestamp": ts(7200)},
        "spec": {"containers": specs, "nodeName": "worker-3"},
        "status": {"phase": "Running", "podIP": "10.244.1.17", "containerStatuses": statuses,
                   "conditions": [{"type": "Ready", "status": "True"}]},
    }))
    .unwrap()
}

fn demand(name: &str, cpu: (Option<u64>, Option<u64>), mem: (Option<u64>, Option<u64>)) -> ContainerDemand {
    ContainerDemand {
        name: Arc::from(name),
        cpu_request: cpu.0.map(|m| m * M),
        cpu_limit: cpu.1.map(|m| m * M),
        memory_request: mem.0.map(|mi| mi * MI),
        memory_limit: mem.1.map(|mi| mi * MI),
    }
}

/// `web`: app (requests 200m/128Mi, limits 500m/256Mi) and log-shipper (requests 100m/64Mi,
/// no limits); `cart`: nothing set; `db-0`: no sample yet.
fn pods_slot() -> Arc<Slot> {
    let slot = Slot::new(ResourceKey::new(BuiltinKind::Pod, Some("shop")), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    let web = vec![
        demand("app", (Some(200), Some(500)), (Some(128), Some(256))),
        demand("log-shipper", (Some(100), None), (Some(64), None)),
    ];
    let cart = vec![demand("app", (None, None), (None, None))];
    let db = vec![demand(
        "postgres",
        (Some(500), Some(1000)),
        (Some(1024), Some(1024)),
    )];
    for (name, containers, demands) in [
        ("web-7d9f8b6c5d-x2x9k", vec!["app", "log-shipper"], web),
        ("cart-5c8d7f9b6-l6lcr", vec!["app"], cart),
        ("db-0", vec!["postgres"], db),
    ] {
        let mut row = decode_row(BuiltinKind::Pod, &pod(name, &containers), &RowCtx::default()).unwrap();
        row.capacity = Some(Arc::new(Capacity::Pod(demands.into_boxed_slice())));
        w.init_apply(row);
    }
    w.init_done(Some("9".into()));
    slot
}

/// One series of a pod's `containers` (name, millicores, MiB): first samples of `older`
/// millicores (oldest first), then theirs, all seen by a poll at `seen`.
fn series(containers: &[(&str, u64, u64)], older: &[u64], seen: Instant) -> Arc<Series> {
    let names: Arc<[Arc<str>]> = containers.iter().map(|(n, _, _)| Arc::from(*n)).collect();
    let usages: Vec<Usage> = containers
        .iter()
        .map(|(_, c, m)| Usage {
            cpu_nanos: c * M,
            memory_bytes: m * MI,
        })
        .collect();
    let mut s = Series::new(names, 60, seen, Duration::from_secs(30));
    for (i, cpu) in older.iter().enumerate() {
        let u = Usage {
            cpu_nanos: cpu * M,
            memory_bytes: MI,
        };
        let per = vec![u; usages.len()];
        let sample = Sample {
            timestamp: i as i64,
            window_ms: 15_000,
            usage: u,
        };
        s.push(sample, &per, seen);
    }
    let total = usages.iter().copied().sum();
    let sample = Sample {
        timestamp: 100,
        window_ms: 15_000,
        usage: total,
    };
    s.push(sample, &usages, seen);
    Arc::new(s)
}

/// PodMetrics of `web` (app 150m/100Mi, log-shipper 250m/40Mi) and `cart` (12m/34Mi),
/// seen `seen_ago` ago, in state `state`.
fn pod_metrics(state: MetricsState, seen_ago: Duration) -> MetricsSnapshot {
    let now = Instant::now();
    let seen = now.checked_sub(seen_ago).unwrap();
    let mut ns = std::collections::BTreeMap::new();
    ns.insert(
        Arc::from("web-7d9f8b6c5d-x2x9k"),
        series(
            &[("app", 150, 100), ("log-shipper", 250, 40)],
            &[100, 200, 300],
            seen,
        ),
    );
    ns.insert(
        Arc::from("cart-5c8d7f9b6-l6lcr"),
        series(&[("app", 12, 34)], &[], seen),
    );
    let mut objects = Objects::new();
    objects.insert(Arc::from("shop"), ns);
    let mut snap = MetricsSnapshot::empty(MetricsKey::pods(Some("shop")), 1, Duration::from_secs(15));
    snap.stale = state.is_failure();
    snap.state = state;
    snap.rev = 3;
    snap.ok_at = Some(seen);
    snap.fetched_at = Some(now);
    snap.object_count = 2;
    snap.objects = Arc::new(objects);
    snap
}

fn list_state(kind: BuiltinKind, slot: Arc<Slot>, metrics: MetricsSnapshot) -> UiState {
    let mut list = ListState::new(ResourceKey::new(kind, Some("shop")), None);
    list.source = Some(Source::fixed(slot));
    list.usage = Some(UsageSource::fixed(MetricsSlot::new(metrics)));
    let mut state = screen::ui_state(Screen::List(Box::new(list)), Some("shop".into()), false);
    screen::connect(&mut state, "prod-eu");
    state
}

fn pods(state: MetricsState, seen_ago: Duration) -> UiState {
    list_state(BuiltinKind::Pod, pods_slot(), pod_metrics(state, seen_ago))
}

fn text(term: &Terminal<TestBackend>) -> String {
    screen::screen_lines(term).join("\n")
}

/// The line of the screen holding `needle`.
fn line_with(s: &str, needle: &str) -> String {
    s.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?}:\n{s}"))
        .to_owned()
}

/// The foreground colour of the first cell of `needle` on the screen.
fn fg_of(term: &Terminal<TestBackend>, needle: &str) -> Color {
    let buf = term.backend().buffer();
    let lines = screen::screen_lines(term);
    let (y, line) = lines
        .iter()
        .enumerate()
        .find(|(_, l)| l.contains(needle))
        .unwrap_or_else(|| panic!("no {needle:?}"));
    let x = line[..line.find(needle).unwrap()].chars().count();
    buf[(x as u16, y as u16)].fg
}

#[test]
fn pods_show_usage_with_percentages_that_sum_only_where_set() {
    let mut state = pods(MetricsState::Ok, Duration::ZERO);
    let term = render(&mut state, 200, 50);
    let s = text(&term);
    let header = line_with(&s, "NAME");
    let order = [
        "RESTARTS", "CPU", "MEM", "%CPU/R", "%CPU/L", "%MEM/R", "%MEM/L", "TREND", "AGE",
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|h| header.find(h).unwrap_or(usize::MAX))
        .collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "{order:?} in order:\n{header}"
    );
    // web: CPU 150 + 250 = 400m, MEM 140Mi; %CPU/R (150 + 250) / (200 + 100) = 133%;
    // %CPU/L 150 / 500 = 30% (the limit-less log-shipper counts in neither sum);
    // %MEM/R 140 / 192 = 72%; %MEM/L 100 / 256 = 39%; the trend 100 200 300 400.
    let web = line_with(&s, "web-7d9f8b6c5d-x2x9k");
    let cells: Vec<&str> = web.split_whitespace().collect();
    for v in ["400m", "140Mi", "133%", "30%", "72%", "39%", "▂▄▆█"] {
        assert!(cells.contains(&v), "{v} in {cells:?}");
    }
    // cart sets nothing: n/a; db-0 has no sample yet.
    let cart = line_with(&s, "cart-5c8d7f9b6-l6lcr");
    assert!(cart.contains("12m") && cart.contains("34Mi"), "{cart}");
    assert_eq!(cart.matches("n/a").count(), 4, "{cart}");
    assert!(line_with(&s, "db-0").contains("no sample"), "{s}");
    // Thresholds (70 and 90): 133% in the error colour, 72% in the warning one, 30% plain.
    let theme = Theme::new(&state.settings.theme);
    assert_eq!(Some(fg_of(&term, "133%")), theme.error.fg);
    assert_eq!(Some(fg_of(&term, "72%")), theme.warn.fg);
    assert_ne!(Some(fg_of(&term, "30%")), theme.warn.fg);
    assert!(!s.contains("metrics:"), "no state line when all is current:\n{s}");
}

#[test]
fn wide_pods_add_the_sums_of_requests_and_limits() {
    let mut state = pods(MetricsState::Ok, Duration::ZERO);
    if let Screen::List(l) = state.top_mut() {
        l.wide = true;
    }
    let s = text(&render(&mut state, 250, 40));
    let header = line_with(&s, "NAME");
    for h in ["CPU/R", "CPU/L", "MEM/R", "MEM/L"] {
        assert!(header.split_whitespace().any(|c| c == h), "{h}:\n{header}");
    }
    // web: requests 200 + 100 = 300m and 192Mi; limits only app's: 500m and 256Mi.
    let web = line_with(&s, "web-7d9f8b6c5d-x2x9k");
    let cells: Vec<&str> = web.split_whitespace().collect();
    for v in ["300m", "500m", "192Mi", "256Mi"] {
        assert!(cells.contains(&v), "{v} in {cells:?}");
    }
    // db-0 has no sample, but its spec's figures are known.
    let db = line_with(&s, "db-0");
    assert!(db.contains("1000m") && db.contains("1024Mi"), "{db}");
}

#[test]
fn sixty_columns_keep_cpu_and_mem_and_name_what_went() {
    let mut state = pods(MetricsState::Ok, Duration::ZERO);
    let term = render(&mut state, 60, 20);
    let s = text(&term);
    let header = line_with(&s, "NAME");
    for h in ["READY", "STATUS", "CPU", "MEM"] {
        assert!(header.split_whitespace().any(|c| c == h), "{h} at 60:\n{s}");
    }
    assert!(line_with(&s, "web-7d9").contains("400m"), "{s}");
    assert!(s.contains("hidden"), "the dropped columns are named:\n{s}");
    assert!(!header.contains("TREND"), "TREND goes first:\n{s}");
}

#[test]
fn a_usage_sort_marks_its_column_and_puts_the_busiest_first() {
    let mut state = pods(MetricsState::Ok, Duration::ZERO);
    if let Screen::List(l) = state.top_mut() {
        l.sort = SortBy::Usage(UsageCol::Cpu);
    }
    let s = text(&render(&mut state, 200, 50));
    assert!(line_with(&s, "NAME").contains("CPU↓"), "{s}");
    let rows: Vec<&str> = s
        .lines()
        .filter(|l| l.contains("web-") || l.contains("cart-") || l.contains("db-0"))
        .collect();
    assert!(
        rows[0].contains("web-") && rows[1].contains("cart-") && rows[2].contains("db-0"),
        "{s}"
    );
    if let Screen::List(l) = state.top_mut() {
        l.reverse = true;
    }
    let s = text(&render(&mut state, 200, 50));
    assert!(line_with(&s, "NAME").contains("CPU↑"), "{s}");
    let rows: Vec<&str> = s
        .lines()
        .filter(|l| l.contains("web-") || l.contains("cart-"))
        .collect();
    assert!(
        rows[0].contains("cart-"),
        "lowest first, no sample still last:\n{s}"
    );
}

#[test]
fn not_served_and_forbidden_say_why_instead_of_columns() {
    let why = "no metrics.k8s.io in discovery (no metrics-server)";
    for (state, line) in [
        (
            MetricsState::NotServed(why.into()),
            format!(" metrics: not served ({why}) "),
        ),
        (
            MetricsState::Forbidden("forbidden: list pods.metrics.k8s.io".into()),
            " metrics: forbidden: list pods.metrics.k8s.io ".to_owned(),
        ),
    ] {
        let mut ui = pods(state, Duration::ZERO);
        let term = render(&mut ui, 200, 50);
        let s = text(&term);
        assert!(s.contains(&line), "{line:?}:\n{s}");
        assert!(!line_with(&s, "NAME").contains("CPU"), "no usage columns:\n{s}");
        assert!(!s.contains("400m"), "{s}");
        // Cut to fit a narrow list, never wrapped.
        let s = text(&render(&mut ui, 60, 20));
        assert!(s.contains(" metrics: "), "{s}");
    }
    let mut ui = pods(
        MetricsState::Forbidden("forbidden: list pods.metrics.k8s.io".into()),
        Duration::ZERO,
    );
    let term = render(&mut ui, 200, 50);
    let theme = Theme::new(&ui.settings.theme);
    assert_eq!(Some(fg_of(&term, "metrics: forbidden")), theme.error.fg);
}

#[test]
fn stale_values_stay_marked_with_the_legend() {
    // The last poll failed 47 s after the last list: values kept, marked.
    let mut state = pods(
        MetricsState::Error("503 Service Unavailable".into()),
        Duration::from_secs(47),
    );
    let s = text(&render(&mut state, 200, 50));
    let web = line_with(&s, "web-7d9f8b6c5d-x2x9k");
    assert!(web.contains("400m*") && web.contains("133%*"), "{web}");
    assert!(
        s.contains(" metrics: stale since 47s: 503 Service Unavailable · * = older than 2 intervals "),
        "{s}"
    );
    // All fine, but the object was missing from the polls of the last 2 intervals (60 s).
    let mut snap = pod_metrics(MetricsState::Ok, Duration::ZERO);
    let seen = Instant::now().checked_sub(Duration::from_secs(60)).unwrap();
    Arc::make_mut(&mut snap.objects).get_mut("shop").unwrap().insert(
        Arc::from("cart-5c8d7f9b6-l6lcr"),
        series(&[("app", 12, 34)], &[], seen),
    );
    let mut state = list_state(BuiltinKind::Pod, pods_slot(), snap);
    let s = text(&render(&mut state, 200, 50));
    assert!(line_with(&s, "cart-").contains("12m*"), "{s}");
    assert!(line_with(&s, "web-7d9").contains("400m "), "{s}");
    assert!(s.contains(" * = older than 2 intervals "), "{s}");
}

#[test]
fn nodes_show_usage_against_allocatable() {
    let slot = Slot::new(ResourceKey::new(BuiltinKind::Node, None), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    let node = serde_json::to_vec(&json!({
        "metadata": {"name": "worker-1", "uid": "n1", "resourceVersion": "1", "creationTimestamp": ts(86400)},
        "status": {"conditions": [{"type": "Ready", "status": "True"}],
                   "nodeInfo": {"kubeletVersion": "v1.31.0"}},
    }))
    .unwrap();
    let mut row = decode_row(BuiltinKind::Node, &node, &RowCtx::default()).unwrap();
    row.capacity = Some(Arc::new(Capacity::Node {
        cpu_nanos: Some(4000 * M),
        memory_bytes: Some(8192 * MI),
        pressure: Default::default(),
    }));
    w.init_apply(row);
    w.init_done(Some("2".into()));
    let now = Instant::now();
    let mut names = std::collections::BTreeMap::new();
    // A node series has no containers: its one sample is the node's usage.
    let mut s = Series::new(
        Arc::from(Vec::<Arc<str>>::new()),
        60,
        now,
        Duration::from_secs(30),
    );
    let u = Usage {
        cpu_nanos: 1161 * M,
        memory_bytes: 3072 * MI,
    };
    let sample = Sample {
        timestamp: 1,
        window_ms: 20_000,
        usage: u,
    };
    s.push(sample, &[], now);
    names.insert(Arc::from("worker-1"), Arc::new(s));
    let mut objects = Objects::new();
    objects.insert(Arc::from(""), names);
    let mut snap = MetricsSnapshot::empty(MetricsKey::nodes(), 1, Duration::from_secs(15));
    snap.state = MetricsState::Ok;
    snap.ok_at = Some(now);
    snap.object_count = 1;
    snap.objects = Arc::new(objects);
    let mut state = list_state(BuiltinKind::Node, slot, snap);
    if let Screen::List(l) = state.top_mut() {
        l.wide = true;
    }
    let s = text(&render(&mut state, 250, 30));
    let header = line_with(&s, "NAME");
    for h in ["CPU", "%CPU", "MEM", "%MEM", "CPU/A", "MEM/A", "TREND"] {
        assert!(header.split_whitespace().any(|c| c == h), "{h}:\n{header}");
    }
    // 1161m of 4000m = 29.0…% → 29%; 3072Mi of 8192Mi = 37.5% → 37%.
    let w1 = line_with(&s, "worker-1");
    let cells: Vec<&str> = w1.split_whitespace().collect();
    for v in ["1161m", "29%", "3072Mi", "37%", "4000m", "8192Mi"] {
        assert!(cells.contains(&v), "{v} in {cells:?}");
    }
}
