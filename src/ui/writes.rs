//! The confirmation dialog of a write and the drain overlay, drawn over the view: title,
//! what is touched (objects, namespace, context), the options, the force warning, the
//! typed confirmation of protected contexts, and the yes/no buttons ("no" selected unless
//! the user moved). Must not change state.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::writes::model::{Dialog, Field};
use crate::app::writes::model::{DrainState, Tone};
use crate::kube::sanitize::sanitize;

use super::theme::Theme;

/// Draws `d` centred over `area`.
pub(super) fn draw(f: &mut Frame, area: Rect, d: &Dialog, theme: &Theme) {
    let mut lines: Vec<Line> = Vec::new();
    for l in &d.lines {
        lines.push(Line::from(Span::styled(sanitize(l).into_owned(), theme.value)));
    }
    if let Some(w) = &d.warning {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(format!("⚠ {w}"), theme.warn)));
    }
    if !d.fields.is_empty() {
        lines.push(Line::from(""));
    }
    for (i, field) in d.fields.iter().enumerate() {
        let focused = d.focus == i;
        let mark = if focused { "▸ " } else { "  " };
        let (label, value) = match field {
            Field::Choice { label, options, at } => {
                let v = options.get(*at).map_or("", String::as_str);
                (*label, format!("‹ {} ›", sanitize(v)))
            }
            Field::Number { label, text, hint } => {
                let v = if text.is_empty() {
                    format!("[{hint}]")
                } else {
                    format!("[{text}]")
                };
                (*label, if focused { format!("{v}█") } else { v })
            }
            Field::Toggle { label, on } => (*label, if *on { "[x]".into() } else { "[ ]".into() }),
        };
        let style = if focused { theme.selected } else { Style::default() };
        lines.push(Line::from(vec![
            Span::styled(format!("{mark}{label}: "), theme.label),
            Span::styled(value, style),
        ]));
    }
    if let Some(want) = &d.require {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(
            format!("protected context: type {} to confirm", sanitize(want)),
            theme.warn,
        )));
        lines.push(Line::from(vec![
            Span::styled("> ", theme.label),
            Span::raw(sanitize(&d.typed).into_owned()),
            Span::raw("█"),
        ]));
    }
    lines.push(Line::from(""));
    let on_buttons = d.focus >= d.fields.len();
    let button = |text: &'static str, chosen: bool| {
        let style = if chosen && on_buttons {
            theme.selected
        } else if chosen {
            theme.label
        } else {
            theme.dim
        };
        Span::styled(format!(" {text} "), style)
    };
    lines.push(Line::from(vec![
        Span::raw("  "),
        button("no", !d.yes),
        Span::raw("   "),
        button("yes", d.yes),
    ]));
    let keys = if d.require.is_some() {
        "enter confirms once typed · tab moves · esc cancels"
    } else {
        "y yes · n/esc no · tab moves · ←/→ change · enter selected"
    };
    lines.push(Line::from(Span::styled(keys, theme.dim)));
    if let Some(e) = &d.error {
        lines.push(Line::from(Span::styled(sanitize(e).into_owned(), theme.error)));
    }
    let title = format!(" {} ", sanitize(&d.title));
    boxed(f, area, title, lines, theme);
}

/// Draws the drain overlay: the newest lines that fit.
pub(super) fn drain(f: &mut Frame, area: Rect, d: &DrainState, theme: &Theme) {
    let height = area.height.saturating_sub(4).max(3) as usize;
    let skip = d.lines.len().saturating_sub(height.saturating_sub(3));
    let mut lines: Vec<Line> = d.lines[skip..]
        .iter()
        .map(|(tone, text)| {
            let style = match tone {
                Tone::Ok => theme.value,
                Tone::Warn => theme.warn,
                Tone::Error => theme.error,
            };
            Line::from(Span::styled(sanitize(text).into_owned(), style))
        })
        .collect();
    lines.push(Line::from(""));
    let keys = if d.running {
        "esc cancels the drain"
    } else {
        "any key closes"
    };
    lines.push(Line::from(Span::styled(keys, theme.dim)));
    let state = if d.running { "draining" } else { "drain" };
    let title = format!(" {state} node/{} — {} evicted ", sanitize(&d.node), d.evicted);
    boxed(f, area, title, lines, theme);
}

/// `lines` in a bordered box titled `title`, centred over `area`, at most 80 wide.
fn boxed(f: &mut Frame, area: Rect, title: String, lines: Vec<Line>, theme: &Theme) {
    let width = lines
        .iter()
        .map(|l| l.width())
        .chain(std::iter::once(title.chars().count()))
        .max()
        .unwrap_or(20)
        .saturating_add(4)
        .clamp(30, 80) as u16;
    let inner = usize::from(width.saturating_sub(2)).max(1);
    let rows: usize = lines.iter().map(|l| l.width().max(1).div_ceil(inner)).sum();
    let popup = super::centered(area, width, (rows as u16).saturating_add(2));
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.warn)
        .title(Span::styled(title, theme.warn));
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(block),
        popup,
    );
}
