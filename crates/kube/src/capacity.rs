//! What a row's resource usage is measured against: a pod's per-container requests and limits
//! (`spec.containers[].resources`, and restartable init containers — sidecars — which run
//! alongside), a node's allocatable (`status.allocatable`). Owns these shapes; must not poll
//! metrics nor compute percentages (the usage feature joins them with samples at draw time).

use std::sync::Arc;

/// A row's measure for usage percentages.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Capacity {
    /// A pod: one entry per container that runs alongside the others (`spec.containers`, then
    /// init containers with `restartPolicy: Always`), in spec order.
    Pod(Box<[ContainerDemand]>),
    /// A node: `status.allocatable`, as kubectl top nodes divides by.
    Node {
        /// `status.allocatable.cpu` in nanocores; `None` when absent or not a quantity.
        cpu_nanos: Option<u64>,
        /// `status.allocatable.memory` in bytes; `None` when absent or not a quantity.
        memory_bytes: Option<u64>,
        /// The node's pressure conditions (`status.conditions`), kept here rather than in a
        /// field of their own so that a row's size does not grow for every pod.
        pressure: Pressure,
    },
}

/// Which of a node's pressure conditions (`status.conditions[]` of type `MemoryPressure`,
/// `DiskPressure`, `PIDPressure`) have `status: "True"`; `false` when absent, `False` or
/// `Unknown`. Read by `:pulse`'s nodes tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pressure {
    /// `MemoryPressure` is `True`.
    pub memory: bool,
    /// `DiskPressure` is `True`.
    pub disk: bool,
    /// `PIDPressure` is `True`.
    pub pid: bool,
}

impl Pressure {
    /// True when any of the three conditions holds.
    pub fn any(self) -> bool {
        self.memory || self.disk || self.pid
    }
}

/// One container's `resources`: each `None` when the container does not set it (or sets a
/// value that is not a quantity). CPU in nanocores, memory in bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ContainerDemand {
    /// `name`, sanitized and interned (the pods of one workload share it).
    pub name: Arc<str>,
    /// `resources.requests.cpu`.
    pub cpu_request: Option<u64>,
    /// `resources.limits.cpu`.
    pub cpu_limit: Option<u64>,
    /// `resources.requests.memory`.
    pub memory_request: Option<u64>,
    /// `resources.limits.memory`.
    pub memory_limit: Option<u64>,
}
