//! Colours by role, built from the theme files in `assets/themes/` (see
//! `crate::config::theme`). Owns the styles handed to widgets; must not decide what is drawn.
//! `NO_COLOR` (any non-empty value) turns every colour off; the terminal's background is
//! never painted unless a theme asks for it.

use ratatui::style::{Modifier, Style};

use crate::config::theme::{self, ColorSupport};

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
    /// The built-in theme `name` (see `assets/themes/`) with colours adapted to `support`;
    /// without colour support the `mono` theme whatever `name` says. `None` for an unknown
    /// name.
    pub fn load(name: &str, support: ColorSupport) -> Option<Theme> {
        let name = if support == ColorSupport::None {
            "mono"
        } else {
            name
        };
        let t = theme::spec(name)?;
        Some(Theme {
            label: t.label.style(support),
            value: t.value.style(support),
            column: t.column.style(support),
            selected: t.selected.style(support),
            ok: t.ok.style(support),
            warn: t.warn.style(support),
            error: t.error.style(support),
            dim: t.dim.style(support),
            highlight: t.highlight.style(support),
            border: t.border.style(support),
        })
    }

    /// The dark default, in the 16 ANSI colours so it survives every terminal.
    pub fn dark() -> Theme {
        Theme::load("dark", ColorSupport::Ansi16).unwrap_or_else(Theme::plain)
    }

    /// No colours at all: emphasis by bold, reverse and underline only.
    pub fn mono() -> Theme {
        Theme::load("mono", ColorSupport::Ansi16).unwrap_or_else(Theme::plain)
    }

    /// `dark` with the colours the environment allows (`mono` when `NO_COLOR` is set and
    /// non-empty). Parses a theme file: call once, not per frame.
    pub fn from_env() -> Theme {
        Theme::load("dark", ColorSupport::from_env()).unwrap_or_else(Theme::plain)
    }

    /// Unstyled (only if an embedded theme failed to parse, which a unit test rules out).
    fn plain() -> Theme {
        let p = Style::new();
        let selected = p.add_modifier(Modifier::REVERSED);
        Theme {
            label: p,
            value: p,
            column: p,
            selected,
            ok: p,
            warn: p,
            error: p,
            dim: p,
            highlight: p,
            border: p,
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

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Color;

    #[test]
    fn builtins_load_and_mono_has_no_colour() {
        for (name, _) in theme::THEMES {
            assert!(Theme::load(name, ColorSupport::TrueColor).is_some(), "{name}");
        }
        let t = Theme::dark();
        assert_eq!(
            (t.label.fg, t.highlight.fg),
            (Some(Color::Yellow), Some(Color::LightMagenta))
        );
        let no_colour = Theme::load("light", ColorSupport::None).unwrap();
        for s in [
            no_colour.label,
            no_colour.ok,
            no_colour.error,
            no_colour.highlight,
            no_colour.border,
        ] {
            assert_eq!((s.fg, s.bg), (None, None));
        }
        let light16 = Theme::load("light", ColorSupport::Ansi16).unwrap();
        assert_eq!(light16.dim.fg, Some(Color::DarkGray));
    }
}
