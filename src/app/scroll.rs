//! Paging of the text views (YAML, describe, the `?` help, the row/event overlay): which
//! screen rows a line takes when wrapped, where the last page starts, how far the view can
//! scroll sideways. Widths are terminal cells of whole grapheme clusters
//! (`view::cut::width`). Pure arithmetic over the lines; must not lay out or draw.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use crate::view::cut::width;

/// What a text view knows of its page, from the layout before each draw (`ui::page_rows`,
/// `ui::page_cols`): `rows` lines are shown, each `cols` cells wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// Lines of text shown at once (at least 1).
    pub rows: usize,
    /// Cells of one line (at least 1).
    pub cols: usize,
}

impl Page {
    /// A page of `rows` lines of `cols` cells (each at least 1).
    pub fn new(rows: usize, cols: usize) -> Page {
        Page {
            rows: rows.max(1),
            cols: cols.max(1),
        }
    }
}

/// `line` split into pieces of at most `cols` cells, after the last space that fits when
/// there is one (words stay whole), else at the edge; never inside a grapheme cluster (a
/// 2-cell glyph that does not fit goes to the next piece). An empty line is one piece.
pub fn wrap_line(line: &str, cols: usize) -> Vec<&str> {
    let cols = cols.max(1);
    if width(line) <= cols {
        return vec![line];
    }
    let mut out = Vec::new();
    let (mut start, mut used) = (0, 0);
    // After the last space of the current piece: byte index and cells used up to it.
    let mut space: Option<(usize, usize)> = None;
    for (i, g) in line.grapheme_indices(true) {
        let w = g.width();
        if used + w > cols && i > start {
            match space.filter(|&(at, _)| at > start && at < i) {
                Some((at, upto)) => {
                    out.push(&line[start..at]);
                    start = at;
                    used -= upto;
                }
                None => {
                    out.push(&line[start..i]);
                    start = i;
                    used = 0;
                }
            }
            space = None;
        }
        used += w;
        if g == " " {
            space = Some((i + g.len(), used));
        }
    }
    out.push(&line[start..]);
    out
}

/// Screen rows `line` takes: 1 unwrapped, else its pieces at `cols` cells.
pub fn rows_of(line: &str, cols: usize, wrap: bool) -> usize {
    if !wrap {
        return 1;
    }
    let w = width(line);
    if w <= cols.max(1) {
        1
    } else {
        wrap_line(line, cols).len()
    }
}

/// The first line of the last page: the smallest index from which the rest of `lines` fits
/// in `page` (wrapped when `wrap`); 0 when everything fits. `G` scrolls there and the
/// scrolling keys stop there, so the last page is always a full one.
pub fn last_start<S: AsRef<str>>(lines: &[S], page: Page, wrap: bool) -> usize {
    if !wrap {
        return lines.len().saturating_sub(page.rows);
    }
    let mut used = 0;
    for (i, l) in lines.iter().enumerate().rev() {
        used += rows_of(l.as_ref(), page.cols, true);
        if used > page.rows {
            return i + 1;
        }
    }
    0
}

/// The furthest sideways offset (in cells) that still shows the end of the widest line of
/// `lines`; 0 when wrapped or when every line fits.
pub fn max_hscroll<S: AsRef<str>>(lines: &[S], cols: usize, wrap: bool) -> usize {
    if wrap {
        return 0;
    }
    let widest = lines.iter().map(|l| width(l.as_ref())).max().unwrap_or(0);
    widest.saturating_sub(cols.max(1))
}

/// `line` with its first `skip` cells left out (a cluster cut by the edge is left out whole,
/// its cells blank), for a view scrolled sideways.
pub fn skip_cells(line: &str, skip: usize) -> std::borrow::Cow<'_, str> {
    if skip == 0 {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut used = 0;
    for (i, g) in line.grapheme_indices(true) {
        if used >= skip {
            let pad = used - skip;
            return if pad == 0 {
                std::borrow::Cow::Borrowed(&line[i..])
            } else {
                std::borrow::Cow::Owned(format!("{}{}", " ".repeat(pad), &line[i..]))
            };
        }
        used += g.width();
    }
    std::borrow::Cow::Borrowed("")
}

/// One scrolling key applied to a first-line index `at` over `n` lines whose last page
/// starts at `last`: the new index. `by` is the lines moved (negative: up); `None` is
/// `G` (the last page).
pub fn step(at: usize, by: Option<i64>, last: usize) -> usize {
    match by {
        None => last,
        Some(d) => {
            let to = i64::try_from(at).unwrap_or(i64::MAX).saturating_add(d);
            usize::try_from(to.max(0)).unwrap_or(0).min(last)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_never_splits_a_cluster_and_counts_cells() {
        assert_eq!(wrap_line("abcdef", 4), ["abcd", "ef"]);
        assert_eq!(
            wrap_line("is forbidden: quota", 10),
            ["is ", "forbidden:", " quota"]
        );
        assert_eq!(wrap_line("ab cd ef", 5), ["ab ", "cd ef"]);
        assert_eq!(wrap_line("", 4), [""]);
        // 数 is 2 cells: 3 of them need 6 cells, so 5 columns hold two per row.
        assert_eq!(wrap_line("数据同", 5), ["数据", "同"]);
        let family = "a👩\u{200d}👩\u{200d}👧b";
        let pieces = wrap_line(family, 2);
        assert!(pieces.iter().all(|p| width(p) <= 2), "{pieces:?}");
        assert_eq!(pieces.concat(), family);
        assert_eq!(rows_of("abcdef", 4, true), 2);
        assert_eq!(rows_of("abcdef", 4, false), 1);
    }

    #[test]
    fn the_last_page_is_full_wrapped_or_not() {
        let lines: Vec<String> = (0..10).map(|i| format!("line {i}")).collect();
        assert_eq!(last_start(&lines, Page::new(4, 80), false), 6);
        assert_eq!(last_start(&lines, Page::new(40, 80), false), 0);
        // Wrapped at 3 cells, "line 9" takes 2 rows: 4 rows hold the last two lines.
        assert_eq!(last_start(&lines, Page::new(4, 3), true), 8);
        assert_eq!(last_start(&lines, Page::new(5, 3), true), 8);
        assert_eq!(step(0, None, 6), 6);
        assert_eq!(step(5, Some(3), 6), 6);
        assert_eq!(step(1, Some(-3), 6), 0);
    }

    #[test]
    fn sideways_scroll_shows_the_end_of_the_widest_line() {
        let lines = ["short", "a line of twenty chr"];
        assert_eq!(max_hscroll(&lines, 10, false), 10);
        assert_eq!(max_hscroll(&lines, 10, true), 0);
        assert_eq!(skip_cells("abcdef", 2), "cdef");
        assert_eq!(skip_cells("abc", 5), "");
        // A 2-cell glyph cut by the left edge leaves a blank cell.
        assert_eq!(skip_cells("数据", 1), " 据");
    }
}
