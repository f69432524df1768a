//! Unit tests of marks, the confirmation dialog flows (default no, force asks twice,
//! protected contexts, bulk), the RBAC gate at the key press, and the read-only
//! enumeration of every action in every kind of view.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyModifiers};

use crate::app::dialog::{Field, Stage};
use crate::app::effect::{Effect, WriteOp};
use crate::app::input::on_key;
use crate::app::state::{Conn, ListState, Screen, Source, UiState};
use crate::app::update::update;
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
    assert!(l.marks.contains("uid-a"));
    assert_eq!(l.selected, 1, "space moves down");
    // A filter hides the mark's row; the mark stays.
    f.state.top_list_mut().unwrap().filter = "c".into();
    crate::app::refresh_top::refresh_top(&mut f.state);
    assert!(f.state.top_list().unwrap().marks.contains("uid-a"));
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
    let ctrl4 = KeyPress::from_event(crossterm::event::KeyEvent::new(
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
    let d = f.state.screens.dialog.as_ref().unwrap();
    assert_eq!(d.title, "delete pod/web?");
    assert!(!d.yes);
    assert_eq!(d.lines, ["pods: web", "namespace: team-a", "context: dev"]);
    // enter on the selected button: no.
    assert!(press(&mut f.state, "enter").is_empty());
    assert!(f.state.screens.dialog.is_none());
    assert_eq!(
        f.state.screens.message.as_deref(),
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
        .message
        .as_deref()
        .unwrap()
        .starts_with("delete pod/web in team-a (context dev)"));
}

#[test]
fn force_delete_warns_and_asks_twice() {
    let mut f = pods(&["web"]);
    press(&mut f.state, "ctrl-k");
    let d = f.state.screens.dialog.as_ref().unwrap();
    assert!(d
        .warning
        .as_deref()
        .unwrap()
        .contains("without waiting for the kubelet"));
    assert!(press(&mut f.state, "y").is_empty(), "the first yes asks again");
    let d = f.state.screens.dialog.as_ref().unwrap();
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
        f.state.screens.dialog.as_ref().unwrap().require.as_deref(),
        Some("cache")
    );
    // `y` is typed, not a yes.
    assert!(typed(&mut f.state, "y").is_empty());
    assert!(press(&mut f.state, "enter").is_empty());
    let d = f.state.screens.dialog.as_ref().unwrap();
    assert_eq!(d.error.as_deref(), Some("type cache to confirm (esc cancels)"));
    press(&mut f.state, "backspace");
    typed(&mut f.state, "cache");
    assert_eq!(writes(&press(&mut f.state, "enter")).len(), 1);
    // Bulk: three marked pods, the count.
    press(&mut f.state, "g g space space space ctrl-d");
    let d = f.state.screens.dialog.as_ref().unwrap();
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
    let d = f.state.screens.dialog.as_ref().unwrap();
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
        f.state.screens.dialog.as_ref().unwrap().title,
        "suspend cronjob/backup?"
    );
    let fx = press(&mut f.state, "y");
    assert!(matches!(&writes(&fx)[..], [WriteOp::Suspend(_, true)]));
    // `s` on pods is not scale.
    let mut f = pods(&["web"]);
    press(&mut f.state, "s");
    assert!(f.state.screens.dialog.is_none());
}

#[test]
fn a_forbidden_action_is_not_offered_and_says_why_without_a_request() {
    let mut f = pods(&["web"]);
    let q = crate::app::access::query(&f.state, Action::Delete).unwrap();
    assert_eq!(q.permission.to_string(), "delete pods in team-a");
    assert!(f.state.offers(Action::Delete));
    f.state
        .conn
        .access
        .answer(q, Ok(false), std::time::Instant::now());
    assert!(!f.state.offers(Action::Delete));
    assert!(f.state.applies(Action::Delete), "still dispatched, to say why");
    let fx = press(&mut f.state, "ctrl-d");
    assert!(fx.is_empty() && f.state.screens.dialog.is_none());
    assert_eq!(
        f.state.screens.message.as_deref(),
        Some("forbidden: delete pods in team-a")
    );
}

#[test]
fn forbidden_shell_attach_and_port_forward_say_why_and_send_nothing() {
    let mut f = pods(&["web"]);
    for (action, key, says) in [
        (Action::Shell, "s", "forbidden: create pods/exec in team-a"),
        (Action::Attach, "a", "forbidden: create pods/attach in team-a"),
        (
            Action::PortForward,
            "F",
            "forbidden: create pods/portforward in team-a",
        ),
    ] {
        let q = crate::app::access::query(&f.state, action).unwrap();
        assert!(f.state.offers(action));
        f.state
            .conn
            .access
            .answer(q, Ok(false), std::time::Instant::now());
        assert!(!f.state.offers(action), "{action:?} not offered");
        let fx = press(&mut f.state, key);
        assert!(fx.is_empty(), "{action:?}: nothing sent, got {fx:?}");
        assert_eq!(f.state.screens.message.as_deref(), Some(says));
    }
}

#[test]
fn without_a_shell_the_prompt_offers_to_run_a_command() {
    use crate::app::session::{prepared, Prepared, SessionRequest};
    use crate::kube::exec::{ExecTarget, Resolved, SessionKind, ShellSearch};
    let mut f = pods(&["web"]);
    let target = ExecTarget {
        namespace: "team-a".into(),
        pod: "web".into(),
        container: None,
    };
    let resolved = Resolved {
        container: "app".into(),
        windows: false,
        tty: false,
    };
    let fx = prepared(
        &mut f.state,
        Prepared {
            request: SessionRequest {
                target: target.clone(),
                kind: SessionKind::Shell,
            },
            found: Ok((resolved, Some(ShellSearch::None(vec!["bash", "ash", "sh"])))),
        },
    );
    assert!(fx.is_empty());
    assert_eq!(
        f.state.screens.message.as_deref(),
        Some(
            "no shell in container app of pod/web (tried bash, ash, sh): run a command… (type it after --), \
             or for a debug container: debug pod/web -n team-a -c app --image busybox:1.36"
        )
    );
    typed(&mut f.state, "/busybox ls -l");
    let fx = press(&mut f.state, "enter");
    let req = fx
        .iter()
        .find_map(|e| match e {
            Effect::PrepareSession(r) => Some(r),
            _ => None,
        })
        .expect("the command runs");
    assert_eq!(
        req.kind,
        SessionKind::Command(vec!["/busybox".into(), "ls".into(), "-l".into()])
    );
    assert_eq!(req.target.container.as_deref(), Some("app"));
    // Typed in read-only mode, nothing runs.
    f.state.settings.readonly = true;
    crate::app::command::run(&mut f.state, "exec pod/web -- ls", false);
    assert!(f.state.take_effects().is_empty());
    assert_eq!(
        f.state.screens.message.as_deref(),
        Some("exec: read-only: nothing was run")
    );
}

#[test]
fn a_typed_port_forward_starts_nothing_in_read_only_mode() {
    let mut f = pods(&["web"]);
    crate::app::command::run(&mut f.state, "pf pod/web -n team-a 8080:80", false);
    let fx = f.state.take_effects();
    assert!(fx.iter().any(|e| matches!(e, Effect::StartForward(_))), "{fx:?}");
    f.state.settings.readonly = true;
    crate::app::command::run(&mut f.state, "pf pod/web -n team-a 8080:80", false);
    let fx = f.state.take_effects();
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(
        f.state.screens.message.as_deref(),
        Some("read-only: port-forwards are off; nothing was started")
    );
    // Listing them is no write.
    crate::app::command::run(&mut f.state, "pf", false);
    assert!(matches!(f.state.top(), Screen::Forwards { .. }));
}

#[test]
fn the_gate_asks_once_per_ttl_for_what_the_view_offers() {
    let mut f = pods(&["web"]);
    let now = std::time::Instant::now();
    let asked = crate::app::access::wanted(&mut f.state, now);
    let perms: Vec<String> = asked.iter().map(|q| q.permission.to_string()).collect();
    assert_eq!(
        perms,
        [
            "delete pods in team-a",
            "update pods in team-a",
            "create pods/exec in team-a",
            "create pods/attach in team-a",
            "create pods/portforward in team-a"
        ]
    );
    assert!(crate::app::access::wanted(&mut f.state, now).is_empty());
}

type Build = Box<dyn Fn() -> UiState>;

fn on_pods(screen: impl Fn() -> Screen + 'static) -> Build {
    Box::new(move || {
        let mut st = pods(&["x"]).state;
        st.push(screen());
        st.take_effects();
        st
    })
}

/// Every kind of view (a list of every built-in kind with a selected row, and every other
/// `Screen` variant, the describe flavour of the detail view too), as builders. The match
/// below has no catch-all: a new `Screen` variant fails to compile here until it joins.
fn every_screen() -> Vec<(String, Build)> {
    let mut out: Vec<(String, Build)> = Vec::new();
    for kind in BuiltinKind::ALL {
        let build: Build =
            Box::new(move || fixture(kind, &["x"], vec![Cell::Static("Running")], "dev").state);
        out.push((format!("list of {kind}"), build));
    }
    let detail = |describe: bool| {
        move || {
            let mut d =
                crate::app::yaml::DetailState::new(ResourceKey::new(BuiltinKind::Pod, Some("team-a")), "x");
            d.describe = describe;
            Screen::Yaml(Box::new(d))
        }
    };
    let builds: Vec<Build> = vec![
        on_pods(|| Screen::Informers { selected: 0 }),
        on_pods(|| Screen::Contexts { selected: 0 }),
        on_pods(|| Screen::Forwards { selected: 0 }),
        on_pods(|| Screen::Revisions(Box::new(two_revisions()))),
        on_pods(|| Screen::ApiResources {
            selected: 0,
            filter: String::new(),
        }),
        on_pods(detail(false)),
        on_pods(detail(true)),
        on_pods(|| {
            Screen::Containers(Box::new(crate::app::containers::ContainersState::new(
                "team-a", "x",
            )))
        }),
        on_pods(|| {
            Screen::Logs(Box::new(crate::app::logs::LogsState::new(
                crate::kube::logs::LogTarget {
                    namespace: "team-a".into(),
                    pods: crate::kube::logs::PodPick::Named("x".into()),
                    containers: crate::kube::logs::ContainerPick::Default,
                },
                "pod/x".into(),
                Default::default(),
            )))
        }),
    ];
    let mut seen = Vec::new();
    for build in builds {
        let name = name_of(build().top());
        seen.push(name);
        out.push((name.to_owned(), build));
    }
    for variant in [
        "list",
        "informers",
        "contexts",
        "api-resources",
        "yaml",
        "describe",
        "logs",
        "containers",
        "forwards",
        "revisions",
    ] {
        assert!(
            variant == "list" || seen.contains(&variant),
            "{variant} is not enumerated"
        );
    }
    out
}

/// deployment/web in team-a at revision 2 (in use) with revision 1 before it.
fn two_revisions() -> crate::app::revisions::RevisionsState {
    use crate::kube::write::rollback::Revision;
    let rev = |n: u64, image: &str| Revision {
        number: n,
        replicaset: format!("web-{n}"),
        change_cause: None,
        images: vec![image.into()],
        created: Some(1_700_000_000),
    };
    crate::app::revisions::RevisionsState {
        target: Target::new(BuiltinKind::Deployment.into(), Some("team-a"), "web"),
        revisions: vec![rev(2, "app:2"), rev(1, "app:1")],
        selected: 1,
    }
}

#[test]
fn enter_in_the_revisions_view_asks_then_rolls_back_to_that_revision() {
    let mut f = pods(&["web"]);
    f.state.push(Screen::Revisions(Box::new(two_revisions())));
    // The one in use is refused.
    press(&mut f.state, "k");
    let fx = press(&mut f.state, "enter");
    assert!(fx.is_empty() && f.state.screens.dialog.is_none());
    assert_eq!(
        f.state.screens.message.as_deref(),
        Some("revision 2 is the one deployment/web runs; choose an earlier one")
    );
    press(&mut f.state, "j");
    press(&mut f.state, "enter");
    let d = f.state.screens.dialog.as_ref().expect("a dialog");
    assert_eq!(d.title, "roll back deployment/web?");
    assert!(
        d.lines.iter().any(|l| l.contains("dev")),
        "names the context: {:?}",
        d.lines
    );
    let fx = press(&mut f.state, "n");
    assert!(writes(&fx).is_empty() && f.state.screens.dialog.is_none());
    press(&mut f.state, "enter");
    let fx = press(&mut f.state, "y");
    assert!(
        matches!(&writes(&fx)[..], [WriteOp::Rollback(t, 1)] if t.name == "web"),
        "{fx:?}"
    );
}

/// The name of a view; no catch-all, so every `Screen` variant must be named (and then
/// enumerated above).
fn name_of(s: &Screen) -> &'static str {
    match s {
        Screen::List(_) => "list",
        Screen::Informers { .. } => "informers",
        Screen::Contexts { .. } => "contexts",
        Screen::ApiResources { .. } => "api-resources",
        Screen::Yaml(y) if y.describe => "describe",
        Screen::Yaml(_) => "yaml",
        Screen::Logs(_) => "logs",
        Screen::Containers(_) => "containers",
        Screen::Forwards { .. } => "forwards",
        Screen::Revisions(_) => "revisions",
    }
}

#[test]
fn writes_exist_somewhere_when_not_read_only() {
    let offered: usize = every_screen()
        .iter()
        .map(|(_, build)| {
            let s = build();
            Action::ALL
                .iter()
                .filter(|(a, _)| a.writes() && s.applies(*a))
                .count()
        })
        .sum();
    assert!(
        offered >= 10,
        "the enumeration reaches the write actions ({offered})"
    );
}

#[test]
fn read_only_reaches_no_write_in_any_view_by_any_key() {
    for (name, build) in every_screen() {
        let mut s = build();
        s.settings.readonly = true;
        if let Some(l) = s.top_list_mut() {
            // Marked rows too.
            let row = l.cache.selected_row(0);
            if let Some(r) = row {
                l.marks.toggle(&r);
            }
        }
        for (action, an) in Action::ALL {
            if action.writes() {
                assert!(!s.applies(action), "{an} applies in read-only {name}");
                assert!(!s.offers(action), "{an} offered in read-only {name}");
            }
        }
        // Every key of every mode, dispatched, opens no dialog and sends no write.
        let km = s.settings.keymap.clone();
        for (mode, _) in KeyMode::ALL {
            for b in km.bindings(mode) {
                if matches!(b.run, Action::Quit) {
                    continue;
                }
                let mut st = build();
                st.settings.readonly = true;
                let mut fx = Vec::new();
                for k in &b.seq {
                    fx.extend(on_key(&mut st, *k));
                }
                fx.extend(update(&mut st, b.run));
                assert!(
                    writes(&fx).is_empty(),
                    "{} ({:?}) wrote in read-only {name}",
                    b.on,
                    b.run
                );
                assert!(
                    st.screens.dialog.is_none(),
                    "{} opened a dialog in read-only {name}",
                    b.on
                );
            }
        }
    }
}

#[test]
fn the_port_forwards_view_moves_with_j_k_and_the_arrows() {
    use crate::kube::portforward::{ForwardInfo, ForwardState};
    let mut f = pods(&["web"]);
    let fwd = |id: u64| ForwardInfo {
        id,
        local: std::net::SocketAddr::from(([127, 0, 0, 1], 8000 + id as u16)),
        target: format!("pod/web:{id}"),
        state: ForwardState::Active,
        pod: Some("web".into()),
        open: 0,
        total: 0,
        bytes_in: 0,
        bytes_out: 0,
    };
    f.state.screens.forwards = vec![fwd(1), fwd(2), fwd(3)];
    crate::app::command::run(&mut f.state, "pf", false);
    let selected = |s: &UiState| match s.top() {
        Screen::Forwards { selected } => *selected,
        _ => panic!("not the forwards view"),
    };
    assert_eq!(selected(&f.state), 0);
    press(&mut f.state, "j");
    assert_eq!(selected(&f.state), 1);
    press(&mut f.state, "down");
    assert_eq!(selected(&f.state), 2);
    press(&mut f.state, "j");
    assert_eq!(selected(&f.state), 2, "stays on the last");
    press(&mut f.state, "k");
    assert_eq!(selected(&f.state), 1);
    press(&mut f.state, "up");
    assert_eq!(selected(&f.state), 0);
    press(&mut f.state, "G");
    assert_eq!(selected(&f.state), 2);
    // ctrl-d stops the selected one.
    let fx = press(&mut f.state, "ctrl-d");
    assert!(fx.iter().any(|e| matches!(e, Effect::StopForward(3))), "{fx:?}");
}

#[test]
fn a_debug_container_is_confirmed_naming_the_context_then_prepared() {
    use crate::kube::exec::SessionKind;
    let mut f = pods(&["web"]);
    crate::app::command::run(&mut f.state, "debug pod/web -n team-a -c app", false);
    let d = f.state.screens.dialog.as_ref().expect("a dialog");
    assert_eq!(d.title, "add a debug container to pod/web?");
    assert!(d.lines.contains(&"context: dev".to_owned()), "{:?}", d.lines);
    assert!(
        d.lines
            .contains(&"image: busybox:1.36, sharing the processes of container app".to_owned()),
        "{:?}",
        d.lines
    );
    assert!(!d.yes, "no is selected");
    // enter takes the selected button: no.
    let fx = press(&mut f.state, "enter");
    assert!(f.state.screens.dialog.is_none());
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::PrepareSession(_))),
        "{fx:?}"
    );
    crate::app::command::run(
        &mut f.state,
        "debug pod/web -n team-a -c app --image alpine:3.20",
        false,
    );
    let fx = press(&mut f.state, "y");
    let req = fx
        .iter()
        .find_map(|e| match e {
            Effect::PrepareSession(r) => Some(r),
            _ => None,
        })
        .expect("confirmed: the preparation adds the container");
    assert_eq!(
        req.kind,
        SessionKind::Debug {
            image: "alpine:3.20".into()
        }
    );
    assert_eq!(req.target.container.as_deref(), Some("app"));
    // Read-only: refused, nothing asked.
    f.state.settings.readonly = true;
    crate::app::command::run(&mut f.state, "debug pod/web -n team-a", false);
    assert!(f.state.screens.dialog.is_none());
    assert_eq!(
        f.state.screens.message.as_deref(),
        Some("debug: read-only: nothing was started")
    );
}

#[test]
fn a_forbidden_debug_container_is_neither_offered_nor_asked() {
    let mut f = pods(&["web"]);
    let q = crate::app::debug::query(&f.state, "team-a").unwrap();
    assert_eq!(
        q.permission.to_string(),
        "patch pods/ephemeralcontainers in team-a"
    );
    f.state
        .conn
        .access
        .answer(q, Ok(false), std::time::Instant::now());
    crate::app::command::run(&mut f.state, "debug pod/web -n team-a", false);
    assert!(f.state.screens.dialog.is_none());
    assert_eq!(
        f.state.screens.message.as_deref(),
        Some("forbidden: patch pods/ephemeralcontainers in team-a")
    );
}
