//! Which keys work inside a union (a union list, or a view pinned to one member): everything
//! that reads, shell and attach, and the writes of the lists' dialog, each going to its row's
//! cluster. What is not routed yet (port-forward, edit, rollback, history, the tree,
//! plugins) is not offered there, and says so when pressed. Owns that rule;
//! must not change state except the footer's refusal.

use crate::app::state::UiState;
use crate::keys::Action;

/// Whether the top view belongs to a union: a union list, or a view pinned to one member.
pub fn in_union(state: &UiState) -> bool {
    state.conn.fleet.is_some()
        && (state.top_list().is_some_and(|l| l.union.is_some())
            || state.screens.stack.pins.contains_key(&state.top_id()))
}

/// What a union cannot do yet, by action (`None`: it can).
fn missing(action: Action) -> Option<&'static str> {
    use Action::*;
    Some(match action {
        PortForward => "a port-forward",
        Edit => "edit",
        Rollback | MarkRevision => "a rollback",
        History | Blame => "history",
        Xray => "the tree",
        Plugin(_) => "plugins",
        _ => return None,
    })
}

/// `Some(false)` for an action a union view does not offer; `None` to let the other rules
/// decide.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    (in_union(state) && missing(action).is_some()).then_some(false)
}

/// The footer's word when such a key is pressed.
pub fn refused(state: &mut UiState, action: Action) {
    if !in_union(state) {
        return;
    }
    if let Some(what) = missing(action) {
        state.screens.footer.message = Some(format!(
            "{what} is not available in a union view: :ctx <name> opens one cluster alone"
        ));
    }
}
