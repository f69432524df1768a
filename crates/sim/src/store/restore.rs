//! Backup and restore of the whole store, like an etcd snapshot taken with `etcdctl snapshot
//! save` and restored without `--bump-revision`: the revision goes back to the snapshot's, the
//! objects are the snapshot's, the watch history is gone (the API server restarts and rebuilds
//! its watch cache from the restored etcd) and every open watch is cut. Must not touch HTTP.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;

use tokio::sync::broadcast;

use super::{Store, Stored};

/// The store's objects of every kind at one revision (see [`Store::backup`]).
#[derive(Debug, Clone)]
pub struct Backup {
    /// The cluster-wide revision when it was taken.
    pub revision: u64,
    objects: Vec<BTreeMap<String, Stored>>,
}

impl Store {
    /// A copy of every object at the current revision (object bytes are shared, not copied).
    pub fn backup(&self) -> Backup {
        // Each kind is read under its own lock; writers are not stopped, so a backup taken
        // during writes may hold a change of one kind and not an earlier one of another. Take
        // it with the scenario paused for a consistent one (as etcd's snapshot is).
        let revision = self.revision();
        let objects = (0..self.tables.len())
            .map(|kind| self.table(kind).objects.clone())
            .collect();
        Backup { revision, objects }
    }

    /// Restores `backup`: the objects and the revision become the backup's, each kind's watch
    /// history is dropped (a watch or a continue token from before now gets 410, a watch from
    /// a revision the restored store has not reached waits for it, as kube-apiserver's watch
    /// cache does) and every open watch ends as a cut connection (its receiver is closed).
    pub fn restore(&self, backup: &Backup) {
        // Every kind's lock at once (in kind order, the only place taking more than one), so
        // no request sees the old revision with restored objects or the other way round.
        let mut tables: Vec<_> = (0..self.tables.len()).map(|kind| self.table(kind)).collect();
        self.revision.store(backup.revision, Ordering::SeqCst);
        for (t, objects) in tables.iter_mut().zip(&backup.objects) {
            t.objects = objects.clone();
            t.log.clear();
            t.oldest = backup.revision;
            t.compacted = backup.revision;
            // Dropping the old sender closes every receiver: open watches end.
            let (tx, _) = broadcast::channel(self.config.watch_buffer.max(16));
            t.tx = tx;
        }
    }
}
