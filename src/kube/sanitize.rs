//! Neutralises untrusted strings from the cluster before they can reach a terminal. Owns the
//! escaping rules only; must not truncate for layout (the UI does that).

use std::borrow::Cow;

/// Makes `s` safe to draw on one terminal line.
///
/// - `\n`, `\r\n`, `\f`, `\t` and other line breaks become a single space (lines
///   flattened); a lone `\r` (which would move the cursor back over the line) becomes `\r`,
///   as kubectl prints it;
/// - ESC becomes `^[` (as kubectl prints it) and every other C0/C1 control character or
///   DEL becomes a visible `\u{..}` escape, so escape sequences are shown, never executed;
/// - Unicode bidi overrides, zero-width format characters and space-like characters that
///   look like a plain space (NBSP, the U+2000 spaces, U+3000…) become visible escapes too; a
///   zero-width joiner inside a grapheme cluster (`👩‍👩‍👧`) is kept, as it draws one glyph.
///
/// Returns the input unchanged (borrowed) when nothing needs escaping, which is the common
/// case and costs one scan.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n);
        match c {
            '\r' if next != Some('\n') => out.push_str("\\r"),
            '\u{200d}' if joins(s, at) => out.push(c),
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
        || matches!(
            c,
            '\u{a0}' | '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}' | '\u{1160}' | '\u{1680}' | '\u{180e}'
        )
        || matches!(c, '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}'..='\u{2064}' | '\u{3000}' | '\u{3164}' | '\u{ffa0}')
}

/// Whether the zero-width joiner at byte `at` of `s` joins two pictographs into one cluster
/// (it is neither first nor last of its grapheme cluster, so it draws nothing by itself).
fn joins(s: &str, at: usize) -> bool {
    use unicode_segmentation::UnicodeSegmentation;
    s.grapheme_indices(true)
        .find(|(start, g)| (*start..start + g.len()).contains(&at))
        .is_some_and(|(start, g)| at > start && at + '\u{200d}'.len_utf8() < start + g.len())
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

    #[test]
    fn lone_carriage_returns_are_visible() {
        assert_eq!(sanitize("done 100%\rhidden"), "done 100%\\rhidden");
        assert_eq!(sanitize("a\r"), "a\\r");
    }

    #[test]
    fn space_like_and_invisible_characters_are_visible() {
        assert_eq!(sanitize("web\u{a0}1"), "web\\u{a0}1");
        assert_eq!(sanitize("a\u{200b}b"), "a\\u{200b}b");
        assert_eq!(sanitize("a\u{3000}b\u{2007}"), "a\\u{3000}b\\u{2007}");
        assert_eq!(sanitize("a\u{200d}b"), "a\\u{200d}b");
    }

    #[test]
    fn joined_emoji_stay_one_glyph() {
        let family = "👩\u{200d}👩\u{200d}👧";
        assert_eq!(sanitize(family), family);
        assert_eq!(sanitize(&format!("x {family} y")), format!("x {family} y"));
        assert_eq!(sanitize("数据同步失败"), "数据同步失败");
    }
}
