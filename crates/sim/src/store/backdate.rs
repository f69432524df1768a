//! Backdated creation times for the demo's setup (see [`Store::set_creation_age`]): a new
//! object's age, never older than its namespace, any owner it names or the CRD defining its
//! kind, as no object on a real cluster predates those. Reads other tables before the
//! writer locks its own; must not write.

use std::sync::atomic::Ordering;

use serde_json::Value;

use super::{ago_rfc3339, key_of, Store};
use crate::kinds::{id, KindId, KINDS};

impl Store {
    /// Stamps `metadata.creationTimestamp` on `obj` (of `kind`) when the store backdates, the
    /// object carries none and is new: the creation age plus up to 10 % jitter
    /// (deterministic per name, so a backdated group does not share one second), then at
    /// least a second younger than the youngest of its namespace, owners
    /// (`metadata.ownerReferences`, matched by uid) and defining CRD.
    pub(super) fn backdate(&self, kind: KindId, obj: &mut Value) {
        let age = self.creation_age.load(Ordering::Relaxed);
        let m = &obj["metadata"];
        if age == 0 || !m["creationTimestamp"].is_null() {
            return;
        }
        let ns = m["namespace"].as_str().unwrap_or("");
        let name = m["name"].as_str().unwrap_or("");
        if self.get(kind, ns, name).is_some() {
            return;
        }
        let key = key_of(ns, name);
        let mut ago = age + crate::pods::fxhash(&key) % (age / 10 + 1);
        let mut elders = Vec::new();
        if !ns.is_empty() {
            elders.push(self.created(id::NAMESPACE, "", ns, None));
        }
        for o in m["ownerReferences"].as_array().into_iter().flatten() {
            let api = o["apiVersion"].as_str().unwrap_or("");
            let of = KINDS
                .iter()
                .position(|k| k.info.kind == o["kind"].as_str().unwrap_or("") && k.api_version() == api);
            if let Some(k) = of {
                let owner_ns = if KINDS[k].info.namespaced { ns } else { "" };
                let name = o["name"].as_str().unwrap_or("");
                elders.push(self.created(k, owner_ns, name, o["uid"].as_str()));
            }
        }
        let info = &KINDS[kind].info;
        if !info.group.is_empty() {
            let crd = format!("{}.{}", info.plural, info.group);
            elders.push(self.created(id::CRD, "", &crd, None));
        }
        let now = jiff::Timestamp::now().as_second();
        for created in elders.into_iter().flatten() {
            let theirs = u64::try_from(now - created).unwrap_or(0);
            ago = ago.min(theirs.saturating_sub(1));
        }
        obj["metadata"]["creationTimestamp"] = Value::String(ago_rfc3339(ago));
    }

    /// `metadata.creationTimestamp` (Unix seconds) of a stored object, if it exists (and has
    /// uid `uid`, when given).
    fn created(&self, kind: KindId, ns: &str, name: &str, uid: Option<&str>) -> Option<i64> {
        let s = self.get(kind, ns, name)?;
        let v: Value = serde_json::from_slice(&s.bytes).ok()?;
        let m = &v["metadata"];
        if uid.is_some_and(|u| m["uid"].as_str() != Some(u)) {
            return None;
        }
        let t = m["creationTimestamp"].as_str()?.parse::<jiff::Timestamp>().ok()?;
        Some(t.as_second())
    }
}
