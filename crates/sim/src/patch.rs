//! The three patch formats the demo API server applies to stored JSON: JSON merge patch
//! (RFC 7386, `application/merge-patch+json`), strategic merge patch
//! (`application/strategic-merge-patch+json`: lists with a merge key merge item by item, the
//! `$patch`, `$setElementOrder`, `$retainKeys` and `$deleteFromPrimitiveList` directives kubectl
//! emits) and JSON patch (RFC 6902, `application/json-patch+json`). Pure functions on
//! `serde_json::Value`; must not know the store or HTTP.
//!
//! Strategic merge keys come from the field's name, as the Go types' `patchMergeKey` tags set
//! them for the built-in kinds (`containers` by `name`, `env` by `name`, container `ports` by
//! `containerPort` and Service `ports` by `port`, `volumeMounts` by `mountPath`, `conditions` by
//! `type`, `ownerReferences` by `uid`, …); `finalizers` merge as a set. Other lists are
//! replaced, as the real server does for lists without a strategy. Custom resources get merge
//! patches only (the real server refuses strategic merge for them with 415).

use serde_json::{Map, Value};

/// RFC 7386: objects merge recursively, `null` removes a key, anything else replaces.
pub fn merge(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(t) = target else { return };
    for (k, v) in p {
        if v.is_null() {
            t.remove(k);
        } else {
            merge(t.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

/// The merge key of a list field, if it merges item by item; `Some("")` = a set of scalars.
fn merge_key(field: &str, items: &[Value]) -> Option<&'static str> {
    Some(match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "imagePullSecrets"
        | "resourceClaims" => "name",
        "volumeMounts" => "mountPath",
        "volumeDevices" => "devicePath",
        "conditions" => "type",
        "ownerReferences" => "uid",
        "hostAliases" => "ip",
        "topologySpreadConstraints" => "topologyKey",
        "ports" => {
            if items.iter().any(|i| i.get("containerPort").is_some()) {
                "containerPort"
            } else {
                "port"
            }
        }
        "finalizers" => "",
        _ => return None,
    })
}

/// Applies a strategic merge patch; errors are the API's messages for malformed directives.
pub fn strategic(target: &mut Value, patch: &Value) -> Result<(), String> {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return Ok(());
    };
    if p.get("$patch").and_then(Value::as_str) == Some("replace") {
        let mut p = p.clone();
        p.remove("$patch");
        *target = Value::Object(p);
        return Ok(());
    }
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(t) = target else {
        return Ok(());
    };
    for (k, v) in p {
        if k == "$patch" || k == "$retainKeys" || k.starts_with("$setElementOrder/") {
            continue;
        }
        if let Some(field) = k.strip_prefix("$deleteFromPrimitiveList/") {
            let gone = v.as_array().cloned().unwrap_or_default();
            if let Some(Value::Array(list)) = t.get_mut(field) {
                list.retain(|x| !gone.contains(x));
            }
            continue;
        }
        if v.is_null() {
            t.remove(k);
            continue;
        }
        match (t.get_mut(k), v) {
            (Some(Value::Array(cur)), Value::Array(items)) => match merge_key(k, items) {
                Some("") => {
                    for i in items {
                        if !cur.contains(i) {
                            cur.push(i.clone());
                        }
                    }
                }
                Some(key) => merge_list(cur, items, key)?,
                None => *cur = items.clone(),
            },
            (Some(cur @ Value::Object(_)), Value::Object(_)) => strategic(cur, v)?,
            _ => {
                let mut fresh = v.clone();
                strip_directives(&mut fresh);
                t.insert(k.clone(), fresh);
            }
        }
    }
    Ok(())
}

fn merge_list(cur: &mut Vec<Value>, items: &[Value], key: &str) -> Result<(), String> {
    for item in items {
        let Some(id) = item.get(key) else {
            return Err(format!("map: {item} does not contain declared merge key: {key}"));
        };
        let at = cur.iter().position(|c| c.get(key) == Some(id));
        let directive = item.get("$patch").and_then(Value::as_str);
        match (at, directive) {
            (Some(i), Some("delete")) => {
                cur.remove(i);
            }
            (None, Some("delete")) => {}
            (Some(i), Some("replace")) => {
                let mut fresh = item.clone();
                strip_directives(&mut fresh);
                cur[i] = fresh;
            }
            (Some(i), _) => strategic(&mut cur[i], item)?,
            (None, _) => {
                let mut fresh = item.clone();
                strip_directives(&mut fresh);
                cur.push(fresh);
            }
        }
    }
    Ok(())
}

/// Removes `$…` directive keys (and null members) from a value that is inserted whole.
fn strip_directives(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, v| !k.starts_with('$') && !v.is_null());
            m.values_mut().for_each(strip_directives);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_directives),
        _ => {}
    }
}

/// RFC 6902: the operations in order; the first failure leaves `target` untouched and is
/// worded like the API's (evanphx/json-patch) messages.
pub fn json_patch(target: &mut Value, ops: &Value) -> Result<(), String> {
    let Some(ops) = ops.as_array() else {
        return Err("json: cannot unmarshal object into Go value of type jsonpatch.Patch".into());
    };
    let mut doc = target.clone();
    for op in ops {
        let name = op["op"].as_str().unwrap_or("");
        let path = op["path"].as_str().ok_or("missing path")?;
        match name {
            "add" => add(&mut doc, path, value_of(op)?)?,
            "remove" => {
                remove(&mut doc, path).map_err(|_| {
                    format!("remove operation does not apply: doc is missing path: \"{path}\"")
                })?;
            }
            "replace" => {
                let slot = doc.pointer_mut(&pointer(path)).ok_or_else(|| {
                    format!("replace operation does not apply: doc is missing key: {path}: missing value")
                })?;
                *slot = value_of(op)?;
            }
            "move" | "copy" => {
                let from = op["from"].as_str().ok_or("missing from")?;
                let v = doc.pointer(&pointer(from)).cloned().ok_or_else(|| {
                    format!(
                        "{name} operation does not apply: doc is missing from path: {from}: missing value"
                    )
                })?;
                if name == "move" {
                    remove(&mut doc, from)?;
                }
                add(&mut doc, path, v)?;
            }
            "test" => {
                let want = value_of(op)?;
                if doc.pointer(&pointer(path)) != Some(&want) {
                    return Err(format!("testing value {path} failed: test failed"));
                }
            }
            other => return Err(format!("Unexpected kind: {other}")),
        }
    }
    *target = doc;
    Ok(())
}

fn value_of(op: &Value) -> Result<Value, String> {
    op.get("value").cloned().ok_or_else(|| "missing value".to_owned())
}

/// A JSON pointer as serde_json reads it (already RFC 6901, `~1` and `~0` escapes included).
fn pointer(path: &str) -> String {
    path.to_owned()
}

fn unescape(s: &str) -> String {
    s.replace("~1", "/").replace("~0", "~")
}

fn split(path: &str) -> Result<(&str, String), String> {
    let i = path.rfind('/').ok_or_else(|| format!("invalid path {path:?}"))?;
    Ok((&path[..i], unescape(&path[i + 1..])))
}

fn add(doc: &mut Value, path: &str, v: Value) -> Result<(), String> {
    if path.is_empty() {
        *doc = v;
        return Ok(());
    }
    let (parent, last) = split(path)?;
    let missing = || format!("add operation does not apply: doc is missing path: \"{path}\": missing value");
    match doc.pointer_mut(parent).ok_or_else(missing)? {
        Value::Object(m) => {
            m.insert(last, v);
        }
        Value::Array(a) if last == "-" => a.push(v),
        Value::Array(a) => {
            let i: usize = last.parse().map_err(|_| missing())?;
            if i > a.len() {
                return Err(format!("add operation does not apply: index out of bounds: {i}"));
            }
            a.insert(i, v);
        }
        _ => return Err(missing()),
    }
    Ok(())
}

fn remove(doc: &mut Value, path: &str) -> Result<(), String> {
    let (parent, last) = split(path)?;
    let missing = || format!("remove operation does not apply: doc is missing path: \"{path}\"");
    match doc.pointer_mut(parent).ok_or_else(missing)? {
        Value::Object(m) => m.remove(&last).map(|_| ()).ok_or_else(missing),
        Value::Array(a) => {
            let i: usize = last.parse().map_err(|_| missing())?;
            if i >= a.len() {
                return Err(missing());
            }
            a.remove(i);
            Ok(())
        }
        _ => Err(missing()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_patch_replaces_and_removes() {
        let mut v = json!({"a": {"b": 1, "c": [1, 2]}, "d": 1});
        merge(&mut v, &json!({"a": {"b": null, "c": [3]}, "e": "x"}));
        assert_eq!(v, json!({"a": {"c": [3]}, "d": 1, "e": "x"}));
    }

    #[test]
    fn strategic_merges_containers_by_name_and_keeps_the_rest() {
        let mut v = json!({"spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "web", "image": "web:1", "ports": [{"containerPort": 80}]},
                                    {"name": "side", "image": "side:1"}]}}}});
        let p = json!({"spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "now"}},
            "spec": {"$setElementOrder/containers": [{"name": "web"}, {"name": "side"}],
                     "containers": [{"name": "web", "image": "web:2"}, {"name": "side", "$patch": "delete"}]}}}});
        strategic(&mut v, &p).unwrap();
        let c = &v["spec"]["template"]["spec"]["containers"];
        assert_eq!(c.as_array().unwrap().len(), 1);
        assert_eq!(
            c[0],
            json!({"name": "web", "image": "web:2", "ports": [{"containerPort": 80}]})
        );
        assert_eq!(
            v["spec"]["template"]["metadata"]["annotations"]["kubectl.kubernetes.io/restartedAt"],
            "now"
        );
        assert_eq!(v["spec"]["replicas"], 3);
        let mut n = json!({"spec": {"unschedulable": true, "taints": [{"key": "a"}]}, "metadata": {"finalizers": ["x"]}});
        strategic(
            &mut n,
            &json!({"spec": {"unschedulable": null, "taints": [{"key": "b"}]},
            "metadata": {"finalizers": ["y"], "$deleteFromPrimitiveList/finalizers": ["x"]}}),
        )
        .unwrap();
        assert_eq!(
            n,
            json!({"spec": {"taints": [{"key": "b"}]}, "metadata": {"finalizers": ["y"]}})
        );
        assert!(strategic(
            &mut v,
            &json!({"spec": {"template": {"spec": {"containers": [{"image": "x"}]}}}})
        )
        .is_err());
    }

    #[test]
    fn json_patch_is_all_or_nothing() {
        let mut v = json!({"metadata": {"labels": {"a/b": "1"}}, "spec": {"list": [1, 2]}});
        json_patch(
            &mut v,
            &json!([{"op": "replace", "path": "/metadata/labels/a~1b", "value": "2"},
            {"op": "add", "path": "/spec/list/-", "value": 3}, {"op": "remove", "path": "/spec/list/0"},
            {"op": "test", "path": "/spec/list", "value": [2, 3]}]),
        )
        .unwrap();
        assert_eq!(
            v,
            json!({"metadata": {"labels": {"a/b": "2"}}, "spec": {"list": [2, 3]}})
        );
        let before = v.clone();
        let e = json_patch(
            &mut v,
            &json!([{"op": "add", "path": "/spec/x", "value": 1},
            {"op": "replace", "path": "/nope/x", "value": 1}]),
        )
        .unwrap_err();
        assert!(e.contains("replace operation does not apply"), "{e}");
        assert_eq!(v, before);
    }
}
