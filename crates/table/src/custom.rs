//! Rows of kinds without hand-written columns (custom resources and the built-ins ktui has no
//! slim type for): NAME then the CRD's `additionalPrinterColumns`, evaluated client-side the
//! way kubectl's server-side table converter does, or NAME and AGE when there are none. Must
//! not keep the object: it is decoded generically, turned into a row and dropped.

use std::borrow::Cow;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use ktui_kube::kind::ApiResource;
use ktui_kube::row::{Cell, Health, Row, RowCtx, Versioned};
use ktui_kube::sink::RowBuilder;

use super::jsonpath::{self, JsonPath};
use super::meta::ObjMeta;
use super::printer::{header, printer_cell};
use super::{Column, KindSpec};

/// Column names that make a custom kind's status sort and colour (`STATUS`, `PHASE`...).
const STATUS_NAMES: [&str; 4] = ["STATUS", "PHASE", "STATE", "READY"];

/// The column spec of a discovered kind: its printer columns in the CRD's order (wide-only
/// when `priority > 0`), or a lone AGE when it has none.
pub fn spec(r: &ApiResource) -> KindSpec {
    if r.columns.is_empty() {
        return KindSpec {
            columns: Cow::Owned(vec![Column {
                header: Cow::Borrowed("AGE"),
                wide: false,
            }]),
            status_col: None,
        };
    }
    let columns: Vec<Column> = r
        .columns
        .iter()
        .map(|c| Column {
            header: Cow::Owned(ktui_kube::sanitize::sanitize(&header(&c.name)).into_owned()),
            wide: c.priority > 0,
        })
        .collect();
    let status_col = columns
        .iter()
        .position(|c| STATUS_NAMES.contains(&c.header.as_ref()));
    KindSpec {
        columns: Cow::Owned(columns),
        status_col,
    }
}

/// Any object, decoded generically (`serde_json::Value`).
#[derive(Deserialize, Clone, Debug)]
#[serde(transparent)]
pub struct CustomObj(pub Value);

impl Versioned for CustomObj {
    fn version(&self) -> Option<&str> {
        self.0
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
    }
}

/// One compiled printer column: its JSONPath (`None` when the CRD's path does not parse; the
/// cells are then empty) and its `type`.
#[derive(Debug, Clone)]
struct Compiled {
    path: Option<JsonPath>,
    column_type: String,
}

/// Builds rows of one discovered kind; compiled once per informer.
#[derive(Debug, Clone)]
pub struct CustomRows {
    columns: Arc<[Compiled]>,
    status_col: Option<usize>,
}

impl CustomRows {
    /// The builder for `r`'s printer columns (or AGE only).
    pub fn new(r: &ApiResource) -> Self {
        let columns = r
            .columns
            .iter()
            .map(|c| Compiled {
                path: jsonpath::parse(&c.json_path).ok(),
                column_type: c.column_type.clone(),
            })
            .collect();
        CustomRows {
            columns,
            status_col: spec(r).status_col,
        }
    }

    /// The cells of `obj` (one per printer column, or AGE).
    pub fn cells(&self, obj: &Value, created: Option<i64>) -> Vec<Cell> {
        if self.columns.is_empty() {
            return vec![Cell::Age(created)];
        }
        self.columns
            .iter()
            .map(|c| match &c.path {
                Some(p) => printer_cell(p.first(obj), &c.column_type),
                None => Cell::Static(""),
            })
            .collect()
    }
}

impl RowBuilder<CustomObj> for CustomRows {
    fn build(&self, obj: CustomObj, ctx: &RowCtx) -> Row {
        let meta = obj
            .0
            .get("metadata")
            .and_then(|m| ObjMeta::<serde::de::IgnoredAny>::deserialize(m).ok())
            .unwrap_or_default();
        let cells = self.cells(&obj.0, meta.creation_timestamp);
        let health = if meta.deletion_timestamp.is_some() {
            Health::Warn
        } else {
            self.status_col
                .and_then(|i| cells.get(i))
                .map_or(Health::Ok, health_of)
        };
        meta.into_row(ctx, cells, health, None)
    }
}

/// Colour of a custom status cell: failures red, not-ready or in-progress yellow.
fn health_of(cell: &Cell) -> Health {
    let Some(text) = cell.literal() else {
        return Health::Ok;
    };
    let t = text.to_ascii_lowercase();
    if ["fail", "error", "crash", "degraded"]
        .iter()
        .any(|w| t.contains(w))
    {
        Health::Error
    } else if ["false", "pending", "progressing", "unknown", "terminating"]
        .iter()
        .any(|w| t.contains(w))
    {
        Health::Warn
    } else {
        Health::Ok
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::format::format_cell;
    use ktui_kube::kind::PrinterColumn;

    fn col(name: &str, ty: &str, path: &str, priority: i32) -> PrinterColumn {
        PrinterColumn {
            name: name.into(),
            column_type: ty.into(),
            json_path: path.into(),
            priority,
        }
    }

    fn gizmos(columns: Vec<PrinterColumn>) -> ApiResource {
        ApiResource {
            group: "demo.ktui.dev".into(),
            version: "v1".into(),
            plural: "gizmos".into(),
            kind: "Gizmo".into(),
            namespaced: true,
            columns: columns.into(),
            from_crd: true,
            ..Default::default()
        }
    }

    #[test]
    fn printer_columns_in_crd_order_with_priority_as_wide() {
        let r = gizmos(vec![
            col("Color", "string", ".spec.color", 0),
            col("Size", "integer", ".spec.size", 1),
            col("Phase", "string", ".status.phase", 0),
        ]);
        let s = spec(&r);
        let headers: Vec<_> = s.visible(false).map(|(_, c)| c.header.to_string()).collect();
        assert_eq!(headers, ["COLOR", "PHASE"]);
        assert_eq!(s.visible(true).count(), 3);
        assert_eq!(s.status_col, Some(2));
        let obj = json!({"metadata": {"name": "g1", "namespace": "a", "resourceVersion": "7"},
            "spec": {"color": "red", "size": 3}, "status": {"phase": "Failed"}});
        let row = CustomRows::new(&r).build(CustomObj(obj), &RowCtx::default());
        let cells: Vec<_> = row.cells.iter().map(|c| format_cell(c, 0).into_owned()).collect();
        assert_eq!(cells, ["red", "3", "Failed"]);
        assert_eq!(&*row.name, "g1");
        assert_eq!(row.health, Health::Error);
    }

    #[test]
    fn kinds_without_printer_columns_show_age_only() {
        let r = gizmos(vec![]);
        assert_eq!(spec(&r).columns.len(), 1);
        let obj = json!({"metadata": {"name": "g", "creationTimestamp": "1970-01-01T00:01:40Z"}});
        let row = CustomRows::new(&r).build(CustomObj(obj), &RowCtx::default());
        assert_eq!(&*row.cells, [Cell::Age(Some(100))]);
    }
}
