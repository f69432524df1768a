//! The state of the containers view of one pod ([`ContainersState`]), its rows' cells and
//! its containers' requests and limits as usage is measured against them. Plain data; must
//! not import `UiState` nor any transition, perform I/O, compute usage or draw.

use crate::kube::builtin::BuiltinKind;
use crate::kube::capacity::ContainerDemand;
use crate::kube::key::ResourceKey;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use crate::table::pod::Resources;

use crate::kube::logs::pods::{CState, ContainerInfo, PodInfo};
use crate::kube::row::{Cell, Health, Row};

use crate::app::feed::ObjectFeed;
use crate::app::usage::model::UsageSource;

/// The UI-local state of a containers view.
pub struct ContainersState {
    /// The pod's kind and namespace (the watch adds `metadata.name`).
    pub key: ResourceKey,
    /// The pod's name.
    pub name: String,
    /// The pod's watch, attached by the loop.
    pub watch: Option<ObjectFeed>,
    /// The metrics poll of pods in the pod's namespace (PodMetrics), attached by the loop;
    /// `None` until then, or with `[metrics] enabled = false`.
    pub usage: Option<UsageSource>,
    /// The selected row.
    pub selected: usize,
}

impl ContainersState {
    /// The view of pod `name` in `ns`.
    pub fn new(ns: &str, name: &str) -> ContainersState {
        ContainersState {
            key: ResourceKey::new(BuiltinKind::Pod, Some(ns)),
            name: name.to_owned(),
            watch: None,
            usage: None,
            selected: 0,
        }
    }

    /// The pod as last seen, and whether it was deleted.
    pub fn pod(&self) -> (Option<PodInfo>, bool) {
        let Some(w) = &self.watch else {
            return (None, false);
        };
        let v = w.view.load();
        (v.object.as_deref().and_then(PodInfo::from_json), v.deleted)
    }

    /// The `resources` of every container of the pod as last seen (init, sidecar and app
    /// containers, spec order), names sanitized as [`ContainersState::pod`]'s: requests and
    /// limits of `cpu` (nanocores) and `memory` (bytes), each `None` where it is not set.
    /// Empty before the pod is seen or when its `spec` does not decode.
    pub fn demands(&self) -> Vec<ContainerDemand> {
        let Some(w) = &self.watch else {
            return Vec::new();
        };
        let v = w.view.load();
        let Some(spec) = v.object.as_deref().and_then(|o| o.get("spec")) else {
            return Vec::new();
        };
        let list = |key: &str| spec.get(key).and_then(Value::as_array).into_iter().flatten();
        list("initContainers")
            .chain(list("containers"))
            .map(|c| {
                let name = c.get("name").and_then(Value::as_str).unwrap_or_default();
                // One container's unreadable `resources` leaves only its own figures unset.
                let r = c
                    .get("resources")
                    .and_then(|r| Resources::deserialize(r).ok())
                    .unwrap_or_default();
                ContainerDemand {
                    name: Arc::from(crate::kube::sanitize::sanitize(name)),
                    cpu_request: r.requests.cpu_nanos(),
                    cpu_limit: r.limits.cpu_nanos(),
                    memory_request: r.requests.memory_bytes(),
                    memory_limit: r.limits.memory_bytes(),
                }
            })
            .collect()
    }
}

/// The headers of [`cells`], index for index.
pub const HEADERS: [&str; 8] = [
    "NAME", "ROLE", "IMAGE", "READY", "STATE", "RESTARTS", "PORTS", "AGE",
];

/// One row's cells: NAME, ROLE, IMAGE, READY, STATE, RESTARTS, PORTS, AGE at `now` (unix s).
/// AGE is the container's own, as `kubectl describe` dates it: since `running.startedAt`,
/// or for a finished one since `terminated.startedAt` (else `finishedAt`); a container that
/// has not started yet (waiting, no status) is as old as its pod.
pub fn cells(c: &ContainerInfo, pod_created: Option<i64>, now: i64) -> [String; 8] {
    let state = match &c.state {
        CState::Unknown => "Pending".to_owned(),
        CState::Waiting(r) => format!("Waiting: {r}"),
        CState::Running(_) => "Running".to_owned(),
        CState::Terminated {
            reason, exit_code, ..
        } => format!("Terminated: {reason} (exit {exit_code})"),
    };
    let restarts = match c.last_finished {
        Some(t) if c.restarts > 0 => format!("{} ({} ago)", c.restarts, age(now - t.as_second())),
        _ => c.restarts.to_string(),
    };
    let started = started_at(c, pod_created);
    [
        c.name.to_string(),
        c.role.word().to_owned(),
        c.image.to_string(),
        if c.ready { "true" } else { "false" }.to_owned(),
        state,
        restarts,
        if c.ports.is_empty() {
            "<none>".to_owned()
        } else {
            c.ports.join(",")
        },
        started.map_or_else(|| "<unknown>".to_owned(), |t| age(now - t)),
    ]
}

/// When the container's AGE counts from (see [`cells`]), in unix seconds.
fn started_at(c: &ContainerInfo, pod_created: Option<i64>) -> Option<i64> {
    match &c.state {
        CState::Running(Some(t)) => Some(t.as_second()),
        CState::Terminated {
            started, finished, ..
        } => started.or(*finished).map(|t| t.as_second()).or(pod_created),
        _ => pod_created,
    }
}

/// The container as a list row for the `v` overlay: NAME, then the cells after it in
/// [`HEADERS`] order (AGE and RESTARTS kept as times, formatted when drawn).
pub fn row(c: &ContainerInfo, pod_created: Option<i64>, namespace: &str) -> Row {
    let [_, role, image, ready, state, _, ports, _] = cells(c, pod_created, 0);
    let text = |s: String| Cell::Text(s.into_boxed_str());
    let cells = vec![
        text(role),
        text(image),
        text(ready),
        text(state),
        Cell::Restarts {
            count: i64::from(c.restarts),
            last: c.last_finished.map(|t| t.as_second()),
        },
        text(ports),
        Cell::Age(started_at(c, pod_created)),
    ];
    Row {
        capacity: None,
        uses: None,
        origin: 0,
        namespace: Some(Arc::from(namespace)),
        name: Arc::from(&*c.name),
        uid: "".into(),
        created: pod_created,
        labels: Arc::from(Vec::new()),
        cells: cells.into_boxed_slice(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
    }
}

fn age(secs: i64) -> String {
    crate::table::format::human_duration(secs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::logs::pods::PodInfo;
    use serde_json::json;

    #[test]
    fn a_finished_init_container_is_as_old_as_its_own_run() {
        let pod = json!({
            "metadata": {"name": "db-0", "creationTimestamp": "2026-12-01T00:00:00Z"},
            "spec": {"initContainers": [{"name": "init", "image": "busybox"}],
                     "containers": [{"name": "app", "image": "postgres"}]},
            "status": {
                "initContainerStatuses": [{"name": "init", "restartCount": 0, "state": {"terminated": {
                    "exitCode": 0, "reason": "Completed",
                    "startedAt": "2026-12-01T09:00:00Z", "finishedAt": "2026-12-01T09:00:05Z"}}}],
                "containerStatuses": [{"name": "app", "restartCount": 0, "ready": true,
                    "state": {"running": {"startedAt": "2026-12-01T09:30:00Z"}}}]}
        });
        let p = PodInfo::from_json(&pod).unwrap();
        let created = p.created.map(|t| t.as_second());
        let now = "2026-12-01T10:00:00Z"
            .parse::<jiff::Timestamp>()
            .unwrap()
            .as_second();
        // The pod is 10h old; the init container ran an hour ago, the app started 30m ago.
        assert_eq!(cells(&p.containers[0], created, now)[7], "60m");
        assert_eq!(cells(&p.containers[1], created, now)[7], "30m");
    }

    #[test]
    fn demands_are_every_containers_own_resources_in_spec_order() {
        let pod = json!({
            "metadata": {"name": "db-0"},
            "spec": {
                "initContainers": [
                    {"name": "init", "resources": {"requests": {"cpu": "10m"}}},
                    {"name": "proxy", "restartPolicy": "Always",
                     "resources": {"limits": {"cpu": "100m", "memory": "64Mi"}}}],
                "containers": [{"name": "app", "resources": {"requests": {"cpu": "0.5", "memory": "1Gi"}}},
                               {"name": "bad\u{1b}[2J", "resources": {"requests": {"cpu": []}}}]}
        });
        let mut c = ContainersState::new("shop", "db-0");
        assert!(c.demands().is_empty(), "before the watch is attached");
        c.watch = Some(ObjectFeed::fixed(
            ResourceKey::new(BuiltinKind::Pod, Some("shop")),
            crate::kube::object::ObjectView {
                object: Some(Arc::new(pod)),
                deleted: false,
                state: crate::kube::sync::SyncState::Live,
                rev: 1,
            },
        ));
        let d = c.demands();
        let names: Vec<&str> = d.iter().map(|d| &*d.name).collect();
        let pod_names: Vec<String> = c
            .pod()
            .0
            .unwrap()
            .containers
            .iter()
            .map(|c| c.name.to_string())
            .collect();
        assert_eq!(names, pod_names, "named as the rows are, sanitized");
        assert_eq!((d[0].cpu_request, d[0].cpu_limit), (Some(10_000_000), None));
        assert_eq!(
            (d[1].cpu_limit, d[1].memory_limit),
            (Some(100_000_000), Some(64 << 20))
        );
        assert_eq!(
            (d[2].cpu_request, d[2].memory_request),
            (Some(500_000_000), Some(1 << 30))
        );
        assert_eq!(d[3].cpu_request, None);
    }
}
