//! Small tables of ktui's own views (`:informers`, `:ctx`) laid out by value like the lists:
//! widths from the widest cell in terminal cells ([`crate::view::columns::fit`]), the least
//! useful columns dropped whole on a narrow terminal and named in the title, cuts marked
//! `…`, headers never run together, columns [`GAP`] apart as in the lists. Each column borrows the layout role of a list column
//! (its priority, where it is cut, whether it is the flexible one). Must not read state.

use ratatui::layout::Constraint;
use ratatui::text::Line;
use ratatui::widgets::Row;

use crate::view::columns::{cut_of, fit, priority, ColumnIn, Fitted};
use crate::view::cut;

/// One column: its header and the list column whose layout role it takes (`NAME`: kept
/// longest and cut in the middle; `MESSAGE`: takes the free width; `AGE`: dropped early).
#[derive(Debug, Clone, Copy)]
pub(super) struct Col {
    pub header: &'static str,
    /// A shorter header used when the column's values fit but its header does not
    /// (`RESOURCE VERSION` → `RV`), tried before any column is dropped; "" for none.
    pub short: &'static str,
    pub role: &'static str,
}

/// The laid-out table: header row, rows, widths, and the headers that did not fit.
pub(super) struct Laid {
    pub header: Row<'static>,
    pub rows: Vec<Row<'static>>,
    pub widths: Vec<Constraint>,
    pub hidden: Vec<&'static str>,
}

impl Laid {
    /// ` 2 hidden: SUBS STOPS IN ` for the title, in at most `room` cells (the names cut
    /// with `…` when they do not fit; the count always shows), or "".
    pub fn hidden_note(&self, room: usize) -> String {
        if self.hidden.is_empty() {
            return String::new();
        }
        let count = format!(" {} hidden", self.hidden.len());
        let names = format!(": {} ", self.hidden.join(" "));
        let left = room.saturating_sub(cut::width(&count) + 1);
        if left < 6 {
            return format!("{count} ");
        }
        format!("{count}{}", cut::fit(&names, left, cut::Cut::End))
    }
}

/// The headers of usage figures in ktui's own tables (the containers view's), which yield
/// to a cut NAME or STATUS column (see `ColumnIn::yields`).
const USAGE_HEADERS: [&str; 7] = ["CPU", "MEM", "%CPU/R", "%CPU/L", "%MEM/R", "%MEM/L", "TREND"];

/// Cells between columns, in every table (the lists and ktui's own views alike).
pub(crate) const GAP: usize = 2;

/// Lays `cells` (one `Vec` per row, one string per column, already sanitized) out in
/// `avail` cells with [`GAP`] cells between columns.
pub(super) fn lay_out(cols: &[Col], cells: &[Vec<String>], avail: usize) -> Laid {
    let measure = |i: usize, header: &str| {
        let mut m = ColumnIn::measure(
            header,
            false,
            cells.iter().filter_map(|r| r.get(i).map(String::as_str)),
        );
        m.header = cols[i].role.to_owned();
        // The usage figures (containers view) give way to a cut NAME or STATUS.
        m.yields = USAGE_HEADERS.contains(&cols[i].header);
        m
    };
    let mut headers: Vec<&'static str> = cols.iter().map(|c| c.header).collect();
    let mut ins: Vec<ColumnIn> = (0..cols.len()).map(|i| measure(i, headers[i])).collect();
    // A column narrower than its header is dropped rather than shown with a cut header.
    let mut keep: Vec<usize> = (0..cols.len()).collect();
    let fitted = loop {
        let subset: Vec<ColumnIn> = keep.iter().map(|&i| ins[i].clone()).collect();
        let f = fit(&subset, avail, GAP, 0);
        let narrow = f.shown.iter().any(|&(p, w)| w < cut::width(headers[keep[p]]));
        // First the least useful column with a short header takes it (the values still
        // show whole); then the least useful column shown goes (rightmost on a tie).
        let by_use = |&p: &usize| (priority(cols[keep[p]].role), usize::MAX - p);
        let shorten = (0..keep.len())
            .filter(|&p| !cols[keep[p]].short.is_empty() && headers[keep[p]] != cols[keep[p]].short)
            .min_by_key(by_use);
        let least = f.shown.iter().map(|&(p, _)| p).min_by_key(by_use);
        match (shorten, least) {
            (Some(p), _) if narrow => {
                let i = keep[p];
                headers[i] = cols[i].short;
                ins[i] = measure(i, headers[i]);
            }
            (_, Some(p)) if narrow && keep.len() > 1 => {
                keep.remove(p);
            }
            _ => {
                let shown: Vec<(usize, usize)> = f.shown.iter().map(|&(p, w)| (keep[p], w)).collect();
                let hidden = (0..cols.len())
                    .filter(|i| !shown.iter().any(|(s, _)| s == i))
                    .collect();
                break Fitted {
                    shown,
                    hidden,
                    scroll: 0,
                };
            }
        }
    };
    let header = Row::new(
        fitted
            .shown
            .iter()
            .map(|&(i, w)| Line::from(cut::fit(headers[i], w, cut::Cut::End).into_owned()))
            .collect::<Vec<_>>(),
    );
    let rows = cells
        .iter()
        .map(|r| {
            Row::new(
                fitted
                    .shown
                    .iter()
                    .map(|&(i, w)| {
                        let text = r.get(i).map_or("", String::as_str);
                        Line::from(cut::fit(text, w, cut_of(cols[i].role)).into_owned())
                    })
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let widths = fitted
        .shown
        .iter()
        .map(|&(_, w)| Constraint::Length(u16::try_from(w).unwrap_or(u16::MAX)))
        .collect();
    let hidden = fitted.hidden.iter().map(|&i| cols[i].header).collect();
    Laid {
        header,
        rows,
        widths,
        hidden,
    }
}
