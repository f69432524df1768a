//! One metrics poll task: every interval, one list request for its key (never two in flight:
//! the task awaits each answer, bounded by a deadline), its answer turned into the next
//! snapshot and published. Owns the request and the reading of failures into
//! [`MetricsState`]s; must not keep more than the snapshot does.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;
use tokio::time::{timeout, Instant, MissedTickBehavior};

use super::served::ServedMap;
use super::snapshot::Outcome;
use super::{
    wire, MetricsChanged, MetricsConfig, MetricsKey, MetricsSlot, MetricsState, Served, GROUP_VERSION,
};
use crate::failure::{classify, status_failure, Failure};

/// The shortest interval a task polls at (a zero interval would spin).
const MIN_INTERVAL: Duration = Duration::from_millis(100);

/// What one poll task needs.
pub(super) struct Poller {
    pub key: MetricsKey,
    pub client: kube::Client,
    pub slot: Arc<MetricsSlot>,
    pub notify: UnboundedSender<MetricsChanged>,
    pub config: MetricsConfig,
    pub served: Arc<ServedMap>,
}

/// How long a poll task holds the snapshot it replaced before freeing it (see
/// [`MetricsSlot::publish`]): a few frames, well under the shortest interval.
const RETIRE_AFTER: Duration = Duration::from_millis(250);

impl Poller {
    /// Polls at the configured interval, the first time at once, until the task is aborted.
    pub(super) async fn run(self) {
        let mut tick = tokio::time::interval(self.config.interval.max(MIN_INTERVAL));
        tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let started = Instant::now();
            let outcome = self.poll().await;
            if let Outcome::Failed(state) = &outcome {
                tracing::debug!(key = %self.key, %state, "metrics poll failed");
            }
            let mut next = self
                .slot
                .peek()
                .next(outcome, Instant::now(), self.config.bound());
            next.took = Some(started.elapsed());
            let old = self.slot.publish(next, &self.notify);
            // Readers move to the new snapshot at their next frame; the old one's series are
            // then freed here, off the render loop.
            tokio::time::sleep(RETIRE_AFTER.min(self.config.interval / 2)).await;
            drop(old);
        }
    }

    /// One poll: nothing sent while the caller says the API is not served.
    async fn poll(&self) -> Outcome {
        if let Served::No(why) = self.served.get(self.key.target) {
            return Outcome::Failed(MetricsState::NotServed(why));
        }
        if let Some(ns) = &self.key.namespace {
            if let Err(e) = crate::key::check_namespace(ns) {
                return Outcome::Failed(MetricsState::Error(crate::failure::one_line(&e)));
            }
        }
        match self.fetch().await {
            // Discovery may have spoken while the request was out: its reason then stands
            // (one wording for one fact, whichever answer came last).
            Err(Failure::NotFound) => match self.served.get(self.key.target) {
                Served::No(why) => Outcome::Failed(MetricsState::NotServed(why)),
                _ => Outcome::Failed(state_of(Failure::NotFound, &self.key)),
            },
            Err(failure) => Outcome::Failed(state_of(failure, &self.key)),
            Ok(body) => match wire::decode(&body, self.key.target) {
                Ok(d) => Outcome::Listed {
                    items: d.items,
                    skipped: d.skipped,
                },
                Err(e) => Outcome::Failed(MetricsState::Error(crate::failure::one_line(&format!(
                    "{} could not be decoded: {e}",
                    self.key.target.plural()
                )))),
            },
        }
    }

    /// GETs the key's list as JSON (metrics-server serves no protobuf); the body of a
    /// successful answer, else why not.
    async fn fetch(&self) -> Result<bytes::Bytes, Failure> {
        let req = http::Request::get(self.key.url_path())
            .header(http::header::ACCEPT, "application/json")
            .body(Vec::new())
            .map_err(|e| Failure::Other(e.to_string()))?;
        let client = self.client.clone();
        let exchange = async move {
            let res = client.send(req.map(kube::client::Body::from)).await?;
            let status = res.status();
            let body = http_body_util::BodyExt::collect(res.into_body())
                .await?
                .to_bytes();
            Ok::<_, kube::Error>((status, body))
        };
        let deadline = self
            .config
            .request_timeout
            .min(self.config.interval.max(MIN_INTERVAL));
        let (status, body) = match timeout(deadline, exchange).await {
            Err(_) => {
                return Err(Failure::Unreachable(format!(
                    "list timed out after {}",
                    crate::sync::silence(deadline)
                )))
            }
            Ok(Err(e)) => return Err(classify(&e, "list")),
            Ok(Ok(answer)) => answer,
        };
        if !status.is_success() {
            let message = serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_owned))
                .unwrap_or_else(|| status.canonical_reason().unwrap_or("").to_owned());
            return Err(status_failure(status.as_u16(), &message, "list"));
        }
        Ok(body)
    }
}

/// The state a failed request of `key` is shown as.
fn state_of(failure: Failure, key: &MetricsKey) -> MetricsState {
    let plural = key.target.plural();
    match failure {
        Failure::Forbidden(verb) => {
            MetricsState::Forbidden(format!("forbidden: {verb} {plural}.metrics.k8s.io"))
        }
        Failure::NotFound => {
            MetricsState::NotServed(format!("the server has no {GROUP_VERSION} {plural} (404)"))
        }
        Failure::Rejected(why) => MetricsState::Error(format!("rejected: {why}")),
        Failure::Unreachable(why) => MetricsState::Error(format!("unreachable: {why}")),
        Failure::Gone => MetricsState::Error("410: gone".into()),
        Failure::Other(why) => MetricsState::Error(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_in_words() {
        let pods = MetricsKey::pods(Some("team-a"));
        assert_eq!(
            state_of(Failure::Forbidden("list"), &pods),
            MetricsState::Forbidden("forbidden: list pods.metrics.k8s.io".into())
        );
        assert_eq!(
            state_of(Failure::NotFound, &MetricsKey::nodes()).to_string(),
            "not served (the server has no metrics.k8s.io/v1beta1 nodes (404))"
        );
        assert_eq!(
            state_of(status_failure(503, "service unavailable", "list"), &pods),
            MetricsState::Error("503: service unavailable".into())
        );
    }
}
