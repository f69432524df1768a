//! [`Publisher`]: the publication of one [`Slot`], shared by every writer shape (the row store,
//! the event timeline): coalescing, revision, sync state, resourceVersion and the change
//! notification. Must not hold rows between publications.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;
use tokio::time::Instant;

use super::{ResourceKey, Rows, Slot, Snapshot, StoreChanged, SyncState};

/// Least time between two publications of one slot while events stream in (the first
/// publication after a complete list is immediate).
pub const PUBLISH_INTERVAL: Duration = Duration::from_millis(100);

/// Publication of one slot: coalescing, revision, sync state and the change notification.
/// Shared by every writer shape (the row store here, the event timeline); owned by one
/// informer task.
#[derive(Debug)]
pub struct Publisher {
    key: ResourceKey,
    epoch: u64,
    slot: Arc<Slot>,
    notify: UnboundedSender<StoreChanged>,
    state: SyncState,
    listed: bool,
    resource_version: Option<String>,
    rev: u64,
    dirty: bool,
    last_publish: Option<Instant>,
    publications: u64,
}

impl Publisher {
    /// A publisher for `slot`, notifying `notify` after each publication.
    pub fn new(slot: Arc<Slot>, notify: UnboundedSender<StoreChanged>) -> Self {
        let snap = slot.peek();
        Publisher {
            key: snap.key.clone(),
            epoch: snap.epoch,
            slot,
            notify,
            state: SyncState::Pending,
            listed: false,
            resource_version: None,
            rev: snap.rev,
            dirty: false,
            last_publish: None,
            publications: 0,
        }
    }

    /// Replaces the slot's undecodable-objects line ([`Slot::unreadable`]); shown with the
    /// next publication.
    pub fn set_unreadable(&mut self, line: Option<String>) {
        self.slot.set_unreadable(line);
        self.dirty = true;
    }

    /// Marks a visible change pending.
    pub fn touch(&mut self) {
        self.dirty = true;
    }

    /// Records that a complete list was applied (empty may now be shown as empty).
    pub fn set_listed(&mut self) {
        self.listed = true;
        self.dirty = true;
    }

    /// Records the resourceVersion to resume from. Not a change of rows or state: it rides
    /// with the pending publication, or, when none is pending (a bookmark on a quiet watch),
    /// replaces the published snapshot's `resource_version` in place — same `rev`, same rows,
    /// no notification — so `:informers` reads it from the snapshot without views redrawing.
    pub fn set_resource_version(&mut self, rv: Option<String>) {
        if rv == self.resource_version {
            return;
        }
        self.resource_version = rv;
        if !self.dirty && self.publications > 0 {
            let current = self.slot.current.load_full();
            self.slot.current.store(Arc::new(Snapshot {
                resource_version: self.resource_version.clone(),
                ..(*current).clone()
            }));
        }
    }

    /// Changes the state; returns true when its *kind* changed (e.g. live → reconnecting),
    /// which the caller publishes at once so failures show without delay.
    pub fn set_state(&mut self, state: SyncState) -> bool {
        let kind_changed = std::mem::discriminant(&state) != std::mem::discriminant(&self.state);
        if state != self.state {
            self.state = state;
            self.dirty = true;
        }
        kind_changed
    }

    /// True once a complete list was applied.
    pub fn listed(&self) -> bool {
        self.listed
    }

    /// The state last set.
    pub fn state(&self) -> &SyncState {
        &self.state
    }

    /// Publications so far.
    pub fn publications(&self) -> u64 {
        self.publications
    }

    /// When the pending change must be published, if one is pending: the last publication
    /// plus [`PUBLISH_INTERVAL`].
    pub fn deadline(&self) -> Option<Instant> {
        if !self.dirty {
            return None;
        }
        Some(
            self.last_publish
                .map_or_else(Instant::now, |t| t + PUBLISH_INTERVAL),
        )
    }

    /// True when a change is pending and its deadline has passed.
    pub fn due(&self) -> bool {
        self.deadline().is_some_and(|d| Instant::now() >= d)
    }

    /// True when a change is pending.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Publishes `rows` (already in display order) with the current state, and notifies.
    pub fn publish(&mut self, rows: Rows) {
        self.dirty = false;
        self.rev += 1;
        self.publications += 1;
        self.last_publish = Some(Instant::now());
        let snap = Snapshot {
            key: self.key.clone(),
            epoch: self.epoch,
            rev: self.rev,
            rows,
            state: self.state.clone(),
            listed: self.listed,
            resource_version: self.resource_version.clone(),
        };
        self.slot.current.store(Arc::new(snap));
        self.slot.published.send_replace(self.rev);
        if !self.slot.notified.swap(true, Ordering::AcqRel) {
            // A closed receiver means the UI is gone; nothing to tell.
            let _ = self.notify.send(StoreChanged {
                key: self.key.clone(),
            });
        }
    }
}
