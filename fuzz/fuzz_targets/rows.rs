//! Object → row decoders: arbitrary bytes decoded as an object of each built-in kind through
//! `ktui::table::decode_row` (the slim serde type + `IntoRow` the informer runs), and as a
//! custom resource through its CRD printer columns (`CustomRows`, the path discovered kinds
//! take), plus the quantity canonicaliser those rows use.
//!
//! Input: first byte picks the family — `b % (kinds + 2)`: a built-in kind by index into
//! `BuiltinKind::ALL`, then `custom`, then `quantity`; the rest is the JSON (for `custom`,
//! `{"columns":[{"name","type","jsonPath","priority"}…],"object":{…}}`; for `quantity`,
//! the quantity text).
//!
//! Properties: a decoded row has one cell per column of its kind's spec, and everything it
//! draws is clean ([`ktui_fuzz::assert_row_clean`]); decoding is deterministic; custom
//! headers are clean; a quantity's canonical form is a fixed point.
#![no_main]

use std::sync::Arc;

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::kind::{ApiResource, PrinterColumn};
use ktui::kube::row::RowCtx;
use ktui::kube::sink::RowBuilder;
use ktui::table::custom::{self, CustomObj, CustomRows};
use ktui::table::quantity::canonical;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let n = BuiltinKind::ALL.len();
    match usize::from(pick) % (n + 2) {
        i if i < n => builtin(BuiltinKind::ALL[i], rest),
        i if i == n => crd(rest),
        _ => quantity(rest),
    }
});

fn builtin(kind: BuiltinKind, json: &[u8]) {
    let ctx = RowCtx::default();
    let Ok(row) = ktui::table::decode_row(kind, json, &ctx) else {
        return;
    };
    let spec = ktui::table::builtin_spec(kind);
    assert_eq!(row.cells.len(), spec.columns.len(), "{kind:?}: cells vs columns");
    ktui_fuzz::assert_row_clean(&row);
    let again = ktui::table::decode_row(kind, json, &ctx).expect("decoded once, decodes again");
    assert_eq!(row, again, "{kind:?}: decoding is deterministic");
}

#[derive(serde::Deserialize)]
struct Crd {
    #[serde(default)]
    columns: Vec<Col>,
    #[serde(default)]
    object: Value,
}

#[derive(serde::Deserialize)]
struct Col {
    #[serde(default)]
    name: String,
    #[serde(default, rename = "type")]
    column_type: String,
    #[serde(default, rename = "jsonPath")]
    json_path: String,
    #[serde(default)]
    priority: i32,
}

fn crd(json: &[u8]) {
    let Ok(crd) = serde_json::from_slice::<Crd>(json) else {
        return;
    };
    let columns: Vec<PrinterColumn> = crd
        .columns
        .into_iter()
        .map(|c| PrinterColumn {
            name: c.name,
            column_type: c.column_type,
            json_path: c.json_path,
            priority: c.priority,
        })
        .collect();
    let r = ApiResource {
        group: "fuzz.ktui.dev".into(),
        version: "v1".into(),
        plural: "things".into(),
        kind: "Thing".into(),
        namespaced: true,
        columns: Arc::from(columns),
        from_crd: true,
        ..Default::default()
    };
    let spec = custom::spec(&r);
    for c in spec.columns.iter() {
        ktui_fuzz::assert_clean("custom header", &c.header);
    }
    let row = CustomRows::new(&r).build(CustomObj(crd.object), &RowCtx::default());
    assert_eq!(row.cells.len(), spec.columns.len(), "custom: cells vs columns");
    ktui_fuzz::assert_row_clean(&row);
}

fn quantity(text: &[u8]) {
    let Ok(s) = std::str::from_utf8(text) else {
        return;
    };
    let once = canonical(s);
    let twice = canonical(&once);
    assert_eq!(once, twice, "canonical({s:?}) is not a fixed point");
}
