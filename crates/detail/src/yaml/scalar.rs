//! How a string is written in YAML so that every reader reads it back as that string: plain
//! when that is safe, else single-quoted, else double-quoted with escapes; multi-line text as
//! a literal block. "Safe" covers both YAML 1.2 readers and the YAML 1.1 readers kubectl and
//! its tools use (go-yaml v2, PyYAML), where `yes`, `on`, `0755`, `1_000`, `12:30`,
//! `2026-01-01` or `<<` are not strings. Pure; owns those decisions only.

/// How one string is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// As is.
    Plain,
    /// `'...'`, quotes doubled.
    Single,
    /// `"..."` with backslash escapes.
    Double,
    /// A `|` block (values only).
    Literal,
}

/// The style for `s`, a mapping key when `key` (keys are never blocks).
pub fn style(s: &str, key: bool) -> Style {
    let special = s
        .chars()
        .any(|c| !printable(c) || matches!(c, '\u{2028}' | '\u{2029}'));
    if s.contains('\n') {
        // A block cannot keep a space before a line break nor a trailing space.
        if key || special || s.contains(" \n") || s.ends_with(' ') {
            Style::Double
        } else {
            Style::Literal
        }
    } else if special {
        Style::Double
    } else if !plain_allowed(s) || resolves_to_non_string(s) {
        Style::Single
    } else {
        Style::Plain
    }
}

/// `s` double-quoted: `"` and `\`, line breaks, the byte-order mark and characters YAML may
/// not print escaped (`\t`, `\e`, `\x7F`, `\u0085`...).
pub fn write_double(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        let escape = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\0' => "\\0",
            '\u{7}' => "\\a",
            '\u{8}' => "\\b",
            '\t' => "\\t",
            '\n' => "\\n",
            '\u{b}' => "\\v",
            '\u{c}' => "\\f",
            '\r' => "\\r",
            '\u{1b}' => "\\e",
            '\u{85}' => "\\N",
            '\u{2028}' => "\\L",
            '\u{2029}' => "\\P",
            c if !printable(c) || c == '\u{feff}' => {
                let n = u32::from(c);
                let hex = match n {
                    0..=0xff => format!("\\x{n:02X}"),
                    0x100..=0xffff => format!("\\u{n:04X}"),
                    _ => format!("\\U{n:08X}"),
                };
                out.push_str(&hex);
                continue;
            }
            c => {
                out.push(c);
                continue;
            }
        };
        out.push_str(escape);
    }
    out.push('"');
}

/// YAML's printable set (the line feed included).
fn printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{10000}'..)
        || matches!(c, '\u{e000}'..='\u{fffd}') && c != '\u{feff}'
}

/// Whether `s` (one line, printable) may stand unquoted in block context: no leading or
/// trailing space, no document marker, no indicator at its start (`- `, `? `, `: `, `#`,
/// `&`, `*`, `!`, `|`, `>`, quotes, `%`, `@`, `` ` ``, flow brackets and `,`), no `: ` and
/// no ` #` inside, no `:` at its end.
fn plain_allowed(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    let blank_after = |i: usize| s[i + 1..].chars().next().is_none_or(|c| c == ' ' || c == '\t');
    let starts = matches!(
        first,
        '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"' | '%' | '@' | '`'
    ) || matches!(first, '?' | ':' | '-') && blank_after(0);
    let inside = s
        .char_indices()
        .any(|(i, c)| c == ':' && blank_after(i) || c == '#' && i > 0 && s[..i].ends_with([' ', '\t']));
    !(starts
        || inside
        || s.starts_with(' ')
        || s.ends_with(' ')
        || s.starts_with("---")
        || s.starts_with("..."))
}

/// Whether a YAML 1.1 or 1.2 reader resolves the plain scalar `s` to something other than a
/// string: empty or `~` (null); null, booleans and the 1.1 `y`/`n`/`yes`/`no`/`on`/`off`, in
/// any case; `<<` (merge) and `=` (value) keys; numbers; timestamps.
pub fn resolves_to_non_string(s: &str) -> bool {
    const WORDS: [&str; 12] = [
        "~", "null", "true", "false", "y", "n", "yes", "no", "on", "off", "<<", "=",
    ];
    s.is_empty() || WORDS.iter().any(|w| w.eq_ignore_ascii_case(s)) || number(s) || timestamp(s)
}

/// Numbers as YAML 1.2 (core schema) or 1.1 reads them: decimal, `0x`/`0o`/`0b` and 1.1
/// `0`-prefixed octal integers, floats with exponents, `_` digit separators (1.1),
/// base-60 `12:30:05` (1.1), `.inf` and `.nan`.
fn number(s: &str) -> bool {
    let t = s.strip_prefix(['-', '+']).unwrap_or(s);
    let digits = |t: &str, radix: u32| !t.is_empty() && t.chars().all(|c| c == '_' || c.is_digit(radix));
    let radix = [("0x", 16), ("0o", 8), ("0b", 2)]
        .iter()
        .any(|(p, r)| t.strip_prefix(p).is_some_and(|d| digits(d, *r)));
    // Rust's float syntax covers YAML's decimal forms; the separators are 1.1's.
    let decimal =
        t.starts_with(|c: char| c.is_ascii_digit() || c == '.') && t.replace('_', "").parse::<f64>().is_ok();
    let sexagesimal = t.contains(':')
        && t.split(':').all(|p| {
            digits(p, 10)
                || p.split_once('.')
                    .is_some_and(|(a, b)| digits(a, 10) && b.chars().all(|c| c.is_ascii_digit()))
        });
    let special = [".inf", ".nan"].iter().any(|w| w.eq_ignore_ascii_case(t));
    radix || decimal || sexagesimal || special
}

/// A YAML 1.1 timestamp's start: `YYYY-M...` (dates, date-times).
fn timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 8
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && s[5..]
            .split(['-', 'T', 't', ' ', ':', '.', 'Z', '+'])
            .next()
            .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '_'))
}
