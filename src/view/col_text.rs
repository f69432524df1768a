//! [`ColTexts`]: the text one `col:` term reads (a column's cells, the namespace or the name)
//! of every row of one snapshot, laid out contiguously as shown and ASCII-lowercased, so
//! the per-keystroke scan of a column term walks flat buffers instead of 100k heap rows and
//! their cells. Owns that layout and its memo per snapshot; must not parse terms, sort or
//! draw.

use std::sync::Arc;

use crate::kube::rows::Rows;
use crate::kube::store::Snapshot;

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
        let mut text = String::with_capacity(rows.len() * 12);
        let mut ends = Vec::with_capacity(rows.len());
        let mut absent = Vec::with_capacity(rows.len());
        for row in rows {
            match row_text(row, target) {
                Some(t) => {
                    text.push_str(&t);
                    absent.push(false);
                }
                None => absent.push(true),
            }
            ends.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
        }
        let lower = text.to_ascii_lowercase();
        ColText {
            text,
            lower,
            ends,
            absent,
        }
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

/// The [`ColText`]s of the latest snapshot, built on first use per target and dropped when
/// the snapshot changes (identity: its rows allocation, `rev` and `epoch`).
#[derive(Debug, Default)]
pub struct ColTexts {
    of: Option<(usize, u64, u64)>,
    built: Vec<(Target, Arc<ColText>)>,
}

impl ColTexts {
    /// The texts of `targets` (one per target, in order) over `snap`'s rows.
    pub fn get(&mut self, snap: &Snapshot, targets: &[Target]) -> Vec<Arc<ColText>> {
        let id = (snap.rows.id(), snap.rev, snap.epoch);
        if self.of != Some(id) {
            self.of = Some(id);
            self.built.clear();
        }
        targets
            .iter()
            .map(|t| {
                if let Some((_, c)) = self.built.iter().find(|(b, _)| b == t) {
                    return c.clone();
                }
                let c = Arc::new(ColText::build(&snap.rows, *t));
                self.built.push((*t, c.clone()));
                c
            })
            .collect()
    }
}
