//! Column widths by value: each column has a minimum, a natural width (its widest visible
//! cell, in terminal cells) and a priority; the flexible column (MESSAGE, else the widest)
//! takes the free width once the others have theirs; on a narrow terminal the lowest
//! priorities are dropped whole; wide mode only adds columns where they fit; a horizontal
//! scroll skips the first unpinned columns. Pure layout; must not draw or format cells.

use super::cut::{width, Cut};

/// One column to lay out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnIn {
    /// Header text (`NAME`, `PORT(S)`).
    pub header: String,
    /// Widest of the header and the visible cells, in terminal cells.
    pub natural: usize,
    /// Only shown in wide mode: laid out after the others, in the width they leave.
    pub wide: bool,
    /// The kind's own drop rank, overriding [`priority`] when columns are dropped for room
    /// (see [`ColumnIn::drop_first`]); `None` for the general order.
    pub rank: Option<u8>,
    /// Dropped whole, lowest rank first, rather than let a NAME or STATUS column be cut (the
    /// usage columns: a row's identity and state come before its figures).
    pub yields: bool,
}

impl ColumnIn {
    /// A column headed `header` whose visible cells are `cells`.
    pub fn measure<'a>(header: &str, wide: bool, cells: impl IntoIterator<Item = &'a str>) -> Self {
        let natural = cells.into_iter().map(width).fold(width(header), usize::max);
        ColumnIn {
            header: header.to_owned(),
            natural,
            wide,
            rank: None,
            yields: false,
        }
    }

    /// Ranks the columns a kind lists in `first` (its `table::drop_first`) below every other
    /// column, the first listed lowest: they are dropped first, in that order, and the rest
    /// keep the general order.
    pub fn drop_first(cols: &mut [ColumnIn], first: &[&str]) {
        for c in cols {
            if let Some(p) = first.iter().position(|h| *h == c.header) {
                c.rank = Some(u8::try_from(p).unwrap_or(u8::MAX).min(9));
            }
        }
    }

    /// How long the column stays when room is short (higher stays longer).
    fn rank(&self) -> u8 {
        self.rank.unwrap_or_else(|| priority(&self.header))
    }
}

/// The result: which columns show at which width, and which are hidden.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fitted {
    /// `(column index, width in cells)` in column order.
    pub shown: Vec<(usize, usize)>,
    /// Indices of the columns not shown (dropped for room or scrolled off), in column order.
    pub hidden: Vec<usize>,
    /// The scroll actually applied (the requested one clamped to what can scroll).
    pub scroll: usize,
}

impl Fitted {
    /// The width of column `i`, if shown.
    pub fn width_of(&self, i: usize) -> Option<usize> {
        self.shown.iter().find(|(c, _)| *c == i).map(|(_, w)| *w)
    }
}

/// How important a column is (higher stays longer): the identity and state of a row first,
/// addresses and ages last. Any header not listed is 50.
pub fn priority(header: &str) -> u8 {
    match header {
        "NAME" => 100,
        "OBJECT" => 96,
        "STATUS" => 92,
        "MESSAGE" => 90,
        "REASON" => 86,
        "READY" => 84,
        "TYPE" => 80,
        "LAST SEEN" => 78,
        // A union's rows are told apart by their cluster first.
        "CONTEXT" => 94,
        "NAMESPACE" => 72,
        "RESTARTS" => 60,
        "COUNT" => 40,
        "AGE" => 35,
        "SOURCE" => 32,
        "NODE" | "NOMINATED NODE" => 30,
        "IP" | "CLUSTER-IP" | "EXTERNAL-IP" | "INTERNAL-IP" => 25,
        _ => 50,
    }
}

/// Where a column's values are cut: names in the middle (their suffix tells replicas apart),
/// MESSAGE too but between words (a wrapped Go error ends with its cause: `…: exceeded
/// quota: tiny, requested: pods=1, used: pods=9, limited: pods=9`), everything else at the
/// end.
pub fn cut_of(header: &str) -> Cut {
    match header {
        "NAME" | "OBJECT" | "NAMESPACE" | "CONTEXT" | "NODE" | "NOMINATED NODE" => Cut::Middle,
        "MESSAGE" => Cut::Words,
        _ => Cut::End,
    }
}

/// Columns below this priority give way to a MESSAGE that would be cut (SOURCE, AGE, NODE,
/// IP): the message is what the user came for.
const YIELDS_TO_MESSAGE: u8 = 40;

/// Whether a horizontal scroll keeps the column on screen (the row's identity).
fn pinned(header: &str) -> bool {
    matches!(header, "NAME" | "OBJECT")
}

/// The smallest useful width: the natural width when it is short, else a floor that still
/// shows the start of the value (names and messages get more; STATUS is never cut below
/// its longest common values, `ContainerCreating` and `CrashLoopBackOff`).
fn minimum(c: &ColumnIn) -> usize {
    let floor = if c.header == "MESSAGE" {
        20
    } else if c.header == "STATUS" {
        17
    } else if cut_of(&c.header) == Cut::Middle {
        16
    } else {
        width(&c.header).max(8)
    };
    c.natural.min(floor)
}

/// Lays `cols` out in `avail` cells with `gap` cells between columns, after skipping the
/// first `scroll` unpinned columns.
///
/// Order of work: columns are dropped lowest priority first (rightmost on a tie, pinned
/// last) until their minimums fit; every column then grows towards its natural width in
/// priority order, but no further than 2/5 of the width until the flexible column has its
/// natural width; the rest then goes to the others. Wide columns are placed only in the
/// width the other columns leave, so wide mode never narrows a column.
pub fn fit(cols: &[ColumnIn], avail: usize, gap: usize, scroll: usize) -> Fitted {
    let scrollable: Vec<usize> = (0..cols.len()).filter(|&i| !pinned(&cols[i].header)).collect();
    let scroll = scroll.min(scrollable.len().saturating_sub(1));
    let skipped = &scrollable[..scroll];
    let candidates: Vec<usize> = (0..cols.len()).filter(|i| !skipped.contains(i)).collect();
    let (normal, wide): (Vec<usize>, Vec<usize>) = candidates.iter().partition(|&&i| !cols[i].wide);
    let mut widths: Vec<Option<usize>> = vec![None; cols.len()];
    let used = place(cols, &normal, avail, gap, true, &mut widths);
    if !wide.is_empty() {
        let left = avail.saturating_sub(used + if used > 0 { gap } else { 0 });
        place(cols, &wide, left, gap, used == 0, &mut widths);
    }
    let shown = widths
        .iter()
        .enumerate()
        .filter_map(|(i, w)| w.map(|w| (i, w)))
        .collect();
    let hidden = (0..cols.len()).filter(|&i| widths[i].is_none()).collect();
    Fitted {
        shown,
        hidden,
        scroll,
    }
}

/// Fits the columns `set` into `avail` cells (see [`fit`]); writes their widths and returns
/// the cells used, gaps included (0 when nothing fits). With `squeeze`, a last column wider
/// than `avail` gets `avail`; without, it is left out.
fn place(
    cols: &[ColumnIn],
    set: &[usize],
    avail: usize,
    gap: usize,
    squeeze: bool,
    widths: &mut [Option<usize>],
) -> usize {
    let mut keep: Vec<usize> = set.to_vec();
    loop {
        let used = place_kept(cols, &keep, avail, gap, squeeze, widths);
        let is_cut = |i: usize| widths[i].is_some_and(|w| w < cols[i].natural);
        // While a NAME or STATUS is cut, the lowest-ranked of the yielding columns and of those
        // ranked below them goes.
        let identity = |i: usize| !cols[i].yields && matches!(cols[i].header.as_str(), "NAME" | "STATUS");
        let identity_cut = keep.iter().any(|&i| identity(i) && is_cut(i));
        // The highest-ranked yielding column (CPU) stays and competes as any column does.
        let ranks = keep
            .iter()
            .filter(|&&i| cols[i].yields && widths[i].is_some())
            .map(|&i| cols[i].rank());
        let (floor, top) = (ranks.clone().min(), ranks.max());
        let yielder = floor.zip(top).and_then(|(floor, top)| {
            (0..keep.len())
                .filter(|&p| {
                    let i = keep[p];
                    widths[i].is_some()
                        && !identity(i)
                        && !pinned(&cols[i].header)
                        && ((cols[i].yields && cols[i].rank() < top) || cols[i].rank() < floor)
                })
                .min_by_key(|&p| (cols[keep[p]].rank(), usize::MAX - p))
        });
        if let (true, Some(p)) = (identity_cut, yielder) {
            for &i in &keep {
                widths[i] = None;
            }
            keep.remove(p);
            continue;
        }
        let message = keep.iter().copied().find(|&i| cols[i].header == "MESSAGE");
        let cut = message.is_some_and(is_cut);
        let yielding = (0..keep.len())
            .filter(|&p| {
                let h = &cols[keep[p]].header;
                !pinned(h) && priority(h) < YIELDS_TO_MESSAGE && widths[keep[p]].is_some()
            })
            .min_by_key(|&p| (priority(&cols[keep[p]].header), usize::MAX - p));
        match (cut, yielding) {
            (true, Some(p)) => {
                for &i in &keep {
                    widths[i] = None;
                }
                keep.remove(p);
            }
            _ => return used,
        }
    }
}

/// [`place`] for one set of candidates: drops by priority until the minimums fit, then grows.
fn place_kept(
    cols: &[ColumnIn],
    set: &[usize],
    avail: usize,
    gap: usize,
    squeeze: bool,
    widths: &mut [Option<usize>],
) -> usize {
    let mut keep: Vec<usize> = set.to_vec();
    let flex_of = |keep: &[usize]| {
        keep.iter()
            .copied()
            .find(|&i| cols[i].header == "MESSAGE")
            .or_else(|| {
                keep.iter()
                    .copied()
                    .max_by_key(|&i| (cols[i].natural, usize::MAX - i))
            })
    };
    let need = |keep: &[usize]| {
        keep.iter().map(|&i| minimum(&cols[i])).sum::<usize>() + gap * keep.len().saturating_sub(1)
    };
    while keep.len() > 1 && need(&keep) > avail {
        let Some(pos) = (0..keep.len()).min_by_key(|&p| {
            let c = &cols[keep[p]];
            (pinned(&c.header), c.rank(), usize::MAX - p)
        }) else {
            break;
        };
        keep.remove(pos);
    }
    if keep.is_empty() {
        return 0;
    }
    let flex = flex_of(&keep);
    let mut w: Vec<usize> = keep.iter().map(|&i| minimum(&cols[i])).collect();
    let total = need(&keep);
    if total > avail {
        // One column alone wider than the screen: it gets the screen.
        if let ([only], true) = (w.as_mut_slice(), squeeze && avail > 0) {
            *only = avail;
            widths[keep[0]] = Some(avail);
            return avail;
        }
        return 0;
    }
    let mut free = avail - total;
    let mut by_priority: Vec<usize> = (0..keep.len()).collect();
    by_priority.sort_by_key(|&p| (std::cmp::Reverse(cols[keep[p]].rank()), p));
    let cap = (avail * 2 / 5).max(1);
    let grow = |p: usize, to: usize, w: &mut [usize], free: &mut usize| {
        let add = to.saturating_sub(w[p]).min(*free);
        w[p] += add;
        *free -= add;
    };
    let flex_pos = flex.and_then(|f| keep.iter().position(|&i| i == f));
    for &p in &by_priority {
        if Some(p) != flex_pos {
            let to = cols[keep[p]].natural.min(cap.max(w[p]));
            grow(p, to, &mut w, &mut free);
        }
    }
    if let Some(p) = flex_pos {
        grow(p, cols[keep[p]].natural, &mut w, &mut free);
    }
    for &p in &by_priority {
        grow(p, cols[keep[p]].natural, &mut w, &mut free);
    }
    for (p, &i) in keep.iter().enumerate() {
        widths[i] = Some(w[p]);
    }
    avail - free
}

#[cfg(test)]
mod tests;
