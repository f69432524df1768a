//! The structural diff a user reads between two revisions of one object: maps compared by
//! key, lists of named items (containers, ports, env, volumes, mounts, conditions) matched by
//! their identity field (`name`, `type`, …) rather than by position, scalars inline; the
//! heartbeat fields that change on every status write (`lastHeartbeatTime`, `renewTime`,
//! `lastProbeTime`) are marked as noise. [`text`] turns changes into one-line summaries and
//! diff lines. Pure; must not do I/O nor know the terminal.

#[cfg(test)]
mod tests;
pub mod text;

use serde_json::Value;

/// One step of a change's path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    /// A map key.
    Key(String),
    /// A list item matched by its identity field (`containers[web]` is `field: "name"`,
    /// `value: "web"`).
    Item {
        /// The identity field (`name`, `type`, `key`, `mountPath`, `containerPort`, …).
        field: &'static str,
        /// Its value, as text.
        value: String,
    },
    /// A list item matched by position (lists without an identity field).
    Index(usize),
}

/// One difference: a value added (`old: None`), removed (`new: None`) or changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Where, from the object's root.
    pub path: Vec<Seg>,
    /// The value before.
    pub old: Option<Value>,
    /// The value after.
    pub new: Option<Value>,
}

impl Change {
    /// Whether this is a heartbeat (a status timestamp refreshed on every write), hidden
    /// unless asked.
    pub fn is_noise(&self) -> bool {
        matches!(self.path.last(), Some(Seg::Key(k)) if NOISE.contains(&k.as_str()))
    }
}

/// Fields whose changes are heartbeats.
pub const NOISE: [&str; 4] = [
    "lastHeartbeatTime",
    "renewTime",
    "lastProbeTime",
    "resourceVersion",
];

/// The fields that identify items of a list, tried in order: the first one that every item
/// on both sides has (as a scalar), unique on each side, matches the items.
const IDENTITY: [&str; 9] = [
    "name",
    "type",
    "key",
    "mountPath",
    "devicePath",
    "containerPort",
    "port",
    "ip",
    "topologyKey",
];

/// The changes from `old` to `new`, in document order (the new object's keys first, then
/// removed keys).
pub fn diff(old: &Value, new: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    walk(old, new, &mut Vec::new(), &mut out);
    out
}

fn walk(old: &Value, new: &Value, path: &mut Vec<Seg>, out: &mut Vec<Change>) {
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => {
            for (k, nv) in n {
                path.push(Seg::Key(k.clone()));
                match o.get(k) {
                    Some(ov) => walk(ov, nv, path, out),
                    None => push(out, path, None, Some(nv)),
                }
                path.pop();
            }
            for (k, ov) in o {
                if !n.contains_key(k) {
                    path.push(Seg::Key(k.clone()));
                    push(out, path, Some(ov), None);
                    path.pop();
                }
            }
        }
        (Value::Array(o), Value::Array(n)) => list(o, n, path, out),
        _ if old == new => {}
        _ => push(out, path, Some(old), Some(new)),
    }
}

fn push(out: &mut Vec<Change>, path: &[Seg], old: Option<&Value>, new: Option<&Value>) {
    out.push(Change {
        path: path.to_vec(),
        old: old.cloned(),
        new: new.cloned(),
    });
}

fn list(o: &[Value], n: &[Value], path: &mut Vec<Seg>, out: &mut Vec<Change>) {
    if o == n {
        return;
    }
    if let Some(field) = identity(o, n) {
        let key = |v: &Value| scalar_text(&v[field]);
        for nv in n {
            let k = key(nv);
            path.push(Seg::Item {
                field,
                value: k.clone(),
            });
            match o.iter().find(|ov| key(ov) == k) {
                Some(ov) => walk(ov, nv, path, out),
                None => push(out, path, None, Some(nv)),
            }
            path.pop();
        }
        for ov in o {
            let k = key(ov);
            if !n.iter().any(|nv| key(nv) == k) {
                path.push(Seg::Item { field, value: k });
                push(out, path, Some(ov), None);
                path.pop();
            }
        }
        return;
    }
    let objects = o.iter().chain(n).all(Value::is_object);
    if objects && o.len() == n.len() {
        for (i, (ov, nv)) in o.iter().zip(n).enumerate() {
            path.push(Seg::Index(i));
            walk(ov, nv, path, out);
            path.pop();
        }
        return;
    }
    out.push(Change {
        path: path.clone(),
        old: Some(Value::Array(o.to_vec())),
        new: Some(Value::Array(n.to_vec())),
    });
}

/// The identity field shared by every item of `o` and `n`, unique on each side.
fn identity(o: &[Value], n: &[Value]) -> Option<&'static str> {
    if o.is_empty() && n.is_empty() {
        return None;
    }
    IDENTITY.into_iter().find(|f| {
        [o, n].iter().all(|side| {
            let mut seen = std::collections::HashSet::new();
            side.iter().all(|v| {
                v.get(*f)
                    .filter(|x| !x.is_object() && !x.is_array() && !x.is_null())
                    .is_some_and(|x| seen.insert(scalar_text(x)))
            })
        })
    })
}

/// A scalar as text: strings bare, everything else as JSON.
pub fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
