//! Which actions apply in the log and containers views (for dispatch, the footer and help),
//! and which list rows have logs (`l`). Owns that rule for these views; must not change
//! state.

use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;

use crate::app::state::{Screen, UiState};

/// Kinds whose rows `l` opens logs for.
pub const WITH_LOGS: [BuiltinKind; 7] = [
    BuiltinKind::Pod,
    BuiltinKind::Deployment,
    BuiltinKind::StatefulSet,
    BuiltinKind::DaemonSet,
    BuiltinKind::ReplicaSet,
    BuiltinKind::Job,
    BuiltinKind::Service,
];

/// `Some(applies)` when the log or containers view is on top, or for `Logs` on a list;
/// `None` to let the general rule decide.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    use Action::*;
    match state.top() {
        Screen::Logs(v) => Some(match action {
            Quit | CommandMode | FilterMode | Back | Up | Down | PageUp | PageDown | Top | Bottom | Help
            | Redraw => true,
            LogTimestamps | LogWrap | LogWindow(_) | LogSearch | Save => true,
            LogPrevious => !v.merged(),
            NextMatch | PrevMatch => v.search_match.is_some(),
            _ => false,
        }),
        Screen::Containers(_) => Some(matches!(
            action,
            Quit | CommandMode | Back | Up | Down | Top | Bottom | Help | Redraw | Logs | Enter | Cells
        )),
        Screen::List(l) if action == Logs => {
            Some(WITH_LOGS.iter().any(|k| l.key.kind == *k) && l.cache.selected_row(l.selected).is_some())
        }
        // `enter` on a pod opens its containers.
        Screen::List(l) if action == Enter && l.key.kind == BuiltinKind::Pod => {
            Some(l.cache.selected_row(l.selected).is_some())
        }
        _ if action == Logs => Some(false),
        _ => None,
    }
}
