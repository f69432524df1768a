//! PersistentVolumes: slim decoder and row (CAPACITY, ACCESS MODES, RECLAIM POLICY, STATUS,
//! CLAIM, STORAGECLASS, VOLUMEATTRIBUTESCLASS, REASON, AGE; wide VOLUMEMODE). Shares the
//! storage helpers of `pvc`; reads one annotation (the legacy storage class) and must not keep
//! the volume source (hostPath, csi...).

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, wide, KindSpec};
use super::meta::{nullable, text, unset_or, ObjMeta};
use super::pvc::{access_modes, storage_class, Capacity, StorageClassAnnotation};

/// A persistent volume, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct PvObj {
    /// `metadata`, with the storage-class annotation.
    pub metadata: ObjMeta<StorageClassAnnotation>,
    /// `spec`.
    pub spec: PvSpec,
    /// `status`.
    pub status: PvStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct PvSpec {
    /// `spec.capacity.storage`.
    pub capacity: Capacity,
    /// `spec.accessModes`.
    #[serde(deserialize_with = "nullable")]
    pub access_modes: Vec<String>,
    /// `spec.persistentVolumeReclaimPolicy` (the server defaults it to `Retain`).
    pub persistent_volume_reclaim_policy: Option<String>,
    /// `spec.claimRef`.
    pub claim_ref: Option<ClaimRef>,
    /// `spec.storageClassName`.
    pub storage_class_name: Option<String>,
    /// `spec.volumeAttributesClassName`.
    pub volume_attributes_class_name: Option<String>,
    /// `spec.volumeMode` (`Filesystem`, `Block`).
    pub volume_mode: Option<String>,
}

/// `spec.claimRef`, as far as CLAIM needs it.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct ClaimRef {
    /// `namespace`.
    pub namespace: String,
    /// `name`.
    pub name: String,
}

/// The parts of `status` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct PvStatus {
    /// `status.phase` (`Pending`, `Available`, `Bound`, `Released`, `Failed`).
    pub phase: String,
    /// `status.reason`.
    pub reason: String,
}

/// The columns after NAME, index for index with the row's cells (`kubectl get pv`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("CAPACITY"),
        col("ACCESS MODES"),
        col("RECLAIM POLICY"),
        col("STATUS"),
        col("CLAIM"),
        col("STORAGECLASS"),
        col("VOLUMEATTRIBUTESCLASS"),
        col("REASON"),
        col("AGE"),
        wide("VOLUMEMODE"),
    ]),
    status_col: Some(3),
};

impl IntoRow for PvObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let (spec, st) = (&self.spec, &self.status);
        let (phase, health) = match (self.metadata.deletion_timestamp.is_some(), st.phase.as_str()) {
            (true, _) => (Cell::Static("Terminating"), Health::Warn),
            (_, "Bound") => (Cell::Static("Bound"), Health::Ok),
            (_, "Available") => (Cell::Static("Available"), Health::Ok),
            (_, "Released") => (Cell::Static("Released"), Health::Warn),
            (_, "Failed") => (Cell::Static("Failed"), Health::Error),
            (_, other) => (text(other), Health::Warn),
        };
        let claim = spec
            .claim_ref
            .as_ref()
            .map_or(Cell::Static(""), |c| text(&format!("{}/{}", c.namespace, c.name)));
        let cells = vec![
            spec.capacity.storage_cell(),
            text(&access_modes(&spec.access_modes)),
            text(
                spec.persistent_volume_reclaim_policy
                    .as_deref()
                    .unwrap_or("Retain"),
            ),
            phase,
            claim,
            storage_class(&self.metadata.annotations, spec.storage_class_name.as_deref()),
            unset_or(spec.volume_attributes_class_name.as_deref()),
            text(&st.reason),
            Cell::Age(self.metadata.creation_timestamp),
            unset_or(spec.volume_mode.as_deref()),
        ];
        self.metadata.into_row(ctx, cells, health, None)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use ktui_kube::builtin::BuiltinKind;
    use ktui_kube::row::Health;
    use crate::testutil::{ago, cells, row};

    const PV: BuiltinKind = BuiltinKind::PersistentVolume;

    #[test]
    fn columns_of_bound_and_odd_volumes() {
        let bound = json!({"metadata": {"name": "pv-1", "creationTimestamp": ago(90)},
            "spec": {"capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteOnce"],
                "persistentVolumeReclaimPolicy": "Delete", "storageClassName": "standard",
                "claimRef": {"kind": "PersistentVolumeClaim", "namespace": "shop", "name": "data-0", "uid": "u"},
                "volumeMode": "Filesystem", "hostPath": {"path": "/x"}},
            "status": {"phase": "Bound"}});
        assert_eq!(
            cells(PV, bound.clone()),
            [
                "10Gi",
                "RWO",
                "Delete",
                "Bound",
                "shop/data-0",
                "standard",
                "<unset>",
                "",
                "90s",
                "Filesystem"
            ]
        );
        assert_eq!(row(PV, bound).health, Health::Ok);
        // 1.5Gi is printed canonically; modes in fixed order; half a claimRef; legacy class.
        let odd = json!({"metadata": {"name": "pv-2", "creationTimestamp": ago(30),
                "annotations": {"volume.beta.kubernetes.io/storage-class": "legacy"}},
            "spec": {"capacity": {"storage": "1.5Gi"}, "storageClassName": "new",
                "accessModes": ["ReadWriteOncePod", "ReadWriteMany", "ReadOnlyMany", "ReadWriteOnce"],
                "claimRef": {"name": "half"}, "volumeAttributesClassName": "gold", "volumeMode": "Block"},
            "status": {"phase": "Failed", "reason": "Oops\nsecond"}});
        assert_eq!(
            cells(PV, odd.clone()),
            [
                "1536Mi",
                "RWO,ROX,RWX,RWOP",
                "Retain",
                "Failed",
                "/half",
                "legacy",
                "gold",
                "Oops...",
                "30s",
                "Block"
            ]
        );
        assert_eq!(row(PV, odd).health, Health::Error);
    }

    #[test]
    fn missing_fields_and_terminating() {
        assert_eq!(
            cells(PV, json!({})),
            [
                "0",
                "",
                "Retain",
                "",
                "",
                "",
                "<unset>",
                "",
                "<unknown>",
                "<unset>"
            ]
        );
        let doomed = json!({"metadata": {"deletionTimestamp": ago(1)}, "status": {"phase": "Released"}});
        let r = row(PV, doomed);
        assert_eq!(crate::testutil::texts(&r)[3], "Terminating");
        assert_eq!(r.health, Health::Warn);
        let released = json!({"status": {"phase": "Released"}});
        assert_eq!(row(PV, released).health, Health::Warn);
        assert!(row(PV, json!({})).namespace.is_none());
    }
}
