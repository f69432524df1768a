//! Neutralises untrusted strings from the cluster before they can reach a terminal. Owns the
//! escaping rules only; must not truncate for layout (the UI does that).

use std::borrow::Cow;
use std::sync::Arc;

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
/// case and costs one scan. Idempotent: sanitizing the output changes nothing.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    use unicode_segmentation::UnicodeSegmentation;
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for cluster in s.graphemes(true) {
        push_cluster(cluster, &mut out);
    }
    Cow::Owned(out)
}

/// Appends one grapheme cluster, escaped. A zero-width joiner is kept only where it joins:
/// neither first nor last of its cluster, with nothing before it in the cluster escaped and
/// the character after it drawn as is (so the cluster stays the same one when the output is
/// sanitized again; a joiner next to an escape or another joiner becomes visible).
fn push_cluster(cluster: &str, out: &mut String) {
    let mut chars = cluster.chars().peekable();
    let mut first = true;
    let mut clean = true;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let joins =
            c == '\u{200d}' && !first && clean && next.is_some_and(|n| n != '\u{200d}' && !needs_escape(n));
        match c {
            _ if joins => out.push(c),
            '\r' if next != Some('\n') => out.push_str("\\r"),
            '\n' | '\r' | '\t' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}' => out.push(' '),
            '\u{1b}' => out.push_str("^["),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
        clean &= joins || !needs_escape(c);
        first = false;
    }
}

/// Sanitizes into an owned boxed string (the form rows store).
pub fn sanitized_box(s: &str) -> Box<str> {
    match sanitize(s) {
        Cow::Borrowed(b) => Box::from(b),
        Cow::Owned(o) => o.into_boxed_str(),
    }
}

/// Sanitizes into a shared string (a row's name, which its store key shares).
pub fn sanitized_arc(s: &str) -> Arc<str> {
    Arc::from(&*sanitize(s))
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

    /// Found by `fuzz/fuzz_targets/sanitize.rs`: a joiner followed by another joiner was kept
    /// (inside its cluster) but became the last of its cluster once the second one was
    /// escaped, so sanitizing the output escaped it: not idempotent. Same for a joiner after
    /// an escaped character of its emoji sequence (U+034F).
    #[test]
    fn joiners_next_to_escapes_are_escaped_once_and_for_all() {
        for s in [
            "\u{1f469}\u{200d}\u{fffd}\u{200d}\u{200d}\u{fffd}\u{fffd}\u{1b}w[\u{fffd}\u{fffd}",
            "\u{1f469}\u{34f}\u{fe0f}\u{200d}\u{1f467}",
        ] {
            let once = sanitize(s);
            assert_eq!(sanitize(&once), once, "{s:?}");
            assert!(!once.contains('\u{200d}'), "{once:?}");
        }
        assert_eq!(sanitize("a\u{200d}\u{200d}b"), "a\\u{200d}\\u{200d}b");
    }

    #[test]
    fn joined_emoji_stay_one_glyph() {
        let family = "👩\u{200d}👩\u{200d}👧";
        assert_eq!(sanitize(family), family);
        assert_eq!(sanitize(&format!("x {family} y")), format!("x {family} y"));
        assert_eq!(sanitize("数据同步失败"), "数据同步失败");
    }
}
