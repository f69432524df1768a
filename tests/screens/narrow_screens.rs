//! What stays on a small terminal (60×20) and what a large one (200×50) adds, per kind:
//! `:events` keeps TYPE, REASON, OBJECT and MESSAGE (SOURCE, COUNT and the times go first)
//! and cuts a message between words; pods keep READY and a whole STATUS
//! (`ContainerCreating`, `CrashLoopBackOff`), RESTARTS and AGE going first.

use ktui::app::state::{ListState, Screen, Source, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::RowCtx;
use ktui::kube::sink::Sink;
use ktui::kube::store::{Publisher, Slot, StoreWriter};
use ktui::kube::timeline::{TimelineBounds, TimelineWriter};
use ktui::table::{decode_row, EventObj};
use serde_json::json;

use crate::screen::{self, render, NOW};

fn now() -> i64 {
    NOW
}

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn event(name: &str, ago: i64, kind: &str, reason: &str, object: (&str, &str), message: &str) -> EventObj {
    serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": "batch", "uid": format!("u-{name}"), "resourceVersion": "1"},
        "type": kind, "reason": reason, "message": message,
        "involvedObject": {"kind": object.0, "name": object.1, "namespace": "batch", "uid": "o1"},
        "source": {"component": "job-controller"}, "count": 3,
        "firstTimestamp": ts(ago + 3000), "lastTimestamp": ts(ago)
    }))
    .unwrap()
}

fn events_state() -> UiState {
    let key = ResourceKey::new(BuiltinKind::Event, None);
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = TimelineWriter::with_clock(
        Publisher::new(slot.clone(), tx),
        RowCtx::default(),
        TimelineBounds::default(),
        now,
    );
    w.init();
    w.init_apply(event(
        "e1",
        30,
        "Normal",
        "SuccessfulCreate",
        ("Job", "nightly-report-29000000"),
        "Created pod: nightly-report-29000000-p9dqj",
    ));
    w.init_apply(event(
        "e2",
        60,
        "Warning",
        "NodeNotReady",
        ("Node", "worker-4"),
        "Node worker-4 status is now: NodeNotReady",
    ));
    w.init_apply(event(
        "e3",
        90,
        "Warning",
        "BackOff",
        ("Pod", "web-7d9f8b6c5d-x2x9k"),
        "Back-off restarting failed container web in pod web-7d9f8b6c5d-x2x9k",
    ));
    w.init_done(Some("10".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    let mut state = screen::ui_state(Screen::List(Box::new(list)), None, false);
    screen::connect(&mut state, "prod-eu");
    state
}

fn pod(ns: &str, name: &str, waiting: Option<&str>) -> Vec<u8> {
    let state = match waiting {
        Some(reason) => json!({"waiting": {"reason": reason}}),
        None => json!({"running": {"startedAt": ts(600)}}),
    };
    serde_json::to_vec(&json!({
        "metadata": {"name": name, "namespace": ns, "uid": format!("u-{name}"), "resourceVersion": "1",
                     "creationTimestamp": ts(7200)},
        "spec": {"containers": [{"name": "app", "image": "nginx"}], "nodeName": "worker-3"},
        "status": {"phase": if waiting.is_some() { "Pending" } else { "Running" }, "podIP": "10.244.1.17",
                   "containerStatuses": [{"name": "app", "ready": waiting.is_none(), "restartCount": 12,
                       "state": state,
                       "lastState": {"terminated": {"exitCode": 1, "finishedAt": ts(620)}}}]},
    }))
    .unwrap()
}

fn pods_state() -> UiState {
    let key = ResourceKey::new(BuiltinKind::Pod, None);
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    for o in [
        pod("kube-system", "kube-proxy-7e36e", Some("ContainerCreating")),
        pod("shop", "web-7d9f8b6c5d-x2x9k", Some("CrashLoopBackOff")),
        pod("shop", "cart-backend-5c8d7f9b6-l6lcr", None),
    ] {
        w.init_apply(decode_row(BuiltinKind::Pod, &o, &RowCtx::default()).unwrap());
    }
    w.init_done(Some("9".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    let mut state = screen::ui_state(Screen::List(Box::new(list)), None, false);
    screen::connect(&mut state, "prod-eu");
    state
}

fn draw(state: &mut UiState, w: u16, h: u16) -> String {
    let term = render(state, w, h);
    screen::assert_cuts_marked(state, &term);
    screen::screen_lines(&term).join("\n")
}

#[test]
fn events_keep_type_reason_object_and_message() {
    for (w, h) in [(60, 20), (200, 50)] {
        let s = draw(&mut events_state(), w, h);
        insta::assert_snapshot!(format!("events_{w}x{h}"), s);
        for head in ["TYPE", "REASON", "OBJECT", "MESSAGE"] {
            assert!(s.contains(head), "{head} at {w}x{h}:\n{s}");
        }
        assert!(s.contains("Warning") && s.contains("Normal"), "{w}x{h}:\n{s}");
    }
    let s = draw(&mut events_state(), 60, 20);
    // Cut between words: the start and the end of each message are whole words.
    assert!(
        s.contains("Node…NodeNotReady") || s.contains("Node worker-4 status is now: NodeNotReady"),
        "{s}"
    );
    assert!(!s.contains("Created pod…"), "{s}");
    let s = draw(&mut events_state(), 200, 50);
    assert!(s.contains("LAST SEEN") && s.contains("SOURCE"), "{s}");
    assert!(
        s.contains("Back-off restarting failed container web in pod web-7d9f8b6c5d-x2x9k"),
        "{s}"
    );
}

#[test]
fn pods_keep_a_whole_status() {
    for (w, h) in [(60, 20), (200, 50)] {
        let s = draw(&mut pods_state(), w, h);
        insta::assert_snapshot!(format!("pods_{w}x{h}"), s);
        for v in ["READY", "STATUS", "ContainerCreating", "CrashLoopBackOff"] {
            assert!(s.contains(v), "{v} at {w}x{h}:\n{s}");
        }
    }
    let s = draw(&mut pods_state(), 200, 50);
    assert!(s.contains("RESTARTS") && s.contains("AGE"), "{s}");
}
