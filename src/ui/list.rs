//! The resource table: NAMESPACE (all-namespaces mode), NAME with fuzzy highlights, then the
//! kind's columns. Only visible rows are formatted; widths come from what is visible, laid out
//! by `view::columns` (dropped columns named in the title), cells cut by `view::cut`.

use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row as TRow, Table, TableState};
use ratatui::Frame;

use crate::app::state::{Conn, ListState, SortBy, UiState};
use crate::kube::row::{Row, UnixSecs};
use crate::kube::sync::SyncState;
use crate::table::format::format_cell;
use crate::table::KindSpec;
use crate::text::thousands;
use crate::view::columns::{self, ColumnIn};
use crate::view::cut;

use super::fit_table::GAP;
use super::theme::Theme;

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
        None if l.key.kind.namespaced() && l.source.is_none() => "(…)".into(),
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
    let grid = Grid::build(l, &spec, &visible, all_ns, now);
    let fitted = columns::fit(&grid.cols, area.width.saturating_sub(2) as usize, GAP, l.hscroll);
    let room = usize::from(area.width).saturating_sub(title_w + 4);
    let block = match hidden_note(&grid, &fitted, room) {
        Some(note) => block.title_top(Line::from(Span::styled(note, theme.dim)).right_aligned()),
        None => block,
    };
    let name_col = grid.name_col;
    let rows: Vec<TRow> = visible
        .iter()
        .zip(&grid.body)
        .map(|(r, cells)| {
            let mut style = theme.health(r.health);
            if l.marks.contains(&r.uid) {
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
                        Line::from(cut::fit(text, w, how).into_owned())
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

/// The visible rows as text, with every column measured (NAMESPACE, NAME, the kind's
/// columns; wide ones flagged, shown only in wide mode).
struct Grid {
    cols: Vec<ColumnIn>,
    body: Vec<Vec<String>>,
    name_col: Option<usize>,
    /// The column the sort uses, which alone gets the `↑`/`↓` (none in a timeline).
    sorted: Option<usize>,
}

impl Grid {
    fn build(
        l: &ListState,
        spec: &KindSpec,
        visible: &[std::sync::Arc<Row>],
        all_ns: bool,
        now: UnixSecs,
    ) -> Grid {
        // The timeline identifies events by their columns; the event's own name is noise.
        let show_name = !l.is_timeline();
        let mut heads: Vec<(&str, bool)> = Vec::new();
        if all_ns {
            heads.push(("NAMESPACE", false));
        }
        let name_col = show_name.then_some(heads.len());
        if show_name {
            heads.push(("NAME", false));
        }
        let kind_cols: Vec<usize> = spec.visible(l.wide).map(|(i, _)| i).collect();
        heads.extend(
            kind_cols
                .iter()
                .map(|&i| (spec.columns[i].header.as_ref(), spec.columns[i].wide)),
        );
        let body: Vec<Vec<String>> = visible
            .iter()
            .map(|r| {
                let mut cells = Vec::with_capacity(heads.len());
                if all_ns {
                    cells.push(r.namespace.as_deref().unwrap_or("").to_owned());
                }
                if show_name {
                    cells.push(r.name.to_string());
                }
                for i in &kind_cols {
                    cells.push(
                        r.cells
                            .get(*i)
                            .map(|c| format_cell(c, now).into_owned())
                            .unwrap_or_default(),
                    );
                }
                cells
            })
            .collect();
        // The one column the sort uses: ktui's NAME (a CRD's own `Name` column is another),
        // the kind's AGE, or its status column.
        let first = heads.len() - kind_cols.len();
        let sorted = match l.sort {
            _ if l.is_timeline() => None,
            SortBy::Name => name_col,
            SortBy::Age => kind_cols.iter().position(|&i| spec.columns[i].header == "AGE"),
            SortBy::Status => kind_cols.iter().position(|&i| Some(i) == spec.status_col),
        }
        .map(|p| if l.sort == SortBy::Name { p } else { first + p });
        let mut cols: Vec<ColumnIn> = heads
            .iter()
            .enumerate()
            .map(|(c, (h, wide))| {
                let mut col = ColumnIn::measure(h, *wide, body.iter().map(|r| r[c].as_str()));
                // The header is drawn with its sort mark: `NAME↑` must fit as well as `NAME`.
                col.natural = col.natural.max(cut::width(&sort_mark(h, sorted == Some(c), l)));
                col
            })
            .collect();
        ColumnIn::drop_first(&mut cols, crate::table::drop_first(&l.key.kind));
        Grid {
            cols,
            body,
            name_col,
            sorted,
        }
    }
}

/// ` 3 hidden: IP NODE AGE · shift-←/→ ` when columns did not fit or are scrolled off,
/// shortened to fit `room` cells of the title bar (the names cut with `…`, at least
/// ` 3 hidden `).
fn hidden_note(grid: &Grid, fitted: &columns::Fitted, room: usize) -> Option<String> {
    if fitted.hidden.is_empty() {
        return None;
    }
    let names: Vec<&str> = fitted
        .hidden
        .iter()
        .map(|&i| grid.cols[i].header.as_str())
        .collect();
    let n = names.len();
    let full = format!(" {n} hidden: {} · shift-←/→ ", names.join(" "));
    if cut::width(&full) <= room {
        return Some(full);
    }
    let short = format!(" {n} hidden: {} ", names.join(" "));
    if cut::width(&short) <= room {
        return Some(short);
    }
    let bare = format!(" {n} hidden ");
    let lead = format!(" {n} hidden: ");
    let left = room.saturating_sub(cut::width(&lead) + 1);
    if left >= 6 {
        return Some(format!(
            "{lead}{} ",
            cut::fit(&names.join(" "), left, cut::Cut::End)
        ));
    }
    Some(bare)
}

/// The header with `↑`/`↓` when it heads the sorted column (see [`Grid::sorted`]).
fn sort_mark(header: &str, sorted: bool, l: &ListState) -> String {
    if !sorted {
        return header.to_owned();
    }
    format!("{header}{}", if l.reverse { "↓" } else { "↑" })
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
