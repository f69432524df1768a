//! The JSONPath parser and evaluator of CRD printer columns (`ktui::table::jsonpath`).
//!
//! Input: the path, a NUL byte, then the JSON document (a missing or invalid document is
//! replaced by a small fixed one, so every path is also evaluated).
//!
//! Properties: parsing is deterministic and an error's offset lies inside the text;
//! wrapping a path in `{…}` (what CRDs may write) parses to the same path; `first` (what a
//! printer column shows, with its fast path for plain fields) is the first value `eval`
//! selects.
#![no_main]

use ktui::table::jsonpath::parse;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

fuzz_target!(|data: &[u8]| {
    let (path, doc) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(path) = std::str::from_utf8(path) else {
        return;
    };
    let doc: Value = serde_json::from_slice(doc).unwrap_or_else(|_| {
        json!({"metadata": {"name": "a", "labels": {"app": "web", "a.b": "dot"}},
            "spec": {"replicas": 3, "items": [1, 2.5, "x", true, null, {"k": [0]}]},
            "status": {"conditions": [{"type": "Ready", "status": "True"},
                {"type": "Synced", "status": "False", "n": 2}]}})
    });
    let parsed = parse(path);
    assert_eq!(parsed, parse(path), "parse is deterministic");
    match &parsed {
        Err(e) => assert!(
            e.offset <= path.len(),
            "offset {} past {} bytes",
            e.offset,
            path.len()
        ),
        Ok(p) => {
            if !path.contains(['{', '}']) {
                assert_eq!(
                    parse(&format!("{{{path}}}")).as_ref(),
                    Ok(p),
                    "{{}} wraps {path:?}"
                );
            }
            let all = p.eval(&doc);
            let first = p.first(&doc);
            assert_eq!(first, all.first().copied(), "first vs eval[0] for {path:?}");
        }
    }
});
