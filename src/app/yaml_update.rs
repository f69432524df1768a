//! Key handling of the YAML view: open it from a list row, scroll, search, toggle
//! managedFields, reveal Secret values after a confirmation, save. Pure state changes; the
//! watch and the saved file are effects the loop carries out.

use super::effect::Effect;
use super::state::{Prompt, Screen, UiState};
use super::yaml::DetailState;
use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;

/// `y` (or `d` with `describe`) on a list row: push the live YAML (or describe) view of
/// that object.
pub fn open(state: &mut UiState, describe: bool) {
    let Some(list) = state.top_list() else { return };
    let Some(row) = list.cache.selected_row(list.selected) else {
        return;
    };
    let key = ResourceKey::new(list.kind().clone(), row.namespace.as_deref());
    let mut view = DetailState::new(key, &row.name);
    view.describe = describe;
    state.push(Screen::Yaml(Box::new(view)));
}

/// Handles `action` when the YAML view is on top; returns false when it is not.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    let page = state.screens.page_rows.max(1);
    let Screen::Yaml(y) = state.top_mut() else {
        return false;
    };
    let last = y.lines.len().saturating_sub(1);
    match action {
        Action::Up => y.scroll = y.scroll.saturating_sub(1),
        Action::Down => y.scroll = (y.scroll + 1).min(last),
        Action::PageUp => y.scroll = y.scroll.saturating_sub(page),
        Action::PageDown => y.scroll = (y.scroll + page).min(last),
        Action::Top => y.scroll = 0,
        Action::Bottom => y.scroll = last,
        Action::ToggleManaged => y.show_managed = !y.show_managed,
        Action::NextMatch => {
            if let Some(i) = y.find(y.scroll + 1) {
                y.scroll = i;
            }
        }
        Action::FilterMode => {
            let s = y.search.clone();
            state.screens.prompt = Some(Prompt::Filter(s));
        }
        Action::Reveal if y.key.kind == BuiltinKind::Secret && !y.reveal => {
            state.screens.prompt = Some(Prompt::Confirm(format!(
                "decode and show the values of secret {}? (y/n)",
                crate::kube::sanitize::sanitize(&y.name)
            )));
        }
        Action::Save => {
            let id = state.top_id();
            state.emit(Effect::Save(id));
        }
        Action::Enter | Action::SortAge | Action::SortName | Action::SortStatus | Action::ToggleWide => {}
        _ => return false,
    }
    true
}

/// The answer to the reveal question.
pub fn confirmed(state: &mut UiState, yes: bool) {
    if let Screen::Yaml(y) = state.top_mut() {
        if yes {
            y.reveal = true;
        }
    }
}
