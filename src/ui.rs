//! Drawing: read-only over [`UiState`], snapshots and the theme. Owns layout; must not change
//! state or wait on anything. What the loop must know before a frame (the page size for
//! paging keys) comes from [`page_rows`], computed from the same layout before drawing;
//! what only the loop can read (the informer pool's rows) is passed in.

mod api_resources;
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
pub mod theme;
pub mod timeline;
mod wrap;
mod writes;

use std::time::Duration;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::app::state::{Prompt, Screen, UiState};
use crate::kube::pool::InformerInfo;
use crate::kube::row::UnixSecs;
use crate::kube::sanitize::sanitize;

use theme::Theme;

/// The screen's three areas: two header lines, the body, the footer line.
fn areas(area: Rect) -> [Rect; 3] {
    Layout::vertical([Constraint::Length(2), Constraint::Min(3), Constraint::Length(1)]).areas(area)
}

/// How many rows of the view on top fit on a screen of `area` (the page for paging keys);
/// the loop calls it before each draw, with the terminal's size.
pub fn page_rows(area: Rect, state: &UiState) -> usize {
    if state.screens.overlays.help {
        return help::page(area, state).rows;
    }
    let [_, body, _] = areas(area);
    let rows = match state.top() {
        Screen::List(l) => list::table_area(body, l).height.saturating_sub(3),
        Screen::ApiResources { .. } => api_resources::table_area(body, state).height.saturating_sub(3),
        Screen::Informers { .. }
        | Screen::Contexts { .. }
        | Screen::Forwards { .. }
        | Screen::Revisions(_) => body.height.saturating_sub(3),
        Screen::Yaml(_) | Screen::Logs(_) => body.height.saturating_sub(2),
        Screen::Containers(_) => body.height.saturating_sub(3),
    };
    usize::from(rows)
}

/// Cells of one line of the text view on top (YAML, describe; the help box while open), for
/// wrapping and sideways scrolling (the loop stores it in `screens.layout.page_cols`).
pub fn page_cols(area: Rect, state: &UiState) -> usize {
    if state.screens.overlays.help {
        return help::page(area, state).cols;
    }
    let [_, body, _] = areas(area);
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
    let [head, body, foot] = areas(f.area());
    header::draw(f, head, state, &theme);
    match state.top() {
        Screen::List(l) => list::draw(f, body, state, l, &theme, now),
        Screen::Informers { selected } => informers::draw(f, body, informers, *selected, &theme),
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
        Screen::Containers(c) => containers::draw(f, body, c, &theme, now),
        Screen::Revisions(r) => history::draw(f, body, r, &theme, now),
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
        Screen::Contexts { .. } | Screen::ApiResources { .. } | Screen::Yaml(_) => Duration::from_secs(60),
        // The lag in the header moves with the clock; lines arrive as events.
        Screen::Logs(_) | Screen::Containers(_) | Screen::Revisions(_) => Duration::from_secs(1),
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
    let line = match &state.screens.prompt.open {
        Some(Prompt::Command(s)) => {
            let mut spans = vec![Span::styled(":", theme.label)];
            spans.extend(edited(s, state.screens.prompt.cursor));
            // `tab` completion's candidates, after what is typed.
            if let Some(m) = &state.screens.footer.message {
                spans.push(Span::styled(format!("   {}", sanitize(m)), theme.dim));
            }
            Line::from(spans)
        }
        Some(Prompt::Filter(s)) => {
            let mut spans = vec![Span::styled("/", theme.label)];
            spans.extend(edited(s, state.screens.prompt.cursor));
            // The YAML search says when nothing matches; a list's filter that does not
            // parse (or a term that cannot match) says why while it is typed.
            if let Some(m) = &state.screens.footer.message {
                spans.push(Span::styled(format!("   {}", sanitize(m)), theme.dim));
            } else if let Some(err) = state.top_list().and_then(|l| l.filter_error.as_deref()) {
                spans.push(Span::styled(format!("   {}", sanitize(err)), theme.error));
            }
            Line::from(spans)
        }
        Some(Prompt::Confirm(q)) => Line::from(Span::styled(q.clone(), theme.warn)),
        None => {
            if let Some(m) = &state.screens.footer.message {
                let style = if state.screens.footer.info {
                    theme.value
                } else {
                    theme.error
                };
                Line::from(Span::styled(sanitize(m).into_owned(), style))
            } else if let Some(err) = state.top_list().and_then(|l| l.filter_error.clone()) {
                Line::from(Span::styled(format!("filter: {err}"), theme.error))
            } else {
                hints::line(state, theme, area.width)
            }
        }
    };
    f.render_widget(fit_line(line, usize::from(area.width)), area);
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
