//! Checked config values (theme names, colour modes, frame caps, durations, log levels):
//! each rejects bad input while the TOML is parsed, so the error carries its line. Owns
//! value syntax; must not read files or apply anything.

use std::time::Duration;

use serde::de::{self, Deserializer};
use serde::Deserialize;

/// A built-in theme name (`dark`, `light`, `mono`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemeName(pub String);

impl ThemeName {
    /// The name, which is known to exist.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for ThemeName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if super::theme::exists(&name) {
            Ok(ThemeName(name))
        } else {
            let known: Vec<&str> = super::theme::THEMES.iter().map(|(n, _)| *n).collect();
            Err(de::Error::custom(format!(
                "unknown theme {name:?} (themes: {})",
                known.join(", ")
            )))
        }
    }
}

/// How many colours to use: detected, or forced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub enum Colors {
    /// Decide from `NO_COLOR`, `COLORTERM` and `TERM`.
    #[default]
    #[serde(rename = "auto")]
    Auto,
    /// No colour.
    #[serde(rename = "none")]
    None,
    /// The 16 ANSI colours.
    #[serde(rename = "16")]
    Ansi16,
    /// The 256-colour palette.
    #[serde(rename = "256")]
    Ansi256,
    /// 24-bit colour.
    #[serde(rename = "truecolor")]
    TrueColor,
}

impl Colors {
    /// The colour support this setting means (`Auto` reads the environment).
    pub fn support(self) -> super::theme::ColorSupport {
        use super::theme::ColorSupport;
        match self {
            Colors::Auto => ColorSupport::from_env(),
            Colors::None => ColorSupport::None,
            Colors::Ansi16 => ColorSupport::Ansi16,
            Colors::Ansi256 => ColorSupport::Ansi256,
            Colors::TrueColor => ColorSupport::TrueColor,
        }
    }
}

/// Most frames drawn per second, 1–240.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fps(pub u16);

impl Fps {
    /// Least time between two frames.
    pub fn frame(self) -> Duration {
        Duration::from_micros(1_000_000 / u64::from(self.0.max(1)))
    }
}

impl<'de> Deserialize<'de> for Fps {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = i64::deserialize(d)?;
        match u16::try_from(n) {
            Ok(n @ 1..=240) => Ok(Fps(n)),
            _ => Err(de::Error::custom(format!("max_fps must be 1 to 240, not {n}"))),
        }
    }
}

/// A duration written `90s`, `15m`, `24h`, `7d` or combined (`1h30m`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Age(pub Duration);

impl<'de> Deserialize<'de> for Age {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        parse_duration(&s).map(Age).ok_or_else(|| {
            de::Error::custom(format!(
                "invalid duration {s:?} (write e.g. \"90s\", \"15m\", \"24h\", \"7d\", \"1h30m\")"
            ))
        })
    }
}

/// Parses `1h30m`-style durations (units `s`, `m`, `h`, `d`); `None` when malformed or zero.
pub fn parse_duration(s: &str) -> Option<Duration> {
    let mut total: u64 = 0;
    let mut num = String::new();
    for c in s.trim().chars() {
        if c.is_ascii_digit() {
            num.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => return None,
        };
        let n: u64 = std::mem::take(&mut num).parse().ok()?;
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    (num.is_empty() && total > 0).then(|| Duration::from_secs(total))
}

/// A `tracing` filter directive (`info`, `debug`, `ktui=debug,kube=warn`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level(pub String);

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        match tracing_subscriber::EnvFilter::try_new(&s) {
            Ok(_) if !s.trim().is_empty() => Ok(Level(s)),
            _ => Err(de::Error::custom(format!(
                "invalid log level {s:?} (trace, debug, info, warn, error, or directives like \"ktui=debug\")"
            ))),
        }
    }
}

/// A path where `""` means "the default" (`None`).
pub fn optional_path<'de, D: Deserializer<'de>>(d: D) -> Result<Option<std::path::PathBuf>, D::Error> {
    let s = String::deserialize(d)?;
    Ok((!s.is_empty()).then(|| s.into()))
}

/// A list of namespace names (`favourites`, `fallback`), each checked by
/// [`crate::kube::key::check_namespace`]: a bad one is a config error naming it.
pub fn namespaces<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    for n in &names {
        crate::kube::key::check_namespace(n).map_err(de::Error::custom)?;
    }
    Ok(names)
}

/// [`namespaces`] for a per-context override (`None` when absent).
pub fn optional_namespaces<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    namespaces(d).map(Some)
}

/// `[watch] streaming_lists`: when a (re)list is a streaming list (a watch with
/// `sendInitialEvents=true`) instead of `limit`/`continue` pages. TOML: `"auto"`, `true` or
/// `false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StreamingMode {
    /// Stream where the informer asks for protobuf (built-in kinds the history does not
    /// record), page where it asks for JSON: on kube-apiserver v1.37.2 a streamed protobuf
    /// list was live at 100k pods in a third of the paged time, a streamed JSON one later
    /// than paged (`benches/real_sync`).
    #[default]
    Auto,
    /// Stream every list the server will stream.
    Always,
    /// Paged lists only.
    Never,
}

impl StreamingMode {
    /// True when any informer may stream.
    pub fn any(self) -> bool {
        self != StreamingMode::Never
    }
}

impl<'de> Deserialize<'de> for StreamingMode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Flag(bool),
            Word(String),
        }
        match Raw::deserialize(d)? {
            Raw::Flag(true) => Ok(StreamingMode::Always),
            Raw::Flag(false) => Ok(StreamingMode::Never),
            Raw::Word(w) if w == "auto" => Ok(StreamingMode::Auto),
            Raw::Word(w) => Err(de::Error::custom(format!(
                "streaming_lists is \"auto\", true or false, not {w:?}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("24h"), Some(Duration::from_secs(86_400)));
        assert_eq!(parse_duration("1h30m"), Some(Duration::from_secs(5400)));
        assert_eq!(parse_duration("7d"), Some(Duration::from_secs(7 * 86_400)));
        for bad in ["", "24", "h", "1x", "0s", "-1h"] {
            assert_eq!(parse_duration(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn streaming_lists_takes_auto_or_a_flag() {
        #[derive(Deserialize)]
        struct W {
            streaming_lists: StreamingMode,
        }
        let parse =
            |v: &str| toml::from_str::<W>(&format!("streaming_lists = {v}")).map(|w| w.streaming_lists);
        assert_eq!(parse("\"auto\"").ok(), Some(StreamingMode::Auto));
        assert_eq!(parse("true").ok(), Some(StreamingMode::Always));
        assert_eq!(parse("false").ok(), Some(StreamingMode::Never));
        let err = parse("\"sometimes\"")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("\"auto\", true or false"), "{err}");
        assert!(!StreamingMode::Never.any() && StreamingMode::Auto.any());
    }
}
