//! `:can`: the subjects a verb on a resource is granted to (KIND, NAME, NAMESPACE, the
//! BINDING and ROLE granting it, the object names it is LIMITED TO), or what one subject may
//! do (SCOPE, RESOURCE, VERBS, NAMES, VIA), laid out by value like every table; the title
//! asks the question and says when the answer is partial (an RBAC list the user may not
//! read) or still coming. Read-only over the view's state.

use ratatui::layout::Rect;
use ratatui::widgets::Table;
use ratatui::Frame;

use crate::app::can::model::{CanMode, CanState};
use crate::kube::rbac::eval::PRIVILEGED_GROUP;
use crate::kube::sanitize::sanitize;

use super::fit_table::{lay_out, Col};
use super::theme::Theme;

const fn col(header: &'static str, role: &'static str) -> Col {
    Col {
        header,
        short: "",
        role,
    }
}

/// who-can's columns: NAME kept longest, the binding next, ROLE taking the free width.
const WHO: [Col; 6] = [
    col("KIND", "STATUS"),
    col("NAME", "NAME"),
    col("NAMESPACE", "NAMESPACE"),
    col("BINDING", "OBJECT"),
    col("ROLE", "MESSAGE"),
    col("LIMITED TO", "REASON"),
];

/// what-can's columns: the resource kept longest, VIA (often long) takes the free width.
const WHAT: [Col; 5] = [
    col("SCOPE", "NAMESPACE"),
    col("RESOURCE", "NAME"),
    col("VERBS", "STATUS"),
    col("NAMES", "REASON"),
    col("VIA", "MESSAGE"),
];

pub(super) fn draw(f: &mut Frame, area: Rect, c: &CanState, theme: &Theme) {
    let cols: &[Col] = match c.mode {
        CanMode::WhoCan(_) => &WHO,
        CanMode::MayDo { .. } => &WHAT,
    };
    let cells: Vec<Vec<String>> = c
        .rows
        .iter()
        .map(|r| r.iter().map(|t| sanitize(t).into_owned()).collect())
        .collect();
    let laid = lay_out(cols, &cells, usize::from(area.width.saturating_sub(2)));
    // The hidden columns before the notes: on a narrow terminal the title is cut at its end.
    let head = format!(" {} [{}]", sanitize(&c.question()), c.rows.len());
    let room = usize::from(area.width.saturating_sub(4)).saturating_sub(crate::view::cut::width(&head));
    let title = format!("{head}{}{} ", laid.hidden_note(room).trim_end(), state_note(c));
    let table = Table::new(laid.rows, laid.widths).header(laid.header.style(theme.column));
    super::boxed_table(f, area, title, table, c.rows.len(), c.selected, theme)
}

/// What the title adds after the count: still asking, the lists that could not be read, the
/// group kube-apiserver always allows, `enter`'s meaning.
fn state_note(c: &CanState) -> String {
    let Some(policy) = &c.policy else {
        return " — asking the API server…".into();
    };
    let mut note = String::new();
    if !policy.missing.is_empty() {
        let nothing = policy.roles.is_empty()
            && policy.cluster_roles.is_empty()
            && policy.role_bindings.is_empty()
            && policy.cluster_role_bindings.is_empty();
        let what = if nothing { "no answer" } else { "partial" };
        note.push_str(&format!(" — {what}: {}", sanitize(&policy.missing.join("; "))));
    }
    if let CanMode::WhoCan(_) = c.mode {
        note.push_str(&format!(
            " — group {PRIVILEGED_GROUP} may always; enter: what a subject may do"
        ));
    }
    note
}
