//! What log streams and the containers view need to know of a pod, read from its JSON: its
//! containers in order (init, sidecar, app) with state, restarts, ports and the default
//! container annotation. Pure decoding; must not talk to the network or format for a screen.

use jiff::Timestamp;
use serde_json::Value;

use crate::sanitize::sanitized_box;

/// `kubectl.kubernetes.io/default-container`: the container `kubectl logs` picks.
pub const DEFAULT_CONTAINER: &str = "kubectl.kubernetes.io/default-container";

/// What kind of container it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// `spec.initContainers[]` without `restartPolicy: Always`: runs to completion first.
    Init,
    /// `spec.initContainers[]` with `restartPolicy: Always`: a native sidecar.
    Sidecar,
    /// `spec.containers[]`.
    App,
}

impl Role {
    /// `init`, `sidecar`, `app`.
    pub fn word(self) -> &'static str {
        match self {
            Role::Init => "init",
            Role::Sidecar => "sidecar",
            Role::App => "app",
        }
    }
}

/// A container's `state` (`status.*ContainerStatuses[].state`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CState {
    /// No status yet (the pod is not scheduled).
    Unknown,
    /// `waiting.reason` (`ContainerCreating`, `CrashLoopBackOff`, `PodInitializing`…).
    Waiting(Box<str>),
    /// `running.startedAt`.
    Running(Option<Timestamp>),
    /// `terminated.reason` (or `exit N`), `exitCode`, `startedAt`, `finishedAt`.
    Terminated {
        reason: Box<str>,
        exit_code: i64,
        started: Option<Timestamp>,
        finished: Option<Timestamp>,
    },
}

/// One container of a pod, spec and status joined by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerInfo {
    /// `name`, sanitized.
    pub name: Box<str>,
    /// `image`, sanitized.
    pub image: Box<str>,
    /// Init, sidecar or app.
    pub role: Role,
    /// `ready`.
    pub ready: bool,
    /// `state`.
    pub state: CState,
    /// `restartCount`.
    pub restarts: u32,
    /// `lastState.terminated.finishedAt`: when the previous instance ended.
    pub last_finished: Option<Timestamp>,
    /// `lastState.terminated` exists: a previous instance has logs.
    pub has_previous: bool,
    /// `ports[]` as `name:port/PROTO` (name omitted when unset).
    pub ports: Vec<Box<str>>,
}

/// A pod as the log machinery sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodInfo {
    /// `metadata.name`.
    pub name: Box<str>,
    /// `metadata.uid`.
    pub uid: Box<str>,
    /// `metadata.creationTimestamp`.
    pub created: Option<Timestamp>,
    /// `metadata.deletionTimestamp` is set.
    pub terminating: bool,
    /// The default-container annotation's value, if it names one of the containers.
    pub default_container: Option<Box<str>>,
    /// Init and sidecar containers (spec order), then app containers (spec order).
    pub containers: Vec<ContainerInfo>,
}

impl PodInfo {
    /// Decodes a pod object; `None` when it has no name.
    pub fn from_json(pod: &Value) -> Option<PodInfo> {
        let name = pod.pointer("/metadata/name")?.as_str()?;
        let text = |p: &str| pod.pointer(p).and_then(Value::as_str);
        let mut containers = Vec::new();
        for (spec_list, status_list, app) in [
            ("/spec/initContainers", "/status/initContainerStatuses", false),
            ("/spec/containers", "/status/containerStatuses", true),
        ] {
            let statuses = pod.pointer(status_list).and_then(Value::as_array);
            for c in pod
                .pointer(spec_list)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let cname = c["name"].as_str().unwrap_or_default();
                let status = statuses.and_then(|s| s.iter().find(|s| s["name"] == cname));
                let role = match (app, c["restartPolicy"].as_str()) {
                    (true, _) => Role::App,
                    (false, Some("Always")) => Role::Sidecar,
                    (false, _) => Role::Init,
                };
                containers.push(container(c, status, role));
            }
        }
        let default_container = text(&format!(
            "/metadata/annotations/{}",
            DEFAULT_CONTAINER.replace('/', "~1")
        ))
        .filter(|d| containers.iter().any(|c| &*c.name == *d))
        .map(sanitized_box);
        Some(PodInfo {
            name: sanitized_box(name),
            uid: sanitized_box(text("/metadata/uid").unwrap_or_default()),
            created: ts(text("/metadata/creationTimestamp")),
            terminating: !pod
                .pointer("/metadata/deletionTimestamp")
                .is_none_or(Value::is_null),
            default_container,
            containers,
        })
    }

    /// The container called `name`.
    pub fn container(&self, name: &str) -> Option<&ContainerInfo> {
        self.containers.iter().find(|c| &*c.name == name)
    }
}

fn ts(s: Option<&str>) -> Option<Timestamp> {
    s.and_then(|s| s.parse().ok())
}

fn container(spec: &Value, status: Option<&Value>, role: Role) -> ContainerInfo {
    let st = status.unwrap_or(&Value::Null);
    let state = &st["state"];
    let state = if let Some(w) = state.get("waiting") {
        CState::Waiting(sanitized_box(w["reason"].as_str().unwrap_or("Waiting")))
    } else if let Some(r) = state.get("running") {
        CState::Running(ts(r["startedAt"].as_str()))
    } else if let Some(t) = state.get("terminated") {
        let exit_code = t["exitCode"].as_i64().unwrap_or(0);
        let reason = t["reason"]
            .as_str()
            .map_or_else(|| format!("exit {exit_code}"), str::to_owned);
        CState::Terminated {
            reason: sanitized_box(&reason),
            exit_code,
            started: ts(t["startedAt"].as_str()),
            finished: ts(t["finishedAt"].as_str()),
        }
    } else if status.is_some() {
        CState::Waiting("Waiting".into())
    } else {
        CState::Unknown
    };
    let last = st.pointer("/lastState/terminated");
    let ports = spec["ports"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let port = p["containerPort"].as_i64().unwrap_or(0);
            let proto = p["protocol"].as_str().unwrap_or("TCP");
            let s = match p["name"].as_str() {
                Some(n) => format!("{n}:{port}/{proto}"),
                None => format!("{port}/{proto}"),
            };
            sanitized_box(&s)
        })
        .collect();
    ContainerInfo {
        name: sanitized_box(spec["name"].as_str().unwrap_or_default()),
        image: sanitized_box(spec["image"].as_str().unwrap_or_default()),
        role,
        ready: st["ready"].as_bool().unwrap_or(false),
        state,
        restarts: u32::try_from(st["restartCount"].as_u64().unwrap_or(0)).unwrap_or(u32::MAX),
        last_finished: last.and_then(|t| ts(t["finishedAt"].as_str())),
        has_previous: last.is_some_and(Value::is_object),
        ports,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn init_sidecar_and_app_containers_in_order_with_states() {
        let pod = json!({
            "metadata": {"name": "db-0", "uid": "u1", "annotations": {DEFAULT_CONTAINER: "postgres"}},
            "spec": {
                "initContainers": [{"name": "init-perms", "image": "busybox"},
                                   {"name": "exporter", "image": "exp:1", "restartPolicy": "Always",
                                    "ports": [{"name": "metrics", "containerPort": 9187}]}],
                "containers": [{"name": "postgres", "image": "postgres:17", "ports": [{"containerPort": 5432, "protocol": "TCP"}]}]},
            "status": {
                "initContainerStatuses": [
                    {"name": "init-perms", "ready": false, "restartCount": 0,
                     "state": {"terminated": {"exitCode": 0, "reason": "Completed", "finishedAt": "2026-12-01T08:00:00Z"}}},
                    {"name": "exporter", "ready": true, "restartCount": 0, "state": {"running": {"startedAt": "2026-12-01T08:00:01Z"}}}],
                "containerStatuses": [
                    {"name": "postgres", "ready": false, "restartCount": 5,
                     "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                     "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": "2026-12-01T08:01:00Z"}}}]}
        });
        let p = PodInfo::from_json(&pod).unwrap();
        let roles: Vec<_> = p.containers.iter().map(|c| (&*c.name, c.role)).collect();
        assert_eq!(
            roles,
            [
                ("init-perms", Role::Init),
                ("exporter", Role::Sidecar),
                ("postgres", Role::App)
            ]
        );
        assert_eq!(p.default_container.as_deref(), Some("postgres"));
        let pg = p.container("postgres").unwrap();
        assert_eq!((pg.restarts, pg.has_previous), (5, true));
        assert_eq!(pg.state, CState::Waiting("CrashLoopBackOff".into()));
        assert_eq!(&*pg.ports[0], "5432/TCP");
        assert_eq!(&*p.containers[1].ports[0], "metrics:9187/TCP");
        assert!(matches!(
            p.containers[0].state,
            CState::Terminated { exit_code: 0, .. }
        ));
        assert!(!p.terminating);
    }

    #[test]
    fn a_default_container_that_does_not_exist_is_ignored() {
        let pod = json!({"metadata": {"name": "x", "annotations": {DEFAULT_CONTAINER: "nope"}},
                         "spec": {"containers": [{"name": "a"}]}});
        let p = PodInfo::from_json(&pod).unwrap();
        assert_eq!(p.default_container, None);
        assert_eq!(p.containers[0].state, CState::Unknown);
    }
}
