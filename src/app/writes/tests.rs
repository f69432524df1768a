//! Unit tests of marks, the confirmation dialog flows (default no, force asks twice,
//! protected contexts, bulk), the RBAC gate at the key press, and the read-only
//! enumeration of every action in every kind of view.

use std::sync::Arc;

use crate::keys::{KeyCode, KeyModifiers};

use crate::app::effect::{Effect, WriteOp};
use crate::app::input::on_key;
use crate::app::state::{Conn, ListState, Screen, Source, UiState};
use crate::app::update::update;
use crate::app::writes::model::{Field, Stage};
use crate::keys::{Action, KeyMode, KeyPress};
use crate::kube::builtin::BuiltinKind;
use crate::kube::client::ClusterInfo;
use crate::kube::key::ResourceKey;
use crate::kube::row::{Cell, Health, Row};
use crate::kube::store::{Slot, StoreWriter};
use crate::kube::write::delete::Propagation;
use crate::kube::write::Target;

fn row(name: &str, cells: Vec<Cell>) -> Row {
    Row {
        capacity: None,
        uses: None,
        origin: 0,
        namespace: Some(Arc::from("team-a")),
        name: name.into(),
        uid: format!("uid-{name}").into(),
        created: Some(0),
        labels: Arc::from(Vec::new()),
        cells: cells.into(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
    }
}

struct Fixture {
    state: UiState,
    writer: StoreWriter,
    _rx: tokio::sync::mpsc::UnboundedReceiver<crate::kube::store::StoreChanged>,
}

/// A connected state (context `ctx`) listing `kind` in team-a with rows `names`.
fn fixture(kind: BuiltinKind, names: &[&str], cells: Vec<Cell>, ctx: &str) -> Fixture {
    let key = ResourceKey::new(kind, Some("team-a"));
    let mut state = UiState::new(
        Screen::List(Box::new(ListState::new(key.clone(), None))),
        Some("team-a".into()),
        false,
    );
    state.take_effects();
    state.conn.context = Some(ctx.into());
    state.conn.status = Conn::Connected(ClusterInfo {
        context: ctx.into(),
        server: "https://127.0.0.1".into(),
        namespace: "team-a".into(),
        contexts: vec![ctx.into()],
    });
    let slot = Slot::new(key, 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let mut writer = StoreWriter::new(slot.clone(), tx);
    writer.init();
    for n in names {
        writer.init_apply(row(n, cells.clone()));
    }
    writer.init_done(Some("1".into()));
    writer.publish();
    let id = state.top_id();
    assert!(state.attach(id, crate::app::state::Feed::Rows(Source::fixed(slot))));
    crate::app::refresh_top::refresh_top(&mut state);
    Fixture {
        state,
        writer,
        _rx: rx,
    }
}

fn pods(names: &[&str]) -> Fixture {
    fixture(BuiltinKind::Pod, names, vec![Cell::Static("Running")], "dev")
}

fn key(s: &str) -> KeyPress {
    KeyPress::parse(s).unwrap()
}

fn press(state: &mut UiState, keys: &str) -> Vec<Effect> {
    let mut out = Vec::new();
    for k in keys.split_whitespace() {
        out.extend(on_key(state, key(k)));
    }
    out
}

fn typed(state: &mut UiState, text: &str) -> Vec<Effect> {
    let mut out = Vec::new();
    for c in text.chars() {
        out.extend(on_key(
            state,
            KeyPress {
                code: KeyCode::Char(c),
                mods: KeyModifiers::NONE,
            },
        ));
    }
    out
}

fn writes(effects: &[Effect]) -> Vec<WriteOp> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Write(w) => Some(w.op.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn marks_survive_filtering_and_updates_and_drop_with_their_object() {
    let mut f = pods(&["a", "b", "c", "d"]);
    press(&mut f.state, "space");
    let l = f.state.top_list().unwrap();
    assert!(l.marks.contains(&row("a", vec![])));
    assert_eq!(l.selected, 1, "space moves down");
    // A filter hides the mark's row; the mark stays.
    f.state.top_list_mut().unwrap().filter = "c".into();
    crate::app::refresh_top::refresh_top(&mut f.state);
    assert!(f.state.top_list().unwrap().marks.contains(&row("a", vec![])));
    f.state.top_list_mut().unwrap().filter.clear();
    // A live update of another row keeps it; the object going drops it.
    f.writer.apply(row("e", vec![Cell::Static("Pending")]));
    f.writer.publish();
    crate::app::refresh_top::refresh_top(&mut f.state);
    assert_eq!(f.state.top_list().unwrap().marks.len(), 1);
    f.writer.delete(&(Some(Arc::from("team-a")), "a".into()));
    f.writer.publish();
    crate::app::refresh_top::refresh_top(&mut f.state);
    assert!(f.state.top_list().unwrap().marks.is_empty());
}

#[test]
fn range_marks_from_the_last_mark_and_ctrl_backslash_clears() {
    let mut f = pods(&["a", "b", "c", "d"]);
    press(&mut f.state, "space j j ctrl-space");
    let l = f.state.top_list().unwrap();
    assert_eq!(
        l.marks
            .names()
            .iter()
            .map(|(_, n)| n.to_string())
            .collect::<Vec<_>>(),
        ["a", "b", "c", "d"]
    );
    // Terminals send ctrl-\ as ctrl-4.
    let ctrl4 = KeyPress::from_event(crate::keys::KeyEvent::new(
        KeyCode::Char('4'),
        KeyModifiers::CONTROL,
    ));
    on_key(&mut f.state, ctrl4);
    assert!(f.state.top_list().unwrap().marks.is_empty());
}

#[test]
fn delete_defaults_to_no_and_names_object_namespace_and_context() {
    let mut f = pods(&["web"]);
    assert!(press(&mut f.state, "ctrl-d").is_empty());
    let d = f.state.screens.overlays.dialog.as_ref().unwrap();
    assert_eq!(d.title, "delete pod/web?");
    assert!(!d.yes);
    assert_eq!(d.lines, ["pods: web", "namespace: team-a", "context: dev"]);
    // enter on the selected button: no.
    assert!(press(&mut f.state, "enter").is_empty());
    assert!(f.state.screens.overlays.dialog.is_none());
    assert_eq!(
        f.state.screens.footer.message.as_deref(),
        Some("cancelled: nothing was sent")
    );
    // Again, choosing foreground and a grace period, then yes.
    press(&mut f.state, "ctrl-d tab right tab");
    typed(&mut f.state, "5");
    let fx = press(&mut f.state, "y");
    let [WriteOp::Delete(t, o)] = &writes(&fx)[..] else {
        panic!("{fx:?}")
    };
    assert_eq!(
        (t[0].label(), o.propagation, o.grace_seconds, o.force),
        ("pod/web".into(), Propagation::Foreground, Some(5), false)
    );
    assert!(f
        .state
        .screens
        .footer
        .message
        .as_deref()
        .unwrap()
        .starts_with("delete pod/web in team-a (context dev)"));
}

#[test]
fn force_delete_warns_and_asks_twice() {
    let mut f = pods(&["web"]);
    press(&mut f.state, "ctrl-k");
    let d = f.state.screens.overlays.dialog.as_ref().unwrap();
    assert!(d
        .warning
        .as_deref()
        .unwrap()
        .contains("without waiting for the kubelet"));
    assert!(press(&mut f.state, "y").is_empty(), "the first yes asks again");
    let d = f.state.screens.overlays.dialog.as_ref().unwrap();
    assert_eq!((d.stage, d.yes), (Stage::Again, false));
    assert_eq!(d.title, "really force delete pod/web?");
    assert!(
        press(&mut f.state, "enter").is_empty(),
        "default no the second time too"
    );
    press(&mut f.state, "ctrl-k y");
    let fx = press(&mut f.state, "y");
    let [WriteOp::Delete(_, o)] = &writes(&fx)[..] else {
        panic!("{fx:?}")
    };
    assert!(o.force && o.grace() == Some(0));
    // The force choice in the plain dialog asks twice as well.
    press(&mut f.state, "ctrl-d tab tab tab space");
    assert!(press(&mut f.state, "y").is_empty());
    assert_eq!(writes(&press(&mut f.state, "y")).len(), 1);
}

#[test]
fn protected_context_needs_the_name_typed_and_bulk_the_count() {
    let mut f = fixture(
        BuiltinKind::Pod,
        &["web", "db", "cache"],
        vec![Cell::Static("Running")],
        "prod-eu",
    );
    f.state.settings.protected = vec![regex::Regex::new("prod").unwrap()];
    press(&mut f.state, "ctrl-d");
    assert_eq!(
        f.state
            .screens
            .overlays
            .dialog
            .as_ref()
            .unwrap()
            .require
            .as_deref(),
        Some("cache")
    );
    // `y` is typed, not a yes.
    assert!(typed(&mut f.state, "y").is_empty());
    assert!(press(&mut f.state, "enter").is_empty());
    let d = f.state.screens.overlays.dialog.as_ref().unwrap();
    assert_eq!(d.error.as_deref(), Some("type cache to confirm (esc cancels)"));
    press(&mut f.state, "backspace");
    typed(&mut f.state, "cache");
    assert_eq!(writes(&press(&mut f.state, "enter")).len(), 1);
    // Bulk: three marked pods, the count.
    press(&mut f.state, "g g space space space ctrl-d");
    let d = f.state.screens.overlays.dialog.as_ref().unwrap();
    assert_eq!(
        (d.title.as_str(), d.require.as_deref()),
        ("delete 3 pods?", Some("3"))
    );
    assert_eq!(d.lines[0], "pods: cache, db, web");
    typed(&mut f.state, "3");
    let fx = press(&mut f.state, "enter");
    let [WriteOp::Delete(t, _)] = &writes(&fx)[..] else {
        panic!("{fx:?}")
    };
    assert_eq!(t.len(), 3);
}

#[test]
fn scale_is_prefilled_and_kind_dependent_keys_pick_the_action() {
    let cells = vec![
        Cell::Text("1/3".into()),
        Cell::Int(3),
        Cell::Int(1),
        Cell::Age(Some(0)),
    ];
    let mut f = fixture(BuiltinKind::Deployment, &["web"], cells, "dev");
    press(&mut f.state, "s");
    let d = f.state.screens.overlays.dialog.as_ref().unwrap();
    assert_eq!(
        d.fields[0],
        Field::Number {
            label: "replicas",
            text: "3".into(),
            hint: ""
        }
    );
    press(&mut f.state, "backspace");
    typed(&mut f.state, "5");
    let fx = press(&mut f.state, "y");
    assert!(matches!(&writes(&fx)[..], [WriteOp::Scale(t, 5)] if t.label() == "deployment/web"));
    // `s` on a CronJob suspends it.
    let cj = vec![
        Cell::Static("*/5 * * * *"),
        Cell::Static("<none>"),
        Cell::Static("False"),
    ];
    let mut f = fixture(BuiltinKind::CronJob, &["backup"], cj, "dev");
    press(&mut f.state, "s");
    assert_eq!(
        f.state.screens.overlays.dialog.as_ref().unwrap().title,
        "suspend cronjob/backup?"
    );
    let fx = press(&mut f.state, "y");
    assert!(matches!(&writes(&fx)[..], [WriteOp::Suspend(_, true)]));
    // `s` on pods is not scale.
    let mut f = pods(&["web"]);
    press(&mut f.state, "s");
    assert!(f.state.screens.overlays.dialog.is_none());
}

#[test]
fn a_forbidden_action_is_not_offered_and_says_why_without_a_request() {
    let mut f = pods(&["web"]);
    let q = crate::app::writes::access::query(&f.state, Action::Delete).unwrap();
    assert_eq!(q.permission.to_string(), "delete pods in team-a");
    assert!(f.state.offers(Action::Delete));
    f.state
        .conn
        .access
        .answer(q, Ok(false), std::time::Instant::now());
    assert!(!f.state.offers(Action::Delete));
    assert!(f.state.applies(Action::Delete), "still dispatched, to say why");
    let fx = press(&mut f.state, "ctrl-d");
    assert!(fx.is_empty() && f.state.screens.overlays.dialog.is_none());
    assert_eq!(
        f.state.screens.footer.message.as_deref(),
        Some("forbidden: delete pods in team-a")
    );
}

mod streams;

mod readonly;

mod drain;

#[test]
fn a_page_that_grows_shows_a_full_page_not_rows_hidden_above() {
    let names: Vec<String> = (0..21).map(|i| format!("p{i:02}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut f = pods(&names);
    f.state.screens.layout.page_rows = 12;
    press(&mut f.state, "G");
    crate::app::refresh_top::refresh_top(&mut f.state);
    assert_eq!(f.state.top_list().unwrap().offset, 9);
    // The terminal grows: 40 rows fit; none stays hidden above an empty bottom.
    f.state.screens.layout.page_rows = 40;
    crate::app::refresh_top::refresh_top(&mut f.state);
    let l = f.state.top_list().unwrap();
    assert_eq!((l.offset, l.selected), (0, 20));
}
