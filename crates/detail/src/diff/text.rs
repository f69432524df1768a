//! Changes as people read them: a path (`spec.template.spec.containers[web].image`), a
//! one-line summary of a revision (`spec.replicas 3→5, image web:1.4→web:1.5, +label
//! tier=db`) and the lines of a diff view (`~`, `+`, `-`, multi-line strings line by line).
//! Output is sanitized. Pure; must not decide what is a change (that is `diff`).

use serde_json::Value;

use super::{scalar_text, Change, Seg};
use crate::yaml::to_yaml_text;
use ktui_kube::sanitize::sanitize;

/// Longest value shown inline in a summary before it is cut with `…`.
const INLINE: usize = 32;
/// Changes named in a summary before `(+N more)`.
const SUMMARY_ITEMS: usize = 4;

/// `spec.template.spec.containers[web].image`; keys with dots or spaces in brackets
/// (`metadata.labels["app.kubernetes.io/name"]`).
pub fn path_text(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) if k.contains(['.', ' ', '[', ']', '"']) || k.is_empty() => {
                out.push_str(&format!("[{k:?}]"));
            }
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Item { value, .. } => out.push_str(&format!("[{value}]")),
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

fn cut(s: &str, max: usize) -> String {
    let one_line = s.replace('\n', "⏎");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut t: String = one_line.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

fn inline(v: &Value) -> String {
    match v {
        Value::String(s) => cut(s, INLINE),
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Array(a) if a.is_empty() => "[]".into(),
        Value::Object(_) | Value::Array(_) => cut(&v.to_string(), INLINE),
        other => other.to_string(),
    }
}

/// `metadata.labels` / `metadata.annotations` key of a change, with which of the two.
fn meta_map(path: &[Seg]) -> Option<(&'static str, &str)> {
    match path {
        [Seg::Key(m), Seg::Key(which), Seg::Key(k)] if m == "metadata" => match which.as_str() {
            "labels" => Some(("label", k)),
            "annotations" => Some(("annotation", k)),
            _ => None,
        },
        _ => None,
    }
}

/// One change in a few words: `spec.replicas 3→5`, `image web:1.4→web:1.5`,
/// `+label tier=db`, `-annotation note`, `+spec.template.spec.containers[sidecar]`.
pub fn short(c: &Change) -> String {
    if let Some((what, key)) = meta_map(&c.path) {
        return match (&c.old, &c.new) {
            (None, Some(v)) if what == "label" => format!("+label {key}={}", inline(v)),
            (None, Some(_)) => format!("+{what} {key}"),
            (Some(_), None) => format!("-{what} {key}"),
            (Some(o), Some(n)) if what == "label" => format!("label {key} {}→{}", inline(o), inline(n)),
            _ => format!("{what} {key} changed"),
        };
    }
    let is_image = matches!(c.path.last(), Some(Seg::Key(k)) if k == "image")
        && c.path
            .iter()
            .any(|s| matches!(s, Seg::Key(k) if k.ends_with("ontainers")));
    let path = if is_image {
        "image".to_owned()
    } else {
        path_text(&c.path)
    };
    match (&c.old, &c.new) {
        (Some(o), Some(n)) => format!("{path} {}→{}", inline(o), inline(n)),
        (None, Some(n)) if !n.is_object() && !n.is_array() => format!("+{path}={}", inline(n)),
        (None, Some(_)) => format!("+{path}"),
        (Some(_), None) => format!("-{path}"),
        (None, None) => path,
    }
}

/// A revision's summary: its first changes in a few words each (spec and data first, then
/// metadata, then status; `metadata.generation` left out), then `(+N more)`; noise
/// left out unless `noise` (a revision of noise only reads `heartbeat only`); `no change`
/// when there is nothing at all.
pub fn summary(changes: &[Change], noise: bool) -> String {
    // `metadata.generation` has its own column in the history view.
    let generation = |c: &Change| matches!(c.path.as_slice(), [Seg::Key(m), Seg::Key(g)] if m == "metadata" && g == "generation");
    let mut shown: Vec<&Change> = changes
        .iter()
        .filter(|c| (noise || !c.is_noise()) && !generation(c))
        .collect();
    // What was asked for reads first: spec (and data), then metadata, then status.
    shown.sort_by_key(|c| match c.path.first() {
        Some(Seg::Key(k)) if k == "metadata" => 1,
        Some(Seg::Key(k)) if k == "status" => 2,
        _ => 0,
    });
    if shown.is_empty() {
        return if changes.is_empty() {
            "no change".into()
        } else {
            "heartbeat only".into()
        };
    }
    let mut out: Vec<String> = shown.iter().take(SUMMARY_ITEMS).map(|c| short(c)).collect();
    if shown.len() > SUMMARY_ITEMS {
        out.push(format!("(+{} more)", shown.len() - SUMMARY_ITEMS));
    }
    sanitize(&out.join(", ")).into_owned()
}

/// The lines of a diff view: `~ path: old → new` for a changed scalar, `+ path:` / `- path:`
/// with the value's YAML indented below for added and removed values, and multi-line
/// strings compared line by line. Sanitized; noise left out unless `noise`.
pub fn lines(changes: &[Change], noise: bool) -> Vec<String> {
    let mut out = Vec::new();
    for c in changes.iter().filter(|c| noise || !c.is_noise()) {
        let path = path_text(&c.path);
        match (&c.old, &c.new) {
            (Some(Value::String(o)), Some(Value::String(n))) if o.contains('\n') || n.contains('\n') => {
                out.push(format!("~ {path}:"));
                text_lines(o, n, &mut out);
            }
            (Some(o), Some(n)) if is_scalar(o) && is_scalar(n) => {
                out.push(format!("~ {path}: {} → {}", scalar_text(o), scalar_text(n)));
            }
            (Some(o), Some(n)) => {
                out.push(format!("~ {path}:"));
                block(&mut out, '-', o);
                block(&mut out, '+', n);
            }
            (None, Some(n)) => value_lines(&mut out, '+', &path, n),
            (Some(o), None) => value_lines(&mut out, '-', &path, o),
            (None, None) => {}
        }
    }
    out.into_iter().map(|l| sanitize(&l).into_owned()).collect()
}

fn is_scalar(v: &Value) -> bool {
    !v.is_object() && !v.is_array() && !v.as_str().is_some_and(|s| s.contains('\n'))
}

fn value_lines(out: &mut Vec<String>, sign: char, path: &str, v: &Value) {
    if is_scalar(v) {
        out.push(format!("{sign} {path}: {}", scalar_text(v)));
    } else {
        out.push(format!("{sign} {path}:"));
        block(out, sign, v);
    }
}

fn block(out: &mut Vec<String>, sign: char, v: &Value) {
    for l in to_yaml_text(v).lines() {
        out.push(format!("{sign}     {l}"));
    }
}

/// Line-by-line difference of two texts (longest common subsequence; texts over 2,000
/// lines are shown whole, old then new).
fn text_lines(old: &str, new: &str, out: &mut Vec<String>) {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    if a.len() > 2_000 || b.len() > 2_000 {
        out.extend(a.iter().map(|l| format!("-     {l}")));
        out.extend(b.iter().map(|l| format!("+     {l}")));
        return;
    }
    // lcs[i][j]: length of the LCS of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push(format!("      {}", a[i]));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push(format!("+     {}", b[j]));
            j += 1;
        } else {
            out.push(format!("-     {}", a[i]));
            i += 1;
        }
    }
}
