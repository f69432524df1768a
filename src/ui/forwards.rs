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
use crate::view::cut;

const HEADERS: [&str; 6] = ["LOCAL", "TARGET", "POD", "STATE", "CONNS", "IN / OUT"];

pub(super) fn draw(f: &mut Frame, area: Rect, infos: &[ForwardInfo], selected: usize, theme: &Theme) {
    let cells: Vec<[String; 6]> = infos
        .iter()
        .map(|i| {
            [
                i.local.to_string(),
                sanitize(&i.target).into_owned(),
                sanitize(i.pod.as_deref().unwrap_or("-")).into_owned(),
                sanitize(&i.state.words()).into_owned(),
                format!("{} open, {} in all", i.open, thousands(i.total)),
                format!("{} / {}", bytes(i.bytes_in), bytes(i.bytes_out)),
            ]
        })
        .collect();
    let widths = plan(&cells, area.width.saturating_sub(2));
    let shown: Vec<usize> = (0..HEADERS.len()).filter(|c| widths[*c] > 0).collect();
    let rows: Vec<Row> = infos
        .iter()
        .zip(&cells)
        .map(|(i, row)| {
            let style = match i.state {
                ForwardState::Active => theme.ok,
                ForwardState::Broken(_) => theme.error,
                _ => theme.warn,
            };
            // TARGET and STATE may be cut to fit: marked `…`, never clipped silently.
            let fit = |c: usize| cut::fit(&row[c], usize::from(widths[c]), cut::Cut::End).into_owned();
            Row::new(shown.iter().map(|&c| match c {
                3 => Line::styled(fit(3), style),
                c => Line::from(fit(c)),
            }))
        })
        .collect();
    let constraints: Vec<Constraint> = shown.iter().map(|c| Constraint::Length(widths[*c])).collect();
    let title = format!(" port-forwards[{}] ", infos.len());
    let header = Row::new(shown.iter().map(|c| Line::from(HEADERS[*c])));
    let table = Table::new(rows, constraints).header(header.style(theme.column));
    super::boxed_table(f, area, title, table, infos.len(), selected, theme)
}

/// Column widths for `inner` cells of width: each column as wide as its widest value (or
/// header); when they do not fit, IN / OUT goes first, then CONNS, then POD (0 = hidden),
/// then TARGET is cut, then STATE. LOCAL always shows whole.
fn plan(cells: &[[String; 6]], inner: u16) -> [u16; 6] {
    let mut w = [0u16; 6];
    for (c, h) in HEADERS.iter().enumerate() {
        let widest = cells.iter().map(|r| cut::width(&r[c])).max().unwrap_or(0);
        w[c] = u16::try_from(widest.max(h.len())).unwrap_or(u16::MAX);
    }
    // The lists' gap between shown columns.
    let gap = super::fit_table::GAP as u16;
    let total = |w: &[u16; 6]| {
        let shown = w.iter().filter(|x| **x > 0).count() as u16;
        w.iter().sum::<u16>() + shown.saturating_sub(1) * gap
    };
    for drop in [5, 4, 2] {
        if total(&w) <= inner {
            return w;
        }
        w[drop] = 0;
    }
    for cut in [1, 3] {
        let over = total(&w).saturating_sub(inner);
        w[cut] = w[cut].saturating_sub(over).max(6);
    }
    w
}

/// `512 B`, `1.5 KiB`, `12.0 MiB`.
fn bytes(n: u64) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..1_048_576 => format!("{:.1} KiB", n as f64 / 1024.0),
        _ => format!("{:.1} MiB", n as f64 / 1_048_576.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(target: &str, pod: &str) -> [String; 6] {
        [
            "127.0.0.1:45867".into(),
            target.into(),
            pod.into(),
            "active".into(),
            "0 open, 12 in all".into(),
            "1.5 KiB / 40 B".into(),
        ]
    }

    #[test]
    fn columns_are_as_wide_as_their_values_and_the_least_needed_go_first() {
        let cells = vec![row(
            "pod/frontend-bgddjfbdad-484pf:8080",
            "frontend-bgddjfbdad-484pf",
        )];
        // 160 columns: everything whole.
        assert_eq!(plan(&cells, 158), [15, 34, 25, 6, 17, 14]);
        // 120: the same, it fits (121 with the gaps of 2).
        assert_eq!(plan(&cells, 121), [15, 34, 25, 6, 17, 14]);
        // Narrower: IN / OUT and CONNS go, TARGET and POD stay whole.
        assert_eq!(plan(&cells, 86), [15, 34, 25, 6, 0, 0]);
        // 80: POD goes too; then TARGET is cut to fit.
        assert_eq!(plan(&cells, 78), [15, 34, 0, 6, 0, 0]);
        assert_eq!(plan(&cells, 50), [15, 25, 0, 6, 0, 0]);
    }
}
