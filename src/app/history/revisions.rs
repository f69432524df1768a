//! The revisions view of a deployment (`u`): its ReplicaSets' revisions newest first
//! (REVISION from `deployment.kubernetes.io/revision`, IMAGES, CHANGE-CAUSE from
//! `kubernetes.io/change-cause`, AGE), the one in use marked, kept live by the rollout
//! watch of the deployment (`Effect::WatchRollout`, as its history view); `enter` on an
//! earlier one asks (the dialog names the context, "no" selected) and rolls back, as
//! `kubectl rollout undo --to-revision`. Owns these transitions; must not do I/O (the revisions come from
//! `Effect::ListRevisions`, the rollback is a `WriteOp`).

use crate::keys::Action;
use crate::kube::write::rollback::Revision;
use crate::kube::write::Target;

use crate::app::history::model::RevisionsState;
use crate::app::state::{Screen, UiState};

/// Opens the view on `revs` (newest first), the previous revision selected.
pub fn open(state: &mut UiState, target: Target, revs: Vec<Revision>) {
    if revs.is_empty() {
        state.note(format!("{} has no revisions", target.label()));
        return;
    }
    state.screens.footer.message = None;
    let selected = usize::from(revs.len() > 1);
    state.push(Screen::Revisions(Box::new(RevisionsState {
        target,
        revisions: revs,
        selected,
        rollout: None,
        owner_uid: None,
        seen: 0,
    })));
}

/// `enter`: the rollback dialog for the selected revision. Nothing in read-only mode;
/// `forbidden: patch deployments in NS` when the RBAC gate knows better; the revision in use
/// is refused in words, as kubectl refuses it.
pub fn enter(state: &mut UiState) {
    if state.settings.readonly || crate::app::writes::access::refuse(state, Action::Rollback) {
        return;
    }
    let Screen::Revisions(r) = state.top() else {
        return;
    };
    let Some((rev, in_use)) = r.selected_revision() else {
        return;
    };
    if in_use {
        let msg = format!(
            "revision {} is the one {} runs; choose an earlier one",
            rev.number,
            r.target.label()
        );
        state.note(msg);
        return;
    }
    let (target, rev) = (r.target.clone(), rev.clone());
    crate::app::writes::actions::rollback_dialog(state, target, vec![rev]);
}

/// The revisions of a deployment arrived: its revisions view, or why
/// there is none.
pub fn listed(
    state: &mut UiState,
    target: crate::kube::write::Target,
    revs: Result<Vec<crate::kube::write::rollback::Revision>, String>,
) {
    match revs {
        Ok(r) => open(state, target, r),
        Err(e) => state.screens.footer.message = Some(format!("rollback {}: {e}", target.label())),
    }
}

/// The key the rollout watch of revisions view `r` runs on (and notifies with).
pub fn rollout_key(r: &RevisionsState) -> crate::kube::key::ResourceKey {
    crate::kube::key::ResourceKey::new(r.target.kind.clone(), r.target.namespace.as_deref())
}

/// Rebuilds the rows from the live rollout history when it changed: newest (in use) first,
/// the selection kept on its ReplicaSet. Cheap when nothing changed.
pub fn refresh(r: &mut RevisionsState) {
    let Some(view) = r.rollout.as_ref().map(|v| v.load_full()) else {
        return;
    };
    if !view.listed || view.rev == r.seen {
        return;
    }
    r.seen = view.rev;
    if r.owner_uid.is_none() {
        // The deployment is the owner of the ReplicaSets first listed (an older object of
        // the same name owned others).
        r.owner_uid = view
            .revisions
            .iter()
            .find(|v| r.revisions.iter().any(|x| *x.replicaset == *v.name))
            .map(|v| v.owner_uid.clone());
    }
    let Some(uid) = r.owner_uid.clone() else { return };
    let selected = r.revisions.get(r.selected).map(|x| x.replicaset.clone());
    r.revisions = view
        .revisions
        .iter()
        .filter(|v| v.owner_uid == uid)
        .filter_map(|v| {
            Some(Revision {
                number: u64::try_from(v.number).ok()?,
                replicaset: v.name.to_string(),
                change_cause: v.change_cause.as_deref().map(str::to_owned),
                images: v.images.iter().map(|i| i.to_string()).collect(),
                created: v.created,
            })
        })
        .collect();
    r.selected = selected
        .and_then(|name| r.revisions.iter().position(|x| x.replicaset == name))
        .unwrap_or(r.selected)
        .min(r.revisions.len().saturating_sub(1));
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arc_swap::ArcSwap;
    use serde_json::json;

    use super::*;
    use crate::app::effect::Effect;
    use crate::app::state::ListState;
    use crate::kube::builtin::BuiltinKind;
    use crate::kube::history::rollout::{read, RolloutSource, REVISION};
    use crate::kube::history::rollout_watch::RolloutView;
    use crate::kube::key::ResourceKey;

    fn rs(rev: u32, image: &str) -> serde_json::Value {
        json!({"metadata": {"name": format!("web-{image}"), "creationTimestamp": "2026-01-01T00:00:00Z",
            "annotations": {REVISION: rev.to_string()},
            "ownerReferences": [{"kind": "Deployment", "name": "web", "uid": "u1", "controller": true}]},
            "spec": {"template": {"spec": {"containers": [{"name": "web", "image": image}]}}}})
    }

    fn view(revs: &[(u32, &str)], rev: u64) -> RolloutView {
        let mut v = RolloutView::new(RolloutSource::ReplicaSets);
        v.revisions = revs
            .iter()
            .filter_map(|(n, i)| read(RolloutSource::ReplicaSets, &rs(*n, i), "Deployment", "web"))
            .collect();
        v.listed = true;
        v.rev = rev;
        v
    }

    #[test]
    fn the_revisions_view_follows_its_rollout_watch() {
        let list = ListState::new(ResourceKey::new(BuiltinKind::Deployment, Some("a")), None);
        let mut s = UiState::new(Screen::List(Box::new(list)), Some("a".into()), false);
        s.take_effects();
        let target = Target::new(BuiltinKind::Deployment.into(), Some("a"), "web");
        let rev = |n: u64, image: &str| Revision {
            number: n,
            replicaset: format!("web-{image}"),
            change_cause: None,
            images: vec![image.into()],
            created: None,
        };
        listed(&mut s, target, Ok(vec![rev(2, "v2"), rev(1, "v1")]));
        let fx = s.take_effects();
        let id = s.top_id();
        assert!(
            fx.iter()
                .any(|e| matches!(e, Effect::WatchRollout(i, _, n) if *i == id && n == "web")),
            "{fx:?}"
        );
        let live = Arc::new(ArcSwap::from_pointee(view(&[(2, "v2"), (1, "v1")], 1)));
        assert!(s.attach(id, crate::app::state::Feed::Rollout(live.clone())));
        crate::app::refresh_top::refresh_top(&mut s);
        // Rolled back to revision 1: its ReplicaSet becomes revision 3, in use.
        live.store(Arc::new(view(&[(3, "v1"), (2, "v2")], 2)));
        crate::app::refresh_top::refresh_top(&mut s);
        let Screen::Revisions(r) = s.top() else { panic!() };
        let numbers: Vec<u64> = r.revisions.iter().map(|x| x.number).collect();
        assert_eq!(numbers, [3, 2], "the rows follow the rollback");
        let (sel, in_use) = r.selected_revision().unwrap();
        assert_eq!(
            (sel.replicaset.as_str(), in_use),
            ("web-v1", true),
            "selection kept on its ReplicaSet"
        );
    }
}
