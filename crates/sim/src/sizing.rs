//! The demo workloads' sizing: the requests and limits each scenario container declares
//! (`spec.containers[].resources`) and how hard it runs against them (its [`Level`]), so the
//! resource columns and the metrics API have varied, believable inputs: some containers near
//! their limits, one over its request, one without any limit. A static table; must not touch
//! the store nor compute usage (that is `metrics::usage`).

use serde_json::{json, Map, Value};

/// How hard a container runs against its requests and limits (see `metrics::usage` for the
/// exact ranges).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// A small share of its request (5–25 % of CPU, 10–30 % of memory).
    Idle,
    /// Well within its request (35–80 % of CPU, 40–85 % of memory).
    Steady,
    /// Above its request (CPU 1.15–1.6×, memory 1.15–1.5×), below any limit.
    OverRequest,
    /// Close to its limits (85–99.5 % of the CPU limit, 85–99 % of the memory limit); a
    /// resource without a limit runs as [`Level::OverRequest`].
    NearLimit,
}

/// One container's declared resources, as quantity text (`None` = not set), and its level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizing {
    /// `resources.requests.cpu` (`100m`).
    pub cpu_request: Option<&'static str>,
    /// `resources.requests.memory` (`128Mi`).
    pub memory_request: Option<&'static str>,
    /// `resources.limits.cpu`.
    pub cpu_limit: Option<&'static str>,
    /// `resources.limits.memory`.
    pub memory_limit: Option<&'static str>,
    /// How hard it runs.
    pub level: Level,
}

const fn sized(
    requests: (Option<&'static str>, Option<&'static str>),
    limits: (Option<&'static str>, Option<&'static str>),
    level: Level,
) -> Sizing {
    Sizing {
        cpu_request: requests.0,
        memory_request: requests.1,
        cpu_limit: limits.0,
        memory_limit: limits.1,
        level,
    }
}

/// The scenario's containers by name (a workload's container is named after its app).
const TABLE: &[(&str, Sizing)] = &[
    (
        "coredns",
        sized((Some("100m"), Some("70Mi")), (None, Some("170Mi")), Level::Steady),
    ),
    // Runs over its CPU request (and below its limit).
    (
        "frontend",
        sized(
            (Some("100m"), Some("128Mi")),
            (Some("500m"), Some("256Mi")),
            Level::OverRequest,
        ),
    ),
    // Near its limits.
    (
        "cart",
        sized(
            (Some("200m"), Some("256Mi")),
            (Some("400m"), Some("320Mi")),
            Level::NearLimit,
        ),
    ),
    (
        "checkout",
        sized(
            (Some("100m"), Some("128Mi")),
            (Some("250m"), Some("256Mi")),
            Level::Idle,
        ),
    ),
    (
        "api-gateway",
        sized(
            (Some("250m"), Some("256Mi")),
            (Some("1"), Some("512Mi")),
            Level::Steady,
        ),
    ),
    // Near its limits (a database fills its memory).
    (
        "postgres",
        sized(
            (Some("500m"), Some("1Gi")),
            (Some("2"), Some("2Gi")),
            Level::NearLimit,
        ),
    ),
    (
        "exporter",
        sized(
            (Some("10m"), Some("32Mi")),
            (Some("50m"), Some("64Mi")),
            Level::Idle,
        ),
    ),
    // Requests only: no limit at all.
    (
        "kube-proxy",
        sized((Some("100m"), Some("64Mi")), (None, None), Level::Steady),
    ),
];

/// What every other demo container (load pods, the log generator) declares; its level is
/// drawn per container by `metrics::usage`.
const DEFAULT: (Option<&str>, Option<&str>, Option<&str>, Option<&str>) =
    (Some("100m"), Some("128Mi"), None, Some("256Mi"));

/// The sizing of the scenario's container `name`; `None` for a container the table does not
/// size (load pods, clients' pods).
pub fn of(name: &str) -> Option<&'static Sizing> {
    TABLE.iter().find(|(n, _)| *n == name).map(|(_, s)| s)
}

/// `spec.containers[].resources` of the demo container `name` (the default for one not in the
/// table: requests `cpu: 100m, memory: 128Mi`, limits `memory: 256Mi`).
pub fn resources(name: &str) -> Value {
    let (cpu_req, mem_req, cpu_lim, mem_lim) = match of(name) {
        Some(s) => (s.cpu_request, s.memory_request, s.cpu_limit, s.memory_limit),
        None => DEFAULT,
    };
    let list = |cpu: Option<&str>, memory: Option<&str>| {
        let mut m = Map::new();
        if let Some(c) = cpu {
            m.insert("cpu".into(), json!(c));
        }
        if let Some(mem) = memory {
            m.insert("memory".into(), json!(mem));
        }
        m
    };
    let mut out = Map::new();
    for (key, m) in [
        ("limits", list(cpu_lim, mem_lim)),
        ("requests", list(cpu_req, mem_req)),
    ] {
        if !m.is_empty() {
            out.insert(key.into(), Value::Object(m));
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_each_kind_of_container_the_metrics_need() {
        assert_eq!(
            resources("svc-001"),
            json!({"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}})
        );
        assert_eq!(
            resources("kube-proxy"),
            json!({"requests": {"cpu": "100m", "memory": "64Mi"}})
        );
        assert_eq!(of("frontend").map(|s| s.level), Some(Level::OverRequest));
        assert!(TABLE.iter().any(|(_, s)| s.level == Level::NearLimit));
        assert!(of("nope").is_none());
    }
}
