//! Resource usage from `metrics.k8s.io/v1beta1` (PodMetrics, NodeMetrics, as metrics-server
//! serves them): polled, since the API has no watch, by a [`MetricsPool`] per context into
//! immutable [`MetricsSnapshot`]s that keep a bounded trend per object. Owns the keys, the
//! tunables and the wiring of its children; must not know the UI or run discovery (the
//! caller says whether the API is served, see [`Served`]).
//!
//! Memory bound: at most [`MetricsConfig::samples`] samples per object (default 60: 15
//! minutes at the default 15 s interval), and only objects of the last list. A sample is 32
//! bytes, plus 16 per container for pods with two or more containers: about 2 KiB per node or
//! one-container pod at the default bound (see `series`).

use std::fmt;
use std::time::Duration;

mod poll;
mod pool;
mod quantity;
mod series;
mod served;
mod slot;
mod snapshot;
mod wire;

pub use pool::{MetricsInfo, MetricsPool, MetricsSubscription};
pub use quantity::{parse_bytes, parse_cpu_nanos, Usage};
pub use series::{Sample, Series, DEFAULT_SAMPLES};
pub use served::Served;
pub use slot::MetricsSlot;
pub use snapshot::{MetricsSnapshot, MetricsState, Objects};

/// The API group and version polled.
pub const GROUP_VERSION: &str = "metrics.k8s.io/v1beta1";

/// What is polled: PodMetrics or NodeMetrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// `pods.metrics.k8s.io` (PodMetrics, namespaced).
    Pods,
    /// `nodes.metrics.k8s.io` (NodeMetrics, cluster-scoped).
    Nodes,
}

impl Target {
    /// The resource name in discovery and URLs: `pods`, `nodes`.
    pub fn plural(self) -> &'static str {
        match self {
            Target::Pods => "pods",
            Target::Nodes => "nodes",
        }
    }
}

/// What one poll task lists: a target, in one namespace or all (`None`). Nodes have no
/// namespace: [`MetricsKey::nodes`] (the pool drops a namespace given for nodes).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MetricsKey {
    /// PodMetrics or NodeMetrics.
    pub target: Target,
    /// The namespace of a pods key; `None`: all namespaces (and always for nodes).
    pub namespace: Option<String>,
}

impl MetricsKey {
    /// PodMetrics of `namespace`, or of all namespaces.
    pub fn pods(namespace: Option<&str>) -> Self {
        MetricsKey {
            target: Target::Pods,
            namespace: namespace.map(str::to_owned),
        }
    }

    /// NodeMetrics.
    pub fn nodes() -> Self {
        MetricsKey {
            target: Target::Nodes,
            namespace: None,
        }
    }

    /// The key without a namespace for nodes (they have none).
    fn normalized(mut self) -> Self {
        if self.target == Target::Nodes {
            self.namespace = None;
        }
        self
    }

    /// The same target in all namespaces.
    pub fn widened(&self) -> Self {
        MetricsKey {
            target: self.target,
            namespace: None,
        }
    }

    /// The list's path: `/apis/metrics.k8s.io/v1beta1[/namespaces/{ns}]/{pods|nodes}`.
    pub fn url_path(&self) -> String {
        match &self.namespace {
            Some(ns) if self.target == Target::Pods => {
                format!("/apis/{GROUP_VERSION}/namespaces/{ns}/{}", self.target.plural())
            }
            _ => format!("/apis/{GROUP_VERSION}/{}", self.target.plural()),
        }
    }
}

impl fmt::Display for MetricsKey {
    /// `pods.metrics.k8s.io (all)`, `pods.metrics.k8s.io (team-a)`, `nodes.metrics.k8s.io`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.metrics.k8s.io", self.target.plural())?;
        match (&self.namespace, self.target) {
            (_, Target::Nodes) => Ok(()),
            (Some(ns), _) => write!(f, " ({})", crate::sanitize::sanitize(ns)),
            (None, _) => f.write_str(" (all)"),
        }
    }
}

/// A metrics-changed notification: which key's slot was republished. Carries no samples
/// (the reader loads the slot).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetricsChanged {
    /// The key whose slot was republished.
    pub key: MetricsKey,
}

/// Tunables of the metrics pool.
#[derive(Debug, Clone)]
pub struct MetricsConfig {
    /// Time between two polls of one key, from the start of one to the start of the next
    /// (`[metrics] interval`; default 15 s, metrics-server's usual scrape interval). A
    /// sample is stale after two.
    pub interval: Duration,
    /// Samples kept per object (default [`DEFAULT_SAMPLES`]; at least 1).
    pub samples: usize,
    /// Deadline of one list request (default 10 s; never longer than the interval).
    pub request_timeout: Duration,
    /// How long a poll task runs on without subscribers (default 30 s).
    pub grace: Duration,
    /// Bytes the samples of one poll may take (default 64 MiB): a list with more objects
    /// than fit at `samples` each keeps fewer per object (at least 4), so 150,000 pods keep
    /// about 9 samples each instead of 60 (see `snapshot::Bound`).
    pub budget_bytes: usize,
}

impl MetricsConfig {
    /// The per-object bound rule of this configuration.
    fn bound(&self) -> snapshot::Bound {
        snapshot::Bound {
            samples: self.samples,
            budget_bytes: self.budget_bytes,
        }
    }
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            interval: Duration::from_secs(15),
            samples: DEFAULT_SAMPLES,
            request_timeout: Duration::from_secs(10),
            grace: Duration::from_secs(30),
            budget_bytes: 64 << 20,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_paths() {
        assert_eq!(
            MetricsKey::pods(None).url_path(),
            "/apis/metrics.k8s.io/v1beta1/pods"
        );
        assert_eq!(
            MetricsKey::pods(Some("team-a")).url_path(),
            "/apis/metrics.k8s.io/v1beta1/namespaces/team-a/pods"
        );
        assert_eq!(
            MetricsKey::nodes().url_path(),
            "/apis/metrics.k8s.io/v1beta1/nodes"
        );
        let odd = MetricsKey {
            target: Target::Nodes,
            namespace: Some("x".into()),
        };
        assert_eq!(odd.clone().normalized(), MetricsKey::nodes());
        assert_eq!(odd.url_path(), "/apis/metrics.k8s.io/v1beta1/nodes");
        assert_eq!(MetricsKey::pods(Some("a")).to_string(), "pods.metrics.k8s.io (a)");
        assert_eq!(MetricsKey::pods(None).to_string(), "pods.metrics.k8s.io (all)");
        assert_eq!(MetricsKey::nodes().to_string(), "nodes.metrics.k8s.io");
    }
}
