//! The containers view's usage columns (issue 33) on ratatui's TestBackend, with a PodMetrics
//! snapshot built by hand: each container's own CPU, MEM and percentages of its own requests
//! and limits at 200 and 60 columns (hand-computed), `n/a` for the app without limits next to
//! the sidecar's own ratio, `-` for the finished init container, `no sample` for a container
//! the sample lacks, threshold colours, the per-container TREND, stale `*`, and the state line
//! in place of the columns when metrics.k8s.io is not served.

use std::sync::Arc;
use std::time::Duration;

use ktui::app::containers::model::ContainersState;
use ktui::app::state::{ObjectFeed, Screen, UiState};
use ktui::app::usage::model::UsageSource;
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::metrics::{
    MetricsKey, MetricsSlot, MetricsSnapshot, MetricsState, Objects, Sample, Series, Usage,
};
use ktui::kube::object::ObjectView;
use ktui::kube::sync::SyncState;
use ktui::ui::theme::Theme;
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;
use serde_json::json;
use tokio::time::Instant;

use crate::screen::{self, NOW};

const M: u64 = 1_000_000;
const MI: u64 = 1 << 20;

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

/// `postgres-0`: a finished init container `init-perms`; a native sidecar `proxy` (requests
/// 50m/32Mi, limits 100m/64Mi); the app `postgres` (requests 500m/1Gi, no limits); the app
/// `exporter` (nothing set), running but not in the sample yet.
fn pod() -> serde_json::Value {
    json!({
        "metadata": {"name": "postgres-0", "namespace": "shop", "creationTimestamp": ts(86_400)},
        "spec": {
            "initContainers": [
                {"name": "init-perms", "image": "busybox:1.36",
                 "resources": {"requests": {"cpu": "10m"}}},
                {"name": "proxy", "image": "envoy:v1.31", "restartPolicy": "Always",
                 "resources": {"requests": {"cpu": "50m", "memory": "32Mi"},
                               "limits": {"cpu": "100m", "memory": "64Mi"}}}],
            "containers": [
                {"name": "postgres", "image": "docker.io/library/postgres:16",
                 "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}},
                {"name": "exporter", "image": "quay.io/prometheuscommunity/postgres-exporter:v0.15"}]},
        "status": {
            "initContainerStatuses": [
                {"name": "init-perms", "restartCount": 0, "state": {"terminated": {
                    "exitCode": 0, "reason": "Completed", "startedAt": ts(3_600), "finishedAt": ts(3_590)}}},
                {"name": "proxy", "ready": true, "restartCount": 0,
                 "state": {"running": {"startedAt": ts(3_580)}}}],
            "containerStatuses": [
                {"name": "postgres", "ready": true, "restartCount": 0,
                 "state": {"running": {"startedAt": ts(3_500)}}},
                {"name": "exporter", "ready": true, "restartCount": 0,
                 "state": {"running": {"startedAt": ts(20)}}}]}
    })
}

fn usage(cpu_m: u64, mem_mi: u64) -> Usage {
    Usage {
        cpu_nanos: cpu_m * M,
        memory_bytes: mem_mi * MI,
    }
}

/// PodMetrics of `postgres-0` as metrics-server lists it (`postgres`, `proxy`): postgres at
/// 100, 200, 300 then 350m (700Mi), proxy at 75m (30Mi) throughout, seen `seen_ago` ago.
fn metrics(state: MetricsState, seen_ago: Duration) -> MetricsSnapshot {
    let now = Instant::now();
    let seen = now.checked_sub(seen_ago).unwrap();
    let names: Arc<[Arc<str>]> = ["postgres", "proxy"].iter().map(|n| Arc::from(*n)).collect();
    let mut s = Series::new(names, 60, seen, Duration::from_secs(30));
    for (i, cpu) in [100, 200, 300, 350].into_iter().enumerate() {
        let per = [usage(cpu, 700), usage(75, 30)];
        let sample = Sample {
            timestamp: 100 + i as i64 * 15,
            window_ms: 15_000,
            usage: per.iter().copied().sum(),
        };
        s.push(sample, &per, seen);
    }
    let mut ns = std::collections::BTreeMap::new();
    ns.insert(Arc::from("postgres-0"), Arc::new(s));
    let mut objects = Objects::new();
    objects.insert(Arc::from("shop"), ns);
    let mut snap = MetricsSnapshot::empty(MetricsKey::pods(Some("shop")), 1, Duration::from_secs(15));
    snap.stale = state.is_failure();
    snap.state = state;
    snap.rev = 2;
    snap.ok_at = Some(seen);
    snap.fetched_at = Some(now);
    snap.object_count = 1;
    snap.objects = Arc::new(objects);
    snap
}

fn state(metrics: MetricsSnapshot) -> UiState {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("shop"));
    let mut c = ContainersState::new("shop", "postgres-0");
    c.watch = Some(ObjectFeed::fixed(
        key,
        ObjectView {
            object: Some(Arc::new(pod())),
            deleted: false,
            state: SyncState::Live,
            rev: 1,
        },
    ));
    c.usage = Some(UsageSource::fixed(MetricsSlot::new(metrics)));
    let mut state = screen::ui_state(Screen::Containers(Box::new(c)), Some("shop".into()), false);
    screen::connect(&mut state, "prod-eu");
    state
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

/// The words of a table line, without the frame.
fn words(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || c == '│')
        .filter(|w| !w.is_empty())
        .collect()
}

fn cells_of(s: &str, needle: &str) -> Vec<String> {
    words(&line_with(s, needle))
        .into_iter()
        .map(str::to_owned)
        .collect()
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
fn each_container_shows_its_own_usage_against_its_own_requests_and_limits() {
    let mut ui = state(metrics(MetricsState::Ok, Duration::ZERO));
    let term = screen::render(&mut ui, 200, 20);
    let s = text(&term);
    let header = line_with(&s, "NAME");
    let heads = words(&header);
    let order = [
        "STATE", "RESTARTS", "CPU", "MEM", "%CPU/R", "%CPU/L", "%MEM/R", "%MEM/L", "TREND", "PORTS", "AGE",
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|h| heads.iter().position(|x| x == h).unwrap_or(usize::MAX))
        .collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "{order:?} in order:\n{header}"
    );
    // proxy (sidecar): 75m of a 50m request = 150%, of a 100m limit = 75%; 30Mi of 32Mi =
    // 93.75% → 93%, of 64Mi = 46.875% → 46%; flat: the trend is all at its max.
    let proxy = cells_of(&s, "proxy");
    for v in ["75m", "30Mi", "150%", "75%", "93%", "46%", "████"] {
        assert!(proxy.contains(&v.to_owned()), "{v} in {proxy:?}");
    }
    // postgres: 350m of 500m = 70%, no CPU limit: n/a; 700Mi of 1024Mi = 68.4% → 68%, n/a;
    // its own trend 100 200 300 350: ceil(8v/350) = 3 5 7 8 → ▃▅▇█ (the pod's would be
    // 175 275 375 425).
    let postgres = cells_of(&s, "library/postgres:16");
    for v in ["350m", "700Mi", "70%", "68%", "▃▅▇█"] {
        assert!(postgres.contains(&v.to_owned()), "{v} in {postgres:?}");
    }
    assert_eq!(postgres.iter().filter(|c| *c == "n/a").count(), 2, "{postgres:?}");
    // The finished init container: nothing to measure. exporter: running, not in the sample.
    let init = line_with(&s, "init-perms");
    assert!(init.contains(" -  ") && !init.contains("n/a"), "{init}");
    assert!(line_with(&s, "exporter").contains("no sample"), "{s}");
    // Thresholds (70 and 90): 150% and 93% in the error colour, 75% and 70% in the warning
    // one, 46% and 68% plain.
    let theme = Theme::new(&ui.settings.theme);
    for (v, want) in [
        ("150%", theme.error.fg),
        ("93%", theme.error.fg),
        ("75%", theme.warn.fg),
        ("70%", theme.warn.fg),
    ] {
        assert_eq!(Some(fg_of(&term, v)), want, "{v}");
    }
    for v in ["46%", "68%"] {
        let fg = Some(fg_of(&term, v));
        assert!(fg != theme.warn.fg && fg != theme.error.fg, "{v}");
    }
    assert!(!s.contains("metrics:"), "no state line when all is current:\n{s}");
    insta::assert_snapshot!("containers_usage_200x20", s);
}

#[test]
fn sixty_columns_keep_name_state_cpu_and_mem_and_name_what_went() {
    let mut ui = state(metrics(MetricsState::Ok, Duration::ZERO));
    let s = text(&screen::render(&mut ui, 60, 20));
    let header = line_with(&s, "NAME");
    for h in ["NAME", "STATE", "CPU", "MEM"] {
        assert!(words(&header).contains(&h), "{h} at 60:\n{s}");
    }
    assert!(!header.contains("TREND"), "{s}");
    assert_eq!(cells_of(&s, "proxy"), ["proxy", "Running", "75m", "30Mi"], "{s}");
    assert_eq!(
        cells_of(&s, "postgres "),
        ["postgres", "Running", "350m", "700Mi"],
        "{s}"
    );
    assert_eq!(
        cells_of(&s, "exporter"),
        ["exporter", "Running", "no", "sample"],
        "{s}"
    );
    assert!(s.contains("hidden"), "the dropped columns are named:\n{s}");
    insta::assert_snapshot!("containers_usage_60x20", s);
}

#[test]
fn stale_values_are_marked_and_not_served_says_why_instead_of_columns() {
    // The last poll failed 47 s after the last list: values kept, marked, the legend below.
    let mut ui = state(metrics(
        MetricsState::Error("503 Service Unavailable".into()),
        Duration::from_secs(47),
    ));
    let s = text(&screen::render(&mut ui, 200, 20));
    let proxy = line_with(&s, "proxy");
    assert!(proxy.contains("75m*") && proxy.contains("150%*"), "{proxy}");
    assert!(
        s.contains(" metrics: stale since 47s: 503 Service Unavailable · * = older than 2 intervals "),
        "{s}"
    );
    let why = "no metrics.k8s.io in discovery (no metrics-server)";
    let mut ui = state(metrics(MetricsState::NotServed(why.into()), Duration::ZERO));
    let s = text(&screen::render(&mut ui, 200, 20));
    assert!(s.contains(&format!(" metrics: not served ({why}) ")), "{s}");
    assert!(!line_with(&s, "NAME").contains("CPU"), "no usage columns:\n{s}");
    assert!(!s.contains("75m"), "{s}");
    // Cut to fit a narrow view, never wrapped.
    let s = text(&screen::render(&mut ui, 60, 20));
    assert!(line_with(&s, " metrics: not served").ends_with('┘'), "{s}");
}
