//! `:pulse` at 60×20, 80×24 and 200×50: every tile's counts readable (the demo-like rows
//! below), a forbidden kind says so in the list header's words, the event rate's
//! sparklines and the top restarting pods show where there is room, and the grid uses
//! 2, 2 and 8 tiles a row.

use ktui::app::pulse::model::{PulseState, Tile};
use ktui::app::state::{Feed, Screen, Source, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::RowCtx;
use ktui::kube::store::{Slot, StoreChanged, StoreWriter};
use ktui::kube::sync::SyncState;
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::screen::{self, NOW};

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn pod(name: &str, ready: bool, restarts: i64, waiting: Option<&str>) -> Value {
    let state = match waiting {
        Some(r) => json!({"waiting": {"reason": r}}),
        None => json!({"running": {"startedAt": ts(600)}}),
    };
    json!({"metadata": {"name": name, "namespace": "shop", "uid": format!("u-{name}"),
            "creationTimestamp": ts(3600)},
        "spec": {"containers": [{"name": "c"}]},
        "status": {"phase": "Running", "containerStatuses": [{"name": "c", "ready": ready,
            "restartCount": restarts, "state": state,
            "lastState": {"terminated": {"finishedAt": ts(120)}}}]}})
}

fn deploy(name: &str, replicas: i64, ready: i64) -> Value {
    json!({"metadata": {"name": name, "namespace": "shop"}, "spec": {"replicas": replicas},
        "status": {"replicas": replicas, "readyReplicas": ready, "availableReplicas": ready}})
}

fn node(name: &str, memory_pressure: bool) -> Value {
    json!({"metadata": {"name": name}, "status": {"conditions": [
        {"type": "Ready", "status": "True"},
        {"type": "MemoryPressure", "status": if memory_pressure { "True" } else { "False" }}]}})
}

fn event(name: &str, warning: bool, ago: i64) -> Value {
    json!({"metadata": {"name": name, "namespace": "shop", "uid": format!("e-{name}")},
        "type": if warning { "Warning" } else { "Normal" }, "reason": "R", "message": "m",
        "involvedObject": {"kind": "Pod", "name": "web-0", "namespace": "shop"},
        "count": 1, "lastTimestamp": ts(ago)})
}

type Keep = Vec<(StoreWriter, UnboundedReceiver<StoreChanged>)>;

fn feed(state: &mut UiState, keep: &mut Keep, kind: BuiltinKind, objs: &[Value], st: SyncState) {
    let key = ResourceKey::new(kind, Some("shop"));
    let slot = Slot::new(key, 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let mut w = StoreWriter::new(slot.clone(), tx);
    if st.is_live() {
        w.init();
        for o in objs {
            let bytes = serde_json::to_vec(o).unwrap();
            w.init_apply(ktui::table::decode_row(kind, &bytes, &RowCtx::default()).unwrap());
        }
        w.init_done(Some("1".into()));
    }
    w.set_state(st);
    w.publish();
    let id = state.top_id();
    assert!(state.attach(id, Feed::Rows(Source::fixed(slot))));
    keep.push((w, rx));
}

fn pulse() -> (UiState, Keep) {
    let p = PulseState::new(Some("shop".into()));
    let mut state = screen::ui_state(Screen::Pulse(Box::new(p)), Some("shop".into()), false);
    screen::connect(&mut state, "prod");
    let mut keep = Vec::new();
    let live = || SyncState::Live;
    let pods = [
        pod("web-0", true, 0, None),
        pod("web-1", true, 1, None),
        pod("db-0", false, 17, Some("CrashLoopBackOff")),
        pod("new-0", false, 0, Some("ContainerCreating")),
    ];
    feed(&mut state, &mut keep, BuiltinKind::Pod, &pods, live());
    let deploys = [deploy("web", 2, 2), deploy("api", 3, 1)];
    feed(&mut state, &mut keep, BuiltinKind::Deployment, &deploys, live());
    feed(&mut state, &mut keep, BuiltinKind::StatefulSet, &[], live());
    feed(&mut state, &mut keep, BuiltinKind::DaemonSet, &[], live());
    let forbidden = SyncState::Forbidden {
        verb: "list".into(),
        resource: "jobs".into(),
    };
    feed(&mut state, &mut keep, BuiltinKind::Job, &[], forbidden);
    feed(
        &mut state,
        &mut keep,
        BuiltinKind::CronJob,
        &[],
        SyncState::Syncing { received: 0 },
    );
    let nodes = [node("n1", false), node("n2", true), node("n3", false)];
    feed(&mut state, &mut keep, BuiltinKind::Node, &nodes, live());
    let events: Vec<Value> = (0..6)
        .map(|i| event(&format!("e{i}"), i % 3 == 0, 60 * i + 5))
        .collect();
    feed(&mut state, &mut keep, BuiltinKind::Event, &events, live());
    (state, keep)
}

fn text(state: &mut UiState, w: u16, h: u16) -> String {
    screen::screen_lines(&screen::render(state, w, h)).join("\n")
}

fn assert_counts(s: &str) {
    for want in [
        "pods",
        "2/4 ok",
        "1 failing",
        "1 pending/not ready",
        "deployments",
        "1/2 ready",
        "1 not ready",
        "statefulsets",
        "0/0 ready",
        "forbidden: list jobs",
        "syncing 0…",
        "3/3 ready",
        "1 memory pressure",
        "6 events",
        "2 Warning",
    ] {
        assert!(s.contains(want), "{want:?} missing:\n{s}");
    }
}

#[test]
fn pulse_at_80x24_shows_every_count_the_rate_and_the_restarts() {
    let (mut state, _keep) = pulse();
    let s = text(&mut state, 80, 24);
    assert_counts(&s);
    assert!(s.contains("pulse of shop"), "{s}");
    assert!(
        s.contains("Warning") && s.contains("Normal ") && s.contains("in 56m"),
        "{s}"
    );
    assert!(
        s.contains("db-0") && s.contains("17"),
        "top restarting pods:\n{s}"
    );
    // Two tiles a row: pods and deployments side by side.
    let line = s.lines().find(|l| l.contains(" pods ")).unwrap();
    assert!(line.contains(" deployments "), "{line}");
}

#[test]
fn pulse_at_200x50_puts_all_tiles_in_one_row() {
    let (mut state, _keep) = pulse();
    let s = text(&mut state, 200, 50);
    assert_counts(&s);
    let line = s.lines().find(|l| l.contains(" pods ")).unwrap();
    for t in Tile::ALL {
        assert!(line.contains(&format!(" {} ", t.title())), "{t:?} not in {line}");
    }
    assert!(s.contains("last 120m"), "{s}");
}

#[test]
fn pulse_at_60x20_still_shows_every_count() {
    let (mut state, _keep) = pulse();
    let s = text(&mut state, 60, 20);
    assert_counts(&s);
}

#[test]
fn the_selected_tile_is_highlighted_and_moves() {
    let (mut state, _keep) = pulse();
    let reversed = |state: &mut UiState, title: &str| {
        let term = screen::render(state, 80, 24);
        let lines = screen::screen_lines(&term);
        let y = lines.iter().position(|l| l.contains(title)).unwrap();
        let x = lines[y][..lines[y].find(title).unwrap()].chars().count() as u16 + 1;
        let cell = &term.backend().buffer()[(x, y as u16)];
        cell.modifier.contains(ratatui::style::Modifier::REVERSED)
    };
    assert!(reversed(&mut state, " pods ") && !reversed(&mut state, " deployments "));
    ktui::app::update::update(&mut state, ktui::keys::Action::ScrollRight);
    assert!(!reversed(&mut state, " pods ") && reversed(&mut state, " deployments "));
    // Down: the tile below in the drawn grid (two a row at 80 columns: statefulsets).
    ktui::app::update::update(&mut state, ktui::keys::Action::Down);
    assert!(!reversed(&mut state, " deployments ") && reversed(&mut state, " daemonsets "));
}
