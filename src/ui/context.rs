//! `:ctx`: the kubeconfig's contexts as k9s shows them — the one in use marked, NAME,
//! CLUSTER, AUTHINFO (the user) and NAMESPACE — laid out by value. Read-only over `UiState`.

use ratatui::layout::Rect;
use ratatui::widgets::Table;
use ratatui::Frame;

use crate::app::state::UiState;
use crate::kube::sanitize::sanitize;

use super::fit_table::{lay_out, Col};
use super::theme::Theme;

/// The columns with their layout roles: NAME kept longest, then the mark, CLUSTER,
/// NAMESPACE, AUTHINFO.
const COLS: [Col; 5] = [
    Col {
        header: "",
        short: "",
        role: "STATUS",
    },
    Col {
        header: "NAME",
        short: "",
        role: "NAME",
    },
    Col {
        header: "CLUSTER",
        short: "",
        role: "OBJECT",
    },
    Col {
        header: "AUTHINFO",
        short: "",
        role: "COUNT",
    },
    Col {
        header: "NAMESPACE",
        short: "",
        role: "NAMESPACE",
    },
];

pub(super) fn draw(f: &mut Frame, area: Rect, state: &UiState, selected: usize, theme: &Theme) {
    let cells: Vec<Vec<String>> = state
        .conn
        .contexts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let current = state.conn.context.as_deref() == Some(c.as_str());
            let in_union = state.conn.fleet.as_ref().is_some_and(|f| f.by_name(c).is_some());
            let marked = state.conn.ctx_marks.iter().any(|m| m == c);
            let mark = match (marked, current, in_union) {
                (true, _, _) => "[x]",
                (false, true, _) => "(*)",
                (false, false, true) => "(+)",
                _ => "",
            };
            let [cluster, user, ns] = state.conn.context_details.get(i).cloned().unwrap_or_default();
            let ns = if ns.is_empty() { "default".to_owned() } else { ns };
            [mark.to_owned(), c.clone(), cluster, user, ns]
                .iter()
                .map(|t| sanitize(t).into_owned())
                .collect()
        })
        .collect();
    let laid = lay_out(&COLS, &cells, usize::from(area.width.saturating_sub(2)));
    let head = match state.conn.ctx_marks.len() {
        0 => format!(
            " contexts[{}] — enter switches · space marks for a union ",
            state.conn.contexts.len()
        ),
        n => format!(
            " contexts[{}] — {n} marked · enter opens their union ",
            state.conn.contexts.len()
        ),
    };
    let room = usize::from(area.width.saturating_sub(4)).saturating_sub(crate::view::cut::width(&head));
    let title = format!("{head}{}", laid.hidden_note(room));
    let n = state.conn.contexts.len();
    let table = Table::new(laid.rows, laid.widths).header(laid.header.style(theme.column));
    super::boxed_table(f, area, title, table, n, selected, theme)
}
