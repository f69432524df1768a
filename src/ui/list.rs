//! The resource table: NAMESPACE (all-namespaces mode), NAME with fuzzy highlights, then the
//! kind's columns, with the usage columns of pods and nodes before AGE (`super::usage`, which
//! also gives the metrics state line on the bottom border). Only visible rows are formatted
//! (`grid`); widths come from what is visible, laid out by `view::columns` (dropped columns
//! named in the title), cells cut by `view::cut`.

use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row as TRow, Table, TableState};
use ratatui::Frame;

use crate::app::state::{Conn, ListState, UiState};
use crate::kube::row::{Row, UnixSecs};
use crate::kube::sync::SyncState;
use crate::text::thousands;
use crate::view::columns;
use crate::view::cut;

use super::fit_table::GAP;
use super::theme::Theme;
use super::usage::UsageView;

mod grid;

use grid::{hidden_note, sort_mark, Grid};

pub(super) fn draw(f: &mut Frame, area: Rect, state: &UiState, l: &ListState, theme: &Theme, now: UnixSecs) {
    let table = table_area(area, l);
    if table != area {
        let buckets = super::timeline::per_minute(&l.cache.rows(), now);
        f.render_widget(
            super::timeline::sparkline(&buckets, theme, usize::from(area.width)),
            Rect { height: 1, ..area },
        );
    }
    let area = table;
    let page = area.height.saturating_sub(3) as usize;
    let ns_title = match &l.key.namespace {
        Some(ns) if l.key.kind.namespaced() => format!("({})", crate::kube::sanitize::sanitize(ns)),
        None if l.key.kind.namespaced() && l.source.is_none() && l.union.is_none() => "(…)".into(),
        None if l.key.kind.namespaced() => "(all)".into(),
        _ => String::new(),
    };
    let listed = l.cache.snapshot().is_some_and(|s| s.listed);
    let count = if !listed && l.cache.total() == 0 {
        "-".to_owned()
    } else if !listed {
        // A first list still arriving: the rows so far, never called a total.
        format!("{}…", thousands(l.cache.total() as u64))
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
        format!(" </{}>", crate::kube::sanitize::sanitize(&l.filter))
    };
    let kind = crate::kube::sanitize::sanitize(&state.conn.registry.title(&l.key.kind)).into_owned();
    let title = format!(" {kind}{ns_title}[{count}]{filter} ");
    let title_w = cut::width(&title);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.value));
    let message = placeholder(state, l);
    // With a list in hand (nothing in it, or nothing matching), the columns still show.
    let with_header = matches!(state.conn.status, Conn::Connected(_))
        && l.cache.snapshot().is_some_and(|s| s.listed || !s.rows.is_empty());
    if let Some(msg) = message.as_ref().filter(|_| !with_header) {
        let msg = msg.clone();
        let inner = block.inner(area);
        f.render_widget(block, area);
        // A long message (a connection error) wraps, centred, rather than being cut.
        let w = usize::from(inner.width.saturating_sub(2)).max(1);
        let lines = u16::try_from(cut::width(&msg.0).div_ceil(w))
            .unwrap_or(u16::MAX)
            .max(1);
        let height = lines.min(inner.height);
        let line = Rect {
            x: inner.x + 1.min(inner.width),
            y: inner.y + (inner.height / 2).saturating_sub((height.max(1) - 1) / 2),
            width: inner.width.saturating_sub(2),
            height,
        };
        f.render_widget(
            Paragraph::new(msg.0)
                .style(msg.1(theme))
                .alignment(Alignment::Center)
                .wrap(ratatui::widgets::Wrap { trim: true }),
            line,
        );
        return;
    }
    let all_ns = l.key.kind.namespaced() && l.key.namespace.is_none();
    let spec = crate::table::spec(&l.key.kind);
    let offset = l.offset;
    let visible: Vec<std::sync::Arc<Row>> = l.cache.visible(offset, page);
    let settings = &state.settings.usage;
    let usage = UsageView::of(l, settings);
    // Inside a union: per member, its name and whether its rows are live (the CONTEXT cell of
    // a member that is not live is drawn in the warning colour: its rows may be old).
    let contexts: Vec<(u16, std::sync::Arc<str>, bool)> = match (&state.conn.fleet, &l.union) {
        (Some(f), Some(u)) => f
            .names()
            .into_iter()
            .map(|(o, n)| {
                let live = u
                    .members
                    .iter()
                    .find(|m| m.origin == o)
                    .and_then(|m| m.source.as_ref())
                    .is_some_and(|s| s.slot.peek().state.is_live());
                (o, n, live)
            })
            .collect(),
        _ => Vec::new(),
    };
    let grid = Grid::build(l, &spec, &visible, all_ns, now, usage.as_ref(), theme, &contexts);
    let fitted = columns::fit(&grid.cols, area.width.saturating_sub(2) as usize, GAP, l.hscroll);
    let room = usize::from(area.width).saturating_sub(title_w + 4);
    let block = match hidden_note(&grid, &fitted, room) {
        Some(note) => block.title_top(Line::from(Span::styled(note, theme.dim)).right_aligned()),
        None => block,
    };
    let block = match super::usage::state_line(l, &visible, settings, theme, area.width) {
        Some(line) => block.title_bottom(line),
        None => block,
    };
    let name_col = grid.name_col;
    let rows: Vec<TRow> = visible
        .iter()
        .zip(grid.body.iter().zip(&grid.styles))
        .map(|(r, (cells, styles))| {
            let mut style = theme.health(r.health);
            if l.marks.contains(r) {
                style = style.patch(theme.highlight);
            }
            let spans: Vec<Line> = fitted
                .shown
                .iter()
                .map(|&(i, w)| {
                    let how = columns::cut_of(&grid.cols[i].header);
                    let text = &cells[i];
                    if Some(i) == name_col && !l.filter.is_empty() {
                        highlighted(text, w, how, &l.cache.highlight(r), theme)
                    } else {
                        let line = Line::from(cut::fit(text, w, how).into_owned());
                        match styles.get(i).copied().flatten() {
                            Some(s) => line.style(s),
                            None => line,
                        }
                    }
                })
                .collect();
            TRow::new(spans).style(style)
        })
        .collect();
    let header: Vec<Line> = fitted
        .shown
        .iter()
        .map(|&(i, w)| {
            let h = sort_mark(&grid.cols[i].header, grid.sorted == Some(i), l);
            Line::from(cut::fit(&h, w, cut::Cut::End).into_owned())
        })
        .collect();
    let constraints: Vec<Constraint> = fitted
        .shown
        .iter()
        .map(|(_, w)| Constraint::Length(u16::try_from(*w).unwrap_or(u16::MAX)))
        .collect();
    let table = Table::new(rows, constraints)
        .header(TRow::new(header).style(theme.column))
        .block(block)
        .column_spacing(GAP as u16)
        .row_highlight_style(theme.selected);
    let sel = l.selected.checked_sub(offset).filter(|s| *s < page);
    let mut ts = TableState::default().with_selected(sel);
    f.render_stateful_widget(table, area, &mut ts);
    if let Some((text, role)) = message {
        // Under the header, in the middle of the empty table.
        let inner = Rect {
            x: area.x + 1,
            y: area.y + 2,
            width: area.width.saturating_sub(2),
            height: area.height.saturating_sub(3),
        };
        let line = Rect {
            y: inner.y + inner.height / 2,
            height: 1.min(inner.height),
            ..inner
        };
        f.render_widget(
            Paragraph::new(text)
                .style(role(theme))
                .alignment(Alignment::Center),
            line,
        );
    }
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
    // A first list shows its rows as pages arrive; the header says it is still syncing.
    if !snap.listed && snap.rows.is_empty() {
        let style = match snap.state {
            SyncState::Syncing { .. } | SyncState::Pending => warn,
            _ => error,
        };
        return Some((snap.state.to_string(), style));
    }
    if !snap.listed {
        let none = l.cache.is_empty().then(|| ("no match so far".to_owned(), dim));
        return none;
    }
    if l.cache.total() == 0 {
        return Some(("no resources".into(), dim));
    }
    if l.cache.is_empty() {
        return Some(("no match for the filter".into(), dim));
    }
    None
}

/// `text` cut to `w` cells as [`cut::fit`] does, with the characters at `idx` (char indices
/// of the whole text) in the highlight style.
fn highlighted(text: &str, w: usize, how: cut::Cut, idx: &[usize], theme: &Theme) -> Line<'static> {
    let span = |(i, c): (usize, char)| {
        if idx.contains(&i) {
            Span::styled(c.to_string(), theme.highlight)
        } else {
            Span::raw(c.to_string())
        }
    };
    let Some((head, tail)) = cut::kept(text, w, how) else {
        return Line::from(text.chars().enumerate().map(span).collect::<Vec<_>>());
    };
    let chars: Vec<(usize, (usize, char))> = text.char_indices().enumerate().collect();
    let mut spans: Vec<Span> = chars
        .iter()
        .filter(|(_, (b, _))| *b < head)
        .map(|&(i, (_, c))| span((i, c)))
        .collect();
    if w > 0 {
        spans.push(Span::raw(cut::ELLIPSIS.to_string()));
    }
    spans.extend(
        chars
            .iter()
            .filter(|(_, (b, _))| *b >= tail)
            .map(|&(i, (_, c))| span((i, c))),
    );
    Line::from(spans)
}
