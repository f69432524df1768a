//! YAML text of a JSON value, laid out as `kubectl get -o yaml` prints it: block style,
//! mapping keys in the value's order, two-space indentation, a sequence under a key with its
//! `- ` items at the key's own indent, multi-line strings as literal blocks (`|`, `|-`, `|+`),
//! `{}` / `[]` for empty collections. Which strings are quoted, and how, is `scalar`'s
//! concern. Must not fold long lines nor use flow style for anything non-empty.

use serde_json::{Map, Value};

use super::scalar::{style, write_double, Style};

/// `v` as one YAML document (no `---` marker), ending in a newline.
pub fn to_yaml(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => mapping(&mut out, m, 0, false),
        Value::Array(a) if !a.is_empty() => sequence(&mut out, a, 0, false),
        other => {
            leaf(&mut out, other, 2);
            out.push('\n');
        }
    }
    out
}

/// The entries of `m`, keys at column `indent`; `inline`: the first key continues a line
/// that already holds a `- `.
fn mapping(out: &mut String, m: &Map<String, Value>, indent: usize, inline: bool) {
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 || !inline {
            pad(out, indent);
        }
        string(out, k, indent + 2, true);
        out.push(':');
        match v {
            Value::Object(m) if !m.is_empty() => {
                out.push('\n');
                mapping(out, m, indent + 2, false);
            }
            Value::Array(a) if !a.is_empty() => {
                out.push('\n');
                sequence(out, a, indent, false);
            }
            other => {
                out.push(' ');
                leaf(out, other, indent + 2);
                out.push('\n');
            }
        }
    }
}

/// The items of `a`, dashes at column `indent`; `inline`: the first dash continues a line
/// that already holds a `- `.
fn sequence(out: &mut String, a: &[Value], indent: usize, inline: bool) {
    for (i, v) in a.iter().enumerate() {
        if i > 0 || !inline {
            pad(out, indent);
        }
        out.push_str("- ");
        match v {
            Value::Object(m) if !m.is_empty() => mapping(out, m, indent + 2, true),
            Value::Array(a) if !a.is_empty() => sequence(out, a, indent + 2, true),
            other => {
                leaf(out, other, indent + 2);
                out.push('\n');
            }
        }
    }
}

/// A scalar or an empty collection; a literal block's lines go at column `body`. The caller
/// ends the line.
fn leaf(out: &mut String, v: &Value, body: usize) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // serde_json prints floats as ryu does (`1.0`, `1e20`), as YAML readers expect.
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => string(out, s, body, false),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

/// A string in the style `scalar::style` picks for it.
fn string(out: &mut String, s: &str, body: usize, key: bool) {
    match style(s, key) {
        Style::Plain => out.push_str(s),
        Style::Single => {
            out.push('\'');
            out.push_str(&s.replace('\'', "''"));
            out.push('\'');
        }
        Style::Double => write_double(out, s),
        Style::Literal => literal(out, s, body),
    }
}

/// `|` with an indentation indicator when the text starts with a space or a line break and
/// a chomping indicator for its trailing line breaks (`-`: none, `+`: more than one), then
/// the lines at column `body` (empty lines stay empty).
fn literal(out: &mut String, s: &str, body: usize) {
    out.push('|');
    if s.starts_with([' ', '\n']) {
        out.push('2');
    }
    if !s.ends_with('\n') {
        out.push('-');
    } else if s == "\n" || s.ends_with("\n\n") {
        out.push('+');
    }
    out.push('\n');
    // The caller's newline ends the last line.
    let text = s.strip_suffix('\n').unwrap_or(s);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if !line.is_empty() {
            pad(out, body);
            out.push_str(line);
        }
    }
}

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}
