//! The containers view of one pod: a table of its init, sidecar and app containers with
//! their state, live from the pod's watch. Read-only.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::Span;
use ratatui::widgets::{Cell, Paragraph, Row, Table};
use ratatui::Frame;

use crate::app::containers::model::{cells, ContainersState};
use crate::kube::logs::pods::CState;
use crate::kube::sanitize::sanitize;

use super::theme::Theme;

const HEADERS: [&str; 8] = [
    "NAME", "ROLE", "IMAGE", "READY", "STATE", "RESTARTS", "PORTS", "AGE",
];

pub(super) fn draw(f: &mut Frame, area: Rect, c: &ContainersState, theme: &Theme, now: i64) {
    let (pod, deleted) = c.pod();
    let mut title = format!(" containers of pod/{} ", sanitize(&c.name));
    if deleted {
        title.push_str("[deleted] ");
    }
    let Some(pod) = pod else {
        let msg = if deleted { "pod not found" } else { "loading…" };
        let block = ratatui::widgets::Block::bordered()
            .border_style(theme.border)
            .title(title);
        f.render_widget(Paragraph::new(Span::styled(msg, theme.warn)).block(block), area);
        return;
    };
    let created = pod.created.map(|t| t.as_second());
    let rows: Vec<Row> = pod
        .containers
        .iter()
        .map(|ci| {
            let style = match &ci.state {
                CState::Running(_) if ci.ready => theme.ok,
                CState::Terminated { exit_code: 0, .. } => theme.dim,
                CState::Terminated { .. } => theme.error,
                CState::Waiting(r) if r.contains("BackOff") || r.contains("Err") => theme.error,
                _ => theme.warn,
            };
            Row::new(cells(ci, created, now).into_iter().map(Cell::from)).style(style)
        })
        .collect();
    let widths = [
        Constraint::Length(18),
        Constraint::Length(8),
        Constraint::Fill(2),
        Constraint::Length(6),
        Constraint::Fill(2),
        Constraint::Length(14),
        Constraint::Fill(1),
        Constraint::Length(8),
    ];
    let header = Row::new(HEADERS.map(Cell::from)).style(theme.column);
    let n = rows.len();
    let table = Table::new(rows, widths).header(header);
    super::boxed_table(f, area, title, table, n, c.selected, theme);
}
