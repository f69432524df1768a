//! Unit tests of unions: `:ctx` parsing, opening and closing, the merge's order, rows of two
//! clusters with one name kept apart by the selection, writes routed to each row's cluster
//! (one request per cluster, read-only members skipped), views pinned to a row's cluster and
//! the keys a union view refuses.

use std::sync::Arc;

use crate::app::effect::{Effect, WriteOp};
use crate::app::input::on_key;
use crate::app::state::{Conn, Feed, ListState, Screen, Source, UiState};
use crate::keys::KeyPress;
use crate::kube::builtin::BuiltinKind;
use crate::kube::client::ClusterInfo;
use crate::kube::key::ResourceKey;
use crate::kube::row::{Cell, Health, Row};
use crate::kube::store::{Slot, StoreWriter};

use super::open::{ctx_command, member_status, wanted};
use super::union::merge;

fn row(ns: &str, name: &str, origin: u16) -> Row {
    Row {
        capacity: None,
        uses: None,
        origin,
        namespace: Some(Arc::from(ns)),
        name: name.into(),
        uid: format!("uid-{origin}-{name}").into(),
        created: Some(0),
        labels: Arc::from(Vec::new()),
        cells: vec![Cell::Static("Running")].into(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
    }
}

fn info(ctx: &str) -> ClusterInfo {
    ClusterInfo {
        context: ctx.into(),
        server: "https://127.0.0.1".into(),
        namespace: "team-a".into(),
        contexts: vec![ctx.into()],
    }
}

struct Fixture {
    state: UiState,
    _writers: Vec<StoreWriter>,
    _rx: tokio::sync::mpsc::UnboundedReceiver<crate::kube::store::StoreChanged>,
}

/// Context `a` in use, connected, contexts a, b, c; `:ctx a,b` opened; member `b` connected;
/// each member's pods in team-a: `names[i]` for origin i.
fn union(names: [&[&str]; 2]) -> Fixture {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("team-a"));
    let mut state = UiState::new(
        Screen::List(Box::new(ListState::new(key.clone(), None))),
        Some("team-a".into()),
        false,
    );
    state.conn.contexts = vec!["a".into(), "b".into(), "c".into()];
    state.conn.context = Some("a".into());
    state.conn.status = Conn::Connected(info("a"));
    state.take_effects();
    ctx_command(&mut state, "a,b");
    let effects = state.take_effects();
    assert!(
        effects.contains(&Effect::OpenFleet(vec![(1, "b".into())])),
        "{effects:?}"
    );
    let id = state.top_id();
    assert!(
        effects.contains(&Effect::SubscribeIn(id, 0, key.clone())),
        "{effects:?}"
    );
    assert!(
        effects.contains(&Effect::SubscribeIn(id, 1, key.clone())),
        "{effects:?}"
    );
    member_status(&mut state, 1, super::model::Link::Connected);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let mut writers = Vec::new();
    for (origin, names) in names.iter().enumerate() {
        let slot = Slot::new(key.clone(), 1 + origin as u64);
        let mut w = StoreWriter::new(slot.clone(), tx.clone());
        w.init();
        for n in *names {
            w.init_apply(row("team-a", n, origin as u16));
        }
        w.init_done(Some("1".into()));
        w.publish();
        assert!(state.attach(id, Feed::Member(origin as u16, Source::fixed(slot))));
        writers.push(w);
    }
    crate::app::refresh_top::refresh_top(&mut state);
    Fixture {
        state,
        _writers: writers,
        _rx: rx,
    }
}

fn press(state: &mut UiState, keys: &str) -> Vec<Effect> {
    let mut out = Vec::new();
    for k in keys.split_whitespace() {
        out.extend(on_key(state, KeyPress::parse(k).unwrap()));
        crate::app::refresh_top::refresh_top(state);
    }
    out
}

fn shown(state: &UiState) -> Vec<(u16, String)> {
    let l = state.top_list().unwrap();
    l.cache
        .visible(0, 100)
        .iter()
        .map(|r| (r.origin, r.name.to_string()))
        .collect()
}

fn deletes(effects: &[Effect]) -> Vec<(String, Vec<String>)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Write(w) => match &w.op {
                WriteOp::Delete(t, _) => {
                    Some((w.context.clone(), t.iter().map(|t| t.name.clone()).collect()))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[test]
fn ctx_takes_all_a_list_or_one_name() {
    let ctxs = vec!["a".to_owned(), "b".to_owned()];
    assert_eq!(wanted("all", &ctxs), Some(ctxs.clone()));
    assert_eq!(
        wanted("b, a,b,", &ctxs),
        Some(vec!["b".to_owned(), "a".to_owned()])
    );
    assert_eq!(wanted("a", &ctxs), None);
    // A context really named `all` is switched to, not a union.
    assert_eq!(wanted("all", &["all".to_owned()]), None);
}

#[test]
fn the_merge_orders_by_namespace_name_then_cluster() {
    let a = vec![row("x", "db-0", 0), row("y", "web", 0)]
        .into_iter()
        .map(Arc::new)
        .collect();
    let b = vec![row("x", "db-0", 1), row("x", "db-1", 1)]
        .into_iter()
        .map(Arc::new)
        .collect();
    let merged = merge(vec![a, b], |a, b| {
        (a.namespace.as_deref(), &*a.name, a.origin).cmp(&(b.namespace.as_deref(), &*b.name, b.origin))
    });
    let got: Vec<(String, u16)> = merged.iter().map(|r| (r.name.to_string(), r.origin)).collect();
    assert_eq!(
        got,
        [
            ("db-0".into(), 0),
            ("db-0".into(), 1),
            ("db-1".into(), 1),
            ("web".into(), 0)
        ]
    );
}

#[test]
fn a_union_list_shows_every_members_rows_and_keeps_same_named_rows_apart() {
    let mut f = union([&["db-0", "web"], &["db-0", "api"]]);
    assert_eq!(
        shown(&f.state),
        [
            (0, "db-0".into()),
            (0, "web".into()),
            (1, "api".into()),
            (1, "db-0".into())
        ],
        "by cluster (the union's order), then namespace and name"
    );
    // Down to b's db-0: the selection stays on b's row, not a's of the same name.
    press(&mut f.state, "j j j");
    let l = f.state.top_list().unwrap();
    let sel = l.cache.selected_row(l.selected).unwrap();
    assert_eq!((sel.origin, &*sel.name), (1, "db-0"));
}

#[test]
fn a_delete_goes_to_the_rows_cluster_and_names_it() {
    let mut f = union([&["db-0", "web"], &["db-0", "api"]]);
    press(&mut f.state, "j j j ctrl-d");
    let d = f.state.screens.overlays.dialog.as_ref().expect("dialog");
    assert!(d.lines.iter().any(|l| l == "context: b"), "{:?}", d.lines);
    let effects = press(&mut f.state, "y");
    assert_eq!(deletes(&effects), [("b".to_owned(), vec!["db-0".to_owned()])]);
}

#[test]
fn marked_rows_of_two_clusters_are_one_request_per_cluster() {
    let mut f = union([&["db-0", "web"], &["db-0", "api"]]);
    // db-0 (a), web (a), api (b) marked.
    press(&mut f.state, "space space space ctrl-d");
    let d = f.state.screens.overlays.dialog.as_ref().expect("dialog");
    assert_eq!(d.title, "delete 3 pods in a (2), b (1)?");
    assert!(d.lines.iter().any(|l| l == "b: api"), "{:?}", d.lines);
    let effects = press(&mut f.state, "y");
    let mut got = deletes(&effects);
    for (_, names) in &mut got {
        names.sort();
    }
    assert_eq!(
        got,
        [
            ("a".to_owned(), vec!["db-0".to_owned(), "web".to_owned()]),
            ("b".to_owned(), vec!["api".to_owned()])
        ]
    );
}

#[test]
fn a_read_only_member_gets_no_write_and_the_footer_says_so() {
    let mut f = union([&["web"], &["api"]]);
    if let Some(m) = f.state.conn.fleet.as_mut().and_then(|x| x.by_name_mut("b")) {
        m.readonly = true;
    }
    press(&mut f.state, "space space ctrl-d");
    let effects = press(&mut f.state, "y");
    assert_eq!(deletes(&effects), [("a".to_owned(), vec!["web".to_owned()])]);
    let footer = f.state.screens.footer.message.clone().unwrap_or_default();
    assert!(footer.contains("not sent: b is read-only"), "{footer}");
}

#[test]
fn a_view_opened_from_a_row_is_pinned_to_its_cluster() {
    let mut f = union([&["web"], &["api"]]);
    // `api` is b's and second.
    let effects = press(&mut f.state, "j y");
    let id = f.state.top_id();
    assert!(matches!(f.state.top(), Screen::Yaml(_)));
    assert_eq!(super::open::origin_of_view(&f.state, id), 1);
    assert!(effects
        .iter()
        .any(|e| matches!(e, Effect::WatchObject(i, _, n) if *i == id && n == "api")));
    assert_eq!(super::open::context_of_view(&f.state, id).as_deref(), Some("b"));
}

#[test]
fn keys_not_routed_yet_are_refused_in_words() {
    let mut f = union([&["web"], &["api"]]);
    assert!(!f.state.applies(crate::keys::Action::Edit));
    assert!(f.state.applies(crate::keys::Action::PortForward));
    assert!(f.state.applies(crate::keys::Action::Shell));
    assert!(f.state.applies(crate::keys::Action::Delete));
    let effects = press(&mut f.state, "e");
    assert!(effects.is_empty(), "{effects:?}");
    let footer = f.state.screens.footer.message.clone().unwrap_or_default();
    assert!(
        footer.contains("not available in a union view yet: edit"),
        "{footer}"
    );
}

#[test]
fn one_context_named_leaves_the_union() {
    let mut f = union([&["web"], &["api"]]);
    ctx_command(&mut f.state, "a");
    let effects = f.state.take_effects();
    assert!(effects.contains(&Effect::CloseFleet), "{effects:?}");
    assert!(f.state.conn.fleet.is_none());
    assert!(f.state.top_list().is_some_and(|l| l.union.is_none()));
}

#[test]
fn unknown_names_open_nothing() {
    let mut f = union([&["web"], &["api"]]);
    ctx_command(&mut f.state, "a,zz");
    assert!(f.state.take_effects().is_empty());
    let footer = f.state.screens.footer.message.clone().unwrap_or_default();
    assert!(footer.contains("no context \"zz\""), "{footer}");
}

#[test]
fn a_mark_is_one_clusters_row_even_where_uids_repeat() {
    // Clusters restored from one backup (and the demo's seeds) share uids.
    let mut f = union([&["db-0"], &["db-0"]]);
    let same_uid = |s: &mut UiState| {
        let l = s.top_list_mut().unwrap();
        let rows: Vec<_> = l.cache.visible(0, 10);
        assert_eq!(rows.len(), 2);
        rows
    };
    let rows = same_uid(&mut f.state);
    let mut a = (*rows[0]).clone();
    let mut b = (*rows[1]).clone();
    a.uid = "shared".into();
    b.uid = "shared".into();
    let mut marks = crate::app::writes::model::Marks::default();
    marks.toggle(&b);
    assert!(marks.contains(&b) && !marks.contains(&a));
    marks.toggle(&a);
    assert_eq!(marks.len(), 2, "a's mark is not b's unmark");
}

#[test]
fn a_shell_runs_in_the_rows_cluster_and_exec_must_name_one() {
    let mut f = union([&["web"], &["api"]]);
    // `api` (b's) is second.
    let effects = press(&mut f.state, "j s");
    let ctx: Vec<Option<String>> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::PrepareSession(r) => Some(r.target.context.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(ctx, [Some("b".to_owned())]);
    // A typed `:exec` inside a union names its cluster.
    let effects = crate::app::command::run_command(&mut f.state, "exec pod/api -n team-a -- ls");
    assert!(effects.is_empty(), "{effects:?}");
    let footer = f.state.screens.footer.message.clone().unwrap_or_default();
    assert!(footer.contains("name the pod's cluster"), "{footer}");
    let effects = crate::app::command::run_command(&mut f.state, "exec pod/api -n team-a --context b -- ls");
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::PrepareSession(r) if r.target.context.as_deref() == Some("b"))),
        "{effects:?}"
    );
}

#[test]
fn a_port_forward_is_offered_and_started_in_the_rows_cluster() {
    let mut f = union([&["web"], &["api"]]);
    let effects = press(&mut f.state, "j shift-f");
    let offer = effects
        .iter()
        .find_map(|e| match e {
            Effect::OfferForward(o) => Some((**o).clone()),
            _ => None,
        })
        .expect("an offer");
    assert_eq!(offer.context.as_deref(), Some("b"));
    crate::app::forwards::offered(&mut f.state, offer, Ok(vec![80]));
    let line = match &f.state.screens.prompt.open {
        Some(crate::app::state::Prompt::Command(l)) => l.clone(),
        other => panic!("{other:?}"),
    };
    assert!(line.contains("--context b"), "{line}");
    f.state.screens.prompt.open = None;
    let effects = crate::app::command::run_command(&mut f.state, &line);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::StartForward(s) if s.context.as_deref() == Some("b"))),
        "{effects:?}"
    );
}

#[test]
fn a_ctx_term_narrows_the_union_to_some_clusters() {
    let mut f = union([&["web"], &["api", "db"]]);
    f.state.top_list_mut().unwrap().filter = "ctx:b".into();
    crate::app::refresh_top::refresh_top(&mut f.state);
    assert_eq!(shown(&f.state), [(1, "api".into()), (1, "db".into())]);
    f.state.top_list_mut().unwrap().filter = "ctx:!b d".into();
    crate::app::refresh_top::refresh_top(&mut f.state);
    assert!(shown(&f.state).is_empty(), "a's rows: web has no d");
    f.state.top_list_mut().unwrap().filter = "ctx:A".into();
    crate::app::refresh_top::refresh_top(&mut f.state);
    assert_eq!(shown(&f.state), [(0, "web".into())]);
}

#[test]
fn plugins_get_the_rows_cluster_as_context() {
    let mut f = union([&["web"], &["api"]]);
    assert_eq!(crate::app::plugins::vars::row_context(&f.state), "a");
    press(&mut f.state, "j");
    assert_eq!(crate::app::plugins::vars::row_context(&f.state), "b");
    assert!(super::open::may_run_in(&f.state, "b", false));
    if let Some(m) = f.state.conn.fleet.as_mut().and_then(|x| x.by_name_mut("b")) {
        m.readonly = true;
    }
    assert!(!super::open::may_run_in(&f.state, "b", false));
    assert!(super::open::may_run_in(&f.state, "b", true));
    assert!(
        !super::open::may_run_in(&f.state, "c", true),
        "c is not in the union"
    );
}

#[test]
fn each_clusters_answer_to_a_batch_is_said_failures_first() {
    use crate::app::outcome::{apply, WriteEvent};
    let mut f = union([&["web"], &["api"]]);
    press(&mut f.state, "space space ctrl-d");
    let effects = press(&mut f.state, "y");
    assert_eq!(deletes(&effects).len(), 2);
    apply(
        &mut f.state,
        WriteEvent::Wrote {
            context: "a".into(),
            summary: "delete 2 pods in team-a".into(),
            result: Ok("deleted pod/web".into()),
        },
    );
    apply(
        &mut f.state,
        WriteEvent::Wrote {
            context: "b".into(),
            summary: "delete 2 pods in team-a in b".into(),
            result: Err("pod/api: forbidden: viewer may not delete pods".into()),
        },
    );
    let footer = f.state.screens.footer.message.clone().unwrap_or_default();
    assert_eq!(
        footer,
        "delete 2 pods in team-a in b failed: pod/api: forbidden: viewer may not delete pods · deleted pod/web (context a)"
    );
}

#[test]
fn one_cluster_commands_are_refused_in_a_union() {
    let mut f = union([&["web"], &["api"]]);
    for cmd in ["pulse", "xray deploy", "can get pods", "top", "debug pod/x"] {
        let effects = crate::app::command::run_command(&mut f.state, cmd);
        assert!(effects.is_empty(), "{cmd}: {effects:?}");
        let footer = f.state.screens.footer.message.clone().unwrap_or_default();
        assert!(footer.contains("not available in a union"), "{cmd}: {footer}");
    }
}

#[test]
fn ctx_marks_open_a_union_and_are_used_up() {
    let mut f = union([&["web"], &["api"]]);
    ctx_command(&mut f.state, "a");
    f.state.take_effects();
    crate::app::command::run_command(&mut f.state, "ctx");
    // Mark b and c, enter: their union.
    press(&mut f.state, "j space space enter");
    let fleet = f.state.conn.fleet.as_ref().expect("a union");
    let names: Vec<&str> = fleet.members.iter().map(|m| m.context.as_str()).collect();
    assert_eq!(names, ["b", "c"]);
    assert!(f.state.conn.ctx_marks.is_empty());
}

#[test]
fn the_command_line_leaves_unknown_names_out_and_says_so() {
    let mut f = union([&["web"], &["api"]]);
    ctx_command(&mut f.state, "a");
    super::open::from_command_line(&mut f.state, "a,nope,c");
    let names: Vec<String> = f
        .state
        .conn
        .fleet
        .as_ref()
        .unwrap()
        .members
        .iter()
        .map(|m| m.context.clone())
        .collect();
    assert_eq!(names, ["a", "c"]);
    let footer = f.state.screens.footer.message.clone().unwrap_or_default();
    assert!(
        footer.contains("no context \"nope\" in the kubeconfig: left out"),
        "{footer}"
    );
}

#[test]
fn a_join_shares_the_members_chunks_and_a_change_rebuilds_only_its_own() {
    let mut f = union([&["db-0", "web"], &["api"]]);
    let before = f.state.top_list().unwrap().snapshot().unwrap();
    f._writers[0].apply(row("team-a", "new", 0));
    f._writers[0].publish();
    crate::app::refresh_top::refresh_top(&mut f.state);
    let after = f.state.top_list().unwrap().snapshot().unwrap();
    assert_eq!(after.rows.len(), 4);
    let last = |s: &crate::kube::store::Snapshot| s.rows.chunks().last().cloned().unwrap();
    assert!(
        Arc::ptr_eq(&last(&before), &last(&after)),
        "b's chunk is shared, not rebuilt"
    );
    assert!(!Arc::ptr_eq(&before.rows.chunks()[0], &after.rows.chunks()[0]));
}
