//! Keeps a context's [`Registry`] current: discovers once, then rediscovers when a
//! CustomResourceDefinition changes (a metadata-only watch, so a CRD created or deleted while
//! ktui runs appears or disappears within a second), or every few minutes when CRDs cannot be
//! watched (RBAC) and to notice aggregated APIs that recover. Owns that schedule; must not
//! know the UI: results go to a callback.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::PartialObjectMeta;
use kube::runtime::watcher::{self, Event};
use kube::runtime::{watcher as watch, WatchStreamExt};
use kube::Api;
use tokio::sync::Notify;
use tokio::time::{sleep, sleep_until, Instant};

use super::discovery::discover;
use super::registry::Registry;

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
    let api: Api<PartialObjectMeta<CustomResourceDefinition>> = Api::all(client.clone());
    let mut changes = watch(api, watcher::Config::default()).default_backoff().boxed();
    let mut watching = true;
    // The first list only repeats what the discovery above saw.
    let mut listed = false;
    // A rediscovery was asked for: publish its result even if unchanged.
    let mut poked = false;
    let mut due: Option<Instant> = None;
    let mut next_period = Instant::now() + config.period;
    loop {
        let deadline = due.unwrap_or(next_period).min(next_period);
        tokio::select! {
            ev = changes.next(), if watching => match ev {
                Some(Ok(Event::InitDone)) if !listed => listed = true,
                Some(Ok(Event::Apply(_) | Event::Delete(_) | Event::InitDone)) => {
                    // A change, or a relist after a broken watch (changes may have been missed).
                    due = Some(Instant::now() + config.debounce);
                }
                Some(Ok(_)) => {}
                Some(Err(e)) if forbidden(&e) => {
                    // Not allowed to list or watch CRDs: fall back to the periodic rediscovery.
                    watching = false;
                }
                Some(Err(_)) => {}
                None => watching = false,
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

/// A 403 from any stage of the CRD watch (list, watch start, watch stream).
fn forbidden(e: &watcher::Error) -> bool {
    match e {
        watcher::Error::InitialListFailed(kube::Error::Api(s))
        | watcher::Error::WatchStartFailed(kube::Error::Api(s))
        | watcher::Error::WatchFailed(kube::Error::Api(s)) => s.code == 403,
        watcher::Error::WatchError(s) => s.code == 403,
        _ => false,
    }
}
