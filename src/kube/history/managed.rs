//! `metadata.managedFields` read for history and blame: each entry's manager, operation,
//! subresource and time ([`ManagerEntry`]), and which entries own a field, walking the
//! entry's `fieldsV1` set (`f:<key>`, `k:{merge key}`, `v:<value>`, `i:<index>`, `.`) next
//! to the object. Pure; must not keep objects.

use serde_json::Value;

use super::patch::Step;
use crate::kube::row::UnixSecs;

/// One `metadata.managedFields[]` entry without its field set.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ManagerEntry {
    /// `manager` (`kubectl-client-side-apply`, `kube-controller-manager`, `helm`).
    pub manager: Box<str>,
    /// `operation`: `Apply` or `Update`.
    pub operation: Box<str>,
    /// `subresource` (`status`, `scale`); `None` for the main resource.
    pub subresource: Option<Box<str>>,
    /// `time` in unix seconds (RFC 3339 on the wire); `None` when absent or unreadable.
    pub time: Option<UnixSecs>,
}

impl ManagerEntry {
    /// `manager (Operation)` or `manager (Operation/subresource)`, unsanitized.
    pub fn label(&self) -> String {
        match &self.subresource {
            Some(s) => format!("{} ({}/{s})", self.manager, self.operation),
            None => format!("{} ({})", self.manager, self.operation),
        }
    }
}

/// The entries of `obj`'s `metadata.managedFields`, in the server's order.
pub fn entries(obj: &Value) -> Vec<ManagerEntry> {
    let Some(list) = obj.pointer("/metadata/managedFields").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter().map(entry).collect()
}

fn entry(e: &Value) -> ManagerEntry {
    let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
    ManagerEntry {
        manager: s("manager").into(),
        operation: s("operation").into(),
        subresource: e
            .get("subresource")
            .and_then(Value::as_str)
            .filter(|v| !v.is_empty())
            .map(Into::into),
        time: e
            .get("time")
            .and_then(Value::as_str)
            .and_then(|t| t.parse::<jiff::Timestamp>().ok())
            .map(|t| t.as_second()),
    }
}

/// Indices into [`entries`] of the managers owning the field at `path` of `obj` (a path into
/// `obj` itself, managedFields included in `obj`). A manager owns a field when its
/// `fieldsV1` reaches the path, or reaches a leaf above it (an atomic field).
pub fn owners(obj: &Value, path: &[Step]) -> Vec<usize> {
    let Some(list) = obj.pointer("/metadata/managedFields").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .enumerate()
        .filter(|(_, e)| e.get("fieldsV1").is_some_and(|f| owns(f, obj, path)))
        .map(|(i, _)| i)
        .collect()
}

/// Like [`owners`], but a manager counts only when it owns the field at `path` itself: its
/// set ends there (`{}`), marks it with `.`, or holds an atomic field above it — not when it
/// merely owns something inside (what blame annotates a `spec:` line with).
pub fn owners_exactly(obj: &Value, path: &[Step]) -> Vec<usize> {
    let Some(list) = obj.pointer("/metadata/managedFields").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .enumerate()
        .filter(|(_, e)| {
            e.get("fieldsV1")
                .and_then(|f| reach(f, obj, path))
                .is_some_and(|(node, atomic)| {
                    atomic
                        || node
                            .as_object()
                            .is_some_and(|m| m.is_empty() || m.contains_key("."))
                })
        })
        .map(|(i, _)| i)
        .collect()
}

/// Whether field set `set` (one entry's `fieldsV1`) covers `path` of `obj`.
pub fn owns(set: &Value, obj: &Value, path: &[Step]) -> bool {
    reach(set, obj, path).is_some()
}

/// The node of `set` at `path` of `obj`, and whether an atomic leaf above the path was
/// reached instead; `None` when the set does not cover the path.
fn reach<'a>(set: &'a Value, obj: &Value, path: &[Step]) -> Option<(&'a Value, bool)> {
    let mut node = set;
    let mut cur = Some(obj);
    for step in path {
        let children = node.as_object()?;
        if children.is_empty() {
            // A leaf above the path: the manager owns the whole (atomic) value.
            return Some((node, true));
        }
        let here = cur;
        let next = match step {
            Step::Key(k) => children.get(&format!("f:{k}")),
            Step::Index(i) => {
                let item = here.and_then(|c| c.get(*i));
                item.and_then(|item| {
                    children
                        .iter()
                        .find(|(key, _)| item_matches(key, item, *i))
                        .map(|(_, v)| v)
                })
            }
        };
        node = next?;
        cur = here.and_then(|c| match step {
            Step::Key(k) => c.get(k),
            Step::Index(i) => c.get(*i),
        });
    }
    Some((node, false))
}

/// Whether the fieldsV1 key `key` (`k:{"name":"web"}`, `v:"x"`, `i:0`) names list `item` at
/// position `index`.
fn item_matches(key: &str, item: &Value, index: usize) -> bool {
    if let Some(k) = key.strip_prefix("k:") {
        let Ok(Value::Object(want)) = serde_json::from_str::<Value>(k) else {
            return false;
        };
        return want.iter().all(|(f, v)| item.get(f) == Some(v));
    }
    if let Some(v) = key.strip_prefix("v:") {
        return serde_json::from_str::<Value>(v).is_ok_and(|v| &v == item);
    }
    key.strip_prefix("i:")
        .and_then(|n| n.parse::<usize>().ok())
        .is_some_and(|n| n == index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn k(s: &str) -> Step {
        Step::Key(s.into())
    }

    fn deployment() -> Value {
        json!({
            "metadata": {"name": "web", "labels": {"app": "web"}, "managedFields": [
                {"manager": "kubectl-client-side-apply", "operation": "Update", "time": "2026-12-01T10:00:00Z",
                 "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                              "f:spec": {"f:template": {"f:spec": {"f:containers": {
                                  "k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}},
                {"manager": "kubectl", "operation": "Update", "subresource": "scale", "time": "2026-12-01T10:05:00Z",
                 "fieldsV1": {"f:spec": {"f:replicas": {}}}},
                {"manager": "kube-controller-manager", "operation": "Update", "subresource": "status",
                 "time": "2026-12-01T10:05:01Z",
                 "fieldsV1": {"f:status": {"f:replicas": {}, "f:conditions": {".": {},
                     "k:{\"type\":\"Available\"}": {".": {}, "f:status": {}}}}}},
                {"manager": "ops", "operation": "Apply", "time": "2026-12-01T10:06:00Z",
                 "fieldsV1": {"f:metadata": {"f:finalizers": {"v:\"a/b\"": {}}}, "f:spec": {"f:selector": {}}}}
            ], "finalizers": ["x", "a/b"]},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                     "template": {"spec": {"containers": [{"name": "side", "image": "s:1"}, {"name": "web", "image": "web:1.4"}]}}},
            "status": {"replicas": 3, "conditions": [{"type": "Progressing", "status": "True"}, {"type": "Available", "status": "True"}]}
        })
    }

    #[test]
    fn entries_keep_manager_operation_subresource_and_time() {
        let e = entries(&deployment());
        assert_eq!(e.len(), 4);
        assert_eq!(e[1].label(), "kubectl (Update/scale)");
        assert_eq!(e[3].label(), "ops (Apply)");
        assert_eq!(e[0].time, Some(1_796_119_200));
    }

    #[test]
    fn owners_follow_merge_keys_values_and_atomic_leaves() {
        let d = deployment();
        let image = [
            k("spec"),
            k("template"),
            k("spec"),
            k("containers"),
            Step::Index(1),
            k("image"),
        ];
        assert_eq!(owners(&d, &image), [0]);
        let other = [
            k("spec"),
            k("template"),
            k("spec"),
            k("containers"),
            Step::Index(0),
            k("image"),
        ];
        assert_eq!(
            owners(&d, &other),
            Vec::<usize>::new(),
            "nobody manages the side container"
        );
        assert_eq!(owners(&d, &[k("spec"), k("replicas")]), [1]);
        let cond = [k("status"), k("conditions"), Step::Index(1), k("status")];
        assert_eq!(owners(&d, &cond), [2]);
        assert_eq!(
            owners(&d, &[k("status"), k("conditions"), Step::Index(0), k("status")]),
            Vec::<usize>::new()
        );
        assert_eq!(owners(&d, &[k("metadata"), k("finalizers"), Step::Index(1)]), [3]);
        assert_eq!(
            owners(&d, &[k("metadata"), k("finalizers"), Step::Index(0)]),
            Vec::<usize>::new()
        );
        // An atomic field: owning `selector` owns everything below it.
        assert_eq!(
            owners(&d, &[k("spec"), k("selector"), k("matchLabels"), k("app")]),
            [3]
        );
        assert_eq!(owners(&json!({}), &[k("spec")]), Vec::<usize>::new());
    }
}
