//! The YAML view: the object's lines with keys coloured, search matches highlighted, and a
//! title saying what is shown (deleted, managedFields, Secret values). Read-only.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::app::yaml::DetailState;
use crate::kube::sanitize::sanitize;

use super::theme::Theme;

pub(super) fn draw(f: &mut Frame, area: Rect, y: &DetailState, theme: &Theme) {
    let page = area.height.saturating_sub(2) as usize;
    let what = match (&y.history, y.blame) {
        (Some(h), _) if h.diff.is_some() => "history diff",
        (Some(_), _) => "history",
        (None, true) => "blame",
        (None, false) if y.describe => "describe",
        (None, false) => "yaml",
    };
    // The history's selected revision row (list mode), highlighted like a list selection.
    let selected = y.history.as_ref().and_then(|h| h.selected_line());
    let mut title = format!(
        " {what} {}/{} ",
        sanitize(y.key.kind.singular()),
        sanitize(&y.name)
    );
    if y.deleted {
        title.push_str("[deleted] ");
    }
    if y.show_managed {
        title.push_str("[managedFields] ");
    }
    if y.reveal {
        title.push_str("[secret values shown] ");
    }
    let needle = y.search.to_lowercase();
    let lines: Vec<Line> = y
        .lines
        .iter()
        .enumerate()
        .skip(y.scroll)
        .take(page)
        .map(|(i, l)| {
            let style_all = if selected == Some(i) {
                Some(theme.selected)
            } else if y.history.is_some() {
                diff_style(l, theme)
            } else if !needle.is_empty() && l.to_lowercase().contains(&needle) {
                Some(theme.highlight)
            } else {
                None
            };
            colour(l, theme, style_all)
        })
        .collect();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.value));
    let body = if y.lines.is_empty() {
        // Why there is nothing yet: still loading, or the watch cannot get the object.
        let view = y.watch.as_ref().map(|w| w.view.load_full());
        let (text, style) = match view.as_deref() {
            Some(v) if v.deleted => ("not found on the server".to_owned(), theme.error),
            Some(v) if v.state.is_failure() => (sanitize(&v.state.to_string()).into_owned(), theme.error),
            _ => ("loading…".to_owned(), theme.warn),
        };
        vec![Line::from(Span::styled(text, style))]
    } else {
        lines
    };
    f.render_widget(Paragraph::new(body).block(block), area);
}

/// History lines: additions green, removals red, changes yellow, the header dimmed.
fn diff_style(line: &str, theme: &Theme) -> Option<ratatui::style::Style> {
    match line.chars().next() {
        Some('+') => Some(theme.ok),
        Some('-') => Some(theme.error),
        Some('~') => Some(theme.warn),
        _ => Some(ratatui::style::Style::default()),
    }
}

/// `key: value` with the key in the label style; comments and list dashes dimmed.
fn colour(line: &str, theme: &Theme, whole: Option<ratatui::style::Style>) -> Line<'static> {
    if let Some(style) = whole {
        return Line::from(Span::styled(line.to_owned(), style));
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') {
        return Line::from(Span::styled(line.to_owned(), theme.dim));
    }
    match line
        .find(": ")
        .or_else(|| line.strip_suffix(':').map(|s| s.len()))
    {
        Some(i) if !trimmed.starts_with('"') => {
            let (k, v) = line.split_at(i);
            Line::from(vec![
                Span::styled(k.to_owned(), theme.label),
                Span::raw(v.to_owned()),
            ])
        }
        _ => Line::from(line.to_owned()),
    }
}
