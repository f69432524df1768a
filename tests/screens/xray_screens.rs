//! `:xray deploy` (issue 35) on fixed snapshots at 100×24: deployments, then — expanded with
//! `enter` — a ReplicaSet, its pods, a pod's containers and what it uses (ServiceAccount,
//! ConfigMaps, Secrets by name, the service selecting it, its node); a missing ConfigMap in the
//! error colour with `not found`; an unhealthy node in the warning colour; `y` on the
//! ConfigMap line opens that object's YAML view.

use std::sync::Arc;

use ktui::app::effect::Effect;
use ktui::app::state::{Feed, Screen, Source, UiState};
use ktui::app::update::{run_command, update};
use ktui::keys::Action;
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::RowCtx;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::table::decode_row;
use ratatui::style::Color;
use serde_json::{json, Value};

use crate::screen::{self, NOW};

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn meta(ns: &str, name: &str) -> Value {
    json!({"namespace": ns, "name": name, "uid": format!("u-{name}"), "resourceVersion": "1", "creationTimestamp": ts(3600)})
}

fn owned(ns: &str, name: &str, kind: &str, owner: &str) -> Value {
    let mut m = meta(ns, name);
    m["ownerReferences"] =
        json!([{"apiVersion": "apps/v1", "kind": kind, "name": owner, "uid": "o", "controller": true}]);
    m
}

/// The objects of the fixture, by kind.
fn objects(kind: BuiltinKind) -> Vec<Value> {
    use BuiltinKind::*;
    let pod = |name: &str, phase: &str| {
        let mut m = owned("shop", name, "ReplicaSet", "frontend-7d4b9c");
        m["labels"] = json!({"app": "frontend"});
        json!({"metadata": m,
            "spec": {"nodeName": "worker-2", "serviceAccountName": "frontend",
                "containers": [{"name": "web", "envFrom": [{"configMapRef": {"name": "frontend-flags"}}]}, {"name": "envoy"}],
                "volumes": [{"name": "c", "configMap": {"name": "frontend-config"}},
                            {"name": "t", "secret": {"secretName": "frontend-tls"}}]},
            "status": {"phase": phase, "containerStatuses": [
                {"name": "web", "ready": true, "state": {"running": {}}},
                {"name": "envoy", "ready": true, "state": {"running": {}}}]}})
    };
    match kind {
        Deployment => ["frontend", "cart"]
            .iter()
            .map(|n| json!({"metadata": meta("shop", n), "spec": {"replicas": 2}, "status": {"replicas": 2, "readyReplicas": 2}}))
            .collect(),
        ReplicaSet => vec![json!({"metadata": owned("shop", "frontend-7d4b9c", "Deployment", "frontend"),
            "spec": {"replicas": 2}, "status": {"replicas": 2, "readyReplicas": 2}})],
        Pod => vec![pod("frontend-7d4b9c-2xk8p", "Running"), pod("frontend-7d4b9c-9qw4z", "Running")],
        ConfigMap => vec![json!({"metadata": meta("shop", "frontend-config"), "data": {"a": "b"}})],
        Secret => vec![json!({"metadata": meta("shop", "frontend-tls"), "type": "kubernetes.io/tls", "data": {"tls.crt": "c2VjcmV0"}})],
        Service => vec![json!({"metadata": meta("shop", "frontend"),
            "spec": {"type": "ClusterIP", "clusterIP": "10.96.0.10", "selector": {"app": "frontend"}}})],
        Node => vec![json!({"metadata": {"name": "worker-2", "uid": "n", "resourceVersion": "1"},
            "status": {"conditions": [{"type": "Ready", "status": "False"}]}})],
        _ => Vec::new(),
    }
}

/// A listed slot holding `kind`'s fixture objects.
fn slot(kind: BuiltinKind, ns: Option<&str>) -> Arc<Slot> {
    let slot = Slot::new(ResourceKey::new(kind, ns), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    let ctx = RowCtx::default();
    for o in objects(kind) {
        w.init_apply(decode_row(kind, &serde_json::to_vec(&o).unwrap(), &ctx).unwrap());
    }
    w.init_done(Some("1".into()));
    w.publish();
    slot
}

/// Feeds every subscription the view asked for (what the loop does with `Effect::Subscribe`).
fn feed(state: &mut UiState, effects: Vec<Effect>) {
    for e in effects {
        if let Effect::Subscribe(id, key) = e {
            let s = slot(key.kind.builtin().unwrap(), key.namespace.as_deref());
            assert!(state.attach(id, Feed::Rows(Source::fixed(s))));
        }
    }
}

fn state() -> UiState {
    let pods = ResourceKey::new(BuiltinKind::Pod, Some("shop"));
    let list = ktui::app::state::ListState::new(pods, None);
    let mut s = screen::ui_state(Screen::List(Box::new(list)), Some("shop".into()), false);
    screen::connect(&mut s, "prod-eu");
    s.take_effects();
    let fx = run_command(&mut s, "xray deploy");
    feed(&mut s, fx);
    s
}

/// Moves to the first line naming `name` and presses `enter`, feeding what it subscribes.
fn expand(s: &mut UiState, name: &str) {
    select(s, name);
    let fx = update(s, Action::Enter);
    feed(s, fx);
}

/// Moves the selection to the first line naming `name`.
fn select(s: &mut UiState, name: &str) {
    screen::render(s, 100, 24);
    let Screen::Xray(x) = s.top() else {
        panic!("not an xray view")
    };
    let i = x.lines.iter().position(|n| &*n.name == name).unwrap();
    let delta = i as i64 - x.selected as i64;
    for _ in 0..delta.abs() {
        update(s, if delta > 0 { Action::Down } else { Action::Up });
    }
}

fn line_of<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines().find(|l| l.contains(name)).unwrap_or_default()
}

#[test]
fn xray_deploy_shows_the_owner_chain_down_to_what_a_pod_uses() {
    let mut s = state();
    let text = format!("{}", screen::render(&mut s, 100, 24).backend());
    assert!(
        line_of(&text, "deployment/frontend").contains("ready 2/2"),
        "{text}"
    );
    assert!(!text.contains("replicaset/"), "collapsed: {text}");
    expand(&mut s, "frontend");
    expand(&mut s, "frontend-7d4b9c");
    expand(&mut s, "frontend-7d4b9c-2xk8p");
    let mut term = screen::render(&mut s, 100, 24);
    let text = format!("{}", term.backend());
    for line in [
        "▾ deployment/frontend",
        "▾ replicaset/frontend-7d4b9c",
        "▾ pod/frontend-7d4b9c-2xk8p",
        "· container/web",
        "· container/envoy",
        "· serviceaccount/frontend",
        "· configmap/frontend-config",
        "· secret/frontend-tls",
        "· service/frontend",
        "▸ pod/frontend-7d4b9c-9qw4z",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
    assert!(
        line_of(&text, "configmap/frontend-flags").contains("not found"),
        "{text}"
    );
    assert!(line_of(&text, "node/worker-2").contains("NotReady"), "{text}");
    assert!(!text.contains("c2VjcmV0"), "no secret value: {text}");
    let colour_of = |term: &ratatui::Terminal<ratatui::backend::TestBackend>, what: &str| {
        let buf = term.backend().buffer();
        let y = (0..buf.area.height)
            .find(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, *y)].symbol())
                    .collect::<String>()
                    .contains(what)
            })
            .unwrap();
        let line: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
        let x = line
            .chars()
            .position(|c| c == what.chars().next().unwrap())
            .unwrap();
        buf[(x as u16, y)].fg
    };
    assert_eq!(
        colour_of(&term, "not found"),
        Color::Red,
        "a missing reference is an error"
    );
    assert_eq!(
        colour_of(&term, "NotReady"),
        Color::Red,
        "an unhealthy node is coloured as kubectl-failing rows are"
    );
    insta::assert_snapshot!("xray_deploy_100x24", text);

    // `y` on the ConfigMap line: its live YAML, as from the configmaps list.
    select(&mut s, "frontend-config");
    update(&mut s, Action::Yaml);
    let Screen::Yaml(y) = s.top() else {
        panic!("no YAML view")
    };
    assert_eq!(
        (y.key.kind.clone(), y.name.as_str()),
        (BuiltinKind::ConfigMap.into(), "frontend-config")
    );
    // `esc` comes back to the tree, still expanded.
    update(&mut s, Action::Back);
    term = screen::render(&mut s, 100, 24);
    assert!(format!("{}", term.backend()).contains("▾ pod/frontend-7d4b9c-2xk8p"));
}

#[test]
fn a_tree_over_all_namespaces_names_each_top_lines_namespace() {
    let mut s = state();
    let fx = run_command(&mut s, "xray deploy -A");
    feed(&mut s, fx);
    let text = format!("{}", screen::render(&mut s, 100, 24).backend());
    let Screen::Xray(x) = s.top() else {
        panic!("not an xray view")
    };
    let top = x.lines.iter().find(|n| n.depth == 0).expect("a top line");
    let ns = top.namespace.as_deref().expect("a namespaced deployment");
    let want = format!("[{ns}] deployment/{}", top.name);
    assert!(text.contains(&want), "{want} in\n{text}");
    // In one namespace the tree needs no namespace.
    let mut one = state();
    let text = format!("{}", screen::render(&mut one, 100, 24).backend());
    assert!(!text.contains(&format!("[{ns}]")), "{text}");
}
