//! The RBAC gate of actions: which permission an action needs on a kind ([`need`], generic so
//! exec/attach/port-forward plug in with one line each), the answers of `SelfSubjectAccessReview`s
//! cached per (context, permission) with a short TTL, and the questions to ask in the background
//! for what the view on top could offer ([`wanted`]). An action known to be forbidden is not
//! offered (footer, help) and pressing its key says `forbidden: delete pods in team-a` without
//! sending anything. Owns that rule (the cache is `writes::model::AccessCache`); must not perform
//! I/O (the loop asks the server, see `Effect::CheckAccess`).

use std::time::Instant;

use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::kind::Kind;
use crate::kube::write::access::Permission;

use super::model::AccessQuery;
use crate::app::state::UiState;

/// The permission `action` needs on objects of `kind` in `namespace` (`""` for
/// cluster-scoped kinds), or `None` when it needs none (it does not write).
pub fn need(action: Action, kind: &Kind, namespace: &str) -> Option<Permission> {
    let ns = if kind.namespaced() { namespace } else { "" };
    let on = |verb: &'static str, kind: &Kind, sub: &'static str| Permission {
        verb,
        group: kind.group().to_owned(),
        resource: kind.plural().to_owned(),
        subresource: sub,
        namespace: ns.to_owned(),
    };
    let builtin = |verb, b: BuiltinKind, sub| on(verb, &Kind::from(b), sub);
    match action {
        Action::Delete | Action::ForceDelete => Some(on("delete", kind, "")),
        Action::Scale => Some(on("patch", kind, "scale")),
        Action::Edit => Some(on("update", kind, "")),
        Action::Restart | Action::Cordon | Action::Uncordon | Action::Suspend | Action::Rollback => {
            Some(on("patch", kind, ""))
        }
        Action::Trigger => Some(Permission {
            namespace: ns.to_owned(),
            ..builtin("create", BuiltinKind::Job, "")
        }),
        Action::Drain => Some(Permission {
            namespace: String::new(),
            ..builtin("create", BuiltinKind::Pod, "eviction")
        }),
        Action::Shell | Action::Attach | Action::PortForward => {
            let (verb, _, sub) = match action {
                Action::Shell => crate::kube::exec::needs(&crate::kube::exec::SessionKind::Shell),
                Action::Attach => crate::kube::exec::needs(&crate::kube::exec::SessionKind::Attach),
                _ => crate::kube::portforward::NEEDS,
            };
            // The subresource is the pod's whatever the row is (a service or workload
            // forwards to one of its pods).
            Some(Permission {
                namespace: namespace.to_owned(),
                ..builtin(verb, BuiltinKind::Pod, sub)
            })
        }
        _ => None,
    }
}

/// The namespace an action on the top list would act in: the list's, else the selected
/// row's (all-namespaces views); `""` when unknown or cluster-scoped.
fn namespace(state: &UiState) -> String {
    let Some(l) = state.top_list() else {
        return String::new();
    };
    if let Some(ns) = &l.key.namespace {
        return ns.to_string();
    }
    l.cache
        .selected_row(l.selected)
        .and_then(|r| r.namespace.as_deref().map(str::to_owned))
        .unwrap_or_default()
}

/// The question `action` raises in the view on top, if it needs a permission.
pub fn query(state: &UiState, action: Action) -> Option<AccessQuery> {
    let context = state.conn.context.clone()?;
    let (kind, ns) = match state.top() {
        // A pod's containers view: the pod's kind and namespace.
        crate::app::state::Screen::Containers(c) => (
            c.key.kind.clone(),
            c.key.namespace.as_deref().unwrap_or_default().to_owned(),
        ),
        // A detail view (rollback from a deployment's history): its object's.
        crate::app::state::Screen::Yaml(y) => (
            y.key.kind.clone(),
            y.key.namespace.as_deref().unwrap_or_default().to_owned(),
        ),
        _ => (state.top_list()?.key.kind.clone(), namespace(state)),
    };
    let permission = need(action, &kind, &ns)?;
    Some(AccessQuery { context, permission })
}

/// `Some(permission)` when `action` is known to be forbidden here at `now`.
pub fn forbidden(state: &UiState, action: Action, now: Instant) -> Option<Permission> {
    // Inside a union the gate's answers are the context in use's, not the row's cluster's:
    // nothing is hidden on them there, each cluster's API server answers for itself.
    if crate::app::fleet::keys::in_union(state) {
        return None;
    }
    let q = query(state, action)?;
    (state.conn.access.get(&q, now) == Some(false)).then_some(q.permission)
}

/// When `action` is known to be forbidden here, says `forbidden: create pods/exec in
/// team-a` in the footer and returns true: the caller sends nothing. For actions dispatched
/// outside `writes::actions::handle` (shell, attach, port-forward).
pub fn refuse(state: &mut UiState, action: Action) -> bool {
    match forbidden(state, action, Instant::now()) {
        Some(p) => {
            state.screens.footer.message = Some(format!("forbidden: {p}"));
            true
        }
        None => false,
    }
}

/// The questions to ask now for the write actions that apply on top (each once per TTL),
/// marked as asked.
pub fn wanted(state: &mut UiState, now: Instant) -> Vec<AccessQuery> {
    if !matches!(state.conn.status, crate::app::state::Conn::Connected(_))
        || state.settings.readonly
        || crate::app::fleet::keys::in_union(state)
    {
        return Vec::new();
    }
    let mut out: Vec<AccessQuery> = Vec::new();
    for (action, _) in Action::ALL {
        if !action.writes() || !state.applies(action) {
            continue;
        }
        if let Some(q) = query(state, action) {
            if state.conn.access.due(&q, now) && !out.contains(&q) {
                out.push(q);
            }
        }
    }
    for q in &out {
        state.conn.access.asked.insert(q.clone(), now);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::writes::model::{AccessCache, TTL};
    use std::time::Duration;

    #[test]
    fn needs_name_verb_resource_and_namespace() {
        let pods = Kind::from(BuiltinKind::Pod);
        assert_eq!(
            need(Action::Delete, &pods, "team-a").unwrap().to_string(),
            "delete pods in team-a"
        );
        let deploy = Kind::from(BuiltinKind::Deployment);
        assert_eq!(
            need(Action::Scale, &deploy, "a").unwrap().to_string(),
            "patch deployments/scale in a"
        );
        let nodes = Kind::from(BuiltinKind::Node);
        assert_eq!(
            need(Action::Cordon, &nodes, "a").unwrap().to_string(),
            "patch nodes"
        );
        assert_eq!(
            need(Action::Drain, &nodes, "").unwrap().to_string(),
            "create pods/eviction"
        );
        let cj = Kind::from(BuiltinKind::CronJob);
        let t = need(Action::Trigger, &cj, "a").unwrap();
        assert_eq!(
            (t.group.as_str(), t.to_string()),
            ("batch", "create jobs in a".to_owned())
        );
        assert_eq!(need(Action::Yaml, &pods, "a"), None);
    }

    #[test]
    fn answers_expire_and_errors_are_not_answers() {
        let mut c = AccessCache::default();
        let q = AccessQuery {
            context: "c".into(),
            permission: need(Action::Delete, &Kind::from(BuiltinKind::Pod), "a").unwrap(),
        };
        let t0 = Instant::now();
        assert!(c.due(&q, t0));
        c.asked.insert(q.clone(), t0);
        assert!(!c.due(&q, t0 + Duration::from_secs(1)), "asked once per TTL");
        c.answer(q.clone(), Err("timeout".into()), t0);
        assert_eq!(c.get(&q, t0), None);
        c.answer(q.clone(), Ok(false), t0);
        assert_eq!(c.get(&q, t0 + Duration::from_secs(59)), Some(false));
        assert_eq!(c.get(&q, t0 + TTL), None);
        assert!(c.due(&q, t0 + TTL));
    }
}
