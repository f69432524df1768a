//! Streaming lists (KEP-3157 "WatchList": a watch with `sendInitialEvents=true`,
//! `resourceVersionMatch=NotOlderThan`, `resourceVersion=""` streams the current objects as
//! events, then one BOOKMARK annotated `k8s.io/initial-events-end: "true"` whose
//! resourceVersion the watch goes on from), and the rules that decide between them and paged
//! lists: which answers mean the server refused or ignored the request, and the context's
//! memory of that for the session ([`StreamingLists`]). Owns those decisions; must not do I/O.
//!
//! The rules (kube-apiserver v1.37 `storage/cacher/cache_watcher.go` is the model):
//! - 400 or 422 to the request: the server does not accept the parameter (422 is what a
//!   server with the WatchList feature gate off answers). This informer lists paged at once;
//!   the refusal is remembered for the context only once that paged list succeeds (a 400 may
//!   be the informer's own bad selector, which the paged list then shows as `rejected`).
//! - 403: RBAC forbids the watch (the list may still be allowed): this informer lists paged
//!   (its watch then reports the 403 as before); nothing is remembered for the context.
//! - A bookmark without the annotation before the end: the server ignored
//!   `sendInitialEvents` (a server that knows it annotates its first bookmark to such a
//!   watch; older ones send plain bookmarks, about once a minute) — remembered.
//! - No event for [`InformerConfig::streaming_idle`] before the end bookmark (an old server
//!   sends the objects, then only changes, and may send no bookmark at all): remembered.
//! - The stream ending cleanly before the end bookmark (a server shutting down does that):
//!   retried after the backoff; [`EARLY_ENDS`] in a row are remembered as a refusal.
//! - ADDED, MODIFIED and DELETED before the end bookmark all belong to the initial state (the
//!   server may send changes newer than its snapshot before the bookmark, as client-go's
//!   reflector expects): they are applied to the relist buffer, never shown half-done.
//!
//! [`InformerConfig::streaming_idle`]: super::InformerConfig::streaming_idle

use std::collections::HashMap;
use std::sync::Mutex;

use kube::api::WatchEvent;

/// The annotation that marks a streaming list's end bookmark.
pub const INITIAL_EVENTS_END: &str = "k8s.io/initial-events-end";

/// Clean stream ends before the end bookmark, in a row, after which the context is
/// remembered as not streaming.
pub(super) const EARLY_ENDS: u32 = 3;

/// How a complete (re)list was fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListMethod {
    /// One watch with `sendInitialEvents=true` (served from the watch cache).
    Streamed,
    /// `limit`/`continue` pages.
    Paged,
}

impl std::fmt::Display for ListMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ListMethod::Streamed => "streamed",
            ListMethod::Paged => "paged",
        })
    }
}

/// One context's memory, for the session, of the API groups whose server refused or ignored
/// streaming lists, shared by all the context's informers through their
/// `InformerConfig::streaming` (so that a hundred informers do not each find out again).
/// Keyed by API group ("" for the core group): an aggregated API server may differ from the
/// main one.
#[derive(Debug, Default)]
pub struct StreamingLists {
    refused: Mutex<HashMap<String, String>>,
}

impl StreamingLists {
    /// Why `group` lists paged, if its server refused or ignored a streaming list.
    pub fn refusal(&self, group: &str) -> Option<String> {
        match self.refused.lock() {
            Ok(g) => g.get(group).cloned(),
            Err(p) => p.into_inner().get(group).cloned(),
        }
    }

    /// Remembers that `group`'s server does not stream lists, because of `why` (the first
    /// reason is kept).
    pub fn refuse(&self, group: &str, why: String) {
        tracing::info!(group, %why, "streaming lists off for this API group");
        let mut g = match self.refused.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        g.entry(group.to_owned()).or_insert(why);
    }
}

/// What an HTTP error answer to a streaming-list request means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refusal {
    /// 400/422: the server does not take the parameter; remembered for the context once a
    /// paged list of the same key succeeds.
    Server,
    /// 403: the watch is forbidden; this informer lists paged.
    Informer,
}

/// The refusal an answer with HTTP `code` is, if it is one (other codes are failures the loop
/// retries as it retries any watch).
pub(super) fn refusal(code: u16) -> Option<Refusal> {
    match code {
        400 | 422 => Some(Refusal::Server),
        403 => Some(Refusal::Informer),
        _ => None,
    }
}

/// What one event of a streaming list means before its end bookmark.
#[derive(Debug)]
pub(super) enum Initial<T> {
    /// ADDED or MODIFIED: the object is part of the state being listed.
    Upsert(T),
    /// DELETED: the object is not.
    Remove(T),
    /// The end bookmark: the list is complete at this resourceVersion.
    End(String),
    /// A bookmark without the annotation: the server ignored `sendInitialEvents`.
    Ignored,
    /// An ERROR event (its code and message).
    Error(u16, String),
}

/// Reads one event of a streaming list before its end (see the module doc).
pub(super) fn initial<T>(event: WatchEvent<T>) -> Initial<T> {
    match event {
        WatchEvent::Added(o) | WatchEvent::Modified(o) => Initial::Upsert(o),
        WatchEvent::Deleted(o) => Initial::Remove(o),
        WatchEvent::Bookmark(bm) => {
            let end = bm
                .metadata
                .annotations
                .get(INITIAL_EVENTS_END)
                .is_some_and(|v| v == "true");
            if end {
                Initial::End(bm.metadata.resource_version)
            } else {
                Initial::Ignored
            }
        }
        WatchEvent::Error(e) => Initial::Error(e.code, e.message),
    }
}

/// The API group of a collection path (`/api/v1/...` → "", `/apis/apps/v1/...` → "apps").
pub(super) fn group_of(url_path: &str) -> &str {
    match url_path.strip_prefix("/apis/") {
        Some(rest) => rest.split('/').next().unwrap_or(""),
        None => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube::core::watch::{Bookmark, BookmarkMeta};

    fn bookmark(rv: &str, annotations: &[(&str, &str)]) -> WatchEvent<u8> {
        WatchEvent::Bookmark(Bookmark {
            types: Default::default(),
            metadata: BookmarkMeta {
                resource_version: rv.into(),
                annotations: annotations
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                    .collect(),
            },
        })
    }

    #[test]
    fn only_the_annotated_bookmark_ends_the_list() {
        assert!(matches!(
            initial(bookmark("42", &[(INITIAL_EVENTS_END, "true")])),
            Initial::End(rv) if rv == "42"
        ));
        // A plain bookmark first: the server did not understand the request.
        assert!(matches!(initial(bookmark("42", &[])), Initial::Ignored));
        assert!(matches!(
            initial(bookmark("42", &[(INITIAL_EVENTS_END, "false")])),
            Initial::Ignored
        ));
        assert!(matches!(
            initial(bookmark("42", &[("other", "true")])),
            Initial::Ignored
        ));
    }

    #[test]
    fn changes_before_the_end_belong_to_the_initial_state() {
        assert!(matches!(initial(WatchEvent::Added(1u8)), Initial::Upsert(1)));
        assert!(matches!(initial(WatchEvent::Modified(2u8)), Initial::Upsert(2)));
        assert!(matches!(initial(WatchEvent::Deleted(3u8)), Initial::Remove(3)));
    }

    #[test]
    fn which_answers_are_refusals() {
        assert_eq!(refusal(422), Some(Refusal::Server));
        assert_eq!(refusal(400), Some(Refusal::Server));
        assert_eq!(refusal(403), Some(Refusal::Informer));
        for code in [401, 404, 410, 429, 500, 503] {
            assert_eq!(refusal(code), None, "{code}");
        }
    }

    #[test]
    fn the_memory_is_per_group_and_keeps_the_first_reason() {
        let m = StreamingLists::default();
        assert_eq!(m.refusal(""), None);
        m.refuse("", "422: no".into());
        m.refuse("", "later".into());
        assert_eq!(m.refusal("").as_deref(), Some("422: no"));
        assert_eq!(m.refusal("apps"), None);
    }

    #[test]
    fn groups_of_paths() {
        assert_eq!(group_of("/api/v1/namespaces/a/pods"), "");
        assert_eq!(group_of("/apis/apps/v1/deployments"), "apps");
        assert_eq!(group_of("/apis/metrics.k8s.io/v1beta1/pods"), "metrics.k8s.io");
    }
}
