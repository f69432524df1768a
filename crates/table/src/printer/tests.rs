//! Unit tests for `table::printer`. Expected texts were produced by the API server's
//! tableconvertor code path (client-go jsonpath + Go JSON to kubectl + `fmt.Sprint`).

use serde_json::{json, Value};

use super::*;
use crate::jsonpath;

/// The text kubectl prints for the cell (ages as `age:<unix secs>`).
fn shown(value: Value, column_type: &str) -> String {
    match printer_cell(Some(&value), column_type) {
        Cell::Text(s) => s.into(),
        Cell::Static(s) => s.into(),
        Cell::Int(i) => i.to_string(),
        Cell::Age(Some(t)) => format!("age:{t}"),
        Cell::Age(None) => "<unknown>".into(),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn headers_are_upper_cased_like_go() {
    assert_eq!(header("Ready"), "READY");
    assert_eq!(header("Last Seen"), "LAST SEEN");
    assert_eq!(header("Port(s)"), "PORT(S)");
    assert_eq!(header("Straße"), "STRAßE", "Go maps one rune to one rune");
    assert_eq!(header("ᾳ"), "ᾼ");
    assert_eq!(header("état"), "ÉTAT");
}

#[test]
fn absent_null_and_unknown_types_are_blank() {
    for t in [
        "integer", "number", "boolean", "string", "date", "String", "float", "",
    ] {
        assert_eq!(
            printer_cell(None, t),
            Cell::Static(""),
            "{t}: nil cell prints nothing, not <none>"
        );
    }
    for t in ["integer", "number", "boolean", "date"] {
        assert_eq!(printer_cell(Some(&Value::Null), t), Cell::Static(""), "{t}");
    }
    assert_eq!(shown(json!("x"), "String"), "", "types are case-sensitive");
    assert_eq!(shown(json!(1), "float"), "");
}

#[test]
fn integer_columns() {
    assert_eq!(printer_cell(Some(&json!(42)), "integer"), Cell::Int(42));
    assert_eq!(shown(json!(3.9), "integer"), "3");
    assert_eq!(shown(json!(-3.9), "integer"), "-3");
    assert_eq!(shown(json!(-0.5), "integer"), "0");
    assert_eq!(shown(json!(1234567.5), "integer"), "1234567");
    // Out of range is implementation-defined in Go (amd64 gives MinInt64); we saturate.
    assert_eq!(shown(json!(1e30), "integer"), i64::MAX.to_string());
    assert_eq!(shown(json!(u64::MAX), "integer"), i64::MAX.to_string());
    for wrong in [json!("5"), json!(true), json!([1]), json!({"a": 1})] {
        assert_eq!(shown(wrong.clone(), "integer"), "", "{wrong}");
    }
}

#[test]
fn number_columns_print_like_kubectl() {
    let cases = [
        (json!(42), "42"),
        (json!(3.0), "3"),
        (json!(3.9), "3.9"),
        (json!(-0.5), "-0.5"),
        (json!(1.5), "1.5"),
        (json!(123456.5), "123456.5"),
        (json!(1234567.5), "1.2345675e+06"),
        (json!(0.00001), "1e-05"),
        (json!(1e-7), "1e-07"),
        (json!(1e20), "1e+20"),
        (json!(1e21), "1e+21"),
        (json!(1e30), "1e+30"),
        (json!(u64::MAX), "1.8446744073709552e+19"),
        (json!(2.9802322387695312e-8), "2.9802322387695312e-08"),
    ];
    for (v, want) in cases {
        assert_eq!(shown(v.clone(), "number"), want, "{v}");
    }
    assert_eq!(printer_cell(Some(&json!(100.0)), "number"), Cell::Int(100));
    for wrong in [json!("1.5"), json!(false), json!([])] {
        assert_eq!(shown(wrong.clone(), "number"), "", "{wrong}");
    }
}

#[test]
fn boolean_columns() {
    assert_eq!(printer_cell(Some(&json!(true)), "boolean"), Cell::Static("true"));
    assert_eq!(shown(json!(false), "boolean"), "false");
    for wrong in [json!("true"), json!(1), json!({})] {
        assert_eq!(shown(wrong.clone(), "boolean"), "", "{wrong}");
    }
}

#[test]
fn string_columns_print_any_value() {
    let cases = [
        (json!("Running"), "Running"),
        (json!(""), ""),
        (json!("line1\nline2"), "line1..."),
        (json!("a\rb"), "a..."),
        (json!("a\u{c}b"), "a..."),
        (json!(42), "42"),
        (json!(3.0), "3"),
        (json!(3.9), "3.9"),
        (json!(1234567.5), "1.2345675e+06"),
        (json!(1e21), "1e+21"),
        (json!(true), "true"),
        (json!(null), "<no value>"),
        (json!(["foo"]), r#"["foo"]"#),
        (json!([1, 2.5]), "[1,2.5]"),
        (json!({}), "{}"),
        (json!({"b": 1, "a": "<&>"}), r#"{"a":"\u003c\u0026\u003e","b":1}"#),
        (json!([1e21, 1e-7, 0.000001, 100.0]), "[1e+21,1e-7,0.000001,100]"),
        (
            json!(["a\"b\\c\n\t\u{8}\u{c}\u{1}\u{2028}"]),
            r#"["a\"b\\c\n\t\b\f\u0001\u2028"]"#,
        ),
    ];
    for (v, want) in cases {
        assert_eq!(shown(v.clone(), "string"), want, "{v}");
    }
    let escape = "x\u{1b}[31m";
    assert_eq!(
        printer_cell(Some(&json!(escape)), "string"),
        Cell::Text(sanitized_box(escape)),
        "sanitized"
    );
    assert_eq!(printer_cell(Some(&json!("")), "string"), Cell::Static(""));
    assert_eq!(printer_cell(Some(&json!(7)), "string"), Cell::Int(7));
}

#[test]
fn date_columns() {
    let t = 1_714_557_600;
    let cases = [
        (json!("2024-05-01T10:00:00Z"), format!("age:{t}")),
        (json!("2024-05-01T12:00:00+02:00"), format!("age:{t}")),
        (json!("2024-05-01T08:30:00-01:30"), format!("age:{t}")),
        (json!("2024-05-01T10:00:00.999Z"), format!("age:{t}")),
        (json!("2024-05-01T10:00:00,5Z"), format!("age:{t}")),
        (json!("2024-05-01T1:00:00Z"), format!("age:{}", t - 9 * 3600)),
        (json!("2024-05-01T10:00:00+24:00"), format!("age:{}", t - 86_400)),
        (json!("0001-01-01T00:00:00.5Z"), "age:-62135596800".into()),
        (json!(""), "<unknown>".into()),
        (json!("null"), "<unknown>".into()),
        (json!("0001-01-01T00:00:00Z"), "<unknown>".into()),
        (json!("0001-01-01T01:00:00+01:00"), "<unknown>".into()),
    ];
    for (v, want) in cases {
        assert_eq!(shown(v.clone(), "date"), want, "{v}");
    }
    for bad in [
        "garbage",
        "5",
        "2024-05-01t10:00:00Z",
        "2024-05-01T10:00:00z",
        "2024-05-01 10:00:00Z",
        "2024-05-01T10:00:60Z",
        "2024-05-01T24:00:00Z",
        "2024-02-30T10:00:00Z",
        "2024-05-01T10:00:00",
        "2024-05-01T10:00:00+0100",
        "2024-05-01T10:00:00.Z",
        " 2024-05-01T10:00:00Z",
        "2024-05-01T10:00:00Zé",
    ] {
        assert_eq!(
            printer_cell(Some(&json!(bad)), "date"),
            Cell::Static("<invalid>"),
            "{bad}"
        );
    }
    for wrong in [json!(1_714_557_600), json!(true), json!(["2024-05-01T10:00:00Z"])] {
        assert_eq!(shown(wrong.clone(), "date"), "", "{wrong}");
    }
}

#[test]
fn printer_columns_end_to_end() {
    let cert = json!({
        "metadata": {"name": "web-tls", "creationTimestamp": "2024-05-01T10:00:00Z"},
        "spec": {"secretName": "web-tls", "renewBefore": null},
        "status": {"conditions": [
            {"type": "Issuing", "status": "False"},
            {"type": "Ready", "status": "True", "message": "Certificate is up to date\nand has not expired"}
        ], "revision": 4}
    });
    let columns = [
        (
            "Ready",
            r#".status.conditions[?(@.type=="Ready")].status"#,
            "string",
            Cell::Text("True".into()),
        ),
        (
            "Secret",
            ".spec.secretName",
            "string",
            Cell::Text("web-tls".into()),
        ),
        ("Renew", ".spec.renewBefore", "string", Cell::Static("<no value>")),
        ("Issuer", ".spec.issuerRef.name", "string", Cell::Static("")),
        ("Revision", ".status.revision", "integer", Cell::Int(4)),
        (
            "Status",
            r#".status.conditions[?(@.type=="Ready")].message"#,
            "string",
            Cell::Text("Certificate is up to date...".into()),
        ),
        (
            "Age",
            ".metadata.creationTimestamp",
            "date",
            Cell::Age(Some(1_714_557_600)),
        ),
    ];
    for (name, path, column_type, want) in columns {
        let path = jsonpath::parse(path).unwrap();
        assert_eq!(printer_cell(path.first(&cert), column_type), want, "{name}");
        assert_eq!(header(name), name.to_uppercase());
    }
}

#[test]
fn floats_parse_exactly_before_printing() {
    // serde_json's default float parser can be one ulp off; kubectl (Go) is exact.
    let v: serde_json::Value = serde_json::from_str("123456789.123456789").unwrap();
    let cell = printer_cell(Some(&v), "number");
    assert_eq!(crate::format::format_cell(&cell, 0), "1.2345678912345679e+08");
}
