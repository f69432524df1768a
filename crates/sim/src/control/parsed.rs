//! The controllers' parse memo: one list of a kind in a namespace, parsed, and carried to the
//! next pass for every object whose stored bytes did not change (an informer's cache, in
//! effect). Without it every tick re-parsed each namespace's pods and every node — at 5,000
//! nodes and their 5,000 daemonset pods, half a core of the demo server doing nothing. Owns the
//! memo; must not write to the store.

use std::collections::HashMap;

use bytes::Bytes;
use serde_json::Value;

use crate::kinds::KindId;
use crate::matching::Filter;
use crate::store::Store;

/// The parsed objects of one list, beside the stored bytes each was parsed from.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    bytes: Vec<Bytes>,
    values: Vec<Value>,
}

impl Parsed {
    /// Lists `kind` in `ns` (all with `None`) and returns the objects parsed, in the store's
    /// key order. An object whose stored bytes are the allocation parsed last time (the store
    /// replaces an object's bytes on every write, and the memo holds the old ones, so the same
    /// address means the same text) keeps its value; the rest are parsed. Objects that do not
    /// parse are left out, as [`super::objects`] does.
    pub(crate) fn refresh(&mut self, store: &Store, kind: KindId, ns: Option<&str>) -> &[Value] {
        let filter = Filter {
            namespace: ns.map(str::to_owned),
            ..Default::default()
        };
        let items = store.list(kind, &filter, 0, None, None).items;
        let at: HashMap<(*const u8, usize), usize> = self
            .bytes
            .iter()
            .enumerate()
            .map(|(i, b)| ((b.as_ptr(), b.len()), i))
            .collect();
        let mut old = std::mem::take(&mut self.values);
        let (mut bytes, mut values) = (Vec::with_capacity(items.len()), Vec::with_capacity(items.len()));
        for b in items {
            let value = match at.get(&(b.as_ptr(), b.len())) {
                Some(&i) if !b.is_empty() => std::mem::take(&mut old[i]),
                _ => match serde_json::from_slice(&b) {
                    Ok(v) => v,
                    Err(_) => continue,
                },
            };
            bytes.push(b);
            values.push(value);
        }
        (self.bytes, self.values) = (bytes, values);
        &self.values
    }
}

/// Memos by kind and namespace, for one controller pass after another.
#[derive(Debug, Default)]
pub(crate) struct Memo(HashMap<(KindId, Option<String>), Parsed>);

impl Memo {
    /// [`Parsed::refresh`] of the memo for `kind` in `ns`.
    pub(crate) fn list(&mut self, store: &Store, kind: KindId, ns: Option<&str>) -> &[Value] {
        self.0
            .entry((kind, ns.map(str::to_owned)))
            .or_default()
            .refresh(store, kind, ns)
    }

    /// Drops the memos of namespaces no longer in `namespaces` (cluster-wide ones stay).
    pub(crate) fn retain_namespaces(&mut self, namespaces: &[String]) {
        self.0
            .retain(|(_, ns), _| ns.as_ref().is_none_or(|n| namespaces.contains(n)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::id;
    use crate::store::{StoreConfig, StoreError};
    use serde_json::json;

    fn cm(name: &str, v: &str) -> Value {
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": "a"}, "data": {"k": v}})
    }

    /// Unchanged objects keep their parsed value; changed, new and deleted ones are seen.
    #[test]
    fn reuses_unchanged_and_sees_every_change() {
        let store = Store::new(StoreConfig::default());
        store.create(id::CONFIGMAP, cm("x", "1")).unwrap();
        store.create(id::CONFIGMAP, cm("y", "1")).unwrap();
        let mut m = Memo::default();
        let first: Vec<Value> = m.list(&store, id::CONFIGMAP, Some("a")).to_vec();
        assert_eq!(first.len(), 2);
        store
            .update(id::CONFIGMAP, "a", "y", |_, v| {
                v["data"]["k"] = json!("2");
                Ok::<(), StoreError>(())
            })
            .unwrap();
        store.create(id::CONFIGMAP, cm("z", "1")).unwrap();
        store.delete(id::CONFIGMAP, "a", "x").unwrap();
        let now = m.list(&store, id::CONFIGMAP, Some("a"));
        let data: Vec<(&str, &str)> = now
            .iter()
            .map(|v| {
                (
                    v["metadata"]["name"].as_str().unwrap(),
                    v["data"]["k"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(data, [("y", "2"), ("z", "1")]);
        // What the memo holds is what a fresh parse of the store gives.
        assert_eq!(
            now,
            super::super::objects(&store, id::CONFIGMAP, Some("a")).as_slice()
        );
    }
}
