//! The snapshot state machine: first list, accumulation, objects dropped, failures keeping
//! the last samples marked stale, recovery.

use std::time::Duration;

use super::*;
use crate::metrics::quantity::Usage;
use crate::metrics::series::Sample;

const INTERVAL: Duration = Duration::from_secs(15);

fn item(ns: &str, name: &str, ts: i64, cpu: u64) -> Item {
    let usage = Usage {
        cpu_nanos: cpu,
        memory_bytes: 1024,
    };
    Item {
        namespace: Some(Arc::from(ns)),
        name: Arc::from(name),
        sample: Sample {
            timestamp: ts,
            window_ms: 15_000,
            usage,
        },
        containers: vec![(Arc::from("app"), usage)],
    }
}

fn listed(items: Vec<Item>) -> Outcome {
    Outcome::Listed {
        items,
        skipped: Vec::new(),
    }
}

fn first() -> MetricsSnapshot {
    MetricsSnapshot::empty(MetricsKey::pods(None), 1, INTERVAL)
}

#[test]
fn fetching_then_ok_then_samples_accumulate() {
    let t0 = Instant::now();
    let s0 = first();
    assert_eq!(s0.state, MetricsState::Fetching);
    assert!(!s0.is_stale(t0), "nothing held, nothing stale");
    let s1 = s0.next(
        listed(vec![item("a", "web", 100, 1), item("b", "db", 100, 2)]),
        t0,
        60,
    );
    assert_eq!(
        (s1.state.clone(), s1.rev, s1.object_count, s1.samples),
        (MetricsState::Ok, 1, 2, 2)
    );
    let t1 = t0 + INTERVAL;
    let s2 = s1.next(
        listed(vec![item("a", "web", 115, 3), item("b", "db", 115, 4)]),
        t1,
        60,
    );
    assert_eq!(s2.samples, 4);
    let web = s2.get(Some("a"), "web").unwrap();
    let cpu: Vec<u64> = web.samples().map(|s| s.usage.cpu_nanos).collect();
    assert_eq!(cpu, [1, 3]);
    assert_eq!(s2.ok_at, Some(t1));
    let names: Vec<_> = s2.in_namespace(Some("a")).map(|(n, _)| n.to_string()).collect();
    assert_eq!(names, ["web"]);
    let all: Vec<_> = s2
        .iter()
        .map(|(ns, n, _)| format!("{}/{n}", ns.unwrap_or("-")))
        .collect();
    assert_eq!(all, ["a/web", "b/db"]);
}

#[test]
fn an_object_gone_from_a_list_is_dropped() {
    let t0 = Instant::now();
    let s1 = first().next(
        listed(vec![item("a", "web", 100, 1), item("a", "old", 100, 1)]),
        t0,
        60,
    );
    let s2 = s1.next(listed(vec![item("a", "web", 115, 1)]), t0 + INTERVAL, 60);
    assert!(s2.get(Some("a"), "old").is_none());
    assert_eq!((s2.object_count, s2.samples), (1, 2));
}

#[test]
fn the_bound_holds_across_polls() {
    let mut s = first();
    let t0 = Instant::now();
    for i in 0..10i64 {
        s = s.next(
            listed(vec![item("a", "web", 100 + i * 15, i as u64)]),
            t0 + INTERVAL * i as u32,
            4,
        );
    }
    assert_eq!(s.samples, 4);
    let ts: Vec<i64> = s
        .get(Some("a"), "web")
        .unwrap()
        .samples()
        .map(|x| x.timestamp)
        .collect();
    assert_eq!(ts, [190, 205, 220, 235]);
}

#[test]
fn a_failure_keeps_the_samples_and_marks_them_stale() {
    let t0 = Instant::now();
    let s1 = first().next(listed(vec![item("a", "web", 100, 1)]), t0, 60);
    assert!(!s1.is_stale(t0));
    let err = MetricsState::Error("503: service unavailable".into());
    let s2 = s1.next(Outcome::Failed(err.clone()), t0 + INTERVAL, 60);
    assert_eq!(s2.state, err);
    assert!(s2.stale && s2.is_stale(t0 + INTERVAL));
    assert_eq!(s2.samples, 1, "the last good samples are kept");
    assert!(Arc::ptr_eq(&s1.objects, &s2.objects), "kept, not copied");
    assert_eq!(s2.last_error.as_deref(), Some("503: service unavailable"));
    assert_eq!(s2.ok_at, Some(t0));
    assert_eq!(s2.fetched_at, Some(t0 + INTERVAL));
    // Recovery: current again; the last error stays for :informers.
    let s3 = s2.next(listed(vec![item("a", "web", 130, 2)]), t0 + INTERVAL * 2, 60);
    assert_eq!(s3.state, MetricsState::Ok);
    assert!(!s3.is_stale(t0 + INTERVAL * 2));
    assert_eq!(s3.samples, 2);
    assert_eq!(s3.last_error.as_deref(), Some("503: service unavailable"));
}

#[test]
fn a_failure_before_any_list_is_not_stale_data() {
    let t0 = Instant::now();
    let s = first().next(
        Outcome::Failed(MetricsState::Forbidden(
            "forbidden: list pods.metrics.k8s.io".into(),
        )),
        t0,
        60,
    );
    assert!(!s.stale);
    assert_eq!(s.state.to_string(), "forbidden: list pods.metrics.k8s.io");
    assert!(s.state.is_failure());
    let s = s.next(
        Outcome::Failed(MetricsState::NotServed("no metrics-server".into())),
        t0,
        60,
    );
    assert_eq!(s.state.to_string(), "not served (no metrics-server)");
}

#[test]
fn stale_when_no_list_came_for_two_intervals() {
    let t0 = Instant::now();
    let s1 = first().next(listed(vec![item("a", "web", 100, 1)]), t0, 60);
    assert!(!s1.is_stale(t0 + INTERVAL * 2));
    assert!(s1.is_stale(t0 + INTERVAL * 2 + Duration::from_millis(1)));
    let web = s1.get(Some("a"), "web").unwrap();
    assert!(web.is_stale(t0 + INTERVAL * 3));
}

#[test]
fn changed_containers_start_a_new_series() {
    let t0 = Instant::now();
    let s1 = first().next(listed(vec![item("a", "web", 100, 1)]), t0, 60);
    let mut two = item("a", "web", 115, 1);
    two.containers.push((Arc::from("sidecar"), Usage::default()));
    let s2 = s1.next(listed(vec![two]), t0 + INTERVAL, 60);
    let web = s2.get(Some("a"), "web").unwrap();
    assert_eq!(web.len(), 1);
    assert_eq!(web.containers().len(), 2);
}

#[test]
fn unreadable_items_are_one_line() {
    let t0 = Instant::now();
    let s = first().next(
        Outcome::Listed {
            items: Vec::new(),
            skipped: vec![
                "podmetrics/a/x: no usage.cpu".into(),
                "podmetrics/a/y: no usage.cpu".into(),
            ],
        },
        t0,
        60,
    );
    assert_eq!(
        s.unreadable.as_deref(),
        Some("2 items could not be read: podmetrics/a/x: no usage.cpu")
    );
}

#[test]
fn the_budget_bounds_samples_per_object() {
    let b = Bound {
        samples: 60,
        budget_bytes: 64 << 20,
    };
    assert_eq!(b.per_object(1), 60);
    assert_eq!(b.per_object(10_000), 60);
    // 64 MiB over 150,000 pods at 48 bytes a sample.
    assert_eq!(b.per_object(150_000), 9);
    assert_eq!(b.per_object(10_000_000), Bound::FLOOR);
    let tiny = Bound {
        samples: 2,
        budget_bytes: 0,
    };
    assert_eq!(tiny.per_object(5), 2);
}

#[test]
fn a_smaller_bound_keeps_the_newest_samples() {
    let t0 = Instant::now();
    let mut s = first();
    for i in 0..10i64 {
        s = s.next(
            listed(vec![item("a", "web", 100 + i, i as u64 + 1)]),
            t0 + INTERVAL * i as u32,
            60,
        );
    }
    assert_eq!(s.get(Some("a"), "web").map(|x| x.len()), Some(10));
    // The list grew past the budget: 4 samples each, the newest kept.
    let b = Bound {
        samples: 60,
        budget_bytes: 4 * Bound::SAMPLE_BYTES,
    };
    let s = s.next(listed(vec![item("a", "web", 500, 11)]), t0 + INTERVAL * 10, b);
    let series = s.get(Some("a"), "web").expect("series");
    assert_eq!(series.len(), 4);
    let cpus: Vec<u64> = series.samples().map(|x| x.usage.cpu_nanos).collect();
    assert_eq!(cpus, vec![8, 9, 10, 11]);
}
