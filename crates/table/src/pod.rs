//! Pods: the slim decoder and the row (READY, STATUS, RESTARTS, AGE; wide IP, NODE, NOMINATED
//! NODE, READINESS GATES). The STATUS/READY/RESTARTS algorithm lives in `pod_status`; the
//! containers' requests and limits (the row's usage capacity) in `pod/resources`; the names
//! a pod references (the row's `uses`, for xray) in `pod/uses`. Must not keep anything the
//! row does not need (no env values, volume details, images, managedFields).

use std::borrow::Cow;
use serde::de::IgnoredAny;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx, UnixSecs};

use super::{col, wide, KindSpec};
use super::meta::{nullable, shared_or, text_or, time, ObjMeta};
use super::pod_status::{summarize, PodSummary};

mod resources;
pub use resources::{pod_capacity, Container, ResourceList, Resources};
mod uses;
pub use uses::{pod_uses, EnvFrom, EnvVar, NameRef, Volume};

/// A pod, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct PodObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: PodSpec,
    /// `status`.
    pub status: PodStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct PodSpec {
    /// `spec.nodeName`.
    pub node_name: String,
    /// `spec.initContainers` (name, restart policy — sidecars have `Always` — and resources).
    pub init_containers: Vec<InitContainer>,
    /// `spec.containers` (name and resources).
    #[serde(deserialize_with = "nullable")]
    pub containers: Vec<Container>,
    /// `spec.readinessGates[].conditionType`.
    pub readiness_gates: Vec<ReadinessGate>,
    /// `spec.serviceAccountName` (empty when unset).
    pub service_account_name: String,
    /// `spec.volumes` (only the sources naming other objects).
    #[serde(deserialize_with = "nullable")]
    pub volumes: Vec<Volume>,
    /// `spec.imagePullSecrets`.
    #[serde(deserialize_with = "nullable")]
    pub image_pull_secrets: Vec<NameRef>,
}

/// One `spec.initContainers` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct InitContainer {
    /// `name`.
    pub name: String,
    /// `restartPolicy`; `Always` marks a sidecar (restartable init container).
    pub restart_policy: Option<String>,
    /// `resources` (read for sidecars, which run alongside the app containers).
    pub resources: Resources,
    /// `envFrom` (what it references, see `pod/uses`).
    #[serde(deserialize_with = "nullable")]
    pub env_from: Vec<EnvFrom>,
    /// `env` (only `valueFrom` references are read).
    #[serde(deserialize_with = "nullable")]
    pub env: Vec<EnvVar>,
}

impl InitContainer {
    /// True for a sidecar (`restartPolicy: Always`).
    pub fn is_sidecar(&self) -> bool {
        self.restart_policy.as_deref() == Some("Always")
    }
}

/// One `spec.readinessGates` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ReadinessGate {
    /// `conditionType`.
    pub condition_type: String,
}

/// The parts of `status` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct PodStatus {
    /// `status.phase`.
    pub phase: String,
    /// `status.reason` (`Evicted`, `NodeLost`, ...).
    pub reason: String,
    /// `status.conditions`.
    pub conditions: Vec<Condition>,
    /// `status.initContainerStatuses`.
    pub init_container_statuses: Vec<ContainerStatus>,
    /// `status.containerStatuses`.
    pub container_statuses: Vec<ContainerStatus>,
    /// `status.podIP`.
    #[serde(rename = "podIP")]
    pub pod_ip: String,
    /// `status.podIPs[].ip`.
    #[serde(rename = "podIPs")]
    pub pod_ips: Vec<PodIp>,
    /// `status.nominatedNodeName`.
    pub nominated_node_name: String,
}

/// One `status.conditions` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct Condition {
    /// `type`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `status` (`True`, `False`, `Unknown`).
    pub status: String,
    /// `reason`.
    pub reason: String,
}

/// One `status.podIPs` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct PodIp {
    /// `ip`.
    pub ip: String,
}

/// One entry of `status.containerStatuses` / `status.initContainerStatuses`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ContainerStatus {
    /// `name`.
    pub name: String,
    /// `ready`.
    pub ready: bool,
    /// `started`.
    pub started: Option<bool>,
    /// `restartCount`.
    pub restart_count: i64,
    /// `state`.
    pub state: ContainerState,
    /// `lastState`.
    pub last_state: LastState,
}

/// `state`: at most one of waiting / running / terminated.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct ContainerState {
    /// `state.waiting`.
    pub waiting: Option<Waiting>,
    /// `state.running` (contents not needed).
    pub running: Option<IgnoredAny>,
    /// `state.terminated`.
    pub terminated: Option<Terminated>,
}

/// `state.waiting`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct Waiting {
    /// `reason` (may be empty).
    pub reason: String,
}

/// `state.terminated`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Terminated {
    /// `exitCode`.
    pub exit_code: i64,
    /// `signal`.
    pub signal: i64,
    /// `reason` (may be empty).
    pub reason: String,
}

/// `lastState`: only the previous termination's finish time matters.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct LastState {
    /// `lastState.terminated`.
    pub terminated: Option<LastTerminated>,
}

/// `lastState.terminated`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct LastTerminated {
    /// `finishedAt` in unix seconds.
    #[serde(deserialize_with = "time")]
    pub finished_at: Option<UnixSecs>,
}

impl PodObj {
    /// Wide IP: `status.podIPs[0].ip`, else `status.podIP`, else `<none>`.
    fn ip(&self) -> &str {
        match self.status.pod_ips.first() {
            Some(first) => &first.ip,
            None => &self.status.pod_ip,
        }
    }

    /// Wide READINESS GATES: `<none>` or `true/total`, each gate looked up as the first
    /// condition of its type.
    fn readiness_gates(&self) -> Cell {
        let gates = &self.spec.readiness_gates;
        if gates.is_empty() {
            return Cell::Static("<none>");
        }
        let ok = gates
            .iter()
            .filter(|g| {
                let first = self
                    .status
                    .conditions
                    .iter()
                    .find(|c| c.type_ == g.condition_type);
                first.is_some_and(|c| c.status == "True")
            })
            .count();
        Cell::Text(format!("{ok}/{}", gates.len()).into_boxed_str())
    }
}

/// Colour of a pod row from its STATUS text and readiness.
pub fn pod_health(s: &PodSummary) -> Health {
    let status = s.status.as_str();
    match status {
        "Running" if s.ready == s.total => Health::Ok,
        "Completed" | "Succeeded" => Health::Done,
        "Running"
        | "Pending"
        | "ContainerCreating"
        | "PodInitializing"
        | "Terminating"
        | "NotReady"
        | "SchedulingGated"
        | "Unknown"
        | "Init:ContainerCreating"
        | "Init:PodInitializing" => Health::Warn,
        _ if is_init_progress(status) => Health::Warn,
        _ => Health::Error,
    }
}

/// `Init:i/n`.
fn is_init_progress(status: &str) -> bool {
    status
        .strip_prefix("Init:")
        .and_then(|r| r.split_once('/'))
        .is_some_and(|(a, b)| {
            !a.is_empty() && !b.is_empty() && a.bytes().chain(b.bytes()).all(|c| c.is_ascii_digit())
        })
}

/// The columns after NAME, index for index with the row's cells (`kubectl get pod`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("READY"),
        col("STATUS"),
        col("RESTARTS"),
        col("AGE"),
        wide("IP"),
        wide("NODE"),
        wide("NOMINATED NODE"),
        wide("READINESS GATES"),
    ]),
    status_col: Some(1),
};

/// The pod columns dropped first on a narrow terminal, in order (see [`crate::drop_first`]):
/// placement before age before restarts, so READY and STATUS stay.
pub static DROP_FIRST: &[&str] = &["READINESS GATES", "NOMINATED NODE", "IP", "NODE", "AGE", "RESTARTS"];

impl IntoRow for PodObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let summary = summarize(&self);
        let health = pod_health(&summary);
        let cells = vec![
            Cell::Shared(ctx.interner.intern(&format!("{}/{}", summary.ready, summary.total))),
            summary.status_cell(),
            Cell::Restarts {
                count: summary.restarts,
                last: summary.last_restart,
            },
            Cell::Age(self.metadata.creation_timestamp),
            text_or(self.ip(), "<none>"),
            shared_or(ctx, &self.spec.node_name, "<none>"),
            shared_or(ctx, &self.status.nominated_node_name, "<none>"),
            self.readiness_gates(),
        ];
        let capacity = pod_capacity(ctx, &self.spec);
        let uses = pod_uses(ctx, &self.spec);
        let mut row = self.metadata.into_row(ctx, cells, health, None);
        row.capacity = Some(capacity);
        row.uses = uses;
        row
    }
}

#[cfg(test)]
mod tests;
