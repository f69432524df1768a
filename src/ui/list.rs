//! The resource table: NAMESPACE (all-namespaces mode), NAME with fuzzy highlights, then the
//! kind's columns. Only visible rows are formatted; widths come from what is visible.

use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row as TRow, Table, TableState};
use ratatui::Frame;

use crate::app::state::{Conn, ListState, UiState};
use crate::kube::row::{Row, UnixSecs};
use crate::kube::sync::SyncState;
use crate::table::format::format_cell;
use crate::text::thousands;

use super::theme::Theme;

/// Widest a NAME or other cell may get before it is cut.
const MAX_COL: usize = 64;

pub(super) fn draw(f: &mut Frame, area: Rect, state: &UiState, l: &ListState, theme: &Theme, now: UnixSecs) {
    let table = table_area(area, l);
    if table != area {
        let buckets = super::timeline::per_minute(l.cache.rows(), now);
        f.render_widget(
            super::timeline::sparkline(&buckets, theme),
            Rect { height: 1, ..area },
        );
    }
    let area = table;
    let page = area.height.saturating_sub(3) as usize;
    let ns_title = match &l.key.namespace {
        Some(ns) if l.key.kind.namespaced() => format!("({ns})"),
        None if l.key.kind.namespaced() && l.source.is_none() => "(…)".into(),
        None if l.key.kind.namespaced() => "(all)".into(),
        _ => String::new(),
    };
    let listed = l.cache.snapshot().is_some_and(|s| s.listed);
    let count = if !listed {
        "-".to_owned()
    } else if l.filter.is_empty() {
        thousands(l.cache.total() as u64)
    } else {
        format!(
            "{}/{}",
            thousands(l.cache.len() as u64),
            thousands(l.cache.total() as u64)
        )
    };
    let filter = if l.filter.is_empty() {
        String::new()
    } else {
        format!(" </{}>", l.filter)
    };
    let kind = crate::kube::sanitize::sanitize(&l.key.kind.to_string()).into_owned();
    let title = format!(" {kind}{ns_title}[{count}]{filter} ");
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.value));
    if let Some(msg) = placeholder(state, l) {
        let inner = block.inner(area);
        f.render_widget(block, area);
        let y = inner.y + inner.height / 2;
        let line = Rect {
            x: inner.x,
            y,
            width: inner.width,
            height: 1.min(inner.height),
        };
        f.render_widget(
            Paragraph::new(msg.0)
                .style(msg.1(theme))
                .alignment(Alignment::Center),
            line,
        );
        return;
    }
    let all_ns = l.key.kind.namespaced() && l.key.namespace.is_none();
    let spec = crate::table::spec(&l.key.kind);
    let cols: Vec<(usize, &str)> = spec
        .visible(l.wide)
        .map(|(i, c)| (i, c.header.as_ref()))
        .collect();
    let offset = l.offset;
    let visible: Vec<std::sync::Arc<Row>> = l.cache.visible(offset, page);
    // The timeline identifies events by their columns; the event's own name is noise.
    let show_name = !l.is_timeline();
    let mut headers: Vec<&str> = Vec::new();
    if all_ns {
        headers.push("NAMESPACE");
    }
    if show_name {
        headers.push("NAME");
    }
    headers.extend(cols.iter().map(|(_, h)| *h));
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    let mut body: Vec<Vec<String>> = Vec::with_capacity(visible.len());
    for r in &visible {
        let mut cells = Vec::with_capacity(headers.len());
        if all_ns {
            cells.push(r.namespace.as_deref().unwrap_or("").to_owned());
        }
        if show_name {
            cells.push(r.name.to_string());
        }
        for (i, _) in &cols {
            cells.push(
                r.cells
                    .get(*i)
                    .map(|c| format_cell(c, now).into_owned())
                    .unwrap_or_default(),
            );
        }
        for (w, c) in widths.iter_mut().zip(&cells) {
            *w = (*w).max(c.chars().count().min(MAX_COL));
        }
        body.push(cells);
    }
    let name_col = if show_name {
        usize::from(all_ns)
    } else {
        usize::MAX
    };
    fit(&mut widths, area.width.saturating_sub(2) as usize, 2);
    let rows: Vec<TRow> = visible
        .iter()
        .zip(body)
        .map(|(r, cells)| {
            let mut style = theme.health(r.health);
            if l.marks.contains(&r.uid) {
                style = style.patch(theme.highlight);
            }
            let spans: Vec<Line> = cells
                .into_iter()
                .enumerate()
                .map(|(i, text)| {
                    if i == name_col && !l.filter.is_empty() {
                        highlighted(&text, &l.cache.highlight(r), theme)
                    } else {
                        Line::from(text)
                    }
                })
                .collect();
            TRow::new(spans).style(style)
        })
        .collect();
    let constraints: Vec<Constraint> = widths.iter().map(|w| Constraint::Length(*w as u16)).collect();
    let table = Table::new(rows, constraints)
        .header(TRow::new(headers.into_iter().map(Line::from)).style(theme.column))
        .block(block)
        .column_spacing(2)
        .row_highlight_style(theme.selected);
    let sel = l.selected.checked_sub(offset).filter(|s| *s < page);
    let mut ts = TableState::default().with_selected(sel);
    f.render_stateful_widget(table, area, &mut ts);
}

/// Where the table goes in `area`: below the per-minute sparkline of an event timeline.
pub(super) fn table_area(area: Rect, l: &ListState) -> Rect {
    if l.is_timeline() && area.height > 4 {
        Rect {
            y: area.y + 1,
            height: area.height - 1,
            ..area
        }
    } else {
        area
    }
}

/// What to show instead of rows, if anything: never "no resources" before a complete list.
/// Picks a theme role for a placeholder message.
type Role = fn(&Theme) -> Style;

fn placeholder(state: &UiState, l: &ListState) -> Option<(String, Role)> {
    let warn: Role = |t| t.warn;
    let error: Role = |t| t.error;
    let dim: Role = |t| t.dim;
    match &state.conn.status {
        Conn::Connecting => return Some(("connecting…".into(), warn)),
        Conn::Failed(e) => {
            let e = crate::kube::sanitize::sanitize(e).into_owned();
            return Some((format!("cannot connect: {e}"), error));
        }
        Conn::Connected(_) => {}
    }
    let snap = l.cache.snapshot()?;
    if !snap.listed {
        let style = match snap.state {
            SyncState::Syncing { .. } | SyncState::Pending => warn,
            _ => error,
        };
        return Some((snap.state.to_string(), style));
    }
    if l.cache.total() == 0 {
        return Some(("no resources".into(), dim));
    }
    if l.cache.is_empty() {
        return Some(("no match for the filter".into(), dim));
    }
    None
}

/// Shrinks the widest columns until the row fits `avail` cells with `gap` between columns.
fn fit(widths: &mut [usize], avail: usize, gap: usize) {
    let need = |w: &[usize]| w.iter().sum::<usize>() + gap * w.len().saturating_sub(1);
    while need(widths) > avail {
        let Some((i, w)) = widths.iter().enumerate().max_by_key(|(_, w)| **w) else {
            return;
        };
        if *w <= 6 {
            return;
        }
        widths[i] -= 1;
    }
}

/// `text` with the characters at `idx` (char indices) in the highlight style.
fn highlighted(text: &str, idx: &[usize], theme: &Theme) -> Line<'static> {
    let spans: Vec<Span> = text
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if idx.contains(&i) {
                Span::styled(c.to_string(), theme.highlight)
            } else {
                Span::raw(c.to_string())
            }
        })
        .collect();
    Line::from(spans)
}
