//! Neutralises untrusted strings from the cluster before they can reach a terminal. Owns the
//! escaping rules only; must not truncate for layout (the UI does that).

use std::borrow::Cow;

/// Makes `s` safe to draw on one terminal line.
///
/// - `\n`, `\r`, `\f`, `\t` and other line breaks become a single space (lines flattened);
/// - ESC becomes `^[` (as kubectl prints it) and every other C0/C1 control character or
///   DEL becomes a visible `\u{..}` escape, so escape sequences are shown, never executed;
/// - Unicode bidi overrides and zero-width format characters become visible escapes too.
///
/// Returns the input unchanged (borrowed) when nothing needs escaping, which is the common
/// case and costs one scan.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' | '\r' | '\t' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}' => out.push(' '),
            '\u{1b}' => out.push_str("^["),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Sanitizes into an owned boxed string (the form rows store).
pub fn sanitized_box(s: &str) -> Box<str> {
    match sanitize(s) {
        Cow::Borrowed(b) => Box::from(b),
        Cow::Owned(o) => o.into_boxed_str(),
    }
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(sanitize("web-1"), Cow::Borrowed("web-1")));
    }

    #[test]
    fn escape_sequences_become_visible() {
        assert_eq!(sanitize("a\u{1b}[31mred"), "a^[[31mred");
        assert_eq!(sanitize("bell\u{7}"), "bell\\u{7}");
        assert_eq!(sanitize("c1\u{9b}2J"), "c1\\u{9b}2J");
        assert_eq!(sanitize("rtl\u{202e}x"), "rtl\\u{202e}x");
    }

    #[test]
    fn newlines_are_flattened() {
        assert_eq!(sanitize("line1\nline2\r\nx\ty"), "line1 line2  x y");
    }
}
