//! The `?` overlay, generated from the keymap in use so it can never drift from behaviour.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::app::state::UiState;
use crate::kube::builtin::BuiltinKind;

use super::theme::Theme;

pub(super) fn draw(f: &mut Frame, area: Rect, state: &UiState, theme: &Theme) {
    let mut lines = vec![Line::from(Span::styled("Keys", theme.column))];
    let mut seen: Vec<(String, String)> = Vec::new();
    for b in state
        .settings
        .keymap
        .effective(state.top().key_mode())
        .into_iter()
        .filter(|b| state.offers(b.run))
    {
        // Several keys for one action share a line: `j, down  down`.
        if let Some(entry) = seen.iter_mut().find(|(_, d)| *d == b.desc) {
            entry.0.push_str(", ");
            entry.0.push_str(&b.on);
        } else {
            seen.push((b.on.clone(), b.desc.clone()));
        }
    }
    // Arrow keys by their glyph; a left/right pair as one.
    for (keys, _) in &mut seen {
        *keys = keys
            .replace("shift-left, shift-right", "shift-←/→")
            .replace("left", "←")
            .replace("right", "→");
    }
    // The key column fits the longest keys (user overrides can make them long), up to 24.
    let width = seen
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(12, 24)
        + 2;
    for (keys, desc) in seen {
        lines.push(Line::from(vec![
            Span::styled(format!("  {keys:<width$}"), theme.label),
            Span::raw(desc),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Commands", theme.column)));
    let popup_width = 78.min(area.width);
    // Built-in kinds by their shortest name, wrapped to the box.
    let names: Vec<String> = BuiltinKind::ALL
        .iter()
        .map(|k| {
            let i = k.info();
            format!(":{}", i.short.first().copied().unwrap_or(i.plural))
        })
        .collect();
    let inner = usize::from(popup_width.saturating_sub(4)).max(20);
    let mut line = String::from(" ");
    for n in names {
        if line.len() + 1 + n.len() > inner {
            lines.push(Line::from(std::mem::replace(&mut line, String::from(" "))));
        }
        line.push(' ');
        line.push_str(&n);
    }
    lines.push(Line::from(line));
    for text in [
        "  :<resource> [namespace|all] [-l selector]  (any the server offers)",
        "  :ar (:api-resources)  :ctx [name]  :informers (:watches)  :q",
    ] {
        lines.push(Line::from(text));
    }
    let popup = super::centered(area, popup_width, lines.len() as u16 + 2);
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(" help (any key closes) ");
    f.render_widget(Paragraph::new(lines).block(block), popup);
}
