//! PersistentVolumeClaims: slim decoder and row (STATUS, VOLUME, CAPACITY, ACCESS MODES,
//! STORAGECLASS, VOLUMEATTRIBUTESCLASS, AGE; wide VOLUMEMODE). Reads exactly one annotation
//! (the legacy storage class); must not keep any other.

use std::borrow::Cow;
use std::fmt;

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, wide, KindSpec};
use super::meta::{text, unset_or, ObjMeta};
use super::quantity::Quantity;

/// The annotation that overrides `spec.storageClassName` when present (even if empty).
pub const STORAGE_CLASS_ANNOTATION: &str = "volume.beta.kubernetes.io/storage-class";

/// `metadata.annotations` reduced to the legacy storage class annotation.
#[derive(Clone, Debug, Default)]
pub struct StorageClassAnnotation(pub Option<String>);

impl<'de> Deserialize<'de> for StorageClassAnnotation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StorageClassAnnotation;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an annotation map")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Self::Value, M::Error> {
                let mut found = None;
                while let Some(k) = m.next_key::<String>()? {
                    if k == STORAGE_CLASS_ANNOTATION {
                        found = Some(m.next_value::<Option<String>>()?.unwrap_or_default());
                    } else {
                        m.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(StorageClassAnnotation(found))
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(StorageClassAnnotation(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A persistent volume claim, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct PvcObj {
    /// `metadata`, with the storage-class annotation.
    pub metadata: ObjMeta<StorageClassAnnotation>,
    /// `spec`.
    pub spec: PvcSpec,
    /// `status`.
    pub status: PvcStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct PvcSpec {
    /// `spec.volumeName` (empty while unbound).
    pub volume_name: String,
    /// `spec.storageClassName`.
    pub storage_class_name: Option<String>,
    /// `spec.volumeAttributesClassName`.
    pub volume_attributes_class_name: Option<String>,
    /// `spec.volumeMode` (`Filesystem`, `Block`).
    pub volume_mode: Option<String>,
}

/// The parts of `status` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct PvcStatus {
    /// `status.phase` (`Pending`, `Bound`, `Lost`).
    pub phase: String,
    /// `status.accessModes`.
    pub access_modes: Vec<String>,
    /// `status.capacity.storage`.
    pub capacity: Capacity,
}

/// `status.capacity` of a claim, `spec.capacity` of a volume.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct Capacity {
    /// `storage`.
    pub storage: Option<Quantity>,
}

impl Capacity {
    /// `storage` in canonical form (`1536Mi`), `0` when missing (a zero `Quantity`).
    pub fn storage_cell(&self) -> Cell {
        match &self.storage {
            Some(q) => text(&q.canonical()),
            None => Cell::Static("0"),
        }
    }
}

/// STORAGECLASS of claims and volumes (`GetPersistentVolume(Claim)Class`): the legacy
/// annotation when present (even if empty), else `spec.storageClassName`, else blank.
pub fn storage_class(annotation: &StorageClassAnnotation, spec: Option<&str>) -> Cell {
    annotation.0.as_deref().or(spec).map_or(Cell::Static(""), text)
}

/// Access modes as kubectl abbreviates them: de-duplicated, in the fixed order RWO, ROX, RWX,
/// RWOP; unknown modes dropped.
pub fn access_modes(modes: &[String]) -> String {
    const ORDER: [(&str, &str); 4] = [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ];
    let present: Vec<&str> = ORDER
        .iter()
        .filter(|(full, _)| modes.iter().any(|m| m == full))
        .map(|(_, short)| *short)
        .collect();
    present.join(",")
}

/// The columns after NAME, index for index with the row's cells (`kubectl get pvc`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("STATUS"),
        col("VOLUME"),
        col("CAPACITY"),
        col("ACCESS MODES"),
        col("STORAGECLASS"),
        col("VOLUMEATTRIBUTESCLASS"),
        col("AGE"),
        wide("VOLUMEMODE"),
    ]),
    status_col: Some(0),
};

impl IntoRow for PvcObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let (spec, st) = (&self.spec, &self.status);
        let deleting = self.metadata.deletion_timestamp.is_some();
        let (phase, health) = match (deleting, st.phase.as_str()) {
            (true, _) => (Cell::Static("Terminating"), Health::Warn),
            (_, "Bound") => (Cell::Static("Bound"), Health::Ok),
            (_, "Pending") => (Cell::Static("Pending"), Health::Warn),
            (_, "Lost") => (Cell::Static("Lost"), Health::Error),
            (_, other) => (text(other), Health::Warn),
        };
        let bound = !spec.volume_name.is_empty();
        let (capacity, modes) = if bound {
            (st.capacity.storage_cell(), text(&access_modes(&st.access_modes)))
        } else {
            (Cell::Static(""), Cell::Static(""))
        };
        let class = storage_class(&self.metadata.annotations, spec.storage_class_name.as_deref());
        let cells = vec![
            phase,
            text(&spec.volume_name),
            capacity,
            modes,
            class,
            unset_or(spec.volume_attributes_class_name.as_deref()),
            Cell::Age(self.metadata.creation_timestamp),
            unset_or(spec.volume_mode.as_deref()),
        ];
        self.metadata.into_row(ctx, cells, health, None)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::access_modes;
    use ktui_kube::builtin::BuiltinKind;
    use ktui_kube::row::Health;
    use crate::testutil::{ago, cells, row};

    #[test]
    fn verified_examples() {
        let bound = json!({"metadata": {"name": "data-0", "creationTimestamp": ago(60)},
            "spec": {"volumeName": "pvc-123", "storageClassName": "standard", "volumeMode": "Filesystem",
                "resources": {"requests": {"storage": "5Gi"}}},
            "status": {"phase": "Bound", "capacity": {"storage": "10Gi"},
                "accessModes": ["ReadWriteOncePod", "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"]}});
        assert_eq!(
            cells(BuiltinKind::PersistentVolumeClaim, bound.clone()),
            [
                "Bound",
                "pvc-123",
                "10Gi",
                "RWO,ROX,RWX,RWOP",
                "standard",
                "<unset>",
                "60s",
                "Filesystem"
            ]
        );
        assert_eq!(row(BuiltinKind::PersistentVolumeClaim, bound).health, Health::Ok);
        let pending = json!({"metadata": {"name": "data-1", "creationTimestamp": ago(60)},
            "spec": {"storageClassName": "fast", "volumeAttributesClassName": "gold",
                "resources": {"requests": {"storage": "5Gi"}}},
            "status": {"phase": "Pending"}});
        assert_eq!(
            cells(BuiltinKind::PersistentVolumeClaim, pending),
            ["Pending", "", "", "", "fast", "gold", "60s", "<unset>"]
        );
        let deleting = json!({"metadata": {"name": "d", "deletionTimestamp": ago(1),
                "annotations": {"volume.beta.kubernetes.io/storage-class": "", "other": "x"}},
            "spec": {"volumeName": "pv-x", "storageClassName": "standard"}, "status": {"phase": "Bound"}});
        assert_eq!(
            cells(BuiltinKind::PersistentVolumeClaim, deleting),
            [
                "Terminating",
                "pv-x",
                "0",
                "",
                "",
                "<unset>",
                "<unknown>",
                "<unset>"
            ]
        );
        let legacy = json!({"metadata": {"annotations": {"volume.beta.kubernetes.io/storage-class": "old"}},
            "spec": {"storageClassName": "new"}});
        assert_eq!(cells(BuiltinKind::PersistentVolumeClaim, legacy)[4], "old");
    }

    #[test]
    fn access_mode_abbreviations() {
        let m = |v: &[&str]| access_modes(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(m(&["ReadWriteMany", "Bogus", "ReadWriteOnce"]), "RWO,RWX");
        assert_eq!(m(&[]), "");
    }
}
