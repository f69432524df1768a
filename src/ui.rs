//! Drawing: read-only over [`UiState`], snapshots and the theme. Owns layout; must not change
//! state or wait on anything. What the loop must know before a frame (the page size for
//! paging keys) comes from [`page_rows`], computed from the same layout before drawing;
//! what only the loop can read (the informer pool's rows) is passed in.

mod api_resources;
mod can;
mod cells;
mod containers;
mod context;
mod detail;
mod fit_table;
mod forwards;
mod header;
mod help;
mod hints;
mod history;
mod informers;
mod list;
mod logs;
mod metrics_polls;
mod pulse;
pub mod theme;
pub mod timeline;
mod union;
mod usage;
mod usage_graph;
mod wrap;
mod writes;
mod xray;

use std::time::Duration;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::app::state::{Prompt, Screen, UiState};
use crate::kube::pool::InformerInfo;
use crate::kube::row::UnixSecs;
use crate::kube::sanitize::sanitize;

use theme::Theme;

/// The most lines the footer takes when its prompt and message (an offer, an error) do not
/// fit one.
const FOOTER_MAX: u16 = 5;

/// The screen's three areas: two header lines, the body, the footer (one line, or up to
/// [`FOOTER_MAX`] when its message wraps, never leaving the body fewer than 10 rows).
fn areas(area: Rect, state: &UiState, theme: &Theme) -> [Rect; 3] {
    let lines = u16::try_from(footer_lines(state, theme, area.width).len()).unwrap_or(1);
    let room = area.height.saturating_sub(12).clamp(1, FOOTER_MAX);
    let foot = lines.clamp(1, room);
    Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(3),
        Constraint::Length(foot),
    ])
    .areas(area)
}

/// How many rows of the view on top fit on a screen of `area` (the page for paging keys);
/// the loop calls it before each draw, with the terminal's size.
pub fn page_rows(area: Rect, state: &UiState) -> usize {
    if state.screens.overlays.help {
        return help::page(area, state).rows;
    }
    let [_, body, _] = areas(area, state, &Theme::new(&state.settings.theme));
    let rows = match state.top() {
        Screen::List(l) => list::table_area(body, l).height.saturating_sub(3),
        Screen::ApiResources { .. } => api_resources::table_area(body, state).height.saturating_sub(3),
        Screen::Informers { .. }
        | Screen::Contexts { .. }
        | Screen::Forwards { .. }
        | Screen::Revisions(_)
        | Screen::Pulse(_)
        | Screen::Can(_) => body.height.saturating_sub(3),
        Screen::Yaml(_) | Screen::Logs(_) => body.height.saturating_sub(2),
        Screen::Containers(_) => body.height.saturating_sub(3),
        Screen::Xray(_) => body.height.saturating_sub(2),
    };
    usize::from(rows)
}

/// Cells of one line of the text view on top (YAML, describe; the help box while open), for
/// wrapping and sideways scrolling (the loop stores it in `screens.layout.page_cols`).
pub fn page_cols(area: Rect, state: &UiState) -> usize {
    if state.screens.overlays.help {
        return help::page(area, state).cols;
    }
    let [_, body, _] = areas(area, state, &Theme::new(&state.settings.theme));
    usize::from(body.width.saturating_sub(2))
}

/// How far the detail overlay can scroll on a screen of `area` at `now`, down and right
/// (the loop stores them in `screens.layout.detail_max` and `detail_hmax` before each draw, as it
/// does the page size).
pub fn detail_max(area: Rect, state: &UiState, now: UnixSecs) -> (u16, u16) {
    cells::max_scroll(area, state, now, &Theme::new(&state.settings.theme))
}

/// Draws one frame of `state` at `now`; `informers` are the rows of `:informers` (the loop
/// reads them from the pool; empty unless that view is on top).
pub fn draw(f: &mut Frame, state: &UiState, informers: &[InformerInfo], now: UnixSecs) {
    let theme = Theme::new(&state.settings.theme);
    let [head, body, foot] = areas(f.area(), state, &theme);
    header::draw(f, head, state, &theme);
    match state.top() {
        Screen::List(l) => list::draw(f, body, state, l, &theme, now),
        Screen::Informers { selected } => {
            let (top, below) = metrics_polls::split(body, &state.screens.layout.metrics_polls);
            let names = state.conn.fleet.as_ref().map(|f| f.names()).unwrap_or_default();
            informers::draw(f, top, informers, &names, *selected, &theme);
            metrics_polls::draw(f, below, &state.screens.layout.metrics_polls, &theme);
        }
        Screen::Forwards { selected } => {
            forwards::draw(f, body, &state.screens.layout.forwards, *selected, &theme)
        }
        Screen::Contexts { selected } => context::draw(f, body, state, *selected, &theme),
        Screen::ApiResources { selected, filter } => {
            api_resources::draw(f, body, state, (*selected, filter), &theme)
        }
        Screen::Yaml(y) => {
            let view_ns = state.view_namespace().unwrap_or(state.conn.namespace.as_deref());
            detail::draw(f, body, y, view_ns, &theme)
        }
        Screen::Logs(v) => logs::draw(f, body, v, &theme),
        Screen::Containers(c) => containers::draw(f, body, c, &state.settings.usage, &theme, now),
        Screen::Revisions(r) => history::draw(f, body, r, &theme, now),
        Screen::Can(c) => can::draw(f, body, c, &theme),
        Screen::Pulse(p) => pulse::draw(f, body, p, &theme, now),
        Screen::Xray(x) => xray::draw(f, body, x, &theme),
    }
    footer(f, foot, state, &theme);
    if state.screens.overlays.help {
        help::draw(f, f.area(), state, &theme);
    }
    cells::draw(f, f.area(), state, now, &theme);
    if let Some(d) = &state.screens.overlays.drain {
        writes::drain(f, f.area(), d, &theme);
    }
    if let Some(d) = &state.screens.overlays.dialog {
        writes::draw(f, f.area(), d, &theme);
    }
}

/// A box title for a box `width` cells wide: cut marked `…` where it would run into the
/// corner.
pub(crate) fn title_in(title: &str, width: u16) -> String {
    let room = usize::from(width.saturating_sub(2));
    crate::view::cut::fit(title, room, crate::view::cut::Cut::End).into_owned()
}

/// A bordered, titled table (its header already set) with a highlighted selection — the
/// `:ctx`, `:informers` and `:api-resources` screens.
pub(crate) fn boxed_table(
    f: &mut Frame,
    area: Rect,
    title: String,
    table: ratatui::widgets::Table<'_>,
    len: usize,
    selected: usize,
    theme: &Theme,
) {
    use ratatui::widgets::{Block, Borders, TableState};
    let title = title_in(&title, area.width);
    let table = table
        .column_spacing(fit_table::GAP as u16)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(theme.border)
                .title(title),
        )
        .row_highlight_style(theme.selected);
    let mut ts = TableState::default().with_selected(Some(selected.min(len.saturating_sub(1))));
    f.render_stateful_widget(table, area, &mut ts);
}

/// A `width`×`height` rectangle centred in `area` (clipped to it), for overlays.
pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let (w, h) = (width.min(area.width), height.min(area.height));
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// How soon the screen must be redrawn with no event (relative ages change): 1 s while a
/// visible age is under 10 minutes or counters are shown, else 15 s.
pub fn refresh_interval(state: &UiState, now: UnixSecs) -> Duration {
    match state.top() {
        Screen::Informers { .. } | Screen::Forwards { .. } => Duration::from_secs(1),
        Screen::Contexts { .. } | Screen::ApiResources { .. } | Screen::Yaml(_) | Screen::Can(_) => {
            Duration::from_secs(60)
        }
        // The lag in the header moves with the clock; lines arrive as events.
        Screen::Logs(_) | Screen::Containers(_) | Screen::Revisions(_) => Duration::from_secs(1),
        // The event rate's current minute moves with the clock.
        Screen::Pulse(_) => Duration::from_secs(5),
        // Lines change with the snapshots, which arrive as events.
        Screen::Xray(_) => Duration::from_secs(60),
        Screen::List(l) => {
            let youngest = l.cache.visible_youngest(l.offset, state.screens.layout.page_rows);
            match youngest {
                Some(t) if now - t < 600 => Duration::from_secs(1),
                _ => Duration::from_secs(15),
            }
        }
    }
}

/// The prompt's text with its cursor: the char under it reversed, or `█` after the end.
fn edited(text: &str, cursor: Option<usize>) -> Vec<Span<'static>> {
    let at = cursor.unwrap_or(usize::MAX);
    let split = text.char_indices().nth(at).map(|(b, _)| b);
    match split {
        None => vec![Span::raw(text.to_owned()), Span::raw("█")],
        Some(b) => {
            let under = text[b..].chars().next().map_or(1, char::len_utf8);
            vec![
                Span::raw(text[..b].to_owned()),
                Span::styled(
                    text[b..b + under].to_owned(),
                    ratatui::style::Style::default().add_modifier(ratatui::style::Modifier::REVERSED),
                ),
                Span::raw(text[b + under..].to_owned()),
            ]
        }
    }
}

fn footer(f: &mut Frame, area: Rect, state: &UiState, theme: &Theme) {
    let mut lines = footer_lines(state, theme, area.width);
    let rows = usize::from(area.height.max(1));
    if lines.len() > rows {
        // More than the footer may take: the last line shown is cut, marked.
        lines.truncate(rows);
        if let Some(last) = lines.pop() {
            lines.push(marked(last, usize::from(area.width)));
        }
    }
    f.render_widget(ratatui::widgets::Paragraph::new(lines), area);
}

/// `line` ending in `…` within `cols` cells: the last footer line shown when more follow.
fn marked(line: Line<'static>, cols: usize) -> Line<'static> {
    use crate::view::cut;
    let style = line.spans.last().map(|s| s.style).unwrap_or_default();
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let text = text.trim_end();
    let out = if cut::width(text) < cols {
        format!("{text}…")
    } else {
        cut::fit(text, cols, cut::Cut::End).into_owned()
    };
    Line::from(Span::styled(out, style))
}

/// The footer's lines at `width` cells: the prompt or message, wrapped between words when it
/// does not fit one line (an offer such as "no shell here… try :debug" must be read whole),
/// or the key hints (always one line, as many as fit).
fn footer_lines(state: &UiState, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let cols = usize::from(width).max(1);
    let hints = state.screens.prompt.open.is_none()
        && state.screens.footer.message.is_none()
        && state.top_list().and_then(|l| l.filter_error.as_ref()).is_none();
    let (line, after) = footer_parts(state, theme, width);
    let together = line.width() + after.as_ref().map_or(0, |a| AFTER.len() + a.width());
    // The key hints are one line (as many as fit, their padding may run off the edge); so
    // is the footer under the help box, which keeps the rest of the screen.
    if hints || state.screens.overlays.help || together <= cols {
        let mut spans = line.spans;
        if let Some(a) = after {
            spans.push(Span::raw(AFTER));
            spans.extend(a.spans);
        }
        return vec![fit_line(Line::from(spans), cols)];
    }
    // A prompt and its note that do not share a line: the prompt keeps the first one (what
    // is typed stays in place), the note starts the next.
    let mut out = wrap::wrapped(line.spans, cols);
    if let Some(a) = after {
        out.extend(wrap::wrapped(a.spans, cols));
    }
    out.into_iter().map(|l| fit_line(l, cols)).collect()
}

/// Between a prompt and the note after it on one line.
const AFTER: &str = "   ";

/// The footer before wrapping: the prompt (or the message, or the key hints, which always
/// fit) and the note shown after a prompt (completions, a filter's error, an offer).
fn footer_parts(state: &UiState, theme: &Theme, width: u16) -> (Line<'static>, Option<Line<'static>>) {
    let note = |text: &str, style| Some(Line::from(Span::styled(sanitize(text).into_owned(), style)));
    match &state.screens.prompt.open {
        Some(Prompt::Command(s)) => {
            let mut spans = vec![Span::styled(":", theme.label)];
            spans.extend(edited(s, state.screens.prompt.cursor));
            // `tab` completion's candidates, or an offer, after what is typed.
            let after = state
                .screens
                .footer
                .message
                .as_deref()
                .and_then(|m| note(m, theme.dim));
            (Line::from(spans), after)
        }
        Some(Prompt::Filter(s)) => {
            let mut spans = vec![Span::styled("/", theme.label)];
            spans.extend(edited(s, state.screens.prompt.cursor));
            // The YAML search says when nothing matches; a list's filter that does not
            // parse (or a term that cannot match) says why while it is typed.
            let after = if let Some(m) = &state.screens.footer.message {
                note(m, theme.dim)
            } else {
                let err = state.top_list().and_then(|l| l.filter_error.as_deref());
                err.and_then(|e| note(e, theme.error))
            };
            (Line::from(spans), after)
        }
        Some(Prompt::Confirm(q)) => (Line::from(Span::styled(q.clone(), theme.warn)), None),
        None => {
            let line = if let Some(m) = &state.screens.footer.message {
                let style = if state.screens.footer.info {
                    theme.value
                } else {
                    theme.error
                };
                Line::from(Span::styled(sanitize(m).into_owned(), style))
            } else if let Some(err) = state.top_list().and_then(|l| l.filter_error.clone()) {
                Line::from(Span::styled(format!("filter: {}", sanitize(&err)), theme.error))
            } else {
                hints::line(state, theme, width)
            };
            (line, None)
        }
    }
}

/// `line` cut to `width` terminal cells, the cut marked `…` (a long error or completion list
/// in the footer of a narrow terminal would otherwise stop mid-word at the edge).
fn fit_line(line: Line<'static>, width: usize) -> Line<'static> {
    use crate::view::cut;
    if line.width() <= width {
        return line;
    }
    // Trailing blanks (the hints' padding) may run off the edge unmarked.
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    if cut::width(text.trim_end()) <= width {
        return line;
    }
    let mut left = width;
    let mut spans = Vec::new();
    for span in line.spans {
        let w = cut::width(&span.content);
        if w < left {
            left -= w;
            spans.push(span);
            continue;
        }
        // A span that fills the rest exactly is cut one cell earlier: spans follow it.
        let room = if w == left { left.saturating_sub(1) } else { left };
        let text = cut::fit(&span.content, room, cut::Cut::End).into_owned();
        spans.push(Span::styled(text, span.style));
        break;
    }
    Line::from(spans).style(line.style)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_footer_line_too_wide_is_cut_with_a_marker_keeping_styles() {
        let style = ratatui::style::Style::default().add_modifier(ratatui::style::Modifier::BOLD);
        let line = Line::from(vec![
            Span::raw("/status:"),
            Span::styled("   incomplete term \"status:\"", style),
        ]);
        let cut = fit_line(line.clone(), 20);
        let text: String = cut.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "/status:   incomple…");
        assert_eq!(cut.spans[1].style, style);
        assert_eq!(fit_line(line.clone(), 80), line, "a line that fits is left alone");
        // The first span fills the width exactly: it is cut so the marker shows.
        let cut = fit_line(line, 8);
        let text: String = cut.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "/statu…");
    }
}
