//! Unit tests of the usage cells (src/ui/usage.rs): the sparkline and the state line's words.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::*;
use crate::kube::metrics::{MetricsKey, Sample, Usage};

fn theme() -> Theme {
    Theme::new(&crate::config::theme::ThemeSpec::dark())
}

fn series(cpus: &[u64]) -> Series {
    let now = Instant::now();
    let mut s = Series::new(
        Arc::from(vec![Arc::from("app")]),
        60,
        now,
        Duration::from_secs(30),
    );
    for (i, &c) in cpus.iter().enumerate() {
        let u = Usage {
            cpu_nanos: c,
            memory_bytes: 1,
        };
        s.push(
            Sample {
                timestamp: i as i64 + 1,
                window_ms: 15_000,
                usage: u,
            },
            &[u],
            now,
        );
    }
    s
}

#[test]
fn the_trend_scales_to_the_rows_own_max_and_keeps_the_newest_eight() {
    assert_eq!(trend(&series(&[0, 1, 2, 4, 8])), "▁▁▂▄█");
    assert_eq!(trend(&series(&[5, 5, 5])), "███", "flat: all at the max");
    assert_eq!(trend(&series(&[0, 0])), "▁▁", "idle");
    let ten: Vec<u64> = (1..=10).collect();
    assert_eq!(trend(&series(&ten)).chars().count(), 8);
    assert!(trend(&series(&ten)).ends_with('█'));
    assert_eq!(trend(&series(&[])), "");
}

#[test]
fn the_state_line_says_why() {
    let t = theme();
    let now = Instant::now();
    let mut snap = MetricsSnapshot::empty(MetricsKey::pods(None), 1, Duration::from_secs(15));
    let text = |s: &MetricsSnapshot, stale: bool| state_text(s, now, stale, &t).map(|(x, _)| x);
    assert_eq!(text(&snap, false).as_deref(), Some(" metrics: fetching… "));
    snap.state = MetricsState::Ok;
    snap.ok_at = Some(now);
    assert_eq!(text(&snap, false), None);
    assert_eq!(text(&snap, true).as_deref(), Some(" * = older than 2 intervals "));
    snap.state = MetricsState::NotServed("no metrics.k8s.io in discovery (no metrics-server)".into());
    assert_eq!(
        text(&snap, false).as_deref(),
        Some(" metrics: not served (no metrics.k8s.io in discovery (no metrics-server)) ")
    );
    snap.state = MetricsState::Forbidden("forbidden: list pods.metrics.k8s.io".into());
    assert_eq!(
        state_text(&snap, now, false, &t),
        Some((" metrics: forbidden: list pods.metrics.k8s.io ".into(), t.error))
    );
    snap.state = MetricsState::Error("503 Service Unavailable".into());
    assert_eq!(
        text(&snap, false).as_deref(),
        Some(" metrics: 503 Service Unavailable ")
    );
    snap.object_count = 2;
    snap.stale = true;
    snap.ok_at = now.checked_sub(Duration::from_secs(47));
    assert_eq!(
        text(&snap, true).as_deref(),
        Some(" metrics: stale since 47s: 503 Service Unavailable · * = older than 2 intervals ")
    );
    // A poll that stalled (no answer for more than two intervals) is stale too.
    snap.state = MetricsState::Ok;
    snap.stale = false;
    assert_eq!(
        text(&snap, true).as_deref(),
        Some(" metrics: stale since 47s · * = older than 2 intervals ")
    );
}
