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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::app::state::ObjectFeed;
    use crate::app::update::update;
    use crate::kube::builtin::BuiltinKind;
    use crate::kube::history::{History, HistoryConfig};
    use crate::kube::object::ObjectView;

    fn cm(rv: u64, mode: &str) -> serde_json::Value {
        json!({"metadata": {"name": "conf", "namespace": "a", "resourceVersion": rv.to_string()}, "data": {"mode": mode}})
    }

    fn state() -> UiState {
        let key = ResourceKey::new(BuiltinKind::ConfigMap, Some("a"));
        let h = History::new(HistoryConfig::default(), 0);
        for (rv, mode) in [(1, "blue"), (2, "green"), (3, "red")] {
            h.observe("configmaps", cm(rv, mode), false, 60 * rv as i64);
        }
        let mut y = DetailState::new(key.clone(), "conf");
        let mut feed = ObjectFeed::fixed(key, ObjectView::default());
        feed.history = Some(h);
        y.watch = Some(feed);
        y.history = Some(Box::default());
        y.refresh();
        let list = crate::app::state::ListState::new(ResourceKey::new(BuiltinKind::Pod, Some("a")), None);
        let mut s = UiState::new(Screen::List(Box::new(list)), Some("a".into()), false);
        s.push(Screen::Yaml(Box::new(y)));
        s.take_effects();
        s
    }

    fn lines(s: &UiState) -> Vec<String> {
        match s.top() {
            Screen::Yaml(y) => y.lines.clone(),
            _ => panic!("not a detail view"),
        }
    }

    #[test]
    fn revisions_newest_first_then_the_diff_of_two_marked_ones() {
        let mut s = state();
        let l = lines(&s);
        assert!(l[0].contains("3 revisions"), "{l:#?}");
        assert!(l[2].contains("data.mode green→red"), "{l:#?}");
        assert!(l[3].contains("data.mode blue→green"));
        assert!(l[4].contains("first observed"));
        // enter: the selected revision against the one before it.
        update(&mut s, Action::Enter);
        assert!(
            lines(&s).contains(&"~ data.mode: green → red".to_owned()),
            "{:#?}",
            lines(&s)
        );
        update(&mut s, Action::Back);
        assert!(
            lines(&s)[0].contains("3 revisions"),
            "esc returns to the revisions"
        );
        // Two marks: newest and oldest.
        update(&mut s, Action::MarkRevision);
        update(&mut s, Action::Bottom);
        update(&mut s, Action::MarkRevision);
        assert!(lines(&s)[2].starts_with('*') && lines(&s)[4].starts_with('*'));
        update(&mut s, Action::Enter);
        let l = lines(&s);
        assert!(
            l[0].starts_with("diff rv 1 ") && l[0].contains("→ rv 3 "),
            "{l:#?}"
        );
        assert!(l.contains(&"~ data.mode: blue → red".to_owned()), "{l:#?}");
        let Screen::Yaml(y) = s.top() else { panic!() };
        let saved = y.save_text();
        assert!(
            saved.contains("first observed") && saved.matches("diff rv").count() == 2,
            "{saved}"
        );
        // The oldest has nothing before it.
        update(&mut s, Action::Back);
        update(&mut s, Action::MarkRevision);
        update(&mut s, Action::Enter);
        assert!(s
            .screens
            .message
            .as_deref()
            .unwrap_or("")
            .contains("nothing before it"));
    }

    #[test]
    fn keys_apply_only_where_they_do_something() {
        let mut s = state();
        assert!(s.applies(Action::MarkRevision) && s.applies(Action::Enter) && !s.applies(Action::History));
        update(&mut s, Action::Enter);
        assert!(!s.applies(Action::MarkRevision), "not in the diff");
        update(&mut s, Action::Blame);
        let Screen::Yaml(y) = s.top() else { panic!() };
        assert!(y.blame && y.history.is_none());
    }
}
