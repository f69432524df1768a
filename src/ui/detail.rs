//! The detail views of `app::detail` (YAML, describe, blame, history): the object's lines
//! with keys coloured, search matches highlighted, and a
//! title saying what is shown (deleted, managedFields, Secret values, the lines shown of how
//! many, wrap or which way it scrolls sideways); wrapped or shifted per `DetailState`. Read-only.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::app::detail::model::DetailState;
use crate::kube::sanitize::sanitize;

use super::theme::Theme;

/// Draws `y` in `area`; `view_ns` is the namespace the screen is in (`None`: all), so that
/// the title names the object's namespace when it is not that one.
pub(super) fn draw(f: &mut Frame, area: Rect, y: &DetailState, view_ns: Option<&str>, theme: &Theme) {
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
    if let Some(ns) = y.key.namespace.as_deref().filter(|ns| view_ns != Some(*ns)) {
        title.push_str(&format!("-n {} ", sanitize(ns)));
    }
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
    let cols = usize::from(area.width.saturating_sub(2)).max(1);
    let mut lines: Vec<Line> = Vec::with_capacity(page);
    let mut shown_to = y.scroll;
    for (i, l) in y.lines.iter().enumerate().skip(y.scroll) {
        if lines.len() >= page {
            break;
        }
        shown_to = i + 1;
        let style_all = if selected == Some(i) {
            Some(theme.selected)
        } else if y.history.is_some() {
            diff_style(l, theme)
        } else if !needle.is_empty() && l.to_lowercase().contains(&needle) {
            Some(theme.highlight)
        } else {
            None
        };
        let spans = colour(l, theme, style_all, y.describe);
        if y.wrap {
            lines.extend(super::wrap::wrapped(spans, cols));
        } else {
            lines.push(Line::from(super::wrap::shifted(spans, y.hscroll)));
        }
    }
    lines.truncate(page);
    if y.lines.len() > page || y.scroll > 0 {
        title.push_str(&format!(
            "{}-{}/{} ",
            (y.scroll + 1).min(shown_to),
            shown_to,
            y.lines.len()
        ));
    }
    if y.wrap {
        title.push_str("[wrap] ");
    } else {
        let max = crate::app::scroll::max_hscroll(&y.lines, cols, false);
        match (y.hscroll > 0, y.hscroll < max) {
            (true, true) => title.push_str("←→ "),
            (true, false) => title.push_str("← "),
            (false, true) => title.push_str("→ "),
            (false, false) => {}
        }
    }
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

/// `key: value` with the key in the label style; comments and list dashes dimmed. In
/// describe, only a label of kubectl's shape is coloured (`Name:`, `  Restart Count:` —
/// words and spaces, before `:` at the end or followed by spaces), never a value that
/// happens to hold a colon (an event message).
fn colour(
    line: &str,
    theme: &Theme,
    whole: Option<ratatui::style::Style>,
    describe: bool,
) -> Vec<Span<'static>> {
    if let Some(style) = whole {
        return vec![Span::styled(line.to_owned(), style)];
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') {
        return vec![Span::styled(line.to_owned(), theme.dim)];
    }
    let split = if describe {
        crate::detail::describe::label_end(line)
    } else {
        line.find(": ")
            .or_else(|| line.strip_suffix(':').map(|s| s.len()))
            .filter(|_| !trimmed.starts_with('"'))
    };
    match split {
        Some(i) => {
            let (k, v) = line.split_at(i);
            vec![Span::styled(k.to_owned(), theme.label), Span::raw(v.to_owned())]
        }
        None => vec![Span::raw(line.to_owned())],
    }
}
