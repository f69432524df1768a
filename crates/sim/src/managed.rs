//! The demo server's `metadata.managedFields`, kept the way the API server keeps them for
//! Update operations: every write moves the fields it changed (as `fieldsV1` paths: `f:key`,
//! `k:{"name":…}` for named list items, other lists atomic) to its writer's entry (manager,
//! operation, subresource, time), out of every other entry; entries left with nothing are
//! dropped. The writer is the request's (`fieldManager`, else the user agent's first word;
//! a `status` or `scale` subresource), set for the duration of the request by [`as_writer`];
//! the scenario's and controllers' own writes, which have none, are attributed as a cluster
//! would: status to the kubelet (pods) or kube-controller-manager, objects with a controller
//! to kube-controller-manager, new objects to `kubectl` (Apply) or
//! `kubectl-client-side-apply` (Update) by name, later changes to `demo-scenario`. Pods of
//! the load generator (`load-NN`) and events carry none (their volume would double the
//! server's memory). Owns that bookkeeping; must not write to the store.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use super::kinds::{id, KindId};

/// Who writes: `managedFields[].manager`, `.operation`, `.subresource`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Writer {
    /// `manager`.
    pub manager: String,
    /// `Update` or `Apply`.
    pub operation: &'static str,
    /// `status`, `scale`, or none for the main resource.
    pub subresource: Option<String>,
}

impl Writer {
    fn new(manager: &str, operation: &'static str, subresource: Option<&str>) -> Writer {
        Writer {
            manager: manager.to_owned(),
            operation,
            subresource: subresource.map(str::to_owned),
        }
    }
}

thread_local! {
    static WRITER: RefCell<Option<Writer>> = const { RefCell::new(None) };
}

/// Runs `f` with `writer` as the writer of every store write it makes on this thread (the
/// request handlers are synchronous).
pub fn as_writer<R>(writer: Option<Writer>, f: impl FnOnce() -> R) -> R {
    let before = WRITER.with(|w| w.replace(writer));
    let out = f();
    WRITER.with(|w| *w.borrow_mut() = before);
    out
}

/// The writer of a request: `fieldManager` from the query, else the user agent up to its
/// first `/` (as the API server defaults it), else `unknown`; `Apply` for an apply patch;
/// the subresource written (`status`, `scale`). `None` for reads.
pub fn of_request(
    method: &http::Method,
    query: &str,
    user_agent: Option<&str>,
    content_type: &str,
    sub: Option<&str>,
) -> Option<Writer> {
    if !matches!(
        *method,
        http::Method::POST | http::Method::PUT | http::Method::PATCH
    ) {
        return None;
    }
    let manager = form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "fieldManager")
        .map(|(_, v)| v.into_owned())
        .filter(|m| !m.is_empty())
        .or_else(|| {
            user_agent
                .and_then(|ua| ua.split('/').next())
                .filter(|m| !m.is_empty())
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "unknown".into());
    let operation = if content_type.starts_with("application/apply-patch") {
        "Apply"
    } else {
        "Update"
    };
    let sub = sub.filter(|s| matches!(*s, "status" | "scale"));
    Some(Writer::new(&manager, operation, sub))
}

/// One `fieldsV1` path: `["f:spec", "f:containers", "k:{\"name\":\"web\"}", "f:image"]`.
type Path = Vec<String>;

/// Metadata fields the API server does not track in field sets.
const UNTRACKED: [&str; 9] = [
    "managedFields",
    "resourceVersion",
    "uid",
    "creationTimestamp",
    "generation",
    "name",
    "namespace",
    "selfLink",
    "deletionTimestamp",
];

/// The key field of a list's items when every item is a map holding it as a scalar (the
/// API's merge keys); `None`: the list is atomic.
fn list_key(items: &[Value]) -> Option<&'static str> {
    ["name", "type", "containerPort", "key", "mountPath", "ip"]
        .into_iter()
        .find(|k| {
            !items.is_empty()
                && items
                    .iter()
                    .all(|i| i.get(*k).is_some_and(|v| v.is_string() || v.is_number()))
        })
}

/// Every leaf of `v` under `path` with its value (named list items also as `path + "."`).
fn leaves<'a>(v: &'a Value, path: &mut Path, root: bool, out: &mut BTreeMap<Path, &'a Value>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, c) in m {
                if root && matches!(k.as_str(), "apiVersion" | "kind") {
                    continue;
                }
                if path.len() == 1 && path[0] == "f:metadata" && UNTRACKED.contains(&k.as_str()) {
                    continue;
                }
                path.push(format!("f:{k}"));
                leaves(c, path, false, out);
                path.pop();
            }
        }
        Value::Array(items) => match list_key(items) {
            Some(key) => {
                for item in items {
                    path.push(format!("k:{}", json!({key: item[key]})));
                    path.push(".".into());
                    out.insert(path.clone(), item);
                    path.pop();
                    leaves(item, path, false, out);
                    path.pop();
                }
            }
            None => {
                out.insert(path.clone(), v);
            }
        },
        _ => {
            out.insert(path.clone(), v);
        }
    }
}

fn leaves_of(v: &Value) -> BTreeMap<Path, &Value> {
    let mut out = BTreeMap::new();
    leaves(v, &mut Vec::new(), true, &mut out);
    out
}

/// The paths of a `fieldsV1` tree (its leaves are `{}`).
fn paths_of(set: &Value, path: &mut Path, out: &mut BTreeSet<Path>) {
    match set.as_object() {
        Some(m) if !m.is_empty() => {
            for (k, c) in m {
                path.push(k.clone());
                paths_of(c, path, out);
                path.pop();
            }
        }
        _ => {
            out.insert(path.clone());
        }
    }
}

/// The `fieldsV1` tree of `paths`.
fn tree_of(paths: &BTreeSet<Path>) -> Value {
    let mut root = Map::new();
    for p in paths {
        let mut node = &mut root;
        for seg in p {
            let next = node.entry(seg.clone()).or_insert_with(|| json!({}));
            match next.as_object_mut() {
                Some(m) => node = m,
                None => break,
            }
        }
    }
    Value::Object(root)
}

/// One entry while it is being updated.
struct Entry {
    writer: Writer,
    api_version: Value,
    time: Value,
    paths: BTreeSet<Path>,
}

/// The writer of an in-process write (the scenario's, a controller's) of `part`: `status`
/// paths or the rest.
fn inferred(kind: KindId, obj: &Value, created: bool, status: bool) -> Writer {
    if status {
        let manager = if kind == id::POD {
            "kubelet"
        } else {
            "kube-controller-manager"
        };
        return Writer::new(manager, "Update", Some("status"));
    }
    let controlled = obj
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .is_some_and(|refs| refs.iter().any(|r| r["controller"] == json!(true)));
    if controlled {
        return Writer::new("kube-controller-manager", "Update", None);
    }
    if kind == id::NODE {
        return Writer::new("kubelet", "Update", None);
    }
    if !created {
        return Writer::new("demo-scenario", "Update", None);
    }
    let name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if super::pods::fxhash(name).is_multiple_of(2) {
        Writer::new("kubectl", "Apply", None)
    } else {
        Writer::new("kubectl-client-side-apply", "Update", None)
    }
}

/// Sets `obj.metadata.managedFields` for its write over `prev` (`None`: a create) at `now`
/// (RFC 3339), by the writer [`as_writer`] set, else as inferred.
pub fn stamp(kind: KindId, prev: Option<&Value>, obj: &mut Value, now: &str) {
    let ns = obj
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    if kind == id::EVENT || (kind == id::POD && ns.starts_with("load-")) {
        return;
    }
    let explicit = WRITER.with(|w| w.borrow().clone());
    let mut entries: Vec<Entry> = prev
        .and_then(|p| p.pointer("/metadata/managedFields"))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|e| {
                    let operation = match e["operation"].as_str()? {
                        "Apply" => "Apply",
                        _ => "Update",
                    };
                    let mut paths = BTreeSet::new();
                    paths_of(&e["fieldsV1"], &mut Vec::new(), &mut paths);
                    Some(Entry {
                        writer: Writer::new(e["manager"].as_str()?, operation, e["subresource"].as_str()),
                        api_version: e["apiVersion"].clone(),
                        time: e["time"].clone(),
                        paths,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let old = prev.map(leaves_of).unwrap_or_default();
    let changed: Vec<(Path, bool)> = {
        let new = leaves_of(obj);
        let mut out: Vec<(Path, bool)> = new
            .iter()
            .filter(|(p, v)| old.get(*p) != Some(*v))
            .map(|(p, _)| (p.clone(), true))
            .collect();
        out.extend(
            old.keys()
                .filter(|p| !new.contains_key(*p))
                .map(|p| (p.clone(), false)),
        );
        out
    };
    if changed.is_empty() && prev.is_some() {
        if let Some(mf) = prev.and_then(|p| p.pointer("/metadata/managedFields")).cloned() {
            obj["metadata"]["managedFields"] = mf;
        }
        return;
    }
    let api_version = obj.get("apiVersion").cloned().unwrap_or(Value::Null);
    for (path, present) in changed {
        for e in entries.iter_mut() {
            e.paths.remove(&path);
        }
        if !present {
            continue;
        }
        let status = path.first().is_some_and(|s| s == "f:status");
        let writer = explicit
            .clone()
            .unwrap_or_else(|| inferred(kind, obj, prev.is_none(), status));
        let at = match entries.iter().position(|e| e.writer == writer) {
            Some(i) => i,
            None => {
                entries.push(Entry {
                    writer,
                    api_version: api_version.clone(),
                    time: Value::Null,
                    paths: BTreeSet::new(),
                });
                entries.len() - 1
            }
        };
        let e = &mut entries[at];
        e.paths.insert(path);
        e.time = json!(now);
        e.api_version = api_version.clone();
    }
    let list: Vec<Value> = entries
        .into_iter()
        .filter(|e| !e.paths.is_empty())
        .map(|e| {
            let mut v = json!({"manager": e.writer.manager, "operation": e.writer.operation,
                "apiVersion": e.api_version, "time": e.time, "fieldsType": "FieldsV1",
                "fieldsV1": tree_of(&e.paths)});
            if let Some(s) = e.writer.subresource {
                v["subresource"] = json!(s);
            }
            v
        })
        .collect();
    if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        if list.is_empty() {
            m.remove("managedFields");
        } else {
            m.insert("managedFields".into(), Value::Array(list));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deploy(image: &str, replicas: u32, ready: u32) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop", "uid": "u", "resourceVersion": "5", "labels": {"app": "web"}},
            "spec": {"replicas": replicas, "template": {"spec": {"containers": [{"name": "web", "image": image}]}}},
            "status": {"readyReplicas": ready}})
    }

    fn managers(obj: &Value) -> Vec<(String, String, Option<String>)> {
        obj["metadata"]["managedFields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["manager"].as_str().unwrap().to_owned(),
                    e["operation"].as_str().unwrap().to_owned(),
                    e["subresource"].as_str().map(str::to_owned),
                )
            })
            .collect()
    }

    #[test]
    fn each_write_moves_what_it_changed_to_its_writer() {
        // Created by the scenario: spec by a kubectl manager, status by the controller.
        let mut v1 = deploy("web:1", 2, 0);
        stamp(id::DEPLOYMENT, None, &mut v1, "2026-01-01T00:00:00Z");
        let m = managers(&v1);
        assert_eq!(m.len(), 2, "{m:?}");
        assert!(m[0].0.starts_with("kubectl"), "{m:?}");
        assert_eq!(
            m[1],
            (
                "kube-controller-manager".into(),
                "Update".into(),
                Some("status".into())
            )
        );
        let spec = &v1["metadata"]["managedFields"][0]["fieldsV1"];
        assert_eq!(
            spec["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"web\"}"],
            json!({".": {}, "f:image": {}, "f:name": {}})
        );
        assert!(
            spec["f:metadata"].get("f:uid").is_none() && spec["f:metadata"]["f:labels"]["f:app"] == json!({})
        );
        // A client scales through the scale subresource: it takes spec.replicas only.
        let mut v2 = deploy("web:1", 5, 0);
        v2["metadata"]["managedFields"] = v1["metadata"]["managedFields"].clone();
        let w = of_request(
            &http::Method::PATCH,
            "fieldManager=ktui",
            Some("ktui/0.1"),
            "application/merge-patch+json",
            Some("scale"),
        );
        as_writer(w, || {
            stamp(id::DEPLOYMENT, Some(&v1), &mut v2, "2026-01-01T00:01:00Z")
        });
        let m = managers(&v2);
        assert_eq!(m[2], ("ktui".into(), "Update".into(), Some("scale".into())));
        let fields = |i: usize| v2["metadata"]["managedFields"][i]["fieldsV1"].clone();
        assert_eq!(fields(2), json!({"f:spec": {"f:replicas": {}}}));
        assert!(
            fields(0)["f:spec"].get("f:replicas").is_none(),
            "moved away from the first manager"
        );
        assert_eq!(
            v2["metadata"]["managedFields"][0]["time"], "2026-01-01T00:00:00Z",
            "untouched entries keep their time"
        );
        // The scenario changes the image later: its own manager; nothing changed keeps all as it was.
        let mut v3 = deploy("web:2", 5, 0);
        stamp(id::DEPLOYMENT, Some(&v2), &mut v3, "2026-01-01T00:02:00Z");
        assert_eq!(managers(&v3)[3].0, "demo-scenario");
        let mut same = v3.clone();
        stamp(id::DEPLOYMENT, Some(&v3), &mut same, "2026-01-01T00:03:00Z");
        assert_eq!(same["metadata"]["managedFields"], v3["metadata"]["managedFields"]);
    }

    #[test]
    fn the_request_names_the_writer_and_load_pods_carry_none() {
        let w = of_request(
            &http::Method::PUT,
            "",
            Some("kubectl/v1.34.0 (linux/amd64)"),
            "application/json",
            None,
        )
        .unwrap();
        assert_eq!(w, Writer::new("kubectl", "Update", None));
        assert!(of_request(&http::Method::GET, "", None, "", None).is_none());
        assert_eq!(
            of_request(&http::Method::POST, "", None, "", None)
                .unwrap()
                .manager,
            "unknown"
        );
        let mut pod = json!({"metadata": {"name": "p", "namespace": "load-01"}, "spec": {}});
        stamp(id::POD, None, &mut pod, "now");
        assert!(pod["metadata"].get("managedFields").is_none());
        let mut owned = json!({"metadata": {"name": "p", "namespace": "shop",
            "ownerReferences": [{"kind": "ReplicaSet", "controller": true}]}, "spec": {"nodeName": "n"}, "status": {"phase": "Running"}});
        stamp(id::POD, None, &mut owned, "now");
        let m = managers(&owned);
        assert_eq!(m[0].0, "kube-controller-manager");
        assert_eq!(m[1], ("kubelet".into(), "Update".into(), Some("status".into())));
    }
}
