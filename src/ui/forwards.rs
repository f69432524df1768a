//! `:pf`: one row per port-forward of the session: local address, target, state in words,
//! connections, bytes each way. The rows come from the loop (it reads the manager); drawing
//! never touches it.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Row, Table};
use ratatui::Frame;

use crate::kube::portforward::{ForwardInfo, ForwardState};
use crate::kube::sanitize::sanitize;
use crate::text::thousands;

use super::theme::Theme;

const HEADERS: [&str; 6] = ["LOCAL", "TARGET", "POD", "STATE", "CONNS", "IN / OUT"];

pub(super) fn draw(f: &mut Frame, area: Rect, infos: &[ForwardInfo], selected: usize, theme: &Theme) {
    let rows: Vec<Row> = infos
        .iter()
        .map(|i| {
            let style = match i.state {
                ForwardState::Active => theme.ok,
                ForwardState::Broken(_) => theme.error,
                _ => theme.warn,
            };
            Row::new(vec![
                i.local.to_string().into(),
                sanitize(&i.target).into_owned().into(),
                sanitize(i.pod.as_deref().unwrap_or("-")).into_owned().into(),
                Line::styled(sanitize(&i.state.words()).into_owned(), style),
                format!("{} open, {} in all", i.open, thousands(i.total)).into(),
                format!("{} / {}", bytes(i.bytes_in), bytes(i.bytes_out)).into(),
            ])
        })
        .collect();
    let widths = [
        Constraint::Length(21),
        Constraint::Min(16),
        Constraint::Min(12),
        Constraint::Min(14),
        Constraint::Length(20),
        Constraint::Length(19),
    ];
    let title = format!(" port-forwards[{}] ", infos.len());
    let header = Row::new(HEADERS.map(Line::from));
    let table = Table::new(rows, widths).header(header.style(theme.column));
    super::boxed_table(f, area, title, table, infos.len(), selected, theme)
}

/// `512 B`, `1.5 KiB`, `12.0 MiB`.
fn bytes(n: u64) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..1_048_576 => format!("{:.1} KiB", n as f64 / 1024.0),
        _ => format!("{:.1} MiB", n as f64 / 1_048_576.0),
    }
}
