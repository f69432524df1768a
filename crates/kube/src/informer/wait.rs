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
        let mut delay = self.backoff.next_delay();
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
                attempt: self.backoff.attempt(),
                retry_in: delay,
                error,
            },
            Failure::Gone => SyncState::Reconnecting {
                attempt: self.backoff.attempt(),
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
