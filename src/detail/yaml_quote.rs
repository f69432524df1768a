//! Makes serde_yaml's output safe for YAML 1.1 readers (kubectl, go-yaml v2, PyYAML):
//! serde_yaml writes YAML 1.2, where `yes`, `on`, `no`, `2026-01-01` or `<<` are plain
//! strings, but a 1.1 reader takes them for booleans, timestamps or merge keys. Such plain
//! scalars — keys and values, outside block scalars — are single-quoted. Owns that rewrite;
//! must not change what the document means to a YAML 1.2 reader.

/// `text` (serde_yaml output) with every YAML-1.1-ambiguous plain scalar single-quoted.
pub fn quote_yaml11(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    // Indentation of the line that opened a block scalar (`key: |-`): deeper lines are its
    // content and stay as they are.
    let mut block: Option<usize> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(b) = block {
            if line.trim().is_empty() || indent > b {
                out.push_str(line);
                out.push('\n');
                continue;
            }
            block = None;
        }
        let fixed = fix_line(line, indent);
        if opens_block(&fixed) {
            block = Some(indent);
        }
        out.push_str(&fixed);
        out.push('\n');
    }
    out
}

/// Whether a line ends with a block scalar header (`|`, `|-`, `>+`, `|2-`...).
fn opens_block(line: &str) -> bool {
    let header = line.trim_end().rsplit(' ').next().unwrap_or("");
    let mut chars = header.chars();
    matches!(chars.next(), Some('|' | '>')) && chars.all(|c| matches!(c, '-' | '+') || c.is_ascii_digit())
}

/// One line: sequence dashes, then `key: value`, `key:` or a lone value.
fn fix_line(line: &str, indent: usize) -> String {
    let mut rest = &line[indent..];
    let mut out = String::from(&line[..indent]);
    while let Some(r) = rest.strip_prefix("- ") {
        out.push_str("- ");
        rest = r;
    }
    if rest == "-" || rest.starts_with(['\'', '"']) {
        out.push_str(rest);
        return out;
    }
    let (key, value) = match rest.split_once(": ") {
        Some((k, v)) => (Some(k), Some(v)),
        None => match rest.strip_suffix(':') {
            Some(k) => (Some(k), None),
            None => (None, Some(rest)),
        },
    };
    if let Some(k) = key {
        out.push_str(&quoted_if_ambiguous(k));
        out.push(':');
        if value.is_some() {
            out.push(' ');
        }
    }
    if let Some(v) = value {
        out.push_str(&quoted_if_ambiguous(v));
    }
    out
}

fn quoted_if_ambiguous(scalar: &str) -> String {
    if ambiguous_in_yaml11(scalar) {
        format!("'{}'", scalar.replace('\'', "''"))
    } else {
        scalar.to_owned()
    }
}

/// Plain scalars a YAML 1.1 reader resolves to something other than a string, and that a
/// YAML 1.2 writer leaves plain: 1.1 booleans, merge and value keys, timestamps, base-60
/// and underscore-separated numbers, `0`-prefixed octals.
fn ambiguous_in_yaml11(s: &str) -> bool {
    const WORDS: [&str; 18] = [
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
        "<<", "=",
    ];
    if WORDS.contains(&s) {
        return true;
    }
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    let numeric = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '_');
    let date = s.len() >= 8
        && s.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && s.as_bytes()[4] == b'-'
        && s[5..]
            .split(['-', 'T', 't', ' ', ':', '.', 'Z', '+'])
            .next()
            .is_some_and(numeric);
    let sexagesimal = digits.contains(':')
        && digits.split(':').all(|p| {
            numeric(p)
                || p.split_once('.')
                    .is_some_and(|(a, b)| numeric(a) && b.chars().all(|c| c.is_ascii_digit()))
        });
    let underscored = digits.contains('_') && digits.starts_with(|c: char| c.is_ascii_digit()) && {
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        numeric(int) && frac.chars().all(|c| c.is_ascii_digit() || c == '_')
    };
    date || sexagesimal || underscored
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn yaml11_booleans_dates_and_merge_keys_are_quoted_and_content_survives() {
        let v = json!({"metadata": {"annotations": {"a": "yes", "on": "off", "t": "2026-01-01",
            "m": "<<", "d": "1_000", "s": "12:30", "ok": "hello", "n": "3", "b": "true",
            "multi": "line one\nno\nline three", "q": "it's"},
            "labels": {"x": "N"}},
            "spec": {"replicas": 3, "paused": false, "list": ["Y", "plain", "off"], "nested": [["no"]]}});
        let raw = serde_yaml::to_string(&v).unwrap();
        let text = quote_yaml11(&raw);
        for want in [
            "a: 'yes'",
            "'on': 'off'",
            "t: '2026-01-01'",
            "m: '<<'",
            "d: '1_000'",
            "s: '12:30'",
            "ok: hello",
            "x: 'N'",
            "- 'Y'",
            "- plain",
            "- 'off'",
            "- - 'no'",
            "replicas: 3",
            "paused: false",
        ] {
            assert!(text.contains(want), "{want}\n{text}");
        }
        // The block scalar's lines are content, not keys.
        assert!(text.contains("\n      no\n"), "{text}");
        let back: serde_json::Value = serde_yaml::from_str(&text).unwrap();
        assert_eq!(back, v, "{text}");
    }

    #[test]
    fn ordinary_scalars_stay_plain() {
        for s in [
            "web",
            "10.0.0.1",
            "nginx:1.27",
            "2026",
            "v1",
            "a-b_c",
            "1.5",
            "e2e-yaml",
            "12:ab",
        ] {
            assert!(!ambiguous_in_yaml11(s), "{s}");
        }
    }
}
