//! who-can and its reverse on hand-made policies: binding scopes, wildcards, subresources,
//! resource names, aggregation, dangling role references, implicit groups.

use k8s_openapi::api::rbac::v1::{
    AggregationRule, ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef,
    Subject as ApiSubject,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};

use super::*;
use crate::rbac::reverse::may_do;

fn meta(ns: Option<&str>, name: &str) -> ObjectMeta {
    ObjectMeta {
        namespace: ns.map(str::to_owned),
        name: Some(name.into()),
        ..Default::default()
    }
}

fn rule(verbs: &[&str], groups: &[&str], resources: &[&str], names: &[&str]) -> PolicyRule {
    let v = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    PolicyRule {
        verbs: v(verbs),
        api_groups: Some(v(groups)),
        resources: Some(v(resources)),
        resource_names: (!names.is_empty()).then(|| v(names)),
        ..Default::default()
    }
}

fn subj(kind: &str, name: &str, ns: Option<&str>) -> ApiSubject {
    ApiSubject {
        kind: kind.into(),
        name: name.into(),
        namespace: ns.map(str::to_owned),
        ..Default::default()
    }
}

fn rb(ns: &str, name: &str, kind: &str, role: &str, subjects: Vec<ApiSubject>) -> RoleBinding {
    RoleBinding {
        metadata: meta(Some(ns), name),
        role_ref: RoleRef {
            api_group: Some("rbac.authorization.k8s.io".into()),
            kind: kind.into(),
            name: role.into(),
        },
        subjects: Some(subjects),
    }
}

fn crb(name: &str, role: &str, subjects: Vec<ApiSubject>) -> ClusterRoleBinding {
    ClusterRoleBinding {
        metadata: meta(None, name),
        role_ref: RoleRef {
            api_group: Some("rbac.authorization.k8s.io".into()),
            kind: "ClusterRole".into(),
            name: role.into(),
        },
        subjects: Some(subjects),
    }
}

fn cr(name: &str, rules: Vec<PolicyRule>) -> ClusterRole {
    ClusterRole {
        metadata: meta(None, name),
        rules: Some(rules),
        aggregation_rule: None,
    }
}

fn ask(verb: &str, resource: &str, sub: &str, ns: Option<&str>) -> Ask {
    Ask {
        verb: verb.into(),
        group: String::new(),
        resource: resource.into(),
        subresource: sub.into(),
        namespace: ns.map(str::to_owned),
    }
}

/// A small cluster: an admin group bound cluster-wide, an aggregated `editor` role bound in
/// team-a to alice, a Role allowing only named pods to devs, a viewer Role to bob, and a
/// ServiceAccount bound without a namespace.
fn policy() -> Policy {
    let mut agg = cr("editor", vec![]);
    agg.aggregation_rule = Some(AggregationRule {
        cluster_role_selectors: Some(vec![LabelSelector {
            match_labels: Some([("rbac.example/aggregate-to-editor".to_string(), "true".to_string())].into()),
            ..Default::default()
        }]),
    });
    let mut piece = cr(
        "editor-pods",
        vec![rule(&["delete", "create"], &[""], &["pods"], &[])],
    );
    piece.metadata.labels =
        Some([("rbac.example/aggregate-to-editor".to_string(), "true".to_string())].into());
    Policy {
        roles: vec![
            Role {
                metadata: meta(Some("team-a"), "named-only"),
                rules: Some(vec![rule(&["delete"], &[""], &["pods"], &["web-1", "web-0"])]),
            },
            Role {
                metadata: meta(Some("team-a"), "viewer"),
                rules: Some(vec![rule(&["get", "list"], &[""], &["pods", "pods/log"], &[])]),
            },
            Role {
                metadata: meta(Some("team-a"), "exec"),
                rules: Some(vec![rule(&["create"], &[""], &["*/exec"], &[])]),
            },
        ],
        cluster_roles: vec![
            cr("admin-all", vec![rule(&["*"], &["*"], &["*"], &[])]),
            agg,
            piece,
        ],
        role_bindings: vec![
            rb(
                "team-a",
                "alice-edit",
                "ClusterRole",
                "editor",
                vec![subj("User", "alice", None)],
            ),
            rb(
                "team-a",
                "devs-named",
                "Role",
                "named-only",
                vec![subj("Group", "devs", None)],
            ),
            rb(
                "team-a",
                "bob-view",
                "Role",
                "viewer",
                vec![subj("User", "bob", None)],
            ),
            rb(
                "team-a",
                "ci-exec",
                "Role",
                "exec",
                vec![subj("ServiceAccount", "ci", None)],
            ),
            rb(
                "team-b",
                "carol-edit",
                "ClusterRole",
                "editor",
                vec![subj("User", "carol", None)],
            ),
            rb(
                "team-a",
                "dangling",
                "Role",
                "gone",
                vec![subj("User", "dave", None)],
            ),
        ],
        cluster_role_bindings: vec![crb("admins", "admin-all", vec![subj("Group", "ops", None)])],
        missing: vec![],
    }
}

fn names(grants: &[Grant]) -> Vec<(SubjectKind, &str, bool)> {
    grants
        .iter()
        .map(|g| (g.subject.kind, g.subject.name.as_str(), g.only_names.is_empty()))
        .collect()
}

#[test]
fn a_namespaced_ask_counts_cluster_bindings_and_that_namespaces_role_bindings() {
    let got = who_can(&policy(), &ask("delete", "pods", "", Some("team-a")));
    assert_eq!(
        names(&got),
        vec![
            (SubjectKind::User, "alice", true),
            (SubjectKind::Group, "devs", false),
            (SubjectKind::Group, "ops", true),
        ]
    );
    let devs = got.iter().find(|g| g.subject.name == "devs").unwrap();
    assert_eq!(devs.only_names, vec!["web-0".to_string(), "web-1".to_string()]);
    let alice = got.iter().find(|g| g.subject.name == "alice").unwrap();
    assert_eq!(alice.binding.namespace.as_deref(), Some("team-a"));
    assert_eq!(
        alice.role,
        RoleRefName {
            cluster: true,
            name: "editor".into()
        }
    );
}

#[test]
fn a_cluster_wide_ask_counts_only_cluster_role_bindings() {
    let got = who_can(&policy(), &ask("delete", "pods", "", None));
    assert_eq!(names(&got), vec![(SubjectKind::Group, "ops", true)]);
}

#[test]
fn subresources_match_exactly_or_by_star_slash() {
    let log = who_can(&policy(), &ask("get", "pods", "log", Some("team-a")));
    assert!(names(&log).contains(&(SubjectKind::User, "bob", true)));
    let exec = who_can(&policy(), &ask("create", "pods", "exec", Some("team-a")));
    let ci = exec
        .iter()
        .find(|g| g.subject.kind == SubjectKind::ServiceAccount)
        .unwrap();
    assert_eq!(
        (ci.subject.name.as_str(), ci.subject.namespace.as_str()),
        ("ci", "team-a")
    );
    // `pods` alone does not grant a subresource; a subresource grant does not grant `pods`.
    assert!(
        !names(&who_can(&policy(), &ask("get", "pods", "exec", Some("team-a")))).contains(&(
            SubjectKind::User,
            "bob",
            true
        ))
    );
    assert!(
        !names(&who_can(&policy(), &ask("create", "pods", "", Some("team-a"))))
            .iter()
            .any(|(k, _, _)| *k == SubjectKind::ServiceAccount)
    );
}

#[test]
fn another_namespaces_binding_and_a_dangling_role_grant_nothing() {
    let got = who_can(&policy(), &ask("delete", "pods", "", Some("team-a")));
    assert!(!got
        .iter()
        .any(|g| g.subject.name == "carol" || g.subject.name == "dave"));
    let b = who_can(&policy(), &ask("delete", "pods", "", Some("team-b")));
    assert_eq!(
        names(&b),
        vec![
            (SubjectKind::User, "carol", true),
            (SubjectKind::Group, "ops", true)
        ]
    );
}

#[test]
fn the_reverse_flattens_by_resource_and_follows_implicit_groups() {
    let mut p = policy();
    p.cluster_role_bindings.push(crb(
        "sa-read",
        "editor-pods",
        vec![subj("Group", "system:serviceaccounts:team-a", None)],
    ));
    let ci = Subject {
        kind: SubjectKind::ServiceAccount,
        name: "ci".into(),
        namespace: "team-a".into(),
    };
    let got = may_do(&p, &ci, None);
    let rows: Vec<(Option<&str>, &str, Vec<&str>, bool)> = got
        .iter()
        .map(|a| {
            (
                a.namespace.as_deref(),
                a.resource.as_str(),
                a.verbs.iter().map(String::as_str).collect(),
                a.via[0].contains("as group"),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (Some("team-a"), "*/exec", vec!["create"], false),
            (None, "pods", vec!["create", "delete"], true),
        ]
    );
    let bob = Subject {
        kind: SubjectKind::User,
        name: "bob".into(),
        namespace: String::new(),
    };
    let got = may_do(&p, &bob, Some("team-b"));
    assert!(got.is_empty(), "bob's binding is in team-a: {got:?}");
    let got = may_do(&p, &bob, Some("team-a"));
    assert_eq!(
        got.iter().map(|a| a.resource.as_str()).collect::<Vec<_>>(),
        vec!["pods", "pods/log"]
    );
    assert_eq!(got[0].verbs, vec!["get".to_string(), "list".to_string()]);
}
