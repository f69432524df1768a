//! The YAML of one object as a detail view shows it and `ctrl-s` saves it: `apiVersion` and
//! `kind` filled in, `managedFields` hidden unless asked, Secret values masked unless revealed.
//! The text is laid out as `kubectl get -o yaml` prints it and quoted so YAML 1.1 and 1.2
//! readers both read it back unchanged (`emit`, `scalar`). Pure: JSON in, text out; must not
//! do I/O.

mod emit;
#[cfg(test)]
mod emit_tests;
mod paths;
mod scalar;

pub use paths::line_paths;

/// `v` as YAML text (kubectl's layout), unsanitized: for callers that lay out parts of an
/// object themselves (the diff view).
pub fn to_yaml_text(v: &Value) -> String {
    emit::to_yaml(v)
}

use std::sync::Arc;

use base64::Engine as _;
use serde_json::Value;

use ktui_kube::builtin::BuiltinKind;
use ktui_kube::kind::Kind;
use ktui_kube::sanitize::sanitize;

/// The object as YAML lines. `managedFields` are dropped unless `show_managed`; Secret
/// `data`/`stringData` values are replaced by their decoded size unless `reveal`, in which
/// case they are decoded to text (lossy UTF-8). Every line is sanitized.
pub fn render(obj: &Arc<Value>, kind: &Kind, show_managed: bool, reveal: bool) -> Vec<String> {
    let text = yaml_text(obj, kind, show_managed, reveal);
    text.lines().map(|l| sanitize(l).into_owned()).collect()
}

/// `v` as YAML text exactly (nothing hidden, masked or added), unsanitized: what `e` hands
/// to the editor.
pub fn raw_yaml(v: &Value) -> String {
    emit::to_yaml(v)
}

/// The object as YAML text, unsanitized (for a file, not a terminal); see [`render`].
pub fn yaml_text(obj: &Arc<Value>, kind: &Kind, show_managed: bool, reveal: bool) -> String {
    let mut v = (**obj).clone();
    if let Some(map) = v.as_object_mut() {
        // List and watch items come without their type; kubectl shows it.
        let api_version = if kind.group().is_empty() {
            kind.version().to_owned()
        } else {
            format!("{}/{}", kind.group(), kind.version())
        };
        map.entry("apiVersion").or_insert(Value::String(api_version));
        map.entry("kind")
            .or_insert(Value::String(kind.kind_name().to_owned()));
    }
    if !show_managed {
        if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("managedFields");
        }
    }
    if *kind == BuiltinKind::Secret {
        for field in ["data", "stringData"] {
            if let Some(map) = v.get_mut(field).and_then(Value::as_object_mut) {
                for val in map.values_mut() {
                    *val = Value::String(secret_value(val, field == "data", reveal));
                }
            }
        }
        if let Some(meta) = v
            .get_mut("metadata")
            .and_then(|m| m.get_mut("annotations"))
            .and_then(Value::as_object_mut)
        {
            // kubectl apply keeps the whole Secret, values included, in this annotation.
            if meta.contains_key("kubectl.kubernetes.io/last-applied-configuration") && !reveal {
                meta.insert(
                    "kubectl.kubernetes.io/last-applied-configuration".into(),
                    Value::String("<hidden: holds the secret's values>".into()),
                );
            }
        }
    }
    emit::to_yaml(&v)
}

fn secret_value(val: &Value, base64: bool, reveal: bool) -> String {
    let raw = val.as_str().unwrap_or_default();
    let bytes = if base64 {
        base64::engine::general_purpose::STANDARD
            .decode(raw)
            .unwrap_or_else(|_| raw.as_bytes().to_vec())
    } else {
        raw.as_bytes().to_vec()
    };
    if reveal {
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        format!("<hidden: {} bytes; x to decode>", bytes.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secrets_are_masked_until_revealed_and_managed_fields_hidden() {
        let obj = Arc::new(json!({
            "apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": "db", "managedFields": [{"manager": "kubectl"}],
                         "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"data\":{\"password\":\"aHVudGVyMg==\"}}"}},
            "data": {"password": "aHVudGVyMg=="}, "type": "Opaque"
        }));
        let masked = render(&obj, &BuiltinKind::Secret.into(), false, false).join("\n");
        assert!(
            !masked.contains("hunter2") && !masked.contains("aHVudGVyMg"),
            "{masked}"
        );
        assert!(masked.contains("<hidden: 7 bytes; x to decode>"), "{masked}");
        assert!(!masked.contains("managedFields"));
        let shown = render(&obj, &BuiltinKind::Secret.into(), true, true).join("\n");
        assert!(shown.contains("password: hunter2"), "{shown}");
        assert!(shown.contains("managedFields"));
    }

    #[test]
    fn escape_sequences_in_values_are_neutralised() {
        let obj = Arc::new(json!({"metadata": {"name": "x", "labels": {"a": "\u{1b}[2Jboom"}}}));
        let lines = render(&obj, &BuiltinKind::ConfigMap.into(), false, false);
        assert!(lines.iter().all(|l| !l.contains('\u{1b}')), "{lines:?}");
    }
}
