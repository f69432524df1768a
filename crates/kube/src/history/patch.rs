//! Reverse patches: the exact, positional difference that turns a newer revision of an object
//! back into the previous one, kept as compact JSON bytes. Owns computing and applying them;
//! must not interpret fields (the structural diff users read is `ktui_detail::diff`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One step of a path: a map key or an array index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Step {
    /// A key of a JSON object.
    Key(String),
    /// A position in a JSON array.
    Index(usize),
}

/// One operation of a reverse patch, applied to the newer revision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Op {
    /// Put this value at the path (the older revision had it; the newer changed or lacked it).
    #[serde(rename = "s")]
    Set(Vec<Step>, Value),
    /// Remove the map key at the path (the older revision did not have it).
    #[serde(rename = "r")]
    Remove(Vec<Step>),
}

/// The operations that turn `new` into `old`; empty when they are equal. Maps are compared
/// key by key, arrays of equal length position by position; an array whose length changed
/// is stored whole (its old value).
pub fn reverse(new: &Value, old: &Value) -> Vec<Op> {
    let mut ops = Vec::new();
    walk(new, old, &mut Vec::new(), &mut ops);
    ops
}

fn walk(new: &Value, old: &Value, path: &mut Vec<Step>, ops: &mut Vec<Op>) {
    match (new, old) {
        (Value::Object(n), Value::Object(o)) => {
            for (k, nv) in n {
                path.push(Step::Key(k.clone()));
                match o.get(k) {
                    Some(ov) => walk(nv, ov, path, ops),
                    None => ops.push(Op::Remove(path.clone())),
                }
                path.pop();
            }
            for (k, ov) in o {
                if !n.contains_key(k) {
                    path.push(Step::Key(k.clone()));
                    ops.push(Op::Set(path.clone(), ov.clone()));
                    path.pop();
                }
            }
        }
        (Value::Array(n), Value::Array(o)) if n.len() == o.len() => {
            for (i, (nv, ov)) in n.iter().zip(o).enumerate() {
                path.push(Step::Index(i));
                walk(nv, ov, path, ops);
                path.pop();
            }
        }
        _ if new == old => {}
        _ => ops.push(Op::Set(path.clone(), old.clone())),
    }
}

/// Applies `ops` to `v` in order. A path that does not fit `v` (it cannot happen for a patch
/// made by [`reverse`] from `v`) is skipped.
pub fn apply(v: &mut Value, ops: &[Op]) {
    for op in ops {
        match op {
            Op::Set(path, val) => {
                if path.is_empty() {
                    *v = val.clone();
                } else if let Some((last, parent)) = split(v, path) {
                    match (parent, last) {
                        (Value::Object(m), Step::Key(k)) => {
                            m.insert(k.clone(), val.clone());
                        }
                        (Value::Array(a), Step::Index(i)) if *i < a.len() => a[*i] = val.clone(),
                        _ => {}
                    }
                }
            }
            Op::Remove(path) => {
                if let Some((Step::Key(k), Value::Object(m))) = split(v, path) {
                    m.remove(k);
                }
            }
        }
    }
}

/// The parent of the path's target, and the last step.
fn split<'a>(v: &'a mut Value, path: &'a [Step]) -> Option<(&'a Step, &'a mut Value)> {
    let (last, init) = path.split_last()?;
    let mut cur = v;
    for step in init {
        cur = match (cur, step) {
            (Value::Object(m), Step::Key(k)) => m.get_mut(k)?,
            (Value::Array(a), Step::Index(i)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some((last, cur))
}

/// `ops` as compact JSON bytes (what a revision stores).
pub fn encode(ops: &[Op]) -> Box<[u8]> {
    serde_json::to_vec(ops).unwrap_or_default().into_boxed_slice()
}

/// The operations of [`encode`]d bytes; empty when they do not decode.
pub fn decode(bytes: &[u8]) -> Vec<Op> {
    serde_json::from_slice(bytes).unwrap_or_default()
}

/// The map keys a path walks through, for callers that want the changed fields' names.
pub fn keys(path: &[Step]) -> impl Iterator<Item = &str> {
    path.iter().filter_map(|s| match s {
        Step::Key(k) => Some(k.as_str()),
        Step::Index(_) => None,
    })
}

/// An empty JSON object (the body of an object nothing is known of).
pub fn empty() -> Value {
    Value::Object(Map::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn roundtrip(new: Value, old: Value) -> usize {
        let ops = reverse(&new, &old);
        let bytes = encode(&ops);
        let mut back = new.clone();
        apply(&mut back, &decode(&bytes));
        assert_eq!(back, old, "ops {ops:?}");
        ops.len()
    }

    #[test]
    fn reverse_patches_restore_the_older_revision_exactly() {
        assert_eq!(roundtrip(json!({"a": 1}), json!({"a": 1})), 0);
        assert_eq!(roundtrip(json!({"a": 2, "b": 1}), json!({"a": 1})), 2);
        assert_eq!(
            roundtrip(json!({"s": {"r": 5}}), json!({"s": {"r": 3, "x": [1]}})),
            2
        );
        // Same length: element-wise; another length: the old array whole.
        assert_eq!(
            roundtrip(
                json!({"c": [{"n": "a", "i": 2}, {"n": "b"}]}),
                json!({"c": [{"n": "a", "i": 1}, {"n": "b"}]})
            ),
            1
        );
        assert_eq!(roundtrip(json!({"c": [1, 2, 3]}), json!({"c": [1]})), 1);
        assert_eq!(roundtrip(json!([1]), json!("x")), 1);
        assert_eq!(roundtrip(json!({"k": null}), json!({"k": {"deep": true}})), 1);
    }

    #[test]
    fn a_patch_is_small_next_to_the_object() {
        let big: Vec<Value> = (0..100)
            .map(|i| json!({"name": format!("c{i}"), "image": "x:1"}))
            .collect();
        let new = json!({"spec": {"replicas": 5, "containers": big}});
        let mut old = new.clone();
        old["spec"]["replicas"] = json!(3);
        let bytes = encode(&reverse(&new, &old));
        assert!(bytes.len() < 40, "{}", String::from_utf8_lossy(&bytes));
    }
}
