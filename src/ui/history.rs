//! The revisions view of a deployment: REVISION, IMAGES, CHANGE-CAUSE, AGE, newest first,
//! the revision in use marked. Draws only; the rows come from `app::history::model::RevisionsState`.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Row, Table};
use ratatui::Frame;

use crate::app::history::model::RevisionsState;
use crate::kube::row::UnixSecs;
use crate::kube::sanitize::sanitize;
use crate::table::format::age;

use super::theme::Theme;

const HEADERS: [&str; 4] = ["REVISION", "IMAGES", "CHANGE-CAUSE", "AGE"];

pub(super) fn draw(f: &mut Frame, area: Rect, r: &RevisionsState, theme: &Theme, now: UnixSecs) {
    let rows: Vec<Row> = r
        .revisions
        .iter()
        .enumerate()
        .map(|(i, rev)| {
            let number = if i == 0 {
                Line::styled(format!("{} (in use)", rev.number), theme.ok)
            } else {
                Line::from(rev.number.to_string())
            };
            Row::new(vec![
                number,
                sanitize(&rev.images.join(",")).into_owned().into(),
                sanitize(rev.change_cause.as_deref().unwrap_or("<none>"))
                    .into_owned()
                    .into(),
                age(rev.created, now).into(),
            ])
        })
        .collect();
    let widths = [
        Constraint::Length(14),
        Constraint::Min(20),
        Constraint::Min(20),
        Constraint::Length(6),
    ];
    let title = format!(
        " revisions({})[{}] ",
        sanitize(&r.target.label()),
        r.revisions.len()
    );
    let header = Row::new(HEADERS.map(Line::from));
    let table = Table::new(rows, widths).header(header.style(theme.column));
    super::boxed_table(f, area, title, table, r.revisions.len(), r.selected, theme)
}
