//! A union list's per-cluster words for the header: each member's colour tag, its row count
//! and its own state (`ktui-demo-eu 38 ● live · ktui-demo-us ✖ not connected: …`), so one
//! cluster that is slow, forbidden or gone is named while the others' rows stay. Must not
//! compute anything heavier than counting one member's rows in a namespace.

use ratatui::text::Span;

use crate::app::fleet::model::{Fleet, Link, UnionFeed};
use crate::kube::sanitize::sanitize;
use crate::kube::sync::SyncState;
use crate::text::thousands;

use super::theme::{tag, Theme};

/// The spans after the union list's own count and state.
pub(super) fn members(u: &UnionFeed, f: &Fleet, theme: &Theme) -> Vec<Span<'static>> {
    let mut spans = vec![Span::styled("  │", theme.dim)];
    for (i, m) in f.members.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" ·", theme.dim));
        }
        spans.push(Span::styled(format!(" {}", sanitize(&m.context)), tag(theme, i)));
        let feed = u.members.iter().find(|x| x.origin == m.origin);
        let source = feed.and_then(|x| x.source.as_ref());
        let (words, style) = match (&m.status, source) {
            (Link::Failed(why), _) => (format!("not connected: {why}"), theme.error),
            (Link::Connecting, _) => ("connecting…".to_owned(), theme.warn),
            (Link::Connected, None) => ("subscribing…".to_owned(), theme.warn),
            (Link::Connected, Some(src)) => {
                let snap = src.slot.load();
                let n = match src.filter_ns.as_deref() {
                    Some(ns) => snap
                        .rows
                        .iter()
                        .filter(|r| r.namespace.as_deref() == Some(ns))
                        .count(),
                    None => snap.rows.len(),
                };
                let count = match snap.listed {
                    true => thousands(n as u64),
                    false => format!("{}…", thousands(n as u64)),
                };
                let style = match snap.state {
                    SyncState::Live => theme.ok,
                    SyncState::Syncing { .. } | SyncState::Pending | SyncState::Stale { .. } => theme.warn,
                    _ => theme.error,
                };
                // A kind some members do not serve (a CRD installed in some clusters only).
                let words = match snap.state {
                    SyncState::NotFound => "not served".to_owned(),
                    ref s => s.to_string(),
                };
                (
                    format!("{count} {} {words}", super::header::icon(&snap.state)),
                    style,
                )
            }
        };
        spans.push(Span::styled(format!(" {}", sanitize(&words)), style));
    }
    spans
}
