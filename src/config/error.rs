//! Config errors that name the file, the line and column, and the dotted key, in the
//! compiler style editors jump to: `PATH:LINE:COL: KEY: MESSAGE`. Owns locating a TOML
//! error's span in the source; must not read files.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Why a config file was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line and column of the offending text, when known.
    pub position: Option<(usize, usize)>,
    /// The dotted key (`ui.max_fps`, `keymap.normal.bindings.run`), when known.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    /// One line, sanitized: the key and the message quote the file, which may hold escape
    /// sequences, and `check-config` prints this to the terminal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = self.path.display().to_string();
        if let Some((line, col)) = self.position {
            out.push_str(&format!(":{line}:{col}"));
        }
        if let Some(key) = &self.key {
            out.push_str(&format!(": {key}"));
        }
        out.push_str(&format!(": {}", self.message));
        f.write_str(&crate::kube::sanitize::sanitize(&out))
    }
}

impl std::error::Error for ConfigError {}

impl ConfigError {
    /// An error about the whole file (unreadable, missing).
    pub fn file(path: &Path, message: impl Into<String>) -> ConfigError {
        ConfigError {
            path: path.to_owned(),
            position: None,
            key: None,
            message: message.into(),
        }
    }

    /// An error at `span` of `source` (byte offsets).
    pub fn at(
        path: &Path,
        source: &str,
        span: Option<Range<usize>>,
        message: impl Into<String>,
    ) -> ConfigError {
        let mut e = ConfigError::file(path, message);
        if let Some(span) = span {
            let start = span.start.min(source.len());
            e.position = Some(line_col(source, start));
            e.key = key_at(source, start);
        }
        e
    }

    /// A TOML parse or type error of `source`.
    pub fn from_toml(path: &Path, source: &str, err: &toml::de::Error) -> ConfigError {
        ConfigError::at(path, source, err.span(), err.message().trim_end())
    }
}

/// 1-based line and column (in characters) of byte `offset`.
fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..floor_char(source, offset)];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The dotted key at byte `offset`: the last `[table]` header above it plus the key whose
/// value (or name) is there, e.g. `ui.max_fps` or `keymap.normal.bindings.run`.
fn key_at(source: &str, offset: usize) -> Option<String> {
    let offset = floor_char(source, offset);
    let line_start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[offset..].find('\n').map_or(source.len(), |i| offset + i);
    let line = &source[line_start..line_end];
    let col = offset - line_start;
    if let Some(header) = header_name(line) {
        return Some(header);
    }
    let mut table = source[..line_start].lines().rev().find_map(header_name);
    // A multi-line array (`bindings = [` … `]`) names its key on an earlier line.
    if line.trim_start().starts_with('{') || !line[..col].contains('=') {
        let above = &source[..line_start];
        let open = above
            .lines()
            .rev()
            .take_while(|l| header_name(l).is_none())
            .find(|l| l.trim_end().ends_with('['));
        if let Some(array) = open.and_then(|l| l.split_once('=')).map(|(k, _)| bare(k)) {
            table = Some(join(table, &array));
        }
    }
    // An array of inline tables on one line: `bindings = [{ on = "x" }]`.
    if let Some((array, _)) = line[..col]
        .split_once('=')
        .filter(|(_, r)| r.contains('[') && r.contains('{'))
    {
        table = Some(join(table, &bare(array)));
    }
    let key = match line[..col].rfind('=') {
        Some(eq) => bare(line[..eq].rsplit(['{', ',']).next().unwrap_or("")),
        None => bare(line[col..].split(['=', ',', '}', ' ']).next().unwrap_or("")),
    };
    match (table, key.is_empty()) {
        (Some(t), true) => Some(t),
        (t, false) => Some(join(t, &key)),
        (None, true) => None,
    }
}

fn join(table: Option<String>, key: &str) -> String {
    match table {
        Some(t) => format!("{t}.{key}"),
        None => key.to_owned(),
    }
}

/// `ui` of `[ui]`, `keymap.normal` of `[[keymap.normal]]`.
fn header_name(line: &str) -> Option<String> {
    let t = line.trim();
    let inner = t
        .strip_prefix("[[")
        .and_then(|r| r.split("]]").next())
        .or_else(|| t.strip_prefix('[').and_then(|r| r.split(']').next()))?;
    (!inner.is_empty() && !inner.contains(['=', '{']))
        .then(|| inner.split('.').map(bare).collect::<Vec<_>>().join("."))
}

fn bare(key: &str) -> String {
    key.trim().trim_matches(['"', '\'']).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by `fuzz/fuzz_targets/config.rs`: a quoted key holding ESC was printed raw in
    /// the error (`check-config` writes it to the terminal).
    #[test]
    fn an_error_quoting_an_escape_sequence_is_one_clean_line() {
        let src = "[ui]\nmax_fps = 0\n[keymap.normal]\n\"\\u001b\" = 1\n";
        let e = crate::config::parse(Path::new("c.toml"), src)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:4:1: keymap.normal."), "{e}");
        assert!(e.contains("unknown field `^[`"), "{e}");
        assert!(!e.contains(|c: char| c.is_control()), "{e:?}");
    }

    #[test]
    fn keys_and_positions() {
        let src = "[ui]\nmax_fps = \"x\"\n\n[keymap.normal]\nbindings = [\n  { on = \"j\", run = \"fly\" },\n  { on = \"hyper-k\", run = \"up\" },\n]\n";
        let at = |needle: &str| src.find(needle).unwrap();
        assert_eq!(key_at(src, at("\"x\"")).as_deref(), Some("ui.max_fps"));
        assert_eq!(line_col(src, at("\"x\"")), (2, 11));
        assert_eq!(
            key_at(src, at("\"fly\"")).as_deref(),
            Some("keymap.normal.bindings.run")
        );
        assert_eq!(
            key_at(src, at("\"hyper-k\"")).as_deref(),
            Some("keymap.normal.bindings.on")
        );
        assert_eq!(key_at(src, at("max_fps")).as_deref(), Some("ui.max_fps"));
        let one_line = "[keymap.normal]\nbindings = [{ on = \"j\", run = \"fly\" }]\n";
        let fly = one_line.find("\"fly\"").unwrap();
        assert_eq!(
            key_at(one_line, fly).as_deref(),
            Some("keymap.normal.bindings.run")
        );
        assert_eq!(key_at(src, at("keymap.normal")).as_deref(), Some("keymap.normal"));
    }
}
