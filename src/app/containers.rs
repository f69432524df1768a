//! The containers view of one pod (`enter` on a pod): init, sidecar and app containers with
//! NAME, ROLE, IMAGE, READY, STATE (with reason), RESTARTS (`(5m ago)`), PORTS, AGE, live from
//! the pod's object watch; `l` on a row opens that container's logs. Must not do I/O.

use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::logs::pods::{CState, ContainerInfo, PodInfo};
use crate::kube::logs::{ContainerPick, PodPick};

use crate::app::state::{ObjectFeed, Screen, UiState};

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

/// `enter` on a pod row: push its containers view.
pub fn open(state: &mut UiState) -> bool {
    let Some(list) = state.top_list() else {
        return false;
    };
    if list.key.kind != BuiltinKind::Pod {
        return false;
    }
    let Some(row) = list.cache.selected_row(list.selected) else {
        return false;
    };
    let ns = crate::app::logs::update::row_namespace(state, row.namespace.as_deref());
    let view = ContainersState::new(&ns, &row.name);
    state.push(Screen::Containers(Box::new(view)));
    true
}

/// Keys of the containers view: move, `l` on a row; false when it is not on top.
pub fn handle(state: &mut UiState, action: crate::keys::Action) -> bool {
    use crate::keys::Action;
    let Screen::Containers(c) = state.top_mut() else {
        return false;
    };
    let n = c.pod().0.map_or(0, |p| p.containers.len());
    match action {
        Action::Up => c.selected = c.selected.saturating_sub(1),
        Action::Down => c.selected = (c.selected + 1).min(n.saturating_sub(1)),
        Action::Top => c.selected = 0,
        Action::Bottom => c.selected = n.saturating_sub(1),
        Action::Logs | Action::Enter => {
            let (pod, name, ns) = (
                c.pod().0,
                c.name.clone(),
                c.key.namespace.as_deref().unwrap_or("default").to_owned(),
            );
            let Some(container) = pod.and_then(|p| p.containers.get(c.selected).map(|x| x.name.to_string()))
            else {
                return true;
            };
            let title = format!("pod/{name} -c {container}");
            crate::app::logs::update::open(
                state,
                ns,
                PodPick::Named(name),
                ContainerPick::Named(container),
                title,
            );
        }
        _ => return false,
    }
    true
}
