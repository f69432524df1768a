//! `ResourceKey`: what one informer lists and watches. Owns the identity of informers; must
//! not hold any state of the informer itself.

use std::fmt;
use std::sync::Arc;

use super::kind::Kind;

/// The identity of one informer: a kind (GVR), a scope and optional server-side selectors.
/// Two views asking for equal keys share one informer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceKey {
    /// The kind listed.
    pub kind: Kind,
    /// `Some(ns)` lists one namespace; `None` lists all namespaces (or a cluster-scoped kind).
    pub namespace: Option<Arc<str>>,
    /// Server-side `labelSelector`, e.g. `app=web` (drill-down from a workload).
    pub labels: Option<Arc<str>>,
    /// Server-side `fieldSelector`, e.g. `spec.nodeName=node-1`.
    pub fields: Option<Arc<str>>,
}

impl ResourceKey {
    /// A key for every object of `kind` in `namespace` (`None` = all namespaces). The
    /// namespace is dropped for cluster-scoped kinds so they share one informer.
    pub fn new(kind: impl Into<Kind>, namespace: Option<&str>) -> Self {
        let kind = kind.into();
        let namespace = if kind.namespaced() {
            namespace.map(Arc::from)
        } else {
            None
        };
        ResourceKey {
            kind,
            namespace,
            labels: None,
            fields: None,
        }
    }

    /// Adds a server-side label selector.
    pub fn with_labels(mut self, selector: &str) -> Self {
        self.labels = Some(Arc::from(selector));
        self
    }

    /// Adds a server-side field selector.
    pub fn with_fields(mut self, selector: &str) -> Self {
        self.fields = Some(Arc::from(selector));
        self
    }

    /// The all-namespaces key with the same kind and selectors, whose informer can serve this
    /// namespaced key by filtering.
    pub fn widened(&self) -> ResourceKey {
        ResourceKey {
            namespace: None,
            ..self.clone()
        }
    }

    /// URL path of the collection this key lists.
    pub fn url_path(&self) -> String {
        self.kind.url_path(self.namespace.as_deref())
    }
}

impl fmt::Display for ResourceKey {
    /// `pods@team-a`, `pods@*`, `nodes`, `pods@* app=web`, `pods@* spec.nodeName=n1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if self.kind.namespaced() {
            write!(f, "@{}", self.namespace.as_deref().unwrap_or("*"))?;
        }
        if let Some(l) = &self.labels {
            write!(f, " {l}")?;
        }
        if let Some(fs) = &self.fields {
            write!(f, " {fs}")?;
        }
        Ok(())
    }
}
