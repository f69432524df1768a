//! The timeline on screen (TestBackend, fixed clock): newest first with the sparkline, tail
//! mode following new events on top, `↑ N new` once the user scrolled away, the detail
//! overlay, and expired events dimmed.

use std::sync::Arc;

use ktui::app::refresh_top::refresh_top;
use ktui::app::state::{ListState, Screen, Source, UiState};
use ktui::app::update::update;
use ktui::keys::Action;
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::RowCtx;
use ktui::kube::sink::Sink;
use ktui::kube::store::{Publisher, Slot};
use ktui::kube::timeline::{TimelineBounds, TimelineWriter};
use ktui::table::EventObj;
use serde_json::json;

use crate::screen;

use screen::NOW;

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn now() -> i64 {
    NOW
}

fn ev(name: &str, ago: i64, warning: bool, reason: &str) -> EventObj {
    serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": "shop", "uid": format!("u-{name}"), "resourceVersion": "1"},
        "type": if warning { "Warning" } else { "Normal" }, "reason": reason,
        "message": format!("{reason} happened to web-0\nsecond line"),
        "involvedObject": {"kind": "Pod", "name": "web-0", "namespace": "shop", "uid": "p1"},
        "source": {"component": "kubelet", "host": "node-1"}, "count": 2,
        "firstTimestamp": ts(ago + 100), "lastTimestamp": ts(ago)
    }))
    .unwrap()
}

struct Fixture {
    writer: TimelineWriter<EventObj>,
    state: UiState,
}

fn fixture() -> Fixture {
    let key = ResourceKey::new(BuiltinKind::Event, Some("shop"));
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
    for i in 0..12 {
        let warning = i % 4 == 0;
        writer.init_apply(ev(
            &format!("e{i:02}"),
            30 + i * 170,
            warning,
            if warning { "BackOff" } else { "Pulled" },
        ));
    }
    writer.init_done(Some("10".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    let mut state = screen::ui_state(Screen::List(Box::new(list)), Some("shop".into()), false);
    screen::connect(&mut state, "prod");
    Fixture { writer, state }
}

fn draw(state: &mut UiState) -> String {
    format!("{}", screen::render(state, 100, 20).backend())
}

fn selected_name(state: &UiState) -> String {
    let l = state.top_list().unwrap();
    l.cache.selected_row(l.selected).unwrap().name.to_string()
}

#[test]
fn newest_first_with_sparkline() {
    let mut f = fixture();
    let screen = draw(&mut f.state);
    insta::assert_snapshot!("timeline_100x20", screen);
    assert_eq!(selected_name(&f.state), "e00");
}

#[test]
fn tail_mode_follows_and_counts_new_events_when_scrolled_away() {
    let mut f = fixture();
    draw(&mut f.state);
    // At the top: a new event appears on top and the cursor follows it.
    f.writer.apply(ev("fresh1", 1, false, "Started"));
    f.writer.publish();
    draw(&mut f.state);
    assert_eq!(selected_name(&f.state), "fresh1");
    // Scrolled away: the view stays on the same event and the header counts new ones.
    update(&mut f.state, Action::Down);
    update(&mut f.state, Action::Down);
    let at = selected_name(&f.state);
    f.writer.apply(ev("fresh2", 0, true, "Killing"));
    f.writer.apply(ev("fresh3", 0, false, "Created"));
    f.writer.publish();
    let screen = draw(&mut f.state);
    assert_eq!(selected_name(&f.state), at, "the view stays put");
    assert!(screen.contains("↑ 2 new"), "{screen}");
    // `g g` returns to the top and follows again.
    update(&mut f.state, Action::Top);
    let screen = draw(&mut f.state);
    assert!(!screen.contains(" new"), "{screen}");
    f.writer.apply(ev("fresh4", -1, false, "Pulling"));
    f.writer.publish();
    draw(&mut f.state);
    assert_eq!(selected_name(&f.state), "fresh4");
}

#[test]
fn the_event_detail_names_the_action_and_the_related_object() {
    let mut f = fixture();
    draw(&mut f.state);
    let mut bound: EventObj = serde_json::from_value(json!({
        "metadata": {"name": "bound", "namespace": "shop", "uid": "u-bound", "resourceVersion": "2"},
        "type": "Normal", "reason": "Scheduled", "action": "Binding", "message": "Successfully assigned",
        "involvedObject": {"kind": "Pod", "name": "web-0", "namespace": "shop", "uid": "p1"},
        "related": {"kind": "Node", "name": "node-2", "uid": "n2"},
        "reportingComponent": "default-scheduler", "eventTime": ts(1)
    }))
    .unwrap();
    f.writer.apply(bound.clone());
    f.writer.publish();
    draw(&mut f.state);
    assert_eq!(selected_name(&f.state), "bound");
    update(&mut f.state, Action::Enter);
    let screen = draw(&mut f.state);
    assert!(screen.contains("RELATED       Node/node-2 n2"), "{screen}");
    assert!(screen.contains("ACTION        Binding"), "{screen}");
    update(&mut f.state, Action::Back);
    // Without them: no empty lines for them.
    bound.action = String::new();
    bound.related = None;
    f.writer.apply(bound);
    f.writer.publish();
    draw(&mut f.state);
    update(&mut f.state, Action::Enter);
    let screen = draw(&mut f.state);
    assert!(
        !screen.contains("RELATED") && !screen.contains("ACTION "),
        "{screen}"
    );
}

#[test]
fn enter_opens_the_detail_and_expired_events_are_marked() {
    let mut f = fixture();
    f.writer.delete(ev("e00", 30, true, "BackOff"));
    f.writer.publish();
    draw(&mut f.state);
    update(&mut f.state, Action::Enter);
    let screen = draw(&mut f.state);
    assert!(screen.contains("second line"), "{screen}");
    assert!(screen.contains("no longer on the server"), "{screen}");
    let row = f.state.screens.overlays.detail.clone().unwrap();
    assert_eq!(row.health, ktui::kube::row::Health::Done);
    update(&mut f.state, Action::Down);
    assert!(
        f.state.screens.overlays.detail.is_some(),
        "arrows scroll the detail"
    );
    update(&mut f.state, Action::Back);
    assert!(
        f.state.screens.overlays.detail.is_none(),
        "any other key closes the detail"
    );
    let _ = Arc::strong_count(&row);
}

#[test]
fn the_filter_searches_reason_object_message_and_the_event_name() {
    let mut f = fixture();
    let count = |state: &mut UiState, filter: &str| {
        if let Some(l) = state.top_list_mut() {
            l.filter = filter.into();
        }
        refresh_top(state);
        state.top_list().unwrap().cache.len()
    };
    assert_eq!(count(&mut f.state, "BackOff"), 3, "by reason");
    assert_eq!(count(&mut f.state, "happened"), 12, "by message");
    assert_eq!(count(&mut f.state, "pod/web-0"), 12, "by object");
    assert_eq!(count(&mut f.state, "'e07"), 1, "by the Event's own name");
    // A scoped term counts against the whole timeline.
    assert_eq!(count(&mut f.state, "reason:BackOff"), 3);
    assert_eq!(f.state.top_list().unwrap().cache.total(), 12, "3/12, not 3/3");
}

#[test]
fn acting_on_the_newest_event_pins_it_so_the_next_key_acts_on_the_same_one() {
    let mut f = fixture();
    draw(&mut f.state);
    assert_eq!(selected_name(&f.state), "e00");
    // `d` on the newest event in tail mode, then new events arrive while it is open.
    update(&mut f.state, Action::Describe);
    f.writer.apply(ev("fresh1", 1, false, "Started"));
    f.writer.apply(ev("fresh2", 0, false, "Created"));
    f.writer.publish();
    update(&mut f.state, Action::Back);
    let screen = draw(&mut f.state);
    assert_eq!(selected_name(&f.state), "e00", "y now acts on the event d showed");
    assert!(screen.contains("↑ 2 new"), "{screen}");
    // `g g` follows again.
    update(&mut f.state, Action::Top);
    draw(&mut f.state);
    assert_eq!(selected_name(&f.state), "fresh2");
}
