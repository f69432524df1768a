//! `:api-resources`: what discovery found, as `kubectl api-resources` prints it, plus the
//! API groups that could not be read. Read-only over `UiState`.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Row, Table};
use ratatui::Frame;

use crate::app::state::UiState;
use crate::kube::registry::Known;
use crate::kube::sanitize::sanitize;

use super::theme::Theme;

const HEADERS: [&str; 6] = [
    "NAME",
    "SHORTNAMES",
    "APIVERSION",
    "NAMESPACED",
    "KIND",
    "COLUMNS",
];

pub(super) fn draw(
    f: &mut Frame,
    area: Rect,
    state: &UiState,
    (selected, filter): (usize, &str),
    theme: &Theme,
) {
    let reg = &state.conn.registry;
    let listing = reg.listing_matching(filter);
    let rows: Vec<Row> = listing
        .iter()
        .map(|(_, r)| {
            let columns = if r.builtin().is_some() {
                "kubectl".to_owned()
            } else if r.columns.is_empty() {
                "AGE".to_owned()
            } else {
                format!("{} from CRD", r.columns.len())
            };
            let row = Row::new(vec![
                sanitize(&r.plural).into_owned(),
                sanitize(&r.short.join(",")).into_owned(),
                sanitize(&r.api_version()).into_owned(),
                r.namespaced.to_string(),
                sanitize(&r.kind).into_owned(),
                columns,
            ]);
            if r.listable() {
                row
            } else {
                row.style(theme.dim)
            }
        })
        .collect();
    let mut notes: Vec<Line> = reg
        .broken
        .iter()
        .map(|b| {
            Line::from(vec![
                Span::styled(" unavailable ", theme.error),
                Span::styled(sanitize(&b.group_version).into_owned(), theme.value),
                Span::styled(format!("  {}", sanitize(&b.reason)), theme.dim),
            ])
        })
        .collect();
    match &reg.known {
        Known::BuiltinsOnly => notes.push(Line::styled(
            " discovering… (built-in kinds only so far)",
            theme.warn,
        )),
        Known::Failed(e) => notes.push(Line::styled(format!(" {}", sanitize(e)), theme.error)),
        Known::Discovered => {}
    }
    if let Some(e) = &reg.crd_error {
        notes.push(Line::styled(
            format!(" CRD printer columns unknown: {}", sanitize(e)),
            theme.warn,
        ));
    }
    let [table_area, notes_area] = split(area, notes.len());
    f.render_widget(Paragraph::new(notes), notes_area);
    // Each column at least as wide as its header (`SHORTNAMES`, not `SHORTNAM`).
    let widest = |i: usize, f: &dyn Fn(&crate::kube::kind::ApiResource) -> usize| {
        let header = HEADERS.get(i).map_or(0, |h| h.len());
        listing
            .iter()
            .map(|(_, r)| f(r))
            .max()
            .unwrap_or(0)
            .clamp(8, 48)
            .max(header) as u16
    };
    let widths = [
        Constraint::Length(widest(0, &|r| r.plural.len())),
        Constraint::Length(widest(1, &|r| r.short.join(",").len().min(14))),
        Constraint::Length(widest(2, &|r| r.api_version().len())),
        Constraint::Length(widest(3, &|_| 10)),
        Constraint::Min(widest(4, &|r| r.kind.len())),
        Constraint::Length(widest(5, &|_| 10)),
    ];
    let title = if filter.is_empty() {
        format!(" api-resources[{}] — enter opens ", listing.len())
    } else {
        format!(" api-resources[{}] </{}> ", listing.len(), sanitize(filter))
    };
    let header = Row::new(HEADERS.map(Line::from));
    let table = Table::new(rows, widths).header(header.style(theme.column));
    super::boxed_table(f, table_area, title, table, listing.len(), selected, theme)
}

/// The table above `notes` lines of notes.
fn split(area: Rect, notes: usize) -> [Rect; 2] {
    Layout::vertical([Constraint::Min(3), Constraint::Length(notes as u16)]).areas(area)
}

/// Where the table goes in `area` (for the page size): above one note per unavailable API
/// group, one while discovery is pending or failed, one for unknown CRD printer columns.
pub(super) fn table_area(area: Rect, state: &UiState) -> Rect {
    let reg = &state.conn.registry;
    let notes =
        reg.broken.len() + usize::from(reg.known != Known::Discovered) + usize::from(reg.crd_error.is_some());
    split(area, notes)[0]
}
