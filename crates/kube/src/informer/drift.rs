//! Drift repair when resourceVersions go backwards: the newest resourceVersion the informer
//! has seen, the check that a list, watch event or bookmark is not older than it, and the
//! probe after a failed watch that asks the server where it stands. A server restored from an
//! older etcd backup (restored without `--bump-revision`) hands resourceVersions out again
//! from the backup's revision; a watch resumed from a newer one is accepted and waits for it,
//! so without this the informer would keep its ghosts while saying `live`. Owns the comparison
//! and the probe; must not change the store (the relist that follows replaces it).
//!
//! resourceVersions are opaque strings by the API's contract, to be compared only for
//! equality. etcd-backed servers (kube-apiserver, the demo server) use etcd's integer
//! revision, which only grows while etcd's data is not replaced; so two resourceVersions
//! that both parse as `u64` are compared as integers, and one that does not parse is never
//! called older (a server with other resourceVersions gets no backwards detection).

use std::time::Instant;

use kube::api::ListParams;
use kube::core::Request;

use super::super::failure::Failure;
use super::super::sink::{Relisted, Sink};
use super::super::stats::InformerStats;
use super::page::Page;
use super::Informer;
use crate::row::Versioned;

/// A resourceVersion older than the newest one seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Backwards {
    /// The newest resourceVersion seen before.
    pub(super) newest: u64,
    /// The older one the server answered with.
    pub(super) seen: u64,
    /// Where it was seen: `list`, `watch event`, `bookmark`, `probe`.
    pub(super) what: &'static str,
}

/// The newest resourceVersion seen and a detected step back not yet repaired.
#[derive(Debug, Default)]
pub(super) struct Newest {
    newest: Option<u64>,
    /// Set when a step back was seen; taken by the relist that repairs it.
    pub(super) pending: Option<Backwards>,
}

/// `rv` as an etcd revision, when it is one.
pub(super) fn parse(rv: &str) -> Option<u64> {
    rv.parse().ok()
}

impl Newest {
    /// `Some` when `rv` (seen in `what`) is older than the newest resourceVersion seen.
    pub(super) fn older(&self, rv: &str, what: &'static str) -> Option<Backwards> {
        let (newest, seen) = (self.newest?, parse(rv)?);
        (seen < newest).then_some(Backwards { newest, seen, what })
    }

    /// Moves the newest resourceVersion seen forward to `rv` (never back).
    pub(super) fn advance(&mut self, rv: &str) {
        if let Some(v) = parse(rv) {
            self.newest = Some(self.newest.map_or(v, |n| n.max(v)));
        }
    }

    /// After a complete list: its resourceVersion is the newest (also when it went back).
    pub(super) fn reset(&mut self, rv: &str) {
        self.newest = parse(rv);
    }

    /// True once a resourceVersion that can be compared was seen.
    pub(super) fn known(&self) -> bool {
        self.newest.is_some()
    }
}

/// The `:informers` and log line of one repair: `drift repaired: 37 removed, 3 added, 0
/// changed (resourceVersion went back from 728 to 685 in a list)`.
pub(super) fn repaired_line(back: &Backwards, relisted: Option<Relisted>) -> String {
    let what = match relisted {
        Some(r) => format!("{} removed, {} added, {} changed", r.removed, r.added, r.changed),
        None => "relisted from scratch".to_owned(),
    };
    format!(
        "drift repaired: {what} (resourceVersion went back from {} to {} in a {})",
        back.newest, back.seen, back.what
    )
}

impl Informer {
    /// Records the repair of `back` by the relist just completed: counter, `:informers` line,
    /// log.
    pub(super) fn drift_repaired<T, S: Sink<T>>(&self, sink: &S, back: &Backwards) {
        let line = repaired_line(back, sink.relisted());
        tracing::warn!(key = %self.key, "{line}");
        self.stats.drift(Instant::now(), line);
    }

    /// Before resuming a watch after a failure (the server may have restarted): one list of at
    /// most one object, whose resourceVersion is where the server stands now (a list without
    /// `resourceVersion` is a consistent read). Older than the newest seen: the server went
    /// back in time, so relist. `Err` when the probe itself failed: the caller backs off again
    /// instead of trying the watch.
    pub(super) async fn probe<T: Versioned>(&mut self) -> Result<Option<Backwards>, Failure> {
        if !self.drift.known() {
            return Ok(None);
        }
        let lp = ListParams {
            label_selector: self.key.labels.as_deref().map(str::to_owned),
            field_selector: self.key.fields.as_deref().map(str::to_owned),
            limit: Some(1),
            ..ListParams::default()
        };
        let mut req = Request::new(self.key.url_path())
            .list(&lp)
            .map_err(|e| Failure::Other(e.to_string()))?;
        if self.asks_table::<T>() {
            // Even the one object a probe lists must not bring its values.
            super::encoding::ask_table_rows(&mut req);
        }
        let (body, _) = self.send_list(req).await?;
        let page = serde_json::from_slice::<Page<serde::de::IgnoredAny>>(&body)
            .map_err(|e| Failure::Other(format!("list could not be decoded: {e}")))?;
        let rv = page.metadata.resource_version.unwrap_or_default();
        InformerStats::bump(&self.stats.probes);
        Ok(self.drift.older(&rv, "probe"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_compared_and_opaque_versions_never_called_older() {
        let mut n = Newest::default();
        assert_eq!(n.older("5", "list"), None, "nothing seen yet");
        n.advance("728");
        n.advance("700");
        assert_eq!(
            n.older("685", "list"),
            Some(Backwards {
                newest: 728,
                seen: 685,
                what: "list"
            })
        );
        assert_eq!(n.older("728", "bookmark"), None);
        assert_eq!(n.older("9000", "bookmark"), None);
        assert_eq!(n.older("opaque-1", "bookmark"), None);
        n.reset("685");
        assert_eq!(n.older("686", "watch event"), None, "a relist starts over");
        n.reset("opaque");
        assert!(!n.known());
    }

    #[test]
    fn the_line_says_what_was_repaired() {
        let back = Backwards {
            newest: 728,
            seen: 685,
            what: "list",
        };
        let r = Relisted {
            removed: 37,
            added: 3,
            changed: 0,
        };
        assert_eq!(
            repaired_line(&back, Some(r)),
            "drift repaired: 37 removed, 3 added, 0 changed (resourceVersion went back from 728 to 685 in a list)"
        );
    }
}
