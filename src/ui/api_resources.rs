//! `:api-resources`: what discovery found, as `kubectl api-resources` prints it, plus the
//! API groups that could not be read. Read-only over `UiState`.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Row, Table};
use ratatui::Frame;

use crate::app::state::UiState;
use crate::kube::registry::Known;
use crate::kube::sanitize::sanitize;

use super::fit_table::{lay_out, Col};
use super::theme::Theme;

/// The columns with their layout roles: NAME kept longest, KIND and APIVERSION next,
/// SHORTNAMES and COLUMNS dropped first.
const COLS: [Col; 6] = [
    col("NAME", "NAME"),
    col("SHORTNAMES", "AGE"),
    col("APIVERSION", "REASON"),
    col("NAMESPACED", "COUNT"),
    col("KIND", "TYPE"),
    col("COLUMNS", "SOURCE"),
];

const fn col(header: &'static str, role: &'static str) -> Col {
    Col {
        header,
        short: "",
        role,
    }
}

pub(super) fn draw(
    f: &mut Frame,
    area: Rect,
    state: &UiState,
    (selected, filter): (usize, &str),
    theme: &Theme,
) {
    let reg = &state.conn.registry;
    let listing = reg.listing_matching(filter);
    let cells: Vec<Vec<String>> = listing
        .iter()
        .map(|(_, r)| {
            let columns = if r.builtin().is_some() {
                "kubectl".to_owned()
            } else if r.columns.is_empty() {
                "AGE".to_owned()
            } else {
                format!("{} from CRD", r.columns.len())
            };
            vec![
                sanitize(&r.plural).into_owned(),
                sanitize(&r.short.join(",")).into_owned(),
                sanitize(&r.api_version()).into_owned(),
                r.namespaced.to_string(),
                sanitize(&r.kind).into_owned(),
                columns,
            ]
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
    let mut laid = lay_out(&COLS, &cells, usize::from(table_area.width.saturating_sub(2)));
    let rows: Vec<Row> = std::mem::take(&mut laid.rows)
        .into_iter()
        .zip(&listing)
        .map(|(row, (_, r))| if r.listable() { row } else { row.style(theme.dim) })
        .collect();
    let title = if filter.is_empty() {
        format!(" api-resources[{}] — enter opens ", listing.len())
    } else {
        format!(" api-resources[{}] </{}> ", listing.len(), sanitize(filter))
    };
    let room =
        usize::from(table_area.width.saturating_sub(4)).saturating_sub(crate::view::cut::width(&title));
    let title = format!("{title}{}", laid.hidden_note(room));
    let table = Table::new(rows, laid.widths).header(laid.header.style(theme.column));
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
