//! Unit tests of the per-container figures (src/app/usage/containers.rs), each against
//! numbers computed by hand in the comments.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::*;
use crate::app::usage::compute::{cpu_text, memory_text, percent_text};
use crate::kube::metrics::Sample;

const MI: u64 = 1 << 20;
/// One millicore in nanocores.
const M: u64 = 1_000_000;

fn usage(cpu_m: u64, mem_mi: u64) -> Usage {
    Usage {
        cpu_nanos: cpu_m * M,
        memory_bytes: mem_mi * MI,
    }
}

/// A series of `names` with one sample per entry of `samples` (per-container usage, in
/// `names` order), summed as the poller sums them.
fn series(names: &[&str], samples: &[Vec<Usage>]) -> Series {
    let names: Arc<[Arc<str>]> = names.iter().map(|n| Arc::from(*n)).collect();
    let now = Instant::now();
    let mut s = Series::new(names, 60, now, Duration::from_secs(30));
    for (i, usages) in samples.iter().enumerate() {
        let sample = Sample {
            timestamp: 100 + i as i64,
            window_ms: 15_000,
            usage: usages.iter().copied().sum(),
        };
        s.push(sample, usages, now);
    }
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

fn figures_of(u: ContainerUsage) -> Figures {
    match u {
        ContainerUsage::Figures(f) => f,
        other => panic!("no figures: {other:?}"),
    }
}

/// The four percentages as drawn: %CPU/R, %CPU/L, %MEM/R, %MEM/L.
fn shares(f: &Figures) -> [String; 4] {
    [f.cpu, f.cpu_limit, f.memory, f.memory_limit].map(percent_text)
}

#[test]
fn a_container_without_limits_says_na_next_to_one_with_its_own_ratio() {
    // app: requests 200m/128Mi, limits 500m/256Mi, uses 150m/100Mi.
    // log-shipper: requests 100m/64Mi, no limits, uses 250m/40Mi.
    let s = series(&["app", "log-shipper"], &[vec![usage(150, 100), usage(250, 40)]]);
    let app = demand("app", (Some(200), Some(500)), (Some(128), Some(256)));
    let shipper = demand("log-shipper", (Some(100), None), (Some(64), None));
    let a = figures_of(container_usage(Some(&s), "app", true, Some(&app)));
    // 150/200 = 75%, 150/500 = 30%, 100/128 = 78.1% → 78%, 100/256 = 39.06% → 39%.
    assert_eq!(shares(&a), ["75%", "30%", "78%", "39%"]);
    assert_eq!(
        (cpu_text(a.cpu_nanos), memory_text(a.memory_bytes)),
        ("150m".into(), "100Mi".into())
    );
    let l = figures_of(container_usage(Some(&s), "log-shipper", true, Some(&shipper)));
    // 250/100 = 250% (over its request), no limit: n/a; 40/64 = 62.5% → 62%, n/a.
    assert_eq!(shares(&l), ["250%", "n/a", "62%", "n/a"]);
    assert_eq!(
        (cpu_text(l.cpu_nanos), memory_text(l.memory_bytes)),
        ("250m".into(), "40Mi".into())
    );
    // The pods row would say 150/500 = 30% for %CPU/L too, and 400m in all: each container
    // here is its own figure, never the pod's.
    assert_eq!(a.cpu_limit.map(|p| p.milli), Some(30_000));
}

#[test]
fn a_container_that_sets_nothing_or_zero_has_no_percentages() {
    let s = series(&["app"], &[vec![usage(12, 34)]]);
    let none = figures_of(container_usage(Some(&s), "app", true, None));
    assert_eq!(shares(&none), ["n/a", "n/a", "n/a", "n/a"]);
    let zero = demand("app", (Some(0), Some(0)), (Some(0), None));
    let zero = figures_of(container_usage(Some(&s), "app", true, Some(&zero)));
    assert_eq!(shares(&zero), ["n/a", "n/a", "n/a", "n/a"]);
    // One container: its usage is the sample's (stored once), 12m and 34Mi.
    assert_eq!((zero.cpu_nanos, zero.memory_bytes), (12 * M, 34 * MI));
}

#[test]
fn a_sidecar_is_measured_like_an_app_container() {
    // A native sidecar (init container with restartPolicy: Always) is listed by
    // metrics-server next to the app: proxy requests 50m, limit 100m, uses 75m/30Mi of 64Mi.
    let s = series(&["postgres", "proxy"], &[vec![usage(300, 512), usage(75, 30)]]);
    let proxy = demand("proxy", (Some(50), Some(100)), (None, Some(64)));
    let f = figures_of(container_usage(Some(&s), "proxy", true, Some(&proxy)));
    // 75/50 = 150%, 75/100 = 75%, no memory request: n/a, 30/64 = 46.9% → 46%.
    assert_eq!(shares(&f), ["150%", "75%", "n/a", "46%"]);
    assert_eq!(cpu_text(f.cpu_nanos), "75m");
}

#[test]
fn no_sample_when_running_and_not_listed_a_dash_when_not_running() {
    let s = series(&["postgres", "proxy"], &[vec![usage(300, 512), usage(75, 30)]]);
    // Running, but the pod is not in the poll's list yet, or its sample lacks the container.
    assert_eq!(
        container_usage(None, "postgres", true, None),
        ContainerUsage::NoSample
    );
    assert_eq!(
        container_usage(Some(&s), "exporter", true, None),
        ContainerUsage::NoSample
    );
    let empty = series(&["postgres"], &[]);
    assert_eq!(
        container_usage(Some(&empty), "postgres", true, None),
        ContainerUsage::NoSample
    );
    // A plain init container that has finished is in no sample: nothing to measure.
    assert_eq!(
        container_usage(Some(&s), "init-perms", false, None),
        ContainerUsage::NotRunning
    );
    assert_eq!(
        container_usage(None, "init-perms", false, None),
        ContainerUsage::NotRunning
    );
    // A running init container the sample lists is measured.
    let s = series(&["init-perms"], &[vec![usage(5, 2)]]);
    assert!(matches!(
        container_usage(Some(&s), "init-perms", false, None),
        ContainerUsage::Figures(_)
    ));
}

#[test]
fn cpu_rounds_up_and_memory_down_as_kubectl_top_prints_them() {
    let u = Usage {
        cpu_nanos: 150 * M + 1,
        memory_bytes: 100 * MI - 1,
    };
    let s = series(&["app", "b"], &[vec![u, usage(1, 1)]]);
    let f = figures_of(container_usage(Some(&s), "app", true, None));
    assert_eq!(
        (cpu_text(f.cpu_nanos), memory_text(f.memory_bytes)),
        ("151m".into(), "99Mi".into())
    );
}

#[test]
fn the_cpu_history_is_the_containers_own_newest_samples() {
    let samples: Vec<Vec<Usage>> = (1..=10).map(|i| vec![usage(i, 1), usage(100 - i, 1)]).collect();
    let s = series(&["app", "proxy"], &samples);
    assert_eq!(
        container_cpu(&s, "app", 3),
        [8 * M, 9 * M, 10 * M],
        "oldest first, the newest three"
    );
    assert_eq!(container_cpu(&s, "proxy", 2), [91 * M, 90 * M]);
    assert_eq!(container_cpu(&s, "app", 60).len(), 10, "at most what is held");
    assert!(container_cpu(&s, "init", 8).is_empty());
    let one = series(&["app"], &[vec![usage(4, 1)], vec![usage(6, 1)]]);
    assert_eq!(container_cpu(&one, "app", 8), [4 * M, 6 * M]);
}
