//! Marks of a list: rows the user picked with `space` (one), `ctrl-space` (a range from the last
//! mark) and cleared with `ctrl-\`, keyed by uid so they survive filtering, sorting and live
//! updates, and dropped when their object leaves the snapshot. Actions apply to the marked rows,
//! else to the selected one ([`targets`]). Owns marking (the set is `writes::model::Marks`); must
//! not perform I/O.

use crate::kube::write::Target;

use crate::app::state::ListState;

/// What an action on list `l` applies to: the marked rows, else the selected one; empty
/// when there is neither.
pub fn targets(l: &ListState) -> Vec<Target> {
    let kind = l.key.kind.clone();
    if !l.marks.is_empty() {
        return l
            .marks
            .names()
            .into_iter()
            .map(|(ns, name)| Target::new(kind.clone(), ns.as_deref(), &name))
            .collect();
    }
    l.cache
        .selected_row(l.selected)
        .map(|r| Target::new(kind, r.namespace.as_deref(), &r.name))
        .into_iter()
        .collect()
}

/// `space`: marks or unmarks the selected row and moves down one row.
pub fn toggle(l: &mut ListState) {
    let Some(row) = l.cache.selected_row(l.selected) else {
        return;
    };
    l.marks.toggle(&row);
    if l.selected + 1 < l.cache.len() {
        l.selected += 1;
        l.remember_selected();
    }
}

/// `ctrl-space`: marks every row between the last mark (as displayed now) and the selected
/// one; without a visible last mark, the selected row alone.
pub fn range(l: &mut ListState) {
    let here = l.selected;
    let from = l
        .marks
        .anchor()
        .and_then(|key| {
            (0..l.cache.len()).find(|&i| {
                l.cache
                    .selected_row(i)
                    .is_some_and(|r| crate::app::writes::model::mark_key(&r) == key)
            })
        })
        .unwrap_or(here);
    let (a, b) = if from <= here { (from, here) } else { (here, from) };
    let rows = l.cache.visible(a, b - a + 1);
    l.marks.mark_all(&rows);
}

/// The marked objects the list's filter hides (names, sorted), so that a dialog acting on
/// the marks can say so: what is not on screen is acted on too.
pub fn hidden(l: &ListState) -> Vec<String> {
    if l.marks.is_empty() || l.filter.is_empty() {
        return Vec::new();
    }
    let shown: std::collections::HashSet<(Option<String>, String)> = (0..l.cache.len())
        .filter_map(|i| l.cache.selected_row(i))
        .map(|r| (r.namespace.as_deref().map(str::to_owned), r.name.to_string()))
        .collect();
    l.marks
        .names()
        .into_iter()
        .map(|(ns, name)| (ns.as_deref().map(str::to_owned), name.to_string()))
        .filter(|k| !shown.contains(k))
        .map(|(_, name)| name)
        .collect()
}
