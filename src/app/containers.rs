//! The containers view of one pod (`enter` on a pod): init, sidecar and app containers with
//! NAME, ROLE, IMAGE, READY, STATE (with reason), RESTARTS (`(5m ago)`), each container's usage
//! (CPU, MEM, percentages of its own requests and limits, TREND: `usage::containers`), PORTS, AGE,
//! live from the pod's object watch and its namespace's metrics poll; `l` on a row opens that container's logs, `v` its full cells. Must not do I/O.

pub mod model;

use crate::kube::builtin::BuiltinKind;
use crate::kube::logs::{ContainerPick, PodPick};

use crate::app::containers::model::ContainersState;
use crate::app::state::{Screen, UiState};

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
    let ns = state.row_namespace(row.namespace.as_deref());
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
        Action::Cells => {
            let (pod, ns) = (
                c.pod().0,
                c.key.namespace.as_deref().unwrap_or("default").to_owned(),
            );
            let row = pod.and_then(|p| {
                let created = p.created.map(|t| t.as_second());
                p.containers
                    .get(c.selected)
                    .map(|ci| model::row(ci, created, &ns))
            });
            if let Some(row) = row {
                state.screens.overlays.detail = Some(std::sync::Arc::new(row));
                state.screens.overlays.detail_scroll = 0;
            }
        }
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
