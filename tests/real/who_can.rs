//! Issue 35's who-can on the real cluster: RBAC objects made for the test (a ServiceAccount
//! with a Role, a user through an aggregated ClusterRole, a group limited to named pods, a
//! user who may only read, a ServiceAccount of another namespace) next to everything the
//! cluster's bootstrap policy binds; for several asks, the subjects `ktui::kube::rbac`
//! finds must be exactly those `kubectl auth can-i … --as` says yes for, over every subject
//! any binding names. Cleans up its ClusterRoles; its namespaces are throwaway.

use std::collections::BTreeSet;

use ktui::kube::rbac::reverse::implicit_groups;
use ktui::kube::rbac::{fetch, who_can, Ask, Policy, Subject, SubjectKind};

use crate::support::{self, Cluster};

/// The impersonated user behind a group's check (`--as-group` needs an `--as`); bound to
/// nothing, so only the group answers.
const NOBODY: &str = "ktui-who-can-nobody";

fn manifest(ns: &str, other: &str) -> String {
    format!(
        r#"apiVersion: v1
kind: ServiceAccount
metadata: {{name: deployer, namespace: {ns}}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {{name: deleter, namespace: {ns}}}
rules: [{{apiGroups: [""], resources: [pods], verbs: [delete, get]}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: deployer-deletes, namespace: {ns}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: deleter}}
subjects: [{{kind: ServiceAccount, name: deployer}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: {ns}-editor}}
aggregationRule:
  clusterRoleSelectors: [{{matchLabels: {{ktui-test/aggregate-to: {ns}-editor}}}}]
rules: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: {ns}-editor-pods, labels: {{ktui-test/aggregate-to: {ns}-editor}}}}
rules: [{{apiGroups: [""], resources: [pods, pods/exec], verbs: [delete, create]}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: alice-edits, namespace: {ns}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: {ns}-editor}}
subjects: [{{kind: User, name: alice-{ns}}}, {{kind: ServiceAccount, name: ci, namespace: {other}}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {{name: named-only, namespace: {ns}}}
rules: [{{apiGroups: [""], resources: [pods], resourceNames: [web-0], verbs: [delete]}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: devs-named, namespace: {ns}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: named-only}}
subjects: [{{kind: Group, name: devs-{ns}}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: bob-views, namespace: {ns}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}}
subjects: [{{kind: User, name: bob-{ns}}}]
"#
    )
}

/// Every subject any binding names.
fn every_subject(p: &Policy) -> BTreeSet<Subject> {
    let mut out = BTreeSet::new();
    let kind = |k: &str| match k {
        "User" => Some(SubjectKind::User),
        "Group" => Some(SubjectKind::Group),
        "ServiceAccount" => Some(SubjectKind::ServiceAccount),
        _ => None,
    };
    let subjects = p
        .role_bindings
        .iter()
        .map(|b| {
            (
                b.metadata.namespace.clone().unwrap_or_default(),
                b.subjects.clone(),
            )
        })
        .chain(
            p.cluster_role_bindings
                .iter()
                .map(|b| (String::new(), b.subjects.clone())),
        );
    for (ns, list) in subjects {
        for s in list.into_iter().flatten() {
            let Some(kind) = kind(&s.kind) else { continue };
            let namespace = match kind {
                SubjectKind::ServiceAccount => s
                    .namespace
                    .clone()
                    .filter(|n| !n.is_empty())
                    .unwrap_or(ns.clone()),
                _ => String::new(),
            };
            out.insert(Subject {
                kind,
                name: s.name.clone(),
                namespace,
            });
        }
    }
    out
}

/// What kubectl says for `subject` on `ask`.
fn can_i(cluster: &Cluster, ask: &Ask, subject: &Subject) -> bool {
    let resource = if ask.group.is_empty() {
        ask.resource.clone()
    } else {
        format!("{}.{}", ask.resource, ask.group)
    };
    let mut args = vec!["auth".to_string(), "can-i".into(), ask.verb.clone(), resource];
    if !ask.subresource.is_empty() {
        args.push(format!("--subresource={}", ask.subresource));
    }
    match &ask.namespace {
        Some(ns) => args.extend(["-n".into(), ns.clone()]),
        None => args.push("--all-namespaces".into()),
    }
    match subject.user_name() {
        Some(user) => args.push(format!("--as={user}")),
        // kubectl asks with a SelfSubjectAccessReview, which only authenticated users may
        // create: the group is asked about as a member of `system:authenticated` too.
        None => args.extend([
            format!("--as={NOBODY}"),
            format!("--as-group={}", subject.name),
            "--as-group=system:authenticated".into(),
        ]),
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = cluster.kubectl(&args);
    let said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(
        said == "yes" || said == "no",
        "kubectl {args:?}: {said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    said == "yes"
}

/// The subjects ktui's answer allows without naming objects: bound directly, or — as the
/// API server authenticates them — through one of their implicit groups (a group is asked
/// about with `system:authenticated` beside it, see `can_i`).
fn ktui_allows(p: &Policy, ask: &Ask, every: &BTreeSet<Subject>) -> BTreeSet<Subject> {
    let grants = who_can(p, ask);
    let granted: BTreeSet<&Subject> = grants
        .iter()
        .filter(|g| g.only_names.is_empty())
        .map(|g| &g.subject)
        .collect();
    every
        .iter()
        .filter(|s| {
            granted.contains(s)
                || groups_of(s).iter().any(|g| {
                    granted.contains(&Subject {
                        kind: SubjectKind::Group,
                        name: g.clone(),
                        namespace: String::new(),
                    })
                })
        })
        .cloned()
        .collect()
}

/// The groups a subject is asked about in besides itself.
fn groups_of(s: &Subject) -> Vec<String> {
    match s.kind {
        SubjectKind::Group => vec!["system:authenticated".into()],
        _ => implicit_groups(s),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn who_can_lists_exactly_whom_kubectl_auth_can_i_allows() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("who-can");
    let other = cluster.create_ns("who-can-ci");
    let file = cluster.dir.join(format!("{ns}-rbac.yaml"));
    std::fs::write(&file, manifest(&ns, &other)).expect("write the manifest");
    tokio::task::block_in_place(|| cluster.kubectl_ok(&["apply", "-f", file.to_str().expect("UTF-8 path")]));

    let client = cluster.client(support::ADMIN).await;
    let started = std::time::Instant::now();
    let policy = fetch(&client).await;
    let fetched = started.elapsed();
    assert!(
        policy.missing.is_empty(),
        "the admin reads every RBAC list: {:?}",
        policy.missing
    );
    let every = every_subject(&policy);
    assert!(
        every.len() > 20,
        "the bootstrap policy's subjects are there too: {}",
        every.len()
    );

    let asks = [
        ("delete", "", "pods", "", Some(ns.clone())),
        ("create", "", "pods", "exec", Some(ns.clone())),
        ("get", "", "pods", "", Some(ns.clone())),
        ("list", "", "nodes", "", None),
        ("update", "apps", "deployments", "scale", Some(ns.clone())),
    ];
    for (verb, group, resource, sub, namespace) in asks {
        let ask = Ask {
            verb: verb.into(),
            group: group.into(),
            resource: resource.into(),
            subresource: sub.into(),
            namespace,
        };
        let started = std::time::Instant::now();
        let ours = ktui_allows(&policy, &ask, &every);
        let evaluated = started.elapsed();
        let started = std::time::Instant::now();
        let list: Vec<&Subject> = every.iter().collect();
        let kubectl: BTreeSet<Subject> = tokio::task::block_in_place(|| {
            std::thread::scope(|s| {
                let handles: Vec<_> = list
                    .chunks(list.len().div_ceil(6))
                    .map(|chunk| {
                        s.spawn(|| {
                            chunk
                                .iter()
                                .filter(|x| can_i(&cluster, &ask, x))
                                .map(|x| (*x).clone())
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().expect("can-i thread"))
                    .collect()
            })
        });
        // Figures (`bash tests/run.sh --test real who_can -- --nocapture`): ktui's four lists
        // and evaluation against one `kubectl auth can-i --as` per subject, six at a time.
        eprintln!(
            "who-can {verb} {resource}{}: ktui fetch {fetched:?} (once) + evaluation {evaluated:?}; \
             kubectl auth can-i: {} subjects in {:?}",
            if sub.is_empty() {
                String::new()
            } else {
                format!("/{sub}")
            },
            list.len(),
            started.elapsed()
        );
        assert_eq!(
            ours, kubectl,
            "{ask:?}: ktui (left) against kubectl auth can-i (right)"
        );
        if verb == "delete" {
            let names: Vec<&str> = ours.iter().map(|s| s.name.as_str()).collect();
            assert!(
                names.contains(&"deployer")
                    && names.contains(&format!("alice-{ns}").as_str())
                    && names.contains(&"ci"),
                "{names:?}"
            );
            assert!(
                !names.contains(&format!("bob-{ns}").as_str())
                    && !names.contains(&format!("devs-{ns}").as_str()),
                "{names:?}"
            );
            let devs = who_can(&policy, &ask);
            let devs = devs
                .iter()
                .find(|g| g.subject.name == format!("devs-{ns}"))
                .expect("the named-only grant is listed");
            assert_eq!(devs.only_names, vec!["web-0".to_string()]);
        }
    }
    tokio::task::block_in_place(|| {
        cluster.kubectl_ok(&[
            "delete",
            "clusterrole",
            &format!("{ns}-editor"),
            &format!("{ns}-editor-pods"),
        ]);
    });
}
