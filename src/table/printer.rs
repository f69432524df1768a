//! Placeholder until printer-column formatting lands (being written separately).

use serde_json::Value;

use crate::kube::row::Cell;

/// Cell.
pub fn printer_cell(value: Option<&Value>, column_type: &str) -> Cell {
    match (value, column_type) {
        (None, _) => Cell::Static("<none>"),
        (Some(Value::String(s)), "date") => Cell::Age(crate::table::meta::parse_rfc3339(s)),
        (Some(Value::String(s)), _) => crate::table::meta::text(s),
        (Some(v), _) => crate::table::meta::text(&v.to_string()),
    }
}

/// Header.
pub fn header(name: &str) -> String {
    name.to_uppercase()
}
