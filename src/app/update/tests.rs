//! Unit tests of key dispatch (src/app/update.rs); they must not touch a cluster.

use super::*;
use crate::app::effect::Effect;
use crate::app::state::{Prompt, Screen, SortBy, UiState};

use super::discovery_tests::{discovered, gizmos};
use crate::kube::builtin::BuiltinKind;

pub(super) fn state() -> UiState {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("default"));
    UiState::new(
        Screen::List(Box::new(ListState::new(key, None))),
        Some("default".into()),
        false,
    )
}

pub(super) fn typed(state: &mut UiState, s: &str) {
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
    assert!(s.screens.prompt.open.is_none());
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
    assert!(!s.conn.explicit_all, "for this view only");
    run_command(&mut s, "no");
    assert_eq!(s.top_list().unwrap().key.kind, BuiltinKind::Node);
}

#[test]
fn quit_commands() {
    for q in ["q", "quit", "q!"] {
        let mut s = state();
        let effects = run_command(&mut s, q);
        assert_eq!(effects.last(), Some(&Effect::Quit(0)), "{q}");
    }
}

#[test]
fn informers_view() {
    let mut s = state();
    run_command(&mut s, "watches");
    assert!(matches!(s.top(), Screen::Informers { .. }));
    // Moving never overflows, with or without rows.
    for a in [Action::Down, Action::Bottom, Action::Up, Action::PageDown] {
        update(&mut s, a);
    }
    s.screens.layout.informers_len = 3;
    update(&mut s, Action::Bottom);
    update(&mut s, Action::Up);
    assert!(matches!(s.top(), Screen::Informers { selected: 1 }));
}

#[test]
fn filter_applies_live_and_esc_clears_then_goes_back() {
    let mut s = state();
    s.push(Screen::List(Box::new(ListState::new(
        ResourceKey::new(BuiltinKind::Pod, None),
        Some("x".into()),
    ))));
    update(&mut s, Action::FilterMode);
    typed(&mut s, "web");
    assert_eq!(s.top_list().unwrap().filter, "web");
    update(&mut s, Action::Backspace);
    assert_eq!(s.top_list().unwrap().filter, "we");
    update(&mut s, Action::Submit);
    assert!(s.screens.prompt.open.is_none());
    assert_eq!(s.top_list().unwrap().filter, "we");
    update(&mut s, Action::Back);
    assert_eq!(s.top_list().unwrap().filter, "");
    assert_eq!(s.depth(), 2);
    update(&mut s, Action::Back);
    assert_eq!(s.depth(), 1);
    update(&mut s, Action::Back);
    assert_eq!(s.depth(), 1, "the last view stays");
}

#[test]
fn esc_in_filter_prompt_cancels_the_filter() {
    let mut s = state();
    update(&mut s, Action::FilterMode);
    typed(&mut s, "abc");
    update(&mut s, Action::Cancel);
    assert!(s.screens.prompt.open.is_none());
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
    assert_eq!(s.screens.prompt.open, Some(Prompt::Command("deploy".into())));
    assert_eq!(
        s.screens.footer.message.as_deref(),
        Some("deploy  deployments  deployments.apps")
    );
    typed(&mut s, "ments.");
    update(&mut s, Action::Complete);
    assert_eq!(
        s.screens.prompt.open,
        Some(Prompt::Command("deployments.apps ".into()))
    );
    let mut s = state();
    crate::app::discovered::adopt(&mut s, discovered(vec![gizmos(&[])]));
    update(&mut s, Action::CommandMode);
    typed(&mut s, "giz");
    update(&mut s, Action::Complete);
    assert_eq!(s.screens.prompt.open, Some(Prompt::Command("gizmos".into())));
    typed(&mut s, ".");
    update(&mut s, Action::Complete);
    assert_eq!(
        s.screens.prompt.open,
        Some(Prompt::Command("gizmos.demo.ktui.dev ".into()))
    );
}

#[test]
fn tab_completes_context_names() {
    let mut s = state();
    s.conn.contexts = vec!["prod-eu".into(), "prod-us".into(), "Staging".into()];
    update(&mut s, Action::CommandMode);
    typed(&mut s, "ctx pr");
    update(&mut s, Action::Complete);
    assert_eq!(s.screens.prompt.open, Some(Prompt::Command("ctx prod-".into())));
    assert_eq!(s.screens.footer.message.as_deref(), Some("prod-eu  prod-us"));
    typed(&mut s, "u");
    update(&mut s, Action::Complete);
    assert_eq!(
        s.screens.prompt.open,
        Some(Prompt::Command("ctx prod-us ".into()))
    );
    update(&mut s, Action::Cancel);
    update(&mut s, Action::CommandMode);
    typed(&mut s, "ctx S");
    update(&mut s, Action::Complete);
    assert_eq!(
        s.screens.prompt.open,
        Some(Prompt::Command("ctx Staging ".into()))
    );
}

#[test]
fn help_opens_scrolls_and_closes_with_esc_or_question_mark() {
    let mut s = state();
    s.screens.layout.page_rows = 5;
    update(&mut s, Action::Help);
    assert!(s.screens.overlays.help);
    update(&mut s, Action::Down);
    assert!(s.screens.overlays.help, "scrolling keys scroll the help");
    assert_eq!(s.screens.overlays.help_view.scroll, 1);
    update(&mut s, Action::Back);
    assert!(!s.screens.overlays.help);
    update(&mut s, Action::Help);
    update(&mut s, Action::Help);
    assert!(!s.screens.overlays.help, "? again closes it");
}

#[test]
fn yaml_search_scrolls_to_the_match_but_not_past_the_last_page() {
    let key = ResourceKey::new(BuiltinKind::ConfigMap, Some("default"));
    let mut y = crate::app::detail::model::DetailState::new(key, "settings");
    y.lines = (0..60).map(|i| format!("  key{i}: v")).collect();
    y.lines[10] = "  mode: blue".into();
    y.lines[55] = "  mode: red".into();
    let mut s = state();
    s.screens.layout.page_rows = 20;
    s.push(Screen::Yaml(Box::new(y)));
    update(&mut s, Action::FilterMode);
    typed(&mut s, "mode");
    assert_eq!(s.screens.footer.message, None);
    assert!(matches!(s.top(), Screen::Yaml(y) if y.scroll == 10));
    update(&mut s, Action::Submit);
    update(&mut s, Action::NextMatch);
    assert!(
        matches!(s.top(), Screen::Yaml(y) if y.scroll == 40),
        "line 55 is on the last page, which starts at 40"
    );
    update(&mut s, Action::FilterMode);
    typed(&mut s, "x");
    assert_eq!(s.screens.footer.message.as_deref(), Some("no match"));
}

#[test]
fn detail_views_page_to_a_full_last_page_and_scroll_sideways_or_wrap() {
    let key = ResourceKey::new(BuiltinKind::ConfigMap, Some("default"));
    let mut y = crate::app::detail::model::DetailState::new(key, "settings");
    y.lines = (0..30).map(|i| format!("line {i}")).collect();
    y.lines[3] = format!("  long: {}", "x".repeat(100));
    let mut s = state();
    s.screens.layout.page_rows = 10;
    s.screens.layout.page_cols = 40;
    s.push(Screen::Yaml(Box::new(y)));
    let yaml = |s: &UiState| match s.top() {
        Screen::Yaml(y) => (y.scroll, y.hscroll, y.wrap),
        _ => panic!("yaml on top"),
    };
    update(&mut s, Action::Bottom);
    assert_eq!(yaml(&s).0, 20, "G shows the last page, not the last line alone");
    update(&mut s, Action::PageDown);
    assert_eq!(yaml(&s).0, 20);
    update(&mut s, Action::Up);
    assert_eq!(yaml(&s).0, 19);
    for _ in 0..20 {
        update(&mut s, Action::ScrollRight);
    }
    assert_eq!(yaml(&s).1, 108 - 40, "stops where the widest line's end shows");
    update(&mut s, Action::ScrollLeft);
    assert_eq!(yaml(&s).1, 108 - 40 - 8);
    update(&mut s, Action::Wrap);
    assert_eq!(yaml(&s), (19, 0, true));
    update(&mut s, Action::Top);
    update(&mut s, Action::Bottom);
    assert_eq!(yaml(&s).0, 20, "the long line is above the last page");
    assert!(s.applies(Action::Wrap) && s.applies(Action::ScrollRight));
}

#[test]
fn command_arguments_in_any_order() {
    let mut s = state();
    run_command(&mut s, "po shop -l app=web");
    let l = s.top_list().unwrap();
    assert_eq!(
        (l.key.namespace.as_deref(), l.key.labels.as_deref()),
        (Some("shop"), Some("app=web"))
    );
    run_command(&mut s, "po -A -l tier=db");
    let l = s.top_list().unwrap();
    assert_eq!(
        (l.key.namespace.as_deref(), l.key.labels.as_deref()),
        (None, Some("tier=db"))
    );
    run_command(&mut s, "deploy -n kube-system");
    assert_eq!(
        s.top_list().unwrap().key.namespace.as_deref(),
        Some("kube-system")
    );
    run_command(&mut s, "po shop junk");
    assert_eq!(
        s.screens.footer.message.as_deref(),
        Some("po: unexpected \"junk\"")
    );
    run_command(&mut s, "po -l");
    assert_eq!(s.screens.footer.message.as_deref(), Some("po: -l needs a value"));
}

#[test]
fn logs_command_reads_the_views_namespace_and_refuses_all_namespaces() {
    use crate::kube::logs::PodPick;
    let logs_target = |s: &UiState| match s.top() {
        Screen::Logs(v) => Some((v.target.namespace.clone(), v.target.pods.clone())),
        _ => None,
    };
    let mut s = state();
    run_command(&mut s, "pods shop");
    run_command(&mut s, "logs ^web-");
    assert_eq!(
        logs_target(&s),
        Some(("shop".into(), PodPick::Regex("^web-".into()))),
        "the view's namespace, not the session's"
    );
    let mut s = state();
    run_command(&mut s, "pods -A");
    run_command(&mut s, "logs -l app=web");
    assert_eq!(logs_target(&s), None, "no silent default namespace");
    assert!(s
        .screens
        .footer
        .message
        .as_deref()
        .is_some_and(|m| m.contains("spans one namespace")));
    run_command(&mut s, "logs (");
    assert_eq!(logs_target(&s), None);
}

#[test]
fn after_g_a_detail_view_stays_on_its_last_page_as_the_text_grows_until_moved_up() {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("default"));
    let mut y = crate::app::detail::model::DetailState::new(key, "web");
    y.lines = (0..30).map(|i| format!("line {i}")).collect();
    let mut s = state();
    s.screens.layout.page_rows = 10;
    s.screens.layout.page_cols = 40;
    s.push(Screen::Yaml(Box::new(y)));
    let grow = |s: &mut UiState, n: usize| {
        if let Screen::Yaml(y) = s.top_mut() {
            y.lines.extend((0..n).map(|i| format!("event {i}")));
        }
        crate::app::refresh_top::refresh_top(s);
    };
    let scroll = |s: &UiState| match s.top() {
        Screen::Yaml(y) => y.scroll,
        _ => panic!("yaml on top"),
    };
    update(&mut s, Action::Bottom);
    assert_eq!(scroll(&s), 20);
    grow(&mut s, 5);
    assert_eq!(scroll(&s), 25, "follows the new end");
    update(&mut s, Action::Down);
    grow(&mut s, 5);
    assert_eq!(scroll(&s), 30, "down at the end keeps following");
    update(&mut s, Action::Up);
    grow(&mut s, 5);
    assert_eq!(scroll(&s), 29, "moving up lets go");
}
