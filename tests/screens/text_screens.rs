//! The text views at 60×15, 80×24, 160×45 and 250×70: the YAML and describe views of a pod
//! and of an event (long lines cut at the frame with `→` in the title until `w` wraps them;
//! `G` shows a full last page), and the `?` help over pods and over the event timeline,
//! which scrolls to its end at every size (never cut without a way there) and is filtered
//! by `/`.

use std::sync::Arc;

use ktui::app::detail::model::DetailState;
use ktui::app::state::{ListState, ObjectFeed, Screen, Source, UiState};
use ktui::app::update::{type_char, update};
use ktui::keys::Action;
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::object::ObjectView;
use ktui::kube::row::RowCtx;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::kube::sync::SyncState;
use ktui::table::decode_row;
use serde_json::{json, Value};

use crate::screen::{self, render, NOW};

const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (160, 45), (250, 70)];

const QUOTA: &str = "(combined from similar events): Error creating: pods \"web-5d9c\" is forbidden: \
                     exceeded quota: tiny, requested: pods=1, used: pods=9, limited: pods=9";

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn pod() -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "web-7d9f8b6c5d-x2x9k", "namespace": "shop", "uid": "u-web", "resourceVersion": "41",
            "creationTimestamp": ts(7200), "labels": {"app": "web", "pod-template-hash": "7d9f8b6c5d"},
            "annotations": {"example.com/build": format!("sha256:{}", "0123456789abcdef".repeat(6))}},
        "spec": {"nodeName": "worker-3.eu-west-1.compute.internal", "serviceAccountName": "web",
            "containers": [{"name": "app", "image": "registry.example.com/shop/web-frontend:2026.11.30-1a2b3c4d",
                "args": ["--listen=:8080", "--upstream=http://cart.shop.svc.cluster.local:8080/api/v2/carts"]}]},
        "status": {"phase": "Running", "podIP": "10.244.1.17", "podIPs": [{"ip": "10.244.1.17"}],
            "containerStatuses": [{"name": "app", "ready": true, "restartCount": 0,
                "state": {"running": {"startedAt": ts(7000)}}}]}
    })
}

fn event() -> Value {
    json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": "web-5d9c.17f3a", "namespace": "shop", "uid": "u-q1", "resourceVersion": "7",
            "creationTimestamp": ts(3000)},
        "type": "Warning", "reason": "FailedCreate", "message": QUOTA,
        "involvedObject": {"kind": "ReplicaSet", "name": "web-5d9c", "namespace": "shop", "uid": "rs1"},
        "source": {"component": "replicaset-controller"}, "count": 14,
        "firstTimestamp": ts(3040), "lastTimestamp": ts(40)
    })
}

fn detail_state(kind: BuiltinKind, obj: Value, describe: bool) -> UiState {
    let key = ResourceKey::new(kind, Some("shop"));
    let name = obj["metadata"]["name"].as_str().unwrap().to_owned();
    let mut y = DetailState::new(key.clone(), &name);
    y.describe = describe;
    y.clock = Some(NOW);
    y.watch = Some(ObjectFeed::fixed(
        key,
        ObjectView {
            object: Some(Arc::new(obj)),
            deleted: false,
            state: SyncState::Live,
            rev: 1,
        },
    ));
    if let Some(key) = y.events_key() {
        // No events of its own: the section says so.
        let slot = Slot::new(key, 1);
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        std::mem::forget(rx);
        let mut w = StoreWriter::new(slot.clone(), tx);
        w.init();
        w.init_done(Some("1".into()));
        y.events = Some(Source::fixed(slot));
    }
    let mut state = screen::ui_state(Screen::Yaml(Box::new(y)), Some("shop".into()), false);
    screen::connect(&mut state, "prod-eu");
    state
}

fn list_state(kind: BuiltinKind, obj: Value) -> UiState {
    let key = ResourceKey::new(kind, Some("shop"));
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    w.init_apply(decode_row(kind, obj.to_string().as_bytes(), &RowCtx::default()).unwrap());
    w.init_done(Some("9".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    let mut state = screen::ui_state(Screen::List(Box::new(list)), Some("shop".into()), false);
    screen::connect(&mut state, "prod-eu");
    state
}

fn text(state: &mut UiState, w: u16, h: u16) -> String {
    let term = render(state, w, h);
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let line: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The title line of the detail frame (the third screen line).
fn title(screen: &str) -> &str {
    screen.lines().nth(2).unwrap_or("")
}

/// Every framed line ends at the frame: nothing ran over the border.
fn framed(screen: &str) {
    for l in screen.lines().filter(|l| l.starts_with('│')) {
        assert!(l.ends_with('│'), "a line ran over the frame:\n{screen}");
    }
}

#[test]
fn yaml_and_describe_at_four_sizes() {
    for (what, kind, obj) in [
        ("pod", BuiltinKind::Pod, pod()),
        ("event", BuiltinKind::Event, event()),
    ] {
        for describe in [false, true] {
            for (w, h) in SIZES {
                let mut state = detail_state(kind, obj.clone(), describe);
                let first = text(&mut state, w, h);
                framed(&first);
                let view = if describe { "describe" } else { "yaml" };
                insta::assert_snapshot!(format!("{view}_{what}_{w}x{h}"), first);
                // `G`: a full last page, its last line at the bottom of the frame.
                update(&mut state, Action::Bottom);
                let last = text(&mut state, w, h);
                let Screen::Yaml(y) = state.top() else { panic!() };
                let (n, page) = (y.lines.len(), state.screens.layout.page_rows);
                if n > page {
                    assert_eq!(y.scroll, n - page, "{view} {what} {w}x{h}:\n{last}");
                    assert!(title(&last).contains(&format!("-{n}/{n}")), "{last}");
                    let body: Vec<&str> = last.lines().skip(3).take(page).collect();
                    assert!(
                        body.iter().all(|l| l.len() > 2),
                        "no blank rows on the last page:\n{last}"
                    );
                }
                // Narrow: the long lines are cut at the frame and the title says `→`; `w`
                // wraps them (the whole value readable), `←`/`→` scroll otherwise.
                if w <= 80 {
                    update(&mut state, Action::Top);
                    let cut = text(&mut state, w, h);
                    assert!(title(&cut).contains('→'), "{view} {what} {w}x{h}:\n{cut}");
                    update(&mut state, Action::ScrollRight);
                    let shifted = text(&mut state, w, h);
                    assert!(title(&shifted).contains('←'), "{shifted}");
                    update(&mut state, Action::Wrap);
                    let wrapped = text(&mut state, w, h);
                    framed(&wrapped);
                    assert!(title(&wrapped).contains("[wrap]"), "{wrapped}");
                }
            }
        }
    }
}

#[test]
fn wrapped_describe_of_an_event_reads_its_whole_message() {
    let mut state = detail_state(BuiltinKind::Event, event(), false);
    update(&mut state, Action::Wrap);
    for _ in 0..40 {
        let screen = text(&mut state, 60, 15);
        if screen.contains("limited: pods=9") {
            return;
        }
        update(&mut state, Action::PageDown);
    }
    panic!("the quota message's end never showed");
}

#[test]
fn help_at_four_sizes_scrolls_to_its_end() {
    for (what, mut state) in [
        ("pods", list_state(BuiltinKind::Pod, pod())),
        ("events", list_state(BuiltinKind::Event, event())),
    ] {
        for (w, h) in SIZES {
            text(&mut state, w, h);
            update(&mut state, Action::Help);
            let first = text(&mut state, w, h);
            insta::assert_snapshot!(format!("help_{what}_{w}x{h}"), first);
            update(&mut state, Action::Bottom);
            let last = text(&mut state, w, h);
            assert!(last.contains(":ar (:api-resources)"), "{what} {w}x{h}:\n{last}");
            // `/` filters its lines like a list.
            update(&mut state, Action::FilterMode);
            for c in "'wrap".chars() {
                type_char(&mut state, c);
            }
            let filtered = text(&mut state, w, h);
            if what == "events" {
                assert!(!filtered.contains("sort by name"), "{filtered}");
            }
            update(&mut state, Action::Cancel);
            update(&mut state, Action::Back);
            assert!(!state.screens.overlays.help);
        }
    }
}
