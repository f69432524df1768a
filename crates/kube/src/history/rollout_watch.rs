//! The live rollout history of one workload while its history view is open: one GET of the
//! workload for its `spec.selector` (immutable in apps/v1), then ktui's list-watch loop over
//! the ReplicaSets or ControllerRevisions matching it in the workload's namespace, kept as
//! [`RolloutRevision`]s of the revisions the workload controls, newest first. Owns that task
//! and its slot; must not format, draw nor decide when it runs (the loop starts it for a
//! history view and drops it with the view).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use arc_swap::ArcSwap;
use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use super::rollout::{read, RolloutRevision, RolloutSource};
use crate::backoff::Backoff;
use crate::informer::{Informer, InformerConfig};
use crate::key::ResourceKey;
use crate::object::RawObject;
use crate::sink::Sink;
use crate::stats::InformerStats;
use crate::store::StoreChanged;
use crate::sync::SyncState;

/// What a history view knows of the cluster's rollout history of its workload.
#[derive(Debug, Clone)]
pub struct RolloutView {
    /// Where the revisions come from.
    pub source: RolloutSource,
    /// The revisions the workload controls (any uid of that name: the reader compares
    /// `owner_uid` with the object it shows), newest (highest number) first.
    pub revisions: Vec<RolloutRevision>,
    /// A complete list has arrived at least once.
    pub listed: bool,
    /// Freshness of the watch (or of the workload's GET before it).
    pub state: SyncState,
    /// Bumped on every change.
    pub rev: u64,
}

impl RolloutView {
    /// Nothing read yet from `source`.
    pub fn new(source: RolloutSource) -> RolloutView {
        RolloutView {
            source,
            revisions: Vec::new(),
            listed: false,
            state: SyncState::Pending,
            rev: 0,
        }
    }
}

/// A running rollout watch. Dropping it stops the task.
pub struct RolloutWatch {
    /// The latest view.
    pub view: Arc<ArcSwap<RolloutView>>,
    task: Option<JoinHandle<()>>,
}

impl RolloutWatch {
    /// A view nobody updates (tests).
    pub fn fixed(view: RolloutView) -> RolloutWatch {
        RolloutWatch {
            view: Arc::new(ArcSwap::from_pointee(view)),
            task: None,
        }
    }
}

impl Drop for RolloutWatch {
    fn drop(&mut self) {
        if let Some(t) = &self.task {
            t.abort();
        }
    }
}

/// Reads a workload's `spec.selector` as a `labelSelector` value (`Some("")`: everything;
/// `None`: unusable). Given by the caller, which owns selector syntax (`ktui_table`).
pub type SelectorOf = fn(&Value) -> Option<String>;

/// Starts the rollout watch of `name` of `workload.kind` in `workload.namespace` on
/// `runtime`; `None` for kinds without a rollout history. Every change sends `notify` a
/// [`StoreChanged`] with `notify_key` (the detail view's object-watch key, so whatever
/// redraws for the object redraws for its rollout history).
pub fn watch_rollout(
    runtime: &tokio::runtime::Handle,
    client: kube::Client,
    workload: &ResourceKey,
    name: &str,
    selector_of: SelectorOf,
    notify: UnboundedSender<StoreChanged>,
    notify_key: ResourceKey,
) -> Option<RolloutWatch> {
    let source = RolloutSource::of(&workload.kind)?;
    let view = Arc::new(ArcSwap::from_pointee(RolloutView::new(source)));
    let mut sink = RolloutSink {
        current: RolloutView::new(source),
        view: view.clone(),
        notify,
        notify_key,
        kind: workload.kind.kind_name().to_owned(),
        name: name.to_owned(),
        by_name: HashMap::new(),
        listing: HashMap::new(),
    };
    let path = format!("{}/{name}", workload.kind.url_path(workload.namespace.as_deref()));
    let namespace = workload.namespace.clone();
    let task = runtime.spawn(async move {
        let mut backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(30));
        let selector = loop {
            match crate::write::get(&client, &path).await {
                Ok(obj) => match selector_of(&obj) {
                    Some(s) => break s,
                    None => {
                        sink.set_state(SyncState::Rejected {
                            reason: "the workload's spec.selector is not usable".into(),
                        });
                        return;
                    }
                },
                Err(e) => {
                    let retry_in = backoff.next_delay();
                    sink.set_state(SyncState::Reconnecting {
                        attempt: backoff.attempt(),
                        retry_in,
                        error: e.message,
                    });
                    tokio::time::sleep(retry_in).await;
                }
            }
        };
        let mut key = ResourceKey::new(source.kind(), namespace.as_deref());
        if !selector.is_empty() {
            key = key.with_labels(&selector);
        }
        let informer = Informer::new(
            key,
            client,
            Arc::new(InformerStats::default()),
            InformerConfig::default(),
        );
        informer.run::<RawObject, _>(sink).await;
    });
    Some(RolloutWatch {
        view,
        task: Some(task),
    })
}

struct RolloutSink {
    current: RolloutView,
    view: Arc<ArcSwap<RolloutView>>,
    notify: UnboundedSender<StoreChanged>,
    notify_key: ResourceKey,
    /// The workload's `kind` and name, matched against controller references.
    kind: String,
    name: String,
    /// Revisions by object name.
    by_name: HashMap<Box<str>, RolloutRevision>,
    /// What a (re)list in progress has found.
    listing: HashMap<Box<str>, RolloutRevision>,
}

impl RolloutSink {
    fn read(&self, obj: &Value) -> Option<RolloutRevision> {
        read(self.current.source, obj, &self.kind, &self.name)
    }

    fn publish(&mut self) {
        let mut revisions: Vec<RolloutRevision> = self.by_name.values().cloned().collect();
        revisions.sort_by(|a, b| b.number.cmp(&a.number).then_with(|| b.created.cmp(&a.created)));
        self.current.revisions = revisions;
        self.current.rev += 1;
        self.view.store(Arc::new(self.current.clone()));
        let _ = self.notify.send(StoreChanged {
            key: self.notify_key.clone(),
        });
    }
}

fn name_of(obj: &Value) -> Box<str> {
    obj.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .into()
}

impl Sink<RawObject> for RolloutSink {
    fn init(&mut self) {
        self.listing.clear();
    }
    fn init_apply(&mut self, obj: RawObject) {
        if let Some(r) = self.read(&obj.0) {
            self.listing.insert(r.name.clone(), r);
        }
    }
    fn init_done(&mut self, _rv: Option<String>) {
        self.by_name = std::mem::take(&mut self.listing);
        self.current.listed = true;
        self.current.state = SyncState::Live;
        self.publish();
    }
    fn apply(&mut self, obj: RawObject) {
        match self.read(&obj.0) {
            Some(r) => {
                if self.by_name.get(&r.name) == Some(&r) {
                    return;
                }
                self.by_name.insert(r.name.clone(), r);
            }
            // No longer ours (orphaned, adopted by another) or without a number yet.
            None => {
                if self.by_name.remove(&name_of(&obj.0)).is_none() {
                    return;
                }
            }
        }
        self.publish();
    }
    fn delete(&mut self, obj: RawObject) {
        if self.by_name.remove(&name_of(&obj.0)).is_some() {
            self.publish();
        }
    }
    fn set_state(&mut self, state: SyncState) {
        if state != self.current.state {
            self.current.state = state;
            self.publish();
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::builtin::BuiltinKind;

    fn sink() -> (RolloutSink, tokio::sync::mpsc::UnboundedReceiver<StoreChanged>) {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let source = RolloutSource::ReplicaSets;
        let sink = RolloutSink {
            current: RolloutView::new(source),
            view: Arc::new(ArcSwap::from_pointee(RolloutView::new(source))),
            notify: tx,
            notify_key: ResourceKey::new(BuiltinKind::Deployment, Some("a")),
            kind: "Deployment".into(),
            name: "web".into(),
            by_name: HashMap::new(),
            listing: HashMap::new(),
        };
        (sink, rx)
    }

    fn rs(name: &str, rev: u32, owner: &str) -> RawObject {
        RawObject(json!({"metadata": {"name": name,
            "annotations": {super::super::rollout::REVISION: rev.to_string()},
            "ownerReferences": [{"kind": "Deployment", "name": owner, "uid": "u", "controller": true}]},
            "spec": {"template": {"spec": {"containers": [{"name": "web", "image": format!("web:{rev}")}]}}}}))
    }

    fn numbers(s: &RolloutSink) -> Vec<i64> {
        s.view.load().revisions.iter().map(|r| r.number).collect()
    }

    #[test]
    fn the_sink_keeps_the_workloads_revisions_newest_first_through_relists() {
        let (mut s, mut rx) = sink();
        s.init();
        s.init_apply(rs("web-1", 1, "web"));
        s.init_apply(rs("web-3", 3, "web"));
        s.init_apply(rs("api-1", 7, "api"));
        s.init_done(None);
        assert_eq!(numbers(&s), [3, 1]);
        assert!(s.view.load().listed && rx.try_recv().is_ok());
        s.apply(rs("web-4", 4, "web"));
        assert_eq!(numbers(&s), [4, 3, 1]);
        // The same object again changes nothing and notifies nobody.
        while rx.try_recv().is_ok() {}
        s.apply(rs("web-4", 4, "web"));
        assert!(rx.try_recv().is_err());
        // Adopted by another controller: gone from this history.
        s.apply(rs("web-1", 1, "api"));
        assert_eq!(numbers(&s), [4, 3]);
        s.delete(rs("web-3", 3, "web"));
        assert_eq!(numbers(&s), [4]);
        // A relist replaces everything (web-4 was deleted during the gap).
        s.init();
        s.init_apply(rs("web-5", 5, "web"));
        assert_eq!(numbers(&s), [4], "published only when the list is complete");
        s.init_done(None);
        assert_eq!(numbers(&s), [5]);
    }
}
