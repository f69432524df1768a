//! Fuzzy matching of names against a [`Query`]: a cheap subsequence prefilter, skim v2
//! scoring (`fuzzy_matcher::skim::SkimMatcherV2`, default config, smart case), an exact
//! fast path for one-character terms, and highlight positions. Owns match semantics; must
//! not sort, draw or do I/O.

use std::sync::OnceLock;

use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;

use super::query::Query;

/// The shared matcher (its scratch buffers are per thread, so sharing is safe).
fn skim() -> &'static SkimMatcherV2 {
    static MATCHER: OnceLock<SkimMatcherV2> = OnceLock::new();
    MATCHER.get_or_init(SkimMatcherV2::default)
}

/// One fuzzy term prepared for scanning.
#[derive(Debug)]
pub(crate) struct Term {
    /// As typed; handed to skim.
    text: String,
    /// Bytes compared by the prefilter: as typed when `sensitive`, else ASCII-lowercased.
    needle: Vec<u8>,
    /// skim's smart case: case-sensitive iff the term has an ASCII uppercase letter.
    sensitive: bool,
}

impl Term {
    /// Prepares `text` (non-empty).
    pub(crate) fn new(text: &str) -> Term {
        let sensitive = text.bytes().any(|b| b.is_ascii_uppercase());
        let needle = if sensitive {
            text.as_bytes().to_vec()
        } else {
            text.to_ascii_lowercase().into_bytes()
        };
        Term {
            text: text.to_string(),
            needle,
            sensitive,
        }
    }

    /// Whether `name` can match: the term's bytes are a subsequence of the name's (compared
    /// as skim compares chars, ASCII case folded unless sensitive). Never rejects a name skim
    /// would accept; for ASCII terms it accepts exactly the names skim accepts.
    pub(crate) fn may_match(&self, name: &str, lower: &str) -> bool {
        let hay = if self.sensitive {
            name.as_bytes()
        } else {
            lower.as_bytes()
        };
        let mut want = self.needle.iter();
        let Some(mut next) = want.next() else { return true };
        for b in hay {
            if b == next {
                match want.next() {
                    Some(n) => next = n,
                    None => return true,
                }
            }
        }
        false
    }

    /// [`super::terms::EXACT_BONUS`] when the term is also a plain substring of the name
    /// (smart case), else 0: exact hits rank above scattered ones.
    pub(crate) fn substring_bonus(&self, name: &str, lower: &str) -> i64 {
        let hay = if self.sensitive { name } else { lower };
        let needle = std::str::from_utf8(&self.needle).unwrap_or("");
        if !needle.is_empty() && hay.contains(needle) {
            super::terms::EXACT_BONUS
        } else {
            0
        }
    }

    /// True for a one-ASCII-char term, whose exact score is cheaper than any prefilter.
    fn is_one_char(&self) -> bool {
        self.text.len() == 1
    }

    /// skim v2's score of `name` (higher is better), `None` when it does not match.
    pub(crate) fn score(&self, name: &str) -> Option<i64> {
        match self.text.as_bytes() {
            [c] => one_char_score(*c, self.sensitive, name.as_bytes()),
            _ => skim().fuzzy_match(name, &self.text),
        }
    }
}

/// skim v2 default scoring constants used by the one-character fast path.
const SCORE_MATCH: i64 = 16;
const GAP_EXTENSION: i64 = -1;
const BONUS_HEAD: i64 = 8;
const BONUS_BREAK: i64 = 7;
const BONUS_CAMEL: i64 = 6;
const FIRST_CHAR_MULTIPLIER: i64 = 2;
const PENALTY_CASE_MISMATCH: i64 = -2;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Empty,
    Upper,
    Lower,
    Number,
    HardSep,
    SoftSep,
}

/// skim's character classes; bytes of non-ASCII chars count as lower-case letters, as skim
/// counts the chars themselves.
fn class(b: u8) -> Class {
    match b {
        0 => Class::Empty,
        b' ' | b'/' | b'\\' | b'|' | b'(' | b')' | b'[' | b']' | b'{' | b'}' => Class::HardSep,
        b'!'..=b'\'' | b'*'..=b'.' | b':'..=b'@' | b'^'..=b'`' | b'~' => Class::SoftSep,
        b'0'..=b'9' => Class::Number,
        b'A'..=b'Z' => Class::Upper,
        _ => Class::Lower,
    }
}

/// Bonus for matching a char of class `cur` after one of class `prev` (start of string =
/// `Empty`): word heads score most, then heads after punctuation, then camelCase humps.
fn position_bonus(prev: Class, cur: Class) -> i64 {
    match (prev, cur) {
        (Class::Empty | Class::HardSep, _) => BONUS_HEAD,
        (Class::SoftSep, _) => BONUS_BREAK,
        (Class::Lower | Class::Number, Class::Upper) => BONUS_CAMEL,
        _ => 0,
    }
}

/// What `SkimMatcherV2::fuzzy_match(name, pattern)` returns for a one-char ASCII `pattern`
/// that matches: with a single char the alignment is just the best position, worth
/// `SCORE_MATCH + GAP_EXTENSION + bonus(position)` (first char's bonus doubled), minus the
/// case-mismatch penalty. Byte-wise is exact: an ASCII byte only equals whole ASCII chars,
/// and a non-ASCII char's last byte has the class skim gives the char. Kept equal to skim by
/// the `one_char_fast_path_equals_skim` test.
fn one_char_score(pattern: u8, sensitive: bool, name: &[u8]) -> Option<i64> {
    let mut best: Option<i64> = None;
    for (j, &b) in name.iter().enumerate() {
        let hit = if sensitive {
            b == pattern
        } else {
            b.eq_ignore_ascii_case(&pattern)
        };
        if !hit {
            continue;
        }
        let prev = if j == 0 { Class::Empty } else { class(name[j - 1]) };
        let mut s = position_bonus(prev, class(b));
        if j == 0 {
            s *= FIRST_CHAR_MULTIPLIER;
        }
        if b != pattern {
            s += PENALTY_CASE_MISMATCH;
        }
        best = Some(best.map_or(s, |x| x.max(s)));
        // Past the first char no position can beat a word head.
        if best.is_some_and(|x| x >= BONUS_HEAD) {
            break;
        }
    }
    best.map(|s| SCORE_MATCH + GAP_EXTENSION + s)
}

/// The compiled name tests of one query: fuzzy terms and inverse substrings.
#[derive(Debug)]
pub(crate) struct NameFilter {
    terms: Vec<Term>,
    inverse: Vec<String>,
    groups: Vec<super::terms::Group>,
}

impl NameFilter {
    /// Compiles `query`'s fuzzy and inverse terms.
    pub(crate) fn new(query: &Query) -> NameFilter {
        NameFilter {
            terms: query.fuzzy_terms().iter().map(|t| Term::new(t)).collect(),
            inverse: query.inverse_terms().to_vec(),
            groups: query
                .groups()
                .iter()
                .map(|g| super::terms::Group::new(g))
                .collect(),
        }
    }

    /// True when there is nothing to test.
    pub(crate) fn is_empty(&self) -> bool {
        self.terms.is_empty() && self.inverse.is_empty() && self.groups.is_empty()
    }

    /// Cheap checks only: every fuzzy term may match and no inverse term occurs. One-char
    /// terms are left to [`NameFilter::score`], which tests them exactly at the same cost.
    pub(crate) fn prefilter(&self, name: &str, lower: &str) -> bool {
        self.terms
            .iter()
            .all(|t| t.is_one_char() || t.may_match(name, lower))
            && !self.inverse.iter().any(|t| lower.contains(t.as_str()))
            && self.groups.iter().all(|g| g.may_hold(name, lower))
    }

    /// Sum of the fuzzy terms' scores (each plus the substring bonus) and the extended
    /// groups' scores (0 without terms); `None` if one does not match.
    /// `lower` is the name ASCII-lowercased.
    pub(crate) fn score(&self, name: &str, lower: &str) -> Option<i64> {
        let fuzzy = self.terms.iter().try_fold(0i64, |acc, t| {
            Some(acc + t.score(name)? + t.substring_bonus(name, lower))
        })?;
        self.groups
            .iter()
            .try_fold(fuzzy, |acc, g| Some(acc + g.score(name, lower)?))
    }
}

/// A compiled filter for text that is not a row (the lines of the `?` help): `query`'s
/// fuzzy, inverse and extended terms tested as on a row name; its selectors are not tested.
#[derive(Debug)]
pub struct TextFilter(NameFilter);

impl TextFilter {
    /// Compiles `query`'s name tests.
    pub fn new(query: &Query) -> TextFilter {
        TextFilter(NameFilter::new(query))
    }

    /// Whether `text` passes every term.
    pub fn keeps(&self, text: &str) -> bool {
        let lower = text.to_ascii_lowercase();
        self.0.prefilter(text, &lower) && self.0.score(text, &lower).is_some()
    }
}

/// Char indices of `name` to highlight for `query`: the union of skim's match positions of
/// every fuzzy term, ascending. Empty when the query has no fuzzy term or none matches.
/// Costs about a microsecond per term: call it for the visible rows only.
pub fn highlight(name: &str, query: &Query) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for term in query.fuzzy_terms() {
        if let Some((_, idx)) = skim().fuzzy_indices(name, term) {
            out.extend(idx);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests;
