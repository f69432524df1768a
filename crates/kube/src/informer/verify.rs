//! Drift repair, part two: the periodic verification of a long-lived informer. Every
//! `verify_every`, between two watches (the store then stands exactly at the watch's
//! resourceVersion N), a plain paged list is compared with the store: objects listed at or
//! below N must be held exactly so (missing or different ones are put right at once), keys
//! held but not listed are ghost candidates, removed once the watch resumed from N has passed
//! the list's resourceVersion without deleting them. Owns that comparison's timing; must not
//! decide what a row is (the sink compares).
//!
//! A plain list (whole objects, decoded as the informer's type) rather than
//! `PartialObjectMetadata`: the store keeps rows, not resourceVersions, so the check compares
//! rows built from the listed objects, which needs the objects.

use std::time::Instant;

use super::super::row::Versioned;
use super::super::sink::Sink;
use super::super::store::ObjKey;
use super::drift::{self, Backwards};
use super::{Informer, Phase};

/// A verification waiting for the watch to pass its list's resourceVersion.
#[derive(Debug)]
pub(super) struct GhostCheck {
    /// The verifying list's resourceVersion.
    pub(super) upto: u64,
    /// Keys held but not listed.
    pub(super) candidates: Vec<ObjKey>,
    /// What the verification already put right.
    pub(super) added: usize,
    pub(super) changed: usize,
}

impl Informer {
    /// True when a verification is due at this clean watch end.
    pub(super) fn verify_due(&self) -> bool {
        !self.config.verify_every.is_zero() && self.verified.elapsed() >= self.config.verify_every
    }

    /// Lists every page and compares it with the store (see the module doc); then watches
    /// from `resume` again. A failed page ends the verification quietly (the next one is
    /// due `verify_every` later); a list older than `resume` is a step back: relist.
    pub(super) async fn verify<T: Versioned, S: Sink<T>>(&mut self, sink: &mut S, resume: String) -> Phase {
        self.verified = Instant::now();
        let watch = |rv: String| Phase::Watching { resource_version: rv };
        let Some(upto) = drift::parse(&resume) else {
            return watch(resume);
        };
        // Undecodable objects are the list's business; a verification leaves its line alone.
        let skipped = std::mem::take(&mut self.skipped);
        let mut listed = Vec::new();
        let mut token = None;
        let list_rv = loop {
            match self.fetch_page::<T>(token.take()).await {
                Ok(page) => {
                    listed.extend(page.items.into_iter().map(|o| {
                        let rv = o.version().and_then(drift::parse);
                        (o, rv)
                    }));
                    match page.metadata.continue_.filter(|c| !c.is_empty()) {
                        Some(c) => token = Some(c),
                        None => break page.metadata.resource_version,
                    }
                }
                Err(f) => {
                    tracing::debug!(key = %self.key, failure = ?f, "verification list failed; next time");
                    self.retry_after = None;
                    break None;
                }
            }
        };
        self.skipped = skipped;
        let Some(at) = list_rv.as_deref().and_then(drift::parse) else {
            return watch(resume);
        };
        if at < upto {
            self.drift.pending = Some(Backwards {
                newest: upto,
                seen: at,
                what: "verifying list",
            });
            return Phase::Listing { continue_token: None };
        }
        if let Some(v) = sink.verify(listed, upto) {
            sink.publish();
            self.ghosts = Some(GhostCheck {
                upto: at,
                candidates: v.candidates,
                added: v.added,
                changed: v.changed,
            });
            if at == upto {
                // Nothing can have been deleted between the store's state and the list.
                self.ghosts_checked(sink);
            }
        }
        watch(resume)
    }

    /// The watch reached the verifying list's resourceVersion: candidates still held are
    /// ghosts. Removes them and names the repair, if there was one.
    pub(super) fn ghosts_checked<T, S: Sink<T>>(&mut self, sink: &mut S) {
        let Some(check) = self.ghosts.take() else {
            return;
        };
        let removed = sink.remove_ghosts(&check.candidates);
        if removed + check.added + check.changed == 0 {
            tracing::debug!(key = %self.key, "verified: no drift");
            return;
        }
        sink.publish();
        let line = format!(
            "drift repaired: {removed} removed, {} added, {} changed (periodic verification)",
            check.added, check.changed
        );
        tracing::warn!(key = %self.key, "{line}");
        self.stats.drift(Instant::now(), line);
    }
}
