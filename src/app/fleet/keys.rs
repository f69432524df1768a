//! Which keys work inside a union (a union list, or a view pinned to one member): everything
//! that reads, shell and attach, and the writes of the lists' dialog, each going to its row's
//! cluster (shell, attach, port-forwards: `:exec` and `:pf` name it with `--context`), history
//! and blame from each cluster's own record, plugins with the row's `$CONTEXT`. What is not
//! routed yet (edit, rollback, the tree) is not offered there, and says so when pressed. Owns that rule;
//! must not change state except the footer's refusal.

use crate::app::state::{Screen, UiState};
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
        Edit => "edit",
        Rollback | MarkRevision => "a rollback",
        Xray => "the tree",
        _ => return None,
    })
}

/// `Some(false)` for an action a union view does not offer; `space` in `:ctx` marks contexts
/// for a union; `None` to let the other rules decide.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    if matches!(state.top(), Screen::Contexts { .. }) && action == Action::Mark {
        return Some(true);
    }
    (in_union(state) && missing(action).is_some()).then_some(false)
}

/// `space` and `enter` in `:ctx`: marks (or unmarks) the selected context; `enter` with two
/// or more marked opens their union, with one switches to it; either way the marks are used
/// up. True when handled.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    let Screen::Contexts { selected } = state.top() else {
        return false;
    };
    let selected = *selected;
    match action {
        Action::Mark => {
            let Some(name) = state.conn.contexts.get(selected).cloned() else {
                return true;
            };
            let marks = &mut state.conn.ctx_marks;
            match marks.iter().position(|m| *m == name) {
                Some(i) => {
                    marks.remove(i);
                }
                None => marks.push(name),
            }
            let last = state.conn.contexts.len().saturating_sub(1);
            if let Screen::Contexts { selected } = state.top_mut() {
                *selected = (*selected + 1).min(last);
            }
            true
        }
        // With marks, `enter` acts on them (one: switches to it), and they are used up.
        Action::Enter if !state.conn.ctx_marks.is_empty() => {
            let names = std::mem::take(&mut state.conn.ctx_marks).join(",");
            crate::app::fleet::open::ctx_command(state, &names);
            true
        }
        _ => false,
    }
}

/// The footer's word when such a key is pressed.
pub fn refused(state: &mut UiState, action: Action) {
    if !in_union(state) {
        return;
    }
    if let Some(what) = missing(action) {
        state.screens.footer.message = Some(format!(
            "not available in a union view yet: {what} (:ctx <name> opens one cluster alone)"
        ));
    }
}

/// Commands whose views are one cluster's and are not routed inside a union yet: refused
/// there in words (rather than showing the context in use's objects unlabelled).
const ONE_CLUSTER: [&str; 9] = [
    "pulse",
    "pulses",
    "pu",
    "xray",
    "can",
    "who-can",
    "top",
    "debug",
    "api-resources",
];

/// A typed command a union cannot run yet: says so and returns true.
pub fn refuse_command(state: &mut UiState, line: &str) -> bool {
    if state.conn.fleet.is_none() {
        return false;
    }
    let word = line.split_whitespace().next().unwrap_or_default();
    let word = if word == "ar" { "api-resources" } else { word };
    if !ONE_CLUSTER.contains(&word) {
        return false;
    }
    state.screens.footer.message = Some(format!(
        ":{word} shows one cluster: not available in a union yet (:ctx <name> opens one cluster alone)"
    ));
    true
}
