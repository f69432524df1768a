//! The task behind one log view: watches the pods it shows (one pod by name, a label
//! selector, or a name regex over a namespace — ktui's list-watch loop, never polling),
//! attaches a stream per chosen container as pods appear, marks pods that go away, feeds each
//! stream its container's status, and keeps at most `cap` streams open (the rest queued).
//! Must not format for a screen.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::{mpsc, watch};
use tokio::task::{JoinHandle, JoinSet};

use super::hub::{LogHub, SourceInfo, SourceState};
use super::pods::PodInfo;
use super::stream::{run_source, SourceSpec, Status, StreamPlan};
use crate::builtin::BuiltinKind;
use crate::informer::{Informer, InformerConfig};
use crate::key::ResourceKey;
use crate::object::RawObject;
use crate::sink::Sink;
use crate::stats::InformerStats;
use crate::sync::SyncState;

/// Which pods a view shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PodPick {
    /// One pod by name.
    Named(String),
    /// Pods matching a label selector (a workload's or service's `spec.selector`, `-l`).
    Selector(String),
    /// Pods of the namespace whose name matches this regex (`:logs <regex>`).
    Regex(String),
}

/// Which containers of each pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContainerPick {
    /// This one (`-c`, or `l` on a container row).
    Named(String),
    /// The `kubectl.kubernetes.io/default-container`, else every container.
    Default,
    /// Every container: init, sidecar and app.
    All,
}

/// What a log view shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogTarget {
    /// The namespace of its pods.
    pub namespace: String,
    /// Which pods.
    pub pods: PodPick,
    /// Which containers.
    pub containers: ContainerPick,
}

/// Bounds of a view (from `[logs]` in the config).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogLimits {
    /// Lines the ring buffer keeps.
    pub max_lines: usize,
    /// Bytes the ring buffer keeps.
    pub max_bytes: usize,
    /// Concurrent streams.
    pub max_streams: usize,
}

/// A running log view feed. Dropping it stops the pod watch and every stream.
pub struct LogFeed {
    /// What the view reads.
    pub hub: Arc<LogHub>,
    task: JoinHandle<()>,
}

impl Drop for LogFeed {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts the feed of `target` on `runtime`; `notify` is called (coalesced) on changes.
pub fn start(
    runtime: &tokio::runtime::Handle,
    client: kube::Client,
    target: LogTarget,
    plan: StreamPlan,
    limits: LogLimits,
    notify: Box<dyn Fn() + Send + Sync>,
) -> LogFeed {
    let hub = Arc::new(LogHub::new(
        limits.max_lines,
        limits.max_bytes,
        limits.max_streams,
        notify,
    ));
    let task = runtime.spawn(run(client, target, plan, hub.clone()));
    LogFeed { hub, task }
}

/// What the pod watch reports to the feed.
enum PodEvent {
    Relist,
    Pod(Value),
    Gone(Value),
    Listed,
    State(SyncState),
}

struct ChannelSink(mpsc::UnboundedSender<PodEvent>);

impl Sink<RawObject> for ChannelSink {
    fn init(&mut self) {
        let _ = self.0.send(PodEvent::Relist);
    }
    fn init_apply(&mut self, obj: RawObject) {
        let _ = self.0.send(PodEvent::Pod(obj.0));
    }
    fn init_done(&mut self, _rv: Option<String>) {
        let _ = self.0.send(PodEvent::Listed);
    }
    fn apply(&mut self, obj: RawObject) {
        let _ = self.0.send(PodEvent::Pod(obj.0));
    }
    fn delete(&mut self, obj: RawObject) {
        let _ = self.0.send(PodEvent::Gone(obj.0));
    }
    fn set_state(&mut self, state: SyncState) {
        let _ = self.0.send(PodEvent::State(state));
    }
}

/// The pod watch's key for `target`.
pub fn pods_key(target: &LogTarget) -> ResourceKey {
    let key = ResourceKey::new(BuiltinKind::Pod, Some(&target.namespace));
    match &target.pods {
        PodPick::Named(name) => key.with_fields(&format!("metadata.name={name}")),
        PodPick::Selector(sel) => key.with_labels(sel),
        PodPick::Regex(_) => key,
    }
}

/// The containers of `pod` that `pick` chooses.
pub fn chosen(pod: &PodInfo, pick: &ContainerPick) -> Vec<usize> {
    let all = || (0..pod.containers.len()).collect();
    match pick {
        ContainerPick::Named(n) => pod
            .containers
            .iter()
            .position(|c| &*c.name == n)
            .into_iter()
            .collect(),
        ContainerPick::Default => match &pod.default_container {
            Some(d) => pod
                .containers
                .iter()
                .position(|c| c.name == *d)
                .into_iter()
                .collect(),
            None => all(),
        },
        ContainerPick::All => all(),
    }
}

struct Feed {
    client: kube::Client,
    target: LogTarget,
    plan: StreamPlan,
    hub: Arc<LogHub>,
    /// Per source index: the status channel and whether its task runs.
    status: Vec<watch::Sender<Status>>,
    /// Per pod name: (uid, its source indexes by container name).
    pods: BTreeMap<String, (String, Vec<(String, usize)>)>,
    queue: VecDeque<usize>,
    running: JoinSet<usize>,
    active: usize,
}

async fn run(client: kube::Client, target: LogTarget, plan: StreamPlan, hub: Arc<LogHub>) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let informer = Informer::new(
        pods_key(&target),
        client.clone(),
        Arc::new(InformerStats::default()),
        InformerConfig::default(),
    );
    let watch_task = tokio::spawn(informer.run::<RawObject, _>(ChannelSink(tx)));
    let _stop = AbortOnDrop(watch_task);
    let regex = match &target.pods {
        PodPick::Regex(r) => match regex::Regex::new(r) {
            Ok(re) => Some(re),
            Err(e) => {
                hub.lock().pods_error = Some(format!(
                    "bad pod regex: {}",
                    crate::failure::one_line(&e.to_string())
                ));
                hub.changed();
                return;
            }
        },
        _ => None,
    };
    let mut feed = Feed {
        client,
        target,
        plan,
        hub,
        status: Vec::new(),
        pods: BTreeMap::new(),
        queue: VecDeque::new(),
        running: JoinSet::new(),
        active: 0,
    };
    let mut listed: Option<HashSet<String>> = None;
    loop {
        tokio::select! {
            ev = rx.recv() => match ev {
                None => return,
                Some(PodEvent::Relist) => listed = Some(HashSet::new()),
                Some(PodEvent::Pod(v)) => {
                    let Some(info) = PodInfo::from_json(&v) else { continue };
                    if regex.as_ref().is_some_and(|re| !re.is_match(&info.name)) {
                        continue;
                    }
                    if let Some(seen) = &mut listed {
                        seen.insert(info.name.to_string());
                    }
                    feed.pod(&info);
                }
                Some(PodEvent::Gone(v)) => {
                    if let Some(name) = v.pointer("/metadata/name").and_then(Value::as_str) {
                        feed.gone(name);
                    }
                }
                Some(PodEvent::Listed) => {
                    if let Some(seen) = listed.take() {
                        let gone: Vec<String> = feed.pods.keys().filter(|p| !seen.contains(*p)).cloned().collect();
                        gone.iter().for_each(|p| feed.gone(p));
                    }
                    let mut s = feed.hub.lock();
                    s.pods_synced = true;
                    s.pods_error = None;
                    drop(s);
                    feed.hub.changed();
                }
                Some(PodEvent::State(state)) => {
                    let error = state.is_failure().then(|| state.to_string());
                    let mut s = feed.hub.lock();
                    if s.pods_error != error {
                        s.pods_error = error;
                        drop(s);
                        feed.hub.changed();
                    }
                }
            },
            Some(done) = feed.running.join_next(), if feed.active > 0 => {
                feed.active -= 1;
                let _ = done;
            }
        }
        feed.start_queued();
    }
}

struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Feed {
    /// A pod was listed or changed: attach new sources, update the others' status.
    fn pod(&mut self, info: &PodInfo) {
        let name = info.name.to_string();
        if self.pods.get(&name).is_some_and(|(uid, _)| *uid != *info.uid) {
            // Same name, new pod (a StatefulSet replacement): the old one is gone.
            self.gone(&name);
            self.pods.remove(&name);
        }
        let entry = self
            .pods
            .entry(name.clone())
            .or_insert_with(|| (info.uid.to_string(), Vec::new()));
        for ci in chosen(info, &self.target.containers) {
            let c = &info.containers[ci];
            let status = Status {
                container: Some(c.clone()),
                deleted: false,
            };
            match entry.1.iter().find(|(n, _)| **n == *c.name) {
                Some((_, idx)) => {
                    self.status[*idx].send_if_modified(|s| {
                        let changed = *s != status;
                        *s = status.clone();
                        changed
                    });
                }
                None => {
                    let mut s = self.hub.lock();
                    let idx = s.sources.len();
                    s.sources.push(SourceInfo {
                        pod: info.name.clone(),
                        container: c.name.clone(),
                        role: c.role,
                        state: SourceState::Queued,
                        gone: false,
                        last_ts: None,
                    });
                    drop(s);
                    self.status.push(watch::channel(status).0);
                    entry.1.push((c.name.to_string(), idx));
                    self.queue.push_back(idx);
                }
            }
        }
        self.hub.changed();
    }

    /// A pod went away: its sources are marked and their streams told.
    fn gone(&mut self, name: &str) {
        let Some((_, sources)) = self.pods.remove(name) else {
            return;
        };
        let mut s = self.hub.lock();
        for (_, idx) in &sources {
            if let Some(src) = s.sources.get_mut(*idx) {
                src.gone = true;
                if src.state == SourceState::Queued || !src.state.streaming() {
                    src.state = SourceState::PodDeleted;
                }
            }
        }
        drop(s);
        self.queue.retain(|i| !sources.iter().any(|(_, idx)| idx == i));
        for (_, idx) in sources {
            self.status[idx].send_modify(|s| s.deleted = true);
        }
        self.hub.changed();
    }

    /// Starts queued sources while there are free stream slots.
    fn start_queued(&mut self) {
        let cap = self.hub.lock().cap;
        while self.active < cap {
            let Some(idx) = self.queue.pop_front() else { return };
            let (pod, container) = {
                let s = self.hub.lock();
                let src = &s.sources[idx];
                (src.pod.to_string(), src.container.to_string())
            };
            let spec = SourceSpec {
                namespace: self.target.namespace.clone(),
                pod,
                container,
                index: idx,
            };
            let fut = run_source(
                self.client.clone(),
                spec,
                self.plan.clone(),
                self.hub.clone(),
                self.status[idx].subscribe(),
            );
            self.running.spawn(async move {
                fut.await;
                idx
            });
            self.active += 1;
        }
    }
}
