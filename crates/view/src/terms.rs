//! fzf's extended search terms on the row name, on top of the fuzzy default: `'exact`
//! substring, `^prefix`, `suffix$`, `^whole$`, `!` before any of them (inverse), `re:regex`,
//! and `a | b` alternatives; smart case like the fuzzy terms. Owns their parsing and
//! matching; must not sort, draw or touch rows.

use regex::Regex;

/// Score of an exact (non-fuzzy) hit; above any skim score of a name, so an exact substring
/// match ranks above a fuzzy one.
pub const EXACT_BONUS: i64 = 1_000_000;

/// What one alternative tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Atom {
    /// `web` inside an `a | b` group: fuzzy, as a plain term.
    Fuzzy(String),
    /// `'web`: substring.
    Exact(String),
    /// `^web`: prefix.
    Prefix(String),
    /// `-0$`: suffix.
    Suffix(String),
    /// `^web-0$`: the whole name.
    Whole(String),
    /// `re:^web-\d+$`: a regex (Rust `regex` syntax), smart case.
    Regex(String),
}

/// One alternative of a group: an atom, maybe inverted (`!^web`: must not start with `web`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alt {
    /// The test.
    pub atom: Atom,
    /// Inverted: the name must not match (never fuzzy; `!web` is an inverse substring).
    pub negated: bool,
}

/// Parses one word as typed (a plain word is [`Atom::Fuzzy`], a plain `!word` an inverted
/// [`Atom::Exact`]). Errors say what is missing (`'`, `^` or `re:` with no text, a bad regex).
pub fn parse_word(word: &str) -> Result<Alt, String> {
    let (negated, body) = match word.strip_prefix('!') {
        Some(b) => (true, b),
        None => (false, word),
    };
    let need = |t: &str| {
        if t.is_empty() {
            Err(format!("incomplete term {word:?}: text expected"))
        } else {
            Ok(t.to_owned())
        }
    };
    let atom = if let Some(re) = body.strip_prefix("re:") {
        let re = need(re)?;
        compile(&re)?;
        Atom::Regex(re)
    } else if let Some(t) = body.strip_prefix('\'') {
        Atom::Exact(need(t)?)
    } else if let Some(t) = body.strip_prefix('^') {
        match t.strip_suffix('$') {
            Some(w) => Atom::Whole(need(w)?),
            None => Atom::Prefix(need(t)?),
        }
    } else if let Some(t) = body.strip_suffix('$').filter(|_| body.len() > 1) {
        Atom::Suffix(t.to_owned())
    } else if negated {
        Atom::Exact(need(body)?)
    } else {
        Atom::Fuzzy(need(body)?)
    };
    Ok(Alt { atom, negated })
}

/// Smart case: case-sensitive iff the text has an ASCII upper-case letter.
fn sensitive(t: &str) -> bool {
    t.bytes().any(|b| b.is_ascii_uppercase())
}

/// The regex of `re:` text, case-insensitive unless it has an upper-case letter.
pub fn compile(re: &str) -> Result<Regex, String> {
    let src = if sensitive(re) {
        re.to_owned()
    } else {
        format!("(?i){re}")
    };
    Regex::new(&src).map_err(|e| {
        let msg = e.to_string();
        let last = msg.lines().last().unwrap_or("invalid").trim().to_owned();
        format!("re:{re}: {last}")
    })
}

/// An alternative ready to test names.
#[derive(Debug)]
pub(crate) enum Test {
    /// Fuzzy: the caller scores it with skim.
    Fuzzy(super::fuzzy::Term),
    /// Substring, prefix, suffix or whole name: `(kind, needle, case-sensitive)`.
    Text(Kind, String, bool),
    /// A compiled regex (`None`: it failed to compile, matches nothing).
    Regex(Option<Regex>),
}

/// Which text comparison a [`Test::Text`] makes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    Contains,
    Prefix,
    Suffix,
    Whole,
}

impl Test {
    /// Compiles `alt`'s atom (the regex was validated when parsed; a failure here matches
    /// nothing).
    pub(crate) fn new(atom: &Atom) -> Test {
        let text = |k: Kind, t: &str| {
            let s = sensitive(t);
            Test::Text(k, if s { t.to_owned() } else { t.to_ascii_lowercase() }, s)
        };
        match atom {
            Atom::Fuzzy(t) => Test::Fuzzy(super::fuzzy::Term::new(t)),
            Atom::Exact(t) => text(Kind::Contains, t),
            Atom::Prefix(t) => text(Kind::Prefix, t),
            Atom::Suffix(t) => text(Kind::Suffix, t),
            Atom::Whole(t) => text(Kind::Whole, t),
            Atom::Regex(r) => Test::Regex(compile(r).ok()),
        }
    }

    /// Whether a non-fuzzy test holds for `name` (`lower` is its ASCII-lowercased copy);
    /// fuzzy tests answer their prefilter.
    /// Whether [`Test::holds`] reads its `lower` argument (a case-insensitive text or a fuzzy
    /// term); when not, a caller may pass the text itself and skip lower-casing it.
    pub(crate) fn reads_lower(&self) -> bool {
        matches!(self, Test::Fuzzy(_) | Test::Text(_, _, false))
    }

    pub(crate) fn holds(&self, name: &str, lower: &str) -> bool {
        match self {
            Test::Fuzzy(t) => t.may_match(name, lower),
            Test::Text(kind, needle, sensitive) => {
                let hay = if *sensitive { name } else { lower };
                match kind {
                    Kind::Contains => hay.contains(needle.as_str()),
                    Kind::Prefix => hay.starts_with(needle.as_str()),
                    Kind::Suffix => hay.ends_with(needle.as_str()),
                    Kind::Whole => hay == needle,
                }
            }
            Test::Regex(re) => re.as_ref().is_some_and(|re| re.is_match(name)),
        }
    }

    /// [`Test::holds`] for a row's display name, which in all-namespaces lists is
    /// `namespace/name`: an anchored test (`^cart`, `cart-1$` as a whole name, `re:^cart`)
    /// also holds on the part after the first `/` (object names hold no `/`), so `^cart`
    /// finds `shop/cart-…` as it finds `cart-…` in one namespace; `^shop/` still anchors on
    /// the namespace.
    pub(crate) fn holds_name(&self, name: &str, lower: &str) -> bool {
        if self.holds(name, lower) {
            return true;
        }
        let anchored = matches!(self, Test::Text(Kind::Prefix | Kind::Whole, ..) | Test::Regex(_));
        match name.find('/') {
            Some(at) if anchored => self.holds(&name[at + 1..], lower.get(at + 1..).unwrap_or("")),
            _ => false,
        }
    }

    /// The score of a hit: skim's for fuzzy (plus [`EXACT_BONUS`] when the term is also a
    /// substring), [`EXACT_BONUS`] for the others; `None` when it does not match.
    pub(crate) fn score(&self, name: &str, lower: &str) -> Option<i64> {
        match self {
            Test::Fuzzy(t) => t.score(name).map(|s| s + t.substring_bonus(name, lower)),
            _ => self.holds_name(name, lower).then_some(EXACT_BONUS),
        }
    }
}

/// A compiled `a | b | …` group: holds when any alternative holds (an inverted one: when
/// the name does not match it).
#[derive(Debug)]
pub(crate) struct Group(Vec<(Test, bool)>);

impl Group {
    pub(crate) fn new(alts: &[Alt]) -> Group {
        Group(alts.iter().map(|a| (Test::new(&a.atom), a.negated)).collect())
    }

    /// Cheap check: some alternative may hold (fuzzy ones by their prefilter).
    pub(crate) fn may_hold(&self, name: &str, lower: &str) -> bool {
        self.0.iter().any(|(t, neg)| t.holds_name(name, lower) != *neg)
    }

    /// The best score of the alternatives that hold (0 for an inverted one), or `None`.
    pub(crate) fn score(&self, name: &str, lower: &str) -> Option<i64> {
        self.0
            .iter()
            .filter_map(|(t, neg)| {
                if *neg {
                    (!t.holds_name(name, lower)).then_some(0)
                } else {
                    t.score(name, lower)
                }
            })
            .max()
    }
}

#[cfg(test)]
mod tests;
