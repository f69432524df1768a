//! `:ctx`: the kubeconfig's contexts, the one in use marked. Read-only over `UiState`.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Row, Table};
use ratatui::Frame;

use crate::app::state::UiState;
use crate::kube::sanitize::sanitize;

use super::theme::Theme;

pub(super) fn draw(f: &mut Frame, area: Rect, state: &UiState, selected: usize, theme: &Theme) {
    let rows: Vec<Row> = state
        .conn
        .contexts
        .iter()
        .map(|c| {
            let current = state.conn.context.as_deref() == Some(c.as_str());
            let mark = if current { "(*)" } else { "" };
            Row::new(vec![mark.to_owned(), sanitize(c).into_owned()])
        })
        .collect();
    let title = format!(" contexts[{}] — enter switches ", state.conn.contexts.len());
    let n = state.conn.contexts.len();
    let table = Table::new(rows, [Constraint::Length(4), Constraint::Min(10)]);
    let header = Row::new(["", "NAME"].map(Line::from));
    let table = table.header(header.style(theme.column));
    super::boxed_table(f, area, title, table, n, selected, theme)
}
