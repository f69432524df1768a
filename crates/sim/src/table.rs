//! Server-side `meta.k8s.io/v1 Table` answers for clients that ask for them (kubectl's
//! `Accept: application/json;as=Table;...`). Cells come from ktui's own row builders
//! (`ktui_table`), so kubectl against the demo shows the columns ktui shows; the demo CRD
//! uses its printer columns. Pure conversion; must not read the store.
//!
//! Because the cells are ktui's, a demo-tier test can prove that a Table answer is shaped and
//! transported right, never that a column is right: a wrong cell is wrong on both sides.
//! Column correctness is proven only against the real apiserver's printers, by
//! `tests/golden_columns.rs` (real tier).

use bytes::Bytes;
use serde_json::{json, Value};

use super::kinds::{id, KindId, KINDS};
use ktui_kube::builtin::BuiltinKind;
use ktui_kube::row::Cell;
use ktui_kube::row::RowCtx;
use ktui_table::format::format_cell;

/// Content type of a Table answer.
pub const CONTENT_TYPE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io";

/// Whether the client's first preference is a v1 (or v1beta1) Table.
pub fn wanted(accept: Option<&str>) -> bool {
    accept
        .and_then(|a| a.split(',').next())
        .is_some_and(|first| first.contains("as=Table") && first.contains("g=meta.k8s.io"))
}

/// What a row's `object` carries (`includeObject`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Include {
    None,
    Metadata,
    Object,
}

impl Include {
    /// Parses `includeObject` (default `Metadata`).
    pub fn parse(v: &str) -> Include {
        match v {
            "None" => Include::None,
            "Object" => Include::Object,
            _ => Include::Metadata,
        }
    }
}

fn builtin(kind: KindId) -> Option<BuiltinKind> {
    BuiltinKind::ALL
        .into_iter()
        .find(|b| b.info() == KINDS[kind].info)
}

fn column(name: &str, ty: &str, priority: u8) -> Value {
    json!({"name": name, "type": ty, "format": if name == "Name" { "name" } else { "" }, "description": "", "priority": priority})
}

/// Column definitions of a kind: Name, then the kind's columns.
pub fn columns(kind: KindId) -> Vec<Value> {
    let mut cols = vec![column("Name", "string", 0)];
    if let Some(b) = builtin(kind) {
        for c in ktui_table::builtin_spec(b).columns.iter() {
            cols.push(column(&c.header, "string", u8::from(c.wide)));
        }
    } else if kind == id::GIZMO {
        cols.extend([
            column("Color", "string", 0),
            column("Size", "integer", 0),
            column("Phase", "string", 0),
            column("Age", "date", 0),
        ]);
    } else {
        cols.push(column("Created At", "date", 0));
    }
    cols
}

fn now_secs() -> i64 {
    jiff::Timestamp::now().as_second()
}

/// One row: cells plus the object as `include` asks.
pub fn row(kind: KindId, obj: &[u8], include: Include) -> Value {
    let v: Value = serde_json::from_slice(obj).unwrap_or(Value::Null);
    let name = v["metadata"]["name"].clone();
    let mut cells = vec![name];
    if let Some(b) = builtin(kind) {
        let now = now_secs();
        if let Ok(r) = ktui_table::decode_row(b, obj, &RowCtx::default()) {
            cells.extend(r.cells.iter().map(|c| match c {
                Cell::Int(n) => json!(n),
                other => json!(format_cell(other, now)),
            }));
        }
    } else if kind == id::GIZMO {
        let age = ktui_table::format::age(timestamp(&v["metadata"]["creationTimestamp"]), now_secs());
        cells.extend([
            v["spec"]["color"].clone(),
            v["spec"]["size"].clone(),
            v["status"]["phase"].clone(),
            json!(age),
        ]);
    } else {
        cells.push(v["metadata"]["creationTimestamp"].clone());
    }
    let object = match include {
        Include::None => Value::Null,
        Include::Object => v,
        Include::Metadata => {
            json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": v["metadata"]})
        }
    };
    json!({"cells": cells, "object": object})
}

fn timestamp(v: &Value) -> Option<i64> {
    v.as_str()
        .and_then(|s| s.parse::<jiff::Timestamp>().ok())
        .map(|t| t.as_second())
}

/// A Table of `items` with list metadata `meta`; column definitions only when `with_columns`
/// (a watch sends them with its first event only, like the real server).
pub fn table(kind: KindId, items: &[Bytes], meta: Value, include: Include, with_columns: bool) -> Value {
    let rows: Vec<Value> = items.iter().map(|i| row(kind, i, include)).collect();
    let cols = if with_columns { columns(kind) } else { Vec::new() };
    json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": meta, "columnDefinitions": cols, "rows": rows})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pods_get_ktui_cells_and_gizmos_printer_columns() {
        assert!(wanted(Some(
            "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"
        )));
        assert!(!wanted(Some("application/json")) && !wanted(None));
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"containers": [{"name": "c"}]}, "status": {"phase": "Pending"}});
        let t = table(
            id::POD,
            &[Bytes::from(pod.to_string())],
            json!({}),
            Include::Metadata,
            true,
        );
        assert_eq!(t["columnDefinitions"][0]["name"], "Name");
        assert_eq!(t["columnDefinitions"][2]["name"], "STATUS");
        assert_eq!(t["rows"][0]["cells"][0], "p");
        assert_eq!(t["rows"][0]["cells"][2], "Pending");
        assert_eq!(t["rows"][0]["object"]["metadata"]["namespace"], "a");
        let gz = super::super::objects::gizmo("demo", "g", "red", 3, "Ready");
        let r = row(id::GIZMO, gz.to_string().as_bytes(), Include::None);
        assert_eq!(
            r["cells"].as_array().unwrap()[1..4],
            [json!("red"), json!(3), json!("Ready")]
        );
    }
}
