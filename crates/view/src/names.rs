//! The searchable names of one snapshot laid out contiguously (as typed and ASCII-lowercased)
//! so a per-keystroke scan walks two flat buffers instead of 100k heap rows. Owns only that
//! layout; must not match, sort, draw or do I/O.

use ktui_kube::row::Row;
use ktui_kube::rows::Rows;
use std::borrow::Cow;

/// The name a row is filtered and highlighted on: `namespace/name` when `all_namespaces` and
/// the row is namespaced, else `name`. Highlight indices refer to chars of this string.
pub fn display_name(row: &Row, all_namespaces: bool) -> Cow<'_, str> {
    if row.event.is_some() {
        return Cow::Owned(event_text(row));
    }
    match (&row.namespace, all_namespaces) {
        (Some(ns), true) => Cow::Owned(format!("{ns}/{}", row.name)),
        _ => Cow::Borrowed(&row.name),
    }
}

/// What an event row is searched on: its REASON, OBJECT and MESSAGE cells and the event's
/// own `metadata.name` (`web-0.17a8f3c2d1`), space-separated.
fn event_text(row: &Row) -> String {
    use ktui_table::event::cell;
    format!(
        "{} {} {} {}",
        cell(row, "REASON"),
        cell(row, "OBJECT"),
        cell(row, "MESSAGE"),
        row.name
    )
}

/// All rows' [`display_name`]s, in snapshot order. `~2 × total name bytes` of memory
/// (≈ 8 MB for 100k pods in all-namespaces mode); built once per snapshot revision, and only
/// when a query needs names.
#[derive(Debug)]
pub(crate) struct Names {
    text: String,
    lower: String,
    /// `ends[i]` is the byte offset where name `i` ends; name `i` starts at `ends[i - 1]`.
    ends: Vec<u32>,
}

impl Names {
    /// Lays out the display names of `rows`. With `carry` = (the previous snapshot's names,
    /// new→old row map with `u32::MAX` for "none"), runs of unchanged rows that were
    /// consecutive before too (whole chunks shared with the previous snapshot, usually) are
    /// copied from the old flat buffers in one piece, lower-cased text included; only new or
    /// changed rows are read from their heap rows.
    pub(crate) fn build(rows: &Rows, all_namespaces: bool, carry: Option<(&Names, &[u32])>) -> Names {
        let Some((old, remap)) = carry.filter(|(_, remap)| remap.len() == rows.len()) else {
            let mut text = String::with_capacity(rows.len() * 40);
            let mut ends = Vec::with_capacity(rows.len());
            for row in rows {
                Self::push(&mut text, row, all_namespaces);
                ends.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
            }
            let lower = text.to_ascii_lowercase();
            return Names { text, lower, ends };
        };
        let mut names = Names {
            text: String::with_capacity(old.text.len() + 64),
            lower: String::with_capacity(old.text.len() + 64),
            ends: Vec::with_capacity(rows.len()),
        };
        let mut i = 0;
        while i < remap.len() {
            let j = remap[i] as usize;
            if j >= old.ends.len() {
                let from = names.text.len();
                Self::push(&mut names.text, &rows[i], all_namespaces);
                names.lower.push_str(&names.text[from..].to_ascii_lowercase());
                names
                    .ends
                    .push(u32::try_from(names.text.len()).unwrap_or(u32::MAX));
                i += 1;
                continue;
            }
            // The run of rows i.. that map to j.. in order.
            let mut run = 1;
            while remap.get(i + run).is_some_and(|&r| r as usize == j + run) && j + run < old.ends.len() {
                run += 1;
            }
            names.copy_run(old, j, run);
            i += run;
        }
        names
    }

    /// Appends old names `j..j + run` (text, lower-cased text and their ends) in one piece.
    fn copy_run(&mut self, old: &Names, j: usize, run: usize) {
        let start = old.span(j).0;
        let end = old.ends[j + run - 1] as usize;
        let base = self.text.len();
        self.text.push_str(&old.text[start..end]);
        self.lower.push_str(&old.lower[start..end]);
        let shift = |e: u32| u32::try_from(e as usize - start + base).unwrap_or(u32::MAX);
        self.ends.extend(old.ends[j..j + run].iter().map(|&e| shift(e)));
    }

    /// Appends the name of `row`.
    fn push(text: &mut String, row: &Row, all_namespaces: bool) {
        if row.event.is_some() {
            text.push_str(&event_text(row));
            return;
        }
        if let (Some(ns), true) = (&row.namespace, all_namespaces) {
            text.push_str(ns);
            text.push('/');
        }
        text.push_str(&row.name);
    }

    fn span(&self, i: usize) -> (usize, usize) {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        (start, self.ends[i] as usize)
    }

    /// Name of row `i` as typed. Panics if `i` is out of range (callers index within the
    /// snapshot the names were built from).
    pub(crate) fn get(&self, i: usize) -> &str {
        let (a, b) = self.span(i);
        &self.text[a..b]
    }

    /// Name of row `i`, ASCII-lowercased (same byte offsets as [`Names::get`]).
    pub(crate) fn lower(&self, i: usize) -> &str {
        let (a, b) = self.span(i);
        &self.lower[a..b]
    }
}
