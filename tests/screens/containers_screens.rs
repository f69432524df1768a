//! The containers view of a pod at 200×20 and 60×20: a long IMAGE takes the free width and
//! is whole when it fits, else cut in the middle with `…` (never clipped silently); a
//! finished init container's AGE is its own; `v` shows a container's cells in full.

use std::sync::Arc;

use ktui::app::containers::model::ContainersState;
use ktui::app::state::{ObjectFeed, Screen, UiState};
use ktui::app::update::update;
use ktui::keys::Action;
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::object::ObjectView;
use ktui::kube::sync::SyncState;
use serde_json::json;

use crate::screen::{self, NOW};

const IMAGE: &str = "registry.example.com/platform/observability/postgres-exporter:v0.15.0-alpine";

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn state() -> UiState {
    let pod = json!({
        "metadata": {"name": "db-0", "namespace": "shop", "creationTimestamp": ts(86_400 * 3)},
        "spec": {
            "initContainers": [{"name": "init-perms", "image": "busybox:1.36"}],
            "containers": [{"name": "exporter", "image": IMAGE,
                "ports": [{"name": "metrics", "containerPort": 9187}]}]},
        "status": {
            "initContainerStatuses": [{"name": "init-perms", "restartCount": 0, "state": {"terminated": {
                "exitCode": 0, "reason": "Completed", "startedAt": ts(3_600), "finishedAt": ts(3_590)}}}],
            "containerStatuses": [{"name": "exporter", "ready": true, "restartCount": 0,
                "state": {"running": {"startedAt": ts(1_800)}}}]}
    });
    let key = ResourceKey::new(BuiltinKind::Pod, Some("shop"));
    let mut c = ContainersState::new("shop", "db-0");
    c.watch = Some(ObjectFeed::fixed(
        key,
        ObjectView {
            object: Some(Arc::new(pod)),
            deleted: false,
            state: SyncState::Live,
            rev: 1,
        },
    ));
    let mut state = screen::ui_state(Screen::Containers(Box::new(c)), Some("shop".into()), false);
    screen::connect(&mut state, "prod-eu");
    state
}

fn line_of<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines().find(|l| l.contains(name)).unwrap_or_default()
}

#[test]
fn a_long_image_is_whole_where_it_fits_and_marked_where_cut() {
    let mut s = state();
    let wide = format!("{}", screen::render(&mut s, 200, 20).backend());
    assert!(line_of(&wide, "exporter").contains(IMAGE), "{wide}");
    let narrow = format!("{}", screen::render(&mut s, 60, 20).backend());
    assert!(line_of(&narrow, "exporter").contains('…'), "{narrow}");
    insta::assert_snapshot!("containers_200x20", wide);
    insta::assert_snapshot!("containers_60x20", narrow);
}

#[test]
fn a_finished_init_container_shows_its_own_age() {
    let mut s = state();
    let text = format!("{}", screen::render(&mut s, 200, 20).backend());
    // The pod is 3 days old; the init container ran an hour ago, the app 30 minutes ago.
    assert!(line_of(&text, "init-perms").contains("60m"), "{text}");
    assert!(!line_of(&text, "init-perms").contains("3d"), "{text}");
    assert!(line_of(&text, "exporter").contains("30m"), "{text}");
}

#[test]
fn v_shows_the_selected_container_in_full() {
    let mut s = state();
    update(&mut s, Action::Down);
    update(&mut s, Action::Cells);
    let text = format!("{}", screen::render(&mut s, 60, 20).backend());
    assert!(text.contains("row"), "{text}");
    // Wrapped at the overlay's frame: the whole image, in two pieces.
    let (head, tail) = IMAGE.split_at(50);
    assert!(text.contains(head) && text.contains(tail), "{text}");
}
