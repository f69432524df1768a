//! The detail overlay of one list row (`v` on any row, `enter` on an event): NAME, NAMESPACE
//! and every column of the kind (wide ones too) in full, wrapped, plus an event's involved
//! object, exact time and whole message; scrolled by the loop's `detail_scroll`, clamped to
//! the content here. Read-only; must not change state.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::state::UiState;
use crate::kube::row::{Row, UnixSecs};
use crate::kube::sanitize::sanitize;
use crate::table::format::{age, format_cell};
use crate::view::cut::width;

use super::theme::Theme;

/// Width of the label column.
const LABEL: usize = 14;

/// The overlay's lines for `row` (headers are the kind's columns, index for index).
fn lines(row: &Row, headers: &[&str], now: UnixSecs, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let label = |s: &str| Span::styled(format!("{s:<LABEL$}"), theme.label);
    lines.push(Line::from(vec![label("NAME"), Span::raw(row.name.to_string())]));
    if let Some(ns) = &row.namespace {
        lines.push(Line::from(vec![label("NAMESPACE"), Span::raw(ns.to_string())]));
    }
    let event = row.event.as_deref();
    for (h, c) in headers.iter().zip(row.cells.iter()) {
        if *h == "MESSAGE" && event.is_some() {
            continue;
        }
        lines.push(Line::from(vec![
            label(h),
            Span::raw(format_cell(c, now).into_owned()),
        ]));
    }
    if let Some(ev) = event {
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
    lines
}

/// Rows `lines` take when wrapped at `w` cells (at least one per line).
fn wrapped(lines: &[Line], w: usize) -> usize {
    let w = w.max(1);
    lines
        .iter()
        .map(|l| {
            let lw: usize = l.spans.iter().map(|s| width(&s.content)).sum();
            lw.div_ceil(w).max(1)
        })
        .sum()
}

/// Where the overlay goes in `area` and how many rows its content takes there.
fn geometry(area: Rect, lines: &[Line]) -> (Rect, usize) {
    let w = area.width.saturating_sub(8).max(20).min(area.width);
    let content = wrapped(lines, usize::from(w.saturating_sub(2)));
    let h = u16::try_from(content + 2).unwrap_or(u16::MAX).min(area.height);
    (super::centered(area, w, h), content)
}

/// The kind's column headers of the list on top, for the overlay.
fn headers(state: &UiState) -> Vec<String> {
    state.top_list().map_or_else(Vec::new, |l| {
        crate::table::spec(&l.key.kind)
            .columns
            .iter()
            .map(|c| c.header.to_string())
            .collect()
    })
}

/// The furthest the overlay can scroll on a screen of `area` (0 when it is closed or fits):
/// the loop stores it before each draw so `update` can clamp the scroll keys.
pub fn max_scroll(area: Rect, state: &UiState, now: UnixSecs, theme: &Theme) -> u16 {
    let Some(row) = &state.screens.detail else {
        return 0;
    };
    let headers = headers(state);
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let lines = lines(row, &headers, now, theme);
    let (popup, content) = geometry(area, &lines);
    let shown = usize::from(popup.height.saturating_sub(2));
    u16::try_from(content.saturating_sub(shown)).unwrap_or(u16::MAX)
}

/// Draws the overlay of `state.screens.detail`, if open.
pub fn draw(f: &mut Frame, area: Rect, state: &UiState, now: UnixSecs, theme: &Theme) {
    let Some(row) = &state.screens.detail else { return };
    let headers = headers(state);
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let lines = lines(row, &headers, now, theme);
    let (popup, content) = geometry(area, &lines);
    let shown = usize::from(popup.height.saturating_sub(2));
    let max = content.saturating_sub(shown);
    let scroll = usize::from(state.screens.detail_scroll).min(max);
    let what = if row.event.is_some() { "event" } else { "row" };
    let more = if max > 0 {
        format!(" {}/{} ↑↓ scroll", scroll + shown, content)
    } else {
        String::new()
    };
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(format!(" {what}{more} · other keys close "));
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0))
            .block(block),
        popup,
    );
}
