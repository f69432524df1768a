//! The label-selector parser (`ktui::view::selector`) and the `:` command line's arguments
//! that embed it (`ktui::app::command_args`).
//!
//! Input: any bytes as UTF-8 text; the first line is also matched against labels built from
//! the second (`k=v,k2=v2`).
//!
//! Properties: a parsed selector's display (canonical syntax) re-parses to the same
//! selector, and its display is a fixed point; `parse_prefix` consumes a char boundary inside
//! the text and what it consumed parses alone to the same selector; matching agrees with a
//! reference evaluation; a command line's `-l` value is itself a valid selector, and the
//! parse is deterministic.
#![no_main]

use std::sync::Arc;

use ktui::app::command_args;
use ktui::view::selector::{Requirement, Selector};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (first, second) = text.split_once('\n').unwrap_or((text, "app=web,tier=db"));
    if let Ok(sel) = Selector::parse(first) {
        let shown = sel.to_string();
        let back = Selector::parse(&shown).unwrap_or_else(|e| panic!("{shown:?} from {first:?}: {e}"));
        assert_eq!(back, sel, "display of {first:?} is {shown:?}");
        assert_eq!(back.to_string(), shown, "display is not a fixed point");
        check_matches(&sel, second);
    }
    if let Ok((sel, used)) = Selector::parse_prefix(first) {
        assert!(
            used <= first.len() && first.is_char_boundary(used),
            "used {used} of {first:?}"
        );
        let alone =
            Selector::parse(&first[..used]).unwrap_or_else(|e| panic!("prefix {:?}: {e}", &first[..used]));
        assert_eq!(alone, sel, "prefix of {first:?}");
    }
    let parsed = command_args::parse(text);
    assert_eq!(
        parsed,
        command_args::parse(text),
        "command_args::parse is deterministic"
    );
    if let Ok(Some((cmd, _, labels))) = parsed {
        assert!(
            !cmd.is_empty() && !cmd.contains(char::is_whitespace),
            "command word {cmd:?}"
        );
        if let Some(l) = labels {
            Selector::parse(&l).unwrap_or_else(|e| panic!("-l {l:?} from {text:?}: {e}"));
        }
    }
});

/// Matches `sel` against the labels `k=v,…` of `pairs` and checks the result against a
/// direct reading of the requirements.
fn check_matches(sel: &Selector, pairs: &str) {
    let mut labels: Vec<(Arc<str>, Arc<str>)> = pairs
        .split(',')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (Arc::from(k), Arc::from(v)))
        .collect();
    labels.sort();
    labels.dedup_by(|a, b| a.0 == b.0);
    let labels: Arc<[(Arc<str>, Arc<str>)]> = labels.into();
    let get = |k: &str| labels.iter().find(|(lk, _)| &**lk == k).map(|(_, v)| &**v);
    let want = sel.requirements.iter().all(|r| match r {
        Requirement::Eq(k, v) => get(k) == Some(v),
        Requirement::NotEq(k, v) => get(k) != Some(v),
        Requirement::In(k, vs) => get(k).is_some_and(|x| vs.iter().any(|v| v == x)),
        Requirement::NotIn(k, vs) => !get(k).is_some_and(|x| vs.iter().any(|v| v == x)),
        Requirement::Exists(k) => get(k).is_some(),
        Requirement::NotExists(k) => get(k).is_none(),
    });
    assert_eq!(sel.matches(&labels), want, "{sel} on {pairs:?}");
}
