//! What a pod's usage is measured against: the slim `resources` of its containers (only the
//! `cpu` and `memory` of `requests` and `limits`) and the row's [`Capacity::Pod`] built from
//! them, one entry per container that runs alongside the others (`spec.containers`, then
//! sidecars — init containers with `restartPolicy: Always` — as metrics-server lists them).
//! Also the `ResourceList` nodes read `status.allocatable` with. Must not keep other resource
//! names (`ephemeral-storage`, extended resources) nor compute usage.

use std::sync::Arc;

use serde::Deserialize;

use ktui_kube::capacity::{Capacity, ContainerDemand};
use ktui_kube::metrics::{parse_bytes, parse_cpu_nanos};
use ktui_kube::row::RowCtx;
use ktui_kube::sanitize::sanitize;

use super::PodSpec;
use crate::meta::nullable;
use crate::quantity::Quantity;

/// One `spec.containers` entry: its name and resources.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct Container {
    /// `name`.
    pub name: String,
    /// `resources`.
    pub resources: Resources,
    /// `envFrom` (what it references, see `pod/uses`).
    #[serde(rename = "envFrom", deserialize_with = "nullable")]
    pub env_from: Vec<super::EnvFrom>,
    /// `env` (only `valueFrom` references are read).
    #[serde(deserialize_with = "nullable")]
    pub env: Vec<super::EnvVar>,
}

/// A container's `resources` (`requests` and `limits`; `claims` is not read).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct Resources {
    /// `resources.requests`.
    #[serde(deserialize_with = "nullable")]
    pub requests: ResourceList,
    /// `resources.limits`.
    #[serde(deserialize_with = "nullable")]
    pub limits: ResourceList,
}

/// A `ResourceList` (`map[ResourceName]Quantity`), only its `cpu` and `memory` keys: a
/// container's `resources.requests` / `resources.limits`, a node's `status.allocatable`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct ResourceList {
    /// `cpu`.
    pub cpu: Option<Quantity>,
    /// `memory`.
    pub memory: Option<Quantity>,
}

impl ResourceList {
    /// `cpu` in nanocores; `None` when absent or not a quantity.
    pub fn cpu_nanos(&self) -> Option<u64> {
        self.cpu.as_ref().and_then(|q| parse_cpu_nanos(&q.0))
    }

    /// `memory` in bytes; `None` when absent or not a quantity.
    pub fn memory_bytes(&self) -> Option<u64> {
        self.memory.as_ref().and_then(|q| parse_bytes(&q.0))
    }
}

/// One container's demand, its name sanitized and interned.
fn demand(ctx: &RowCtx, name: &str, r: &Resources) -> ContainerDemand {
    ContainerDemand {
        name: ctx.interner.intern(&sanitize(name)),
        cpu_request: r.requests.cpu_nanos(),
        cpu_limit: r.limits.cpu_nanos(),
        memory_request: r.requests.memory_bytes(),
        memory_limit: r.limits.memory_bytes(),
    }
}

/// The pod's [`Capacity::Pod`]: `spec.containers` in order, then the sidecars among
/// `spec.initContainers` in order. Every such container has an entry, set or not (its name
/// is what usage samples are matched by). Interned: pods with equal demands (the replicas of
/// one workload) share one `Arc`.
pub fn pod_capacity(ctx: &RowCtx, spec: &PodSpec) -> Arc<Capacity> {
    let apps = spec.containers.iter().map(|c| demand(ctx, &c.name, &c.resources));
    let sidecars = spec
        .init_containers
        .iter()
        .filter(|c| c.is_sidecar())
        .map(|c| demand(ctx, &c.name, &c.resources));
    ctx.interner.intern_capacity(Capacity::Pod(apps.chain(sidecars).collect()))
}
