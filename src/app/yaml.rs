//! The live YAML view of one object: its lines, rendered from the latest watched object with
//! `managedFields` hidden unless asked and Secret values masked unless revealed, plus scroll
//! and search positions. Must not do I/O (the watch is attached by the loop).

use std::sync::Arc;

use base64::Engine as _;
use serde_json::Value;

use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::kind::Kind;
use crate::kube::sanitize::sanitize;

/// The UI-local state of one detail view (live YAML or describe of one object); drawn by
/// `ui::yaml`.
pub struct DetailState {
    /// What is watched: kind, namespace (no selectors; the watch adds `metadata.name`).
    pub key: ResourceKey,
    /// `metadata.name` of the object.
    pub name: String,
    /// What the live watch publishes, attached by the loop once connected.
    pub watch: Option<super::state::ObjectFeed>,
    /// First line shown.
    pub scroll: usize,
    /// Show `metadata.managedFields`.
    pub show_managed: bool,
    /// Secret values decoded (the user confirmed).
    pub reveal: bool,
    /// The search term (`/`), matched case-insensitively per line.
    pub search: String,
    /// Rendered lines, sanitized.
    pub lines: Vec<String>,
    /// Object revision and settings `lines` were rendered from.
    rendered: Option<(u64, bool, bool)>,
    /// The object is gone from the server.
    pub deleted: bool,
    /// Show the `kubectl describe`-like summary instead of YAML (`d`).
    pub describe: bool,
    /// Describe: the object's events, attached by the loop (see `describe_events`).
    pub events: Option<super::state::Source>,
    /// A fixed clock (unix seconds) for describe's ages instead of the wall clock (screen
    /// tests).
    pub clock: Option<i64>,
}

impl DetailState {
    /// A view of `name` of `key.kind` in `key.namespace`.
    pub fn new(key: ResourceKey, name: &str) -> Self {
        DetailState {
            key,
            name: name.to_owned(),
            watch: None,
            scroll: 0,
            show_managed: false,
            reveal: false,
            search: String::new(),
            lines: Vec::new(),
            rendered: None,
            deleted: false,
            describe: false,
            events: None,
            clock: None,
        }
    }

    /// Describe: the key of the object's events informer.
    pub fn events_key(&self) -> Option<ResourceKey> {
        self.describe
            .then(|| super::describe_events::key_for(&self.key, &self.name))
    }

    /// Re-renders when the watched object or a setting changed.
    pub fn refresh(&mut self) {
        let Some(w) = &self.watch else { return };
        let view = w.view.load_full();
        self.deleted = view.deleted;
        let stamp = (view.rev, self.show_managed, self.reveal);
        // Describe shows ages, so it is re-rendered every time (one object: cheap).
        if self.rendered == Some(stamp) && !self.describe {
            return;
        }
        self.rendered = Some(stamp);
        self.lines = match &view.object {
            Some(obj) if self.describe => {
                let now = self.clock.unwrap_or_else(|| jiff::Timestamp::now().as_second());
                let mut lines = super::describe::describe(obj, &self.key.kind, now);
                let snap = self.events.as_ref().map(|s| s.slot.load());
                let uid = obj["metadata"]["uid"].as_str().unwrap_or("");
                lines.extend(super::describe_events::lines(snap.as_deref(), uid, now));
                lines
            }
            Some(obj) => render(obj, &self.key.kind, self.show_managed, self.reveal),
            None => Vec::new(),
        };
    }

    /// Index of the first line at or after `from` matching the search, wrapping around.
    pub fn find(&self, from: usize) -> Option<usize> {
        if self.search.is_empty() || self.lines.is_empty() {
            return None;
        }
        let needle = self.search.to_lowercase();
        let n = self.lines.len();
        (0..n)
            .map(|i| (from + i) % n)
            .find(|&i| self.lines[i].to_lowercase().contains(&needle))
    }

    /// What `ctrl-s` writes: the YAML as the server has it (unsanitized, so the file is valid
    /// YAML), `managedFields` as toggled, Secret values always masked even when revealed on
    /// screen; or the describe text as shown.
    pub fn save_text(&self) -> String {
        let object = self.watch.as_ref().and_then(|w| w.view.load().object.clone());
        match object {
            Some(obj) if !self.describe => yaml_text(&obj, &self.key.kind, self.show_managed, false),
            _ => {
                let mut t = self.lines.join("\n");
                t.push('\n');
                t
            }
        }
    }
}

/// The object as YAML lines. `managedFields` are dropped unless `show_managed`; Secret
/// `data`/`stringData` values are replaced by their decoded size unless `reveal`, in which
/// case they are decoded to text (lossy UTF-8). Every line is sanitized.
pub fn render(obj: &Arc<Value>, kind: &Kind, show_managed: bool, reveal: bool) -> Vec<String> {
    let text = yaml_text(obj, kind, show_managed, reveal);
    text.lines().map(|l| sanitize(l).into_owned()).collect()
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
    match serde_yaml::to_string(&v) {
        // kubectl reads YAML 1.1: `yes`, `on` or a date left plain would change type.
        Ok(text) => super::yaml_quote::quote_yaml11(&text),
        Err(e) => format!("# cannot render: {e}"),
    }
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
