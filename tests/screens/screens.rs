//! Screen snapshots: the real draw code on ratatui's TestBackend at 80×24 and 160×45 with a
//! fixed clock, for a syncing view, an unreachable view, a forbidden view, a live list and a
//! filtered list with fuzzy highlights (highlight style asserted cell by cell).

use std::sync::Arc;
use std::time::Duration;

use ktui::app::state::{ListState, Screen, Source, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::RowCtx;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::kube::sync::SyncState;
use ktui::table::decode_row;
use ktui::ui::theme::Theme;
use ratatui::style::Color;
use serde_json::json;

use crate::screen;

use screen::NOW;

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn pod(ns: &str, name: &str, age: i64, phase: &str, waiting: Option<&str>, restarts: i64) -> Vec<u8> {
    let mut status = json!({"phase": phase});
    if let Some(reason) = waiting {
        status["containerStatuses"] = json!([{"name": "app", "ready": false, "restartCount": restarts,
            "state": {"waiting": {"reason": reason}},
            "lastState": {"terminated": {"exitCode": 1, "finishedAt": ts(320)}}}]);
    } else if phase == "Running" {
        status["containerStatuses"] = json!([{"name": "app", "ready": true, "restartCount": restarts,
            "state": {"running": {"startedAt": ts(age)}}}]);
        status["conditions"] = json!([{"type": "Ready", "status": "True"}]);
    }
    serde_json::to_vec(&json!({
        "metadata": {"name": name, "namespace": ns, "uid": format!("u-{name}"), "resourceVersion": "1",
                     "creationTimestamp": ts(age), "labels": {"app": name.split('-').next().unwrap()}},
        "spec": {"containers": [{"name": "app", "image": "nginx"}], "nodeName": "node-1"},
        "status": status,
    }))
    .unwrap()
}

fn fixture_pods() -> Vec<Vec<u8>> {
    vec![
        pod("shop", "web-7d9f8b6c5d-x2x9k", 3600 * 5, "Running", None, 0),
        pod("shop", "web-7d9f8b6c5d-q8w7e", 3600 * 5, "Running", None, 0),
        pod("shop", "worker-6b5f7c9d8-abcde", 200, "Running", None, 2),
        pod(
            "shop",
            "cart-5c6d7e8f9-zzzzz",
            86_400 * 3,
            "Running",
            Some("CrashLoopBackOff"),
            17,
        ),
        pod(
            "shop",
            "db-0",
            86_400 * 40,
            "Pending",
            Some("ImagePullBackOff"),
            0,
        ),
        pod("shop", "evil-\u{1b}[31mred\u{7}-pod", 60, "Pending", None, 0),
    ]
}

fn state_with(kind: BuiltinKind, slot: Arc<Slot>, namespace: Option<&str>) -> UiState {
    let key = ResourceKey::new(kind, namespace);
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    let mut state = screen::ui_state(Screen::List(Box::new(list)), namespace.map(str::to_owned), false);
    screen::connect(&mut state, "prod-eu");
    state
}

fn slot_with(kind: BuiltinKind, objects: &[Vec<u8>], finish: Option<SyncState>) -> Arc<Slot> {
    let slot = Slot::new(ResourceKey::new(kind, Some("shop")), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    let ctx = RowCtx::default();
    w.init();
    for o in objects {
        w.init_apply(decode_row(kind, o, &ctx).unwrap());
    }
    match finish {
        None => w.init_done(Some("100".into())),
        Some(state) => {
            w.set_state(state);
            w.publish();
        }
    }
    slot
}

use screen::render;

#[test]
fn live_pods_80x24_and_160x45() {
    let slot = slot_with(BuiltinKind::Pod, &fixture_pods(), None);
    let mut state = state_with(BuiltinKind::Pod, slot, Some("shop"));
    insta::assert_snapshot!("live_pods_80x24", render(&mut state, 80, 24).backend());
    insta::assert_snapshot!("live_pods_160x45", render(&mut state, 160, 45).backend());
}

#[test]
fn wide_all_namespaces_160x45() {
    let slot = slot_with(BuiltinKind::Pod, &fixture_pods(), None);
    let mut state = state_with(BuiltinKind::Pod, slot, None);
    if let Some(l) = state.top_list_mut() {
        l.wide = true;
    }
    insta::assert_snapshot!("wide_all_ns_160x45", render(&mut state, 160, 45).backend());
}

#[test]
fn syncing_view_never_says_no_resources() {
    let slot = slot_with(BuiltinKind::Pod, &[], Some(SyncState::Syncing { received: 1234 }));
    let mut state = state_with(BuiltinKind::Pod, slot, Some("shop"));
    let term = render(&mut state, 80, 24);
    let text = format!("{}", term.backend());
    assert!(text.contains("syncing 1,234…"));
    assert!(!text.contains("no resources"));
    insta::assert_snapshot!("syncing_80x24", term.backend());
}

#[test]
fn a_first_list_shows_its_rows_as_they_arrive_and_says_it_is_syncing() {
    let slot = slot_with(
        BuiltinKind::Pod,
        &fixture_pods(),
        Some(SyncState::Syncing { received: 1234 }),
    );
    let mut state = state_with(BuiltinKind::Pod, slot, Some("shop"));
    let term = render(&mut state, 80, 24);
    let text = format!("{}", term.backend());
    assert!(text.contains("syncing 1,234…"), "{text}");
    assert!(
        text.contains("pods(shop)[6…]"),
        "a partial count, never a total: {text}"
    );
    assert!(text.contains("web-7d9f8b6c5d-q8w7e"), "{text}");
    assert!(!text.contains("no resources"));
    insta::assert_snapshot!("first_list_partial_80x24", term.backend());
}

#[test]
fn unreachable_and_reconnecting_views() {
    let unreachable = SyncState::Unreachable {
        reason: "tcp connect error: Connection refused (os error 111)".into(),
    };
    let slot = slot_with(BuiltinKind::Deployment, &[], Some(unreachable));
    let mut state = state_with(BuiltinKind::Deployment, slot, Some("shop"));
    insta::assert_snapshot!("unreachable_80x24", render(&mut state, 80, 24).backend());
    let forbidden = SyncState::Forbidden {
        verb: "list".into(),
        resource: "secrets".into(),
    };
    let slot2 = slot_with(BuiltinKind::Secret, &[], Some(forbidden));
    let mut state = state_with(BuiltinKind::Secret, slot2, Some("shop"));
    insta::assert_snapshot!("forbidden_80x24", render(&mut state, 80, 24).backend());
}

#[test]
fn reconnecting_after_a_list_keeps_rows_and_says_why() {
    let slot = Slot::new(ResourceKey::new(BuiltinKind::Pod, Some("shop")), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    for o in fixture_pods() {
        w.init_apply(decode_row(BuiltinKind::Pod, &o, &RowCtx::default()).unwrap());
    }
    w.init_done(Some("100".into()));
    w.set_state(SyncState::Reconnecting {
        attempt: 3,
        retry_in: Duration::from_secs(12),
        error: "503: etcd leader changed".into(),
    });
    let mut state = state_with(BuiltinKind::Pod, slot, Some("shop"));
    let term = render(&mut state, 80, 24);
    let text = format!("{}", term.backend());
    assert!(
        text.contains("reconnecting (attempt 3, 12s): 503: etcd leader changed"),
        "{text}"
    );
    assert!(
        text.contains("worker-6b5f7c9d8-abcde"),
        "rows stay visible: {text}"
    );
}

#[test]
fn filtered_view_highlights_matches() {
    let slot = slot_with(BuiltinKind::Pod, &fixture_pods(), None);
    let mut state = state_with(BuiltinKind::Pod, slot, Some("shop"));
    if let Some(l) = state.top_list_mut() {
        l.filter = "wrk".into();
    }
    let term = render(&mut state, 80, 24);
    let text = format!("{}", term.backend());
    assert!(text.contains("[1/6]"), "count shown as matched/total:\n{text}");
    insta::assert_snapshot!("filtered_80x24", term.backend());
    // The highlighted characters w, r, k of `worker-...` carry the highlight style.
    let buf = term.backend().buffer();
    let hl = Theme::new(&state.settings.theme).highlight;
    let y = (0..buf.area.height)
        .find(|&y| {
            (0..buf.area.width).any(|x| buf[(x, y)].symbol() == "w" && buf[(x + 1, y)].symbol() == "o")
        })
        .unwrap();
    let x0 = (0..buf.area.width)
        .find(|&x| buf[(x, y)].symbol() == "w" && buf[(x + 1, y)].symbol() == "o")
        .unwrap();
    let styled: Vec<u16> = (x0..x0 + 6)
        .filter(|&x| buf[(x, y)].fg == hl.fg.unwrap_or_default() && hl.fg.is_some())
        .collect();
    assert_eq!(
        styled,
        [x0, x0 + 2, x0 + 3],
        "w, r and k of 'worker' are highlighted"
    );
}

/// The row health colours, cell by cell (text snapshots drop styles): with the dark theme a
/// CrashLoopBackOff row's STATUS cell is red and a Pending row's yellow.
#[test]
fn row_health_colours_crash_loop_red_pending_yellow() {
    let slot = slot_with(BuiltinKind::Pod, &fixture_pods(), None);
    let mut state = state_with(BuiltinKind::Pod, slot, Some("shop"));
    let term = render(&mut state, 160, 45);
    let buf = term.backend().buffer();
    let spells = |x: u16, y: u16, text: &str| {
        text.chars()
            .enumerate()
            .all(|(i, c)| buf[(x + i as u16, y)].symbol() == c.to_string())
    };
    let find = |y: u16, text: &str| (0..buf.area.width - text.len() as u16).find(|&x| spells(x, y, text));
    let (header, status_x) = (0..buf.area.height)
        .find_map(|y| Some((y, find(y, "STATUS")?)))
        .expect("a STATUS header");
    for (status, colour) in [("CrashLoopBackOff", Color::Red), ("Pending", Color::Yellow)] {
        let y = (header + 1..buf.area.height)
            .find(|&y| {
                spells(status_x, y, status) && buf[(status_x + status.len() as u16, y)].symbol() == " "
            })
            .unwrap_or_else(|| panic!("no {status} row\n{}", term.backend()));
        let fgs: Vec<Color> = (status_x..status_x + status.len() as u16)
            .map(|x| buf[(x, y)].fg)
            .collect();
        assert!(
            fgs.iter().all(|&fg| fg == colour),
            "the STATUS cell {status:?} (row {y}) is drawn in {fgs:?}, not {colour:?}\n{}",
            term.backend()
        );
    }
}

#[test]
fn forbidden_namespace_list_offers_the_configured_fallback() {
    let forbidden = SyncState::Forbidden {
        verb: "list".into(),
        resource: "namespaces".into(),
    };
    let slot = Slot::new(ResourceKey::new(BuiltinKind::Namespace, None), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.set_state(forbidden);
    let mut state = state_with(BuiltinKind::Namespace, slot, None);
    state.settings.fallback = vec!["team-a".into(), "team-b".into()];
    let text = format!("{}", render(&mut state, 80, 24).backend());
    assert!(text.contains("forbidden: list namespaces"), "{text}");
    assert!(
        text.contains("team-a") && text.contains("team-b") && text.contains("<from config>"),
        "{text}"
    );
    // The context's own namespace comes first, labelled as such.
    assert!(text.contains("shop    <context>"), "{text}");
    ktui::app::update::update(&mut state, ktui::keys::Action::Down);
    ktui::app::update::update(&mut state, ktui::keys::Action::Enter);
    let l = state.top_list().unwrap();
    assert_eq!(
        (l.key.kind.builtin(), l.key.namespace.as_deref()),
        (Some(BuiltinKind::Pod), Some("team-a"))
    );
}
