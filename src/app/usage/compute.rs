//! Usage figures of one pods or nodes row (issue 33; a pod's containers: `usage::containers`):
//! what its CPU, MEM and percentage columns show and sort by, computed from the latest sample
//! of its metrics series and the row's requests, limits or allocatable, and their text as
//! `kubectl top` prints it. Pure functions; must not poll, keep state or draw.
//!
//! A percentage sums only over the containers that set its denominator, matched by name
//! between the sample and the pod spec: a container without a limit never inflates %CPU/L.

use std::borrow::Cow;

use crate::kube::capacity::{Capacity, ContainerDemand};
use crate::kube::metrics::{MetricsSnapshot, MetricsState, Series, Usage};

/// A share of a measure, in percent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Percent {
    /// Whole percent as drawn, rounded down (past 100 when usage exceeds the measure).
    pub whole: u64,
    /// Thousandths of a percent, rounded down: what a usage sort compares.
    pub milli: u64,
}

/// What one row's latest sample says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures {
    /// CPU: the sample's `usage.cpu` (a pod's: summed over its `containers[]`), nanocores.
    pub cpu_nanos: u64,
    /// MEM: the sample's `usage.memory` (a pod's: summed over its containers), bytes.
    pub memory_bytes: u64,
    /// Pods: %CPU/R, usage over `resources.requests.cpu` of the containers that set one.
    /// Nodes: %CPU, usage over `status.allocatable.cpu`. `None`: no denominator (`n/a`).
    pub cpu: Option<Percent>,
    /// Pods: %MEM/R (`resources.requests.memory`); nodes: %MEM (`status.allocatable.memory`).
    pub memory: Option<Percent>,
    /// Pods: %CPU/L (`resources.limits.cpu`); `None` for nodes.
    pub cpu_limit: Option<Percent>,
    /// Pods: %MEM/L (`resources.limits.memory`); `None` for nodes.
    pub memory_limit: Option<Percent>,
}

/// A pod's requests and limits summed over the containers that set each (`resources` of
/// `spec.containers[]` and of sidecars); `None` where no container sets it. CPU in nanocores,
/// memory in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Demands {
    /// Σ `resources.requests.cpu`.
    pub cpu_request: Option<u64>,
    /// Σ `resources.limits.cpu`.
    pub cpu_limit: Option<u64>,
    /// Σ `resources.requests.memory`.
    pub memory_request: Option<u64>,
    /// Σ `resources.limits.memory`.
    pub memory_limit: Option<u64>,
}

/// Which percentage of a row: of the requests (nodes: of allocatable) or of the limits, of
/// CPU or of memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Share {
    /// Pods: %CPU/R; nodes: %CPU.
    Cpu,
    /// Pods: %MEM/R; nodes: %MEM.
    Memory,
    /// Pods: %CPU/L; nodes have none.
    CpuLimit,
    /// Pods: %MEM/L; nodes have none.
    MemoryLimit,
}

/// The figures of a row whose series is `series` and whose measure is `capacity`: a pod's
/// when the series has containers, a node's otherwise. `None` before the first sample.
pub fn figures(series: &Series, capacity: Option<&Capacity>) -> Option<Figures> {
    let latest = series.latest()?;
    Some(Figures {
        cpu_nanos: latest.usage.cpu_nanos,
        memory_bytes: latest.usage.memory_bytes,
        cpu: share(series, capacity, Share::Cpu),
        memory: share(series, capacity, Share::Memory),
        cpu_limit: share(series, capacity, Share::CpuLimit),
        memory_limit: share(series, capacity, Share::MemoryLimit),
    })
}

/// One percentage of [`figures`] alone (what a usage sort reads of each row); `None`
/// before the first sample or without a denominator.
pub fn share(series: &Series, capacity: Option<&Capacity>, which: Share) -> Option<Percent> {
    let latest = series.latest()?;
    match capacity? {
        Capacity::Pod(demands) if !series.containers().is_empty() => {
            type Demand = fn(&ContainerDemand) -> Option<u64>;
            type Used = fn(&Usage) -> u64;
            let (demand, used): (Demand, Used) = match which {
                Share::Cpu => (|d| d.cpu_request, |u| u.cpu_nanos),
                Share::CpuLimit => (|d| d.cpu_limit, |u| u.cpu_nanos),
                Share::Memory => (|d| d.memory_request, |u| u.memory_bytes),
                Share::MemoryLimit => (|d| d.memory_limit, |u| u.memory_bytes),
            };
            let one = [latest.usage];
            let usages: Cow<[Usage]> = if series.containers().len() >= 2 {
                Cow::Owned(series.container_usage(series.len() - 1))
            } else {
                Cow::Borrowed(&one)
            };
            let (mut num, mut den) = (0u128, 0u128);
            for (name, usage) in series.containers().iter().zip(usages.iter()) {
                let set = demands.iter().find(|d| d.name == *name).and_then(demand);
                if let Some(d) = set {
                    num += u128::from(used(usage));
                    den += u128::from(d);
                }
            }
            percent(num, den)
        }
        Capacity::Node {
            cpu_nanos,
            memory_bytes,
            ..
        } if series.containers().is_empty() => match which {
            Share::Cpu => cpu_nanos.and_then(|a| kubectl_percent(millis(latest.usage.cpu_nanos), millis(a))),
            Share::Memory => memory_bytes.and_then(|a| kubectl_percent(latest.usage.memory_bytes, a)),
            Share::CpuLimit | Share::MemoryLimit => None,
        },
        _ => None,
    }
}

/// `100 × num / den`, rounded down; `None` when `den` is 0.
pub fn percent(num: u128, den: u128) -> Option<Percent> {
    if den == 0 {
        return None;
    }
    let of = |scale: u128| u64::try_from(num.saturating_mul(scale) / den).unwrap_or(u64::MAX);
    Some(Percent {
        whole: of(100),
        milli: of(100_000),
    })
}

/// `kubectl top nodes`' percentage: `int64(float64(used) / float64(available) * 100)`
/// (its inputs in millicores for CPU, bytes for memory), so the figure is the one kubectl
/// prints, float rounding included; `None` when `available` is 0.
fn kubectl_percent(used: u64, available: u64) -> Option<Percent> {
    let exact = percent(u128::from(used), u128::from(available))?;
    // `as` saturates: a float past u64::MAX becomes u64::MAX.
    let whole = (used as f64 / available as f64 * 100.0) as u64;
    Some(Percent { whole, ..exact })
}

/// Nanocores in millicores rounded up, as `Quantity.MilliValue()` (what `kubectl top` prints).
fn millis(nanos: u64) -> u64 {
    nanos.div_ceil(1_000_000)
}

/// A pod's requests and limits summed over the containers that set each; all `None` for a
/// node or a row without a measure.
pub fn demands(capacity: Option<&Capacity>) -> Demands {
    let Some(Capacity::Pod(containers)) = capacity else {
        return Demands::default();
    };
    let sum = |pick: fn(&ContainerDemand) -> Option<u64>| {
        containers
            .iter()
            .filter_map(pick)
            .fold(None, |acc: Option<u64>, v| {
                Some(acc.unwrap_or(0).saturating_add(v))
            })
    };
    Demands {
        cpu_request: sum(|d| d.cpu_request),
        cpu_limit: sum(|d| d.cpu_limit),
        memory_request: sum(|d| d.memory_request),
        memory_limit: sum(|d| d.memory_limit),
    }
}

/// A node's `status.allocatable` (CPU nanocores, memory bytes); `(None, None)` otherwise.
pub fn allocatable(capacity: Option<&Capacity>) -> (Option<u64>, Option<u64>) {
    match capacity {
        Some(Capacity::Node {
            cpu_nanos,
            memory_bytes,
            ..
        }) => (*cpu_nanos, *memory_bytes),
        _ => (None, None),
    }
}

/// CPU as `kubectl top` prints it: millicores rounded up, `"250m"`.
pub fn cpu_text(nanos: u64) -> String {
    format!("{}m", millis(nanos))
}

/// Memory as `kubectl top` prints it: mebibytes rounded down, `"128Mi"`.
pub fn memory_text(bytes: u64) -> String {
    format!("{}Mi", bytes >> 20)
}

/// A percentage as drawn: `"134%"`, or `"n/a"` without a denominator.
pub fn percent_text(p: Option<Percent>) -> String {
    p.map_or_else(|| "n/a".to_owned(), |p| format!("{}%", p.whole))
}

/// Whether a list shows its usage columns with `snap`: not when metrics.k8s.io is not served
/// or forbidden (the state line says why instead), nor before anything was fetched; with a
/// failed poll, only while samples from before it are held (marked stale).
pub fn shows_columns(snap: &MetricsSnapshot) -> bool {
    match snap.state {
        MetricsState::NotServed(_) | MetricsState::Forbidden(_) => false,
        MetricsState::Ok => true,
        MetricsState::Fetching | MetricsState::Error(_) => snap.object_count > 0,
    }
}

#[cfg(test)]
mod tests;
