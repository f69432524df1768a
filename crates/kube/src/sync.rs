//! `SyncState`: what an informer knows about its freshness, in words a user can act on. Owns
//! the state vocabulary; must not decide transitions (the informer does).

use std::fmt;
use std::time::Duration;

use crate::text::thousands;

/// How fresh a snapshot is. Published with every snapshot so the header can say it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SyncState {
    /// Not started yet (no request sent).
    #[default]
    Pending,
    /// Initial list (or relist) in progress; `received` objects so far.
    Syncing { received: usize },
    /// Listed and watching; changes arrive as they happen.
    Live,
    /// The last request failed; retrying. `attempt` counts from 1, `retry_in` is the wait
    /// before the next try, `error` a one-line reason.
    Reconnecting {
        attempt: u32,
        retry_in: Duration,
        error: String,
    },
    /// The API server refused (HTTP 403): the user may not `verb` `resource`.
    Forbidden { verb: String, resource: String },
    /// The API server could not be reached at all (connect/TLS/DNS error, timeout).
    Unreachable { reason: String },
    /// The resource does not exist on this server (HTTP 404, e.g. a deleted CRD).
    NotFound,
    /// The server refused the request itself (HTTP 400, e.g. an invalid label selector):
    /// retrying the same request cannot help, so it is retried only slowly.
    Rejected { reason: String },
    /// The watch has brought neither an event nor a bookmark since `since` (the last word
    /// from the server), far longer than the bookmark interval: the rows may be old. The
    /// informer is resuming (then relisting); it stays stale until the server speaks again.
    Stale { since: tokio::time::Instant },
}

impl SyncState {
    /// True when the snapshot's rows reflect a complete list (Live, or a failure after at
    /// least one complete list — callers check `Snapshot::listed` for that).
    pub fn is_live(&self) -> bool {
        matches!(self, SyncState::Live)
    }

    /// True while the last request failed (forbidden, unreachable, not found, reconnecting).
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            SyncState::Forbidden { .. }
                | SyncState::Unreachable { .. }
                | SyncState::NotFound
                | SyncState::Reconnecting { .. }
                | SyncState::Rejected { .. }
                | SyncState::Stale { .. }
        )
    }
}

/// `2m`, `1h5m`, `45s`: a silence as the header says it (whole minutes once past one).
pub fn silence(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m", s / 60),
        _ if s % 3600 / 60 == 0 => format!("{}h", s / 3600),
        _ => format!("{}h{}m", s / 3600, s % 3600 / 60),
    }
}

impl fmt::Display for SyncState {
    /// Header wording: `syncing 1,234…`, `live`, `reconnecting (attempt 3, 12s): reason`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyncState::Pending => f.write_str("starting…"),
            SyncState::Syncing { received } => write!(f, "syncing {}…", thousands(*received as u64)),
            SyncState::Live => f.write_str("live"),
            SyncState::Reconnecting {
                attempt,
                retry_in,
                error,
            } => {
                write!(
                    f,
                    "reconnecting (attempt {attempt}, {}s): {error}",
                    retry_in.as_secs()
                )
            }
            SyncState::Forbidden { verb, resource } => write!(f, "forbidden: {verb} {resource}"),
            SyncState::Unreachable { reason } => write!(f, "unreachable: {reason}"),
            SyncState::NotFound => f.write_str("not found on this server"),
            SyncState::Rejected { reason } => write!(f, "rejected: {reason}"),
            SyncState::Stale { since } => {
                write!(
                    f,
                    "stale: no word from the server for {}",
                    silence(since.elapsed())
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wording() {
        assert_eq!(
            SyncState::Syncing { received: 1234 }.to_string(),
            "syncing 1,234…"
        );
        assert_eq!(
            SyncState::Reconnecting {
                attempt: 3,
                retry_in: Duration::from_secs(12),
                error: "eof".into()
            }
            .to_string(),
            "reconnecting (attempt 3, 12s): eof"
        );
        assert_eq!(
            SyncState::Forbidden {
                verb: "list".into(),
                resource: "pods".into()
            }
            .to_string(),
            "forbidden: list pods"
        );
        assert_eq!(silence(Duration::from_secs(125)), "2m");
        assert_eq!(silence(Duration::from_secs(45)), "45s");
        assert_eq!(silence(Duration::from_secs(3900)), "1h5m");
        assert_eq!(silence(Duration::from_secs(7200)), "2h");
    }

    #[tokio::test(start_paused = true)]
    async fn stale_says_how_long_the_server_was_silent() {
        let since = tokio::time::Instant::now();
        tokio::time::advance(Duration::from_secs(121)).await;
        let s = SyncState::Stale { since };
        assert_eq!(s.to_string(), "stale: no word from the server for 2m");
        assert!(s.is_failure() && !s.is_live());
    }
}
