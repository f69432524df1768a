//! Timeline extras: the events-per-minute sparkline (last hour, Warnings distinct from
//! Normal) and the detail overlay of one event. Read-only over rows; must not change state.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::kube::row::{Row, UnixSecs};
use crate::kube::sanitize::sanitize;
use crate::table::format::{age, format_cell};

use super::theme::Theme;

/// Minutes shown by the sparkline.
pub const MINUTES: usize = 60;

/// Events per minute over the last hour by LAST SEEN: `(normal, warning)` per minute, oldest
/// first. Events older than an hour or without a time are not counted.
pub fn per_minute(rows: &[std::sync::Arc<Row>], now: UnixSecs) -> [(u32, u32); MINUTES] {
    let mut buckets = [(0u32, 0u32); MINUTES];
    for r in rows {
        let Some(ev) = r.event.as_deref() else { continue };
        let Some(t) = ev.last_seen else { continue };
        let ago = now - t;
        if !(0..(MINUTES as i64 * 60)).contains(&ago) {
            continue;
        }
        let i = MINUTES - 1 - (ago / 60) as usize;
        if ev.warning {
            buckets[i].1 += 1;
        } else {
            buckets[i].0 += 1;
        }
    }
    buckets
}

/// One line: `events/min (1h) ▁▂▅█… max 12/min`, each minute a bar scaled to the busiest,
/// in the warn style when that minute had Warnings.
pub fn sparkline(buckets: &[(u32, u32); MINUTES], theme: &Theme) -> Line<'static> {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let max = buckets.iter().map(|(n, w)| n + w).max().unwrap_or(0);
    let mut spans = vec![Span::styled(" events/min (1h) ", theme.dim)];
    for (n, w) in buckets {
        let total = n + w;
        let ch = if total == 0 {
            ' '
        } else {
            BARS[((total as usize * BARS.len()).div_ceil(max.max(1) as usize)).clamp(1, BARS.len()) - 1]
        };
        let style = if *w > 0 { theme.warn } else { theme.ok };
        spans.push(Span::styled(ch.to_string(), style));
    }
    let warnings: u32 = buckets.iter().map(|(_, w)| w).sum();
    spans.push(Span::styled(
        format!(" max {max}/min, {warnings} warnings"),
        theme.dim,
    ));
    Line::from(spans)
}

/// The detail overlay of one event: every column plus the whole message.
pub fn detail(f: &mut Frame, area: Rect, row: &Row, headers: &[&str], now: UnixSecs, theme: &Theme) {
    let mut lines = Vec::new();
    let label = |s: &str| Span::styled(format!("{s:<14}"), theme.label);
    lines.push(Line::from(vec![label("NAME"), Span::raw(row.name.to_string())]));
    if let Some(ns) = &row.namespace {
        lines.push(Line::from(vec![label("NAMESPACE"), Span::raw(ns.to_string())]));
    }
    for (h, c) in headers.iter().zip(row.cells.iter()) {
        if *h == "MESSAGE" {
            continue;
        }
        lines.push(Line::from(vec![
            label(h),
            Span::raw(format_cell(c, now).into_owned()),
        ]));
    }
    if let Some(ev) = row.event.as_deref() {
        let o = &ev.involved;
        let ns = o
            .namespace
            .as_deref()
            .map(|n| format!("{n}/"))
            .unwrap_or_default();
        lines.push(Line::from(vec![
            label("INVOLVED"),
            Span::raw(format!("{}/{ns}{} {}", o.kind, o.name, o.uid)),
        ]));
        let at = ev.last_seen.and_then(|t| jiff::Timestamp::from_second(t).ok());
        let at = at.map_or_else(
            || "<unknown>".to_owned(),
            |t| format!("{t} ({} ago)", age(Some(t.as_second()), now)),
        );
        lines.push(Line::from(vec![label("LAST SEEN AT"), Span::raw(at)]));
        if ev.expired {
            lines.push(Line::from(Span::styled(
                "no longer on the server (deleted or expired)",
                theme.dim,
            )));
        }
        lines.push(Line::from(""));
        for l in ev.message.lines() {
            lines.push(Line::from(sanitize(l).into_owned()));
        }
    }
    let popup = super::centered(
        area,
        area.width.saturating_sub(8).max(20).min(area.width),
        lines.len() as u16 + 2,
    );
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(" event (any key closes) ");
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(block),
        popup,
    );
}
