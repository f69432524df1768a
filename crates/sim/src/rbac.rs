//! The demo cluster's RBAC objects: a ServiceAccount `default` per namespace and a few of
//! its own, ClusterRoles like the bootstrap policy's (`cluster-admin`, `view`, an aggregated
//! `edit`), their bindings (`system:masters` and the demo's `viewer` user, as `authz` treats
//! them), and namespaced grants to try `:can` on. Owns these objects; must not decide
//! access (the demo's authorization is `authz`'s, by identity).

use serde_json::{json, Value};

use crate::kinds::{id, KindId, RBAC_GROUP};

fn rule(groups: &[&str], resources: &[&str], verbs: &[&str], names: &[&str]) -> Value {
    let mut r = json!({"apiGroups": groups, "resources": resources, "verbs": verbs});
    if !names.is_empty() {
        r["resourceNames"] = json!(names);
    }
    r
}

fn cluster_role(name: &str, labels: Value, rules: Vec<Value>, aggregate_to: Option<&str>) -> Value {
    let mut o = json!({"apiVersion": format!("{RBAC_GROUP}/v1"), "kind": "ClusterRole",
        "metadata": {"name": name, "labels": labels}, "rules": rules});
    if let Some(label) = aggregate_to {
        o["aggregationRule"] = json!({"clusterRoleSelectors": [{"matchLabels": {label: "true"}}]});
    }
    o
}

fn subject(kind: &str, name: &str, ns: Option<&str>) -> Value {
    let mut s = json!({"kind": kind, "name": name});
    match ns {
        Some(ns) => s["namespace"] = json!(ns),
        None => s["apiGroup"] = json!(RBAC_GROUP),
    }
    s
}

fn binding(
    kind: &str,
    ns: Option<&str>,
    name: &str,
    role_kind: &str,
    role: &str,
    subjects: Vec<Value>,
) -> Value {
    let mut meta = json!({"name": name});
    if let Some(ns) = ns {
        meta["namespace"] = json!(ns);
    }
    json!({"apiVersion": format!("{RBAC_GROUP}/v1"), "kind": kind, "metadata": meta,
        "roleRef": {"apiGroup": RBAC_GROUP, "kind": role_kind, "name": role}, "subjects": subjects})
}

/// Every RBAC object of the demo (and its ServiceAccounts), with their kinds, for the
/// namespaces `namespaces`.
pub fn objects(namespaces: &[&str]) -> Vec<(KindId, Value)> {
    let sa = |ns: &str, name: &str| json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"namespace": ns, "name": name}});
    let mut out: Vec<(KindId, Value)> = namespaces
        .iter()
        .map(|ns| (id::SERVICEACCOUNT, sa(ns, "default")))
        .collect();
    out.push((id::SERVICEACCOUNT, sa("shop", "deployer")));
    out.push((id::SERVICEACCOUNT, sa("batch", "report-runner")));
    let edit_label = "rbac.authorization.k8s.io/aggregate-to-edit";
    let writes = ["create", "delete", "deletecollection", "patch", "update"];
    out.extend([
        (
            id::CLUSTERROLE,
            cluster_role(
                "cluster-admin",
                json!({}),
                vec![rule(&["*"], &["*"], &["*"], &[])],
                None,
            ),
        ),
        (
            id::CLUSTERROLE,
            cluster_role(
                "view",
                json!({}),
                vec![rule(&["*"], &["*"], &["get", "list", "watch"], &[])],
                None,
            ),
        ),
        // Aggregated, as in the bootstrap policy: its rules come from the roles labelled for it.
        (
            id::CLUSTERROLE,
            cluster_role("edit", json!({}), Vec::new(), Some(edit_label)),
        ),
        (
            id::CLUSTERROLE,
            cluster_role(
                "edit-workloads",
                json!({edit_label: "true"}),
                vec![
                    rule(
                        &[""],
                        &["pods", "services", "configmaps", "secrets"],
                        &writes,
                        &[],
                    ),
                    rule(&[""], &["pods/exec", "pods/portforward"], &["create"], &[]),
                    rule(
                        &["apps"],
                        &["deployments", "deployments/scale", "statefulsets", "daemonsets"],
                        &writes,
                        &[],
                    ),
                ],
                None,
            ),
        ),
        (
            id::CLUSTERROLEBINDING,
            binding(
                "ClusterRoleBinding",
                None,
                "cluster-admin",
                "ClusterRole",
                "cluster-admin",
                vec![subject("Group", "system:masters", None)],
            ),
        ),
        (
            id::CLUSTERROLEBINDING,
            binding(
                "ClusterRoleBinding",
                None,
                "viewers",
                "ClusterRole",
                "view",
                vec![subject("User", "viewer", None)],
            ),
        ),
        (
            id::ROLEBINDING,
            binding(
                "RoleBinding",
                Some("shop"),
                "deployer-edits",
                "ClusterRole",
                "edit",
                vec![subject("ServiceAccount", "deployer", Some("shop"))],
            ),
        ),
        (
            id::ROLE,
            json!({"apiVersion": format!("{RBAC_GROUP}/v1"), "kind": "Role",
                "metadata": {"namespace": "data", "name": "postgres-restarter"},
                "rules": [rule(&[""], &["pods"], &["get", "delete"], &["postgres-0", "postgres-1"])]}),
        ),
        (
            id::ROLEBINDING,
            binding(
                "RoleBinding",
                Some("data"),
                "dba-restarts",
                "Role",
                "postgres-restarter",
                vec![subject("Group", "dba", None)],
            ),
        ),
        (
            id::ROLEBINDING,
            binding(
                "RoleBinding",
                Some("batch"),
                "report-runner-views",
                "ClusterRole",
                "view",
                vec![subject("ServiceAccount", "report-runner", Some("batch"))],
            ),
        ),
    ]);
    out
}
