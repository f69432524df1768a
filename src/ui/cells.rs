//! The detail overlay of one list row (`v` on any row, `enter` on an event): NAME, NAMESPACE
//! and every column of the kind (wide ones too) in full, wrapped, plus an event's involved
//! and related objects, action, exact time and whole message; wrapped (`w`: else shifted by `detail_hscroll`) and
//! scrolled by `detail_scroll`, both clamped to the content here. Read-only; must not change state.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::app::state::UiState;
use crate::kube::row::{ObjRef, Row, UnixSecs};
use crate::kube::sanitize::sanitize;
use crate::table::format::{age, format_cell};
use crate::view::cut::width;

use super::theme::Theme;

/// The labels an event adds after the kind's columns.
const EVENT_LABELS: [&str; 4] = ["INVOLVED", "RELATED", "ACTION", "LAST SEEN AT"];

/// The label column's width: the longest label shown and one cell of gap, so every value
/// starts in the same column and none is glued to its name (`NOMINATED NODE <none>`).
fn label_width(headers: &[&str], event: bool) -> usize {
    let extra: &[&str] = if event { &EVENT_LABELS } else { &[] };
    ["NAME", "NAMESPACE"]
        .iter()
        .chain(headers)
        .chain(extra)
        .map(|h| width(h))
        .max()
        .unwrap_or(0)
        + 2
}

/// The overlay's lines for `row` (headers are the kind's columns, index for index).
fn lines(row: &Row, headers: &[&str], now: UnixSecs, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let lw = label_width(headers, row.event.is_some());
    let label = |s: &str| Span::styled(format!("{s:<lw$}"), theme.label);
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
        let object = |o: &ObjRef| {
            let ns = o
                .namespace
                .as_deref()
                .map(|n| format!("{n}/"))
                .unwrap_or_default();
            format!("{}/{ns}{} {}", o.kind, o.name, o.uid)
                .trim_end()
                .to_owned()
        };
        lines.push(Line::from(vec![
            label("INVOLVED"),
            Span::raw(object(&ev.involved)),
        ]));
        if let Some(r) = &ev.related {
            lines.push(Line::from(vec![label("RELATED"), Span::raw(object(r))]));
        }
        if let Some(a) = &ev.action {
            lines.push(Line::from(vec![label("ACTION"), Span::raw(a.to_string())]));
        }
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

/// The usage trend of `row` when the list on top shows usage and holds samples of it: a CPU
/// and a memory chart over the samples held (see `usage_graph`), `width` cells wide.
fn usage_lines(state: &UiState, row: &Row, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    use crate::app::usage::compute::{allocatable, cpu_text, demands, memory_text};
    let Some(snap) = state.top_list().and_then(|l| l.usage.as_ref()).map(|u| u.load()) else {
        return Vec::new();
    };
    let Some(series) = snap.get(row.namespace.as_deref(), &row.name) else {
        return Vec::new();
    };
    let samples: Vec<_> = series.samples().copied().collect();
    let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
        return Vec::new();
    };
    let span = crate::table::format::human_duration(last.timestamp.saturating_sub(first.timestamp));
    let heading = format!(
        "USAGE  {} sample{} over {span}, since ktui started watching{}",
        samples.len(),
        if samples.len() == 1 { "" } else { "s" },
        if snap.is_stale(tokio::time::Instant::now()) {
            " (stale)"
        } else {
            ""
        },
    );
    let capacity = row.capacity.as_deref();
    let d = demands(capacity);
    let (alloc_cpu, alloc_mem) = allocatable(capacity);
    let named = |pairs: [(&'static str, Option<u64>); 2], fmt: fn(u64) -> String| {
        pairs
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k, fmt(v))))
            .collect::<Vec<_>>()
    };
    let cpu_extra = named([("request", d.cpu_request), ("limit", d.cpu_limit)], cpu_text);
    let mem_extra = named(
        [("request", d.memory_request), ("limit", d.memory_limit)],
        memory_text,
    );
    let cpu_extra = [
        cpu_extra,
        named([("allocatable", alloc_cpu), ("", None)], cpu_text),
    ]
    .concat();
    let mem_extra = [
        mem_extra,
        named([("allocatable", alloc_mem), ("", None)], memory_text),
    ]
    .concat();
    let cpu: Vec<u64> = samples.iter().map(|s| s.usage.cpu_nanos).collect();
    let mem: Vec<u64> = samples.iter().map(|s| s.usage.memory_bytes).collect();
    let mut out = vec![Line::from(""), Line::from(Span::styled(heading, theme.label))];
    out.extend(super::usage_graph::chart(
        "CPU", &cpu, cpu_text, &cpu_extra, width, theme,
    ));
    out.extend(super::usage_graph::chart(
        "MEMORY",
        &mem,
        memory_text,
        &mem_extra,
        width,
        theme,
    ));
    out
}

/// The lines as drawn at `cols` cells: wrapped, or shifted sideways.
fn laid_out(lines: Vec<Line<'static>>, cols: usize, state: &UiState) -> Vec<Line<'static>> {
    let o = &state.screens.overlays;
    super::wrap::fit(lines, cols, o.detail_wrap, usize::from(o.detail_hscroll))
}

/// Where the overlay goes in `area`, its inner width, and its lines as drawn there.
fn geometry(area: Rect, lines: Vec<Line<'static>>, state: &UiState) -> (Rect, usize, Vec<Line<'static>>) {
    let w = area.width.saturating_sub(8).max(20).min(area.width);
    let cols = usize::from(w.saturating_sub(2)).max(1);
    let widest = lines
        .iter()
        .map(|l| l.spans.iter().map(|s| width(&s.content)).sum::<usize>())
        .max()
        .unwrap_or(0);
    let drawn = laid_out(lines, cols, state);
    let h = u16::try_from(drawn.len() + 2)
        .unwrap_or(u16::MAX)
        .min(area.height);
    (super::centered(area, w, h), widest.saturating_sub(cols), drawn)
}

/// The kind's column headers of the list on top (a container's in the containers view),
/// for the overlay.
fn headers(state: &UiState) -> Vec<String> {
    if let crate::app::state::Screen::Containers(_) = state.top() {
        let heads = crate::app::containers::model::HEADERS;
        return heads.iter().skip(1).map(|h| (*h).to_owned()).collect();
    }
    state.top_list().map_or_else(Vec::new, |l| {
        crate::table::spec(&l.key.kind)
            .columns
            .iter()
            .map(|c| c.header.to_string())
            .collect()
    })
}

/// How far the overlay can scroll on a screen of `area`, down and right (0 when it is
/// closed or fits): the loop stores them before each draw so `update` can clamp the keys.
pub fn max_scroll(area: Rect, state: &UiState, now: UnixSecs, theme: &Theme) -> (u16, u16) {
    let Some(row) = &state.screens.overlays.detail else {
        return (0, 0);
    };
    let headers = headers(state);
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let mut all = lines(row, &headers, now, theme);
    all.extend(usage_lines(
        state,
        row,
        usize::from(area.width.saturating_sub(10)),
        theme,
    ));
    let (popup, hmax, drawn) = geometry(area, all, state);
    let shown = usize::from(popup.height.saturating_sub(2));
    let down = u16::try_from(drawn.len().saturating_sub(shown)).unwrap_or(u16::MAX);
    let right = if state.screens.overlays.detail_wrap {
        0
    } else {
        u16::try_from(hmax).unwrap_or(u16::MAX)
    };
    (down, right)
}

/// Draws the overlay of `state.screens.overlays.detail`, if open.
pub fn draw(f: &mut Frame, area: Rect, state: &UiState, now: UnixSecs, theme: &Theme) {
    let Some(row) = &state.screens.overlays.detail else {
        return;
    };
    let headers = headers(state);
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let mut all = lines(row, &headers, now, theme);
    all.extend(usage_lines(
        state,
        row,
        usize::from(area.width.saturating_sub(10)),
        theme,
    ));
    let (popup, hmax, drawn) = geometry(area, all, state);
    let content = drawn.len();
    let shown = usize::from(popup.height.saturating_sub(2));
    let max = content.saturating_sub(shown);
    let scroll = usize::from(state.screens.overlays.detail_scroll).min(max);
    let what = if row.event.is_some() { "event" } else { "row" };
    let mut more = if max > 0 {
        format!(" {}/{} ↑↓ scroll", scroll + shown, content)
    } else {
        String::new()
    };
    if state.screens.overlays.detail_wrap {
        more.push_str(" · w: unwrap");
    } else if hmax > 0 {
        more.push_str(" · ←→ · w: wrap");
    }
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(format!(" {what}{more} · other keys close "));
    let visible: Vec<Line> = drawn.into_iter().skip(scroll).take(shown).collect();
    f.render_widget(Paragraph::new(visible).block(block), popup);
}
