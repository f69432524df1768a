//! Line editing in the `:` and `/` prompts, readline-style: the cursor (`←` `→`, `home`/
//! `ctrl-a`, `end`/`ctrl-e`, `alt-b`/`alt-f` by words), deleting before it (`backspace`, the
//! word with `ctrl-w`, the start of the line with `ctrl-u`), and typing or pasting at it (text
//! the sanitizer would escape — bidi overrides, zero-width and space-like characters — is
//! dropped, so the prompt holds only what it shows). Pure edits of the prompt's text; must not
//! run commands or filters (the caller applies the edited text).

use crate::keys::Action;

/// The prompt's text with the cursor: a char index, `None` meaning "at the end".
pub struct Line<'a> {
    /// The text being edited.
    pub text: &'a mut String,
    /// The cursor (see [`crate::app::state::Screens::prompt_cursor`]).
    pub cursor: &'a mut Option<usize>,
}

impl Line<'_> {
    fn len(&self) -> usize {
        self.text.chars().count()
    }

    /// The cursor as a char index, clamped to the text.
    pub fn at(&self) -> usize {
        self.cursor.unwrap_or(usize::MAX).min(self.len())
    }

    fn set(&mut self, at: usize) {
        *self.cursor = if at >= self.len() { None } else { Some(at) };
    }

    fn byte(&self, at: usize) -> usize {
        self.text
            .char_indices()
            .nth(at)
            .map_or(self.text.len(), |(b, _)| b)
    }

    /// Inserts `c` at the cursor, unless the sanitizer would not draw it as itself.
    pub fn insert(&mut self, c: char) {
        let mut buf = [0u8; 4];
        let s = c.encode_utf8(&mut buf);
        if crate::kube::sanitize::sanitize(s) != *s {
            return;
        }
        let at = self.at();
        let b = self.byte(at);
        let end = self.cursor.is_none();
        self.text.insert(b, c);
        if !end {
            self.set(at + 1);
        }
    }

    /// Removes the chars `from..to` (char indices) and puts the cursor at `from`.
    fn remove(&mut self, from: usize, to: usize) {
        let (a, b) = (self.byte(from), self.byte(to));
        self.text.replace_range(a..b, "");
        self.set(from);
    }

    /// Where the word before the cursor starts (spaces skipped first).
    fn word_back(&self) -> usize {
        let chars: Vec<char> = self.text.chars().collect();
        let mut i = self.at();
        while i > 0 && chars[i - 1].is_whitespace() {
            i -= 1;
        }
        while i > 0 && !chars[i - 1].is_whitespace() {
            i -= 1;
        }
        i
    }

    /// Where the word after the cursor ends (spaces skipped first).
    fn word_forward(&self) -> usize {
        let chars: Vec<char> = self.text.chars().collect();
        let mut i = self.at();
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        while i < chars.len() && !chars[i].is_whitespace() {
            i += 1;
        }
        i
    }

    /// Applies an editing action; returns `None` for an action that is not one, else
    /// whether the text changed.
    pub fn apply(&mut self, action: Action) -> Option<bool> {
        let at = self.at();
        match action {
            Action::CursorLeft => self.set(at.saturating_sub(1)),
            Action::CursorRight => self.set(at + 1),
            Action::CursorHome => self.set(0),
            Action::CursorEnd => self.set(usize::MAX),
            Action::WordLeft => {
                let to = self.word_back();
                self.set(to);
            }
            Action::WordRight => {
                let to = self.word_forward();
                self.set(to);
            }
            Action::Backspace => {
                if at == 0 {
                    return Some(false);
                }
                self.remove(at - 1, at);
                return Some(true);
            }
            Action::KillWord => {
                let from = self.word_back();
                self.remove(from, at);
                return Some(from != at);
            }
            Action::KillToStart => {
                self.remove(0, at);
                return Some(at != 0);
            }
            _ => return None,
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(start: &str, actions: &[Action], typed: &str) -> (String, usize) {
        let mut text = start.to_owned();
        let mut cursor = None;
        let mut l = Line {
            text: &mut text,
            cursor: &mut cursor,
        };
        for a in actions {
            l.apply(*a);
        }
        for c in typed.chars() {
            l.insert(c);
        }
        let at = l.at();
        (text, at)
    }

    #[test]
    fn left_then_type_inserts_at_the_cursor() {
        use Action::*;
        assert_eq!(run("cm", &[CursorLeft, CursorLeft], "x"), ("xcm".into(), 1));
        assert_eq!(run("cm", &[CursorLeft], "x"), ("cxm".into(), 2));
        assert_eq!(run("cm", &[CursorLeft, CursorRight], "x"), ("cmx".into(), 3));
        assert_eq!(run("pods", &[CursorHome], "k"), ("kpods".into(), 1));
        assert_eq!(run("pods", &[CursorHome, CursorEnd], "!"), ("pods!".into(), 5));
    }

    #[test]
    fn words_and_kills() {
        use Action::*;
        assert_eq!(run("pods -l app=web", &[KillWord], ""), ("pods -l ".into(), 8));
        assert_eq!(
            run("pods -l app=web", &[WordLeft, WordLeft, KillToStart], ""),
            ("-l app=web".into(), 0)
        );
        assert_eq!(
            run("pods -l app", &[CursorHome, WordRight], "X"),
            ("podsX -l app".into(), 5)
        );
        assert_eq!(run("a  b", &[KillWord, KillWord], ""), ("".into(), 0));
        assert_eq!(
            run("数据 同步", &[CursorLeft, Backspace], ""),
            ("数据 步".into(), 3)
        );
        assert_eq!(run("", &[Backspace, CursorLeft, KillWord], "x"), ("x".into(), 1));
    }

    #[test]
    fn invisible_and_bidi_characters_are_not_typed() {
        assert_eq!(run("", &[], "ab\u{202e}c\u{200b}d\u{a0}"), ("abcd".into(), 4));
        assert_eq!(run("", &[], "数据"), ("数据".into(), 2));
    }
}
