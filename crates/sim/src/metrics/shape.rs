//! What the metrics API needs of a stored pod or node, decoded once per stored version: a
//! pod's node and running containers (app containers, then running sidecars) with their
//! declared resources; a node's readiness and capacity. A memo keyed by `resourceVersion`
//! (unique per written version in the store) keeps the decoded shapes, so a list over 100,000
//! pods parses only the pods written since the previous list. Must not compute usage or
//! format answers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::Value;

use super::quantity;
use super::usage::{Resources, Usage};
use crate::store::Stored;

/// A pod as its metrics need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodShape {
    /// `spec.nodeName` (`""` when unscheduled).
    pub node: Box<str>,
    /// The containers running now (a running `state` in `status.containerStatuses`, or in
    /// `status.initContainerStatuses` for a sidecar: an init container with `restartPolicy:
    /// Always`), in spec order, with their declared resources.
    pub containers: Box<[(Box<str>, Resources)]>,
}

/// A node as its metrics need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeShape {
    /// Its `Ready` condition is `True` (metrics-server scrapes only kubelets that answer).
    pub ready: bool,
    /// `status.capacity` (cpu in nanocores, memory in bytes): what the node can use at most.
    pub capacity: Usage,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Doc {
    spec: Spec,
    status: Status,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Spec {
    node_name: String,
    containers: Vec<Container>,
    init_containers: Vec<Container>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Container {
    name: String,
    restart_policy: Option<String>,
    resources: ResourcesDoc,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ResourcesDoc {
    requests: List,
    limits: List,
}

/// A resource list's two entries; a quantity may be a JSON string or number.
#[derive(Deserialize, Default)]
#[serde(default)]
struct List {
    cpu: Option<Value>,
    memory: Option<Value>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Status {
    container_statuses: Vec<ContainerStatus>,
    init_container_statuses: Vec<ContainerStatus>,
    conditions: Vec<Condition>,
    capacity: List,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ContainerStatus {
    name: String,
    state: State,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct State {
    running: Option<IgnoredAny>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Condition {
    #[serde(rename = "type")]
    kind: String,
    status: String,
}

fn text(v: &Option<Value>) -> Option<String> {
    match v {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

fn resources(r: &ResourcesDoc) -> Resources {
    let cpu = |l: &List| text(&l.cpu).and_then(|t| quantity::cpu_nanos(&t));
    let mem = |l: &List| text(&l.memory).and_then(|t| quantity::bytes(&t));
    Resources {
        cpu_request: cpu(&r.requests),
        cpu_limit: cpu(&r.limits),
        memory_request: mem(&r.requests),
        memory_limit: mem(&r.limits),
    }
}

/// Decodes a pod's JSON; `None` when it does not parse.
pub fn pod(bytes: &[u8]) -> Option<PodShape> {
    let doc: Doc = serde_json::from_slice(bytes).ok()?;
    let running = |statuses: &[ContainerStatus], name: &str| {
        statuses
            .iter()
            .any(|s| s.name == name && s.state.running.is_some())
    };
    let apps = doc
        .spec
        .containers
        .iter()
        .filter(|c| running(&doc.status.container_statuses, &c.name));
    let sidecars = doc.spec.init_containers.iter().filter(|c| {
        c.restart_policy.as_deref() == Some("Always") && running(&doc.status.init_container_statuses, &c.name)
    });
    let containers = apps
        .chain(sidecars)
        .map(|c| (Box::from(c.name.as_str()), resources(&c.resources)))
        .collect();
    Some(PodShape {
        node: doc.spec.node_name.into(),
        containers,
    })
}

/// Decodes a node's JSON; `None` when it does not parse.
pub fn node(bytes: &[u8]) -> Option<NodeShape> {
    let doc: Doc = serde_json::from_slice(bytes).ok()?;
    let cap = &doc.status.capacity;
    Some(NodeShape {
        ready: doc
            .status
            .conditions
            .iter()
            .any(|c| c.kind == "Ready" && c.status == "True"),
        capacity: Usage {
            cpu_nanos: text(&cap.cpu)
                .and_then(|t| quantity::cpu_nanos(&t))
                .unwrap_or(u64::MAX),
            memory_bytes: text(&cap.memory)
                .and_then(|t| quantity::bytes(&t))
                .unwrap_or(u64::MAX),
        },
    })
}

/// Decoded shapes by `resourceVersion`.
pub struct Memo<T> {
    map: Mutex<HashMap<u64, Option<Arc<T>>>>,
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo {
            map: Mutex::new(HashMap::new()),
        }
    }
}

impl<T> Memo<T> {
    /// The shape of each of `items` (`None` for one that does not decode), decoding only
    /// versions not seen before. `every` says `items` are all the objects the memo serves
    /// (then it keeps exactly theirs); otherwise the memo is emptied once it holds more than
    /// twice `total` (the kind's object count) plus 1,024 versions, so it stays bounded.
    pub fn shapes(
        &self,
        items: &[Stored],
        every: bool,
        total: usize,
        decode: impl Fn(&[u8]) -> Option<T>,
    ) -> Vec<Option<Arc<T>>> {
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        if !every && map.len() > total.saturating_mul(2).saturating_add(1024) {
            map.clear();
        }
        let out: Vec<Option<Arc<T>>> = items
            .iter()
            .map(|s| {
                map.entry(s.rv)
                    .or_insert_with(|| decode(&s.bytes[..]).map(Arc::new))
                    .clone()
            })
            .collect();
        if every {
            *map = items.iter().map(|s| s.rv).zip(out.iter().cloned()).collect();
        }
        out
    }

    /// Versions held (tests check the bound).
    pub fn len(&self) -> usize {
        self.map.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Whether no version is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
