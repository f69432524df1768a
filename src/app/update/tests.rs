use super::*;
use crate::app::state::{Prompt, Screen, SortBy, UiState};
use crate::kube::kind::BuiltinKind;

fn state() -> UiState {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("default"));
    UiState::new(
        Screen::List(Box::new(ListView::new(key, None))),
        Some("default".into()),
        false,
    )
}

fn typed(state: &mut UiState, s: &str) {
    for c in s.chars() {
        type_char(state, c);
    }
}

#[test]
fn command_switches_kind_by_short_name_and_keeps_namespace() {
    let mut s = state();
    update(&mut s, Action::CommandMode);
    typed(&mut s, "deploy");
    update(&mut s, Action::Submit);
    assert!(s.prompt.is_none());
    let l = s.top_list().unwrap();
    assert_eq!(l.key.kind, BuiltinKind::Deployment);
    assert_eq!(l.key.namespace.as_deref(), Some("default"));
}

#[test]
fn command_with_namespace_and_all() {
    let mut s = state();
    run_command(&mut s, "svc kube-system");
    assert_eq!(
        s.top_list().unwrap().key.namespace.as_deref(),
        Some("kube-system")
    );
    run_command(&mut s, "po -A");
    assert_eq!(s.top_list().unwrap().key.namespace, None);
    assert!(s.explicit_all);
    run_command(&mut s, "no");
    assert_eq!(s.top_list().unwrap().key.kind, BuiltinKind::Node);
}

#[test]
fn unknown_command_says_so() {
    let mut s = state();
    run_command(&mut s, "gizmos");
    assert_eq!(s.message.as_deref(), Some("unknown command or kind: gizmos"));
    assert_eq!(s.top_list().unwrap().key.kind, BuiltinKind::Pod);
}

#[test]
fn quit_commands() {
    for q in ["q", "quit", "q!"] {
        let mut s = state();
        run_command(&mut s, q);
        assert_eq!(s.quit, Some(0), "{q}");
    }
}

#[test]
fn informers_view() {
    let mut s = state();
    run_command(&mut s, "watches");
    assert!(matches!(s.top(), Screen::Informers { .. }));
}

#[test]
fn filter_applies_live_and_esc_clears_then_goes_back() {
    let mut s = state();
    s.stack.push(Screen::List(Box::new(ListView::new(
        ResourceKey::new(BuiltinKind::Pod, None),
        Some("x".into()),
    ))));
    update(&mut s, Action::FilterMode);
    typed(&mut s, "web");
    assert_eq!(s.top_list().unwrap().filter, "web");
    update(&mut s, Action::Backspace);
    assert_eq!(s.top_list().unwrap().filter, "we");
    update(&mut s, Action::Submit);
    assert!(s.prompt.is_none());
    assert_eq!(s.top_list().unwrap().filter, "we");
    update(&mut s, Action::Back);
    assert_eq!(s.top_list().unwrap().filter, "");
    assert_eq!(s.stack.len(), 2);
    update(&mut s, Action::Back);
    assert_eq!(s.stack.len(), 1);
    update(&mut s, Action::Back);
    assert_eq!(s.stack.len(), 1, "the last view stays");
}

#[test]
fn esc_in_filter_prompt_cancels_the_filter() {
    let mut s = state();
    update(&mut s, Action::FilterMode);
    typed(&mut s, "abc");
    update(&mut s, Action::Cancel);
    assert!(s.prompt.is_none());
    assert_eq!(s.top_list().unwrap().filter, "");
}

#[test]
fn sort_keys_toggle_direction() {
    let mut s = state();
    update(&mut s, Action::SortAge);
    assert_eq!(
        (s.top_list().unwrap().sort, s.top_list().unwrap().reverse),
        (SortBy::Age, false)
    );
    update(&mut s, Action::SortAge);
    assert_eq!(
        (s.top_list().unwrap().sort, s.top_list().unwrap().reverse),
        (SortBy::Age, true)
    );
    update(&mut s, Action::SortStatus);
    assert_eq!(
        (s.top_list().unwrap().sort, s.top_list().unwrap().reverse),
        (SortBy::Status, false)
    );
}

#[test]
fn tab_completes_kind_names() {
    let mut s = state();
    update(&mut s, Action::CommandMode);
    typed(&mut s, "dep");
    update(&mut s, Action::Complete);
    assert_eq!(s.prompt, Some(Prompt::Command("deployments".into())));
}

#[test]
fn help_opens_and_any_key_closes_it() {
    let mut s = state();
    update(&mut s, Action::Help);
    assert!(s.help);
    update(&mut s, Action::Down);
    assert!(!s.help);
}
