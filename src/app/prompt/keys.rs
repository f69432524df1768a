//! Keys while a prompt is open (`:` command, `/` filter or search, a yes/no question):
//! typing, line editing, history recall, submit and cancel, and applying a filter as it is
//! typed to whatever view is on top. Pure state changes; must not perform I/O (the history
//! file is saved by the loop, `Effect::SaveHistory`).

use crate::app::effect::Effect;
use crate::app::state::{Prompt, Screen, UiState};
use crate::keys::Action;

/// A printable character typed while a prompt is open: inserted at the cursor (a filter is
/// applied at once), or the answer of a yes/no question.
pub(crate) fn typed(state: &mut UiState, c: char) {
    state.screens.footer.message = None;
    state.screens.footer.info = false;
    let screens = &mut state.screens;
    match &mut screens.prompt.open {
        Some(Prompt::Command(s)) => crate::app::prompt::edit::Line {
            text: s,
            cursor: &mut screens.prompt.cursor,
        }
        .insert(c),
        Some(Prompt::Filter(s)) => {
            crate::app::prompt::edit::Line {
                text: s,
                cursor: &mut screens.prompt.cursor,
            }
            .insert(c);
            let text = s.clone();
            set_filter(state, text);
        }
        Some(Prompt::Confirm(_)) => {
            state.screens.prompt.open = None;
            crate::app::detail::keys::confirmed(state, c == 'y' || c == 'Y');
        }
        None => {}
    }
}

/// A key while the `:`/`/`/question prompt is open: line editing, history recall, submit
/// (a command runs; both kinds are kept in the prompt history, `:exec` lines never), cancel
/// (a filter is cleared), `tab` completion of commands.
pub(crate) fn update_prompt(state: &mut UiState, prompt: Prompt, action: Action) {
    if edit_prompt(state, action) || recall(state, action) {
        return;
    }
    if matches!(action, Action::Submit | Action::Cancel) {
        state.screens.prompt.cursor = None;
        state.screens.prompt.history.reset();
        let entry = match (&prompt, action) {
            (Prompt::Command(t), Action::Submit) => {
                Some((crate::app::prompt::history::Kind::Command, t.clone()))
            }
            (Prompt::Filter(t), Action::Submit) => {
                Some((crate::app::prompt::history::Kind::Filter, t.clone()))
            }
            _ => None,
        };
        // `:exec` lines may carry secrets in their arguments (`mysql -pSECRET`): never kept.
        let secretive = |t: &str| t.split_whitespace().next() == Some("exec");
        if let Some((kind, text)) = entry.filter(|(_, t)| !t.trim().is_empty() && !secretive(t)) {
            state.screens.prompt.history.push(kind, &text);
            let file = state.screens.prompt.history.to_text();
            state.emit(Effect::SaveHistory(file));
        }
    }
    match (prompt, action) {
        (_, Action::Quit) => state.emit(Effect::Quit(0)),
        (Prompt::Command(text), Action::Submit) => {
            state.screens.prompt.open = None;
            crate::app::command::run(state, text.trim(), false);
        }
        (Prompt::Filter(_), Action::Submit) => state.screens.prompt.open = None,
        (Prompt::Confirm(_), _) => {
            state.screens.prompt.open = None;
            crate::app::detail::keys::confirmed(state, false);
        }
        (Prompt::Command(_), Action::Cancel) => state.screens.prompt.open = None,
        (Prompt::Filter(_), Action::Cancel) => {
            state.screens.prompt.open = None;
            set_filter(state, String::new());
        }
        (Prompt::Command(s), Action::Complete) => {
            state.screens.prompt.cursor = None;
            state.screens.prompt.open = Some(Prompt::Command(crate::app::command::complete(state, &s)));
        }
        _ => {}
    }
}

/// ↑/↓ in the `:` or `/` prompt: the prompt's text becomes the recalled line (a filter is
/// applied at once), the cursor at its end. Returns whether the action was one.
fn recall(state: &mut UiState, action: Action) -> bool {
    use crate::app::prompt::history::Kind;
    let (kind, current) = match &state.screens.prompt.open {
        Some(Prompt::Command(s)) => (Kind::Command, s.clone()),
        Some(Prompt::Filter(s)) => (Kind::Filter, s.clone()),
        _ => return false,
    };
    let line = match action {
        Action::HistoryOlder => state.screens.prompt.history.older(kind, &current),
        Action::HistoryNewer => state.screens.prompt.history.newer(kind),
        _ => return false,
    };
    if let Some(line) = line {
        state.screens.prompt.cursor = None;
        match kind {
            Kind::Command => state.screens.prompt.open = Some(Prompt::Command(line)),
            Kind::Filter => {
                state.screens.prompt.open = Some(Prompt::Filter(line.clone()));
                set_filter(state, line);
            }
        }
    }
    true
}

/// A line-editing key in the `:` or `/` prompt (see `prompt::edit`); a changed filter is
/// applied at once. Returns whether the action was one.
fn edit_prompt(state: &mut UiState, action: Action) -> bool {
    let screens = &mut state.screens;
    let (text, filter) = match &mut screens.prompt.open {
        Some(Prompt::Command(s)) => (s, false),
        Some(Prompt::Filter(s)) => (s, true),
        _ => return false,
    };
    let mut line = crate::app::prompt::edit::Line {
        text,
        cursor: &mut screens.prompt.cursor,
    };
    match line.apply(action) {
        None => false,
        Some(changed) => {
            if changed && filter {
                let t = line.text.clone();
                set_filter(state, t);
            }
            true
        }
    }
}

/// Applies the `/` text to what is on top: the help's lines, a log view, `:ar`, a detail
/// view's search (jumping to the first match), else the list's filter (selection to the top).
fn set_filter(state: &mut UiState, text: String) {
    if state.screens.overlays.help {
        state.screens.overlays.help_view.set_filter(text);
        return;
    }
    if crate::app::logs::update::typed(state, text.clone()) {
        return;
    }
    if let Screen::ApiResources { selected, filter } = state.top_mut() {
        *filter = text;
        *selected = 0;
        return;
    }
    let page = crate::app::scroll::Page::new(state.screens.layout.page_rows, state.screens.layout.page_cols);
    if let Screen::Yaml(y) = state.top_mut() {
        y.search = text;
        match y.find(y.scroll) {
            Some(i) => {
                // Selects the history row on the match, then keeps the last page full.
                y.goto_line(i);
                y.show_line(i, page);
            }
            None if !y.search.is_empty() => state.note("no match".into()),
            None => {}
        }
        return;
    }
    if let Some(l) = state.top_list_mut() {
        l.filter = text;
        l.selected = 0;
        l.offset = 0;
        l.selected_key = None;
    }
}
