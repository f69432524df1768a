//! Column widths by value at 60×15, 80×24, 160×45 and 250×70: pods and events (one
//! namespace, all namespaces, wide), with the words that matter of a long MESSAGE kept, the
//! dropped columns named in the title, names cut in the middle (`…` between their ends), CJK
//! and joined emoji measured in cells, and the `v` pane showing a cell in full.

use ktui::app::state::{ListState, Screen, Source, UiState};
use ktui::app::update::update;
use ktui::keys::Action;
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::RowCtx;
use ktui::kube::sink::Sink;
use ktui::kube::store::{Publisher, Slot, StoreWriter};
use ktui::kube::timeline::{TimelineBounds, TimelineWriter};
use ktui::table::{decode_row, EventObj};
use serde_json::json;

use crate::screen::{self, render, NOW};

const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (160, 45), (250, 70)];

const QUOTA: &str = "(combined from similar events): Error creating: pods \"web-5d9c\" is forbidden: \
                     exceeded quota: tiny, requested: pods=1, used: pods=9, limited: pods=9";

fn now() -> i64 {
    NOW
}

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn pod(ns: &str, name: &str, phase: &str, ip: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "metadata": {"name": name, "namespace": ns, "uid": format!("u-{name}"), "resourceVersion": "1",
                     "creationTimestamp": ts(7200)},
        "spec": {"containers": [{"name": "app", "image": "nginx"}], "nodeName": "worker-3.eu-west-1.compute.internal"},
        "status": {"phase": phase, "podIP": ip,
                   "containerStatuses": [{"name": "app", "ready": phase == "Running", "restartCount": 3,
                       "state": {"running": {"startedAt": ts(600)}},
                       "lastState": {"terminated": {"exitCode": 1, "finishedAt": ts(620)}}}]},
    }))
    .unwrap()
}

fn pods_state(all: bool, wide: bool) -> UiState {
    let ns = (!all).then_some("shop");
    let key = ResourceKey::new(BuiltinKind::Pod, ns);
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    let long = "x".repeat(200);
    for o in [
        pod("shop", "web-7d9f8b6c5d-x2x9k", "Running", "10.244.1.17"),
        pod("shop", &format!("cfg-abcdef{long}-001"), "Running", "10.244.1.18"),
        pod("shop", &format!("cfg-abcdef{long}-002"), "Pending", "10.244.1.19"),
        pod("shop", "数据同步-worker-0", "Running", "10.244.2.3"),
    ] {
        w.init_apply(decode_row(BuiltinKind::Pod, &o, &RowCtx::default()).unwrap());
    }
    w.init_done(Some("9".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    list.wide = wide;
    let mut state = screen::ui_state(Screen::List(Box::new(list)), ns.map(str::to_owned), false);
    screen::connect(&mut state, "prod-eu");
    state
}

fn event(name: &str, ago: i64, reason: &str, object: &str, message: &str) -> EventObj {
    serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": "shop", "uid": format!("u-{name}"), "resourceVersion": "1"},
        "type": "Warning", "reason": reason, "message": message,
        "involvedObject": {"kind": "ReplicaSet", "name": object, "namespace": "shop", "uid": "rs1"},
        "source": {"component": "replicaset-controller"}, "count": 14,
        "firstTimestamp": ts(ago + 3000), "lastTimestamp": ts(ago)
    }))
    .unwrap()
}

fn events_state(all: bool, wide: bool) -> UiState {
    let ns = (!all).then_some("shop");
    let key = ResourceKey::new(BuiltinKind::Event, ns);
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut writer = TimelineWriter::with_clock(
        Publisher::new(slot.clone(), tx),
        RowCtx::default(),
        TimelineBounds::default(),
        now,
    );
    writer.init();
    writer.init_apply(event("q1", 40, "FailedCreate", "web-5d9c", QUOTA));
    writer.init_apply(event(
        "s1",
        90,
        "FailedSync",
        "sync-worker",
        "数据同步失败: 👩\u{200d}👩\u{200d}👧 replica lag too high",
    ));
    writer.init_done(Some("10".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    list.wide = wide;
    let mut state = screen::ui_state(Screen::List(Box::new(list)), ns.map(str::to_owned), false);
    screen::connect(&mut state, "prod-eu");
    state
}

fn text(state: &mut UiState, w: u16, h: u16) -> String {
    let term = render(state, w, h);
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..buf.area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let sym = buf[(x, y)].symbol();
            skip = ktui::view::cut::width(sym).saturating_sub(1);
            line.push_str(sym);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Every line of the table fits the frame (no cell ran over the border).
fn framed(screen: &str, w: u16) {
    for l in screen.lines().filter(|l| l.starts_with('│')) {
        assert!(l.ends_with('│'), "a row ran over the frame at {w}:\n{screen}");
    }
}

#[test]
fn pods_at_four_sizes() {
    for all in [false, true] {
        for wide in [false, true] {
            for (w, h) in SIZES {
                let mut state = pods_state(all, wide);
                let s = text(&mut state, w, h);
                framed(&s, w);
                let tag = format!(
                    "pods_{}{}_{w}x{h}",
                    if all { "all" } else { "shop" },
                    if wide { "_wide" } else { "" }
                );
                insta::assert_snapshot!(tag.as_str(), s);
                // The two long names keep their distinguishing tails, the middle cut marked.
                assert!(s.contains("…xxxx-001") || s.contains("-001"), "{tag}\n{s}");
                assert!(s.contains("-002"), "{tag}\n{s}");
                assert!(s.contains("数据同步-worker-0"), "{tag}\n{s}");
                assert!(s.contains("STATUS") && s.contains("NAME"), "{tag}\n{s}");
                if w <= 80 && wide {
                    // Narrow: the addresses go first, and the title names what is hidden.
                    let title = s.lines().nth(2).unwrap_or("");
                    assert!(title.contains(" hidden: ") && title.contains(" IP"), "{tag}\n{s}");
                    assert!(title.contains("NODE"), "{tag}\n{s}");
                }
                if w >= 250 && !wide {
                    assert!(!s.contains(" hidden: "), "{tag}\n{s}");
                }
            }
        }
    }
}

#[test]
fn events_keep_the_cause_of_the_message() {
    for all in [false, true] {
        for wide in [false, true] {
            for (w, h) in SIZES {
                let mut state = events_state(all, wide);
                let s = text(&mut state, w, h);
                framed(&s, w);
                let tag = format!(
                    "events_{}{}_{w}x{h}",
                    if all { "all" } else { "shop" },
                    if wide { "_wide" } else { "" }
                );
                insta::assert_snapshot!(tag.as_str(), s);
                assert!(s.contains("MESSAGE"), "{tag}\n{s}");
                if w >= 160 {
                    // Cut between words: the start and the cause at the end both stay.
                    assert!(s.contains("(combined from similar events):"), "{tag}\n{s}");
                    assert!(s.contains("used: pods=9, limited: pods=9"), "{tag}\n{s}");
                }
                if w >= 250 {
                    assert!(s.contains(QUOTA), "{tag}\n{s}");
                    assert!(
                        s.contains("数据同步失败: 👩\u{200d}👩\u{200d}👧 replica lag too high"),
                        "{tag}\n{s}"
                    );
                }
                if wide {
                    // Wide mode never narrows a column: the normal mode's message is kept.
                    let mut normal = events_state(all, false);
                    let n = text(&mut normal, w, h);
                    let message = |s: &str| {
                        let l = s
                            .lines()
                            .find(|l| l.contains("FailedCreate"))
                            .unwrap_or("")
                            .to_owned();
                        l.find("(combined")
                            .map(|at| l[at..].split("  ").next().unwrap_or("").to_owned())
                    };
                    assert_eq!(message(&s), message(&n), "{tag}\n{s}\n{n}");
                }
            }
        }
    }
}

#[test]
fn scrolling_columns_and_the_full_cells_pane() {
    let mut state = events_state(true, true);
    let before = text(&mut state, 80, 24);
    assert!(before.contains(" hidden: "), "{before}");
    update(&mut state, Action::ScrollRight);
    update(&mut state, Action::ScrollRight);
    let after = text(&mut state, 80, 24);
    assert_ne!(before, after);
    let header = |s: &str| s.lines().nth(4).unwrap_or("").to_owned();
    assert!(!header(&after).contains("NAMESPACE"), "scrolled off: {after}");
    assert!(header(&after).contains("OBJECT"), "OBJECT is pinned: {after}");
    update(&mut state, Action::ScrollLeft);
    update(&mut state, Action::ScrollLeft);
    assert_eq!(text(&mut state, 80, 24), before);
    // `v`: the selected row in full, the whole quota message readable.
    update(&mut state, Action::Cells);
    let pane = text(&mut state, 80, 24);
    insta::assert_snapshot!("cells_pane_80x24", pane);
    let joined: String = pane
        .lines()
        .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(joined.contains("limited: pods=9"), "{pane}");
    update(&mut state, Action::Back);
    assert!(state.screens.overlays.detail.is_none());
}

#[test]
fn the_full_row_aligns_values_after_the_longest_name() {
    let mut state = pods_state(false, true);
    text(&mut state, 200, 50);
    update(&mut state, Action::Cells);
    let pane = text(&mut state, 200, 50);
    insta::assert_snapshot!("cells_pane_pod_200x50", pane);
    // Every value starts in one column, one cell or more after the longest name.
    let starts: Vec<usize> = ["NAMESPACE ", "READY ", "NOMINATED NODE ", "READINESS GATES "]
        .iter()
        .map(|h| {
            let line = pane
                .lines()
                .find(|l| l.starts_with("│   │") && l.contains(h))
                .unwrap_or_else(|| panic!("{h}: {pane}"));
            let after = &line[line.find(h).unwrap() + h.len()..];
            line.chars().count() - after.trim_start().chars().count()
        })
        .collect();
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "{starts:?}\n{pane}");
}

#[test]
fn a_header_with_its_sort_mark_is_never_cut_by_short_cells() {
    // Names shorter than `NAME↑`: the header (with its sort mark) sets the width.
    let key = ResourceKey::new(BuiltinKind::Pod, Some("shop"));
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    w.init_apply(
        decode_row(
            BuiltinKind::Pod,
            &pod("shop", "ab", "Running", "10.0.0.1"),
            &RowCtx::default(),
        )
        .unwrap(),
    );
    w.init_done(Some("9".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    let mut state = screen::ui_state(Screen::List(Box::new(list)), Some("shop".into()), false);
    screen::connect(&mut state, "prod-eu");
    for (cols, rows) in SIZES {
        let s = text(&mut state, cols, rows);
        assert!(s.contains("NAME↑"), "at {cols}x{rows}:\n{s}");
        assert!(!s.contains("NAM…"), "at {cols}x{rows}:\n{s}");
    }
}

/// Found by `fuzz/fuzz_targets/kubeconfig.rs`: a kubeconfig namespace (and a typed filter)
/// reached the list's title unsanitized, so its bidi isolate and BEL went to the screen raw.
#[test]
fn the_title_shows_a_hostile_namespace_and_filter_escaped() {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("ns\u{7}\u{2066}"));
    let mut list = ListState::new(key, None);
    list.filter = "web\u{202e}".into();
    let mut state = screen::ui_state(Screen::List(Box::new(list)), None, false);
    screen::connect(&mut state, "prod-eu");
    let shown = text(&mut state, 100, 10);
    assert!(shown.contains("pods(ns\\u{7}\\u{2066})"), "{shown}");
    assert!(shown.contains("</web\\u{202e}>"), "{shown}");
    assert!(!shown.contains(['\u{7}', '\u{2066}', '\u{202e}']), "{shown}");
}
