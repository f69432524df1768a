//! Measuring and cutting cell text in terminal cells: widths per grapheme cluster (as ratatui
//! draws them), cuts marked with `…` that never split a glyph or a cluster, at the end or in
//! the middle (names, whose distinguishing tail must stay visible). Pure; must not know
//! columns, rows or terminals.

use std::borrow::Cow;

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// The marker of a cut.
pub const ELLIPSIS: char = '…';

/// Width of `s` in terminal cells: the sum of its grapheme clusters' widths (a CJK glyph is
/// 2, a joined emoji such as `👩‍👩‍👧` one cluster of 2, a combining mark 0).
pub fn width(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    s.graphemes(true).map(UnicodeWidthStr::width).sum()
}

/// Where a too-long value loses its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Keep the start: `ImagePullBa…` (statuses, messages).
    End,
    /// Keep both ends: `cfg-abcdef…-002` (names, whose suffix tells replicas apart).
    Middle,
    /// Keep both ends, cut between words where a word boundary is near: `Created pod:…
    /// web-7f9c-x2` rather than `Created pod: w…f9c-x2` (messages).
    Words,
}

/// `s` fitted into `w` cells: unchanged when it fits, else cut where `how` says with `…` in
/// the cut (the result is then at most `w` cells and never splits a grapheme cluster; a
/// 2-cell glyph that does not fit leaves its cell blank rather than split). `w == 0` gives "".
pub fn fit(s: &str, w: usize, how: Cut) -> Cow<'_, str> {
    match kept(s, w, how) {
        None => Cow::Borrowed(s),
        Some(_) if w == 0 => Cow::Borrowed(""),
        Some((head, tail)) => {
            let mut out = String::with_capacity(head + 3 + s.len() - tail);
            out.push_str(&s[..head]);
            out.push(ELLIPSIS);
            out.push_str(&s[tail..]);
            Cow::Owned(out)
        }
    }
}

/// What [`fit`] keeps of `s` when it cuts: `Some((head_end, tail_start))`, byte offsets on
/// cluster boundaries (`s[..head_end]` + `…` + `s[tail_start..]`; `tail_start == s.len()`
/// for an end cut); `None` when `s` fits. Lets a caller map highlight positions.
pub fn kept(s: &str, w: usize, how: Cut) -> Option<(usize, usize)> {
    if width(s) <= w {
        return None;
    }
    let room = w.saturating_sub(1);
    Some(match how {
        Cut::End => (head(s, room), s.len()),
        Cut::Middle => {
            let tail = tail(s, room.div_ceil(2));
            let tail_w = width(&s[tail..]);
            (head(s, room - tail_w), tail)
        }
        Cut::Words => words(s, room),
    })
}

/// A middle cut of `s` into `room` cells (the `…` not counted) at word boundaries: the
/// longest tail starting a word within three fifths of the room (or, in a short room, all
/// but 5 cells, at most 20: a one-word cause such as `NodeNotSchedulable`), else half the
/// room cut in a word; then the longest head ending a word in what is left, unless that
/// loses more than half of it (then it is cut in a word); last the tail again, as long as
/// the cells the head left allow: whole words when it started with one (cells may stay
/// blank rather than cut a word), else cut in a word.
fn words(s: &str, room: usize) -> (usize, usize) {
    let limit = (room * 3 / 5).max(room.saturating_sub(5).min(20));
    let word_tail = |max: usize| {
        s.match_indices(' ')
            .map(|(i, _)| i + 1)
            .filter(|&t| t < s.len() && width(&s[t..]) <= max)
            .min()
    };
    let tail_word = word_tail(limit);
    let head_room = match tail_word {
        Some(t) => room - width(&s[t..]),
        None => room / 2,
    };
    let h = head(s, head_room);
    let h = match s[..h].rfind(' ').map(|p| s[..p].trim_end().len()) {
        _ if s[h..].starts_with(' ') => h,
        Some(p) if width(&s[..p]) * 2 >= width(&s[..h]) => p,
        _ => h,
    };
    let left = room - width(&s[..h]);
    let t = match tail_word {
        Some(t) => word_tail(left).unwrap_or(t),
        None => tail(s, left),
    };
    (h, t.max(h))
}

/// The end of the longest prefix of `s` (whole clusters) that is at most `w` cells.
fn head(s: &str, w: usize) -> usize {
    let mut used = 0;
    for (i, g) in s.grapheme_indices(true) {
        let gw = g.width();
        if used + gw > w {
            return i;
        }
        used += gw;
    }
    s.len()
}

/// The start of the longest suffix of `s` (whole clusters) that is at most `w` cells.
fn tail(s: &str, w: usize) -> usize {
    let mut used = 0;
    let mut start = s.len();
    for (i, g) in s.grapheme_indices(true).rev() {
        let gw = g.width();
        if used + gw > w {
            break;
        }
        used += gw;
        start = i;
    }
    start
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_terminal_cells() {
        assert_eq!(width("web-1"), 5);
        assert_eq!(width("数据同步失败"), 12);
        assert_eq!(width("👩\u{200d}👩\u{200d}👧"), 2);
        assert_eq!(width("e\u{301}"), 1);
    }

    #[test]
    fn fitting_values_are_borrowed() {
        assert!(matches!(fit("web-1", 5, Cut::End), Cow::Borrowed("web-1")));
        assert_eq!(fit("数据", 4, Cut::Middle), "数据");
    }

    #[test]
    fn words_cut_between_words() {
        let m = "Node worker-3 status is now: NodeNotSchedulable";
        assert_eq!(fit(m, 24, Cut::Words), "Node…NodeNotSchedulable");
        let m = "Created pod: nightly-report-29000000-p9dqj";
        assert_eq!(fit(m, 24, Cut::Words), "Created…t-29000000-p9dqj");
        let m = "Back-off restarting failed container web";
        assert_eq!(fit(m, 30, Cut::Words), "Back-off…failed container web");
        assert_eq!(
            fit("abcdefghijkl", 6, Cut::Words),
            fit("abcdefghijkl", 6, Cut::Middle)
        );
    }

    #[test]
    fn end_cut_is_marked() {
        assert_eq!(fit("ImagePullBackOff", 8, Cut::End), "ImagePu…");
        assert_eq!(fit("abc", 1, Cut::End), "…");
        assert_eq!(fit("abc", 0, Cut::End), "");
    }

    #[test]
    fn middle_cut_keeps_the_tail() {
        let a = format!("cfg-abcdef{}-001", "x".repeat(240));
        let b = format!("cfg-abcdef{}-002", "x".repeat(240));
        let (fa, fb) = (fit(&a, 16, Cut::Middle), fit(&b, 16, Cut::Middle));
        assert_eq!(fb, "cfg-abc…xxxx-002");
        assert_ne!(fa, fb);
        assert_eq!(width(&fa), 16);
    }

    #[test]
    fn wide_glyphs_and_clusters_are_never_split() {
        // 5 cells of room: two 2-cell glyphs, the third would straddle the edge.
        assert_eq!(fit("数据同步失败", 6, Cut::End), "数据…");
        assert_eq!(width(&fit("数据同步失败", 6, Cut::End)), 5);
        let family = "👩\u{200d}👩\u{200d}👧";
        let s = format!("{family}{family}{family}");
        let cut = fit(&s, 5, Cut::End);
        assert_eq!(cut, format!("{family}{family}…"));
        assert_eq!(fit("e\u{301}e\u{301}e\u{301}", 2, Cut::End), "e\u{301}…");
    }

    #[test]
    fn every_cut_fits_and_is_marked() {
        let samples = [
            "web-7d9f8b6c5d-x2x9k",
            "数据同步失败 sync failed",
            "👩\u{200d}👩\u{200d}👧 x 数",
        ];
        for s in samples {
            for w in 1..width(s) {
                for how in [Cut::End, Cut::Middle] {
                    let c = fit(s, w, how);
                    assert!(width(&c) <= w, "{s:?} at {w} {how:?}: {c:?}");
                    assert!(c.contains(ELLIPSIS), "{s:?} at {w}: {c:?}");
                    // Every cluster of the result (but the marker) is one of the input's.
                    let clusters: Vec<&str> = s.graphemes(true).collect();
                    assert!(c.graphemes(true).all(|g| g == "…" || clusters.contains(&g)));
                }
            }
        }
    }
}
