//! Keys of the history (`h`) and blame (`b`) modes of a detail view: opening them from a
//! list row or switching a YAML/describe view into them, moving between revisions, marking
//! two with `space`, `enter` for the diff, `esc` back from the diff, `m` for heartbeats.
//! Pure state changes; must not do I/O.

use super::history::HEADER_LINES;
use super::state::{Screen, UiState};
use super::yaml::DetailState;
use crate::keys::Action;
use crate::kube::key::ResourceKey;

/// `h` (`blame`: `b`): the history (or blame) of the selected list row in a new detail view,
/// or the detail view on top switched to it.
pub fn open(state: &mut UiState, blame: bool) {
    if let Screen::Yaml(y) = state.top_mut() {
        y.history = (!blame).then(Box::default);
        y.blame = blame;
        y.describe = false;
        y.scroll = 0;
        y.refresh();
        return;
    }
    let Some(list) = state.top_list() else { return };
    let Some(row) = list.cache.selected_row(list.selected) else {
        return;
    };
    let key = ResourceKey::new(list.kind().clone(), row.namespace.as_deref());
    let mut view = DetailState::new(key, &row.name);
    view.history = (!blame).then(Box::default);
    view.blame = blame;
    state.push(Screen::Yaml(Box::new(view)));
}

/// Handles `action` while a history view is on top; false when none is or the action is not
/// one of its own.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    let page = state.screens.page_rows.max(1);
    let Screen::Yaml(y) = state.top_mut() else {
        return false;
    };
    let Some(h) = y.history.as_deref_mut() else {
        return false;
    };
    if h.diff.is_some() {
        // The diff scrolls like any detail view; `esc` returns to the revisions.
        match action {
            Action::Back => h.diff = None,
            Action::ToggleManaged => h.noise = !h.noise,
            _ => return false,
        }
        y.scroll = 0;
        place(y, page);
        return true;
    }
    let n = h.len();
    let last = n.saturating_sub(1);
    match action {
        Action::Up => h.selected = h.selected.saturating_sub(1),
        Action::Down => h.selected = (h.selected + 1).min(last),
        Action::PageUp => h.selected = h.selected.saturating_sub(page),
        Action::PageDown => h.selected = (h.selected + page).min(last),
        Action::Top => h.selected = 0,
        Action::Bottom => h.selected = last,
        Action::MarkRevision => h.toggle_mark(),
        Action::ToggleManaged => h.noise = !h.noise,
        Action::Enter => {
            h.open_diff();
            if h.diff.is_none() {
                state.note("the oldest revision kept has nothing before it to diff".into());
                return true;
            }
            y.scroll = 0;
        }
        _ => return false,
    }
    place(y, page);
    true
}

/// Rebuilds the lines and keeps the selected revision on screen.
fn place(y: &mut DetailState, page: usize) {
    y.refresh();
    let Some(h) = &y.history else { return };
    if h.diff.is_some() {
        return;
    }
    let line = HEADER_LINES + h.selected;
    if line < y.scroll + HEADER_LINES {
        y.scroll = line.saturating_sub(HEADER_LINES);
    } else if line >= y.scroll + page {
        y.scroll = line + 1 - page;
    }
}
