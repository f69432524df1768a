//! The JSON of metrics answers, byte for byte in metrics-server's shape: `PodMetricsList` /
//! `NodeMetricsList` (`metadata: {}`, items without `kind`), single `PodMetrics` /
//! `NodeMetrics` (with `kind` and `apiVersion`); item metadata with name, namespace, a
//! `creationTimestamp` of now (metrics-server stamps the time of the answer) and labels sorted
//! by key; usage as `{"cpu": "…n", "memory": "…Ki"}`. Serializes straight to bytes (no value
//! tree), so a list of 100,000 pods stays cheap. Must not read the store or compute usage.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::collect::{NodeItem, PodItem};
use super::quantity::{cpu_text, memory_text};
use super::usage::Usage;
use super::API_VERSION;

/// The times every item of one answer carries.
pub struct Stamp {
    /// `timestamp`: the end of the current window (RFC 3339, seconds).
    pub timestamp: String,
    /// `window`: the window's length as Go prints a duration (`15s`).
    pub window: String,
    /// `metadata.creationTimestamp`: now (RFC 3339, seconds).
    pub created: String,
}

/// Labels sorted by key, as Go marshals a map.
struct Labels<'a>(&'a [(Box<str>, Box<str>)]);

impl Serialize for Labels<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut sorted: Vec<&(Box<str>, Box<str>)> = self.0.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        let mut m = s.serialize_map(Some(sorted.len()))?;
        for (k, v) in sorted {
            m.serialize_entry(&**k, &**v)?;
        }
        m.end()
    }
}

fn no_labels(l: &Labels<'_>) -> bool {
    l.0.is_empty()
}

fn empty(s: &&str) -> bool {
    s.is_empty()
}

#[derive(Serialize)]
struct Meta<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "empty")]
    namespace: &'a str,
    #[serde(rename = "creationTimestamp")]
    created: &'a str,
    #[serde(skip_serializing_if = "no_labels")]
    labels: Labels<'a>,
}

#[derive(Serialize)]
struct UsageOut {
    cpu: String,
    memory: String,
}

impl From<Usage> for UsageOut {
    fn from(u: Usage) -> Self {
        UsageOut {
            cpu: cpu_text(u.cpu_nanos),
            memory: memory_text(u.memory_bytes),
        }
    }
}

#[derive(Serialize)]
struct ContainerOut<'a> {
    name: &'a str,
    usage: UsageOut,
}

#[derive(Serialize)]
struct PodOut<'a> {
    #[serde(skip_serializing_if = "empty")]
    kind: &'a str,
    #[serde(rename = "apiVersion", skip_serializing_if = "empty")]
    api_version: &'a str,
    metadata: Meta<'a>,
    timestamp: &'a str,
    window: &'a str,
    containers: Vec<ContainerOut<'a>>,
}

#[derive(Serialize)]
struct NodeOut<'a> {
    #[serde(skip_serializing_if = "empty")]
    kind: &'a str,
    #[serde(rename = "apiVersion", skip_serializing_if = "empty")]
    api_version: &'a str,
    metadata: Meta<'a>,
    timestamp: &'a str,
    window: &'a str,
    usage: UsageOut,
}

fn pod_out<'a>(p: &'a PodItem, st: &'a Stamp, kind: &'a str) -> PodOut<'a> {
    PodOut {
        kind,
        api_version: if kind.is_empty() { "" } else { API_VERSION },
        metadata: Meta {
            name: &p.meta.name,
            namespace: &p.meta.namespace,
            created: &st.created,
            labels: Labels(&p.meta.labels),
        },
        timestamp: &st.timestamp,
        window: &st.window,
        containers: p
            .shape
            .containers
            .iter()
            .zip(&p.usage)
            .map(|((name, _), u)| ContainerOut {
                name,
                usage: (*u).into(),
            })
            .collect(),
    }
}

fn node_out<'a>(n: &'a NodeItem, st: &'a Stamp, kind: &'a str) -> NodeOut<'a> {
    NodeOut {
        kind,
        api_version: if kind.is_empty() { "" } else { API_VERSION },
        metadata: Meta {
            name: &n.meta.name,
            namespace: "",
            created: &st.created,
            labels: Labels(&n.meta.labels),
        },
        timestamp: &st.timestamp,
        window: &st.window,
        usage: n.usage.into(),
    }
}

/// `{"kind":…List,"apiVersion":…,"metadata":{},"items":[` + items + `]}`.
fn list<T: Serialize>(kind: &str, items: impl Iterator<Item = T>) -> Vec<u8> {
    let mut out =
        format!(r#"{{"kind":"{kind}","apiVersion":"{API_VERSION}","metadata":{{}},"items":["#).into_bytes();
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        // Writing plain structs of strings to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut out, &item);
    }
    out.extend_from_slice(b"]}");
    out
}

/// A `PodMetricsList` of `items`.
pub fn pod_list(items: &[PodItem], st: &Stamp) -> Vec<u8> {
    list("PodMetricsList", items.iter().map(|p| pod_out(p, st, "")))
}

/// One `PodMetrics`.
pub fn pod(item: &PodItem, st: &Stamp) -> Vec<u8> {
    serde_json::to_vec(&pod_out(item, st, "PodMetrics")).unwrap_or_default()
}

/// A `NodeMetricsList` of `items`.
pub fn node_list(items: &[NodeItem], st: &Stamp) -> Vec<u8> {
    list("NodeMetricsList", items.iter().map(|n| node_out(n, st, "")))
}

/// One `NodeMetrics`.
pub fn node(item: &NodeItem, st: &Stamp) -> Vec<u8> {
    serde_json::to_vec(&node_out(item, st, "NodeMetrics")).unwrap_or_default()
}
