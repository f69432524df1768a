//! Kubernetes label selectors typed by the user (`-l app=web,tier!=db,env in (a,b),!canary`):
//! parsing and matching against a row's [`Labels`]. Owns only selector syntax and semantics;
//! must not draw, do I/O, or know about queries beyond the selector text.

use std::fmt;
use std::sync::Arc;

use ktui_kube::row::Labels;

/// Label pairs sorted by key: the contents of a [`Labels`].
pub type LabelPairs = [(Arc<str>, Arc<str>)];

/// One requirement of a selector. Semantics follow `k8s.io/apimachinery/pkg/labels`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requirement {
    /// `key=value` or `key==value`: the label exists with exactly this value.
    Eq(String, String),
    /// `key!=value`: the label is absent or has another value.
    NotEq(String, String),
    /// `key in (a,b)`: the label exists with one of the values.
    In(String, Vec<String>),
    /// `key notin (a,b)`: the label is absent or has none of the values.
    NotIn(String, Vec<String>),
    /// `key`: the label exists (any value).
    Exists(String),
    /// `!key`: the label is absent.
    NotExists(String),
}

/// A parsed label selector: requirements ANDed together. The empty selector matches all.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selector {
    /// The requirements in the order typed.
    pub requirements: Vec<Requirement>,
}

impl Selector {
    /// Parses a whole selector; anything left over is an error. Errors are one-line messages
    /// for the prompt, e.g. `label selector: expected ')' to close the value list`.
    pub fn parse(text: &str) -> Result<Selector, String> {
        let (sel, used) = Selector::parse_prefix(text)?;
        let rest = text[used..].trim_start();
        if rest.is_empty() {
            Ok(sel)
        } else {
            Err(format!("label selector: unexpected '{rest}'"))
        }
    }

    /// Parses the longest selector at the start of `text` (leading spaces allowed) and
    /// returns it with the number of bytes consumed. Stops before whitespace that is not
    /// followed by `,` or an operator, so the caller can go on with other query terms:
    /// `app=web nginx` consumes `app=web`.
    pub fn parse_prefix(text: &str) -> Result<(Selector, usize), String> {
        let mut p = Parser {
            s: text.as_bytes(),
            pos: 0,
        };
        let mut requirements = vec![p.requirement()?];
        loop {
            let save = p.pos;
            p.skip_ws();
            if p.eat(b",") {
                requirements.push(p.requirement()?);
            } else {
                p.pos = save;
                break;
            }
        }
        Ok((Selector { requirements }, p.pos))
    }

    /// True when every requirement holds for `labels` (sorted by key, as in [`Labels`]).
    pub fn matches(&self, labels: &Labels) -> bool {
        self.matches_pairs(labels)
    }

    /// [`Selector::matches`] over the label pairs themselves (sorted by key).
    pub fn matches_pairs(&self, labels: &LabelPairs) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }
}

impl Requirement {
    /// True when this requirement holds for `labels` (pairs sorted by key).
    pub fn matches(&self, labels: &LabelPairs) -> bool {
        self.holds(|key| {
            labels
                .binary_search_by(|(k, _)| k.as_ref().cmp(key))
                .ok()
                .map(|i| labels[i].1.as_ref())
        })
    }

    /// True when this requirement holds for the labels `get` looks up (key → value); lets
    /// other label stores (the demo server's index) share these semantics.
    pub fn holds<'a>(&self, get: impl Fn(&str) -> Option<&'a str>) -> bool {
        match self {
            Requirement::Eq(k, v) => get(k) == Some(v.as_str()),
            Requirement::NotEq(k, v) => get(k) != Some(v.as_str()),
            Requirement::In(k, vs) => get(k).is_some_and(|x| vs.iter().any(|v| v == x)),
            Requirement::NotIn(k, vs) => get(k).is_none_or(|x| vs.iter().all(|v| v != x)),
            Requirement::Exists(k) => get(k).is_some(),
            Requirement::NotExists(k) => get(k).is_none(),
        }
    }
}

impl fmt::Display for Selector {
    /// Canonical Kubernetes syntax: `app=web,tier!=db,env in (a,b),!canary`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            match r {
                Requirement::Eq(k, v) => write!(f, "{k}={v}")?,
                Requirement::NotEq(k, v) => write!(f, "{k}!={v}")?,
                Requirement::In(k, vs) => write!(f, "{k} in ({})", vs.join(","))?,
                Requirement::NotIn(k, vs) => write!(f, "{k} notin ({})", vs.join(","))?,
                Requirement::Exists(k) => f.write_str(k)?,
                Requirement::NotExists(k) => write!(f, "!{k}")?,
            }
        }
        Ok(())
    }
}

/// A byte cursor over selector text. Keys and values are ASCII by Kubernetes rules, so
/// slicing at token boundaries found here always lands on char boundaries.
struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

/// Characters allowed in a label key (`[prefix/]name`).
fn key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/')
}

/// Characters allowed in a label value.
fn value_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, tok: &[u8]) -> bool {
        if self.s[self.pos..].starts_with(tok) {
            self.pos += tok.len();
            true
        } else {
            false
        }
    }

    fn take(&mut self, ok: fn(u8) -> bool) -> String {
        let start = self.pos;
        while self.peek().is_some_and(ok) {
            self.pos += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.pos]).into_owned()
    }

    fn here(&self) -> String {
        match std::str::from_utf8(&self.s[self.pos..]) {
            Ok("") | Err(_) => "end of input".to_string(),
            Ok(rest) => format!("'{rest}'"),
        }
    }

    fn key(&mut self) -> Result<String, String> {
        let key = self.take(key_byte);
        if key.is_empty() {
            return Err(format!("label selector: expected a label key at {}", self.here()));
        }
        Ok(key)
    }

    /// A word operator (`in`, `notin`) followed by optional spaces and `(` (or the end of
    /// input, so that a half-typed `app in` reports the missing list). `Some(true)` = notin.
    fn set_op(&mut self) -> Option<bool> {
        for (word, negated) in [(&b"notin"[..], true), (&b"in"[..], false)] {
            let save = self.pos;
            if self.eat(word) {
                self.skip_ws();
                if matches!(self.peek(), Some(b'(') | None) {
                    return Some(negated);
                }
            }
            self.pos = save;
        }
        None
    }

    fn requirement(&mut self) -> Result<Requirement, String> {
        self.skip_ws();
        if self.eat(b"!") {
            self.skip_ws();
            return Ok(Requirement::NotExists(self.key()?));
        }
        let key = self.key()?;
        let after_key = self.pos;
        self.skip_ws();
        if self.eat(b"!=") {
            self.skip_ws();
            return Ok(Requirement::NotEq(key, self.take(value_byte)));
        }
        if self.eat(b"==") || self.eat(b"=") {
            self.skip_ws();
            return Ok(Requirement::Eq(key, self.take(value_byte)));
        }
        if self.pos > after_key {
            if let Some(negated) = self.set_op() {
                let values = self.values()?;
                return Ok(if negated {
                    Requirement::NotIn(key, values)
                } else {
                    Requirement::In(key, values)
                });
            }
        }
        self.pos = after_key;
        Ok(Requirement::Exists(key))
    }

    /// `( v1 , v2 ... )` with at least one value.
    fn values(&mut self) -> Result<Vec<String>, String> {
        if !self.eat(b"(") {
            return Err("label selector: expected '(' after in/notin".to_string());
        }
        let mut values = Vec::new();
        loop {
            self.skip_ws();
            let v = self.take(value_byte);
            self.skip_ws();
            if v.is_empty() && self.peek() != Some(b')') {
                return Err(format!("label selector: expected a value at {}", self.here()));
            }
            if !v.is_empty() {
                values.push(v);
            }
            if self.eat(b")") {
                break;
            }
            if !self.eat(b",") {
                return Err("label selector: expected ')' to close the value list".to_string());
            }
        }
        if values.is_empty() {
            return Err("label selector: in/notin needs at least one value".to_string());
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests;
