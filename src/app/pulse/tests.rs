//! `:pulse` transitions: the command and its aliases subscribe one informer per kind, the
//! loop's feeds attach by kind, counts follow the snapshots, and `enter` on a tile opens its
//! list filtered to the rows it counted as not healthy.

use std::sync::Arc;

use serde_json::json;

use super::fixtures::*;
use super::model::Tile;
use crate::app::effect::Effect;
use crate::app::state::{Feed, ListState, Screen, Source, UiState};
use crate::app::update::{run_command, update};
use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::row::Row;
use crate::kube::store::{Slot, StoreWriter};

fn state() -> UiState {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("shop"));
    let mut s = UiState::new(
        Screen::List(Box::new(ListState::new(key, None))),
        Some("shop".into()),
        false,
    );
    s.take_effects();
    s
}

type Keep = (
    StoreWriter,
    tokio::sync::mpsc::UnboundedReceiver<crate::kube::store::StoreChanged>,
);

/// A listed slot of `kind` holding `rows`; the writer and its channel must stay alive.
fn slot(kind: BuiltinKind, ns: Option<&str>, rows: Vec<Arc<Row>>) -> (Arc<Slot>, Keep) {
    let slot = Slot::new(ResourceKey::new(kind, ns), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    for r in rows {
        w.init_apply((*r).clone());
    }
    w.init_done(Some("1".into()));
    w.publish();
    (slot, (w, rx))
}

#[test]
fn the_command_and_its_aliases_subscribe_each_kind_once_in_the_namespace() {
    for line in ["pulse", "pulses", "pu"] {
        let mut s = state();
        let fx = run_command(&mut s, line);
        let Screen::Pulse(p) = s.top() else {
            panic!("{line}: not the pulse")
        };
        assert_eq!(p.namespace.as_deref(), Some("shop"));
        let id = s.top_id();
        let subs: Vec<ResourceKey> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::Subscribe(i, k) if *i == id => Some(k.clone()),
                _ => None,
            })
            .collect();
        let want: Vec<ResourceKey> = Tile::ALL
            .iter()
            .map(|t| ResourceKey::new(t.kind(), Some("shop")))
            .collect();
        assert_eq!(subs, want, "{line}");
        assert_eq!(want[6].namespace, None, "nodes are cluster-wide");
    }
    let mut s = state();
    run_command(&mut s, "pulse all");
    assert!(matches!(s.top(), Screen::Pulse(p) if p.namespace.is_none()));
}

#[test]
fn attached_feeds_are_counted_and_a_fed_kind_is_not_asked_for_again() {
    let mut s = state();
    run_command(&mut s, "pu");
    let id = s.top_id();
    let (pods, _w1) = slot(
        BuiltinKind::Pod,
        None,
        vec![
            pod("shop", "ok-0", true, 0, None),
            pod("shop", "bad-0", false, 4, Some("CrashLoopBackOff")),
            pod("other", "elsewhere", true, 0, None),
        ],
    );
    // An all-namespaces informer serves the view: rows of `shop` only.
    let src = Source {
        filter_ns: Some("shop".into()),
        ..Source::fixed(pods)
    };
    assert!(s.attach(id, Feed::Rows(src)));
    let (nodes, _w2) = slot(BuiltinKind::Node, None, vec![node("n1", true, json!([]))]);
    assert!(s.attach(id, Feed::Rows(Source::fixed(nodes))));
    let (cms, _w3) = slot(BuiltinKind::ConfigMap, Some("shop"), vec![]);
    assert!(
        !s.attach(id, Feed::Rows(Source::fixed(cms))),
        "not a kind it shows"
    );
    s.subscribe_all();
    let again: Vec<Effect> = s.take_effects();
    assert_eq!(again.len(), Tile::ALL.len() - 2, "{again:?}");
    assert!(!again
        .iter()
        .any(|e| matches!(e, Effect::Subscribe(_, k) if k.kind == BuiltinKind::Pod)));
    crate::app::refresh_top::refresh_top(&mut s);
    let Screen::Pulse(p) = s.top() else { panic!() };
    let pods = &p.tiles[&Tile::Pods];
    assert!(pods.listed && pods.state.is_live());
    assert_eq!((pods.counts.total, pods.counts.ok, pods.counts.error), (2, 1, 1));
    assert_eq!(p.tiles[&Tile::Nodes].counts.total, 1);
    assert_eq!(p.restarts.top.len(), 1);
    assert!(
        !p.tiles.contains_key(&Tile::Jobs),
        "nothing attached: nothing counted"
    );
}

#[test]
fn enter_on_a_tile_opens_its_list_filtered_to_what_it_counted_and_esc_comes_back() {
    let mut s = state();
    run_command(&mut s, "pulse");
    let id = s.top_id();
    let (deploys, _w) = slot(
        BuiltinKind::Deployment,
        Some("shop"),
        vec![
            deploy("shop", "api", 2, 1),
            deploy("shop", "api-canary", 1, 1),
            deploy("shop", "web", 3, 0),
            deploy("shop", "zeta", 1, 1),
        ],
    );
    assert!(s.attach(id, Feed::Rows(Source::fixed(deploys.clone()))));
    crate::app::refresh_top::refresh_top(&mut s);
    s.take_effects();
    assert_eq!(update(&mut s, Action::ScrollRight), []);
    let fx = update(&mut s, Action::Enter);
    let list_id = s.top_id();
    let deploy_key = ResourceKey::new(BuiltinKind::Deployment, Some("shop"));
    assert_eq!(fx, [Effect::Subscribe(list_id, deploy_key)]);
    let Screen::List(l) = s.top() else {
        panic!("enter opened no list")
    };
    assert_eq!(l.filter, "^api$ | ^web$");
    // The filter, applied by the list as it would be typed, keeps exactly those rows.
    assert!(s.attach(list_id, Feed::Rows(Source::fixed(deploys))));
    crate::app::refresh_top::refresh_top(&mut s);
    let l = s.top_list().unwrap();
    let shown: Vec<String> = (0..l.cache.len())
        .filter_map(|i| l.cache.selected_row(i))
        .map(|r| r.name.to_string())
        .collect();
    assert_eq!(shown, ["api", "web"]);
    // `esc` clears the filter first, as on any list; then it goes back to the pulse.
    assert_eq!(update(&mut s, Action::Back), []);
    assert!(s.top_list().is_some_and(|l| l.filter.is_empty()));
    assert_eq!(update(&mut s, Action::Back), [Effect::Unsubscribe(list_id)]);
    assert!(matches!(s.top(), Screen::Pulse(p) if p.selected == 1));
}

#[test]
fn a_healthy_tile_opens_the_plain_list_and_events_open_warnings_only() {
    let mut s = state();
    run_command(&mut s, "pulse");
    let id = s.top_id();
    let (nodes, _w) = slot(BuiltinKind::Node, None, vec![node("n1", true, json!([]))]);
    assert!(s.attach(id, Feed::Rows(Source::fixed(nodes))));
    crate::app::refresh_top::refresh_top(&mut s);
    let Screen::Pulse(p) = s.top() else { panic!() };
    let l = super::tile_list(p, Tile::Nodes);
    assert_eq!(
        (l.filter.as_str(), l.key.kind.clone()),
        ("", BuiltinKind::Node.into())
    );
    let mut p2 = super::model::PulseState::new(Some("shop".into()));
    p2.tiles.insert(Tile::Events, Default::default());
    p2.tiles.get_mut(&Tile::Events).unwrap().counts.error = 2;
    assert!(super::tile_list(&p2, Tile::Events).warnings_only);
    // `G`, then past the end, stays on the last tile.
    update(&mut s, Action::Bottom);
    update(&mut s, Action::Down);
    assert!(matches!(s.top(), Screen::Pulse(p) if p.selected_tile() == Tile::Events));
}

#[test]
fn up_and_down_move_by_a_row_of_the_drawn_grid_and_sideways_along_it() {
    let selected = |s: &UiState| match s.top() {
        Screen::Pulse(p) => p.selected,
        _ => panic!("no pulse"),
    };
    let mut s = state();
    run_command(&mut s, "pulse");
    // 80 columns: two tiles a row.
    s.screens.layout.page_cols = 78;
    update(&mut s, Action::Down);
    assert_eq!(selected(&s), 2);
    update(&mut s, Action::ScrollRight);
    assert_eq!(selected(&s), 3);
    update(&mut s, Action::Up);
    assert_eq!(selected(&s), 1);
    update(&mut s, Action::Up);
    assert_eq!(selected(&s), 1, "no row above");
    // 200 columns: all eight tiles in one row.
    s.screens.layout.page_cols = 198;
    update(&mut s, Action::Down);
    assert_eq!(selected(&s), 1, "no row below");
    update(&mut s, Action::ScrollLeft);
    assert_eq!(selected(&s), 0);
}
