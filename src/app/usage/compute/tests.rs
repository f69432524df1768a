//! Unit tests of the usage figures (src/app/usage/compute.rs), each against numbers computed
//! by hand in the comments.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::*;
use crate::kube::metrics::{MetricsKey, Sample};

const MI: u64 = 1 << 20;
/// One millicore in nanocores.
const M: u64 = 1_000_000;

fn usage(cpu_m: u64, mem_mi: u64) -> Usage {
    Usage {
        cpu_nanos: cpu_m * M,
        memory_bytes: mem_mi * MI,
    }
}

/// A series holding one sample of `containers` (name, usage), summed as the poller sums them.
fn series(containers: &[(&str, Usage)]) -> Series {
    let names: Arc<[Arc<str>]> = containers.iter().map(|(n, _)| Arc::from(*n)).collect();
    let usages: Vec<Usage> = containers.iter().map(|(_, u)| *u).collect();
    let now = Instant::now();
    let mut s = Series::new(names, 60, now, Duration::from_secs(30));
    s.push(
        Sample {
            timestamp: 100,
            window_ms: 15_000,
            usage: usages.iter().copied().sum(),
        },
        &usages,
        now,
    );
    s
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

fn pod(demands: Vec<ContainerDemand>) -> Capacity {
    Capacity::Pod(demands.into_boxed_slice())
}

fn whole(p: Option<Percent>) -> Option<u64> {
    p.map(|p| p.whole)
}

#[test]
fn a_limitless_container_never_inflates_the_limit_percentages() {
    // app: requests 200m/128Mi, limits 500m/256Mi, uses 150m/100Mi.
    // log-shipper: requests 100m/64Mi, no limits, uses 250m/40Mi.
    let s = series(&[("app", usage(150, 100)), ("log-shipper", usage(250, 40))]);
    let cap = pod(vec![
        demand("app", (Some(200), Some(500)), (Some(128), Some(256))),
        demand("log-shipper", (Some(100), None), (Some(64), None)),
    ]);
    let f = figures(&s, Some(&cap)).unwrap();
    // CPU 150 + 250 = 400m, MEM 100 + 40 = 140Mi.
    assert_eq!(cpu_text(f.cpu_nanos), "400m");
    assert_eq!(memory_text(f.memory_bytes), "140Mi");
    // %CPU/R = (150 + 250) / (200 + 100) = 133.3… → 133%.
    assert_eq!(whole(f.cpu), Some(133));
    assert_eq!(f.cpu.map(|p| p.milli), Some(133_333));
    // %CPU/L = 150 / 500 = 30% (k9s#1698 would say 400 / 500 = 80%).
    assert_eq!(whole(f.cpu_limit), Some(30));
    // %MEM/R = (100 + 40) / (128 + 64) = 72.9… → 72%; %MEM/L = 100 / 256 = 39.06… → 39%.
    assert_eq!(whole(f.memory), Some(72));
    assert_eq!(whole(f.memory_limit), Some(39));
    assert_eq!(percent_text(f.cpu), "133%");
    // The wide figures: what is set, summed.
    let d = demands(Some(&cap));
    assert_eq!(d.cpu_request, Some(300 * M));
    assert_eq!(d.cpu_limit, Some(500 * M));
    assert_eq!(d.memory_request, Some(192 * MI));
    assert_eq!(d.memory_limit, Some(256 * MI));
}

#[test]
fn a_sidecar_counts_where_it_sets_the_measure_and_containers_match_by_name() {
    // Spec order: web (limits only), then the sidecar istio-proxy (requests and limits);
    // the sample lists them the other way round, plus a container the spec does not have.
    let s = series(&[
        ("istio-proxy", usage(30, 50)),
        ("web", usage(90, 300)),
        ("debugger", usage(500, 500)),
    ]);
    let cap = pod(vec![
        demand("web", (None, Some(100)), (None, Some(512))),
        demand("istio-proxy", (Some(100), Some(200)), (Some(128), Some(128))),
    ]);
    let f = figures(&s, Some(&cap)).unwrap();
    // CPU and MEM sum the whole sample: 30 + 90 + 500 = 620m, 50 + 300 + 500 = 850Mi.
    assert_eq!(cpu_text(f.cpu_nanos), "620m");
    assert_eq!(memory_text(f.memory_bytes), "850Mi");
    // %CPU/R: only istio-proxy sets a request: 30 / 100 = 30%. %MEM/R: 50 / 128 = 39.06… → 39%.
    assert_eq!(whole(f.cpu), Some(30));
    assert_eq!(whole(f.memory), Some(39));
    // %CPU/L: (30 + 90) / (200 + 100) = 40%. %MEM/L: (50 + 300) / (128 + 512) = 54.68… → 54%.
    assert_eq!(whole(f.cpu_limit), Some(40));
    assert_eq!(whole(f.memory_limit), Some(54));
}

#[test]
fn nothing_set_is_n_a_and_a_missing_measure_too() {
    let s = series(&[("app", usage(12, 34))]);
    let cap = pod(vec![demand("app", (None, None), (None, None))]);
    for cap in [Some(&cap), None] {
        let f = figures(&s, cap).unwrap();
        assert_eq!(
            (cpu_text(f.cpu_nanos), memory_text(f.memory_bytes)),
            ("12m".into(), "34Mi".into())
        );
        assert_eq!([f.cpu, f.memory, f.cpu_limit, f.memory_limit], [None; 4]);
        assert_eq!(percent_text(f.cpu_limit), "n/a");
        assert_eq!(demands(cap), Demands::default());
    }
    // A request of 0 is no denominator either.
    let zero = pod(vec![demand("app", (Some(0), None), (None, None))]);
    assert_eq!(figures(&s, Some(&zero)).unwrap().cpu, None);
    // No sample yet: no figures at all.
    let empty = Series::new(
        Arc::from(vec![Arc::from("app")]),
        60,
        Instant::now(),
        Duration::from_secs(30),
    );
    assert_eq!(figures(&empty, Some(&cap)), None);
}

#[test]
fn one_container_over_its_request() {
    // 268m of a 200m request: 134%.
    let s = series(&[("app", usage(268, 10))]);
    let cap = pod(vec![demand("app", (Some(200), None), (None, None))]);
    let f = figures(&s, Some(&cap)).unwrap();
    assert_eq!(percent_text(f.cpu), "134%");
    assert_eq!(percent_text(f.cpu_limit), "n/a");
}

#[test]
fn nodes_against_allocatable_as_kubectl_top_nodes() {
    let node = |cpu_m: u64, mem_mi: u64| {
        let now = Instant::now();
        let mut s = Series::new(
            Arc::from(Vec::<Arc<str>>::new()),
            60,
            now,
            Duration::from_secs(30),
        );
        let u = Usage {
            cpu_nanos: cpu_m,
            memory_bytes: mem_mi * MI,
        };
        s.push(
            Sample {
                timestamp: 1,
                window_ms: 20_000,
                usage: u,
            },
            &[],
            now,
        );
        s
    };
    let cap = Capacity::Node {
        cpu_nanos: Some(4000 * M),
        memory_bytes: Some(8192 * MI),
        pressure: Default::default(),
    };
    // 1160m of 4000m: kubectl computes float64(1160) / float64(4000) * 100 = 28.999…96 → 28%.
    // 3072Mi of 8192Mi = 37.5% → 37%.
    let f = figures(&node(1160 * M, 3072), Some(&cap)).unwrap();
    assert_eq!((whole(f.cpu), whole(f.memory)), (Some(28), Some(37)));
    assert_eq!(f.cpu.map(|p| p.milli), Some(29_000));
    assert_eq!((f.cpu_limit, f.memory_limit), (None, None));
    // Usage is rounded up to a millicore first, as MilliValue() does: 1160.000001m → 1161m
    // → 29.025% → 29%.
    let f = figures(&node(1160 * M + 1, 3072), Some(&cap)).unwrap();
    assert_eq!(cpu_text(f.cpu_nanos), "1161m");
    assert_eq!(whole(f.cpu), Some(29));
    assert_eq!(allocatable(Some(&cap)), (Some(4000 * M), Some(8192 * MI)));
    // No allocatable: n/a; a pod's measure on a node series is ignored.
    let none = Capacity::Node {
        cpu_nanos: None,
        memory_bytes: Some(0),
        pressure: Default::default(),
    };
    let f = figures(&node(10, 10), Some(&none)).unwrap();
    assert_eq!((f.cpu, f.memory), (None, None));
    let f = figures(&node(10, 10), Some(&pod(vec![]))).unwrap();
    assert_eq!(f.cpu, None);
}

#[test]
fn texts_round_as_kubectl_top() {
    assert_eq!(cpu_text(0), "0m");
    assert_eq!(cpu_text(1), "1m", "MilliValue rounds up");
    assert_eq!(cpu_text(1_500_000_000), "1500m");
    assert_eq!(memory_text(MI - 1), "0Mi", "Value() / 2^20 rounds down");
    assert_eq!(memory_text(140 * MI + 5), "140Mi");
    assert_eq!(percent_text(None), "n/a");
}

#[test]
fn columns_show_only_with_something_to_show() {
    let key = MetricsKey::pods(None);
    let mut snap = MetricsSnapshot::empty(key, 1, Duration::from_secs(15));
    assert!(!shows_columns(&snap), "fetching, nothing held");
    snap.state = MetricsState::Ok;
    assert!(shows_columns(&snap));
    snap.state = MetricsState::Error("timeout".into());
    assert!(!shows_columns(&snap), "an error before any sample");
    snap.object_count = 3;
    assert!(shows_columns(&snap), "an error with samples held: stale values");
    snap.state = MetricsState::NotServed("no metrics-server".into());
    assert!(!shows_columns(&snap));
    snap.state = MetricsState::Forbidden("forbidden: list pods.metrics.k8s.io".into());
    assert!(!shows_columns(&snap));
}
