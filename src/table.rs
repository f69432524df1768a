//! Pure object → row builders per built-in kind, with kubectl's columns (see
//! /work/shared/kubectl-columns.md): one slim serde type per kind in `table/<kind>.rs`, its
//! [`IntoRow`] impl, and the column specs the UI draws headers from. No I/O, no clock: time
//! cells are formatted at draw time by [`format::format_cell`].

pub mod configmap;
pub mod cronjob;
pub mod custom;
pub mod daemonset;
pub mod deployment;
pub mod endpoints;
pub mod event;
pub mod format;
pub mod hpa;
pub mod ingress;
pub mod job;
pub mod join;
pub mod jsonpath;
pub mod labels;
pub mod meta;
pub mod namespace;
pub mod node;
pub mod pod;
pub mod pod_status;
pub mod printer;
pub mod pv;
pub mod pvc;
pub mod quantity;
pub mod replicaset;
pub mod secret;
pub mod service;
pub mod statefulset;
pub mod workload;

#[cfg(test)]
mod testutil;

use std::borrow::Cow;

use crate::kube::builtin::BuiltinKind;
use crate::kube::kind::Kind;
use crate::kube::row::{IntoRow, Row, RowCtx};

pub use configmap::ConfigMapObj;
pub use cronjob::CronJobObj;
pub use daemonset::DaemonSetObj;
pub use deployment::DeploymentObj;
pub use endpoints::{EndpointSliceObj, EndpointsObj};
pub use event::EventObj;
pub use hpa::HpaObj;
pub use ingress::IngressObj;
pub use job::JobObj;
pub use namespace::NamespaceObj;
pub use node::NodeObj;
pub use pod::PodObj;
pub use pv::PvObj;
pub use pvc::PvcObj;
pub use replicaset::ReplicaSetObj;
pub use secret::SecretObj;
pub use service::ServiceObj;
pub use statefulset::StatefulSetObj;

/// One column header after NAME.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// Header text exactly as kubectl prints it (`NOMINATED NODE`, `PORT(S)`); for custom
    /// resources the printer column's `name`, upper-cased.
    pub header: Cow<'static, str>,
    /// Shown only in wide mode (`-o wide`).
    pub wide: bool,
}

/// The columns of a kind, matching `Row::cells` index for index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindSpec {
    /// Every column after NAME (NAME and NAMESPACE are added by the UI). Wide-only columns
    /// usually come last, but not always (events interleave SUBOBJECT/SOURCE before MESSAGE,
    /// as `kubectl get events -o wide` does): select visible columns by their `wide` flag.
    pub columns: Cow<'static, [Column]>,
    /// Index into `cells` of the STATUS-like column used for the status sort, if any.
    pub status_col: Option<usize>,
}

impl KindSpec {
    /// The columns shown in normal (`wide == false`) or wide mode, with their cell index.
    pub fn visible(&self, wide: bool) -> impl Iterator<Item = (usize, &Column)> {
        self.columns
            .iter()
            .enumerate()
            .filter(move |(_, c)| wide || !c.wide)
    }
}

const fn c(header: &'static str) -> Column {
    Column {
        header: Cow::Borrowed(header),
        wide: false,
    }
}

const fn w(header: &'static str) -> Column {
    Column {
        header: Cow::Borrowed(header),
        wide: true,
    }
}

static POD: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("READY"),
        c("STATUS"),
        c("RESTARTS"),
        c("AGE"),
        w("IP"),
        w("NODE"),
        w("NOMINATED NODE"),
        w("READINESS GATES"),
    ]),
    status_col: Some(1),
};
static DEPLOYMENT: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("READY"),
        c("UP-TO-DATE"),
        c("AVAILABLE"),
        c("AGE"),
        w("CONTAINERS"),
        w("IMAGES"),
        w("SELECTOR"),
    ]),
    status_col: None,
};
static REPLICASET: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("DESIRED"),
        c("CURRENT"),
        c("READY"),
        c("AGE"),
        w("CONTAINERS"),
        w("IMAGES"),
        w("SELECTOR"),
    ]),
    status_col: None,
};
static STATEFULSET: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[c("READY"), c("AGE"), w("CONTAINERS"), w("IMAGES")]),
    status_col: None,
};
static DAEMONSET: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("DESIRED"),
        c("CURRENT"),
        c("READY"),
        c("UP-TO-DATE"),
        c("AVAILABLE"),
        c("NODE SELECTOR"),
        c("AGE"),
        w("CONTAINERS"),
        w("IMAGES"),
        w("SELECTOR"),
    ]),
    status_col: None,
};
static JOB: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("STATUS"),
        c("COMPLETIONS"),
        c("DURATION"),
        c("AGE"),
        w("CONTAINERS"),
        w("IMAGES"),
        w("SELECTOR"),
    ]),
    status_col: Some(0),
};
static CRONJOB: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("SCHEDULE"),
        c("TIMEZONE"),
        c("SUSPEND"),
        c("ACTIVE"),
        c("LAST SCHEDULE"),
        c("AGE"),
        w("CONTAINERS"),
        w("IMAGES"),
        w("SELECTOR"),
    ]),
    status_col: Some(2),
};
static HPA: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("REFERENCE"),
        c("TARGETS"),
        c("MINPODS"),
        c("MAXPODS"),
        c("REPLICAS"),
        c("AGE"),
    ]),
    status_col: None,
};
static SERVICE: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("TYPE"),
        c("CLUSTER-IP"),
        c("EXTERNAL-IP"),
        c("PORT(S)"),
        c("AGE"),
        w("SELECTOR"),
    ]),
    status_col: None,
};
static INGRESS: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[c("CLASS"), c("HOSTS"), c("ADDRESS"), c("PORTS"), c("AGE")]),
    status_col: None,
};
static ENDPOINTS: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[c("ENDPOINTS"), c("AGE")]),
    status_col: None,
};
static ENDPOINTSLICE: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[c("ADDRESSTYPE"), c("PORTS"), c("ENDPOINTS"), c("AGE")]),
    status_col: None,
};
static CONFIGMAP: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[c("DATA"), c("AGE")]),
    status_col: None,
};
static SECRET: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[c("TYPE"), c("DATA"), c("AGE")]),
    status_col: None,
};
static NODE: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("STATUS"),
        c("ROLES"),
        c("AGE"),
        c("VERSION"),
        w("INTERNAL-IP"),
        w("EXTERNAL-IP"),
        w("OS-IMAGE"),
        w("KERNEL-VERSION"),
        w("CONTAINER-RUNTIME"),
    ]),
    status_col: Some(0),
};
static NAMESPACE: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[c("STATUS"), c("AGE")]),
    status_col: Some(0),
};
static PVC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("STATUS"),
        c("VOLUME"),
        c("CAPACITY"),
        c("ACCESS MODES"),
        c("STORAGECLASS"),
        c("VOLUMEATTRIBUTESCLASS"),
        c("AGE"),
        w("VOLUMEMODE"),
    ]),
    status_col: Some(0),
};
static PV: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("CAPACITY"),
        c("ACCESS MODES"),
        c("RECLAIM POLICY"),
        c("STATUS"),
        c("CLAIM"),
        c("STORAGECLASS"),
        c("VOLUMEATTRIBUTESCLASS"),
        c("REASON"),
        c("AGE"),
        w("VOLUMEMODE"),
    ]),
    status_col: Some(3),
};
/// The event timeline's columns: `kubectl get events` cells, with COUNT and SOURCE shown
/// by default (the timeline's order), SUBOBJECT and FIRST SEEN wide only.
static EVENT: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        c("LAST SEEN"),
        c("TYPE"),
        c("REASON"),
        c("OBJECT"),
        c("COUNT"),
        c("MESSAGE"),
        c("SOURCE"),
        w("SUBOBJECT"),
        w("FIRST SEEN"),
    ]),
    status_col: Some(1),
};

/// The column spec of any kind: kubectl's columns for built-ins, the printer columns (or
/// AGE) for other kinds, see [`custom::spec`].
pub fn spec(kind: &Kind) -> Cow<'static, KindSpec> {
    match kind {
        Kind::Builtin(b) => Cow::Borrowed(builtin_spec(*b)),
        Kind::Api(r) => Cow::Owned(custom::spec(r)),
    }
}

/// The column spec of a built-in kind.
pub fn builtin_spec(kind: BuiltinKind) -> &'static KindSpec {
    use BuiltinKind::*;
    match kind {
        Pod => &POD,
        Deployment => &DEPLOYMENT,
        ReplicaSet => &REPLICASET,
        StatefulSet => &STATEFULSET,
        DaemonSet => &DAEMONSET,
        Job => &JOB,
        CronJob => &CRONJOB,
        HorizontalPodAutoscaler => &HPA,
        Service => &SERVICE,
        Ingress => &INGRESS,
        Endpoints => &ENDPOINTS,
        EndpointSlice => &ENDPOINTSLICE,
        ConfigMap => &CONFIGMAP,
        Secret => &SECRET,
        Node => &NODE,
        Namespace => &NAMESPACE,
        PersistentVolumeClaim => &PVC,
        PersistentVolume => &PV,
        Event => &EVENT,
    }
}

fn decode<T: IntoRow>(json: &[u8], ctx: &RowCtx) -> serde_json::Result<Row> {
    serde_json::from_slice::<T>(json).map(|o| o.into_row(ctx))
}

/// Decodes one object's JSON with the kind's slim type and builds its row.
pub fn decode_row(kind: BuiltinKind, json: &[u8], ctx: &RowCtx) -> serde_json::Result<Row> {
    use BuiltinKind::*;
    match kind {
        Pod => decode::<PodObj>(json, ctx),
        Deployment => decode::<DeploymentObj>(json, ctx),
        ReplicaSet => decode::<ReplicaSetObj>(json, ctx),
        StatefulSet => decode::<StatefulSetObj>(json, ctx),
        DaemonSet => decode::<DaemonSetObj>(json, ctx),
        Job => decode::<JobObj>(json, ctx),
        CronJob => decode::<CronJobObj>(json, ctx),
        HorizontalPodAutoscaler => decode::<HpaObj>(json, ctx),
        Service => decode::<ServiceObj>(json, ctx),
        Ingress => decode::<IngressObj>(json, ctx),
        Endpoints => decode::<EndpointsObj>(json, ctx),
        EndpointSlice => decode::<EndpointSliceObj>(json, ctx),
        ConfigMap => decode::<ConfigMapObj>(json, ctx),
        Secret => decode::<SecretObj>(json, ctx),
        Node => decode::<NodeObj>(json, ctx),
        Namespace => decode::<NamespaceObj>(json, ctx),
        PersistentVolumeClaim => decode::<PvcObj>(json, ctx),
        PersistentVolume => decode::<PvObj>(json, ctx),
        Event => decode::<EventObj>(json, ctx),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_spec_matching_its_cells() {
        for kind in BuiltinKind::ALL {
            let row = decode_row(kind, b"{}", &RowCtx::default()).unwrap();
            assert_eq!(row.cells.len(), builtin_spec(kind).columns.len(), "{kind}");
            if let Some(i) = builtin_spec(kind).status_col {
                assert!(i < builtin_spec(kind).columns.len(), "{kind}");
            }
        }
    }

    #[test]
    fn events_interleave_wide_columns() {
        let normal: Vec<_> = builtin_spec(BuiltinKind::Event)
            .visible(false)
            .map(|(_, c)| c.header.as_ref())
            .collect();
        assert_eq!(
            normal,
            [
                "LAST SEEN",
                "TYPE",
                "REASON",
                "OBJECT",
                "COUNT",
                "MESSAGE",
                "SOURCE"
            ]
        );
    }
}
