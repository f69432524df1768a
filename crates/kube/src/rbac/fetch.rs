//! The one-shot read behind who-can: every Role, ClusterRole, RoleBinding and
//! ClusterRoleBinding (`rbac.authorization.k8s.io/v1`, all namespaces), the four lists at
//! once. A list the user may not read is named in [`Policy::missing`] and the others still
//! answer. Owns those four requests; must not evaluate, cache or retry.

use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use kube::api::{Api, ListParams};

use super::model::Policy;

/// Lists the four kinds concurrently. Never fails as a whole: each list that failed is a line
/// of [`Policy::missing`] (`forbidden: list clusterroles`, `not served: roles`, `list roles:
/// <why>`; one line when the server serves none of them).
pub async fn fetch(client: &kube::Client) -> Policy {
    let lp = ListParams::default();
    let (r, cr, rb, crb) = (
        Api::<Role>::all(client.clone()),
        Api::<ClusterRole>::all(client.clone()),
        Api::<RoleBinding>::all(client.clone()),
        Api::<ClusterRoleBinding>::all(client.clone()),
    );
    let (roles, cluster_roles, role_bindings, cluster_role_bindings) =
        futures::join!(r.list(&lp), cr.list(&lp), rb.list(&lp), crb.list(&lp));
    let mut missing = Vec::new();
    let mut policy = Policy {
        roles: take(&mut missing, "roles", roles.map(|l| l.items)),
        cluster_roles: take(&mut missing, "clusterroles", cluster_roles.map(|l| l.items)),
        role_bindings: take(&mut missing, "rolebindings", role_bindings.map(|l| l.items)),
        cluster_role_bindings: take(
            &mut missing,
            "clusterrolebindings",
            cluster_role_bindings.map(|l| l.items),
        ),
        missing: Vec::new(),
    };
    // A server without RBAC (the demo cluster, some test servers) says it once.
    if missing.len() == 4 && missing.iter().all(|m| m.starts_with("not served: ")) {
        missing = vec!["not served: rbac.authorization.k8s.io/v1 (this server has no RBAC)".into()];
    }
    policy.missing = missing;
    policy
}

/// The items of a list, or none with the reason added to `missing`.
fn take<T>(missing: &mut Vec<String>, plural: &str, r: Result<Vec<T>, kube::Error>) -> Vec<T> {
    r.unwrap_or_else(|e| {
        missing.push(why(plural, &e));
        Vec::new()
    })
}

/// `forbidden: list <plural>` for a 403, else `list <plural>: <the error in words>`.
fn why(plural: &str, e: &kube::Error) -> String {
    match e {
        kube::Error::Api(s) if s.code == 403 => format!("forbidden: list {plural}"),
        kube::Error::Api(s) if s.code == 404 => format!("not served: {plural}"),
        other => format!("list {plural}: {}", crate::failure::words(other)),
    }
}
