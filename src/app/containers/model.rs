//! The state of the containers view of one pod ([`ContainersState`]) and its rows' cells.
//! Plain data; must not import `UiState` nor any transition, perform I/O or draw.

use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::logs::pods::{CState, ContainerInfo, PodInfo};

use crate::app::feed::ObjectFeed;

/// The UI-local state of a containers view.
pub struct ContainersState {
    /// The pod's kind and namespace (the watch adds `metadata.name`).
    pub key: ResourceKey,
    /// The pod's name.
    pub name: String,
    /// The pod's watch, attached by the loop.
    pub watch: Option<ObjectFeed>,
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
}

/// One row's cells: NAME, ROLE, IMAGE, READY, STATE, RESTARTS, PORTS, AGE at `now` (unix s).
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
    let started = match &c.state {
        CState::Running(Some(t)) => Some(t.as_second()),
        _ => pod_created,
    };
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

fn age(secs: i64) -> String {
    crate::table::format::human_duration(secs)
}
