//! The usage trend of one pod or node in the `v` overlay: CPU and memory over the samples
//! ktui has fetched since it started watching, as block-character bar charts a few rows high,
//! with now/min/max. Pure layout of numbers into lines; must not read the metrics pool.

use ratatui::text::{Line, Span};

use super::theme::Theme;

/// Rows of one chart.
pub(super) const HEIGHT: usize = 4;

/// The eight partial blocks of one cell, emptiest first (a full cell is the last).
const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// `values` (oldest first) as `HEIGHT` rows of bars, top row first, one column per value
/// (the newest `width` of them), scaled so the largest value fills the chart. A value of 0
/// draws nothing; any other value at least the lowest eighth.
pub(super) fn bars(values: &[u64], width: usize) -> Vec<String> {
    let values = &values[values.len().saturating_sub(width)..];
    let max = values.iter().copied().max().unwrap_or(0);
    let eighths = |v: u64| -> usize {
        if max == 0 || v == 0 {
            return 0;
        }
        let full = (HEIGHT * 8) as u128;
        let e = (u128::from(v) * full).div_ceil(u128::from(max));
        usize::try_from(e).unwrap_or(HEIGHT * 8).max(1)
    };
    let levels: Vec<usize> = values.iter().map(|&v| eighths(v)).collect();
    (0..HEIGHT)
        .rev()
        .map(|row| {
            levels
                .iter()
                .map(|&e| {
                    let base = row * 8;
                    match e.saturating_sub(base) {
                        0 => ' ',
                        n if n >= 8 => BLOCKS[7],
                        n => BLOCKS[n - 1],
                    }
                })
                .collect()
        })
        .collect()
}

/// One chart: a title line, the bars with the maximum labelled on the top row and 0 on the
/// bottom one, and a line of facts (`now 120m · min 80m · max 190m · request 100m`).
pub(super) fn chart(
    title: &str,
    values: &[u64],
    fmt: impl Fn(u64) -> String,
    extra: &[(&str, String)],
    width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let max = values.iter().copied().max().unwrap_or(0);
    let min = values.iter().copied().min().unwrap_or(0);
    let top = fmt(max);
    let axis = top.chars().count().max(1);
    let room = width.saturating_sub(axis + 2).max(1);
    let mut out = vec![Line::from(Span::styled(title.to_owned(), theme.label))];
    for (i, row) in bars(values, room).into_iter().enumerate() {
        let label = match i {
            0 => top.clone(),
            i if i == HEIGHT - 1 => "0".to_owned(),
            _ => String::new(),
        };
        out.push(Line::from(vec![
            Span::styled(format!("{label:>axis$} ┤"), theme.dim),
            Span::styled(row, theme.value),
        ]));
    }
    let mut facts = match values.last() {
        Some(&now) => format!("now {} · min {} · max {}", fmt(now), fmt(min), fmt(max)),
        None => "no sample yet".to_owned(),
    };
    for (k, v) in extra {
        facts.push_str(&format!(" · {k} {v}"));
    }
    out.push(Line::from(Span::styled(
        format!("{:axis$}  {facts}", ""),
        theme.dim,
    )));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_value() {
        let rows = bars(&[0, 8, 16, 32], 10);
        assert_eq!(rows.len(), HEIGHT);
        // 32 fills all four rows; 16 the lower two; 8 the lowest; 0 nothing.
        assert_eq!(rows[0], "   █");
        assert_eq!(rows[1], "   █");
        assert_eq!(rows[2], "  ██");
        assert_eq!(rows[3], " ███");
        let partial = bars(&[1, 64], 10);
        assert_eq!(partial[3].chars().next(), Some('▁'), "small but not zero shows");
    }

    #[test]
    fn only_the_newest_fit() {
        let rows = bars(&[100, 1, 2, 3], 2);
        assert_eq!(rows[3].chars().count(), 2);
        assert_eq!(rows[0], " █", "scaled to what is shown");
    }

    #[test]
    fn all_zero_or_empty_draws_blank_rows() {
        assert!(bars(&[0, 0], 5).iter().all(|r| r.trim().is_empty()));
        assert!(bars(&[], 5).iter().all(String::is_empty));
    }
}
