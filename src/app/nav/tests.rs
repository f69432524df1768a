//! Unit tests of view navigation (src/app/nav.rs); they must not touch a cluster.

use super::*;
use crate::app::effect::Effect;
use crate::app::list::model::SortBy;
use crate::app::update::{run_command, update};
use crate::kube::builtin::BuiltinKind;

fn state() -> UiState {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("default"));
    let mut s = UiState::new(
        Screen::List(Box::new(ListState::new(key, None))),
        Some("default".into()),
        false,
    );
    s.take_effects();
    s
}

fn top(s: &UiState) -> (BuiltinKind, Option<String>) {
    let l = s.top_list().expect("a list on top");
    let kind = match &l.key.kind {
        crate::kube::kind::Kind::Builtin(b) => *b,
        other => panic!("{other:?}"),
    };
    (kind, l.key.namespace.as_deref().map(str::to_owned))
}

#[test]
fn esc_after_a_command_stays_and_brackets_walk_the_history() {
    let mut s = state();
    update(&mut s, Action::SortAge);
    run_command(&mut s, "deploy");
    assert_eq!(top(&s).0, BuiltinKind::Deployment);
    run_command(&mut s, "svc kube-system");
    assert_eq!(top(&s), (BuiltinKind::Service, Some("kube-system".into())));
    // esc on the view a `:` command opened: it stays (an extra esc from a k9s habit), and
    // says where `[` goes.
    let fx = update(&mut s, Action::Back);
    assert_eq!(
        top(&s).0,
        BuiltinKind::Service,
        "esc closes nothing on a base view"
    );
    assert!(fx.is_empty(), "{fx:?}");
    let said = s.screens.footer.message.clone().unwrap_or_default();
    assert!(said.contains("[ goes back"), "{said}");
    // `[`: back to the deployments, subscribed again under a new id.
    let fx = update(&mut s, Action::NavBack);
    assert_eq!(top(&s).0, BuiltinKind::Deployment);
    assert!(
        matches!(fx.as_slice(), [Effect::Unsubscribe(_), Effect::Subscribe(_, k)] if k.kind == BuiltinKind::Deployment)
    );
    update(&mut s, Action::NavBack);
    assert_eq!(top(&s), (BuiltinKind::Pod, Some("default".into())));
    assert_eq!(
        s.top_list().unwrap().sort,
        SortBy::Age,
        "the view comes back as it was left"
    );
    update(&mut s, Action::NavBack);
    assert_eq!(top(&s).0, BuiltinKind::Pod, "nothing earlier: stays");
    assert!(s
        .screens
        .footer
        .message
        .as_deref()
        .unwrap()
        .contains("no earlier view"));
    update(&mut s, Action::NavForward);
    assert_eq!(top(&s).0, BuiltinKind::Deployment);
    update(&mut s, Action::NavForward);
    assert_eq!(top(&s).0, BuiltinKind::Service);
    update(&mut s, Action::NavForward);
    assert!(s
        .screens
        .footer
        .message
        .as_deref()
        .unwrap()
        .contains("no later view"));
    // A new command forgets the places ahead.
    update(&mut s, Action::NavBack);
    run_command(&mut s, "cm");
    assert_eq!(s.screens.stack.nav.forward_len(), 0);
    assert_eq!(s.screens.stack.nav.back_len(), 2);
}

#[test]
fn brackets_bring_back_a_drill_down_and_esc_pops_it_keeping_the_stack_of_a_place() {
    let mut s = state();
    let key = ResourceKey::new(BuiltinKind::Pod, Some("data")).with_labels("app=db");
    s.push(Screen::List(Box::new(ListState::new(
        key,
        Some("deploy/db".into()),
    ))));
    run_command(&mut s, "informers");
    assert!(matches!(s.top(), Screen::Informers { .. }));
    update(&mut s, Action::NavBack);
    assert_eq!(s.depth(), 2, "the drill-down comes back over its list");
    assert_eq!(top(&s), (BuiltinKind::Pod, Some("data".into())));
    assert_eq!(
        s.shown_namespace().as_deref(),
        Some("data"),
        "the header shows the view's"
    );
    update(&mut s, Action::Back);
    assert_eq!(s.depth(), 1);
    assert_eq!(s.shown_namespace().as_deref(), Some("default"));
}

#[test]
fn a_namespace_typed_with_a_kind_is_for_that_view_only() {
    let mut s = state();
    run_command(&mut s, "pods all");
    assert_eq!(top(&s), (BuiltinKind::Pod, None));
    assert_eq!(s.shown_namespace().as_deref(), Some("all"));
    // The forbidden `all` does not follow the user to the next view.
    run_command(&mut s, "pods");
    assert_eq!(top(&s), (BuiltinKind::Pod, Some("default".into())));
    run_command(&mut s, "deploy team-a");
    run_command(&mut s, "svc");
    assert_eq!(top(&s), (BuiltinKind::Service, Some("default".into())));
    // `:ns` changes the session's namespace and reopens the kind there.
    run_command(&mut s, "ns team-b");
    assert_eq!(top(&s), (BuiltinKind::Service, Some("team-b".into())));
    run_command(&mut s, "cm");
    assert_eq!(top(&s), (BuiltinKind::ConfigMap, Some("team-b".into())));
    run_command(&mut s, "ns all");
    assert_eq!(top(&s), (BuiltinKind::ConfigMap, None));
    assert!(s.conn.explicit_all);
    // `:ns` alone still lists the namespaces.
    run_command(&mut s, "ns");
    assert_eq!(top(&s).0, BuiltinKind::Namespace);
}

#[test]
fn an_unconfigured_favourite_key_says_how_to_set_one() {
    let mut s = state();
    update(&mut s, Action::Favourite(3));
    let msg = s.screens.footer.message.clone().unwrap_or_default();
    assert!(
        msg.contains("no favourite namespace 3") && msg.contains("favourites"),
        "{msg}"
    );
    s.settings.favourites = vec!["a".into(), "b".into(), "c".into()];
    update(&mut s, Action::Favourite(3));
    assert_eq!(top(&s), (BuiltinKind::Pod, Some("c".into())));
    assert_eq!(s.screens.footer.message, None);
    update(&mut s, Action::Back);
    assert_eq!(top(&s), (BuiltinKind::Pod, Some("c".into())), "esc: stays");
    update(&mut s, Action::NavBack);
    assert_eq!(
        top(&s),
        (BuiltinKind::Pod, Some("default".into())),
        "[: back to before"
    );
}

#[test]
fn places_are_bounded() {
    let mut s = state();
    for i in 0..(MAX_PLACES + 20) {
        run_command(&mut s, &format!("pods ns-{i}"));
    }
    assert_eq!(s.screens.stack.nav.back_len(), MAX_PLACES);
}

#[test]
fn brackets_are_bound_and_context_switch_forgets() {
    let km = crate::keys::Keymap::defaults();
    let key = |c| crate::keys::KeyPress {
        code: crate::keys::KeyCode::Char(c),
        mods: crate::keys::KeyModifiers::NONE,
    };
    let mode = crate::keys::KeyMode::Normal;
    assert_eq!(
        km.lookup_where(mode, &[], key('['), |_| true),
        crate::keys::Lookup::Action(Action::NavBack)
    );
    assert_eq!(
        km.lookup_where(mode, &[], key(']'), |_| true),
        crate::keys::Lookup::Action(Action::NavForward)
    );
    let mut s = state();
    run_command(&mut s, "deploy");
    s.reset_for_context("other");
    assert_eq!(s.screens.stack.nav.back_len(), 0);
}

#[test]
fn a_word_that_cannot_be_a_namespace_is_refused_before_any_view_opens() {
    let mut s = state();
    for line in ["pods Bad_Name", "deploy -n UPPER", "ns -x", "svc -n a.b"] {
        run_command(&mut s, line);
        assert_eq!(top(&s), (BuiltinKind::Pod, Some("default".into())), "{line}");
        let msg = s.screens.footer.message.take().unwrap_or_default();
        assert!(msg.contains("is not a valid namespace name"), "{line}: {msg}");
        assert!(
            !s.take_effects()
                .iter()
                .any(|e| matches!(e, Effect::Subscribe(..))),
            "{line}"
        );
    }
    // Words that are not namespaces are left to their commands.
    run_command(&mut s, "logs web-.*");
    assert!(!s
        .screens
        .footer
        .message
        .as_deref()
        .unwrap_or_default()
        .contains("namespace name"));
}

#[test]
fn esc_clears_the_filter_then_the_marks_then_pops_and_stays_on_the_base() {
    let mut s = state();
    run_command(&mut s, "deploy");
    let l = s.top_list_mut().unwrap();
    l.filter = "web".into();
    l.marks.toggle(&crate::kube::row::Row {
        capacity: None,
        uses: None,
        origin: 0,
        namespace: None,
        name: "web".into(),
        uid: "u1".into(),
        created: None,
        labels: std::sync::Arc::from(Vec::new()),
        cells: Vec::new().into(),
        health: crate::kube::row::Health::Ok,
        drill: None,
        event: None,
        owner: None,
    });
    update(&mut s, Action::Back);
    assert!(s.top_list().unwrap().filter.is_empty(), "the filter first");
    assert!(
        !s.top_list().unwrap().marks.is_empty(),
        "marks kept by the first esc"
    );
    update(&mut s, Action::Back);
    assert!(s.top_list().unwrap().marks.is_empty(), "then the marks");
    assert_eq!(top(&s).0, BuiltinKind::Deployment);
    let key = ResourceKey::new(BuiltinKind::Pod, Some("data")).with_labels("app=db");
    s.push(Screen::List(Box::new(ListState::new(
        key,
        Some("deploy/db".into()),
    ))));
    update(&mut s, Action::Back);
    assert_eq!(top(&s).0, BuiltinKind::Deployment, "a drill-down pops");
    for _ in 0..3 {
        update(&mut s, Action::Back);
        assert_eq!(top(&s).0, BuiltinKind::Deployment, "the base stays");
    }
    // `enter` on a namespace is a drill-down: esc goes back to the namespaces.
    run_command(&mut s, "ns");
    open_drilled(
        &mut s,
        Screen::List(Box::new(ListState::new(
            ResourceKey::new(BuiltinKind::Pod, Some("data")),
            None,
        ))),
    );
    update(&mut s, Action::Back);
    assert_eq!(top(&s).0, BuiltinKind::Namespace);
    update(&mut s, Action::Back);
    assert_eq!(top(&s).0, BuiltinKind::Namespace, "and stays there");
}

#[test]
fn a_context_switch_keeps_the_kind_and_says_when_the_new_context_does_not_serve_it() {
    use crate::kube::registry::{Known, Registry};
    let mut s = state();
    s.conn.context = Some("a".into());
    run_command(&mut s, "deploy");
    s.reset_for_context("b");
    assert_eq!(top(&s).0, BuiltinKind::Deployment, ":ctx b from deployments");
    // Through the `:ctx` list: the kind of the view it replaced.
    run_command(&mut s, "no");
    s.conn.contexts = vec!["a".into(), "b".into()];
    run_command(&mut s, "ctx");
    assert!(matches!(s.top(), Screen::Contexts { .. }));
    s.reset_for_context("a");
    assert_eq!(top(&s), (BuiltinKind::Node, None));
    // The new context does not serve it: pods, and the footer says why.
    let served = Registry {
        kinds: vec![BuiltinKind::Pod.into()],
        known: Known::Discovered,
        ..Registry::builtins()
    };
    crate::app::discovered::adopt(&mut s, served.clone());
    assert_eq!(top(&s).0, BuiltinKind::Pod);
    let said = s.screens.footer.message.clone().unwrap_or_default();
    assert!(said.contains("not served in context a"), "{said}");
    // Served: it stays.
    s.conn.registry = std::sync::Arc::new(Registry::builtins());
    run_command(&mut s, "deploy");
    s.reset_for_context("b");
    let both = Registry {
        kinds: vec![BuiltinKind::Pod.into(), BuiltinKind::Deployment.into()],
        ..served
    };
    crate::app::discovered::adopt(&mut s, both);
    assert_eq!(top(&s).0, BuiltinKind::Deployment);
}
