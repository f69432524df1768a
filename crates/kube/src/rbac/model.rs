//! The vocabulary of RBAC questions and answers: what is asked ([`Ask`]), who ([`Subject`]),
//! why ([`Grant`]: the binding and role that grant it) and the objects answers come from
//! ([`Policy`]). Owns these shapes; must not evaluate or fetch.

use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};

/// One question: may someone `verb` `resource`[/`subresource`] of `group` in `namespace`?
/// What `kubectl auth can-i VERB RESOURCE -n NS` asks, without an object name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    /// `get`, `list`, `delete`, … or `*` for a rule granting every verb.
    pub verb: String,
    /// API group; empty for the core group.
    pub group: String,
    /// Plural resource (`pods`).
    pub resource: String,
    /// Subresource (`log`, `exec`, `scale`); empty for none.
    pub subresource: String,
    /// The namespace asked about; `None` for cluster-scoped resources or every namespace at
    /// once (`-A`), where only ClusterRoleBindings count, as for kube-apiserver.
    pub namespace: Option<String>,
}

/// `subjects[].kind` of a binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SubjectKind {
    /// `User`.
    User,
    /// `Group`.
    Group,
    /// `ServiceAccount`.
    ServiceAccount,
}

impl SubjectKind {
    /// The API's spelling (`User`, `Group`, `ServiceAccount`).
    pub fn as_str(self) -> &'static str {
        match self {
            SubjectKind::User => "User",
            SubjectKind::Group => "Group",
            SubjectKind::ServiceAccount => "ServiceAccount",
        }
    }
}

/// Someone a binding names (`subjects[]`); a ServiceAccount's empty namespace is the
/// RoleBinding's own, as the authorizer reads it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Subject {
    /// What it is.
    pub kind: SubjectKind,
    /// `subjects[].name` (not sanitized: callers sanitize before drawing).
    pub name: String,
    /// `subjects[].namespace` for ServiceAccounts; empty for users and groups.
    pub namespace: String,
}

impl Subject {
    /// The user name kube-apiserver authenticates this subject as, for `kubectl --as`:
    /// `system:serviceaccount:<ns>:<name>` for a ServiceAccount, the name for a user; `None`
    /// for a group (`--as-group`).
    pub fn user_name(&self) -> Option<String> {
        match self.kind {
            SubjectKind::User => Some(self.name.clone()),
            SubjectKind::ServiceAccount => {
                Some(format!("system:serviceaccount:{}:{}", self.namespace, self.name))
            }
            SubjectKind::Group => None,
        }
    }
}

/// A binding: `RoleBinding` (with its namespace) or `ClusterRoleBinding`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BindingRef {
    /// The binding's namespace; `None` for a ClusterRoleBinding.
    pub namespace: Option<String>,
    /// `metadata.name`.
    pub name: String,
}

/// A binding's `roleRef`: a `Role` of the binding's namespace or a `ClusterRole`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoleRefName {
    /// `roleRef.kind` is `ClusterRole`.
    pub cluster: bool,
    /// `roleRef.name`.
    pub name: String,
}

/// Why a subject may do what was asked: the binding and the role it refers to, and the
/// object names the granting rule is limited to (`resourceNames`; empty = any object).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Grant {
    /// Who.
    pub subject: Subject,
    /// Through which binding.
    pub binding: BindingRef,
    /// Through which role.
    pub role: RoleRefName,
    /// The `resourceNames` of the rule(s) granting it, sorted, when every granting rule of
    /// this binding is limited to names: such a grant does not answer an ask without a name
    /// (`kubectl auth can-i delete pods` says no), so it is listed apart. Empty: any name.
    pub only_names: Vec<String>,
}

/// The RBAC objects answers come from, as listed (`rbac.authorization.k8s.io/v1`).
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Every Role of every namespace.
    pub roles: Vec<Role>,
    /// Every ClusterRole.
    pub cluster_roles: Vec<ClusterRole>,
    /// Every RoleBinding of every namespace.
    pub role_bindings: Vec<RoleBinding>,
    /// Every ClusterRoleBinding.
    pub cluster_role_bindings: Vec<ClusterRoleBinding>,
    /// The lists the user may not read, in words (`forbidden: list clusterroles`): answers
    /// are then partial, and the view says so.
    pub missing: Vec<String>,
}
