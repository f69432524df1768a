//! Test helpers for the row builders: a fixed clock, timestamps relative to it, and decoding a
//! `json!` fixture into formatted cells. Test-only; must not be used by production code.

use ktui_kube::builtin::BuiltinKind;
use ktui_kube::row::{Row, RowCtx, UnixSecs};

use super::decode_row;
use super::format::format_cell;

/// The injected "now" of every unit test.
pub const NOW: UnixSecs = 1_700_000_000;

/// RFC 3339 text of `NOW - ago` seconds.
pub fn ago(ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - ago).unwrap().to_string()
}

/// Decodes a fixture into a row.
pub fn row(kind: BuiltinKind, json: serde_json::Value) -> Row {
    let bytes = serde_json::to_vec(&json).unwrap();
    decode_row(kind, &bytes, &RowCtx::default()).unwrap()
}

/// Every cell of a row as text at `NOW`.
pub fn texts(row: &Row) -> Vec<String> {
    row.cells
        .iter()
        .map(|c| format_cell(c, NOW).into_owned())
        .collect()
}

/// Decodes a fixture and formats its cells at `NOW`.
pub fn cells(kind: BuiltinKind, json: serde_json::Value) -> Vec<String> {
    texts(&row(kind, json))
}
