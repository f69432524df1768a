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

/// One line in `width` cells: `events/min (1h) ▁▂▅█… max 12/min, 2 warnings`, each minute a
/// bar scaled to the busiest of those shown, in the warn style when that minute had
/// Warnings. A narrow terminal shows the latest minutes that fit (`events/min (20m)`),
/// never a cut label.
pub fn sparkline(buckets: &[(u32, u32); MINUTES], theme: &Theme, width: usize) -> Line<'static> {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let warnings_of = |b: &[(u32, u32)]| b.iter().map(|(_, w)| w).sum::<u32>();
    let max_of = |b: &[(u32, u32)]| b.iter().map(|(n, w)| n + w).max().unwrap_or(0);
    let suffix = |b: &[(u32, u32)]| format!(" max {}/min, {} warnings", max_of(b), warnings_of(b));
    // The label and suffix at their widest (two-digit minutes), then as many bars as fit.
    let fixed = " events/min (60m) ".len() + suffix(buckets).len();
    let shown = width.saturating_sub(fixed).min(MINUTES);
    let recent = &buckets[MINUTES - shown..];
    let label = if shown == MINUTES {
        " events/min (1h) ".to_owned()
    } else {
        format!(" events/min ({shown}m) ")
    };
    let max = max_of(recent);
    let mut spans = vec![Span::styled(label, theme.dim)];
    for (n, w) in recent {
        let total = n + w;
        let ch = if total == 0 {
            ' '
        } else {
            BARS[((total as usize * BARS.len()).div_ceil(max.max(1) as usize)).clamp(1, BARS.len()) - 1]
        };
        let style = if *w > 0 { theme.warn } else { theme.ok };
        spans.push(Span::styled(ch.to_string(), style));
    }
    spans.push(Span::styled(suffix(recent), theme.dim));
    super::fit_line(Line::from(spans), width)
}
