//! The demo's resource metrics API, `metrics.k8s.io/v1beta1`, as metrics-server serves it
//! through the aggregation layer: `PodMetrics` (namespaced) and `NodeMetrics` (cluster-scoped),
//! get and list only, labelSelector and metadata field selectors honoured, JSON only. Usage is
//! derived from each pod's requests and limits, the seed and the time window ([`usage`]), so it
//! changes every window and is the same for every poll within one. Owns the API's state (its
//! [`MetricsMode`], the shape memos) and its paths; must not write to the store.
//!
//! Layout: [`quantity`] (reading and printing quantities), [`usage`] (the model), [`shape`]
//! (what a stored pod or node tells, memoized per version), [`collect`] (which objects have
//! metrics), [`render`] (the JSON), [`serve`] (answers and discovery documents).

use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http::Method;
use ktui_kube::builtin::KindInfo;

use super::authz::Attributes;
use super::kinds::SimKind;

pub mod collect;
pub mod quantity;
pub mod render;
pub mod serve;
pub mod shape;
pub mod usage;

#[cfg(test)]
mod tests;

/// The API group.
pub const GROUP: &str = "metrics.k8s.io";
/// Its only version.
pub const VERSION: &str = "v1beta1";
/// `apiVersion` of its objects.
pub const API_VERSION: &str = "metrics.k8s.io/v1beta1";

const fn resource(kind: &'static str, plural: &'static str, namespaced: bool) -> SimKind {
    SimKind {
        info: KindInfo {
            kind,
            group: GROUP,
            version: VERSION,
            plural,
            singular: "",
            short: &[],
            namespaced,
        },
        fields: &[],
        categories: &[],
    }
}

/// `pods.metrics.k8s.io`: field selectors on `metadata.name` and `metadata.namespace` only.
pub const PODS: SimKind = resource("PodMetrics", "pods", true);
/// `nodes.metrics.k8s.io`: field selectors on `metadata.name` only.
pub const NODES: SimKind = resource("NodeMetrics", "nodes", false);

/// Whether and how the API is there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MetricsMode {
    /// Served (the default).
    #[default]
    On,
    /// Not served, as on a cluster without metrics-server: the group is absent from discovery
    /// and its paths answer 404.
    Off,
    /// Registered but down, as when metrics-server's APIService is unavailable: the group is
    /// in `/apis`, everything under its version answers 503.
    Unavailable,
    /// Served, but RBAC grants it to nobody outside `system:masters`: the viewer (see
    /// `authz`) gets 403 (`view` lacks metrics-server's `system:aggregated-metrics-reader`
    /// rules); the admin still reads.
    Forbidden,
}

impl FromStr for MetricsMode {
    type Err = String;

    /// `on`, `off`, `unavailable` or `forbidden`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "on" => Ok(MetricsMode::On),
            "off" => Ok(MetricsMode::Off),
            "unavailable" => Ok(MetricsMode::Unavailable),
            "forbidden" => Ok(MetricsMode::Forbidden),
            other => Err(format!(
                "unknown metrics mode {other:?} (on, off, unavailable or forbidden)"
            )),
        }
    }
}

/// The state of the metrics API, shared by the request handlers; switchable at run time.
pub struct MetricsApi {
    mode: Mutex<MetricsMode>,
    /// Seed of the usage model (the server's seed).
    pub seed: u64,
    /// Length of one metrics window (metrics-server's `--metric-resolution`, 15 s in its
    /// manifests): usage changes once per window.
    pub window: Duration,
    /// Decoded pods by resourceVersion.
    pub pods: shape::Memo<shape::PodShape>,
    /// Decoded nodes by resourceVersion.
    pub nodes: shape::Memo<shape::NodeShape>,
}

impl MetricsApi {
    /// The API in `mode`, its usage seeded with `seed`, changing every `window` (at least
    /// 1 ms).
    pub fn new(mode: MetricsMode, seed: u64, window: Duration) -> Arc<MetricsApi> {
        Arc::new(MetricsApi {
            mode: Mutex::new(mode),
            seed,
            window: window.max(Duration::from_millis(1)),
            pods: shape::Memo::default(),
            nodes: shape::Memo::default(),
        })
    }

    /// The mode in force.
    pub fn mode(&self) -> MetricsMode {
        *self.mode.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Switches the mode (tests turn the API off, down or forbidden and back).
    pub fn set_mode(&self, mode: MetricsMode) {
        *self.mode.lock().unwrap_or_else(|p| p.into_inner()) = mode;
    }

    /// Whether RBAC lets the `view` role read the API (false under [`MetricsMode::Forbidden`]).
    pub fn view_reads(&self) -> bool {
        self.mode() != MetricsMode::Forbidden
    }
}

/// A path under `/apis/metrics.k8s.io`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetricsPath {
    /// `/apis/metrics.k8s.io`: the APIGroup.
    Group,
    /// `/apis/metrics.k8s.io/<version>`: the APIResourceList (404 unless `v1beta1`).
    Resources(String),
    /// `pods` in all namespaces (`ns` `None`) or one, or one pod (`name`).
    Pods {
        ns: Option<String>,
        name: Option<String>,
    },
    /// `nodes`, or one node.
    Nodes { name: Option<String> },
}

impl MetricsPath {
    /// Whether the path names metrics objects (not a discovery document).
    pub fn is_resource(&self) -> bool {
        matches!(self, MetricsPath::Pods { .. } | MetricsPath::Nodes { .. })
    }

    /// Whether the path names one object.
    pub fn is_item(&self) -> bool {
        matches!(
            self,
            MetricsPath::Pods { name: Some(_), .. } | MetricsPath::Nodes { name: Some(_) }
        )
    }

    /// The RBAC attributes of a request on this path (`None` for discovery documents, which
    /// every user may read).
    pub fn attributes(&self, method: &Method, watch: bool) -> Option<Attributes> {
        let (resource, namespace, name) = match self {
            MetricsPath::Pods { ns, name } => ("pods", ns.clone(), name.clone()),
            MetricsPath::Nodes { name } => ("nodes", None, name.clone()),
            _ => return None,
        };
        let verb = match (method, name.is_some()) {
            (&Method::GET, false) if watch => "watch",
            (&Method::GET, false) => "list",
            (&Method::GET, true) => "get",
            (&Method::POST, _) => "create",
            (&Method::PUT, _) => "update",
            (&Method::PATCH, _) => "patch",
            (&Method::DELETE, true) => "delete",
            (&Method::DELETE, false) => "deletecollection",
            _ => return None,
        };
        Some(Attributes {
            verb: verb.into(),
            group: GROUP.into(),
            resource: resource.into(),
            subresource: String::new(),
            name: name.unwrap_or_default(),
            namespace,
        })
    }
}

/// Maps the segments after `/apis/metrics.k8s.io` to a path; `None` = not one it serves.
pub fn path(rest: &[&str]) -> Option<MetricsPath> {
    let s = |x: &&str| Some((*x).to_owned());
    Some(match rest {
        [] => MetricsPath::Group,
        [v] => MetricsPath::Resources((*v).to_owned()),
        [VERSION, "pods"] => MetricsPath::Pods { ns: None, name: None },
        [VERSION, "namespaces", ns, "pods"] => MetricsPath::Pods {
            ns: s(ns),
            name: None,
        },
        [VERSION, "namespaces", ns, "pods", name] => MetricsPath::Pods {
            ns: s(ns),
            name: s(name),
        },
        [VERSION, "nodes"] => MetricsPath::Nodes { name: None },
        [VERSION, "nodes", name] => MetricsPath::Nodes { name: s(name) },
        _ => return None,
    })
}
