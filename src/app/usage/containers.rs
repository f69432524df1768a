//! Usage figures of one container of a pod (issue 33, the containers view): its CPU and
//! memory in the newest sample of the pod's metrics series, its percentages against its own
//! requests and limits (`n/a` where it sets none), and its CPU over the samples held. The
//! arithmetic and rounding are `compute`'s, as for a pods row. Pure functions; must not poll,
//! keep state, decode objects or draw.

use crate::kube::capacity::ContainerDemand;
use crate::kube::metrics::{Series, Usage};

use super::compute::{percent, Figures, Percent};

/// What the containers view shows of one container's usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerUsage {
    /// Not running and not in the newest sample (a plain init container that has finished, a
    /// container still waiting or terminated): nothing to measure, drawn `-`.
    NotRunning,
    /// Running, but the pod has no sample yet or its newest sample does not list this
    /// container (`containers[].name` of the PodMetrics): drawn `no sample`.
    NoSample,
    /// The container's own figures in the newest sample: CPU and MEM from its
    /// `containers[].usage`; %CPU/R, %CPU/L, %MEM/R, %MEM/L against its own
    /// `resources.requests` and `resources.limits` (`None` where it sets none, or 0).
    Figures(Figures),
}

/// The usage of container `name` of a pod whose metrics series is `series` (`None`: the pod
/// is not in the poll's last list) and whose `resources` are `demand` (`None`: none known);
/// `running`: the container's `state.running` is set.
pub fn container_usage(
    series: Option<&Series>,
    name: &str,
    running: bool,
    demand: Option<&ContainerDemand>,
) -> ContainerUsage {
    let newest = series.and_then(|s| {
        let index = s.len().checked_sub(1)?;
        usage_at(s, name, index)
    });
    match newest {
        Some(u) => ContainerUsage::Figures(figures(u, demand)),
        None if running => ContainerUsage::NoSample,
        None => ContainerUsage::NotRunning,
    }
}

/// Container `name`'s CPU in nanocores (`containers[].usage.cpu`) in each of the newest
/// `newest` samples of `series`, oldest first; a sample that does not list it counts 0. Empty
/// when the series never listed it.
pub fn container_cpu(series: &Series, name: &str, newest: usize) -> Vec<u64> {
    let Some(at) = position(series, name) else {
        return Vec::new();
    };
    let n = series.len();
    (n.saturating_sub(newest)..n)
        .map(|i| series.container_usage(i).get(at).map_or(0, |u| u.cpu_nanos))
        .collect()
}

/// The column of container `name` in the series' per-container usage.
fn position(series: &Series, name: &str) -> Option<usize> {
    series.containers().iter().position(|c| **c == *name)
}

/// Container `name`'s usage in sample `index` of `series`.
fn usage_at(series: &Series, name: &str, index: usize) -> Option<Usage> {
    let at = position(series, name)?;
    series.container_usage(index).get(at).copied()
}

/// One container's figures: its usage over its own requests and limits.
fn figures(u: Usage, demand: Option<&ContainerDemand>) -> Figures {
    let share = |used: u64, of: fn(&ContainerDemand) -> Option<u64>| -> Option<Percent> {
        percent(u128::from(used), u128::from(demand.and_then(of)?))
    };
    Figures {
        cpu_nanos: u.cpu_nanos,
        memory_bytes: u.memory_bytes,
        cpu: share(u.cpu_nanos, |d| d.cpu_request),
        memory: share(u.memory_bytes, |d| d.memory_request),
        cpu_limit: share(u.cpu_nanos, |d| d.cpu_limit),
        memory_limit: share(u.memory_bytes, |d| d.memory_limit),
    }
}

#[cfg(test)]
mod tests;
