//! What views read: a list's rows ([`Source`]), a detail view's object ([`ObjectFeed`]).
//! The loop subscribes and watches (it keeps the `Subscription`s and `ObjectWatch`es by view
//! id) and hands the view only these read sides, so no view owns a network resource. Must
//! not subscribe, watch or release anything itself.

use std::sync::Arc;

use arc_swap::ArcSwap;

use crate::kube::key::ResourceKey;
use crate::kube::object::ObjectView;
use crate::kube::store::Slot;

/// The rows behind a list view (or a describe view's events): a slot to read snapshots
/// from. The subscription that keeps it filled belongs to the loop, not to the view.
pub struct Source {
    /// Where the serving informer publishes.
    pub slot: Arc<Slot>,
    /// The key of the informer actually serving the view.
    pub served_by: ResourceKey,
    /// Rows must be filtered to this namespace (an all-namespaces informer serves the view).
    pub filter_ns: Option<String>,
}

impl Source {
    /// What a pool subscription serves (the loop keeps the subscription itself).
    pub fn of(sub: &crate::kube::pool::Subscription) -> Source {
        Source {
            slot: sub.slot.clone(),
            served_by: sub.served_by.clone(),
            filter_ns: sub.filter_namespace().map(str::to_owned),
        }
    }

    /// A source reading a slot nobody fills through a pool (screen tests, benchmarks).
    pub fn fixed(slot: Arc<Slot>) -> Source {
        let served_by = slot.peek().key.clone();
        Source {
            slot,
            served_by,
            filter_ns: None,
        }
    }
}

/// What a detail view reads of its object: the watch's key and latest [`ObjectView`]. The
/// watch itself (its task) belongs to the loop.
pub struct ObjectFeed {
    /// The key watched (kind, namespace, `metadata.name=<name>` field selector).
    pub key: ResourceKey,
    /// The latest view; read with `load_full`.
    pub view: Arc<ArcSwap<ObjectView>>,
    /// The context's revision history (the history view reads it); `None` when off.
    pub history: Option<Arc<crate::kube::history::History>>,
}

impl ObjectFeed {
    /// What a running object watch publishes (the loop keeps the watch itself).
    pub fn of(watch: &crate::kube::object::ObjectWatch) -> ObjectFeed {
        ObjectFeed {
            key: watch.key.clone(),
            view: watch.view.clone(),
            history: None,
        }
    }

    /// A view nobody updates (screen tests).
    pub fn fixed(key: ResourceKey, view: ObjectView) -> ObjectFeed {
        ObjectFeed {
            key,
            view: Arc::new(ArcSwap::from_pointee(view)),
            history: None,
        }
    }
}

/// What the loop hands to a view once it subscribed or started a watch for it.
pub enum Feed {
    /// Rows of an informer: a list's rows, or a describe view's events.
    Rows(Source),
    /// A detail view's object.
    Object(ObjectFeed),
    /// A log view's lines and stream states.
    Logs(Arc<crate::kube::logs::LogHub>),
    /// A pods or nodes list's metrics poll.
    Usage(crate::app::usage::model::UsageSource),
    /// A union list's rows from member `origin` (`app::fleet`).
    Member(u16, Source),
    /// A history view's rollout history (workloads).
    Rollout(Arc<ArcSwap<crate::kube::history::rollout_watch::RolloutView>>),
}
