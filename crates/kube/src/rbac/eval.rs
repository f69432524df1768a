//! `kubectl who-can`: the subjects a verb on a resource is granted to, with the binding and
//! role granting it, by the rules of kube-apiserver's RBAC authorizer (`RuleAllows`,
//! `appliesTo`): a ClusterRoleBinding grants everywhere, a RoleBinding only in its namespace,
//! `*` matches any verb, group or resource, `*/sub` any resource's subresource `sub`, and a
//! rule with `resourceNames` only those objects. Owns that evaluation; must not fetch.

use std::collections::{BTreeSet, HashMap};

use k8s_openapi::api::rbac::v1::{PolicyRule, Subject as ApiSubject};

use super::aggregate::cluster_rules;
use super::model::{Ask, BindingRef, Grant, Policy, RoleRefName, Subject, SubjectKind};

/// The group kube-apiserver allows everything without asking RBAC (its privileged group).
pub const PRIVILEGED_GROUP: &str = "system:masters";

/// Every grant of `ask` in `policy`, sorted by subject (kind, namespace, name), then binding.
/// A subject bound twice has a grant per binding. Grants limited to object names
/// ([`Grant::only_names`]) are included and marked; `kubectl auth can-i` without a name says
/// no for them. [`PRIVILEGED_GROUP`] is allowed by the API server whatever RBAC says and is
/// not listed unless a binding names it.
pub fn who_can(policy: &Policy, ask: &Ask) -> Vec<Grant> {
    let rules = Rules::of(policy);
    let mut out = Vec::new();
    for b in &policy.cluster_role_bindings {
        let role = RoleRefName {
            cluster: true,
            name: b.role_ref.name.clone(),
        };
        let binding = BindingRef {
            namespace: None,
            name: b.metadata.name.clone().unwrap_or_default(),
        };
        if let Some(names) = allows(rules.cluster.get(&role.name), ask) {
            push(&mut out, b.subjects.as_deref(), "", &binding, &role, &names);
        }
    }
    let Some(ns) = ask.namespace.as_deref() else {
        out.sort();
        return out;
    };
    for b in &policy.role_bindings {
        if b.metadata.namespace.as_deref() != Some(ns) {
            continue;
        }
        let role = RoleRefName {
            cluster: b.role_ref.kind == "ClusterRole",
            name: b.role_ref.name.clone(),
        };
        let granted = if role.cluster {
            rules.cluster.get(&role.name)
        } else {
            rules.namespaced.get(&(ns.to_owned(), role.name.clone()))
        };
        let binding = BindingRef {
            namespace: Some(ns.to_owned()),
            name: b.metadata.name.clone().unwrap_or_default(),
        };
        if let Some(names) = allows(granted, ask) {
            push(&mut out, b.subjects.as_deref(), ns, &binding, &role, &names);
        }
    }
    out.sort();
    out
}

/// The effective rules of every role: ClusterRoles by name (aggregation joined), Roles by
/// (namespace, name).
pub(super) struct Rules {
    pub(super) cluster: HashMap<String, Vec<PolicyRule>>,
    pub(super) namespaced: HashMap<(String, String), Vec<PolicyRule>>,
}

impl Rules {
    pub(super) fn of(policy: &Policy) -> Rules {
        let namespaced = policy
            .roles
            .iter()
            .map(|r| {
                let key = (
                    r.metadata.namespace.clone().unwrap_or_default(),
                    r.metadata.name.clone().unwrap_or_default(),
                );
                (key, r.rules.clone().unwrap_or_default())
            })
            .collect();
        Rules {
            cluster: cluster_rules(&policy.cluster_roles),
            namespaced,
        }
    }
}

/// `Some(names)` when a rule of `rules` allows `ask`: empty `names` when one allows any
/// object, else the union of the allowing rules' `resourceNames`. `None`: no rule allows it
/// (or the role does not exist: a dangling roleRef grants nothing).
fn allows(rules: Option<&Vec<PolicyRule>>, ask: &Ask) -> Option<Vec<String>> {
    let mut names = BTreeSet::new();
    let mut any = false;
    for rule in rules?.iter().filter(|r| rule_allows(r, ask)) {
        match rule.resource_names.as_deref() {
            None | Some([]) => return Some(Vec::new()),
            Some(n) => {
                any = true;
                names.extend(n.iter().cloned());
            }
        }
    }
    any.then(|| names.into_iter().collect())
}

/// Whether `rule` matches the verb, group and resource (with subresource) of `ask`, names
/// aside. A rule for non-resource URLs (no `resources`) never matches a resource.
pub fn rule_allows(rule: &PolicyRule, ask: &Ask) -> bool {
    let has = |list: &[String], want: &str| list.iter().any(|x| x == "*" || x == want);
    let groups = rule.api_groups.as_deref().unwrap_or_default();
    let resources = rule.resources.as_deref().unwrap_or_default();
    has(&rule.verbs, &ask.verb)
        && has(groups, &ask.group)
        && resource_matches(resources, &ask.resource, &ask.subresource)
}

/// `resources` of a rule against `resource`[/`sub`]: `*`, the exact `resource` or
/// `resource/sub`, or `*/sub` (ResourceMatches of the RBAC authorizer).
fn resource_matches(resources: &[String], resource: &str, sub: &str) -> bool {
    let combined = if sub.is_empty() {
        resource.to_owned()
    } else {
        format!("{resource}/{sub}")
    };
    resources
        .iter()
        .any(|r| r == "*" || *r == combined || (!sub.is_empty() && r.strip_prefix("*/") == Some(sub)))
}

/// A binding's subjects as [`Subject`]s; a ServiceAccount without a namespace is in
/// `default_ns` (the RoleBinding's), as the authorizer reads it. Unknown kinds are skipped.
pub(super) fn subjects<'a>(
    list: Option<&'a [ApiSubject]>,
    default_ns: &'a str,
) -> impl Iterator<Item = Subject> + 'a {
    list.unwrap_or_default().iter().filter_map(move |s| {
        let kind = match s.kind.as_str() {
            "User" => SubjectKind::User,
            "Group" => SubjectKind::Group,
            "ServiceAccount" => SubjectKind::ServiceAccount,
            _ => return None,
        };
        let namespace = match kind {
            SubjectKind::ServiceAccount => s
                .namespace
                .clone()
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| default_ns.to_owned()),
            _ => String::new(),
        };
        Some(Subject {
            kind,
            name: s.name.clone(),
            namespace,
        })
    })
}

fn push(
    out: &mut Vec<Grant>,
    list: Option<&[ApiSubject]>,
    ns: &str,
    binding: &BindingRef,
    role: &RoleRefName,
    names: &[String],
) {
    for subject in subjects(list, ns) {
        out.push(Grant {
            subject,
            binding: binding.clone(),
            role: role.clone(),
            only_names: names.to_vec(),
        });
    }
}

#[cfg(test)]
mod tests;
