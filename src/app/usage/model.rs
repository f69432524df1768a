//! The read side of a view's metrics poll ([`UsageSource`]) and the `[metrics]` settings the
//! transitions need ([`UsageSettings`]). Plain state; must not subscribe, compute or draw.

use std::sync::Arc;

use crate::kube::builtin::BuiltinKind;
use crate::kube::kind::Kind;
use crate::kube::metrics::{MetricsKey, MetricsSlot, MetricsSnapshot, Target};

/// What a list reads of the metrics poll serving it. The subscription that keeps the poll
/// running belongs to the loop, not to the view.
pub struct UsageSource {
    /// Where the serving poll task publishes.
    pub slot: Arc<MetricsSlot>,
    /// Objects must be filtered to this namespace (the all-namespaces poll serves the view).
    pub filter_ns: Option<String>,
}

impl UsageSource {
    /// What a metrics pool subscription serves (the loop keeps the subscription itself).
    pub fn of(sub: &crate::kube::metrics::MetricsSubscription) -> UsageSource {
        UsageSource {
            slot: sub.slot.clone(),
            filter_ns: sub.filter_namespace().map(str::to_owned),
        }
    }

    /// A source reading a slot nobody polls (screen tests, benchmarks).
    pub fn fixed(slot: Arc<MetricsSlot>) -> UsageSource {
        UsageSource {
            slot,
            filter_ns: None,
        }
    }

    /// The latest snapshot; readers never wait.
    pub fn load(&self) -> Arc<MetricsSnapshot> {
        self.slot.load()
    }
}

/// `[metrics]` as the transitions and the drawing read it.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageSettings {
    /// `[metrics] enabled`: poll metrics.k8s.io for pods, containers and nodes views.
    pub enabled: bool,
    /// `[metrics] warn`: a percentage at or above this is drawn in the warning colour.
    pub warn_percent: u32,
    /// `[metrics] critical`: a percentage at or above this is drawn in the error colour.
    pub critical_percent: u32,
}

impl Default for UsageSettings {
    fn default() -> Self {
        UsageSettings {
            enabled: true,
            warn_percent: 70,
            critical_percent: 90,
        }
    }
}

impl UsageSettings {
    /// From `[metrics]` (`critical` never below `warn`).
    pub fn from_config(c: &crate::config::metrics::MetricsConfig) -> Self {
        UsageSettings {
            enabled: c.enabled,
            warn_percent: c.warn,
            critical_percent: c.critical.max(c.warn),
        }
    }
}

/// The metrics poll a list of `kind` in `namespace` (`None`: all) needs: PodMetrics for pods
/// (in the list's namespace), NodeMetrics for nodes; `None` for every other kind.
pub fn metrics_key(kind: &Kind, namespace: Option<&str>) -> Option<MetricsKey> {
    match kind.builtin()? {
        BuiltinKind::Pod => Some(MetricsKey::pods(namespace)),
        BuiltinKind::Node => Some(MetricsKey::nodes()),
        _ => None,
    }
}

/// The target of a metrics key's objects (used by drawing to choose columns).
pub fn target_of(kind: &Kind) -> Option<Target> {
    metrics_key(kind, None).map(|k| k.target)
}
