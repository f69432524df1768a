//! Tests that the prefilter and the one-character fast path agree with skim exactly.

use super::*;

/// Deterministic pseudo-random names with every character class skim distinguishes.
pub(crate) fn sample_names(n: usize, seed: u64) -> Vec<String> {
    let alphabet = b"abcxyzABCXYZ0159-_./ :([{}])!@~|\\";
    let words = [
        "web",
        "api-gateway",
        "kube-system",
        "team-a",
        "Redis",
        "fooBar",
        "x9Y",
        "caf\u{e9}",
    ];
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..n)
        .map(|_| {
            let mut name = String::new();
            for _ in 0..(next() % 4) {
                name.push_str(words[(next() % words.len() as u64) as usize]);
                let len = next() % 6;
                for _ in 0..len {
                    name.push(alphabet[(next() % alphabet.len() as u64) as usize] as char);
                }
            }
            name
        })
        .collect()
}

#[test]
fn one_char_fast_path_equals_skim() {
    let names = sample_names(3000, 7);
    let mut checked = 0;
    for p in 0x20u8..0x7f {
        let pattern = (p as char).to_string();
        let term = Term::new(&pattern);
        for name in &names {
            let lower = name.to_ascii_lowercase();
            let want = skim().fuzzy_match(name, &pattern);
            assert_eq!(
                term.may_match(name, &lower),
                want.is_some(),
                "{name:?} {pattern:?}"
            );
            assert_eq!(term.score(name), want, "{name:?} {pattern:?}");
            checked += usize::from(want.is_some());
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn prefilter_agrees_with_skim_for_ascii_terms() {
    let names = sample_names(2000, 11);
    for pattern in ["wb", "web", "WEB", "Wb", "k-s", "t/w", "fB", "zz9", "a.b", "x9y"] {
        let term = Term::new(pattern);
        for name in &names {
            let lower = name.to_ascii_lowercase();
            let want = skim().fuzzy_match(name, pattern);
            assert_eq!(
                term.may_match(name, &lower),
                want.is_some(),
                "{name:?} {pattern:?}"
            );
            assert_eq!(term.score(name), want);
        }
    }
}

#[test]
fn non_ascii_terms_never_wrongly_rejected() {
    let term = Term::new("é");
    assert!(term.may_match("café", "café"));
    assert_eq!(term.score("café"), skim().fuzzy_match("café", "é"));
}

#[test]
fn smart_case() {
    let lower = Term::new("web");
    assert!(lower.may_match("team/WebApp", "team/webapp"));
    let upper = Term::new("Web");
    assert!(upper.may_match("team/WebApp", "team/webapp"));
    assert!(!upper.may_match("team/webapp", "team/webapp"));
}

#[test]
fn filter_combines_terms() {
    let q = Query::parse("web api !canary").unwrap();
    let f = NameFilter::new(&q);
    let ok = "prod/web-api-7d9f";
    assert!(f.prefilter(ok, &ok.to_ascii_lowercase()));
    // Both terms are also substrings: each adds the exact bonus.
    let want = skim().fuzzy_match(ok, "web").unwrap()
        + skim().fuzzy_match(ok, "api").unwrap()
        + 2 * super::super::terms::EXACT_BONUS;
    assert_eq!(f.score(ok, &ok.to_ascii_lowercase()), Some(want));
    let bad = "prod/web-api-Canary";
    assert!(!f.prefilter(bad, &bad.to_ascii_lowercase()));
    let empty = NameFilter::new(&Query::parse("-l a=b").unwrap());
    assert!(empty.is_empty());
    assert_eq!(empty.score("x", "x"), Some(0));
}

#[test]
fn highlights_union_of_terms() {
    let q = Query::parse("web 7d !x").unwrap();
    let name = "prod/web-7d9f";
    let h = highlight(name, &q);
    assert!(h.windows(2).all(|w| w[0] < w[1]));
    let chars: String = h.iter().map(|&i| name.chars().nth(i).unwrap()).collect();
    assert_eq!(chars, "web7d");
    assert!(highlight(name, &Query::parse("!web").unwrap()).is_empty());
    // Char indices, not byte indices.
    assert_eq!(highlight("café-x", &Query::parse("x").unwrap()), vec![5]);
}
