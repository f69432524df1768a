//! Keys of the history (`h`) and blame (`b`) modes of a detail view: opening them from a
//! list row or switching a YAML/describe view into them, moving between revisions, marking
//! two with `space`, `enter` for the diff, `esc` back from the diff, `m` for heartbeats, `/`
//! and `n` selecting the matching revision. Pure state changes; must not do I/O.

use crate::app::detail::model::DetailState;
use crate::app::effect::Effect;
use crate::app::state::{Screen, UiState};
use crate::keys::Action;
use crate::kube::history::rollout::RolloutSource;
use crate::kube::key::ResourceKey;

/// `h` (`blame`: `b`): the history (or blame) of the selected list row in a new detail view,
/// or the detail view on top switched to it. A workload's history also asks the loop for
/// its rollout history (`Effect::WatchRollout`; a pushed view asks through its feeds).
pub fn open(state: &mut UiState, blame: bool) {
    let id = state.top_id();
    if let Screen::Yaml(y) = state.top_mut() {
        y.history = (!blame).then(Box::default);
        y.blame = blame;
        y.describe = false;
        y.scroll = 0;
        y.refresh();
        let watch = (!blame && RolloutSource::of(&y.key.kind).is_some())
            .then(|| Effect::WatchRollout(id, y.key.clone(), y.name.clone()));
        if let Some(e) = watch {
            state.emit(e);
        }
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
    let page = state.screens.layout.page_rows.max(1);
    let full = crate::app::scroll::Page::new(state.screens.layout.page_rows, state.screens.layout.page_cols);
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
    let at = h.selected;
    let last = h.rows().saturating_sub(1);
    match action {
        Action::Up => h.select(at.saturating_sub(1)),
        Action::Down => h.select((at + 1).min(last)),
        Action::PageUp => h.select(at.saturating_sub(page)),
        Action::PageDown => h.select((at + page).min(last)),
        Action::Top => h.select(0),
        Action::Bottom => h.select(last),
        Action::MarkRevision => h.toggle_mark(),
        Action::ToggleManaged => h.noise = !h.noise,
        Action::NextMatch => {
            let from = h.selected_line().map_or(y.scroll, |l| l + 1);
            match y.find(from) {
                // Selects the row found; the last page stays full.
                Some(i) => {
                    y.goto_line(i);
                    y.show_line(i, full);
                }
                None => state.note("no match".into()),
            }
            return true;
        }
        Action::Enter => {
            if let Err(why) = h.open_diff() {
                state.note(why);
                return true;
            }
            y.scroll = 0;
        }
        _ => return false,
    }
    place(y, page);
    true
}

impl DetailState {
    /// Scrolls to line `i` (a search match); in a history's list of revisions also selects
    /// the row on it, so that `enter` diffs the revision found.
    pub fn goto_line(&mut self, i: usize) {
        if let Some(h) = self.history.as_deref_mut().filter(|h| h.diff.is_none()) {
            if let Some(row) = h.row_at_line(i) {
                h.select(row);
            }
        }
        self.scroll = i;
    }
}

/// Rebuilds the lines and keeps the selected row on screen (with its part's head lines
/// when it is the first row of its part).
fn place(y: &mut DetailState, page: usize) {
    y.refresh();
    let Some(h) = &y.history else { return };
    let Some(line) = h.selected_line() else { return };
    let first_of_part = h.selected == 0 || h.row_at_line(line.wrapping_sub(1)).is_none();
    let top = if first_of_part {
        line.saturating_sub(2)
    } else {
        line
    };
    if top < y.scroll {
        y.scroll = top;
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
            .footer
            .message
            .as_deref()
            .unwrap_or("")
            .contains("nothing before it"));
    }

    #[test]
    fn the_selection_stays_on_its_revision_while_new_ones_arrive_and_search_selects() {
        let mut s = state();
        let Screen::Yaml(y) = s.top() else { panic!() };
        let h = y.watch.as_ref().unwrap().history.clone().unwrap();
        update(&mut s, Action::Down);
        let rv = |s: &UiState| match s.top() {
            Screen::Yaml(y) => y
                .history
                .as_ref()
                .unwrap()
                .selected_revision()
                .unwrap()
                .resource_version
                .to_string(),
            _ => panic!(),
        };
        assert_eq!(rv(&s), "2");
        // Two status revisions arrive meanwhile: rows move down, the selection with them.
        h.observe("configmaps", cm(4, "pink"), false, 300);
        h.observe("configmaps", cm(5, "grey"), false, 360);
        let Screen::Yaml(y) = s.top_mut() else { panic!() };
        y.refresh();
        assert_eq!(rv(&s), "2");
        assert!(lines(&s)[0].contains("5 revisions"));
        update(&mut s, Action::Enter);
        assert!(
            lines(&s).contains(&"~ data.mode: blue → green".to_owned()),
            "{:#?}",
            lines(&s)
        );
        update(&mut s, Action::Back);
        // `/` selects the revision whose row matches; `n` the next one.
        update(&mut s, Action::FilterMode);
        for c in "pink".chars() {
            crate::app::update::type_char(&mut s, c);
        }
        assert_eq!(rv(&s), "5", "the row reading data.mode pink→grey");
        update(&mut s, Action::Submit);
        update(&mut s, Action::NextMatch);
        assert_eq!(rv(&s), "4", "the next match: red→pink");
        update(&mut s, Action::Enter);
        assert!(
            lines(&s).contains(&"~ data.mode: red → pink".to_owned()),
            "{:#?}",
            lines(&s)
        );
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

    #[test]
    fn search_selects_only_revision_rows_and_n_keeps_the_last_page_full() {
        let mut s = state();
        update(&mut s, Action::Down);
        // "ge" is in the column header (GEN) before any row: the row with green is meant.
        update(&mut s, Action::FilterMode);
        for c in "ge".chars() {
            crate::app::update::type_char(&mut s, c);
        }
        update(&mut s, Action::Submit);
        let Screen::Yaml(y) = s.top() else { panic!() };
        let h = y.history.as_ref().unwrap();
        assert_eq!(
            h.selected_revision().unwrap().resource_version.to_string(),
            "3",
            "{:#?}",
            y.lines
        );
        // Many revisions, a small page: `n` to the last line keeps the page full.
        let h = y.watch.as_ref().unwrap().history.clone().unwrap();
        for rv in 4..44 {
            h.observe("configmaps", cm(rv, &format!("m{rv}")), false, 60 * rv as i64);
        }
        s.screens.layout.page_rows = 10;
        s.screens.layout.page_cols = 80;
        let Screen::Yaml(y) = s.top_mut() else { panic!() };
        y.refresh();
        y.search = "first observed".into();
        update(&mut s, Action::NextMatch);
        update(&mut s, Action::NextMatch);
        let Screen::Yaml(y) = s.top() else { panic!() };
        assert!(
            y.scroll + 10 <= y.lines.len(),
            "scroll {} of {} lines: the page is not full",
            y.scroll,
            y.lines.len()
        );
        let h = y.history.as_ref().unwrap();
        assert_eq!(h.selected_revision().unwrap().resource_version.to_string(), "1");
    }
}
