//! The resource types the demo API server serves: their API coordinates, discovery names and
//! the field selectors each supports. Owns the static table only; must not hold objects.

use ktui_kube::builtin::{BuiltinKind, KindInfo};

/// Index of a kind in [`KINDS`].
pub type KindId = usize;

/// One served resource type.
#[derive(Debug, Clone, Copy)]
pub struct SimKind {
    /// Coordinates and names (shared with the client's `BuiltinKind` table where possible).
    pub info: KindInfo,
    /// Field-selector labels accepted besides `metadata.name` and `metadata.namespace`, as the
    /// real API server registers them for this kind.
    pub fields: &'static [&'static str],
    /// Discovery categories (`all` for the kinds `kubectl get all` shows).
    pub categories: &'static [&'static str],
}

impl SimKind {
    /// `apiVersion` of the kind's objects (`v1`, `apps/v1`).
    pub fn api_version(&self) -> String {
        if self.info.group.is_empty() {
            self.info.version.to_owned()
        } else {
            format!("{}/{}", self.info.group, self.info.version)
        }
    }

    /// Whether `label` may be used in a field selector for this kind.
    pub fn supports_field(&self, label: &str) -> bool {
        label == "metadata.name"
            || (label == "metadata.namespace" && self.info.namespaced)
            || self.fields.contains(&label)
    }
}

const fn builtin(
    kind: BuiltinKind,
    fields: &'static [&'static str],
    categories: &'static [&'static str],
) -> SimKind {
    SimKind {
        info: kind.info(),
        fields,
        categories,
    }
}

const POD_FIELDS: &[&str] = &[
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "spec.hostNetwork",
    "status.phase",
    "status.podIP",
    "status.nominatedNodeName",
];
const EVENT_FIELDS: &[&str] = &[
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
];
const ALL: &[&str] = &["all"];

/// Every served kind. Order is the discovery order within a group version.
pub const KINDS: [SimKind; 27] = [
    builtin(BuiltinKind::Pod, POD_FIELDS, ALL),
    builtin(BuiltinKind::Deployment, &[], ALL),
    builtin(BuiltinKind::ReplicaSet, &[], ALL),
    builtin(BuiltinKind::StatefulSet, &[], ALL),
    builtin(BuiltinKind::DaemonSet, &[], ALL),
    builtin(BuiltinKind::Job, &["status.successful"], ALL),
    builtin(BuiltinKind::CronJob, &[], ALL),
    builtin(BuiltinKind::Service, &[], ALL),
    builtin(BuiltinKind::ConfigMap, &[], &[]),
    builtin(BuiltinKind::Secret, &["type"], &[]),
    builtin(BuiltinKind::Node, &["spec.unschedulable"], &[]),
    builtin(BuiltinKind::Namespace, &["status.phase"], &[]),
    builtin(BuiltinKind::PersistentVolumeClaim, &[], &[]),
    builtin(BuiltinKind::Event, EVENT_FIELDS, &[]),
    builtin(BuiltinKind::Endpoints, &[], &[]),
    builtin(BuiltinKind::PersistentVolume, &[], &[]),
    builtin(BuiltinKind::HorizontalPodAutoscaler, &[], ALL),
    builtin(BuiltinKind::Ingress, &[], &[]),
    builtin(BuiltinKind::EndpointSlice, &[], &[]),
    SimKind {
        info: KindInfo {
            kind: "CustomResourceDefinition",
            group: "apiextensions.k8s.io",
            version: "v1",
            plural: "customresourcedefinitions",
            singular: "customresourcedefinition",
            short: &["crd", "crds"],
            namespaced: false,
        },
        fields: &[],
        categories: &["api-extensions"],
    },
    SimKind {
        info: KindInfo {
            kind: "Gizmo",
            group: GIZMO_GROUP,
            version: "v1",
            plural: "gizmos",
            singular: "gizmo",
            short: &["gz"],
            namespaced: true,
        },
        fields: &[],
        categories: &[],
    },
    SimKind {
        info: KindInfo {
            kind: "PodDisruptionBudget",
            group: "policy",
            version: "v1",
            plural: "poddisruptionbudgets",
            singular: "poddisruptionbudget",
            short: &["pdb"],
            namespaced: true,
        },
        fields: &[],
        categories: &[],
    },
    SimKind {
        info: KindInfo {
            kind: "ServiceAccount",
            group: "",
            version: "v1",
            plural: "serviceaccounts",
            singular: "serviceaccount",
            short: &["sa"],
            namespaced: true,
        },
        fields: &[],
        categories: &[],
    },
    SimKind {
        info: KindInfo {
            kind: "Role",
            group: RBAC_GROUP,
            version: "v1",
            plural: "roles",
            singular: "role",
            short: &[],
            namespaced: true,
        },
        fields: &[],
        categories: &[],
    },
    SimKind {
        info: KindInfo {
            kind: "RoleBinding",
            group: RBAC_GROUP,
            version: "v1",
            plural: "rolebindings",
            singular: "rolebinding",
            short: &[],
            namespaced: true,
        },
        fields: &[],
        categories: &[],
    },
    SimKind {
        info: KindInfo {
            kind: "ClusterRole",
            group: RBAC_GROUP,
            version: "v1",
            plural: "clusterroles",
            singular: "clusterrole",
            short: &[],
            namespaced: false,
        },
        fields: &[],
        categories: &[],
    },
    SimKind {
        info: KindInfo {
            kind: "ClusterRoleBinding",
            group: RBAC_GROUP,
            version: "v1",
            plural: "clusterrolebindings",
            singular: "clusterrolebinding",
            short: &[],
            namespaced: false,
        },
        fields: &[],
        categories: &[],
    },
];

/// API group of RBAC's kinds.
pub const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// API group of the demo custom resource.
pub const GIZMO_GROUP: &str = "demo.ktui.dev";

/// Well-known ids, in [`KINDS`] order.
pub mod id {
    use super::KindId;
    pub const POD: KindId = 0;
    pub const DEPLOYMENT: KindId = 1;
    pub const REPLICASET: KindId = 2;
    pub const STATEFULSET: KindId = 3;
    pub const DAEMONSET: KindId = 4;
    pub const JOB: KindId = 5;
    pub const CRONJOB: KindId = 6;
    pub const SERVICE: KindId = 7;
    pub const CONFIGMAP: KindId = 8;
    pub const SECRET: KindId = 9;
    pub const NODE: KindId = 10;
    pub const NAMESPACE: KindId = 11;
    pub const PVC: KindId = 12;
    pub const EVENT: KindId = 13;
    pub const ENDPOINTS: KindId = 14;
    pub const PV: KindId = 15;
    pub const HPA: KindId = 16;
    pub const INGRESS: KindId = 17;
    pub const ENDPOINTSLICE: KindId = 18;
    pub const CRD: KindId = 19;
    pub const GIZMO: KindId = 20;
    pub const PDB: KindId = 21;
    pub const SERVICEACCOUNT: KindId = 22;
    pub const ROLE: KindId = 23;
    pub const ROLEBINDING: KindId = 24;
    pub const CLUSTERROLE: KindId = 25;
    pub const CLUSTERROLEBINDING: KindId = 26;
}

/// The kind served at `group`/`version`/`plural` (`""` group = core).
pub fn find(group: &str, version: &str, plural: &str) -> Option<KindId> {
    KINDS
        .iter()
        .position(|k| k.info.group == group && k.info.version == version && k.info.plural == plural)
}

/// The id of a client-side built-in kind.
pub fn of_builtin(kind: BuiltinKind) -> KindId {
    let want = kind.info();
    KINDS.iter().position(|k| k.info == want).unwrap_or(0)
}

/// Distinct API groups other than core with the version served for each (one per group),
/// in discovery order.
pub fn groups() -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&'static str, &'static str)> = Vec::new();
    for k in &KINDS {
        if !k.info.group.is_empty() && !out.iter().any(|(g, _)| *g == k.info.group) {
            out.push((k.info.group, k.info.version));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_match_the_table() {
        assert_eq!(KINDS[id::POD].info.plural, "pods");
        assert_eq!(KINDS[id::EVENT].info.plural, "events");
        assert_eq!(KINDS[id::GIZMO].info.plural, "gizmos");
        assert_eq!(KINDS[id::PDB].info.plural, "poddisruptionbudgets");
        assert_eq!(KINDS[id::SERVICEACCOUNT].info.plural, "serviceaccounts");
        assert_eq!(KINDS[id::CLUSTERROLEBINDING].info.plural, "clusterrolebindings");
        assert_eq!(find("apps", "v1", "deployments"), Some(id::DEPLOYMENT));
        assert_eq!(find("", "v1", "deployments"), None);
        for b in BuiltinKind::ALL {
            assert_eq!(KINDS[of_builtin(b)].info, b.info());
        }
        assert_eq!(KINDS[id::HPA].info.plural, "horizontalpodautoscalers");
        assert_eq!(KINDS[id::ENDPOINTSLICE].info.plural, "endpointslices");
        assert_eq!(KINDS[id::CRD].info.plural, "customresourcedefinitions");
        assert_eq!(
            find("autoscaling", "v2", "horizontalpodautoscalers"),
            Some(id::HPA)
        );
        assert_eq!(
            groups(),
            [
                ("apps", "v1"),
                ("batch", "v1"),
                ("autoscaling", "v2"),
                ("networking.k8s.io", "v1"),
                ("discovery.k8s.io", "v1"),
                ("apiextensions.k8s.io", "v1"),
                (GIZMO_GROUP, "v1"),
                ("policy", "v1"),
                (RBAC_GROUP, "v1")
            ]
        );
    }
}
