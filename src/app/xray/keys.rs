//! Keys of the xray view: move, `enter` (expand/collapse; on a leaf open it), and the list
//! row keys on the selected line — `y`/`d` (its object: a container's pod, the service account
//! by discovery), `l` and `s`/`a` (pods and containers) — through the same transitions the
//! lists use; of the writes, delete (`ctrl-d`, `ctrl-k` force) on an object's line, through
//! the lists' dialog (no scale, edit, marks…). Also `x` on a list row. Must not do I/O.

use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::exec::{ExecTarget, SessionKind};
use crate::kube::key::ResourceKey;
use crate::kube::kind::Kind;
use crate::kube::logs::{ContainerPick, PodPick};
use crate::kube::sanitize::sanitize;

use crate::app::detail::model::DetailState;
use crate::app::effect::Effect;
use crate::app::session::model::SessionRequest;
use crate::app::state::{Screen, UiState};

use super::model::{label, Node, What};

/// Whether `action` does something here: `Some` on an xray view (every action it does not
/// know is refused, writes included), and for `x` on a list; `None` otherwise.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    use Action::*;
    let Screen::Xray(x) = state.top() else {
        return matches!(action, Xray).then(|| super::row_kind(state).is_some());
    };
    let node = x.selected_node();
    Some(match action {
        Up | Down | PageUp | PageDown | Top | Bottom | Enter => node.is_some(),
        Yaml | Describe => node.is_some_and(|n| object_of(state, n).is_some()),
        Logs | Shell | Attach => node.is_some_and(|n| exec_target(n).is_some()),
        // An object's line deletes like its row (read-only mode refused it before).
        Delete | ForceDelete => node.is_some_and(|n| !n.missing && matches!(n.what, What::Object(_))),
        Quit | CommandMode | Back | Help | Redraw | NavBack | NavForward => return None,
        _ => false,
    })
}

/// Handles `action` on an xray view (and `x` on a list); false when it is not for them.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    if action == Action::Xray && !matches!(state.top(), Screen::Xray(_)) {
        super::open_row(state);
        return true;
    }
    let id = state.top_id();
    let page = state.screens.layout.page_rows.max(1) as i64;
    let Screen::Xray(x) = state.top_mut() else {
        return false;
    };
    match action {
        Action::Up => x.move_by(-1),
        Action::Down => x.move_by(1),
        Action::PageUp => x.move_by(-page),
        Action::PageDown => x.move_by(page),
        Action::Top => x.move_by(i64::MIN / 2),
        Action::Bottom => x.move_by(i64::MAX / 2),
        Action::Enter => {
            let before = x.wanted().len();
            if x.toggle() {
                let more = match x.wanted().len() != before {
                    true => x.feeds(id),
                    false => Vec::new(),
                };
                // Built now, not at the next frame: the keys that follow see the new lines.
                x.refresh(page as usize);
                for e in more {
                    state.emit(e);
                }
            } else if let Some(node) = x.selected_node().cloned() {
                open_leaf(state, &node);
            }
        }
        Action::Yaml | Action::Describe => {
            if let Some(node) = x.selected_node().cloned() {
                open_object(state, &node, action == Action::Describe);
            }
        }
        Action::Logs => {
            let Some(t) = x.selected_node().and_then(exec_target) else {
                return true;
            };
            let (pod, title, containers) = match t.container {
                Some(c) => (
                    t.pod.clone(),
                    format!("pod/{} -c {c}", t.pod),
                    ContainerPick::Named(c),
                ),
                None => (t.pod.clone(), format!("pod/{}", t.pod), ContainerPick::Default),
            };
            crate::app::logs::update::open(state, t.namespace, PodPick::Named(pod), containers, title);
        }
        Action::Delete | Action::ForceDelete => {
            let Some(node) = x.selected_node().cloned() else {
                return true;
            };
            let Some((kind, name)) = object_of(state, &node) else {
                return true;
            };
            let target = crate::kube::write::Target::new(kind, node.namespace.as_deref(), &name);
            crate::app::writes::actions::delete_one(state, target, action);
        }
        Action::Shell | Action::Attach => {
            let Some(target) = x.selected_node().and_then(exec_target) else {
                return true;
            };
            if crate::app::writes::access::refuse(state, action) {
                return true;
            }
            let kind = match action {
                Action::Attach => SessionKind::Attach,
                _ => SessionKind::Shell,
            };
            state.note(format!("connecting to pod/{}…", sanitize(&target.pod)));
            state.emit(Effect::PrepareSession(Box::new(SessionRequest { target, kind })));
        }
        _ => return false,
    }
    true
}

/// `enter` on a line without children: a container's logs, an object's YAML, why not for
/// a missing reference.
fn open_leaf(state: &mut UiState, node: &Node) {
    match node.what {
        What::Container => {
            let _ = handle(state, Action::Logs);
        }
        _ => open_object(state, node, false),
    }
}

/// The object a line stands for (a container: its pod), as a kind and name; `None` for a
/// missing reference, and for a service account when discovery does not offer the kind.
fn object_of(state: &UiState, node: &Node) -> Option<(Kind, String)> {
    if node.missing {
        return None;
    }
    match node.what {
        What::Object(k) => Some((k.into(), node.name.to_string())),
        What::Container => Some((BuiltinKind::Pod.into(), node.pod.as_deref()?.to_owned())),
        What::ServiceAccount => {
            let kind = state
                .conn
                .registry
                .kinds
                .iter()
                .find(|k| k.group().is_empty() && k.kind_name() == "ServiceAccount")?;
            Some((kind.clone(), node.name.to_string()))
        }
    }
}

/// `y`/`d`: the live YAML (or describe) of the line's object.
fn open_object(state: &mut UiState, node: &Node, describe: bool) {
    let Some((kind, name)) = object_of(state, node) else {
        state.screens.footer.message = Some(match node.missing {
            true => format!("{} {}: not found", label(node.what), node.name),
            false => "nothing to show for this line".into(),
        });
        return;
    };
    let key = ResourceKey::new(kind, node.namespace.as_deref());
    let mut view = DetailState::new(key, &name);
    view.describe = describe;
    state.push(Screen::Yaml(Box::new(view)));
}

/// The pod (and container) a line names, for `l`, `s` and `a`.
fn exec_target(node: &Node) -> Option<ExecTarget> {
    let namespace = node.namespace.as_deref()?.to_owned();
    match node.what {
        What::Object(BuiltinKind::Pod) if !node.missing => Some(ExecTarget {
            context: None,
            namespace,
            pod: node.name.to_string(),
            container: None,
        }),
        What::Container => Some(ExecTarget {
            context: None,
            namespace,
            pod: node.pod.as_deref()?.to_owned(),
            container: Some(node.name.to_string()),
        }),
        _ => None,
    }
}
