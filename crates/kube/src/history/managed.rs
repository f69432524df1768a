//! `metadata.managedFields` read for history and blame: each entry's manager, operation,
//! subresource and time ([`ManagerEntry`]), and which entries own a field, walking the
//! entry's `fieldsV1` set (`f:<key>`, `k:{merge key}`, `v:<value>`, `i:<index>`, `.`) next
//! to the object. Pure; must not keep objects.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::patch::Step;
use super::tape::Val;
use crate::row::UnixSecs;

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

/// One `managedFields[]` entry read from text, its field set kept raw.
#[derive(Deserialize)]
struct RawEntry<'a> {
    #[serde(borrow, default)]
    manager: Cow<'a, str>,
    #[serde(borrow, default)]
    operation: Cow<'a, str>,
    #[serde(borrow, default)]
    subresource: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    time: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "fieldsV1")]
    fields: Option<&'a RawValue>,
}

/// [`entries`] of a `metadata.managedFields` given as its JSON text, each with its
/// `fieldsV1` left as text (decoded only when an ownership question needs it). An entry
/// whose fields have unexpected types is read as [`entries`] reads it.
pub fn entries_raw(list: &RawValue) -> (Vec<ManagerEntry>, Vec<Option<&RawValue>>) {
    if let Ok(raw) = serde_json::from_str::<Vec<RawEntry<'_>>>(list.get()) {
        return raw
            .into_iter()
            .map(|e| {
                let entry = ManagerEntry {
                    manager: (*e.manager).into(),
                    operation: (*e.operation).into(),
                    subresource: e.subresource.filter(|v| !v.is_empty()).map(|v| (*v).into()),
                    time: e
                        .time
                        .and_then(|t| t.parse::<jiff::Timestamp>().ok())
                        .map(|t| t.as_second()),
                };
                (entry, e.fields)
            })
            .unzip();
    }
    let Ok(values) = serde_json::from_str::<Vec<&RawValue>>(list.get()) else {
        return (Vec::new(), Vec::new());
    };
    values
        .into_iter()
        .map(|e| {
            let fields = super::raw::members(e.get()).and_then(|m| super::raw::get(&m, "fieldsV1"));
            (entry(&super::raw::value(e.get())), fields)
        })
        .unzip()
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
                .and_then(|f| reach(f, Some(obj), path))
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
    reach(set, Some(obj), path).is_some()
}

/// [`owns`] for a field set and an object given as indexed JSON text: nothing of the set is
/// decoded, and the object is read only down to the lists on `path` the set has entries for
/// (only their items there are decoded).
pub fn owns_raw(set: Val<'_, '_>, obj: Val<'_, '_>, path: &[Step]) -> bool {
    walk_set(set, Some(obj), path).is_some()
}

/// What [`walk_set`] needs of a field set node: whether it is an object and whether it is
/// empty, and its children by key (`f:<field>`) or by a predicate on the key (list items).
trait SetNode: Copy {
    fn is_object(self) -> bool;
    fn is_empty(self) -> bool;
    /// The child `f:<field>`.
    fn field(self, field: &str) -> Option<Self>;
    /// The first child whose key satisfies `pred`.
    fn find(self, pred: impl FnMut(&str) -> bool) -> Option<Self>;
}

impl SetNode for &Value {
    fn is_object(self) -> bool {
        Value::is_object(self)
    }
    fn is_empty(self) -> bool {
        self.as_object().is_some_and(|m| m.is_empty())
    }
    fn field(self, field: &str) -> Option<Self> {
        self.get(format!("f:{field}"))
    }
    fn find(self, mut pred: impl FnMut(&str) -> bool) -> Option<Self> {
        self.as_object()?.iter().find(|(k, _)| pred(k)).map(|(_, v)| v)
    }
}

impl SetNode for Val<'_, '_> {
    fn is_object(self) -> bool {
        Val::is_object(&self)
    }
    fn is_empty(self) -> bool {
        Val::is_empty(&self)
    }
    fn field(self, field: &str) -> Option<Self> {
        // `f:` keys are plain text unless the field name needs escapes.
        self.children().find(|c| match c.key_text() {
            (raw, false) => raw.strip_prefix("f:") == Some(field),
            (_, true) => c.key().strip_prefix("f:") == Some(field),
        })
    }
    fn find(self, mut pred: impl FnMut(&str) -> bool) -> Option<Self> {
        self.children().find(|c| pred(&c.key()))
    }
}

/// What [`reach`] needs of the object next to a field set: its children by key and by
/// index, and a list item as a value to match merge keys against.
trait Tree: Sized + Copy {
    fn key(self, k: &str) -> Option<Self>;
    fn index(self, i: usize) -> Option<Self>;
    fn matches(self, key: &str, index: usize) -> bool;
    fn step(self, s: &Step) -> Option<Self> {
        match s {
            Step::Key(k) => self.key(k),
            Step::Index(i) => self.index(*i),
        }
    }
}

impl Tree for &Value {
    fn key(self, k: &str) -> Option<Self> {
        self.get(k)
    }
    fn index(self, i: usize) -> Option<Self> {
        self.get(i)
    }
    fn matches(self, key: &str, index: usize) -> bool {
        item_matches(key, self, index)
    }
}

impl Tree for Val<'_, '_> {
    fn key(self, k: &str) -> Option<Self> {
        self.get(k)
    }
    fn index(self, i: usize) -> Option<Self> {
        Val::index(&self, i)
    }
    fn matches(self, key: &str, index: usize) -> bool {
        item_matches(key, &super::raw::value(self.text()), index)
    }
}

/// The node of `set` at `path` of `obj`, and whether an atomic leaf above the path was
/// reached instead; `None` when the set does not cover the path.
fn reach<'a, T: Tree>(set: &'a Value, obj: Option<T>, path: &[Step]) -> Option<(&'a Value, bool)> {
    walk_set(set, obj, path)
}

/// [`reach`] over a set of any representation.
fn walk_set<S: SetNode, T: Tree>(set: S, obj: Option<T>, path: &[Step]) -> Option<(S, bool)> {
    let mut node = set;
    // The object is followed down the path only when a list step needs its item: `base` is
    // the object at `path[..resolved]`.
    let (mut base, mut resolved) = (obj, 0);
    for (depth, step) in path.iter().enumerate() {
        if !node.is_object() {
            return None;
        }
        if node.is_empty() {
            // A leaf above the path: the manager owns the whole (atomic) value.
            return Some((node, true));
        }
        node = match step {
            Step::Key(k) => node.field(k),
            Step::Index(i) => {
                for s in &path[resolved..depth] {
                    base = base.and_then(|c| c.step(s));
                }
                resolved = depth;
                let item = base.and_then(|c| c.index(*i));
                item.and_then(|item| node.find(|key| item.matches(key, *i)))
            }
        }?;
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

    #[test]
    fn raw_entries_and_ownership_agree_with_the_decoded_ones() {
        let d = deployment();
        let text = d.to_string();
        let tape = super::super::tape::Tape::parse(&text).unwrap();
        let list = serde_json::value::to_raw_value(&d["metadata"]["managedFields"]).unwrap();
        let (e, sets) = entries_raw(&list);
        assert_eq!(e, entries(&d));
        let paths: [&[Step]; 4] = [
            &[
                k("spec"),
                k("template"),
                k("spec"),
                k("containers"),
                Step::Index(1),
                k("image"),
            ],
            &[k("status"), k("conditions"), Step::Index(0), k("status")],
            &[k("metadata"), k("finalizers"), Step::Index(1)],
            &[k("spec"), k("selector"), k("matchLabels"), k("app")],
        ];
        for path in paths {
            let raw: Vec<usize> = sets
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    s.and_then(|s| super::super::tape::Tape::parse(s.get()))
                        .is_some_and(|s| owns_raw(s.root(), tape.root(), path))
                })
                .map(|(i, _)| i)
                .collect();
            assert_eq!(raw, owners(&d, path), "{path:?}");
        }
        // An entry with a field of an unexpected type is still read.
        let odd = serde_json::value::to_raw_value(&json!([{"manager": 7, "operation": "Update"}])).unwrap();
        assert_eq!(&*entries_raw(&odd).0[0].operation, "Update");
    }
}
