//! Theme files (`assets/themes/*.toml`, embedded) and the terminal's colour support: colours
//! by role, each role `{ fg, bg, bold, dim, italic, underline, reversed }`, adapted to what
//! the terminal can show (true colour → 256 → the 16 ANSI colours → none). Owns parsing and
//! colour downgrading, as plain data (the UI state keeps a [`ThemeSpec`]; `crate::ui::theme`
//! turns it into terminal styles); must not decide what is drawn nor mention ratatui.

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
pub enum ColorSpec {
    /// The terminal's own colour.
    Reset,
    /// One of the 16 ANSI colours, by index in [`ANSI_NAMES`] (0 black … 15 white).
    Ansi(u8),
    /// An xterm 256-colour palette index.
    Indexed(u8),
    /// 24-bit colour.
    Rgb(u8, u8, u8),
}

/// The names of the 16 ANSI colours, in palette order (`ColorSpec::Ansi(i)` is `ANSI_NAMES[i]`).
pub const ANSI_NAMES: [&str; 16] = [
    "black",
    "red",
    "green",
    "yellow",
    "blue",
    "magenta",
    "cyan",
    "gray",
    "dark_gray",
    "light_red",
    "light_green",
    "light_yellow",
    "light_blue",
    "light_magenta",
    "light_cyan",
    "white",
];

/// Approximate RGB of the 16 ANSI colours (xterm defaults), in [`ANSI_NAMES`] order.
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
        parse_color(&s).ok_or_else(|| {
            de::Error::custom(format!(
                "unknown colour {s:?} (an ANSI name like \"light_blue\", \"0\"-\"255\" or \"#rrggbb\")"
            ))
        })
    }
}

/// Parses a colour as written in a theme file (see [`ColorSpec`]).
pub fn parse_color(s: &str) -> Option<ColorSpec> {
    if s == "reset" {
        return Some(ColorSpec::Reset);
    }
    if let Some(i) = ANSI_NAMES.iter().position(|n| *n == s) {
        return Some(ColorSpec::Ansi(i as u8));
    }
    if let Some(hex) = s.strip_prefix('#').filter(|h| h.len() == 6) {
        let v = u32::from_str_radix(hex, 16).ok()?;
        return Some(ColorSpec::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8));
    }
    s.parse::<u8>().ok().map(ColorSpec::Indexed)
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

impl ThemeSpec {
    /// The built-in theme `name` (see `assets/themes/`) with colours adapted to `support`;
    /// without colour support the `mono` theme whatever `name` says. `None` for an unknown
    /// name. Parses a theme file: call when the settings change, not per frame.
    pub fn load(name: &str, support: ColorSupport) -> Option<ThemeSpec> {
        let name = if support == ColorSupport::None {
            "mono"
        } else {
            name
        };
        Some(spec(name)?.adapted(support))
    }

    /// The neutral default, independent of the environment: `dark` in the 16 ANSI colours
    /// (what it is written in), so it looks the same in every terminal.
    pub fn dark() -> ThemeSpec {
        ThemeSpec::load("dark", ColorSupport::Ansi16).unwrap_or_else(ThemeSpec::plain)
    }

    /// No colours: only the selection reversed (if an embedded theme failed to parse, which
    /// a unit test rules out).
    fn plain() -> ThemeSpec {
        let p = StyleSpec::default();
        ThemeSpec {
            description: "plain".into(),
            label: p,
            value: p,
            column: p,
            selected: StyleSpec { reversed: true, ..p },
            ok: p,
            warn: p,
            error: p,
            dim: p,
            highlight: p,
            border: p,
        }
    }

    /// Every role's colours adapted to `support`.
    pub fn adapted(&self, support: ColorSupport) -> ThemeSpec {
        let a = |s: &StyleSpec| s.adapted(support);
        ThemeSpec {
            description: self.description.clone(),
            label: a(&self.label),
            value: a(&self.value),
            column: a(&self.column),
            selected: a(&self.selected),
            ok: a(&self.ok),
            warn: a(&self.warn),
            error: a(&self.error),
            dim: a(&self.dim),
            highlight: a(&self.highlight),
            border: a(&self.border),
        }
    }
}

impl StyleSpec {
    /// The same style, colours adapted to `support` (`Reset` colours dropped).
    pub fn adapted(&self, support: ColorSupport) -> StyleSpec {
        let adapt_opt =
            |c: Option<ColorSpec>| c.map(|c| adapt(c, support)).filter(|c| *c != ColorSpec::Reset);
        StyleSpec {
            fg: adapt_opt(self.fg),
            bg: adapt_opt(self.bg),
            ..*self
        }
    }
}

/// `c` as the terminal can show it: the nearest palette colour, or `Reset` without colour.
pub fn adapt(c: ColorSpec, support: ColorSupport) -> ColorSpec {
    match (support, c) {
        (ColorSupport::None, _) => ColorSpec::Reset,
        (ColorSupport::TrueColor, c) => c,
        (ColorSupport::Ansi256, ColorSpec::Rgb(r, g, b)) => ColorSpec::Indexed(nearest_256(r, g, b)),
        (ColorSupport::Ansi256, c) => c,
        (ColorSupport::Ansi16, ColorSpec::Rgb(r, g, b)) => nearest_16(r, g, b),
        (ColorSupport::Ansi16, ColorSpec::Indexed(i)) => {
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

fn nearest_16(r: u8, g: u8, b: u8) -> ColorSpec {
    let best = (0..16u8)
        .min_by_key(|&i| dist(ANSI_RGB[usize::from(i)], (r, g, b)))
        .unwrap_or(0);
    ColorSpec::Ansi(best)
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
        let orange = ColorSpec::Rgb(255, 135, 0);
        let yellow = ColorSpec::Ansi(3);
        let (blue, dark_gray) = (ColorSpec::Ansi(4), ColorSpec::Ansi(8));
        assert_eq!(adapt(orange, ColorSupport::TrueColor), orange);
        assert_eq!(adapt(orange, ColorSupport::Ansi256), ColorSpec::Indexed(208));
        assert_eq!(adapt(orange, ColorSupport::Ansi16), yellow);
        assert_eq!(adapt(ColorSpec::Indexed(244), ColorSupport::Ansi16), dark_gray);
        assert_eq!(adapt(blue, ColorSupport::Ansi16), blue);
        assert_eq!(adapt(blue, ColorSupport::None), ColorSpec::Reset);
        assert_eq!(parse_color("#ff8700"), Some(orange));
        assert_eq!(parse_color("light_blue"), Some(ColorSpec::Ansi(12)));
        assert_eq!(parse_color("blurple"), None);
    }
}
