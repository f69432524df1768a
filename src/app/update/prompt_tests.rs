//! The prompt's line editing through `update`, as the keys reach it.

use super::*;
use crate::app::effect::Effect;
use crate::app::state::{Prompt, Screen, UiState};

fn state() -> UiState {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("default"));
    UiState::new(
        Screen::List(Box::new(ListState::new(key, None))),
        Some("default".into()),
        false,
    )
}

fn typed(state: &mut UiState, s: &str) {
    for c in s.chars() {
        type_char(state, c);
    }
}

fn text(state: &UiState) -> String {
    match &state.screens.prompt.open {
        Some(Prompt::Command(s) | Prompt::Filter(s)) => s.clone(),
        _ => String::from("<closed>"),
    }
}

#[test]
fn left_moves_the_cursor_and_typing_inserts_there() {
    let mut s = state();
    update(&mut s, Action::CommandMode);
    typed(&mut s, "cm");
    update(&mut s, Action::CursorLeft);
    update(&mut s, Action::CursorLeft);
    typed(&mut s, "x");
    assert_eq!(text(&s), "xcm");
    update(&mut s, Action::CursorEnd);
    update(&mut s, Action::Backspace);
    assert_eq!(text(&s), "xc");
    update(&mut s, Action::CursorHome);
    update(&mut s, Action::CursorRight);
    update(&mut s, Action::Backspace);
    assert_eq!(text(&s), "c");
    update(&mut s, Action::Cancel);
    // A new prompt starts empty with the cursor at the end.
    update(&mut s, Action::CommandMode);
    typed(&mut s, "po");
    assert_eq!(text(&s), "po");
    assert_eq!(s.screens.prompt.cursor, None);
}

#[test]
fn word_keys_and_kills_in_the_filter_apply_at_once() {
    let mut s = state();
    update(&mut s, Action::FilterMode);
    typed(&mut s, "web -l app=web");
    update(&mut s, Action::KillWord);
    assert_eq!(text(&s), "web -l ");
    update(&mut s, Action::KillWord);
    assert_eq!(text(&s), "web ");
    assert_eq!(s.top_list().map(|l| l.filter.clone()), Some("web ".into()));
    update(&mut s, Action::WordLeft);
    typed(&mut s, "'");
    assert_eq!(text(&s), "'web ");
    update(&mut s, Action::WordRight);
    update(&mut s, Action::KillToStart);
    assert_eq!(text(&s), " ");
    assert_eq!(s.top_list().map(|l| l.filter.clone()), Some(" ".into()));
}

#[test]
fn pasted_bidi_overrides_never_reach_the_prompt() {
    let mut s = state();
    update(&mut s, Action::FilterMode);
    typed(&mut s, "we\u{202e}b\u{200b}");
    assert_eq!(text(&s), "web");
}

#[test]
fn exec_lines_are_never_kept_in_the_prompt_history() {
    let mut s = state();
    update(&mut s, Action::CommandMode);
    typed(&mut s, "exec pod/db -- mysql -pSECRET");
    let fx = update(&mut s, Action::Submit);
    assert!(!fx.iter().any(|e| matches!(e, Effect::SaveHistory(_))), "{fx:?}");
    update(&mut s, Action::CommandMode);
    update(&mut s, Action::HistoryOlder);
    assert_eq!(text(&s), "");
}

#[test]
fn up_and_down_recall_each_prompts_own_history_and_submits_save_it() {
    let mut s = state();
    update(&mut s, Action::FilterMode);
    typed(&mut s, "web");
    let fx = update(&mut s, Action::Submit);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::SaveHistory(t) if t == "f web\n")),
        "{fx:?}"
    );
    update(&mut s, Action::CommandMode);
    typed(&mut s, "ns");
    update(&mut s, Action::Submit);
    update(&mut s, Action::CommandMode);
    typed(&mut s, "dep");
    update(&mut s, Action::HistoryOlder);
    assert_eq!(text(&s), "ns", "the command history, not the filter's");
    update(&mut s, Action::HistoryOlder);
    assert_eq!(text(&s), "ns", "at the oldest it stays");
    update(&mut s, Action::HistoryNewer);
    assert_eq!(text(&s), "dep", "below the newest: what was typed");
    update(&mut s, Action::Cancel);
    update(&mut s, Action::FilterMode);
    update(&mut s, Action::HistoryOlder);
    assert_eq!(text(&s), "web");
    assert_eq!(s.top_list().map(|l| l.filter.clone()), Some("web".into()));
}
