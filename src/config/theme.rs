//! Theme files (`assets/themes/*.toml`, embedded) and the terminal's colour support: colours
//! by role, each role `{ fg, bg, bold, dim, italic, underline, reversed }`, adapted to what
//! the terminal can show (true colour → 256 → the 16 ANSI colours → none). Owns parsing and
//! colour downgrading; must not decide what is drawn.

use ratatui::style::{Color, Modifier, Style};
use serde::de::{self, Deserializer};
use serde::Deserialize;

/// The built-in themes: `(name, file text)`.
pub const THEMES: [(&str, &str); 3] = [
    ("dark", include_str!("../../assets/themes/dark.toml")),
    ("light", include_str!("../../assets/themes/light.toml")),
    ("mono", include_str!("../../assets/themes/mono.toml")),
];

/// How many colours the terminal shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ColorSupport {
    /// No colour at all (`NO_COLOR`, `TERM=dumb`): only bold, reverse, underline.
    None,
    /// The 16 ANSI colours (`TERM=screen`, `xterm`, `linux`).
    Ansi16,
    /// The xterm 256-colour palette (`TERM=*-256color`).
    Ansi256,
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    TrueColor,
}

impl ColorSupport {
    /// Decides from `NO_COLOR` (any non-empty value), `COLORTERM` and `TERM`, read through
    /// `var` (the process environment in [`ColorSupport::from_env`]).
    pub fn detect(var: impl Fn(&str) -> Option<String>) -> ColorSupport {
        if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return ColorSupport::None;
        }
        let term = var("TERM").unwrap_or_default();
        if term == "dumb" {
            return ColorSupport::None;
        }
        let colorterm = var("COLORTERM").unwrap_or_default();
        if matches!(colorterm.as_str(), "truecolor" | "24bit") || term.ends_with("-direct") {
            ColorSupport::TrueColor
        } else if term.contains("256color") {
            ColorSupport::Ansi256
        } else {
            ColorSupport::Ansi16
        }
    }

    /// [`ColorSupport::detect`] on the process environment.
    pub fn from_env() -> ColorSupport {
        Self::detect(|k| std::env::var(k).ok())
    }

    /// `colors` of `[ui]`: `auto` detects; `none`, `16`, `256`, `truecolor` force.
    pub fn from_setting(setting: &str) -> Option<ColorSupport> {
        match setting {
            "auto" => Some(Self::from_env()),
            "none" => Some(ColorSupport::None),
            "16" => Some(ColorSupport::Ansi16),
            "256" => Some(ColorSupport::Ansi256),
            "truecolor" => Some(ColorSupport::TrueColor),
            _ => None,
        }
    }
}

/// A theme file: a description and one style per role (every role is required).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThemeSpec {
    /// One line for `ktui info`.
    pub description: String,
    /// Header labels (`context:`).
    pub label: StyleSpec,
    /// Header values.
    pub value: StyleSpec,
    /// Table header row.
    pub column: StyleSpec,
    /// The selected row.
    pub selected: StyleSpec,
    /// Healthy rows, status ok.
    pub ok: StyleSpec,
    /// In-progress rows, warnings.
    pub warn: StyleSpec,
    /// Failing rows, errors.
    pub error: StyleSpec,
    /// Finished rows, dimmed text.
    pub dim: StyleSpec,
    /// Fuzzy-match highlight.
    pub highlight: StyleSpec,
    /// Borders and titles.
    pub border: StyleSpec,
}

/// The style of one role. No `bg` means the terminal's own background.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StyleSpec {
    /// Foreground colour.
    pub fg: Option<ColorSpec>,
    /// Background colour (rarely: ktui keeps the terminal's background).
    pub bg: Option<ColorSpec>,
    /// Bold text.
    pub bold: bool,
    /// Faint text.
    pub dim: bool,
    /// Italic text.
    pub italic: bool,
    /// Underlined text.
    pub underline: bool,
    /// Swapped foreground and background.
    pub reversed: bool,
}

/// A colour as written: one of the 16 ANSI names (`red`, `light_blue`, `dark_gray`, …),
/// `reset`, a palette index `"0"`–`"255"` or `"#rrggbb"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColorSpec(pub Color);

const NAMES: [(&str, Color); 17] = [
    ("reset", Color::Reset),
    ("black", Color::Black),
    ("red", Color::Red),
    ("green", Color::Green),
    ("yellow", Color::Yellow),
    ("blue", Color::Blue),
    ("magenta", Color::Magenta),
    ("cyan", Color::Cyan),
    ("gray", Color::Gray),
    ("dark_gray", Color::DarkGray),
    ("light_red", Color::LightRed),
    ("light_green", Color::LightGreen),
    ("light_yellow", Color::LightYellow),
    ("light_blue", Color::LightBlue),
    ("light_magenta", Color::LightMagenta),
    ("light_cyan", Color::LightCyan),
    ("white", Color::White),
];

/// Approximate RGB of the 16 ANSI colours (xterm defaults), index order = `NAMES[1..]`.
const ANSI_RGB: [(u8, u8, u8); 16] = [
    (0, 0, 0),
    (205, 0, 0),
    (0, 205, 0),
    (205, 205, 0),
    (0, 0, 238),
    (205, 0, 205),
    (0, 205, 205),
    (229, 229, 229),
    (127, 127, 127),
    (255, 0, 0),
    (0, 255, 0),
    (255, 255, 0),
    (92, 92, 255),
    (255, 0, 255),
    (0, 255, 255),
    (255, 255, 255),
];

impl<'de> Deserialize<'de> for ColorSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        parse_color(&s).map(ColorSpec).ok_or_else(|| {
            de::Error::custom(format!(
                "unknown colour {s:?} (an ANSI name like \"light_blue\", \"0\"-\"255\" or \"#rrggbb\")"
            ))
        })
    }
}

fn parse_color(s: &str) -> Option<Color> {
    if let Some((_, c)) = NAMES.iter().find(|(n, _)| *n == s) {
        return Some(*c);
    }
    if let Some(hex) = s.strip_prefix('#').filter(|h| h.len() == 6) {
        let v = u32::from_str_radix(hex, 16).ok()?;
        return Some(Color::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8));
    }
    s.parse::<u8>().ok().map(Color::Indexed)
}

/// The built-in theme `name`, parsed.
pub fn spec(name: &str) -> Option<ThemeSpec> {
    let (_, text) = THEMES.iter().find(|(n, _)| *n == name)?;
    toml::from_str(text).ok()
}

/// Whether `name` is a built-in theme.
pub fn exists(name: &str) -> bool {
    THEMES.iter().any(|(n, _)| *n == name)
}

impl StyleSpec {
    /// The ratatui style, colours adapted to `support`.
    pub fn style(&self, support: ColorSupport) -> Style {
        let mut s = Style::new();
        if let Some(c) = self
            .fg
            .map(|c| adapt(c.0, support))
            .filter(|c| *c != Color::Reset)
        {
            s = s.fg(c);
        }
        if let Some(c) = self
            .bg
            .map(|c| adapt(c.0, support))
            .filter(|c| *c != Color::Reset)
        {
            s = s.bg(c);
        }
        for (on, m) in [
            (self.bold, Modifier::BOLD),
            (self.dim, Modifier::DIM),
            (self.italic, Modifier::ITALIC),
            (self.underline, Modifier::UNDERLINED),
            (self.reversed, Modifier::REVERSED),
        ] {
            if on {
                s = s.add_modifier(m);
            }
        }
        s
    }
}

/// `c` as the terminal can show it: the nearest palette colour, or `Reset` without colour.
pub fn adapt(c: Color, support: ColorSupport) -> Color {
    match (support, c) {
        (ColorSupport::None, _) => Color::Reset,
        (ColorSupport::TrueColor, c) => c,
        (ColorSupport::Ansi256, Color::Rgb(r, g, b)) => Color::Indexed(nearest_256(r, g, b)),
        (ColorSupport::Ansi256, c) => c,
        (ColorSupport::Ansi16, Color::Rgb(r, g, b)) => nearest_16(r, g, b),
        (ColorSupport::Ansi16, Color::Indexed(i)) => {
            let (r, g, b) = index_rgb(i);
            nearest_16(r, g, b)
        }
        (ColorSupport::Ansi16, c) => c,
    }
}

const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

fn index_rgb(i: u8) -> (u8, u8, u8) {
    match i {
        0..=15 => ANSI_RGB[i as usize],
        16..=231 => {
            let i = i - 16;
            (
                CUBE[(i / 36) as usize],
                CUBE[(i / 6 % 6) as usize],
                CUBE[(i % 6) as usize],
            )
        }
        _ => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
    }
}

fn dist((r1, g1, b1): (u8, u8, u8), (r2, g2, b2): (u8, u8, u8)) -> u32 {
    let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).unsigned_abs();
    d(r1, r2).pow(2) + d(g1, g2).pow(2) + d(b1, b2).pow(2)
}

fn nearest_16(r: u8, g: u8, b: u8) -> Color {
    let best = (0..16).min_by_key(|&i| dist(ANSI_RGB[i], (r, g, b))).unwrap_or(0);
    NAMES[best + 1].1
}

fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    (16..=255u8)
        .min_by_key(|&i| dist(index_rgb(i), (r, g, b)))
        .unwrap_or(16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_theme_parses() {
        for (name, text) in THEMES {
            if let Err(e) = toml::from_str::<ThemeSpec>(text) {
                panic!("theme {name}: {e}");
            }
        }
    }

    #[test]
    fn support_from_env() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        assert_eq!(
            ColorSupport::detect(env(&[("TERM", "screen")])),
            ColorSupport::Ansi16
        );
        assert_eq!(
            ColorSupport::detect(env(&[("TERM", "tmux-256color")])),
            ColorSupport::Ansi256
        );
        assert_eq!(
            ColorSupport::detect(env(&[("TERM", "xterm-256color"), ("COLORTERM", "truecolor")])),
            ColorSupport::TrueColor
        );
        assert_eq!(
            ColorSupport::detect(env(&[("TERM", "xterm-256color"), ("NO_COLOR", "1")])),
            ColorSupport::None
        );
        assert_eq!(
            ColorSupport::detect(env(&[("TERM", "xterm"), ("NO_COLOR", "")])),
            ColorSupport::Ansi16
        );
        assert_eq!(ColorSupport::detect(env(&[("TERM", "dumb")])), ColorSupport::None);
    }

    #[test]
    fn colours_downgrade() {
        let orange = Color::Rgb(255, 135, 0);
        assert_eq!(adapt(orange, ColorSupport::TrueColor), orange);
        assert_eq!(adapt(orange, ColorSupport::Ansi256), Color::Indexed(208));
        assert_eq!(adapt(orange, ColorSupport::Ansi16), Color::Yellow);
        assert_eq!(adapt(Color::Indexed(244), ColorSupport::Ansi16), Color::DarkGray);
        assert_eq!(adapt(Color::Blue, ColorSupport::Ansi16), Color::Blue);
        assert_eq!(adapt(Color::Blue, ColorSupport::None), Color::Reset);
        assert_eq!(parse_color("#ff8700"), Some(orange));
        assert_eq!(parse_color("light_blue"), Some(Color::LightBlue));
        assert_eq!(parse_color("blurple"), None);
    }
}
