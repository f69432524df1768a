//! One object's metrics over time: a bounded ring of [`Sample`]s (oldest first) with the
//! per-container usage of pods, and when it was last confirmed by a poll (staleness). Owns
//! the ring and its memory bound; must not fetch or decode.
//!
//! Memory: a sample is 32 bytes (timestamp 8, window 4 + padding 4, usage 16); a pod with
//! two or more containers adds 16 bytes per container per sample (a one-container pod's
//! container usage is its total, stored once). At the default bound of 60 samples that is
//! about 1.9 KiB per node or one-container pod, plus 0.94 KiB per container of a
//! multi-container pod, plus about 150 bytes of names and bookkeeping per object.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::quantity::Usage;

/// Samples kept per object by default: 15 minutes at the default 15 s interval.
pub const DEFAULT_SAMPLES: usize = 60;

/// What one metrics item said: its `timestamp`, `window` and usage (a node's `usage`, or a
/// pod's `containers[].usage` summed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// The item's `timestamp` (the end of the window it was measured over), Unix seconds.
    pub timestamp: i64,
    /// The item's `window` (what `usage.cpu` is averaged over), milliseconds.
    pub window_ms: u32,
    /// Node: `usage`. Pod: the sum of its containers' `usage`.
    pub usage: Usage,
}

impl Sample {
    /// The item's `window` as a duration.
    pub fn window(&self) -> Duration {
        Duration::from_millis(u64::from(self.window_ms))
    }
}

/// One object's samples, oldest first, at most `bound` of them. A clone holds room for
/// exactly one more sample (each poll clones a series and pushes one), so the memory held is
/// what the samples need, never a growth policy's slack.
#[derive(Debug)]
pub struct Series {
    /// Container names (`containers[].name`) of a pod, in the order the server lists them;
    /// empty for nodes. A pod whose containers change starts a new series.
    containers: Arc<[Arc<str>]>,
    samples: VecDeque<Sample>,
    /// Per-container usage of pods with two or more containers, `containers.len()` per
    /// sample, in sample order (empty otherwise: one container's usage is the sample's).
    per_container: VecDeque<Usage>,
    bound: usize,
    /// When a poll last returned this object; its newest sample is stale past
    /// `seen + stale_after`.
    seen: Instant,
    stale_after: Duration,
}

impl Series {
    /// An empty series for an object with `containers` (empty for nodes) that keeps at most
    /// `bound` samples (at least one), stale `stale_after` after the last poll that saw it.
    pub fn new(containers: Arc<[Arc<str>]>, bound: usize, seen: Instant, stale_after: Duration) -> Self {
        let bound = bound.max(1);
        let stride = stride(&containers);
        Series {
            containers,
            samples: VecDeque::with_capacity(1),
            per_container: VecDeque::with_capacity(stride),
            bound,
            seen,
            stale_after,
        }
    }

    /// Adds what a poll at `seen` returned: a sample newer than the newest one is appended
    /// (the oldest dropped past the bound); one no newer (the server's cache answered
    /// again) only confirms the newest. `usages` are per container, in
    /// [`Series::containers`] order (ignored for nodes).
    pub fn push(&mut self, sample: Sample, usages: &[Usage], seen: Instant) {
        self.seen = seen;
        if self
            .samples
            .back()
            .is_some_and(|last| sample.timestamp <= last.timestamp)
        {
            return;
        }
        let stride = stride(&self.containers);
        if self.samples.len() == self.bound {
            self.samples.pop_front();
            self.per_container.drain(..stride.min(self.per_container.len()));
        }
        self.samples.push_back(sample);
        if stride > 0 {
            let mut row: Vec<Usage> = usages.iter().copied().take(stride).collect();
            row.resize(stride, Usage::default());
            self.per_container.extend(row);
        }
    }

    /// A pod's container names; empty for nodes.
    pub fn containers(&self) -> &Arc<[Arc<str>]> {
        &self.containers
    }

    /// The samples, oldest first.
    pub fn samples(&self) -> impl ExactSizeIterator<Item = &Sample> + DoubleEndedIterator {
        self.samples.iter()
    }

    /// Samples held (at most the bound).
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// True when no sample is held.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The newest sample.
    pub fn latest(&self) -> Option<&Sample> {
        self.samples.back()
    }

    /// The per-container usage of the sample at `index` (0: oldest), in
    /// [`Series::containers`] order; empty for nodes or an index past the end.
    pub fn container_usage(&self, index: usize) -> Vec<Usage> {
        let Some(sample) = self.samples.get(index) else {
            return Vec::new();
        };
        match self.containers.len() {
            0 => Vec::new(),
            1 => vec![sample.usage],
            n => self
                .per_container
                .range(index * n..(index + 1) * n)
                .copied()
                .collect(),
        }
    }

    /// True when the last poll that returned this object was more than two intervals
    /// before `now`: the newest sample may no longer be what the object uses.
    pub fn is_stale(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.seen) > self.stale_after
    }

    /// When a poll last returned this object.
    pub fn seen(&self) -> Instant {
        self.seen
    }
}

impl Series {
    /// A copy that keeps at most `bound` samples (at least one), the newest: what a poll
    /// pushes onto when the memory budget changed the bound (see
    /// [`MetricsConfig::budget_bytes`](super::MetricsConfig::budget_bytes)).
    pub fn clone_bounded(&self, bound: usize) -> Series {
        let bound = bound.max(1);
        let skip = self.samples.len().saturating_sub(bound);
        let stride = stride(&self.containers);
        let room = (self.samples.len() - skip + 1).min(bound);
        let mut samples = VecDeque::with_capacity(room);
        samples.extend(self.samples.iter().skip(skip).copied());
        let mut per_container = VecDeque::with_capacity(room * stride);
        per_container.extend(self.per_container.iter().skip(skip * stride).copied());
        Series {
            containers: self.containers.clone(),
            samples,
            per_container,
            bound,
            seen: self.seen,
            stale_after: self.stale_after,
        }
    }
}

impl Clone for Series {
    fn clone(&self) -> Self {
        self.clone_bounded(self.bound)
    }
}

/// Per-container usages stored per sample: none for nodes and one-container pods.
fn stride(containers: &[Arc<str>]) -> usize {
    if containers.len() >= 2 {
        containers.len()
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(cpu: u64) -> Usage {
        Usage {
            cpu_nanos: cpu,
            memory_bytes: cpu * 2,
        }
    }

    fn sample(ts: i64, cpu: u64) -> Sample {
        Sample {
            timestamp: ts,
            window_ms: 15_000,
            usage: usage(cpu),
        }
    }

    fn names(n: &[&str]) -> Arc<[Arc<str>]> {
        n.iter().map(|s| Arc::<str>::from(*s)).collect()
    }

    #[test]
    fn a_sample_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Sample>(), 32);
        assert_eq!(std::mem::size_of::<Usage>(), 16);
    }

    #[test]
    fn the_ring_keeps_the_newest_bound_samples() {
        let now = Instant::now();
        let mut s = Series::new(names(&["app", "sidecar"]), 3, now, Duration::from_secs(30));
        for i in 1..=5 {
            s.push(
                sample(i, i as u64 * 10),
                &[usage(i as u64), usage(i as u64 * 9)],
                now,
            );
        }
        assert_eq!(s.len(), 3);
        let ts: Vec<i64> = s.samples().map(|x| x.timestamp).collect();
        assert_eq!(ts, [3, 4, 5]);
        assert_eq!(s.container_usage(0), [usage(3), usage(27)]);
        assert_eq!(s.container_usage(2), [usage(5), usage(45)]);
        assert!(s.container_usage(3).is_empty());
        assert_eq!(s.per_container.len(), 6, "per-container usage is bounded too");
        // A poll clones and pushes: room for one more, never past the bound.
        let c = s.clone();
        assert!(
            c.samples.capacity() >= 3 && c.samples.capacity() < 8,
            "{}",
            c.samples.capacity()
        );
        assert_eq!(c.container_usage(2), [usage(5), usage(45)]);
    }

    #[test]
    fn a_bound_of_zero_keeps_one() {
        let now = Instant::now();
        let mut s = Series::new(names(&[]), 0, now, Duration::from_secs(30));
        s.push(sample(1, 1), &[], now);
        s.push(sample(2, 2), &[], now);
        assert_eq!(s.len(), 1);
        assert_eq!(s.latest().map(|x| x.timestamp), Some(2));
        assert!(s.container_usage(0).is_empty(), "nodes have no containers");
    }

    #[test]
    fn an_old_timestamp_only_confirms_the_newest() {
        let t0 = Instant::now();
        let mut s = Series::new(names(&["app"]), 60, t0, Duration::from_secs(30));
        s.push(sample(10, 1), &[usage(1)], t0);
        let t1 = t0 + Duration::from_secs(15);
        s.push(sample(10, 2), &[usage(2)], t1);
        s.push(sample(9, 3), &[usage(3)], t1);
        assert_eq!(s.len(), 1);
        assert_eq!(s.latest().map(|x| x.usage), Some(usage(1)));
        assert_eq!(s.seen(), t1);
        assert_eq!(s.container_usage(0), [usage(1)], "one container: the total");
    }

    #[test]
    fn stale_after_two_intervals_without_a_poll() {
        let t0 = Instant::now();
        let mut s = Series::new(names(&["app"]), 60, t0, Duration::from_secs(30));
        s.push(sample(10, 1), &[usage(1)], t0);
        assert!(!s.is_stale(t0 + Duration::from_secs(30)));
        assert!(s.is_stale(t0 + Duration::from_secs(31)));
        s.push(sample(25, 1), &[usage(1)], t0 + Duration::from_secs(31));
        assert!(!s.is_stale(t0 + Duration::from_secs(31)));
    }
}
