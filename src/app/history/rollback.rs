//! A workload's history view and the cluster: asking the loop for its rollout history
//! ([`rollout_feed`], with the selector reader the kube task is given), and rollback from
//! a selected rollout revision of a Deployment (`u`): the actions' rollback dialog (naming
//! the context, "no" selected) opened on that revision; it writes, so read-only hides it.
//! Pure state changes; must not do I/O.

use serde_json::Value;

use crate::app::detail::model::DetailState;
use crate::app::effect::Effect;
use crate::app::state::{Screen, UiState, ViewId};
use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::history::rollout::RolloutSource;
use crate::kube::write::rollback::Revision;
use crate::kube::write::Target;

/// The effect starting the rollout watch of history view `id`, when it shows a workload's
/// history without one.
pub fn rollout_feed(id: ViewId, y: &DetailState) -> Option<Effect> {
    let h = y.history.as_deref()?;
    (h.rollout.is_none() && RolloutSource::of(&y.key.kind).is_some())
        .then(|| Effect::WatchRollout(id, y.key.clone(), y.name.clone()))
}

/// A workload's `spec.selector` as a `labelSelector` value (kubectl lists a rollout's
/// ReplicaSets and ControllerRevisions by it); `None` when missing or invalid.
pub fn selector_of(obj: &Value) -> Option<String> {
    let sel = obj.pointer("/spec/selector")?;
    let sel: crate::table::labels::LabelSelector = serde_json::from_value(sel.clone()).ok()?;
    sel.to_query().ok()
}

/// The history view on top in its list mode, if one is.
fn history_on_top(state: &UiState) -> Option<&DetailState> {
    match state.top() {
        Screen::Yaml(y) if y.history.as_ref().is_some_and(|h| h.diff.is_none()) => Some(y),
        _ => None,
    }
}

/// `Some(applies)` for rollback while a history view is on top (a Deployment's rollout
/// revision selected); `None` elsewhere. Read-only is decided before.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    if action != Action::Rollback {
        return None;
    }
    let y = history_on_top(state)?;
    let h = y.history.as_deref()?;
    Some(y.key.kind == BuiltinKind::Deployment && h.selected_rollout().is_some())
}

/// `u` on a rollout revision of a Deployment's history: the rollback dialog with that
/// revision chosen, or why not (the revision in use, forbidden). False when the action is
/// not rollback in a history view.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    if applies(state, action) != Some(true) {
        return false;
    }
    if let Some(p) = crate::app::writes::access::forbidden(state, action, std::time::Instant::now()) {
        state.screens.footer.message = Some(format!("forbidden: {p}"));
        return true;
    }
    let Some(y) = history_on_top(state) else {
        return false;
    };
    let Some(h) = y.history.as_deref() else {
        return false;
    };
    let Some(chosen) = h.selected_rollout().map(|r| r.number) else {
        return false;
    };
    let target = Target::new(y.key.kind.clone(), y.key.namespace.as_deref(), &y.name);
    let revisions: Vec<Revision> = h
        .rollout_revisions()
        .iter()
        .filter_map(|r| {
            Some(Revision {
                number: u64::try_from(r.number).ok()?,
                replicaset: r.name.to_string(),
                change_cause: r.change_cause.as_deref().map(str::to_owned),
                images: r.images.iter().map(|i| i.to_string()).collect(),
                created: r.created,
            })
        })
        .collect();
    if revisions.first().map(|r| i64::try_from(r.number).ok()) == Some(Some(chosen)) {
        state.note(format!(
            "revision {chosen} is the newest, the one {} runs: choose an older one to roll back to",
            target.label()
        ));
        return true;
    }
    // As from the revisions view: the dialog names the one chosen revision.
    let Some(rev) = revisions
        .into_iter()
        .find(|r| i64::try_from(r.number).ok() == Some(chosen))
    else {
        return true;
    };
    crate::app::writes::actions::rollback_dialog(state, target, vec![rev]);
    true
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arc_swap::ArcSwap;
    use serde_json::json;

    use super::*;
    use crate::app::state::{ListState, ObjectFeed};
    use crate::app::update::update;
    use crate::kube::history::rollout::{read, REVISION};
    use crate::kube::history::rollout_watch::RolloutView;
    use crate::kube::history::{History, HistoryConfig};
    use crate::kube::key::ResourceKey;
    use crate::kube::object::ObjectView;
    use crate::kube::sync::SyncState;

    fn deploy(rv: u64, image: &str, rev: u32) -> Value {
        json!({"metadata": {"name": "web", "namespace": "a", "uid": "u1", "resourceVersion": rv.to_string(),
            "annotations": {REVISION: rev.to_string()}},
            "spec": {"selector": {"matchLabels": {"app": "web"}},
                "template": {"spec": {"containers": [{"name": "web", "image": image}]}}}})
    }

    fn rs(rev: u32, image: &str, owner_uid: &str) -> Value {
        json!({"metadata": {"name": format!("web-{rev}"), "creationTimestamp": "2026-01-01T00:00:00Z",
            "annotations": {REVISION: rev.to_string(), "kubernetes.io/change-cause": format!("set image {image}")},
            "ownerReferences": [{"kind": "Deployment", "name": "web", "uid": owner_uid, "controller": true}]},
            "spec": {"template": {"metadata": {"labels": {"app": "web", "pod-template-hash": format!("h{rev}")}},
                "spec": {"containers": [{"name": "web", "image": image}]}}}})
    }

    fn rollout() -> RolloutView {
        let mut v = RolloutView::new(RolloutSource::ReplicaSets);
        v.revisions = [
            rs(3, "web:1.5", "u1"),
            rs(2, "web:1.4", "u1"),
            rs(1, "web:1.3", "u1"),
            rs(9, "old", "u0"),
        ]
        .iter()
        .filter_map(|o| read(RolloutSource::ReplicaSets, o, "Deployment", "web"))
        .collect();
        v.revisions.sort_by_key(|r| std::cmp::Reverse(r.number));
        v.listed = true;
        v.state = SyncState::Live;
        v.rev = 1;
        v
    }

    fn state(readonly: bool) -> UiState {
        let key = ResourceKey::new(BuiltinKind::Deployment, Some("a"));
        let h = History::new(HistoryConfig::default(), 0);
        h.observe("deployments.apps", deploy(10, "web:1.4", 2), false, 60);
        h.observe("deployments.apps", deploy(11, "web:1.5", 3), false, 120);
        let mut y = DetailState::new(key.clone(), "web");
        y.clock = Some(1_767_225_600 + 600);
        let view = ObjectView {
            object: Some(Arc::new(deploy(11, "web:1.5", 3))),
            ..ObjectView::default()
        };
        let mut feed = ObjectFeed::fixed(key, view);
        feed.history = Some(h);
        y.watch = Some(feed);
        y.history = Some(Box::default());
        let list = ListState::new(ResourceKey::new(BuiltinKind::Deployment, Some("a")), None);
        let mut s = UiState::new(Screen::List(Box::new(list)), Some("a".into()), readonly);
        s.conn.context = Some("prod-eu".into());
        let id = s.push(Screen::Yaml(Box::new(y)));
        assert!(
            s.take_effects().contains(&Effect::WatchRollout(
                id,
                ResourceKey::new(BuiltinKind::Deployment, Some("a")),
                "web".into()
            )),
            "a workload's history asks for its rollout history"
        );
        assert!(s.attach(
            id,
            crate::app::state::Feed::Rollout(Arc::new(ArcSwap::from_pointee(rollout())))
        ));
        if let Screen::Yaml(y) = s.top_mut() {
            y.refresh();
        }
        s
    }

    fn lines(s: &UiState) -> Vec<String> {
        match s.top() {
            Screen::Yaml(y) => y.lines.clone(),
            _ => panic!("not a detail view"),
        }
    }

    fn selected(s: &UiState) -> Option<i64> {
        match s.top() {
            Screen::Yaml(y) => y.history.as_ref()?.selected_rollout().map(|r| r.number),
            _ => None,
        }
    }

    #[test]
    fn a_deployments_history_shows_its_replicasets_above_the_observed_revisions() {
        let s = state(false);
        let l = lines(&s);
        assert!(l[0].starts_with("rollout history · 3 ReplicaSets"), "{l:#?}");
        assert!(l[1].contains("REVISION") && l[1].contains("CHANGE-CAUSE"));
        assert!(
            l[2].contains("3 (in use)")
                && l[2].contains("10m")
                && l[2].contains("web:1.5")
                && l[2].contains("set image web:1.5"),
            "{l:#?}"
        );
        assert!(l[4].contains(" 1 ") && l[4].contains("web:1.3"));
        assert!(
            !l.iter().any(|x| x.contains("old")),
            "another object's revision is left out: {l:#?}"
        );
        assert_eq!(l[5], "");
        assert!(l[6].contains("2 revisions"));
        // The selection starts on the newest observed revision.
        assert_eq!(selected(&s), None);
        let Screen::Yaml(y) = s.top() else { panic!() };
        assert_eq!(y.history.as_ref().unwrap().selected_line(), Some(8));
    }

    #[test]
    fn enter_on_a_rollout_revision_diffs_its_pod_template_against_the_one_before() {
        let mut s = state(false);
        update(&mut s, Action::Top);
        assert_eq!(selected(&s), Some(3));
        update(&mut s, Action::Enter);
        let l = lines(&s);
        assert!(
            l[0].starts_with("rollout diff: revision 2 (web-2, 10m old) → revision 3 (web-3"),
            "{l:#?}"
        );
        assert!(
            l.contains(&"~ spec.template.spec.containers[web].image: web:1.4 → web:1.5".to_owned()),
            "{l:#?}"
        );
        assert!(!l.iter().any(|x| x.contains("pod-template-hash")), "{l:#?}");
        update(&mut s, Action::Back);
        // Two marks: 3 and 1; a mark on an observed row starts over.
        update(&mut s, Action::MarkRevision);
        update(&mut s, Action::Down);
        update(&mut s, Action::Down);
        update(&mut s, Action::MarkRevision);
        assert!(lines(&s)[2].starts_with('*') && lines(&s)[4].starts_with('*'));
        update(&mut s, Action::Enter);
        assert!(
            lines(&s).contains(&"~ spec.template.spec.containers[web].image: web:1.3 → web:1.5".to_owned())
        );
        update(&mut s, Action::Back);
        update(&mut s, Action::MarkRevision);
        update(&mut s, Action::Enter);
        assert!(s
            .screens
            .footer
            .message
            .as_deref()
            .unwrap_or("")
            .contains("revision 1 is the oldest"));
        // Ctrl-s text holds both parts and the template diffs.
        let Screen::Yaml(y) = s.top() else { panic!() };
        let saved = y.save_text();
        assert!(
            saved.contains("rollout history · 3 ReplicaSets") && saved.matches("rollout diff").count() == 2,
            "{saved}"
        );
        assert!(
            saved.contains("2 revisions") && saved.contains("diff rv 10"),
            "{saved}"
        );
    }

    #[test]
    fn u_on_an_older_rollout_revision_opens_the_rollback_dialog_on_it() {
        let mut s = state(false);
        assert!(!s.applies(Action::Rollback), "not on an observed revision");
        update(&mut s, Action::Top);
        assert!(s.applies(Action::Rollback));
        update(&mut s, Action::Rollback);
        assert!(s.screens.overlays.dialog.is_none());
        assert!(s
            .screens
            .footer
            .message
            .as_deref()
            .unwrap_or("")
            .contains("revision 3 is the newest"));
        update(&mut s, Action::Down);
        update(&mut s, Action::Down);
        update(&mut s, Action::Rollback);
        let d = s.screens.overlays.dialog.as_ref().expect("the rollback dialog");
        assert_eq!(d.context, "prod-eu");
        assert!(!d.yes, "no is selected");
        assert!(d.title.contains("deployment/web"), "{}", d.title);
        let crate::app::writes::model::Field::Choice { options, at, .. } = &d.fields[0] else {
            panic!()
        };
        assert!(options[*at].starts_with("1 "), "{options:?} at {at}");
        // Read-only: not offered at all.
        let mut s = state(true);
        update(&mut s, Action::Top);
        assert!(!s.applies(Action::Rollback));
        update(&mut s, Action::Rollback);
        assert!(s.screens.overlays.dialog.is_none());
    }

    #[test]
    fn the_selector_reads_match_labels_and_expressions() {
        let d = json!({"spec": {"selector": {"matchLabels": {"app": "web"},
            "matchExpressions": [{"key": "tier", "operator": "In", "values": ["b", "a"]}]}}});
        assert_eq!(selector_of(&d).as_deref(), Some("app=web,tier in (a,b)"));
        assert_eq!(selector_of(&json!({"spec": {}})), None);
    }
}
