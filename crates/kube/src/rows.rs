//! [`Rows`]: the rows of one snapshot as a sequence of immutable, shared chunks of
//! consecutive rows, so that a publication after k changes rebuilds only the chunks those
//! changes fall in and shares every other chunk (by `Arc`) with the previous snapshot. Owns
//! that layout, indexing and chunk sizing; must not know row order rules (the writer keeps
//! rows ordered) nor anything of the UI.

use std::ops::Index;
use std::sync::Arc;

use super::row::Row;

/// One chunk: consecutive rows of a snapshot, shared by pointer between snapshots while none
/// of its rows changes.
pub type Chunk = Arc<[Arc<Row>]>;

/// log2 of the target chunk size: chunks are cut at [`CHUNK`] rows, split above twice that
/// and merged with a neighbour below a quarter of it.
const SHIFT: u32 = 6;
/// Target rows per chunk (64): a changed row costs about this many `Arc` clones at the next
/// publication (each one a cache miss on a scattered row), and a publication costs a few
/// words per chunk. 64 balances the two for ~100 changes per publication at 100k–150k rows
/// (measured at 512: 100 random changes rebuilt ~40% of the rows).
pub const CHUNK: usize = 1 << SHIFT;
/// A rebuilt chunk longer than this is split into pieces of [`CHUNK`].
pub const MAX: usize = 2 * CHUNK;
/// A rebuilt chunk shorter than this is merged with its next (else previous) neighbour.
pub const MIN: usize = CHUNK / 4;

/// The rows of a snapshot in order, chunked. Cloning shares everything (one `Arc`); every
/// publication makes a new one, which shares unchanged chunks with its predecessor.
/// Indexing costs one table look-up plus at most a few steps; iterate with
/// [`Rows::iter`] or [`Rows::chunks`] in hot loops.
#[derive(Clone, Default)]
pub struct Rows(Arc<Inner>);

#[derive(Default)]
struct Inner {
    chunks: Vec<Chunk>,
    /// `starts[c]` is the index of chunk `c`'s first row; one more entry holds the length.
    starts: Vec<u32>,
    /// `jump[b]` is the chunk holding row `b * CHUNK`.
    jump: Vec<u32>,
}

impl std::fmt::Debug for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rows({} in {} chunks)", self.len(), self.0.chunks.len())
    }
}

fn idx32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

impl Rows {
    /// Rows made of `chunks`, in order; empty chunks are dropped. O(chunks + rows / CHUNK).
    pub fn from_chunks(chunks: Vec<Chunk>) -> Rows {
        let chunks: Vec<Chunk> = chunks.into_iter().filter(|c| !c.is_empty()).collect();
        let mut starts = Vec::with_capacity(chunks.len() + 1);
        let mut at = 0usize;
        for c in &chunks {
            starts.push(idx32(at));
            at += c.len();
        }
        starts.push(idx32(at));
        let mut jump = Vec::with_capacity(at.div_ceil(CHUNK));
        let mut c = 0usize;
        for b in 0..at.div_ceil(CHUNK) {
            let row = b * CHUNK;
            while starts[c + 1] as usize <= row {
                c += 1;
            }
            jump.push(idx32(c));
        }
        Rows(Arc::new(Inner { chunks, starts, jump }))
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.0.starts.last().map_or(0, |&n| n as usize)
    }

    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The chunks, in order, none empty.
    pub fn chunks(&self) -> &[Chunk] {
        &self.0.chunks
    }

    /// Index of the first row of chunk `c` (`len()` for `c == chunks().len()`).
    pub fn chunk_start(&self, c: usize) -> usize {
        self.0.starts.get(c).map_or(self.len(), |&s| s as usize)
    }

    /// The chunk holding row `i` (`None` past the end).
    pub fn chunk_of(&self, i: usize) -> Option<usize> {
        let inner = &*self.0;
        let mut c = *inner.jump.get(i >> SHIFT)? as usize;
        while (*inner.starts.get(c + 1)? as usize) <= i {
            c += 1;
        }
        Some(c)
    }

    /// Row `i`, or `None` past the end.
    pub fn get(&self, i: usize) -> Option<&Arc<Row>> {
        let c = self.chunk_of(i)?;
        self.0.chunks[c].get(i - self.0.starts[c] as usize)
    }

    /// The first row.
    pub fn first(&self) -> Option<&Arc<Row>> {
        self.0.chunks.first().and_then(|c| c.first())
    }

    /// All rows in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            chunks: self.0.chunks.iter(),
            cur: [].iter(),
            left: self.len(),
        }
    }

    /// Rows `range` in order (clamped to the rows there are), with their indices.
    pub fn range(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = (usize, &Arc<Row>)> + '_ {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        let first = self.chunk_of(start).unwrap_or(self.0.chunks.len());
        self.0.chunks[first..]
            .iter()
            .enumerate()
            .flat_map(move |(k, c)| {
                let base = self.0.starts[first + k] as usize;
                c.iter().enumerate().map(move |(j, r)| (base + j, r))
            })
            .skip_while(move |&(i, _)| i < start)
            .take_while(move |&(i, _)| i < end)
    }

    /// The index of the first row for which `pred` is false, the rows being partitioned
    /// (all `true` rows before all `false` ones), as `slice::partition_point`. O(log n).
    pub fn partition_point(&self, mut pred: impl FnMut(&Arc<Row>) -> bool) -> usize {
        let chunks = &self.0.chunks;
        // The first chunk whose last row fails: the point lies in it.
        let c = chunks.partition_point(|c| c.last().is_some_and(&mut pred));
        match chunks.get(c) {
            Some(chunk) => self.0.starts[c] as usize + chunk.partition_point(pred),
            None => self.len(),
        }
    }

    /// Binary search with `f` (how a row compares with the target), as
    /// `slice::binary_search_by`: `Ok(index)` of a matching row, else `Err(index)` where one
    /// would be inserted. The rows must be sorted consistently with `f`. O(log n).
    pub fn binary_search_by(
        &self,
        mut f: impl FnMut(&Arc<Row>) -> std::cmp::Ordering,
    ) -> Result<usize, usize> {
        let chunks = &self.0.chunks;
        let c = chunks.partition_point(|c| c.last().is_some_and(|r| f(r) == std::cmp::Ordering::Less));
        match chunks.get(c) {
            Some(chunk) => {
                let base = self.0.starts[c] as usize;
                chunk.binary_search_by(f).map(|i| base + i).map_err(|i| base + i)
            }
            None => Err(self.len()),
        }
    }

    /// The rows as one vector (O(n); for tests and rare whole-table work).
    pub fn to_vec(&self) -> Vec<Arc<Row>> {
        self.iter().cloned().collect()
    }

    /// True when both are the same publication's rows (one allocation).
    pub fn ptr_eq(a: &Rows, b: &Rows) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }

    /// An identity of this allocation, for memo keys (valid while it is alive).
    pub fn id(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }
}

/// The rows of a [`Rows`] in order, chunk by chunk.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    chunks: std::slice::Iter<'a, Chunk>,
    cur: std::slice::Iter<'a, Arc<Row>>,
    left: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Arc<Row>;
    #[inline]
    fn next(&mut self) -> Option<&'a Arc<Row>> {
        loop {
            if let Some(r) = self.cur.next() {
                self.left -= 1;
                return Some(r);
            }
            self.cur = self.chunks.next()?.iter();
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Rows {
    type Item = &'a Arc<Row>;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl Index<usize> for Rows {
    type Output = Arc<Row>;
    /// Row `i`; panics past the end, as a slice does.
    fn index(&self, i: usize) -> &Arc<Row> {
        match self.get(i) {
            Some(r) => r,
            None => panic!("row {i} out of range of {}", self.len()),
        }
    }
}

impl From<Vec<Arc<Row>>> for Rows {
    fn from(rows: Vec<Arc<Row>>) -> Rows {
        Rows::from_chunks(cut(rows))
    }
}

impl FromIterator<Arc<Row>> for Rows {
    fn from_iter<I: IntoIterator<Item = Arc<Row>>>(iter: I) -> Rows {
        Rows::from(iter.into_iter().collect::<Vec<_>>())
    }
}

/// `rows` cut into nearly equal chunks of at most [`CHUNK`] rows (one chunk up to twice that).
pub fn cut(rows: Vec<Arc<Row>>) -> Vec<Chunk> {
    if rows.len() <= MAX {
        return vec![Chunk::from(rows)];
    }
    even_pieces(&rows).map(Chunk::from).collect()
}

/// `rows` in `ceil(len / CHUNK)` consecutive pieces whose lengths differ by at most one.
pub fn even_pieces(rows: &[Arc<Row>]) -> impl Iterator<Item = &[Arc<Row>]> + '_ {
    let pieces = rows.len().div_ceil(CHUNK).max(1);
    let (size, longer) = (rows.len() / pieces, rows.len() % pieces);
    (0..pieces).map(move |p| {
        let start = p * size + p.min(longer);
        &rows[start..start + size + usize::from(p < longer)]
    })
}

/// True when a rebuilt chunk of `len` rows should be merged with a neighbour.
pub fn too_small(len: usize) -> bool {
    len < MIN
}

/// True when a rebuilt chunk of `len` rows should be split.
pub fn too_big(len: usize) -> bool {
    len > MAX
}

#[cfg(test)]
mod tests;
