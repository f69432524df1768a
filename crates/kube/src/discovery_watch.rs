//! Keeps a context's [`Registry`] current: discovers once, then rediscovers when a
//! CustomResourceDefinition changes (a metadata-only watch through ktui's own list-watch loop,
//! so a CRD created or deleted while ktui runs appears or disappears within a second), or every
//! few minutes when CRDs cannot be watched (RBAC) and to notice aggregated APIs that recover.
//! Owns that schedule; must not know the UI: results go to a callback.

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tokio::time::{sleep, sleep_until, Instant};

use super::discovery::discover;
use super::informer::{Informer, InformerConfig};
use super::key::ResourceKey;
use super::kind::{ApiResource, Kind};
use super::registry::Registry;
use super::row::Versioned;
use super::sink::Sink;
use super::stats::InformerStats;
use super::sync::SyncState;

/// Tunables of the rediscovery schedule.
#[derive(Debug, Clone)]
pub struct DiscoveryConfig {
    /// Deadline of each discovery request.
    pub request_timeout: Duration,
    /// Quiet time after a CRD change before rediscovering (changes come in bursts: create,
    /// then `Established`).
    pub debounce: Duration,
    /// Rediscovery period without CRD changes.
    pub period: Duration,
    /// First retry delay after discovery failed completely.
    pub retry: Duration,
}

impl Default for DiscoveryConfig {
    fn default() -> Self {
        DiscoveryConfig {
            request_timeout: Duration::from_secs(10),
            debounce: Duration::from_millis(300),
            period: Duration::from_secs(300),
            retry: Duration::from_secs(5),
        }
    }
}

/// Runs until aborted: publishes a registry after the first discovery and after every
/// rediscovery whose result differs from the last published one. `poke` asks for a
/// rediscovery now (the user opened `:api-resources` or typed an unknown name), published
/// even when nothing changed so that the asker gets its answer.
pub async fn keep_current(
    client: kube::Client,
    config: DiscoveryConfig,
    poke: Arc<Notify>,
    mut publish: impl FnMut(Registry) + Send,
) {
    let mut last: Option<Registry> = None;
    let mut run =
        |last: &mut Option<Registry>, reg: Registry, always: bool| offer(last, &mut publish, reg, always);
    let mut retry = config.retry;
    loop {
        match discover(&client, config.request_timeout).await {
            Ok(d) => {
                run(&mut last, Registry::from_discovery(d), false);
                break;
            }
            Err(e) => {
                run(&mut last, Registry::failed(e), false);
                sleep(retry).await;
                retry = (retry * 2).min(config.period);
            }
        }
    }
    let (tx, mut changes) = unbounded_channel();
    let mut watch = Some(CrdWatch::start(client.clone(), tx));
    // The first list only repeats what the discovery above saw.
    let mut listed = false;
    // A rediscovery was asked for: publish its result even if unchanged.
    let mut poked = false;
    let mut due: Option<Instant> = None;
    let mut next_period = Instant::now() + config.period;
    loop {
        let deadline = due.unwrap_or(next_period).min(next_period);
        tokio::select! {
            ev = changes.recv(), if watch.is_some() => match ev {
                Some(CrdEvent::Listed) if !listed => listed = true,
                Some(CrdEvent::Listed | CrdEvent::Changed) => {
                    // A change, or a relist after a broken watch (changes may have been missed).
                    due = Some(Instant::now() + config.debounce);
                }
                Some(CrdEvent::Forbidden) | None => {
                    // Not allowed to list or watch CRDs: fall back to the periodic rediscovery.
                    watch = None;
                }
            },
            _ = poke.notified() => {
                due = Some(Instant::now());
                poked = true;
            }
            _ = sleep_until(deadline) => {
                due = None;
                next_period = Instant::now() + config.period;
                let asked = std::mem::take(&mut poked);
                match discover(&client, config.request_timeout).await {
                    Ok(d) => run(&mut last, Registry::from_discovery(d), asked),
                    Err(e) => {
                        tracing::debug!(error = %e, "rediscovery failed; keeping the last registry");
                        // Whoever asked still gets an answer: the registry as it was.
                        if let Some(prev) = last.clone().filter(|_| asked) {
                            run(&mut last, prev, true);
                        }
                    }
                }
            }
        }
    }
}

/// Publishes `reg` if it differs from the `last` one published (or `always`), after carrying
/// over what a failing group or CRD list could not say this time.
fn offer(last: &mut Option<Registry>, publish: &mut impl FnMut(Registry), mut reg: Registry, always: bool) {
    if let Some(prev) = last.as_ref() {
        reg.inherit(prev);
    }
    if always || !last.as_ref().is_some_and(|prev| prev.same_as(&reg)) {
        *last = Some(reg.clone());
        publish(reg);
    }
}

/// What the CRD watch tells the rediscovery schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CrdEvent {
    /// A (re)list of CRDs completed.
    Listed,
    /// A CRD was created, changed or deleted.
    Changed,
    /// Listing or watching CRDs is forbidden (HTTP 403).
    Forbidden,
}

/// A CRD as a metadata-only watch delivers it (`PartialObjectMetadata`): only its
/// `metadata.resourceVersion` matters here.
#[derive(Debug, Clone, Default, Deserialize)]
struct CrdMeta {
    #[serde(default)]
    metadata: CrdMetadata,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CrdMetadata {
    #[serde(default)]
    resource_version: Option<String>,
}

impl Versioned for CrdMeta {
    fn version(&self) -> Option<&str> {
        self.metadata.resource_version.as_deref()
    }
}

/// The running CRD watch: ktui's list-watch loop over `customresourcedefinitions`, metadata
/// only, stopped when dropped.
struct CrdWatch(JoinHandle<()>);

impl CrdWatch {
    fn start(client: kube::Client, tx: UnboundedSender<CrdEvent>) -> CrdWatch {
        let crds = ApiResource {
            group: "apiextensions.k8s.io".into(),
            version: "v1".into(),
            plural: "customresourcedefinitions".into(),
            singular: "customresourcedefinition".into(),
            kind: "CustomResourceDefinition".into(),
            namespaced: false,
            ..ApiResource::default()
        };
        let key = ResourceKey::new(Kind::Api(Arc::new(crds)), None);
        let informer = Informer::new(
            key,
            client,
            Arc::new(InformerStats::default()),
            InformerConfig::default(),
        )
        .metadata_only();
        CrdWatch(tokio::spawn(informer.run::<CrdMeta, _>(CrdSink(tx))))
    }
}

impl Drop for CrdWatch {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Turns the CRD watch's events into [`CrdEvent`]s (a closed receiver means the schedule is
/// gone; nothing to tell).
struct CrdSink(UnboundedSender<CrdEvent>);

impl Sink<CrdMeta> for CrdSink {
    fn init(&mut self) {}
    fn init_apply(&mut self, _obj: CrdMeta) {}
    fn init_done(&mut self, _rv: Option<String>) {
        let _ = self.0.send(CrdEvent::Listed);
    }
    fn apply(&mut self, _obj: CrdMeta) {
        let _ = self.0.send(CrdEvent::Changed);
    }
    fn delete(&mut self, _obj: CrdMeta) {
        let _ = self.0.send(CrdEvent::Changed);
    }
    fn set_state(&mut self, state: SyncState) {
        if matches!(state, SyncState::Forbidden { .. }) {
            let _ = self.0.send(CrdEvent::Forbidden);
        }
    }
}
