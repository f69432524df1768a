//! A union list's per-cluster words for the header: how many members are live, then each
//! member with its colour tag, row count and own state — those that are not live first, in
//! words (`ktui-demo-us ✖ not connected: …`), then the live ones (`ktui-demo-eu 38`) — so a
//! cluster that is slow, forbidden or gone is named first while the others' rows stay, and a
//! narrow header cuts live members before a failing one. Must not compute anything heavier
//! than counting one member's rows in a namespace.

use ratatui::style::Style;
use ratatui::text::Span;

use crate::app::fleet::model::{Fleet, Link, UnionFeed};
use crate::kube::sanitize::sanitize;
use crate::kube::sync::SyncState;
use crate::text::thousands;

use super::theme::{tag, Theme};

/// One member as the header says it.
struct Said {
    place: usize,
    name: String,
    count: Option<String>,
    /// `None` when live.
    trouble: Option<(String, Style, &'static str)>,
}

/// What member `m` (at `place` in the union) shows of itself.
fn said(u: &UnionFeed, m: &crate::app::fleet::model::Member, place: usize, theme: &Theme) -> Said {
    let source = u
        .members
        .iter()
        .find(|x| x.origin == m.origin)
        .and_then(|x| x.source.as_ref());
    let name = sanitize(&m.context).into_owned();
    let (count, trouble) = match (&m.status, source) {
        (Link::Failed(why), _) => (None, Some((format!("not connected: {why}"), theme.error, "✖"))),
        (Link::Connecting, _) => (None, Some(("connecting…".to_owned(), theme.warn, "◌"))),
        (Link::Connected, None) => (None, Some(("subscribing…".to_owned(), theme.warn, "◌"))),
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
                SyncState::Syncing { .. } | SyncState::Pending | SyncState::Stale { .. } => theme.warn,
                _ => theme.error,
            };
            // A kind some members do not serve (a CRD installed in some clusters only).
            let words = match snap.state {
                SyncState::Live => None,
                SyncState::NotFound => Some("not served".to_owned()),
                ref s => Some(s.to_string()),
            };
            let icon = super::header::icon(&snap.state);
            (Some(count), words.map(|w| (w, style, icon)))
        }
    };
    Said {
        place,
        name,
        count,
        trouble,
    }
}

/// The spans after the union list's count: `● 2/3 live  │ us ✖ not connected: … · eu 38 ·
/// demo 41`.
pub(super) fn members(u: &UnionFeed, f: &Fleet, icons: bool, theme: &Theme) -> Vec<Span<'static>> {
    let mut all: Vec<Said> = f
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| said(u, m, i, theme))
        .collect();
    let live = all.iter().filter(|s| s.trouble.is_none()).count();
    let style = if live == all.len() { theme.ok } else { theme.warn };
    let mut spans = Vec::new();
    if icons {
        spans.push(Span::styled(if live == all.len() { "● " } else { "◑ " }, style));
    }
    spans.push(Span::styled(format!("{live}/{} live  │", all.len()), style));
    // Not live first, each in the union's order.
    all.sort_by_key(|s| (s.trouble.is_none(), s.place));
    for (i, s) in all.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" ·", theme.dim));
        }
        spans.push(Span::styled(format!(" {}", s.name), tag(theme, s.place)));
        if let Some(c) = &s.count {
            spans.push(Span::styled(format!(" {c}"), theme.value));
        }
        if let Some((words, style, icon)) = &s.trouble {
            let icon = if icons { format!(" {icon}") } else { String::new() };
            spans.push(Span::styled(format!("{icon} {}", sanitize(words)), *style));
        }
    }
    spans
}
