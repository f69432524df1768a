//! The loop's waiting step: which [`SyncState`] a failure is shown as (forbidden, stale,
//! unreachable, reconnecting…) and how long to back off before the next try. Owns that
//! mapping; must not send requests.

use tokio::time::{sleep, Instant};

use super::super::failure::Failure;
use super::super::sink::Sink;
use super::super::sync::SyncState;
use super::Informer;

impl Informer {
    /// Shows why the loop waits, then sleeps the backoff delay.
    pub(super) async fn wait<T, S: Sink<T>>(&mut self, sink: &mut S, failure: Failure) {
        let delay = self.backoff.next_delay();
        let attempt = self.backoff.attempt();
        self.wait_for(sink, failure, delay, attempt).await;
    }

    /// Waits before fetching again a page that failed in the middle of a list: the server
    /// answered the pages before, so the first [`PAGE_RETRIES`](super::PAGE_RETRIES) tries in
    /// a row wait little (at 20 % errors a 20k-pod list completes in seconds, not minutes);
    /// past them the informer's own backoff applies.
    pub(super) async fn retry_page<T, S: Sink<T>>(&mut self, sink: &mut S, failure: Failure) {
        let (delay, attempt) = if self.page_backoff.attempt() >= super::PAGE_RETRIES {
            let delay = self.backoff.next_delay();
            (delay, super::PAGE_RETRIES + self.backoff.attempt())
        } else {
            (self.page_backoff.next_delay(), self.page_backoff.attempt())
        };
        self.wait_for(sink, failure, delay, attempt).await;
    }

    /// Shows `failure` as the informer's state (with `attempt` and `delay`), then sleeps
    /// `delay` — longer when the failure asks for it (RBAC, not found) or the server said
    /// `Retry-After`.
    async fn wait_for<T, S: Sink<T>>(
        &mut self,
        sink: &mut S,
        failure: Failure,
        mut delay: std::time::Duration,
        attempt: u32,
    ) {
        if let Some(asked) = self.retry_after.take() {
            // The server said when to come back (429/503 `Retry-After`); never longer than
            // the configured cap, the user's word on the largest retry delay.
            delay = delay.max(asked.min(self.config.backoff_cap));
        }
        let resource = self.key.kind.plural().to_owned();
        let cap = self.config.backoff_cap;
        let state = match failure {
            Failure::Forbidden(verb) => {
                // RBAC rarely changes: retry slowly, at the cap, without a spinner.
                delay = delay.max(cap);
                SyncState::Forbidden {
                    verb: verb.to_owned(),
                    resource,
                }
            }
            Failure::NotFound => {
                delay = delay.max(cap);
                SyncState::NotFound
            }
            Failure::Rejected(reason) => {
                delay = delay.max(cap);
                SyncState::Rejected { reason }
            }
            // A server that went silent and does not answer the retry is still stale.
            Failure::Unreachable(_) | Failure::Other(_) if self.stale.is_some() => SyncState::Stale {
                since: self.stale.unwrap_or_else(Instant::now),
            },
            Failure::Unreachable(reason) if !self.answered => SyncState::Unreachable { reason },
            Failure::Unreachable(error) | Failure::Other(error) => SyncState::Reconnecting {
                attempt,
                retry_in: delay,
                error,
            },
            Failure::Gone => SyncState::Reconnecting {
                attempt,
                retry_in: delay,
                error: "resourceVersion too old (410)".into(),
            },
        };
        tracing::debug!(key = %self.key, ?delay, state = %state, "informer waits");
        sink.set_state(state);
        sink.publish();
        sleep(delay).await;
    }
}
