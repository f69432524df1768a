//! Live detail of one object: the whole object as JSON (for the YAML view), kept current by
//! the same list-watch loop as the lists, narrowed to `metadata.name`. Owns the object
//! slot and its sink; must not format or draw.

use std::sync::Arc;

use arc_swap::ArcSwap;
use serde::Deserialize;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use super::history::History;
use super::informer::{Informer, InformerConfig};
use super::key::ResourceKey;
use super::row::Versioned;
use super::sink::Sink;
use super::stats::InformerStats;
use super::store::StoreChanged;
use super::sync::SyncState;

/// A whole API object, undecoded. Only detail views hold these, one at a time.
#[derive(Debug, Clone, Deserialize)]
#[serde(transparent)]
pub struct RawObject(pub serde_json::Value);

impl Versioned for RawObject {
    fn version(&self) -> Option<&str> {
        self.0
            .pointer("/metadata/resourceVersion")
            .and_then(|v| v.as_str())
    }
}

/// What a detail view knows of its object.
#[derive(Debug, Clone, Default)]
pub struct ObjectView {
    /// The latest object seen; kept after deletion so the view can still show it.
    pub object: Option<Arc<serde_json::Value>>,
    /// The object was deleted (or is no longer listed).
    pub deleted: bool,
    /// Freshness of the watch.
    pub state: SyncState,
    /// Bumped on every change.
    pub rev: u64,
}

/// A running watch of one object. Dropping it stops the watch.
pub struct ObjectWatch {
    /// The key watched (kind, namespace, `metadata.name=<name>` field selector).
    pub key: ResourceKey,
    /// The latest view; read with `load_full`.
    pub view: Arc<ArcSwap<ObjectView>>,
    /// The list-watch task; `None` for a fixed view.
    task: Option<JoinHandle<()>>,
}

impl ObjectWatch {
    /// A view nobody updates (screen tests).
    pub fn fixed(key: ResourceKey, view: ObjectView) -> ObjectWatch {
        ObjectWatch {
            key,
            view: Arc::new(ArcSwap::from_pointee(view)),
            task: None,
        }
    }
}

impl Drop for ObjectWatch {
    fn drop(&mut self) {
        if let Some(t) = &self.task {
            t.abort();
        }
    }
}

/// Starts watching `name` of `key.kind` in `key.namespace` on `runtime`; `notify` gets a
/// [`StoreChanged`] with the watch's key on every change.
pub fn watch_object(
    runtime: &tokio::runtime::Handle,
    client: kube::Client,
    key: ResourceKey,
    name: &str,
    notify: UnboundedSender<StoreChanged>,
) -> ObjectWatch {
    watch_object_recorded(runtime, client, key, name, notify, None)
}

/// [`watch_object`], also recording every revision it sees into `history` — the only way
/// revisions of high-churn kinds (pods, events, leases…) are recorded: while a detail view
/// of the object is open. For other kinds the list informer has already recorded the same
/// resourceVersion, and nothing is recorded twice.
pub fn watch_object_recorded(
    runtime: &tokio::runtime::Handle,
    client: kube::Client,
    key: ResourceKey,
    name: &str,
    notify: UnboundedSender<StoreChanged>,
    history: Option<Arc<History>>,
) -> ObjectWatch {
    let resource = key.kind.full_name();
    let key = key.with_fields(&format!("metadata.name={name}"));
    let view = Arc::new(ArcSwap::from_pointee(ObjectView::default()));
    let sink = ObjectSink {
        key: key.clone(),
        view: view.clone(),
        notify,
        current: ObjectView::default(),
        seen: false,
        history: history.filter(|h| h.enabled()).map(|h| (h, resource)),
        listing: false,
    };
    let informer = Informer::new(
        key.clone(),
        client,
        Arc::new(InformerStats::default()),
        InformerConfig::default(),
    );
    let task = runtime.spawn(informer.run::<RawObject, _>(sink));
    ObjectWatch {
        key,
        view,
        task: Some(task),
    }
}

struct ObjectSink {
    key: ResourceKey,
    view: Arc<ArcSwap<ObjectView>>,
    notify: UnboundedSender<StoreChanged>,
    current: ObjectView,
    seen: bool,
    /// Where to record revisions, and the resource name they are recorded under.
    history: Option<(Arc<History>, String)>,
    listing: bool,
}

impl ObjectSink {
    fn record(&self, obj: &serde_json::Value) {
        if let Some((h, resource)) = &self.history {
            h.observe(
                resource,
                obj.clone(),
                self.listing,
                jiff::Timestamp::now().as_second(),
            );
        }
    }

    fn publish_now(&mut self) {
        self.current.rev += 1;
        self.view.store(Arc::new(self.current.clone()));
        let _ = self.notify.send(StoreChanged {
            key: self.key.clone(),
        });
    }
}

impl Sink<RawObject> for ObjectSink {
    fn init(&mut self) {
        self.seen = false;
        self.listing = true;
        self.current.state = SyncState::Syncing { received: 0 };
    }
    fn init_apply(&mut self, obj: RawObject) {
        self.record(&obj.0);
        self.seen = true;
        self.current.object = Some(Arc::new(obj.0));
        self.current.deleted = false;
    }
    fn init_done(&mut self, _rv: Option<String>) {
        self.listing = false;
        if !self.seen {
            self.current.deleted = true;
        }
        self.current.state = SyncState::Live;
        self.publish_now();
    }
    fn apply(&mut self, obj: RawObject) {
        self.record(&obj.0);
        self.current.object = Some(Arc::new(obj.0));
        self.current.deleted = false;
        self.publish_now();
    }
    fn delete(&mut self, obj: RawObject) {
        if let Some((h, resource)) = &self.history {
            h.deleted(resource, &obj.0, jiff::Timestamp::now().as_second());
        }
        self.current.deleted = true;
        self.publish_now();
    }
    fn set_state(&mut self, state: SyncState) {
        if state != self.current.state {
            self.current.state = state;
            self.publish_now();
        }
    }
}
