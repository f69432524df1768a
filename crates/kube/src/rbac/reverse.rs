//! What one subject may do: every rule of every role bound to it — directly, or through the
//! groups kube-apiserver puts it in (`system:authenticated`; a ServiceAccount also
//! `system:serviceaccounts` and `system:serviceaccounts:<ns>`) — flattened to one entry per
//! scope, API group and resource with the union of its verbs. Owns that flattening; must
//! not fetch.

use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::rbac::v1::PolicyRule;

use super::eval::{subjects, Rules};
use super::model::{Policy, Subject, SubjectKind};

/// What a subject may do on one resource (or non-resource URL) in one scope.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Allowed {
    /// The namespace a RoleBinding grants it in; `None`: everywhere (a ClusterRoleBinding).
    pub namespace: Option<String>,
    /// API group (`""` core, `*` any); empty for a non-resource URL.
    pub group: String,
    /// Resource (`pods`, `pods/log`, `*`) or non-resource URL (`/healthz`).
    pub resource: String,
    /// `true` for a non-resource URL (`nonResourceURLs`).
    pub url: bool,
    /// The verbs granted, sorted (`*` = all).
    pub verbs: Vec<String>,
    /// `resourceNames` the grant is limited to, sorted; empty = any object.
    pub names: Vec<String>,
    /// The bindings that grant it (`ClusterRoleBinding/x → ClusterRole/y`, `RoleBinding
    /// ns/x → Role/y`), with ` (as group g)` when it comes through a group.
    pub via: Vec<String>,
}

/// The groups kube-apiserver's authenticators put `s` in, besides any it was given.
pub fn implicit_groups(s: &Subject) -> Vec<String> {
    match s.kind {
        SubjectKind::User => vec!["system:authenticated".into()],
        SubjectKind::ServiceAccount => vec![
            "system:serviceaccounts".into(),
            format!("system:serviceaccounts:{}", s.namespace),
            "system:authenticated".into(),
        ],
        SubjectKind::Group => Vec::new(),
    }
}

/// What `subject` may do in `namespace` (`None`: in every namespace and cluster-wide), one
/// entry per (scope, group, resource): resources before non-resource URLs, namespaced grants
/// before cluster-wide ones, then by namespace, group and resource.
pub fn may_do(policy: &Policy, subject: &Subject, namespace: Option<&str>) -> Vec<Allowed> {
    let rules = Rules::of(policy);
    let groups = implicit_groups(subject);
    let matches = |s: &Subject| -> Option<Option<&str>> {
        if s == subject {
            return Some(None);
        }
        let g = groups
            .iter()
            .find(|g| s.kind == SubjectKind::Group && s.name == **g)?;
        Some(Some(g.as_str()))
    };
    let mut acc: BTreeMap<Place, Granted> = BTreeMap::new();
    let mut add = |scope: Option<&str>, granted: Option<&Vec<PolicyRule>>, via: String| {
        for rule in granted.into_iter().flatten() {
            let mut names = rule.resource_names.clone().unwrap_or_default();
            names.sort();
            let targets: Vec<(String, String, bool)> = match &rule.non_resource_urls {
                Some(urls) if !urls.is_empty() => {
                    urls.iter().map(|u| (String::new(), u.clone(), true)).collect()
                }
                _ => {
                    let groups = rule.api_groups.clone().unwrap_or_default();
                    let resources = rule.resources.clone().unwrap_or_default();
                    groups
                        .iter()
                        .flat_map(|g| resources.iter().map(move |r| (g.clone(), r.clone(), false)))
                        .collect()
                }
            };
            for (g, r, url) in targets {
                let e = acc
                    .entry((scope.map(str::to_owned), g, r, url, names.clone()))
                    .or_default();
                e.0.extend(rule.verbs.iter().cloned());
                e.1.insert(via.clone());
            }
        }
    };
    for b in &policy.cluster_role_bindings {
        let name = b.metadata.name.clone().unwrap_or_default();
        for through in subjects(b.subjects.as_deref(), "").filter_map(|s| matches(&s)) {
            let via = format!(
                "ClusterRoleBinding/{name} → ClusterRole/{}{}",
                b.role_ref.name,
                as_group(through)
            );
            add(None, rules.cluster.get(&b.role_ref.name), via);
        }
    }
    for b in &policy.role_bindings {
        let ns = b.metadata.namespace.clone().unwrap_or_default();
        if namespace.is_some_and(|want| want != ns) {
            continue;
        }
        let name = b.metadata.name.clone().unwrap_or_default();
        let cluster = b.role_ref.kind == "ClusterRole";
        for through in subjects(b.subjects.as_deref(), &ns).filter_map(|s| matches(&s)) {
            let via = format!(
                "RoleBinding {ns}/{name} → {}/{}{}",
                b.role_ref.kind,
                b.role_ref.name,
                as_group(through)
            );
            let granted = if cluster {
                rules.cluster.get(&b.role_ref.name)
            } else {
                rules.namespaced.get(&(ns.clone(), b.role_ref.name.clone()))
            };
            add(Some(&ns), granted, via);
        }
    }
    let mut out: Vec<Allowed> = acc
        .into_iter()
        .map(
            |((namespace, group, resource, url, names), (verbs, via))| Allowed {
                namespace,
                group,
                resource,
                url,
                verbs: verbs.into_iter().collect(),
                names,
                via: via.into_iter().collect(),
            },
        )
        .collect();
    // Resources before URLs, a namespace's grants before cluster-wide ones (the question was
    // most likely about that namespace), then by group and resource.
    out.sort_by_cached_key(|x| {
        (
            x.url,
            x.namespace.is_none(),
            x.namespace.clone(),
            x.group.clone(),
            x.resource.clone(),
        )
    });
    out
}

/// Where a grant applies: (namespace or everywhere, group, resource or URL, is a URL, names).
type Place = (Option<String>, String, String, bool, Vec<String>);
/// What is granted there: the verbs and the bindings that grant them.
type Granted = (BTreeSet<String>, BTreeSet<String>);

fn as_group(through: Option<&str>) -> String {
    through.map(|g| format!(" (as group {g})")).unwrap_or_default()
}
