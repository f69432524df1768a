//! The searchable names of one snapshot laid out contiguously (as typed and ASCII-lowercased)
//! so a per-keystroke scan walks two flat buffers instead of 100k heap rows. Owns only that
//! layout; must not match, sort, draw or do I/O.

use crate::kube::row::Row;
use crate::kube::rows::Rows;
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
    use crate::table::event::cell;
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
    /// new→old row map with `u32::MAX` for "none"), unchanged rows are copied from the old
    /// flat buffer instead of being read from their scattered heap rows.
    pub(crate) fn build(rows: &Rows, all_namespaces: bool, carry: Option<(&Names, &[u32])>) -> Names {
        let mut text = String::with_capacity(carry.map_or(rows.len() * 40, |(old, _)| old.text.len() + 64));
        let mut ends = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            Self::push(&mut text, i, row, all_namespaces, carry);
            ends.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
        }
        let lower = text.to_ascii_lowercase();
        Names { text, lower, ends }
    }

    /// Appends the name of row `i`, from `carry` when the row is unchanged.
    fn push(text: &mut String, i: usize, row: &Row, all_namespaces: bool, carry: Option<(&Names, &[u32])>) {
        match carry.and_then(|(old, remap)| Some((old, *remap.get(i)?))) {
            Some((old, j)) if (j as usize) < old.ends.len() => text.push_str(old.get(j as usize)),
            _ if row.event.is_some() => text.push_str(&event_text(row)),
            _ => {
                if let (Some(ns), true) = (&row.namespace, all_namespaces) {
                    text.push_str(ns);
                    text.push('/');
                }
                text.push_str(&row.name);
            }
        }
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
