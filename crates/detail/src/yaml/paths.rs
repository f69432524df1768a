//! The path of each line of [`super::emit::to_yaml`]'s text: the same walk as the emitter,
//! one path per line it writes (a mapping entry, a scalar list item, and each further line of
//! a literal block), so a caller can annotate lines by field (blame). Must stay in step with
//! `emit` (a test compares line counts).

use serde_json::{Map, Value};

use super::scalar::{style, Style};
use ktui_kube::history::patch::Step;

/// One path per line of `to_yaml(v)`, in order.
pub fn line_paths(v: &Value) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    match v {
        Value::Object(m) if !m.is_empty() => mapping(m, &mut path, &mut out),
        Value::Array(a) if !a.is_empty() => sequence(a, &mut path, &mut out),
        other => leaf(other, &path, &mut out),
    }
    out
}

fn mapping(m: &Map<String, Value>, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    for (k, v) in m {
        path.push(Step::Key(k.clone()));
        match v {
            Value::Object(c) if !c.is_empty() => {
                out.push(path.clone());
                mapping(c, path, out);
            }
            Value::Array(a) if !a.is_empty() => {
                out.push(path.clone());
                sequence(a, path, out);
            }
            other => leaf(other, path, out),
        }
        path.pop();
    }
}

fn sequence(a: &[Value], path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    for (i, v) in a.iter().enumerate() {
        path.push(Step::Index(i));
        match v {
            // The item's first key or item shares the `- ` line.
            Value::Object(m) if !m.is_empty() => mapping(m, path, out),
            Value::Array(a) if !a.is_empty() => sequence(a, path, out),
            other => leaf(other, path, out),
        }
        path.pop();
    }
}

fn leaf(v: &Value, path: &[Step], out: &mut Vec<Vec<Step>>) {
    out.push(path.to_vec());
    if let Value::String(s) = v {
        if style(s, false) == Style::Literal {
            let body = s.strip_suffix('\n').unwrap_or(s);
            for _ in body.split('\n') {
                out.push(path.to_vec());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_path_per_emitted_line() {
        let v = json!({"a": {"b": 1, "c": [{"n": "x", "m": [1, 2]}, "s", [3, [4]]], "e": {}, "f": []},
                       "t": "line1\nline2\n", "u": "x\n\n", "z": null});
        let text = super::super::emit::to_yaml(&v);
        let paths = line_paths(&v);
        assert_eq!(paths.len(), text.lines().count(), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        let at = |want: &[Step]| lines[paths.iter().position(|p| p == want).unwrap()];
        assert_eq!(at(&[Step::Key("a".into()), Step::Key("b".into())]), "  b: 1");
        let m1 = [
            Step::Key("a".into()),
            Step::Key("c".into()),
            Step::Index(0),
            Step::Key("m".into()),
            Step::Index(1),
        ];
        assert_eq!(at(&m1).trim(), "- 2");
    }
}
