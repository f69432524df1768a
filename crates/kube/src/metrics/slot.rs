//! [`MetricsSlot`]: where one metrics poll task publishes, swapped whole so that readers
//! never wait, with one payload-free notification per burst of publications. Owns the
//! publication; must not decide what is published.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use arc_swap::ArcSwap;
use tokio::sync::mpsc::UnboundedSender;

use super::{MetricsChanged, MetricsSnapshot};

/// One poll task's current [`MetricsSnapshot`]. Readers call [`MetricsSlot::load`]: one
/// atomic load and an `Arc` clone, no lock shared with the poll task.
#[derive(Debug)]
pub struct MetricsSlot {
    current: ArcSwap<MetricsSnapshot>,
    /// Set while a notification is in flight and nobody loaded since: collapses duplicates.
    notified: AtomicBool,
}

impl MetricsSlot {
    /// A slot holding `snapshot`.
    pub fn new(snapshot: MetricsSnapshot) -> Arc<MetricsSlot> {
        Arc::new(MetricsSlot {
            current: ArcSwap::from_pointee(snapshot),
            notified: AtomicBool::new(false),
        })
    }

    /// The latest snapshot. Re-arms the change notification for this slot.
    pub fn load(&self) -> Arc<MetricsSnapshot> {
        self.notified.store(false, Ordering::Release);
        self.current.load_full()
    }

    /// The latest snapshot without re-arming notifications (for `:informers` and tests).
    pub fn peek(&self) -> Arc<MetricsSnapshot> {
        self.current.load_full()
    }

    /// Replaces the snapshot and sends one [`MetricsChanged`] on `notify` unless one is
    /// already waiting to be read. Returns the snapshot replaced: the poll task holds it a
    /// moment (`poll::RETIRE_AFTER`) so that it, not the render loop, frees it (150,000
    /// series a poll at 150k pods, ~40 ms of frees that would otherwise land on a frame).
    pub(super) fn publish(
        &self,
        snapshot: MetricsSnapshot,
        notify: &UnboundedSender<MetricsChanged>,
    ) -> Arc<MetricsSnapshot> {
        let key = snapshot.key.clone();
        let old = self.current.swap(Arc::new(snapshot));
        if !self.notified.swap(true, Ordering::AcqRel) {
            // A closed receiver means the UI is gone; nothing to tell.
            let _ = notify.send(MetricsChanged { key });
        }
        old
    }
}
