//! `shift-j`: from the selected object to where it comes from — its controlling owner
//! (`metadata.ownerReferences`), a pod without one to its node, a service to the pods its
//! selector matches. Owns those rules; must not perform I/O.

use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::kind::Kind;
use crate::kube::row::{Cell, Owner};

use crate::app::state::{ListState, Screen, UiState};

/// Opens the owner's list with the owner selected (`esc` comes back). False when the
/// selection is a service: its pods are its drill-down, which the dispatcher opens.
pub fn jump(state: &mut UiState) -> bool {
    let Some(l) = state.top_list().filter(|l| !l.is_timeline()) else {
        return true;
    };
    let Some(row) = l.cache.selected_row(l.selected) else {
        return true;
    };
    let kind = l.key.kind.clone();
    if kind == BuiltinKind::Service {
        return false;
    }
    let from = format!("{}/{}", kind.singular(), row.name);
    if let Some(owner) = &row.owner {
        let Some(owner_kind) = kind_of(state, owner) else {
            state.screens.footer.message = Some(format!(
                "owner {}/{} of {from}: that kind is not served",
                owner.kind, owner.name
            ));
            return true;
        };
        let ns = row.namespace.as_deref().filter(|_| owner_kind.namespaced());
        open_selected(state, owner_kind, ns, &owner.name, from);
        return true;
    }
    if kind == BuiltinKind::Pod {
        match node_of(&row.cells) {
            Some(node) => open_selected(state, BuiltinKind::Node.into(), None, &node, from),
            None => state.screens.footer.message = Some(format!("{from} has no owner and is not scheduled")),
        }
        return true;
    }
    state.screens.footer.message = Some(format!("{from} has no owner"));
    true
}

/// The kind an owner reference names: same group (from `apiVersion`) and `kind`.
fn kind_of(state: &UiState, owner: &Owner) -> Option<Kind> {
    let group = owner.api_version.rsplit_once('/').map_or("", |(g, _)| g);
    state
        .conn
        .registry
        .kinds
        .iter()
        .find(|k| k.group() == group && k.kind_name() == &*owner.kind)
        .cloned()
}

/// A pod row's NODE cell (`spec.nodeName`), if scheduled.
fn node_of(cells: &[Cell]) -> Option<String> {
    let i = crate::table::builtin_spec(BuiltinKind::Pod)
        .columns
        .iter()
        .position(|c| c.header == "NODE")?;
    // An unscheduled pod's NODE is the static `<none>`.
    match cells.get(i)? {
        c @ (Cell::Text(_) | Cell::Shared(_)) => c.literal().map(str::to_owned),
        _ => None,
    }
}

fn open_selected(state: &mut UiState, kind: Kind, ns: Option<&str>, name: &str, from: String) {
    let mut view = ListState::new(ResourceKey::new(kind, ns), Some(format!("owner of {from}")));
    let ns = view.key.namespace.clone();
    view.target = Some((ns, name.into()));
    state.push(Screen::List(Box::new(view)));
}
