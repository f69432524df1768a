//! The `:can` view's state: what was asked (who may, or what one subject may), the RBAC
//! objects once fetched, the rows computed from them and the selection. Leaf model: imports
//! no other feature's state; must not fetch or draw.

use std::sync::Arc;

use crate::kube::rbac::{Ask, Policy, Subject};

/// What a `:can` view answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CanMode {
    /// `:can <verb> <resource>`: the subjects allowed.
    WhoCan(Ask),
    /// `:can user|group|sa <name>` (or `enter` on a subject): what it may do in `namespace`
    /// (`None`: everywhere).
    MayDo {
        /// Who.
        subject: Subject,
        /// The namespace asked about; `None` for every namespace and cluster-wide.
        namespace: Option<String>,
    },
}

/// One `:can` view.
#[derive(Debug, Clone)]
pub struct CanState {
    /// The question.
    pub mode: CanMode,
    /// The RBAC objects, once the loop fetched them (`None`: still asking).
    pub policy: Option<Arc<Policy>>,
    /// One row of cells per grant or permission (not sanitized: the UI sanitizes).
    pub rows: Vec<Vec<String>>,
    /// The subject of each row (who-can rows), for `enter`.
    pub subjects: Vec<Option<Subject>>,
    /// The selected row.
    pub selected: usize,
}

impl CanState {
    /// A view still waiting for the RBAC objects.
    pub fn new(mode: CanMode) -> CanState {
        CanState {
            mode,
            policy: None,
            rows: Vec::new(),
            subjects: Vec::new(),
            selected: 0,
        }
    }

    /// Computes the rows from `policy` and keeps it.
    pub fn fill(&mut self, policy: Arc<Policy>) {
        let rows = super::who_rows(self, &policy);
        (self.rows, self.subjects) = rows.into_iter().unzip();
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
        self.policy = Some(policy);
    }

    /// The question in words, for the title: `who can delete pods in team-a`,
    /// `what ServiceAccount ci/deployer may do in team-a`.
    pub fn question(&self) -> String {
        match &self.mode {
            CanMode::WhoCan(a) => {
                let mut what = a.resource.clone();
                if !a.subresource.is_empty() {
                    what = format!("{what}/{}", a.subresource);
                }
                if !a.group.is_empty() {
                    what = format!("{what}.{}", a.group);
                }
                // Cluster-wide: only ClusterRoleBindings answer (`-A`, or a cluster-scoped kind).
                let scope = a
                    .namespace
                    .as_deref()
                    .map_or(" cluster-wide".to_owned(), |n| format!(" in {n}"));
                format!("who can {} {what}{scope}", a.verb)
            }
            CanMode::MayDo { subject, namespace } => {
                let who = match subject.kind {
                    crate::kube::rbac::SubjectKind::ServiceAccount => {
                        format!("ServiceAccount {}/{}", subject.namespace, subject.name)
                    }
                    k => format!("{} {}", k.as_str(), subject.name),
                };
                let scope = namespace
                    .as_deref()
                    .map(|n| format!(" in {n}"))
                    .unwrap_or_default();
                format!("what {who} may do{scope}")
            }
        }
    }

    /// The column headers of this view's rows.
    pub fn headers(&self) -> &'static [&'static str] {
        match self.mode {
            CanMode::WhoCan(_) => &["KIND", "NAME", "NAMESPACE", "BINDING", "ROLE", "LIMITED TO"],
            CanMode::MayDo { .. } => &["SCOPE", "RESOURCE", "VERBS", "NAMES", "VIA"],
        }
    }
}
