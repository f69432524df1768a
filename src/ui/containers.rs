//! The containers view of one pod: a table of its init, sidecar and app containers with
//! their state, live from the pod's watch, laid out by value like the lists (cuts marked
//! `…`, the least useful columns dropped whole and named in the title). Read-only.

use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Paragraph, Table};
use ratatui::Frame;

use crate::app::containers::model::{cells, ContainersState};
use crate::kube::logs::pods::CState;
use crate::kube::sanitize::sanitize;

use super::fit_table::{lay_out, Col};
use super::theme::Theme;

/// The columns with their layout roles: NAME kept longest; IMAGE takes the free width and
/// is cut in the middle (its tag stays); STATE is the status; PORTS and AGE go first.
const COLS: [Col; 8] = [
    col("NAME", "NAME"),
    col("ROLE", "TYPE"),
    col("IMAGE", "MESSAGE"),
    col("READY", "READY"),
    col("STATE", "STATUS"),
    col("RESTARTS", "RESTARTS"),
    col("PORTS", "COUNT"),
    col("AGE", "AGE"),
];

const fn col(header: &'static str, role: &'static str) -> Col {
    Col {
        header,
        short: "",
        role,
    }
}

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
    let styles: Vec<_> = pod
        .containers
        .iter()
        .map(|ci| match &ci.state {
            CState::Running(_) if ci.ready => theme.ok,
            CState::Terminated { exit_code: 0, .. } => theme.dim,
            CState::Terminated { .. } => theme.error,
            CState::Waiting(r) if r.contains("BackOff") || r.contains("Err") => theme.error,
            _ => theme.warn,
        })
        .collect();
    let body: Vec<Vec<String>> = pod
        .containers
        .iter()
        .map(|ci| cells(ci, created, now).into_iter().collect())
        .collect();
    let laid = lay_out(&COLS, &body, usize::from(area.width.saturating_sub(2)));
    let room = usize::from(area.width.saturating_sub(4)).saturating_sub(crate::view::cut::width(&title));
    let title = format!("{title}{}", laid.hidden_note(room));
    let rows: Vec<_> = laid
        .rows
        .into_iter()
        .zip(styles)
        .map(|(r, s)| r.style(s))
        .collect();
    let n = rows.len();
    let table = Table::new(rows, laid.widths).header(laid.header.style(theme.column));
    super::boxed_table(f, area, title, table, n, c.selected, theme);
}
