//! Styles by role, built from the [`ThemeSpec`] the UI state keeps (see
//! `crate::config::theme`, which parses the theme files and adapts their colours to the
//! terminal). Owns the mapping to ratatui styles handed to widgets; must not decide what is
//! drawn nor read the environment. The terminal's background is never painted unless a theme
//! asks for it.

use ratatui::style::{Color, Modifier, Style};

use crate::config::theme::{ColorSpec, StyleSpec, ThemeSpec};
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

/// The 16 ANSI colours in `ColorSpec::Ansi` index order.
const ANSI: [Color; 16] = [
    Color::Black,
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
    Color::Gray,
    Color::DarkGray,
    Color::LightRed,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightBlue,
    Color::LightMagenta,
    Color::LightCyan,
    Color::White,
];

/// The ratatui colour of `c` (already adapted to the terminal by the spec).
pub fn color(c: ColorSpec) -> Color {
    match c {
        ColorSpec::Reset => Color::Reset,
        ColorSpec::Ansi(i) => ANSI.get(usize::from(i)).copied().unwrap_or(Color::Reset),
        ColorSpec::Indexed(i) => Color::Indexed(i),
        ColorSpec::Rgb(r, g, b) => Color::Rgb(r, g, b),
    }
}

/// The ratatui style of one role; a `reset` colour leaves the terminal's own.
fn style(s: &StyleSpec) -> Style {
    let mut out = Style::new();
    if let Some(c) = s.fg.filter(|c| *c != ColorSpec::Reset) {
        out = out.fg(color(c));
    }
    if let Some(c) = s.bg.filter(|c| *c != ColorSpec::Reset) {
        out = out.bg(color(c));
    }
    for (on, m) in [
        (s.bold, Modifier::BOLD),
        (s.dim, Modifier::DIM),
        (s.italic, Modifier::ITALIC),
        (s.underline, Modifier::UNDERLINED),
        (s.reversed, Modifier::REVERSED),
    ] {
        if on {
            out = out.add_modifier(m);
        }
    }
    out
}

impl Theme {
    /// The styles of `spec` (cheap: no parsing, built once per frame).
    pub fn new(spec: &ThemeSpec) -> Theme {
        Theme {
            label: style(&spec.label),
            value: style(&spec.value),
            column: style(&spec.column),
            selected: style(&spec.selected),
            ok: style(&spec.ok),
            warn: style(&spec.warn),
            error: style(&spec.error),
            dim: style(&spec.dim),
            highlight: style(&spec.highlight),
            border: style(&spec.border),
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

/// The colour tag of a union's member at place `i` (the CONTEXT column, the header's
/// per-cluster line): the theme's roles in turn, so a mono theme stays mono.
pub(crate) fn tag(theme: &Theme, i: usize) -> ratatui::style::Style {
    let roles = [
        theme.highlight,
        theme.ok,
        theme.warn,
        theme.label,
        theme.value,
        theme.column,
    ];
    roles[i % roles.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::theme::{self, ColorSupport};

    fn load(name: &str, support: ColorSupport) -> Option<Theme> {
        ThemeSpec::load(name, support).map(|s| Theme::new(&s))
    }

    #[test]
    fn builtins_load_and_mono_has_no_colour() {
        for (name, _) in theme::THEMES {
            assert!(load(name, ColorSupport::TrueColor).is_some(), "{name}");
        }
        let t = Theme::new(&ThemeSpec::dark());
        assert_eq!(
            (t.label.fg, t.highlight.fg),
            (Some(Color::Yellow), Some(Color::LightMagenta))
        );
        let no_colour = load("light", ColorSupport::None).unwrap();
        for s in [
            no_colour.label,
            no_colour.ok,
            no_colour.error,
            no_colour.highlight,
            no_colour.border,
        ] {
            assert_eq!((s.fg, s.bg), (None, None));
        }
        let light16 = load("light", ColorSupport::Ansi16).unwrap();
        assert_eq!(light16.dim.fg, Some(Color::DarkGray));
    }

    #[test]
    fn ansi_names_map_to_their_colours() {
        for (i, name) in theme::ANSI_NAMES.iter().enumerate() {
            let want = format!("{:?}", ANSI[i]).to_lowercase();
            assert_eq!(name.replace('_', ""), want, "{name}");
        }
    }
}
