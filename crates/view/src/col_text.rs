//! [`ColTexts`]: the text one `col:` term reads (a column's cells, the namespace or the name)
//! of every row of one snapshot, laid out contiguously as shown and ASCII-lowercased, so
//! the per-keystroke scan of a column term walks flat buffers instead of 100k heap rows and
//! their cells. Owns that layout and its memo per snapshot; must not parse terms, sort or
//! draw. A new snapshot's texts copy the chunks it shares with the previous snapshot from the
//! previous texts in one piece each; only rows of rebuilt chunks are read.

use std::collections::HashMap;
use std::sync::Arc;

use ktui_kube::row::Row;

use ktui_kube::rows::Rows;
use ktui_kube::store::Snapshot;

use super::col_terms::{row_text, Target};

/// One target's text for every row of a snapshot: `~2 × total text bytes` plus 5 bytes a
/// row (≈ 2.3 MB for the STATUS column of 100k pods).
#[derive(Debug)]
pub struct ColText {
    text: String,
    lower: String,
    /// `ends[i]` is the byte offset where row `i`'s text ends; it starts at `ends[i - 1]`.
    ends: Vec<u32>,
    /// Rows without the text (a time cell, a custom resource's missing value).
    absent: Vec<bool>,
}

impl ColText {
    /// Lays out `target`'s text of each of `rows`, in order.
    pub fn build(rows: &Rows, target: Target) -> ColText {
        ColText::carried(rows, target, None)
    }

    /// [`ColText::build`], copying from `old` (the same target's texts of the rows `old`
    /// was built from) every chunk `rows` shares with those rows, in one piece per chunk.
    pub fn carried(rows: &Rows, target: Target, old: Option<(&ColText, &Rows)>) -> ColText {
        let shared: HashMap<*const [Arc<Row>], usize> = old
            .filter(|(t, r)| t.ends.len() == r.len())
            .map(|(_, r)| {
                (r.chunks().iter().enumerate())
                    .map(|(c, chunk)| (Arc::as_ptr(chunk), r.chunk_start(c)))
                    .collect()
            })
            .unwrap_or_default();
        let cap = old.map_or(rows.len() * 12, |(t, _)| t.text.len() + 64);
        let mut out = ColText {
            text: String::with_capacity(cap),
            lower: String::with_capacity(cap),
            ends: Vec::with_capacity(rows.len()),
            absent: Vec::with_capacity(rows.len()),
        };
        for chunk in rows.chunks() {
            match (old, shared.get(&Arc::as_ptr(chunk))) {
                (Some((old, _)), Some(&start)) => out.copy_run(old, start, chunk.len()),
                _ => chunk.iter().for_each(|row| out.push(row, target)),
            }
        }
        out
    }

    /// Appends `row`'s text.
    fn push(&mut self, row: &Row, target: Target) {
        match row_text(row, target) {
            Some(t) => {
                self.text.push_str(&t);
                self.lower.push_str(&t.to_ascii_lowercase());
                self.absent.push(false);
            }
            None => self.absent.push(true),
        }
        self.ends.push(u32::try_from(self.text.len()).unwrap_or(u32::MAX));
    }

    /// Appends rows `j..j + run` of `old` in one piece.
    fn copy_run(&mut self, old: &ColText, j: usize, run: usize) {
        let start = if j == 0 { 0 } else { old.ends[j - 1] as usize };
        let end = old.ends[j + run - 1] as usize;
        let base = self.text.len();
        self.text.push_str(&old.text[start..end]);
        self.lower.push_str(&old.lower[start..end]);
        let shift = |e: u32| u32::try_from(e as usize - start + base).unwrap_or(u32::MAX);
        self.ends.extend(old.ends[j..j + run].iter().map(|&e| shift(e)));
        self.absent.extend_from_slice(&old.absent[j..j + run]);
    }

    /// Row `i`'s text as shown and lower-cased, or `None` when the row has none (or `i` is
    /// past the end).
    pub fn get(&self, i: usize) -> Option<(&str, &str)> {
        if *self.absent.get(i)? {
            return None;
        }
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        let end = self.ends[i] as usize;
        Some((self.text.get(start..end)?, self.lower.get(start..end)?))
    }
}

/// The [`ColText`]s of the latest snapshot, built on first use per target (carried over from
/// the previous snapshot's, see [`ColText::carried`]) and replaced when the snapshot changes
/// (identity: its rows allocation, `rev` and `epoch`). Holds at most two snapshots' texts.
#[derive(Debug, Default)]
pub struct ColTexts {
    of: Option<(usize, u64, u64)>,
    rows: Rows,
    built: Built,
    /// The previous snapshot's rows and texts, to carry from.
    prev: Option<(Rows, Built)>,
}

/// The texts built for one snapshot, by target.
type Built = Vec<(Target, Arc<ColText>)>;

impl ColTexts {
    /// The texts of `targets` (one per target, in order) over `snap`'s rows.
    pub fn get(&mut self, snap: &Snapshot, targets: &[Target]) -> Vec<Arc<ColText>> {
        let id = (snap.rows.id(), snap.rev, snap.epoch);
        if self.of != Some(id) {
            self.of = Some(id);
            let built = std::mem::take(&mut self.built);
            let rows = std::mem::replace(&mut self.rows, snap.rows.clone());
            // Keep the older texts while the new snapshot has none of its own yet.
            if !built.is_empty() || self.prev.is_none() {
                self.prev = Some((rows, built));
            }
        }
        let prev = &self.prev;
        targets
            .iter()
            .map(|t| {
                if let Some((_, c)) = self.built.iter().find(|(b, _)| b == t) {
                    return c.clone();
                }
                let old = prev.as_ref().and_then(|(rows, built)| {
                    let (_, c) = built.iter().find(|(b, _)| b == t)?;
                    Some((c.as_ref(), rows))
                });
                let c = Arc::new(ColText::carried(&snap.rows, *t, old));
                self.built.push((*t, c.clone()));
                c
            })
            .collect()
    }
}
