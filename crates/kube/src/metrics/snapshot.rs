//! [`MetricsSnapshot`]: what one metrics poll task knows at one moment (its state, when it
//! last fetched, each object's series), immutable and replaced whole; and the state machine
//! that turns a poll's outcome into the next snapshot ([`MetricsSnapshot::next`]). Owns those
//! transitions; must not talk to the network.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::series::Series;
use super::wire::Item;
use super::MetricsKey;

/// Each object's series by `metadata.namespace` (sanitized; `""` for nodes), then
/// `metadata.name` (sanitized), so a lookup by `&str` allocates nothing.
pub type Objects = BTreeMap<Arc<str>, BTreeMap<Arc<str>, Arc<Series>>>;

/// How a metrics poll stands, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetricsState {
    /// No poll has answered yet.
    Fetching,
    /// The last poll answered with a list.
    Ok,
    /// metrics.k8s.io is not there: discovery lacks it or says it is down, or the server
    /// answered 404. The reason, one line (`no metrics.k8s.io in discovery (no
    /// metrics-server)`).
    NotServed(String),
    /// 403, in the header's words: `forbidden: list pods.metrics.k8s.io`.
    Forbidden(String),
    /// Anything else (5xx, a timeout, no connection, an undecodable body), one line.
    Error(String),
}

impl MetricsState {
    /// True for every state but `Fetching` and `Ok`: the samples held, if any, are older
    /// than the last poll.
    pub fn is_failure(&self) -> bool {
        !matches!(self, MetricsState::Fetching | MetricsState::Ok)
    }
}

impl fmt::Display for MetricsState {
    /// `fetching…`, `ok`, `not served (reason)`, `forbidden: list pods.metrics.k8s.io`, or the
    /// error's line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MetricsState::Fetching => f.write_str("fetching…"),
            MetricsState::Ok => f.write_str("ok"),
            MetricsState::NotServed(why) => write!(f, "not served ({why})"),
            MetricsState::Forbidden(words) | MetricsState::Error(words) => f.write_str(words),
        }
    }
}

/// An immutable, complete view of one poll task's metrics. A new one replaces it whole;
/// series unchanged by a poll are shared with the previous snapshot.
#[derive(Debug, Clone)]
pub struct MetricsSnapshot {
    /// The key this snapshot belongs to.
    pub key: MetricsKey,
    /// The poll task's epoch (a restarted task counts `rev` from 0 again).
    pub epoch: u64,
    /// Bumped on every publication.
    pub rev: u64,
    /// How the last poll went.
    pub state: MetricsState,
    /// True when the samples held are from before a poll that failed (every state but `Ok`
    /// after the first good poll): they are kept, but no longer current.
    pub stale: bool,
    /// When the last poll answered (with anything, a failure too).
    pub fetched_at: Option<Instant>,
    /// When the last poll answered with a list.
    pub ok_at: Option<Instant>,
    /// The most recent failure, kept after a recovery (for `:informers`).
    pub last_error: Option<String>,
    /// Items of the last list that could not be read, as one line (`2 items could not be
    /// read: podmetrics/ns/x: usage.cpu "lots" is not a quantity`).
    pub unreadable: Option<String>,
    /// How long the last poll took: the request, reading and decoding the list, and merging
    /// it into the series (`None` before the first answer).
    pub took: Option<Duration>,
    /// The poll interval (staleness is two of them).
    pub interval: Duration,
    /// Each object of the last list and its series, ordered by (namespace, name). An object
    /// missing from a list is dropped.
    pub objects: Arc<Objects>,
    /// Objects held.
    pub object_count: usize,
    /// Samples held over all objects.
    pub samples: usize,
}

/// What one poll brought.
#[derive(Debug)]
pub(super) enum Outcome {
    /// A list was read: its items, and the items set aside (`kind/ns/name: why`).
    Listed { items: Vec<Item>, skipped: Vec<String> },
    /// It failed; the state to show.
    Failed(MetricsState),
}

impl MetricsSnapshot {
    /// The snapshot a poll task starts with: `Fetching`, nothing held.
    pub fn empty(key: MetricsKey, epoch: u64, interval: Duration) -> Self {
        MetricsSnapshot {
            key,
            epoch,
            rev: 0,
            state: MetricsState::Fetching,
            stale: false,
            fetched_at: None,
            ok_at: None,
            last_error: None,
            took: None,
            unreadable: None,
            interval,
            objects: Arc::default(),
            object_count: 0,
            samples: 0,
        }
    }

    /// The series of `name` in `namespace` (`None` for nodes).
    pub fn get(&self, namespace: Option<&str>, name: &str) -> Option<&Arc<Series>> {
        self.objects.get(namespace.unwrap_or(""))?.get(name)
    }

    /// The objects of `namespace` (`None`: nodes) by name, in name order (a namespace view
    /// served by the all-namespaces poll reads its own this way).
    pub fn in_namespace(&self, namespace: Option<&str>) -> impl Iterator<Item = (&Arc<str>, &Arc<Series>)> {
        self.objects.get(namespace.unwrap_or("")).into_iter().flatten()
    }

    /// Every object as (namespace, name, series), ordered by namespace then name; no
    /// namespace for nodes.
    pub fn iter(&self) -> impl Iterator<Item = (Option<&str>, &str, &Arc<Series>)> {
        self.objects.iter().flat_map(|(ns, names)| {
            let ns = Some(&**ns).filter(|n| !n.is_empty());
            names.iter().map(move |(name, s)| (ns, &**name, s))
        })
    }

    /// True when what this snapshot holds is not current at `now`: a poll failed since it
    /// was fetched ([`MetricsSnapshot::stale`]), or no list came for more than two
    /// intervals.
    pub fn is_stale(&self, now: Instant) -> bool {
        self.stale
            || self
                .ok_at
                .is_some_and(|t| now.saturating_duration_since(t) > self.interval * 2)
    }

    /// The snapshot after a poll answered at `now` with `outcome`, keeping at most `bound`
    /// samples per object. A list replaces the objects (new ones start a series, one whose
    /// containers changed starts again, gone ones are dropped) and sets `Ok`; a failure sets
    /// its state and keeps every series, marked stale.
    pub(super) fn next(&self, outcome: Outcome, now: Instant, bound: impl Into<Bound>) -> MetricsSnapshot {
        let bound = bound.into();
        let mut next = MetricsSnapshot {
            rev: self.rev + 1,
            fetched_at: Some(now),
            ..self.clone()
        };
        match outcome {
            Outcome::Failed(state) => {
                next.last_error = Some(state.to_string());
                next.stale = next.ok_at.is_some();
                next.state = state;
            }
            Outcome::Listed { items, skipped } => {
                next.state = MetricsState::Ok;
                next.stale = false;
                next.ok_at = Some(now);
                next.unreadable = unreadable_line(&skipped);
                let bound = bound.per_object(items.len());
                next.objects = Arc::new(self.merge(items, now, bound));
                next.object_count = next.objects.values().map(BTreeMap::len).sum();
                next.samples = next
                    .objects
                    .values()
                    .flat_map(|m| m.values())
                    .map(|s| s.len())
                    .sum();
            }
        }
        next
    }

    /// The series after a list: each item appended to its object's series.
    fn merge(&self, items: Vec<Item>, now: Instant, bound: usize) -> Objects {
        let stale_after = self.interval * 2;
        let mut out = Objects::new();
        for item in items {
            let namespace = item.namespace.unwrap_or_else(|| Arc::from(""));
            let usages: Vec<_> = item.containers.iter().map(|(_, u)| *u).collect();
            let same_containers = |s: &Series| {
                s.containers().len() == item.containers.len()
                    && s.containers()
                        .iter()
                        .zip(&item.containers)
                        .all(|(a, (b, _))| a == b)
            };
            let old = self.objects.get(&namespace).and_then(|m| m.get(&item.name));
            let mut series = match old {
                Some(old) if same_containers(old) => old.clone_bounded(bound),
                _ => {
                    let names: Arc<[Arc<str>]> = item.containers.iter().map(|(n, _)| n.clone()).collect();
                    Series::new(names, bound, now, stale_after)
                }
            };
            series.push(item.sample, &usages, now);
            out.entry(namespace)
                .or_default()
                .insert(item.name, Arc::new(series));
        }
        out
    }
}

/// How many samples each object keeps: the configured number, fewer when the objects of a
/// list would take more than the budget (at least [`Bound::FLOOR`] so a trend still shows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Bound {
    /// [`MetricsConfig::samples`](super::MetricsConfig::samples).
    pub samples: usize,
    /// [`MetricsConfig::budget_bytes`](super::MetricsConfig::budget_bytes).
    pub budget_bytes: usize,
}

impl Bound {
    /// Fewest samples per object the budget may leave (unless `samples` is smaller).
    pub const FLOOR: usize = 4;
    /// What one sample costs, counted for the budget: the 32-byte [`Sample`](super::Sample) and the ring's
    /// share of per-container usages (16 bytes per container of pods with two or more; most
    /// pods have one or two).
    pub const SAMPLE_BYTES: usize = 48;

    /// Samples per object for a list of `objects`.
    pub fn per_object(self, objects: usize) -> usize {
        let fit = self.budget_bytes / objects.max(1) / Self::SAMPLE_BYTES;
        fit.clamp(Self::FLOOR.min(self.samples), self.samples.max(1))
    }
}

impl From<usize> for Bound {
    /// `samples` per object whatever the list's size (no budget).
    fn from(samples: usize) -> Bound {
        Bound {
            samples,
            budget_bytes: usize::MAX,
        }
    }
}

/// The items a list set aside, as one line; `None` when there were none.
fn unreadable_line(skipped: &[String]) -> Option<String> {
    let first = skipped.first()?;
    let n = skipped.len();
    let line = if n == 1 {
        format!("1 item could not be read: {first}")
    } else {
        format!("{n} items could not be read: {first}")
    };
    Some(crate::failure::one_line(&line))
}

#[cfg(test)]
mod tests;
