//! Timeline extras: the events-per-minute sparkline (last hour, Warnings distinct from
//! Normal). Read-only over rows; must not change state.

use ratatui::text::{Line, Span};

use crate::kube::row::UnixSecs;

use super::theme::Theme;

/// Minutes shown by the sparkline.
pub const MINUTES: usize = 60;

/// Events per minute over the last hour by LAST SEEN: `(normal, warning)` per minute, oldest
/// first. Events older than an hour or without a time are not counted.
pub fn per_minute(rows: &crate::kube::rows::Rows, now: UnixSecs) -> [(u32, u32); MINUTES] {
    let mut buckets = [(0u32, 0u32); MINUTES];
    for r in rows.iter() {
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
