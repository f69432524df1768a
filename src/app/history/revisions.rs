//! The revisions view of a deployment (`u`): its ReplicaSets' revisions newest first
//! (REVISION from `deployment.kubernetes.io/revision`, IMAGES, CHANGE-CAUSE from
//! `kubernetes.io/change-cause`, AGE), the one in use marked; `enter` on an earlier one asks
//! (the dialog names the context, "no" selected) and rolls back, as `kubectl rollout undo
//! --to-revision`. Owns these transitions; must not do I/O (the revisions come from
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
