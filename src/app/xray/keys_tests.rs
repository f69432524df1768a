//! Unit tests of the xray view's keys: every line acts as a list row of its object — `y`/`d`
//! (a container's pod), `l` and `s` on pods and containers, `enter` on a leaf — a missing
//! reference opens nothing, delete on an object's line asks like a row's (naming the context,
//! "no" selected), no other write is offered, and none at all in read-only mode.

use crate::app::effect::Effect;
use crate::app::feed::{Feed, Source};
use crate::app::state::{Screen, UiState};
use crate::app::update::update;
use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::logs::{ContainerPick, PodPick};
use crate::kube::store::{Slot, StoreWriter};

use super::model::XrayState;

/// `x` on pod shop/web-1-a of the tests' cluster: the pod expanded, every informer it asks
/// for attached.
fn state(readonly: bool) -> UiState {
    let snaps = super::tests::cluster();
    let x = XrayState::new(BuiltinKind::Pod, Some("shop".into()), Some("web-1-a".into()));
    let mut s = UiState::new(Screen::Xray(Box::new(x)), Some("shop".into()), readonly);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    for e in s.take_effects() {
        let Effect::Subscribe(id, key) = e else { continue };
        let slot = Slot::new(key.clone(), 1);
        let mut w = StoreWriter::new(slot.clone(), tx.clone());
        w.init();
        let kind = key.kind.builtin().unwrap();
        for r in snaps[&kind].rows.iter() {
            w.init_apply((**r).clone());
        }
        w.init_done(Some("1".into()));
        w.publish();
        assert!(s.attach(id, Feed::Rows(Source::fixed(slot))));
    }
    crate::app::refresh_top::refresh_top(&mut s);
    s
}

fn select(s: &mut UiState, name: &str) {
    let Screen::Xray(x) = s.top_mut() else {
        panic!("no xray view")
    };
    let i = x.lines.iter().position(|n| &*n.name == name).unwrap();
    x.move_by(i as i64 - x.selected as i64);
}

fn logs_target(s: &UiState) -> (PodPick, ContainerPick) {
    match s.top() {
        Screen::Logs(l) => (l.target.pods.clone(), l.target.containers.clone()),
        _ => panic!("no log view"),
    }
}

fn yaml_of(s: &UiState) -> (String, String, bool) {
    match s.top() {
        Screen::Yaml(y) => (y.key.kind.singular().to_owned(), y.name.clone(), y.describe),
        _ => panic!("no YAML view"),
    }
}

#[test]
fn pods_and_containers_open_logs_yaml_and_shells_like_their_rows() {
    let mut s = state(false);
    select(&mut s, "web-1-a");
    update(&mut s, Action::Logs);
    assert_eq!(
        logs_target(&s),
        (PodPick::Named("web-1-a".into()), ContainerPick::Default)
    );
    update(&mut s, Action::Back);
    select(&mut s, "proxy");
    update(&mut s, Action::Logs);
    assert_eq!(
        logs_target(&s),
        (
            PodPick::Named("web-1-a".into()),
            ContainerPick::Named("proxy".into())
        )
    );
    update(&mut s, Action::Back);
    update(&mut s, Action::Describe);
    assert_eq!(
        yaml_of(&s),
        ("pod".into(), "web-1-a".into(), true),
        "a container's object is its pod"
    );
    update(&mut s, Action::Back);
    let fx = update(&mut s, Action::Shell);
    let target = fx.iter().find_map(|e| match e {
        Effect::PrepareSession(r) => Some(r.target.clone()),
        _ => None,
    });
    let target = target.expect("a session is prepared");
    assert_eq!(
        (target.pod.as_str(), target.container.as_deref()),
        ("web-1-a", Some("proxy"))
    );
    // `enter` on a leaf object: its YAML.
    select(&mut s, "app-config");
    update(&mut s, Action::Enter);
    assert_eq!(yaml_of(&s), ("configmap".into(), "app-config".into(), false));
}

#[test]
fn a_missing_reference_opens_nothing_and_no_write_is_offered() {
    let mut s = state(false);
    select(&mut s, "flags");
    assert!(!s.applies(Action::Yaml) && !s.applies(Action::Describe));
    assert!(update(&mut s, Action::Yaml).is_empty());
    assert!(matches!(s.top(), Screen::Xray(_)));
    select(&mut s, "web-1-a");
    for a in [Action::Edit, Action::Scale, Action::Restart, Action::Mark] {
        assert!(!s.applies(a), "{a:?}");
    }
    assert!(s.applies(Action::Shell) && s.applies(Action::Logs));
    let mut ro = state(true);
    select(&mut ro, "web-1-a");
    assert!(
        !ro.applies(Action::Shell) && !ro.applies(Action::Attach),
        "read-only: no shell"
    );
    assert!(ro.applies(Action::Logs) && ro.applies(Action::Yaml));
    assert!(update(&mut ro, Action::Shell).is_empty());
}

#[test]
fn delete_on_an_objects_line_asks_like_a_row_and_read_only_has_none() {
    let mut s = state(false);
    s.conn.context = Some("prod-eu".into());
    select(&mut s, "app-config");
    assert!(s.applies(Action::Delete));
    assert!(
        update(&mut s, Action::Delete).is_empty(),
        "nothing is sent before the answer"
    );
    let d = s.screens.overlays.dialog.as_deref().expect("the delete dialog");
    assert_eq!(d.context, "prod-eu");
    assert!(
        d.title.contains("delete") && d.title.contains("app-config"),
        "{}",
        d.title
    );
    assert!(!d.yes, "no is selected");
    // A container's line and a missing reference delete nothing.
    s.screens.overlays.dialog = None;
    select(&mut s, "flags");
    assert!(!s.applies(Action::Delete));
    let mut ro = state(true);
    select(&mut ro, "app-config");
    assert!(!ro.applies(Action::Delete) && !ro.applies(Action::ForceDelete));
    assert!(update(&mut ro, Action::Delete).is_empty());
    assert!(ro.screens.overlays.dialog.is_none());
}
