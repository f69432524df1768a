//! What a complete (re)list tells the history besides each object's revision: the objects
//! it no longer lists were deleted while ktui was not watching (a watch gap, a reconnect
//! after a 410, a context switched away and back). Owns that rule; must not decide scope
//! (the informer's sink says which namespace its list covered).

use std::collections::HashSet;

use super::{History, ObjId, UnixSecs};

impl History {
    /// A complete list of `resource` in `namespace` (`None`: every namespace, or a
    /// cluster-scoped kind) without selectors found the objects `seen` (their ids) at `now`:
    /// every other object of it recorded and not yet deleted is marked deleted at `now`,
    /// unseen. Returns how many were.
    pub fn relisted(
        &self,
        resource: &str,
        namespace: Option<&str>,
        seen: &HashSet<ObjId>,
        now: UnixSecs,
    ) -> usize {
        let mut g = self.lock();
        let mut n = 0;
        for (id, h) in g.objects.iter_mut() {
            let in_scope =
                &*id.resource == resource && namespace.is_none_or(|ns| id.namespace.as_deref() == Some(ns));
            if in_scope && h.deleted.is_none() && !seen.contains(id) {
                h.deleted = Some(now);
                h.deleted_unseen = true;
                n += 1;
            }
        }
        n
    }
}
