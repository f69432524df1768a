//! `:informers`: one row per running informer with its live counters, so users (and tests)
//! can watch bookmarks, relists and reconnects happen. The rows come from the loop (it reads
//! the pool); drawing never touches the pool.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Row, Table};
use ratatui::Frame;

use crate::kube::pool::InformerInfo;
use crate::text::thousands;

use super::theme::Theme;

const HEADERS: [&str; 10] = [
    "KEY",
    "STATE",
    "RESOURCE VERSION",
    "BOOKMARK",
    "RELISTS",
    "RECONNECTS",
    "EVENTS",
    "OBJECTS",
    "SUBS",
    "STOPS IN",
];

pub(super) fn draw(f: &mut Frame, area: Rect, infos: &[InformerInfo], selected: usize, theme: &Theme) {
    let rows: Vec<Row> = infos
        .iter()
        .map(|i| {
            let s = &i.stats;
            Row::new(vec![
                crate::kube::sanitize::sanitize(&i.key.to_string()).into_owned(),
                match &i.unreadable {
                    Some(u) => format!("{}; {}", s.state, crate::kube::sanitize::sanitize(u)),
                    None => s.state.to_string(),
                },
                s.resource_version.clone().unwrap_or_else(|| "-".into()),
                s.last_bookmark
                    .map_or_else(|| "never".into(), |t| format!("{}s ago", t.elapsed().as_secs())),
                s.lists.saturating_sub(1).to_string(),
                s.reconnects.to_string(),
                thousands(s.events),
                thousands(s.objects),
                i.subscribers.to_string(),
                i.stops_in
                    .map_or_else(|| "-".into(), |d| format!("{}s", d.as_secs())),
            ])
        })
        .collect();
    let widths = [
        Constraint::Min(18),
        Constraint::Min(24),
        Constraint::Length(16),
        Constraint::Length(10),
        Constraint::Length(7),
        Constraint::Length(10),
        Constraint::Length(9),
        Constraint::Length(9),
        Constraint::Length(4),
        Constraint::Length(8),
    ];
    let title = format!(" informers[{}] ", infos.len());
    let n = infos.len();
    let header = Row::new(HEADERS.map(Line::from));
    let table = Table::new(rows, widths).header(header.style(theme.column));
    super::boxed_table(f, area, title, table, n, selected, theme)
}
