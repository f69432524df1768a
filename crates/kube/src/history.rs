//! Per-object revision history, recorded from the watch streams ktui already receives: what
//! is recorded (every watched kind, except high-churn kinds, which only a detail view's
//! watch records), the store with its budget ([`record`]), reverse patches ([`patch`]),
//! managedFields ownership ([`managed`]), the informer hook ([`capture`]) and the cluster's
//! own rollout history of workloads ([`rollout`], [`rollout_watch`]). Must not know
//! the UI nor how a diff reads (`ktui_detail::diff`).

pub mod body;
pub mod capture;
pub mod managed;
pub mod patch;
pub mod raw;
pub mod rawdiff;
pub mod record;
#[cfg(test)]
mod record_tests;
pub mod rollout;
pub mod rollout_watch;
pub mod tape;

pub use record::{History, HistoryConfig, HistoryStats, ObjId, ObjectRecord, Revision, RevisionView, Via};

use super::kind::Kind;

/// Kinds whose revisions are mostly status noise and too many to keep for every object:
/// recorded only while a detail (or history) view of the object is open, by its own watch.
pub const HIGH_CHURN: [&str; 5] = [
    "pods",
    "events",
    "endpoints",
    "endpointslices.discovery.k8s.io",
    "leases.coordination.k8s.io",
];

/// Whether the list informers of `kind` record every object's revisions (false for the
/// high-churn kinds, and for `events.events.k8s.io`, which is events again).
pub fn recorded_by_lists(kind: &Kind) -> bool {
    let name = kind.full_name();
    !HIGH_CHURN.contains(&name.as_str()) && name != "events.events.k8s.io"
}
