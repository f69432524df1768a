//! Key handling of the YAML view: open it from a list row, scroll, search, toggle
//! managedFields, reveal Secret values after a confirmation, save. Pure state changes; the
//! watch and the saved file are effects the loop carries out; must not do I/O itself.

use crate::app::detail::model::DetailState;
use crate::app::effect::Effect;
use crate::app::state::{Prompt, Screen, UiState};
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

/// Handles `action` when the YAML view is on top; returns false when it is not. The
/// scrolling keys stop at the last full page (`G` goes there), wrapped or not; `←`/`→`
/// scroll sideways while unwrapped, `w` toggles wrap. After `G` the view stays on the last
/// page while the text grows, until a key moves it up.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    let page = crate::app::scroll::Page::new(state.screens.layout.page_rows, state.screens.layout.page_cols);
    let Screen::Yaml(y) = state.top_mut() else {
        return false;
    };
    let last = crate::app::scroll::last_start(&y.lines, page, y.wrap);
    let step = |by: i64| Some(by);
    let rows = i64::try_from(page.rows).unwrap_or(1);
    let by = match action {
        Action::Up => step(-1),
        Action::Down => step(1),
        Action::PageUp => step(-rows),
        Action::PageDown => step(rows),
        Action::Top => step(i64::MIN / 2),
        Action::Bottom => None,
        _ => return other(state, action),
    };
    y.scroll = crate::app::scroll::step(y.scroll, by, last);
    // `G` keeps to the end as the text grows; moving up lets go.
    y.at_end = match action {
        Action::Bottom => true,
        Action::Down | Action::PageDown => y.at_end,
        _ => false,
    };
    true
}

/// The YAML view's keys other than vertical scrolling.
fn other(state: &mut UiState, action: Action) -> bool {
    let page = crate::app::scroll::Page::new(state.screens.layout.page_rows, state.screens.layout.page_cols);
    let Screen::Yaml(y) = state.top_mut() else {
        return false;
    };
    match action {
        Action::ScrollLeft => y.hscroll = y.hscroll.saturating_sub(HSTEP),
        Action::ScrollRight => {
            let max = crate::app::scroll::max_hscroll(&y.lines, page.cols, y.wrap);
            y.hscroll = (y.hscroll + HSTEP).min(max);
        }
        Action::Wrap => {
            y.wrap = !y.wrap;
            y.hscroll = 0;
            y.scroll = y
                .scroll
                .min(crate::app::scroll::last_start(&y.lines, page, y.wrap));
        }
        Action::ToggleManaged => y.show_managed = !y.show_managed,
        Action::NextMatch => {
            if let Some(i) = y.find(y.scroll + 1) {
                y.show_line(i, page);
            }
        }
        Action::FilterMode => {
            let s = y.search.clone();
            state.screens.prompt.open = Some(Prompt::Filter(s));
        }
        Action::Reveal if y.key.kind == BuiltinKind::Secret && !y.reveal => {
            state.screens.prompt.open = Some(Prompt::Confirm(format!(
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

/// Cells one `←`/`→` moves a detail view sideways.
pub const HSTEP: usize = 8;

/// The answer to the reveal question.
pub fn confirmed(state: &mut UiState, yes: bool) {
    if let Screen::Yaml(y) = state.top_mut() {
        if yes {
            y.reveal = true;
        }
    }
}
