//! The `?` help box: the lines `app::help` built from the keymap in use (so it can never
//! drift from behaviour), filtered by its `/` filter, over the screen above the footer (where
//! the filter prompt shows); taller content scrolls (the title says which lines of how many),
//! wider content wraps or scrolls sideways. Read-only.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::app::help::model::{HelpLine, HelpState};
use crate::app::help::HelpContent;
use crate::app::scroll::{rows_of, Page};
use crate::app::state::UiState;
use crate::kube::sanitize::sanitize;
use crate::view::cut::width;

use super::theme::Theme;

/// Where the box goes on a screen of `area` and the page it shows.
fn geometry(area: Rect, c: &HelpContent, h: &HelpState) -> (Rect, Page) {
    let text = c.shown_text(&h.filter);
    let widest = text.iter().map(|l| width(l)).max().unwrap_or(0);
    let w = u16::try_from(widest + 4)
        .unwrap_or(u16::MAX)
        .clamp(40, 100)
        .min(area.width);
    let cols = usize::from(w.saturating_sub(2)).max(1);
    let content: usize = text
        .iter()
        .map(|l| rows_of(l, cols, h.wrap))
        .sum::<usize>()
        .max(1);
    // Above the footer, which holds the filter prompt.
    let avail = area.height.saturating_sub(1);
    let height = u16::try_from(content + 2).unwrap_or(u16::MAX).min(avail);
    let top = Rect {
        height: avail,
        ..area
    };
    let rect = super::centered(top, w, height);
    (rect, Page::new(usize::from(height.saturating_sub(2)), cols))
}

/// The page of the help box on a screen of `area` (for the paging keys).
pub(super) fn page(area: Rect, state: &UiState) -> Page {
    geometry(area, &HelpContent::of(state), &state.screens.overlays.help_view).1
}

pub(super) fn draw(f: &mut Frame, area: Rect, state: &UiState, theme: &Theme) {
    let h = &state.screens.overlays.help_view;
    let c = HelpContent::of(state);
    let (rect, page) = geometry(area, &c, h);
    let shown = c.shown(&h.filter);
    let total = shown.len();
    let scroll = h.scroll.min(total.saturating_sub(1));
    let lines: Vec<Line<'static>> = shown
        .iter()
        .skip(scroll)
        .map(|l| match l {
            HelpLine::Heading(t) => Line::from(Span::styled(t.clone(), theme.column)),
            HelpLine::Key { keys, desc } => {
                let w = c.key_width;
                Line::from(vec![
                    Span::styled(format!("  {keys:<w$}"), theme.label),
                    Span::raw(desc.clone()),
                ])
            }
            HelpLine::Text(t) => Line::from(t.clone()),
        })
        .collect();
    let mut lines = super::wrap::fit(lines, page.cols, h.wrap, h.hscroll);
    lines.truncate(page.rows);
    // Unwrapped, a line wider than the box is cut marked `…` (`w` wraps it).
    let lines_cut = lines.into_iter().map(|l| super::fit_line(l, page.cols));
    let mut lines: Vec<Line<'static>> = lines_cut.collect();
    if total == 0 {
        lines = vec![Line::from(Span::styled("no key matches the filter", theme.dim))];
    }
    let mut title = String::from(" help ");
    if !h.filter.is_empty() {
        title.push_str(&format!("/{} ", sanitize(&h.filter)));
    }
    if let Some(e) = &h.filter_error {
        title.push_str(&format!("({}) ", sanitize(e)));
    }
    let fits = scroll == 0 && lines.len() >= total && !h.wrap;
    if !fits && total > 0 {
        // Source lines shown: with wrap, a line may take several rows.
        let mut rows = 0;
        let mut to = scroll;
        for t in shown.iter().skip(scroll).map(|l| c.text(l)) {
            rows += rows_of(&t, page.cols, h.wrap);
            if rows > page.rows {
                break;
            }
            to += 1;
        }
        title.push_str(&format!("{}-{}/{} ↑↓ ", scroll + 1, to.max(scroll + 1), total));
    }
    title.push_str("· / filter · w wrap · esc closes ");
    f.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(title);
    f.render_widget(Paragraph::new(lines).block(block), rect);
}
