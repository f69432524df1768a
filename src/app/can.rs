//! `:can`: who may do what, from the cluster's RBAC objects — `:can <verb> <resource>` lists
//! the subjects allowed (like `kubectl who-can`), `:can user|group|sa <name>` what one
//! subject may do, and `enter` on a subject goes from the first to the second. Owns the
//! command's syntax and the view's transitions; must not fetch (the loop runs
//! [`Effect::FetchRbac`](crate::app::effect::Effect::FetchRbac)) or draw.

pub mod command;
pub mod model;

use std::sync::Arc;

use crate::kube::rbac::{may_do, who_can, Policy};

use crate::app::effect::ViewId;
use crate::app::state::{Screen, UiState};

use model::{CanMode, CanState};

/// The RBAC objects fetched for view `id` came back: its rows are computed from them (the
/// view keeps them, so `enter` on a subject needs no second fetch).
pub fn answered(state: &mut UiState, id: ViewId, policy: Policy) {
    let policy = Arc::new(policy);
    for (i, screen) in state.screens.stack.views.iter_mut() {
        if let Screen::Can(c) = screen {
            if *i == id {
                c.fill(policy.clone());
            }
        }
    }
}

/// `enter` on a who-can row: what that subject may do, in the same namespace scope, pushed
/// on top (`esc` comes back); the RBAC objects already fetched answer it.
pub fn enter(state: &mut UiState) {
    let Screen::Can(c) = state.top() else { return };
    let (CanMode::WhoCan(ask), Some(policy)) = (&c.mode, &c.policy) else {
        return;
    };
    let Some(subject) = c.subjects.get(c.selected).cloned().flatten() else {
        return;
    };
    let mut next = CanState::new(CanMode::MayDo {
        subject,
        namespace: ask.namespace.clone(),
    });
    next.fill(policy.clone());
    state.push(Screen::Can(Box::new(next)));
}

/// `enter` on a ServiceAccount row: what it may do, everywhere, pushed on top (`esc` comes
/// back to the list). `false` when the top view is no ServiceAccount list with a row.
pub fn open_for_row(state: &mut UiState) -> bool {
    let Some(list) = state.top_list().filter(|l| l.shows_service_accounts()) else {
        return false;
    };
    let Some(row) = list.cache.selected_row(list.selected) else {
        return false;
    };
    let subject = crate::kube::rbac::Subject {
        kind: crate::kube::rbac::SubjectKind::ServiceAccount,
        name: row.name.to_string(),
        namespace: row.namespace.as_deref().unwrap_or_default().to_owned(),
    };
    state.push(Screen::Can(Box::new(CanState::new(CanMode::MayDo {
        subject,
        namespace: None,
    }))));
    true
}

/// Rows of a who-can view for `policy` (one per grant) and the subject of each.
pub(crate) fn who_rows(
    c: &CanState,
    policy: &Policy,
) -> Vec<(Vec<String>, Option<crate::kube::rbac::Subject>)> {
    match &c.mode {
        CanMode::WhoCan(ask) => who_can(policy, ask)
            .into_iter()
            .map(|g| {
                let binding = match &g.binding.namespace {
                    Some(ns) => format!("RoleBinding {ns}/{}", g.binding.name),
                    None => format!("ClusterRoleBinding {}", g.binding.name),
                };
                let role = format!(
                    "{}/{}",
                    if g.role.cluster { "ClusterRole" } else { "Role" },
                    g.role.name
                );
                let only = if g.only_names.is_empty() {
                    String::new()
                } else {
                    format!("only {}", g.only_names.join(", "))
                };
                let cells = vec![
                    g.subject.kind.as_str().to_owned(),
                    g.subject.name.clone(),
                    g.subject.namespace.clone(),
                    binding,
                    role,
                    only,
                ];
                (cells, Some(g.subject))
            })
            .collect(),
        CanMode::MayDo { subject, namespace } => may_do(policy, subject, namespace.as_deref())
            .into_iter()
            .map(|a| {
                let scope = a.namespace.unwrap_or_else(|| "(cluster)".into());
                // `deployments.apps/scale`, as kubectl names a group's subresource.
                let what = match a.resource.split_once('/') {
                    _ if a.url || a.group.is_empty() => a.resource,
                    Some((res, sub)) => format!("{res}.{}/{sub}", a.group),
                    None => format!("{}.{}", a.resource, a.group),
                };
                let cells = vec![
                    scope,
                    what,
                    a.verbs.join(","),
                    a.names.join(","),
                    a.via.join("; "),
                ];
                (cells, None)
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests;
