//! The revisions view of a deployment: REVISION, IMAGES, CHANGE-CAUSE, AGE, newest first,
//! the revision in use marked; laid out by value like every table (cuts marked `…`, an
//! image keeping its tag, dropped columns named in the title). Draws only; the rows come
//! from `app::history::model::RevisionsState`.

use ratatui::layout::Rect;
use ratatui::widgets::Table;
use ratatui::Frame;

use crate::app::history::model::RevisionsState;
use crate::kube::row::UnixSecs;
use crate::kube::sanitize::sanitize;
use crate::table::format::age;

use super::fit_table::{lay_out, Col};
use super::theme::Theme;

/// The columns with their layout roles: IMAGES cut in the middle (the tag stays), the
/// change cause taking the free width, AGE dropped first.
const COLS: [Col; 4] = [
    Col {
        header: "REVISION",
        short: "REV",
        role: "STATUS",
    },
    Col {
        header: "IMAGES",
        short: "",
        role: "NAME",
    },
    Col {
        header: "CHANGE-CAUSE",
        short: "CAUSE",
        role: "MESSAGE",
    },
    Col {
        header: "AGE",
        short: "",
        role: "AGE",
    },
];

pub(super) fn draw(f: &mut Frame, area: Rect, r: &RevisionsState, theme: &Theme, now: UnixSecs) {
    let cells: Vec<Vec<String>> = r
        .revisions
        .iter()
        .enumerate()
        .map(|(i, rev)| {
            let number = if i == 0 {
                format!("{} (in use)", rev.number)
            } else {
                rev.number.to_string()
            };
            vec![
                number,
                sanitize(&rev.images.join(",")).into_owned(),
                sanitize(rev.change_cause.as_deref().unwrap_or("<none>")).into_owned(),
                age(rev.created, now),
            ]
        })
        .collect();
    let laid = lay_out(&COLS, &cells, usize::from(area.width.saturating_sub(2)));
    let head = format!(
        " revisions({})[{}] ",
        sanitize(&r.target.label()),
        r.revisions.len()
    );
    let room = usize::from(area.width.saturating_sub(4)).saturating_sub(crate::view::cut::width(&head));
    let title = format!("{head}{}", laid.hidden_note(room));
    let rows = laid
        .rows
        .into_iter()
        .enumerate()
        .map(|(i, row)| if i == 0 { row.style(theme.ok) } else { row });
    let table = Table::new(rows, laid.widths).header(laid.header.style(theme.column));
    super::boxed_table(f, area, title, table, r.revisions.len(), r.selected, theme)
}
