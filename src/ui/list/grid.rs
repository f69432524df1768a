//! The list's grid: the visible rows as text, one cell per column — NAMESPACE, NAME, the
//! kind's columns and the usage columns before AGE —, each column measured and ranked for
//! `view::columns::fit`; the sort mark and the note naming hidden columns. Pure text; must
//! not draw.

use ratatui::style::Style;

use crate::app::state::{ListState, SortBy};
use crate::kube::row::{Row, UnixSecs};
use crate::table::format::format_cell;
use crate::table::KindSpec;
use crate::view::columns::{self, ColumnIn};
use crate::view::cut;

use crate::ui::theme::Theme;
use crate::ui::usage::{Fig, UsageView};

/// The visible rows as text, with every column measured (NAMESPACE, NAME, the kind's
/// columns, the usage columns; wide ones flagged, shown only in wide mode).
pub(super) struct Grid {
    pub(super) cols: Vec<ColumnIn>,
    pub(super) body: Vec<Vec<String>>,
    /// Per cell, a style of its own (usage thresholds, stale values), over the row's.
    pub(super) styles: Vec<Vec<Option<Style>>>,
    pub(super) name_col: Option<usize>,
    /// The column the sort uses, which alone gets the `↑`/`↓` (none in a timeline).
    pub(super) sorted: Option<usize>,
}

/// Where a column of the grid comes from.
#[derive(Clone, Copy, PartialEq)]
enum Src {
    /// A union's CONTEXT: the row's cluster.
    Context,
    Namespace,
    Name,
    /// The kind's column of this index in its spec.
    Kind(usize),
    Usage(Fig),
}

impl Grid {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn build(
        l: &ListState,
        spec: &KindSpec,
        visible: &[std::sync::Arc<Row>],
        all_ns: bool,
        now: UnixSecs,
        usage: Option<&UsageView>,
        theme: &Theme,
        contexts: &[(u16, std::sync::Arc<str>, bool)],
    ) -> Grid {
        // The timeline identifies events by their columns; the event's own name is noise.
        let show_name = !l.is_timeline();
        let kind_cols: Vec<usize> = spec.visible(l.wide).map(|(i, _)| i).collect();
        let figs = usage.map(|u| u.cols(l.wide)).unwrap_or_default();
        // Usage goes before AGE (where k9s has it), else after the kind's default columns.
        let at = kind_cols
            .iter()
            .position(|&i| spec.columns[i].header == "AGE")
            .or_else(|| kind_cols.iter().position(|&i| spec.columns[i].wide))
            .unwrap_or(kind_cols.len());
        let mut srcs: Vec<Src> = Vec::new();
        if l.union.is_some() {
            srcs.push(Src::Context);
        }
        if all_ns {
            srcs.push(Src::Namespace);
        }
        if show_name {
            srcs.push(Src::Name);
        }
        srcs.extend(kind_cols[..at].iter().map(|&i| Src::Kind(i)));
        srcs.extend(figs.iter().map(|&f| Src::Usage(f)));
        srcs.extend(kind_cols[at..].iter().map(|&i| Src::Kind(i)));
        let target = usage.map(|u| u.target());
        let head = |src: Src| -> (&str, bool) {
            match (src, target) {
                (Src::Context, _) => ("CONTEXT", false),
                (Src::Namespace, _) => ("NAMESPACE", false),
                (Src::Name, _) => ("NAME", false),
                (Src::Kind(i), _) => (spec.columns[i].header.as_ref(), spec.columns[i].wide),
                (Src::Usage(f), Some(t)) => (f.header(t), f.wide()),
                (Src::Usage(_), None) => ("", false),
            }
        };
        let heads: Vec<(&str, bool)> = srcs.iter().map(|&s| head(s)).collect();
        let mut body: Vec<Vec<String>> = Vec::with_capacity(visible.len());
        let mut styles: Vec<Vec<Option<Style>>> = Vec::with_capacity(visible.len());
        for r in visible {
            let mut used = usage
                .map(|u| u.cells(r, &figs, theme))
                .unwrap_or_default()
                .into_iter();
            let (cells, looks): (Vec<String>, Vec<Option<Style>>) = srcs
                .iter()
                .map(|src| match src {
                    Src::Context => {
                        let at = contexts.iter().position(|(o, _, _)| *o == r.origin);
                        let name = at.map_or("?".to_owned(), |i| contexts[i].1.to_string());
                        let style = match at.map(|i| contexts[i].2) {
                            Some(true) => crate::ui::theme::tag(theme, at.unwrap_or(0)),
                            _ => theme.warn,
                        };
                        (name, Some(style))
                    }
                    Src::Namespace => (r.namespace.as_deref().unwrap_or("").to_owned(), None),
                    Src::Name => (r.name.to_string(), None),
                    Src::Kind(i) => (
                        r.cells
                            .get(*i)
                            .map(|c| format_cell(c, now).into_owned())
                            .unwrap_or_default(),
                        None,
                    ),
                    Src::Usage(_) => used.next().unwrap_or_default(),
                })
                .unzip();
            body.push(cells);
            styles.push(looks);
        }
        // The one column the sort uses: ktui's NAME (a CRD's own `Name` column is another),
        // the kind's AGE, its status column, or the usage column sorted by.
        let sorted = match l.sort {
            _ if l.is_timeline() => None,
            SortBy::Name => srcs.iter().position(|s| *s == Src::Name),
            SortBy::Age => srcs
                .iter()
                .position(|s| matches!(s, Src::Kind(i) if spec.columns[*i].header == "AGE")),
            SortBy::Status => srcs
                .iter()
                .position(|s| matches!(s, Src::Kind(i) if Some(*i) == spec.status_col)),
            SortBy::Usage(_) => srcs
                .iter()
                .position(|s| matches!(s, Src::Usage(f) if f.sorted(l))),
        };
        let mut cols: Vec<ColumnIn> = heads
            .iter()
            .enumerate()
            .map(|(c, (h, wide))| {
                let mut col = ColumnIn::measure(h, *wide, body.iter().map(|r| r[c].as_str()));
                // The header is drawn with its sort mark: `NAME↑` must fit as well as `NAME`.
                col.natural = col.natural.max(cut::width(&sort_mark(h, sorted == Some(c), l)));
                col
            })
            .collect();
        ColumnIn::drop_first(&mut cols, crate::table::drop_first(&l.key.kind));
        for (col, src) in cols.iter_mut().zip(&srcs) {
            if let (Src::Usage(f), Some(t)) = (src, target) {
                col.rank = Some(f.rank(t));
                col.yields = true;
            }
        }
        Grid {
            cols,
            body,
            styles,
            name_col: srcs.iter().position(|s| *s == Src::Name),
            sorted,
        }
    }
}

/// ` 3 hidden: IP NODE AGE · shift-←/→ ` when columns did not fit or are scrolled off,
/// shortened to fit `room` cells of the title bar (the names cut with `…`, at least
/// ` 3 hidden `).
pub(super) fn hidden_note(grid: &Grid, fitted: &columns::Fitted, room: usize) -> Option<String> {
    if fitted.hidden.is_empty() {
        return None;
    }
    let names: Vec<&str> = fitted
        .hidden
        .iter()
        .map(|&i| grid.cols[i].header.as_str())
        .collect();
    let n = names.len();
    let full = format!(" {n} hidden: {} · shift-←/→ ", names.join(" "));
    if cut::width(&full) <= room {
        return Some(full);
    }
    let short = format!(" {n} hidden: {} ", names.join(" "));
    if cut::width(&short) <= room {
        return Some(short);
    }
    let bare = format!(" {n} hidden ");
    let lead = format!(" {n} hidden: ");
    let left = room.saturating_sub(cut::width(&lead) + 1);
    if left >= 6 {
        return Some(format!(
            "{lead}{} ",
            cut::fit(&names.join(" "), left, cut::Cut::End)
        ));
    }
    Some(bare)
}

/// The header with `↑`/`↓` when it heads the sorted column (see [`Grid::sorted`]): the
/// direction of its values down the list (usage sorts start highest first, `↓`).
pub(super) fn sort_mark(header: &str, sorted: bool, l: &ListState) -> String {
    if !sorted {
        return header.to_owned();
    }
    let descending = l.reverse != matches!(l.sort, SortBy::Usage(_));
    format!("{header}{}", if descending { "↓" } else { "↑" })
}
