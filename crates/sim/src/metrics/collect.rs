//! Which objects have metrics and what they use, as metrics-server would report them: pods in
//! phase `Running` on a Ready node with at least one running container (usage per running
//! container from the usage model), Ready nodes (their system's usage plus their pods',
//! never above the node's capacity). Reads the store through its list path and the shape
//! memos; must not format answers or write.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::shape::{self, NodeShape, PodShape};
use super::usage::{self, Usage};
use super::MetricsApi;
use crate::kinds::id;
use crate::matching::{Filter, Meta};
use crate::store::{Store, Stored};

/// One pod's metrics.
pub struct PodItem {
    /// The pod's indexed fields (name, namespace, labels).
    pub meta: Arc<Meta>,
    /// Its running containers.
    pub shape: Arc<PodShape>,
    /// Usage of each of `shape.containers`, in the same order.
    pub usage: Vec<Usage>,
}

/// One node's metrics.
pub struct NodeItem {
    /// The node's indexed fields (name, labels).
    pub meta: Arc<Meta>,
    /// Its usage: system plus pods, capped at capacity.
    pub usage: Usage,
}

/// Why a single pod or node has no metrics item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// No such object (or, for a pod, not `Running`: metrics-server lists only running pods).
    Object,
    /// The object exists but has no metrics (node not Ready, no running container).
    Metrics,
}

fn unfiltered(f: &Filter) -> bool {
    f.namespace.is_none() && f.labels == Default::default() && f.fields == Default::default()
}

fn running(meta: &Meta) -> bool {
    meta.fields
        .iter()
        .any(|(k, v)| *k == "status.phase" && &**v == "Running")
}

/// The Ready nodes and their shapes, in name order.
fn ready_nodes(api: &MetricsApi, store: &Store) -> Vec<(Arc<Meta>, Arc<NodeShape>)> {
    let nodes = store.select(id::NODE, &Filter::default());
    let shapes = api.nodes.shapes(&nodes, true, nodes.len(), shape::node);
    nodes
        .into_iter()
        .zip(shapes)
        .filter_map(|(n, s)| s.filter(|s| s.ready).map(|s| (n.meta, s)))
        .collect()
}

fn node_names(ready: &[(Arc<Meta>, Arc<NodeShape>)]) -> HashSet<&str> {
    ready.iter().map(|(m, _)| &*m.name).collect()
}

/// The metrics of `stored` (a Running pod with its shape) in `window`.
fn pod_item(api: &MetricsApi, stored: Stored, shape: Arc<PodShape>, window: u64) -> PodItem {
    let (ns, name) = (&stored.meta.namespace, &stored.meta.name);
    let usage = shape
        .containers
        .iter()
        .map(|(c, r)| usage::container(api.seed, ns, name, c, r, window))
        .collect();
    PodItem {
        meta: stored.meta,
        shape,
        usage,
    }
}

/// The Running pods `filter` selects that have metrics, by namespace and name.
pub fn pods(api: &MetricsApi, store: &Store, filter: &Filter, window: u64) -> Vec<PodItem> {
    let ready = ready_nodes(api, store);
    let ready = node_names(&ready);
    let pods: Vec<Stored> = store
        .select(id::POD, filter)
        .into_iter()
        .filter(|p| running(&p.meta))
        .collect();
    let shapes = api
        .pods
        .shapes(&pods, unfiltered(filter), store.len(id::POD), shape::pod);
    let mut items: Vec<PodItem> = pods
        .into_iter()
        .zip(shapes)
        .filter_map(|(p, s)| {
            let s = s.filter(|s| !s.containers.is_empty() && ready.contains(&*s.node))?;
            Some(pod_item(api, p, s, window))
        })
        .collect();
    // metrics-server's order: by namespace, then name (the store's keys join them with `/`).
    items.sort_by(|a, b| (&a.meta.namespace, &a.meta.name).cmp(&(&b.meta.namespace, &b.meta.name)));
    items
}

/// The metrics of pod `ns/name`.
pub fn pod(api: &MetricsApi, store: &Store, ns: &str, name: &str, window: u64) -> Result<PodItem, Missing> {
    let p = store
        .get(id::POD, ns, name)
        .filter(|p| running(&p.meta))
        .ok_or(Missing::Object)?;
    let ready = ready_nodes(api, store);
    let shape = api
        .pods
        .shapes(std::slice::from_ref(&p), false, store.len(id::POD), shape::pod)
        .pop()
        .flatten()
        .filter(|s| !s.containers.is_empty() && node_names(&ready).contains(&*s.node))
        .ok_or(Missing::Metrics)?;
    Ok(pod_item(api, p, shape, window))
}

/// Each node's total: its system's usage plus its pods', at most its capacity.
fn node_usage(
    api: &MetricsApi,
    store: &Store,
    nodes: &[(Arc<Meta>, Arc<NodeShape>)],
    window: u64,
) -> Vec<Usage> {
    let mut per_node: HashMap<Box<str>, Usage> = HashMap::new();
    for p in pods(api, store, &Filter::default(), window) {
        let total = per_node.entry(p.shape.node.clone()).or_default();
        for u in p.usage {
            *total += u;
        }
    }
    nodes
        .iter()
        .map(|(meta, shape)| {
            let mut u = usage::system(api.seed, &meta.name, window);
            u += per_node.get(&meta.name).copied().unwrap_or_default();
            Usage {
                cpu_nanos: u.cpu_nanos.min(shape.capacity.cpu_nanos),
                memory_bytes: u.memory_bytes.min(shape.capacity.memory_bytes),
            }
        })
        .collect()
}

/// The Ready nodes `filter` selects, in name order.
pub fn nodes(api: &MetricsApi, store: &Store, filter: &Filter, window: u64) -> Vec<NodeItem> {
    let chosen: Vec<(Arc<Meta>, Arc<NodeShape>)> = ready_nodes(api, store)
        .into_iter()
        .filter(|(m, _)| filter.matches(m))
        .collect();
    let usage = node_usage(api, store, &chosen, window);
    chosen
        .into_iter()
        .zip(usage)
        .map(|((meta, _), usage)| NodeItem { meta, usage })
        .collect()
}

/// The metrics of node `name`.
pub fn node(api: &MetricsApi, store: &Store, name: &str, window: u64) -> Result<NodeItem, Missing> {
    if store.get(id::NODE, "", name).is_none() {
        return Err(Missing::Object);
    }
    let chosen: Vec<_> = ready_nodes(api, store)
        .into_iter()
        .filter(|(m, _)| &*m.name == name)
        .collect();
    let usage = node_usage(api, store, &chosen, window);
    chosen
        .into_iter()
        .zip(usage)
        .map(|((meta, _), usage)| NodeItem { meta, usage })
        .next()
        .ok_or(Missing::Metrics)
}
