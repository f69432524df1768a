//! Tail mode of event timelines meets acting on a row: opening the selected event (`enter`,
//! `d`, `y`, `v`) pins the selection to that event, so the next key acts on the same one
//! even though newer events arrived on top (the header then counts them, `↑ 3 new`;
//! `g g` follows again). Owns that rule only; must not draw.

use crate::keys::Action;

use crate::app::state::UiState;

/// Before `action` runs: on a following timeline, an action on the selected row stops the
/// follow at that row.
pub fn pin_before(state: &mut UiState, action: Action) {
    if !matches!(
        action,
        Action::Enter | Action::Describe | Action::Yaml | Action::Cells
    ) {
        return;
    }
    let Some(l) = state.top_list_mut().filter(|l| l.is_timeline() && l.follow) else {
        return;
    };
    let Some(row) = l.cache.selected_row(l.selected) else {
        return;
    };
    let key = crate::kube::store::obj_key(&row);
    l.follow = false;
    l.selected_key = Some(key.clone());
    // Rows above the pinned one are new from here on.
    l.anchor = l.cache.selected_row(0).map(|r| crate::kube::store::obj_key(&r));
}
