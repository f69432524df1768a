//! A structural index of one JSON text, built in a single pass: every value's byte span, and
//! for objects and arrays their children in order (object members with their key's span).
//! Diffing two revisions walks two tapes, comparing spans, so each text is scanned once
//! however deep the changes are. Owns that index; must not decode values (callers decode the
//! few spans they need).

use std::borrow::Cow;

/// Nesting deeper than this is refused (texts reach here through `serde_json`, whose limit
/// is 128, so this only bounds the recursion).
const MAX_DEPTH: u32 = 256;
const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Node {
    /// The value's bytes: `text[start..end]`.
    start: u32,
    end: u32,
    /// `b'{'`, `b'['`, or `0` for a scalar.
    kind: u8,
    /// For a member of an object: its key's bytes inside the quotes.
    key_start: u32,
    key_end: u32,
    key_escaped: bool,
    /// The next child of the same parent (`NONE` for the last).
    next: u32,
    /// How many children (objects and arrays); the first is the node after this one.
    children: u32,
}

/// The index of one JSON text (see the module docs).
pub struct Tape<'a> {
    text: &'a str,
    nodes: Vec<Node>,
}

/// One value of a [`Tape`].
#[derive(Clone, Copy)]
pub struct Val<'t, 'a> {
    tape: &'t Tape<'a>,
    at: u32,
}

impl<'a> Tape<'a> {
    /// Indexes `text`, one JSON value with optional surrounding whitespace; `None` when it is
    /// not well-formed JSON as far as structure goes (scalars are delimited, not validated:
    /// texts reach here from `serde_json`, which has validated them).
    pub fn parse(text: &'a str) -> Option<Tape<'a>> {
        let mut t = Tape {
            text,
            nodes: Vec::with_capacity(text.len() / 16),
        };
        let end = t.value(skip_ws(text.as_bytes(), 0), 0)?;
        (skip_ws(text.as_bytes(), end) == text.len()).then_some(t)
    }

    /// The top-level value.
    pub fn root(&self) -> Val<'_, 'a> {
        Val { tape: self, at: 0 }
    }

    /// Parses the value at `pos`, appending its nodes; returns the position after it.
    fn value(&mut self, pos: usize, depth: u32) -> Option<usize> {
        let b = self.text.as_bytes();
        let at = self.nodes.len();
        let start = u32::try_from(pos).ok()?;
        self.nodes.push(Node {
            start,
            end: start,
            kind: 0,
            key_start: 0,
            key_end: 0,
            key_escaped: false,
            next: NONE,
            children: 0,
        });
        let end = match *b.get(pos)? {
            open @ (b'{' | b'[') => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                self.nodes[at].kind = open;
                let close = if open == b'{' { b'}' } else { b']' };
                let mut p = skip_ws(b, pos + 1);
                let mut last = NONE;
                if b.get(p) == Some(&close) {
                    p + 1
                } else {
                    loop {
                        let (mut key, mut escaped) = ((0, 0), false);
                        if open == b'{' {
                            if b.get(p) != Some(&b'"') {
                                return None;
                            }
                            let (kend, esc) = string_end(b, p)?;
                            key = (p + 1, kend - 1);
                            escaped = esc;
                            p = skip_ws(b, kend);
                            if b.get(p) != Some(&b':') {
                                return None;
                            }
                            p = skip_ws(b, p + 1);
                        }
                        let child = u32::try_from(self.nodes.len()).ok()?;
                        p = self.value(p, depth + 1)?;
                        let c = &mut self.nodes[child as usize];
                        c.key_start = u32::try_from(key.0).ok()?;
                        c.key_end = u32::try_from(key.1).ok()?;
                        c.key_escaped = escaped;
                        if last != NONE {
                            self.nodes[last as usize].next = child;
                        }
                        last = child;
                        self.nodes[at].children += 1;
                        p = skip_ws(b, p);
                        match b.get(p) {
                            Some(b',') => p = skip_ws(b, p + 1),
                            Some(&c) if c == close => break p + 1,
                            _ => return None,
                        }
                    }
                }
            }
            b'"' => string_end(b, pos)?.0,
            _ => {
                let mut p = pos;
                while p < b.len() && !matches!(b[p], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    p += 1;
                }
                if p == pos {
                    return None;
                }
                p
            }
        };
        self.nodes[at].end = u32::try_from(end).ok()?;
        Some(end)
    }
}

/// The position after the string starting at `pos` (its opening quote), and whether it
/// holds an escape.
fn string_end(b: &[u8], pos: usize) -> Option<(usize, bool)> {
    let mut p = pos + 1;
    let mut escaped = false;
    loop {
        match *b.get(p)? {
            b'"' => return Some((p + 1, escaped)),
            b'\\' => {
                escaped = true;
                p += 2;
            }
            _ => p += 1,
        }
    }
}

fn skip_ws(b: &[u8], mut p: usize) -> usize {
    while p < b.len() && matches!(b[p], b' ' | b'\t' | b'\n' | b'\r') {
        p += 1;
    }
    p
}

impl<'t, 'a> Val<'t, 'a> {
    fn node(&self) -> &'t Node {
        &self.tape.nodes[self.at as usize]
    }

    /// The value's JSON text.
    pub fn text(&self) -> &'a str {
        let n = self.node();
        &self.tape.text[n.start as usize..n.end as usize]
    }

    /// Whether it is an object.
    pub fn is_object(&self) -> bool {
        self.node().kind == b'{'
    }

    /// Whether it is an array.
    pub fn is_array(&self) -> bool {
        self.node().kind == b'['
    }

    /// Its children in text order (items of an array, member values of an object).
    pub fn children(&self) -> impl Iterator<Item = Val<'t, 'a>> + 't {
        let tape = self.tape;
        let first = if self.node().children > 0 {
            self.at + 1
        } else {
            NONE
        };
        std::iter::successors((first != NONE).then_some(first), move |&i| {
            let next = tape.nodes[i as usize].next;
            (next != NONE).then_some(next)
        })
        .map(move |at| Val { tape, at })
    }

    /// How many children it has.
    pub fn len(&self) -> usize {
        self.node().children as usize
    }

    /// Whether it has no children.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The key this value has in its object (unescaped); `""` for others.
    pub fn key(&self) -> Cow<'a, str> {
        let n = self.node();
        let raw = &self.tape.text[n.key_start as usize..n.key_end as usize];
        if !n.key_escaped {
            return Cow::Borrowed(raw);
        }
        let quoted = &self.tape.text[n.key_start as usize - 1..n.key_end as usize + 1];
        Cow::Owned(serde_json::from_str(quoted).unwrap_or_default())
    }

    /// The key's text as written between its quotes, and whether it holds escapes.
    pub fn key_text(&self) -> (&'a str, bool) {
        let n = self.node();
        (
            &self.tape.text[n.key_start as usize..n.key_end as usize],
            n.key_escaped,
        )
    }

    /// The member `key` of an object (the last, as a decoder keeps it).
    pub fn get(&self, key: &str) -> Option<Val<'t, 'a>> {
        if !self.is_object() {
            return None;
        }
        self.children().filter(|c| c.key() == key).last()
    }

    /// Item `i` of an array.
    pub fn index(&self, i: usize) -> Option<Val<'t, 'a>> {
        if !self.is_array() {
            return None;
        }
        self.children().nth(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_keys_and_children() {
        let text = r#" {"a": [1, {"b\"c": "x\"y"}, []], "d": {}, "e": -1.5e3, "a": null} "#;
        let t = Tape::parse(text).unwrap();
        let root = t.root();
        assert!(root.is_object());
        assert_eq!(root.len(), 4);
        let keys: Vec<_> = root.children().map(|c| c.key().into_owned()).collect();
        assert_eq!(keys, ["a", "d", "e", "a"]);
        assert_eq!(root.get("a").unwrap().text(), "null", "the last duplicate");
        let a = root.children().next().unwrap();
        assert_eq!(a.text(), r#"[1, {"b\"c": "x\"y"}, []]"#);
        let inner = a.index(1).unwrap();
        assert_eq!(inner.get("b\"c").unwrap().text(), r#""x\"y""#);
        assert!(a.index(2).unwrap().is_array() && a.index(2).unwrap().is_empty());
        assert_eq!(root.get("e").unwrap().text(), "-1.5e3");
        assert!(a.index(3).is_none() && root.index(0).is_none());
        for bad in ["", "{", r#"{"a" 1}"#, "[1,]", "[1 2]", r#"{"a":1}x"#, r#""open"#] {
            assert!(Tape::parse(bad).is_none(), "{bad:?}");
        }
        let deep = "[".repeat(300) + &"]".repeat(300);
        assert!(Tape::parse(&deep).is_none());
    }
}
