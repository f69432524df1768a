//! Extraction of the indexed fields ([`Meta`]) of an object as it is written: name,
//! namespace, labels and the kind's selectable fields. Pure; must not touch the store.

use serde_json::Value;

use super::StoreError;
use crate::kinds::{KindId, KINDS};
use crate::matching::Meta;

/// Extracts the indexed fields of an object of `kind`.
pub fn index(kind: KindId, obj: &Value) -> Result<Meta, StoreError> {
    let md = &obj["metadata"];
    let name = md["name"]
        .as_str()
        .filter(|n| !n.is_empty())
        .ok_or_else(|| StoreError::Invalid("metadata.name is required".into()))?;
    let namespace = md["namespace"].as_str().unwrap_or("");
    let labels = md["labels"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (Box::from(k.as_str()), Box::from(v.as_str().unwrap_or(""))))
                .collect()
        })
        .unwrap_or_default();
    let fields = KINDS[kind]
        .fields
        .iter()
        .map(|f| (*f, Box::from(field_value(obj, f).as_str())))
        .collect();
    Ok(Meta {
        namespace: namespace.into(),
        name: name.into(),
        labels,
        fields,
    })
}

fn field_value(obj: &Value, label: &str) -> String {
    let pointer = match label {
        "source" => "/source/component".to_owned(),
        "status.successful" => "/status/succeeded".to_owned(),
        other => format!("/{}", other.replace('.', "/")),
    };
    match obj.pointer(&pointer) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(v) => v.to_string(),
    }
}
