//! String interning for the strings that repeat across many rows (namespaces, label keys and
//! values, node names). Owns only the pool; must not be used for unbounded unique strings
//! such as object names.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// A shared set of interned strings. Cloning shares the pool. Lookups take a short mutex;
/// only informer tasks intern, never the render loop.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    pool: Arc<Mutex<HashSet<Arc<str>>>>,
}

/// Past this many distinct strings the pool stops growing and hands out fresh `Arc`s, so a
/// cluster with unique label values per pod cannot grow it without bound.
const MAX_INTERNED: usize = 200_000;

impl Interner {
    /// Returns the pooled `Arc<str>` equal to `s`, inserting it if new.
    pub fn intern(&self, s: &str) -> Arc<str> {
        let mut pool = match self.pool.lock() {
            Ok(p) => p,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(hit) = pool.get(s) {
            return hit.clone();
        }
        let fresh: Arc<str> = Arc::from(s);
        if pool.len() < MAX_INTERNED {
            pool.insert(fresh.clone());
        }
        fresh
    }

    /// Number of pooled strings.
    pub fn len(&self) -> usize {
        self.pool.lock().map(|p| p.len()).unwrap_or(0)
    }

    /// True when nothing is pooled.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_string_shares_allocation() {
        let i = Interner::default();
        let a = i.intern("kube-system");
        let b = i.intern("kube-system");
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(i.len(), 1);
    }
}
