//! Colours by role. Owns the palette; must not decide what is drawn. `NO_COLOR` (any
//! non-empty value) turns every colour off; the terminal's background is never painted.

use ratatui::style::{Color, Modifier, Style};

use crate::kube::row::Health;

/// Styles by role.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    /// Header labels.
    pub label: Style,
    /// Header values.
    pub value: Style,
    /// Table header row.
    pub column: Style,
    /// The selected row.
    pub selected: Style,
    /// Rows by health.
    pub ok: Style,
    /// In-progress rows and warnings.
    pub warn: Style,
    /// Failing rows and errors.
    pub error: Style,
    /// Finished rows, dimmed text.
    pub dim: Style,
    /// Fuzzy-match highlight.
    pub highlight: Style,
    /// Borders and titles.
    pub border: Style,
}

impl Theme {
    /// The dark default, in the 16 ANSI colours so it survives every terminal.
    pub fn dark() -> Theme {
        Theme {
            label: Style::new().fg(Color::Yellow),
            value: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            column: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            ok: Style::new().fg(Color::Cyan),
            warn: Style::new().fg(Color::Yellow),
            error: Style::new().fg(Color::Red),
            dim: Style::new().fg(Color::DarkGray),
            highlight: Style::new().fg(Color::LightMagenta).add_modifier(Modifier::BOLD),
            border: Style::new().fg(Color::Blue),
        }
    }

    /// No colours at all: emphasis by bold, reverse and underline only.
    pub fn mono() -> Theme {
        let plain = Style::new();
        Theme {
            label: plain,
            value: plain.add_modifier(Modifier::BOLD),
            column: plain.add_modifier(Modifier::BOLD),
            selected: plain.add_modifier(Modifier::REVERSED),
            ok: plain,
            warn: plain,
            error: plain.add_modifier(Modifier::BOLD),
            dim: plain,
            highlight: plain.add_modifier(Modifier::UNDERLINED),
            border: plain,
        }
    }

    /// `mono` when `NO_COLOR` is set and non-empty, else `dark`.
    pub fn from_env() -> Theme {
        match std::env::var_os("NO_COLOR") {
            Some(v) if !v.is_empty() => Theme::mono(),
            _ => Theme::dark(),
        }
    }

    /// The row style for a health class.
    pub fn health(&self, h: Health) -> Style {
        match h {
            Health::Ok => self.ok,
            Health::Warn => self.warn,
            Health::Error => self.error,
            Health::Done => self.dim,
        }
    }
}
