//! The arguments of a `:` command line: the command word, then in any order `-l <selector>`
//! (a whole Kubernetes label selector, spaces allowed where its syntax allows them:
//! `-l env notin (prod, staging)`), `-n <namespace>`, `-A`, or one bare word (a namespace,
//! `all`, or a context name after `ctx`). Owns that syntax; must not look anything up.

use crate::view::selector::Selector;

/// `(command, namespace-or-other-word, label selector)`.
pub type Parsed = (String, Option<String>, Option<String>);

/// Parses `line`; `Ok(None)` for an empty line. Errors name the command and what is wrong
/// (`pods: -n needs a value`, `pods: unexpected "x"`, `pods: label selector: expected ')'
/// to close the value list`), so nothing typed is silently dropped.
pub fn parse(line: &str) -> Result<Option<Parsed>, String> {
    let mut rest = line.trim_start();
    let Some(cmd) = next_word(&mut rest) else {
        return Ok(None);
    };
    let (mut arg, mut labels) = (None, None);
    while let Some(w) = next_word(&mut rest) {
        match w {
            "-l" | "--selector" => {
                let text = rest.trim_start();
                if text.is_empty() {
                    return Err(format!("{cmd}: {w} needs a value"));
                }
                let (_, used) = Selector::parse_prefix(text).map_err(|e| format!("{cmd}: {e}"))?;
                labels = Some(text[..used].trim().to_owned());
                rest = &text[used..];
                if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
                    let bad: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
                    return Err(format!("{cmd}: label selector: unexpected {bad:?}"));
                }
            }
            "-n" | "--namespace" => match next_word(&mut rest) {
                Some(v) => arg = Some(v.to_owned()),
                None => return Err(format!("{cmd}: {w} needs a value")),
            },
            "-A" | "--all-namespaces" => arg = Some("-A".to_owned()),
            _ if arg.is_none() => arg = Some(w.to_owned()),
            _ => return Err(format!("{cmd}: unexpected {w:?}")),
        }
    }
    Ok(Some((cmd.to_owned(), arg, labels)))
}

/// The next whitespace-separated word of `rest`, advancing past it.
fn next_word<'a>(rest: &mut &'a str) -> Option<&'a str> {
    let t = rest.trim_start();
    if t.is_empty() {
        return None;
    }
    let end = t.find(char::is_whitespace).unwrap_or(t.len());
    *rest = &t[end..];
    Some(&t[..end])
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn ok(line: &str) -> (String, Option<String>, Option<String>) {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn set_based_selectors_keep_their_spaces() {
        let (cmd, arg, labels) = ok("pods -l env notin (prod) team-a");
        assert_eq!(cmd, "pods");
        assert_eq!(labels.as_deref(), Some("env notin (prod)"));
        assert_eq!(arg.as_deref(), Some("team-a"));
        let (_, arg, labels) = ok("po -A -l tier in (a, b),!canary");
        assert_eq!(labels.as_deref(), Some("tier in (a, b),!canary"));
        assert_eq!(arg.as_deref(), Some("-A"));
        let (_, arg, labels) = ok("deploy -n shop --selector app=web");
        assert_eq!(
            (arg.as_deref(), labels.as_deref()),
            (Some("shop"), Some("app=web"))
        );
        assert_eq!(parse("   ").unwrap(), None);
    }

    #[test]
    fn incomplete_or_extra_words_are_errors_not_dropped() {
        for (line, says) in [
            ("pods -l app in (fro", "pods: label selector"),
            ("pods -l", "-l needs a value"),
            ("pods -n", "-n needs a value"),
            ("pods a b", "unexpected \"b\""),
            ("pods -l app=web)x", "unexpected"),
        ] {
            let e = parse(line).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
    }
}
