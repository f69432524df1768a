//! Interning for what repeats across many rows: strings (namespaces, label keys and values,
//! node names), whole label sets and resource capacities (the pods of one ReplicaSet share
//! theirs). Owns only the
//! pools; must not be used for unbounded unique strings such as object names.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use crate::capacity::Capacity;
use crate::uses::PodUses;

/// A shared set of interned strings. Cloning shares the pool. Lookups take a short mutex;
/// only informer tasks intern, never the render loop.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    pool: Arc<Mutex<HashSet<Arc<str>>>>,
    sets: Arc<Mutex<HashSet<LabelSet>>>,
    capacities: Arc<Mutex<HashSet<Arc<Capacity>>>>,
    uses: Arc<Mutex<HashSet<Arc<PodUses>>>>,
}

/// A label set as rows hold it: (key, value) pairs sorted by key (`metadata.labels`).
pub type LabelSet = Arc<[(Arc<str>, Arc<str>)]>;

/// Past this many distinct strings the pool stops growing and hands out fresh `Arc`s, so a
/// cluster with unique label values per pod cannot grow it without bound.
const MAX_INTERNED: usize = 200_000;

/// The same bound for label sets: past it, sets are handed out unshared.
const MAX_SETS: usize = 100_000;

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(p) => p,
        Err(poisoned) => poisoned.into_inner(),
    }
}

impl Interner {
    /// Returns the pooled `Arc<str>` equal to `s`, inserting it if new.
    pub fn intern(&self, s: &str) -> Arc<str> {
        let mut pool = locked(&self.pool);
        if let Some(hit) = pool.get(s) {
            return hit.clone();
        }
        let fresh: Arc<str> = Arc::from(s);
        if pool.len() < MAX_INTERNED {
            pool.insert(fresh.clone());
        }
        fresh
    }

    /// Returns the pooled label set equal to `pairs` (already sorted by key, pairs already
    /// interned), inserting it if new: 100k pods of 1,000 ReplicaSets hold 1,000 sets, not
    /// 100k (about 130 bytes per pod of three labels).
    pub fn intern_set(&self, pairs: Vec<(Arc<str>, Arc<str>)>) -> LabelSet {
        let mut sets = locked(&self.sets);
        if let Some(hit) = sets.get(&pairs[..]) {
            return hit.clone();
        }
        let fresh: LabelSet = pairs.into();
        if sets.len() < MAX_SETS {
            sets.insert(fresh.clone());
        }
        fresh
    }

    /// Returns the pooled capacity equal to `c`, inserting it if new: the pods of one
    /// ReplicaSet share one (`Row::capacity`), so 150,000 pods of a few thousand workloads
    /// hold a few thousand, not 150,000 (about 130 bytes per one-container pod). Bounded like
    /// label sets.
    pub fn intern_capacity(&self, c: Capacity) -> Arc<Capacity> {
        let mut pool = locked(&self.capacities);
        if let Some(hit) = pool.get(&c) {
            return hit.clone();
        }
        let fresh = Arc::new(c);
        if pool.len() < MAX_SETS {
            pool.insert(fresh.clone());
        }
        fresh
    }

    /// Returns the pooled [`PodUses`] equal to `u`, inserting it if new: the replicas of one
    /// workload reference the same ConfigMaps and Secrets and share one `Arc`
    /// (`Row::uses`). Bounded like label sets.
    pub fn intern_uses(&self, u: PodUses) -> Arc<PodUses> {
        let mut pool = locked(&self.uses);
        if let Some(hit) = pool.get(&u) {
            return hit.clone();
        }
        let fresh = Arc::new(u);
        if pool.len() < MAX_SETS {
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

    #[test]
    fn equal_label_sets_share_allocation_and_different_ones_do_not() {
        let i = Interner::default();
        let pair = |k: &str, v: &str| (i.intern(k), i.intern(v));
        let a = i.intern_set(vec![pair("app", "web"), pair("tier", "db")]);
        let b = i.intern_set(vec![pair("app", "web"), pair("tier", "db")]);
        let c = i.intern_set(vec![pair("app", "web"), pair("tier", "api")]);
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(&*c, &[pair("app", "web"), pair("tier", "api")][..]);
    }
}
