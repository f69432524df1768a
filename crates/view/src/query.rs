//! The `/` filter language as typed in the prompt: space-separated terms ANDed together —
//! fuzzy terms (skim v2 on the row name), `!term` inverse substrings and `-l selector` label
//! selectors. Owns parsing and the "does this query only narrow that one" rule; must not
//! draw, do I/O, or touch rows.

use super::selector::Selector;
use super::terms::{parse_word, Alt, Atom};

/// A parsed filter. Build it with [`Query::parse`] whenever the input changes and keep the
/// last `Ok` one: on a parse error the UI shows the message and goes on filtering with the
/// previous valid query.
#[derive(Debug, Clone, Default)]
pub struct Query {
    source: String,
    fuzzy: Vec<String>,
    inverse: Vec<String>,
    selectors: Vec<Selector>,
    /// fzf extended terms and `a | b` groups (see [`super::terms`]); each group must hold.
    groups: Vec<Vec<Alt>>,
}

impl PartialEq for Query {
    /// Structural: `"a  b"` equals `"a b"`.
    fn eq(&self, other: &Self) -> bool {
        self.fuzzy == other.fuzzy
            && self.inverse == other.inverse
            && self.selectors == other.selectors
            && self.groups == other.groups
    }
}

impl Eq for Query {}

impl Query {
    /// Parses the prompt text. Grammar (terms separated by whitespace, all ANDed):
    /// - `word` — fuzzy term, skim v2 smart case (case-sensitive only if it has an uppercase
    ///   ASCII letter), matched against the row name (`namespace/name` in all-namespaces
    ///   views). Several fuzzy terms must all match; their scores add up.
    /// - `!word` — inverse: the name must not contain `word` (plain substring, ASCII case
    ///   insensitive, like k9s). A bare `!` is ignored (half-typed).
    /// - fzf's extended terms ([`super::terms`]): `'exact`, `^prefix`, `suffix$`, `^whole$`,
    ///   `re:regex`, `!` before any of them, and `a | b` (either; binds tighter than the
    ///   AND of spaces). Exact hits score above any fuzzy one. A term with its text missing
    ///   (`'`, `^`, `re:`, a trailing `|`) or a bad regex is an error, not ignored.
    /// - `-l sel` or `-lsel` — a Kubernetes label selector ([`Selector`]) matched against
    ///   `Row::labels`; it may contain spaces where the selector syntax allows them
    ///   (`-l env in (a, b) web`: selector `env in (a,b)`, fuzzy `web`).
    ///
    /// Errors are one-line messages for the prompt (`-l needs a label selector`, ...).
    pub fn parse(text: &str) -> Result<Query, String> {
        let mut q = Query {
            source: text.trim().to_string(),
            ..Query::default()
        };
        let mut rest = text.trim_start();
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("-l") {
                let sel_text = after.trim_start();
                if sel_text.is_empty() {
                    return Err("-l needs a label selector, e.g. -l app=web".to_string());
                }
                let (sel, used) = Selector::parse_prefix(sel_text)?;
                q.selectors.push(sel);
                let tail = &sel_text[used..];
                if !tail.is_empty() && !tail.starts_with(char::is_whitespace) {
                    let bad: String = tail.chars().take_while(|c| !c.is_whitespace()).collect();
                    return Err(format!("label selector: unexpected '{bad}'"));
                }
                rest = tail.trim_start();
                continue;
            }
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = &rest[..end];
            rest = rest[end..].trim_start();
            if word == "!" {
                continue;
            }
            let mut group = vec![parse_word(word)?];
            while let Some(after) = rest
                .strip_prefix('|')
                .filter(|a| a.is_empty() || a.starts_with(char::is_whitespace))
            {
                let after = after.trim_start();
                let end = after.find(char::is_whitespace).unwrap_or(after.len());
                if end == 0 {
                    return Err(format!("incomplete term: `{word} |` needs a term after `|`"));
                }
                group.push(parse_word(&after[..end])?);
                rest = after[end..].trim_start();
            }
            match group.as_slice() {
                [Alt {
                    atom: Atom::Fuzzy(t),
                    negated: false,
                }] => q.fuzzy.push(t.clone()),
                [Alt {
                    atom: Atom::Exact(t),
                    negated: true,
                }] => q.inverse.push(t.to_ascii_lowercase()),
                _ => q.groups.push(group),
            }
        }
        Ok(q)
    }

    /// The extended groups: each is a list of alternatives, one of which must hold.
    pub fn groups(&self) -> &[Vec<Alt>] {
        &self.groups
    }

    /// The trimmed text this query was parsed from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// True when the query filters nothing (empty input, or only a bare `!`).
    pub fn is_empty(&self) -> bool {
        self.fuzzy.is_empty()
            && self.inverse.is_empty()
            && self.selectors.is_empty()
            && self.groups.is_empty()
    }

    /// Fuzzy terms as typed (case kept: smart case depends on it).
    pub fn fuzzy_terms(&self) -> &[String] {
        &self.fuzzy
    }

    /// Inverse terms, ASCII-lowercased, without the `!`.
    pub fn inverse_terms(&self) -> &[String] {
        &self.inverse
    }

    /// Label selectors, each from one `-l`.
    pub fn selectors(&self) -> &[Selector] {
        &self.selectors
    }

    /// True when a fuzzy term is present, i.e. results are ranked by score (see
    /// [`crate::SortBy`] for when ranking applies) and names get highlights.
    pub fn is_fuzzy(&self) -> bool {
        !self.fuzzy.is_empty() || !self.groups.is_empty()
    }

    /// True when every row this query accepts is guaranteed to be accepted by `prev` too, so
    /// `prev`'s matches can be used as candidates instead of all rows. Holds when each of
    /// `prev`'s fuzzy terms is extended in place (`web` → `web3`; a longer pattern can only
    /// match a subset, and adding an uppercase letter only makes matching stricter), and all
    /// its inverse terms and selectors are still present unchanged; new terms may be added.
    pub fn narrows(&self, prev: &Query) -> bool {
        self.fuzzy.len() >= prev.fuzzy.len()
            && prev
                .fuzzy
                .iter()
                .zip(&self.fuzzy)
                .all(|(p, n)| n.starts_with(p.as_str()))
            && prev.inverse.iter().all(|t| self.inverse.contains(t))
            && prev.selectors.iter().all(|s| self.selectors.contains(s))
            && prev.groups.iter().all(|g| self.groups.contains(g))
    }
}

#[cfg(test)]
mod tests;
