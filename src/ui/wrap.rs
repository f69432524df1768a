//! Wrapping and sideways shifting of styled text lines for the text views (YAML, describe,
//! help, the row/event overlay), cell-exact and never inside a grapheme cluster (the same
//! pieces `app::scroll` counts, so paging and drawing agree). Pure; must not draw.

use ratatui::text::{Line, Span};

/// `spans` with their first `skip` cells left out (the view scrolled sideways).
pub(super) fn shifted(spans: Vec<Span<'static>>, skip: usize) -> Vec<Span<'static>> {
    if skip == 0 {
        return spans;
    }
    let mut left = skip;
    let mut out = Vec::new();
    for s in spans {
        let w = crate::view::cut::width(&s.content);
        if left >= w {
            left -= w;
            continue;
        }
        let rest = crate::app::scroll::skip_cells(&s.content, left).into_owned();
        left = 0;
        out.push(Span::styled(rest, s.style));
    }
    out
}

/// `spans` (one line) wrapped into lines of at most `cols` cells, styles kept.
pub(super) fn wrapped(spans: Vec<Span<'static>>, cols: usize) -> Vec<Line<'static>> {
    let text: String = spans.iter().map(|s| s.content.as_ref()).collect();
    let pieces = crate::app::scroll::wrap_line(&text, cols);
    if pieces.len() == 1 {
        return vec![Line::from(spans)];
    }
    // Byte ranges of the spans in `text`, to style each piece's parts.
    let mut bounds = Vec::with_capacity(spans.len());
    let mut at = 0;
    for s in &spans {
        bounds.push((at, at + s.content.len(), s.style));
        at += s.content.len();
    }
    let mut out = Vec::with_capacity(pieces.len());
    let mut start = 0;
    for p in pieces {
        let end = start + p.len();
        let parts: Vec<Span<'static>> = bounds
            .iter()
            .filter(|(a, b, _)| *a < end && *b > start)
            .map(|(a, b, st)| Span::styled(text[(*a).max(start)..(*b).min(end)].to_owned(), *st))
            .collect();
        out.push(Line::from(parts));
        start = end;
    }
    out
}

/// `lines` as drawn in a box `cols` cells wide: wrapped, or shifted `skip` cells.
pub(super) fn fit(lines: Vec<Line<'static>>, cols: usize, wrap: bool, skip: usize) -> Vec<Line<'static>> {
    if wrap {
        lines.into_iter().flat_map(|l| wrapped(l.spans, cols)).collect()
    } else {
        lines
            .into_iter()
            .map(|l| Line::from(shifted(l.spans, skip)))
            .collect()
    }
}
