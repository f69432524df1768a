//! Screen snapshots of history (`h`), its diffs and blame (`b`) at 80x24 and 160x45 with a
//! fixed clock: a Deployment's rollout history (ReplicaSets) above the revisions ktui
//! observed (managers, summaries), the diff of an observed revision, the pod-template diff
//! of two rollout revisions, blame of the same object naming each manager, and a ConfigMap
//! whose deletion a relist found (it went during a watch gap). Times of day are drawn in
//! the local zone and redacted here to `hh:mm:ss`.

use std::sync::Arc;

use arc_swap::ArcSwap;
use ktui::app::detail::model::DetailState;
use ktui::app::state::{ObjectFeed, Screen, UiState};
use ktui::keys::Action;
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::history::rollout::{read, RolloutSource};
use ktui::kube::history::rollout_watch::RolloutView;
use ktui::kube::history::{History, HistoryConfig};
use ktui::kube::key::ResourceKey;
use ktui::kube::object::ObjectView;
use ktui::kube::sync::SyncState;
use serde_json::{json, Value};

use crate::screen;

use screen::NOW;

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

/// `dd:dd:dd` (a local time of day) replaced by `hh:mm:ss`, so the zone cannot matter.
fn redact(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let d = |k: usize| c.get(i + k).is_some_and(char::is_ascii_digit);
        let colon = |k: usize| c.get(i + k) == Some(&':');
        if d(0) && d(1) && colon(2) && d(3) && d(4) && colon(5) && d(6) && d(7) {
            out.push_str("hh:mm:ss");
            i += 8;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn render(state: &mut UiState, w: u16, h: u16) -> String {
    redact(&format!("{}", screen::render(state, w, h).backend()))
}

fn managed(spec_time: i64, scale_time: i64) -> Value {
    json!([
        {"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "apps/v1", "time": ts(spec_time),
         "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
            "f:spec": {"f:selector": {}, "f:template": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                "f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}},
        {"manager": "kubectl", "operation": "Update", "subresource": "scale", "apiVersion": "apps/v1", "time": ts(scale_time),
         "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}},
        {"manager": "ops-bot", "operation": "Update", "apiVersion": "apps/v1", "time": ts(900),
         "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {"f:tier": {}}}}},
        {"manager": "kube-controller-manager", "operation": "Update", "subresource": "status", "apiVersion": "apps/v1",
         "time": ts(60), "fieldsType": "FieldsV1",
         "fieldsV1": {"f:metadata": {"f:annotations": {".": {}, "f:deployment.kubernetes.io/revision": {}}},
            "f:status": {"f:readyReplicas": {}, "f:replicas": {}}}}
    ])
}

fn deployment(rv: u64, image: &str, replicas: u32, tier: bool, revision: u32, ready: u32) -> Value {
    let mut labels = json!({"app": "web"});
    if tier {
        labels["tier"] = json!("db");
    }
    json!({
        "metadata": {"name": "web", "namespace": "shop", "uid": "u-web", "resourceVersion": rv.to_string(),
            "creationTimestamp": ts(86_400 * 3), "generation": revision + replicas, "labels": labels,
            "annotations": {"deployment.kubernetes.io/revision": revision.to_string()},
            "managedFields": managed(600, 1_200)},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": image}]}}},
        "status": {"replicas": replicas, "readyReplicas": ready}
    })
}

fn replicaset(revision: u32, image: &str, age: i64, cause: Option<&str>) -> Value {
    let mut annotations = json!({"deployment.kubernetes.io/revision": revision.to_string()});
    if let Some(c) = cause {
        annotations["kubernetes.io/change-cause"] = json!(c);
    }
    json!({"metadata": {"name": format!("web-{revision}f8c9"), "namespace": "shop", "creationTimestamp": ts(age),
        "annotations": annotations,
        "ownerReferences": [{"kind": "Deployment", "name": "web", "uid": "u-web", "controller": true}]},
        "spec": {"template": {"metadata": {"labels": {"app": "web", "pod-template-hash": format!("{revision}f8c9")}},
            "spec": {"containers": [{"name": "web", "image": image}]}}}})
}

fn rollout() -> RolloutView {
    let mut v = RolloutView::new(RolloutSource::ReplicaSets);
    v.revisions = [
        replicaset(
            3,
            "web:1.5",
            600,
            Some("kubectl set image deployment/web web=web:1.5"),
        ),
        replicaset(2, "web:1.4", 86_400, None),
        replicaset(1, "web:1.3", 86_400 * 3, Some("initial")),
    ]
    .iter()
    .filter_map(|o| read(RolloutSource::ReplicaSets, o, "Deployment", "web"))
    .collect();
    v.listed = true;
    v.state = SyncState::Live;
    v.rev = 1;
    v
}

/// The history view of deployment `web`: four observed revisions (first seen, scaled, a
/// label by another manager, the image change with its status), its three ReplicaSets.
fn history_view(blame: bool) -> UiState {
    let key = ResourceKey::new(BuiltinKind::Deployment, Some("shop"));
    let h = History::new(HistoryConfig::default(), NOW - 3_600);
    for (i, d) in [
        deployment(801, "web:1.4", 1, false, 2, 1),
        deployment(805, "web:1.4", 3, false, 2, 3),
        deployment(809, "web:1.4", 3, true, 2, 3),
        deployment(812, "web:1.5", 3, true, 3, 2),
    ]
    .into_iter()
    .enumerate()
    {
        h.observe("deployments.apps", d, false, NOW - 1_800 + 300 * i as i64);
    }
    let newest = deployment(812, "web:1.5", 3, true, 3, 2);
    let mut y = DetailState::new(key.clone(), "web");
    y.clock = Some(NOW);
    let mut feed = ObjectFeed::fixed(
        key,
        ObjectView {
            object: Some(Arc::new(newest)),
            deleted: false,
            state: SyncState::Live,
            rev: 1,
        },
    );
    feed.history = Some(h);
    y.watch = Some(feed);
    if blame {
        y.blame = true;
    } else {
        let mut hs: Box<ktui::app::history::model::HistoryState> = Box::default();
        hs.rollout = Some(Arc::new(ArcSwap::from_pointee(rollout())));
        y.history = Some(hs);
    }
    let mut state = screen::ui_state(Screen::Yaml(Box::new(y)), Some("shop".into()), false);
    screen::connect(&mut state, "prod-eu");
    state
}

#[test]
fn history_of_a_deployment_shows_its_rollouts_and_observed_revisions() {
    let mut state = history_view(false);
    let text = render(&mut state, 160, 45);
    for want in [
        "history deployment/web",
        "rollout history · 3 ReplicaSets",
        "3 (in use)",
        "kubectl set image deployment/web web=web:1.5",
        "recording since hh:mm:ss · 4 revisions",
        "spec.replicas 1→3",
        "kubectl (Update/scale)",
        "+label tier=db",
        "ops-bot (Update)",
        "image web:1.4→web:1.5",
        "first observed",
    ] {
        assert!(text.contains(want), "{want:?} missing:\n{text}");
    }
    insta::assert_snapshot!("history_deployment_160x45", text);
    let text = render(&mut state, 80, 24);
    assert!(
        text.contains("rollout history") && text.contains("4 revisions"),
        "{text}"
    );
    insta::assert_snapshot!("history_deployment_80x24", text);
}

#[test]
fn the_diff_of_an_observed_revision_and_of_two_rollout_revisions() {
    let mut state = history_view(false);
    render(&mut state, 160, 45);
    // The newest observed revision (selected first) against the one before it.
    ktui::app::update::update(&mut state, Action::Enter);
    let text = render(&mut state, 160, 45);
    assert!(
        text.contains("history diff deployment/web")
            && text.contains("~ spec.template.spec.containers[web].image: web:1.4 → web:1.5"),
        "{text}"
    );
    insta::assert_snapshot!("history_diff_160x45", text);
    insta::assert_snapshot!("history_diff_80x24", render(&mut state, 80, 24));
    // Back, to the top row (rollout revision 3), enter: its template against revision 2's.
    ktui::app::update::update(&mut state, Action::Back);
    ktui::app::update::update(&mut state, Action::Top);
    ktui::app::update::update(&mut state, Action::Enter);
    let text = render(&mut state, 80, 24);
    assert!(text.contains("rollout diff: revision 2"), "{text}");
    insta::assert_snapshot!("history_rollout_diff_80x24", text);
}

#[test]
fn blame_names_the_manager_of_each_line() {
    let mut state = history_view(true);
    let text = render(&mut state, 160, 45);
    let line = |needle: &str| {
        text.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(line("replicas: 3").contains("kubectl (Update/scale)"), "{text}");
    assert!(line("tier: db").contains("ops-bot (Update)"), "{text}");
    assert!(
        line("image: web:1.5").contains("kubectl-client-side-apply (Update)"),
        "{text}"
    );
    assert!(
        line("readyReplicas: 2").contains("kube-controller-manager (Update/status)"),
        "{text}"
    );
    insta::assert_snapshot!("blame_deployment_160x45", text);
    insta::assert_snapshot!("blame_deployment_80x24", render(&mut state, 80, 24));
}

#[test]
fn a_relist_marks_an_object_deleted_during_the_watch_gap() {
    let key = ResourceKey::new(BuiltinKind::ConfigMap, Some("shop"));
    let h = History::new(HistoryConfig::default(), NOW - 3_600);
    let cm = |rv: u64, mode: &str| {
        json!({"metadata": {"name": "settings", "namespace": "shop", "uid": "u-s", "resourceVersion": rv.to_string()},
            "data": {"mode": mode}})
    };
    h.observe("configmaps", cm(40, "blue"), true, NOW - 1_200);
    h.observe("configmaps", cm(41, "green"), false, NOW - 900);
    // The watch broke; the relist after it no longer lists `settings`.
    h.relisted("configmaps", Some("shop"), &Default::default(), NOW - 60);
    let mut y = DetailState::new(key.clone(), "settings");
    y.clock = Some(NOW);
    let mut feed = ObjectFeed::fixed(
        key,
        ObjectView {
            object: Some(Arc::new(cm(41, "green"))),
            deleted: true,
            state: SyncState::Live,
            rev: 1,
        },
    );
    feed.history = Some(h);
    y.watch = Some(feed);
    y.history = Some(Box::default());
    let mut state = screen::ui_state(Screen::Yaml(Box::new(y)), Some("shop".into()), false);
    screen::connect(&mut state, "prod-eu");
    let text = render(&mut state, 100, 24);
    assert!(
        text.contains("deleted in a watch gap (relist hh:mm:ss)"),
        "{text}"
    );
    insta::assert_snapshot!("history_deleted_at_relist_100x24", text);
}
