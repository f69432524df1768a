//! Conditional writes of the store, the way the API server's registry uses etcd: an update
//! computed from the stored object under the kind's lock (so it can never lose a concurrent
//! write), a no-op update that writes nothing (no new revision, as the real server), and a
//! delete guarded by a check of the stored object. Must not know HTTP or API semantics beyond
//! "unchanged means no write".

use serde_json::Value;

use super::{key_of, Store, StoreError, Stored};
use crate::kinds::KindId;

impl Store {
    /// Reads the stored object, lets `f` change it (or refuse with its own error) and writes
    /// the result under the kind's lock. When `f` leaves the object as it was (ignoring
    /// `metadata.resourceVersion`) nothing is written and the stored version is returned,
    /// like the API server's no-op update. `NotFound` when absent.
    pub fn update<E: From<StoreError>>(
        &self,
        kind: KindId,
        ns: &str,
        name: &str,
        f: impl FnOnce(&Stored, &mut Value) -> Result<(), E>,
    ) -> Result<Stored, E> {
        let key = key_of(ns, name);
        let mut t = self.table(kind);
        let cur = t
            .objects
            .get(&key)
            .cloned()
            .ok_or_else(|| StoreError::NotFound(key.clone()))?;
        let old: Value =
            serde_json::from_slice(&cur.bytes).map_err(|e| StoreError::Invalid(e.to_string()))?;
        let mut new = old.clone();
        f(&cur, &mut new)?;
        let rv = |v: &Value| v["metadata"]["resourceVersion"].clone();
        let mut unchanged = new.clone();
        unchanged["metadata"]["resourceVersion"] = rv(&old);
        if unchanged == old {
            return Ok(cur);
        }
        if new["metadata"]["name"] != old["metadata"]["name"]
            || new["metadata"]["namespace"] != old["metadata"]["namespace"]
        {
            return Err(
                StoreError::Invalid("metadata.name and metadata.namespace are immutable".into()).into(),
            );
        }
        Ok(self.write_locked(&mut t, kind, new, Some(true))?)
    }

    /// Deletes the object if `check` accepts its stored version (preconditions, "still no
    /// finalizers"); `NotFound` when absent.
    pub fn delete_if<E: From<StoreError>>(
        &self,
        kind: KindId,
        ns: &str,
        name: &str,
        check: impl FnOnce(&Stored, &Value) -> Result<(), E>,
    ) -> Result<Stored, E> {
        let key = key_of(ns, name);
        let mut t = self.table(kind);
        let cur = t
            .objects
            .get(&key)
            .ok_or_else(|| StoreError::NotFound(key.clone()))?;
        let v: Value = serde_json::from_slice(&cur.bytes).map_err(|e| StoreError::Invalid(e.to_string()))?;
        check(cur, &v)?;
        Ok(self.delete_locked(&mut t, &key)?)
    }
}
