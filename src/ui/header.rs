//! The two header lines: context, server, namespace; then kind, count and sync state in
//! words. Must not compute anything heavier than formatting.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::app::state::{Conn, Screen, UiState};
use crate::kube::sanitize::sanitize;
use crate::kube::sync::SyncState;
use crate::text::thousands;

use super::theme::Theme;

pub(super) fn draw(f: &mut Frame, area: Rect, state: &UiState, theme: &Theme) {
    // Until connected, the context being connected (once the kubeconfig is read) and why
    // there is no connection: the header says it whatever screen is open.
    let named = |unknown: &str| state.conn.context.clone().unwrap_or_else(|| unknown.into());
    let (ctx, server) = match &state.conn.status {
        Conn::Connected(i) => (i.context.clone(), i.server.clone()),
        Conn::Connecting => (named("…"), "connecting…".into()),
        Conn::Failed(why) => (named("-"), format!("not connected: {why}")),
    };
    // The view's namespace (a `:pods data` or a drill-down), else the session's; until the
    // kubeconfig is read the context's namespace is unknown.
    let unknown = matches!(state.conn.status, Conn::Connecting)
        && state.conn.namespace.is_none()
        && !state.conn.explicit_all
        && !state
            .top_list()
            .is_some_and(|l| l.ns_chosen || l.key.namespace.is_some());
    let ns = match state.shown_namespace() {
        _ if unknown => "…".to_owned(),
        Some(ns) => ns,
        None => "all".to_owned(),
    };
    // A union names its members; each member's state is on the list's line (a client built
    // says nothing of whether its server still answers), so this line only counts them.
    let (ctx, server) = match &state.conn.fleet {
        Some(f) => {
            let names: Vec<&str> = f.members.iter().map(|m| m.context.as_str()).collect();
            (
                format!("union of {}: {}", f.members.len(), names.join(", ")),
                format!("{} API servers", f.members.len()),
            )
        }
        None => (ctx, server),
    };
    let mut first = vec![
        Span::styled(" context: ", theme.label),
        Span::styled(sanitize(&ctx).into_owned(), theme.value),
        Span::styled("  server: ", theme.label),
        Span::styled(sanitize(&server).into_owned(), theme.value),
        Span::styled("  namespace: ", theme.label),
        Span::styled(sanitize(&ns).into_owned(), theme.value),
    ];
    if state.settings.readonly {
        first.push(Span::styled("  [read-only]", theme.warn));
    }
    // Every forward holds its local port, a broken one too: all are counted (the broken
    // ones named), so the header never hides a port ktui keeps.
    let forwarding = state.screens.layout.forwards.len();
    let broken = state
        .screens
        .layout
        .forwards
        .iter()
        .filter(|f| matches!(f.state, crate::kube::portforward::ForwardState::Broken(_)))
        .count();
    if forwarding > 0 {
        first.push(Span::styled(format!("  ⇄ {forwarding} port-forward"), theme.ok));
        if forwarding > 1 {
            first.push(Span::styled("s", theme.ok));
        }
        if broken > 0 {
            first.push(Span::styled(format!(" ({broken} broken)"), theme.warn));
        }
    }
    if let Some(b) = state.conn.registry.broken.first() {
        let more = state.conn.registry.broken.len() - 1;
        let more = if more > 0 {
            format!(" +{more}")
        } else {
            String::new()
        };
        first.push(Span::styled(
            format!("  ⚠ {}{more} unavailable", sanitize(&b.group_version)),
            theme.warn,
        ));
    }
    let second = match state.top() {
        Screen::List(l) => {
            let mut spans = vec![Span::styled(
                format!(" {}", sanitize(&l.key.kind.to_string())),
                theme.value,
            )];
            if let Some(o) = &l.origin {
                let of = if o.starts_with("owner of ") { " —" } else { " of" };
                spans.push(Span::styled(format!("{of} {}", sanitize(o)), theme.value));
            }
            if l.is_timeline() && l.object.is_none() {
                spans.push(Span::styled(" timeline", theme.value));
            }
            if let Some(sel) = &l.key.labels {
                spans.push(Span::styled(format!(" [{}]", sanitize(sel)), theme.dim));
            }
            match l.cache.snapshot() {
                Some(snap) => {
                    let count = if l.filter.is_empty() && l.cache.len() == l.cache.total() {
                        thousands(l.cache.total() as u64)
                    } else {
                        format!(
                            "{}/{}",
                            thousands(l.cache.len() as u64),
                            thousands(l.cache.total() as u64)
                        )
                    };
                    // An incomplete list has no honest count.
                    let count = match (snap.listed, snap.rows.is_empty()) {
                        (true, _) => count,
                        (false, true) => "-".to_owned(),
                        (false, false) => format!("{count}…"),
                    };
                    spans.push(Span::styled(format!("  {count}  "), theme.value));
                    let style = match snap.state {
                        SyncState::Live => theme.ok,
                        SyncState::Syncing { .. } | SyncState::Pending | SyncState::Stale { .. } => {
                            theme.warn
                        }
                        _ => theme.error,
                    };
                    if let (Some(u), Some(f)) = (&l.union, &state.conn.fleet) {
                        // A union: how many members are live, then each member, the ones
                        // that are not live first (a narrow header keeps them).
                        spans.extend(super::union::members(u, f, state.settings.icons, theme));
                    } else {
                        if state.settings.icons {
                            spans.push(Span::styled(format!("{} ", icon(&snap.state)), style));
                        }
                        spans.push(Span::styled(
                            sanitize(&snap.state.to_string()).into_owned(),
                            style,
                        ));
                    }
                    if let Some(u) = l.source.as_ref().and_then(|s| s.slot.unreadable()) {
                        spans.push(Span::styled(format!("  ⚠ {}", sanitize(&u)), theme.warn));
                    }
                    if l.new_above > 0 {
                        spans.push(Span::styled(
                            format!("  ↑ {} new", thousands(l.new_above as u64)),
                            theme.warn,
                        ));
                    }
                    if l.warnings_only {
                        spans.push(Span::styled("  [warnings only]", theme.warn));
                    }
                    if !l.marks.is_empty() {
                        let n = thousands(l.marks.len() as u64);
                        spans.push(Span::styled(format!("  {n} marked"), theme.highlight));
                    }
                }
                None => match &state.conn.status {
                    Conn::Failed(_) => spans.push(Span::styled("  not connected", theme.error)),
                    _ => spans.push(Span::styled("  waiting for the client…", theme.warn)),
                },
            }
            spans
        }
        Screen::Logs(v) => super::logs::header(v, theme, v.clock.unwrap_or_else(jiff::Timestamp::now)),
        Screen::Containers(c) => vec![Span::styled(
            format!(" containers of pod/{}", sanitize(&c.name)),
            theme.value,
        )],
        Screen::Informers { .. } => vec![Span::styled(" informers", theme.value)],
        Screen::Xray(x) => super::xray::header(x, theme),
        Screen::Forwards { .. } => vec![Span::styled(" port-forwards", theme.value)],
        Screen::Pulse(p) => super::pulse::header(p, theme),
        Screen::Revisions(r) => vec![Span::styled(
            format!(" revisions of {}", sanitize(&r.target.label())),
            theme.value,
        )],
        Screen::Contexts { .. } => vec![Span::styled(" contexts", theme.value)],
        Screen::Can(c) => vec![Span::styled(format!(" {}", sanitize(&c.question())), theme.value)],
        Screen::ApiResources { .. } => vec![Span::styled(" api-resources", theme.value)],
        Screen::Yaml(y) => {
            let state = y
                .watch
                .as_ref()
                .map(|w| w.view.load().state.to_string())
                .unwrap_or_default();
            vec![
                Span::styled(
                    match (&y.history, y.blame) {
                        (Some(_), _) => " history  ",
                        (None, true) => " blame  ",
                        (None, false) if y.describe => " describe  ",
                        (None, false) => " yaml  ",
                    },
                    theme.value,
                ),
                Span::styled(state, theme.ok),
            ]
        }
    };
    // A view opened from a union row works in that row's cluster: the header says which.
    let mut second = second;
    if let (Some(origin), Some(f)) = (state.screens.stack.pins.get(&state.top_id()), &state.conn.fleet) {
        // First: a narrow header cuts the end, and which cluster this is must stay.
        second.insert(
            0,
            Span::styled(format!(" @ {} ", sanitize(f.name(*origin))), theme.highlight),
        );
    }
    // Narrow terminals: the server URL goes before the namespace is cut; a reason for not
    // being connected stays, the namespace goes.
    if Line::from(first.clone()).width() > usize::from(area.width) && first.len() > 4 {
        match state.conn.status {
            Conn::Failed(_) => first.drain(4..6),
            _ => first.drain(2..4),
        };
    }
    // Whatever still does not fit is cut marked `…`.
    let w = usize::from(area.width);
    f.render_widget(
        Paragraph::new(vec![
            super::fit_line(Line::from(first), w),
            super::fit_line(Line::from(second), w),
        ]),
        area,
    );
}

/// A one-glyph summary of a sync state (`[ui] icons`).
pub(super) fn icon(state: &SyncState) -> &'static str {
    match state {
        SyncState::Live => "●",
        SyncState::Pending | SyncState::Syncing { .. } => "◌",
        SyncState::Reconnecting { .. } => "↻",
        SyncState::Stale { .. } => "◷",
        SyncState::Forbidden { .. } => "⊘",
        SyncState::Unreachable { .. } | SyncState::NotFound | SyncState::Rejected { .. } => "✖",
    }
}
