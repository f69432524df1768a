//! Line-building helpers of the describe view: aligned `Label: value` lines, label maps and
//! lists with continuation lines, selectors, timestamps, resource lists, the generic
//! spec/status rendering and the conditions table. Pure text from JSON; must not know any
//! kind's layout (that is the kind modules) nor sanitize (the caller does, once, at the end).

use serde::Deserialize;
use serde_json::Value;

use ktui_table::format::human_duration;
use ktui_table::labels::{format_labels, LabelSelector};
use ktui_table::meta::parse_rfc3339;

/// Where a block's `Label: value` lines go: the indent and the key column's width (the
/// value starts at `indent + width`, or one space after a longer key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Col {
    /// Spaces before the label.
    pub(super) indent: usize,
    /// Width of `Label:` plus its padding.
    pub(super) width: usize,
}

impl Col {
    /// A column at `indent` with a key `width`.
    pub(super) const fn new(indent: usize, width: usize) -> Self {
        Col { indent, width }
    }
}

/// The top-level column: values start at column 18.
pub(super) const TOP: Col = Col::new(0, 18);

/// The string at `v`, `""` when it is not one.
pub(super) fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// The integer at `v`, 0 when absent (the API omits zero counts).
pub(super) fn count(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

/// `s` with its first letter upper-cased.
pub(super) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A scalar as text: strings bare, null as `<none>`, anything else as JSON.
pub(super) fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "<none>".into(),
        other => other.to_string(),
    }
}

/// A scalar, or `<unset>` when the field is absent (kubectl's nil pointers).
pub(super) fn or_unset(v: &Value) -> String {
    if v.is_null() {
        "<unset>".into()
    } else {
        scalar(v)
    }
}

/// `s`, or `<none>` when empty.
pub(super) fn or_none(s: String) -> String {
    if s.is_empty() {
        "<none>".into()
    } else {
        s
    }
}

/// The items of a JSON array; none when `v` is not one.
pub(super) fn items(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or_default()
}

/// The strings of a JSON array (other items and non-arrays skipped).
pub(super) fn strings(v: &Value) -> Vec<&str> {
    items(v).iter().filter_map(Value::as_str).collect()
}

/// The string field `key` of each item of a JSON array (items without one skipped).
pub(super) fn each<'a>(list: &'a Value, key: &str) -> Vec<&'a str> {
    items(list).iter().filter_map(|i| i[key].as_str()).collect()
}

/// `Label:` padded to the column, or blank padding for a continuation line.
pub(super) fn kv(out: &mut Vec<String>, col: Col, label: &str, value: &str) {
    let key = if label.is_empty() {
        String::new()
    } else {
        format!("{label}:")
    };
    let width = col.width.max(key.len() + 1);
    out.push(format!("{:indent$}{key:<width$}{value}", "", indent = col.indent));
}

/// A top-level `Label: value` line.
pub(super) fn field(out: &mut Vec<String>, label: &str, value: &str) {
    kv(out, TOP, label, value);
}

/// A `Label: value` line for each `(label, key)` of `obj` that is present and not null
/// (kubectl's optional fields).
pub(super) fn set_fields(out: &mut Vec<String>, col: Col, obj: &Value, fields: &[(&str, &str)]) {
    for (label, key) in fields {
        if let Some(v) = obj.get(key).filter(|v| !v.is_null()) {
            kv(out, col, label, &scalar(v));
        }
    }
}

/// A line per item, the first after `Label:`, the rest aligned under it; `<none>` if empty.
pub(super) fn list_lines(out: &mut Vec<String>, col: Col, label: &str, items: &[String]) {
    let col = Col::new(col.indent, col.width.max(label.len() + 2));
    if items.is_empty() {
        kv(out, col, label, "<none>");
    }
    for (i, item) in items.iter().enumerate() {
        kv(out, col, if i == 0 { label } else { "" }, item);
    }
}

/// A string map as `k=v` (labels) or `k: v` lines, minus `skip` keys; the further lines of
/// a multi-line value follow, indented under it.
pub(super) fn map_lines(out: &mut Vec<String>, col: Col, label: &str, map: &Value, skip: &[&str]) {
    // kubectl: labels as `k=v`, annotations and data as `k: v`.
    let sep = if label == "Labels" { "=" } else { ": " };
    let entries: Vec<String> = map
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !skip.contains(&k.as_str()))
        .flat_map(|(k, v)| match v {
            Value::String(s) => {
                let mut lines = s.lines();
                let first = format!("{k}{sep}{}", lines.next().unwrap_or(""));
                std::iter::once(first)
                    .chain(lines.map(|l| format!("  {l}")))
                    .collect::<Vec<_>>()
            }
            other => vec![format!("{k}{sep}{other}")],
        })
        .collect();
    list_lines(out, col, label, &entries);
}

/// A string map on one line as kubectl's `FormatLabels` (`a=1,b=2`), `<none>` when empty.
pub(super) fn inline_labels(map: &Value) -> String {
    let pairs: Vec<(String, String)> = map
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
        .collect();
    or_none(format_labels(&pairs))
}

/// A `metav1.LabelSelector` in selector syntax (`app=web,env in (dev,prod)`), `<none>` when
/// absent or empty, `<invalid>` when it cannot be read.
pub(super) fn selector(v: &Value) -> String {
    if v.is_null() {
        return "<none>".into();
    }
    match LabelSelector::deserialize(v).map(|s| s.to_query()) {
        Ok(Ok(s)) => or_none(s),
        _ => "<invalid>".into(),
    }
}

/// An RFC 3339 timestamp as `5m ago (2026-01-01T00:00:00Z)`; `None` when absent or unparsable.
pub(super) fn when(v: &Value, now: i64) -> Option<String> {
    let s = v.as_str()?;
    let t = parse_rfc3339(s)?;
    Some(format!("{} ago ({s})", human_duration(now - t)))
}

/// A `ResourceList` (capacity, allocatable) under `Label:`, one sorted `name: quantity` line
/// each; nothing when empty.
pub(super) fn resource_lines(out: &mut Vec<String>, label: &str, list: &Value) {
    let Some(map) = list.as_object().filter(|m| !m.is_empty()) else {
        return;
    };
    out.push(format!("{label}:"));
    let mut names: Vec<&String> = map.keys().collect();
    names.sort();
    for name in names {
        kv(out, Col::new(2, 20), name, &scalar(&map[name]));
    }
}

/// Nested objects as indented `key: value` lines; arrays of scalars joined, arrays of objects
/// as `- ` items. `conditions` are skipped (the conditions table shows them).
pub(super) fn generic(out: &mut Vec<String>, v: &Value, depth: usize) {
    let pad = "  ".repeat(depth);
    let Some(map) = v.as_object() else { return };
    for (k, val) in map {
        if k == "conditions" {
            continue;
        }
        match val {
            Value::Object(_) => {
                out.push(format!("{pad}{}:", capitalise(k)));
                generic(out, val, depth + 1);
            }
            Value::Array(items) if items.iter().all(|i| !i.is_object()) => {
                let joined: Vec<String> = items.iter().map(scalar).collect();
                out.push(format!("{pad}{}: {}", capitalise(k), joined.join(", ")));
            }
            Value::Array(items) => {
                out.push(format!("{pad}{}:", capitalise(k)));
                for item in items {
                    out.push(format!("{pad}  -"));
                    generic(out, item, depth + 2);
                }
            }
            other => out.push(format!("{pad}{}: {}", capitalise(k), scalar(other))),
        }
    }
}

/// `status.conditions` as a TYPE / STATUS / REASON / MESSAGE table (first message line only);
/// nothing when there are none.
pub(super) fn conditions(out: &mut Vec<String>, conds: &Value) {
    let conds = items(conds);
    if conds.is_empty() {
        return;
    }
    let cell = |c: &Value, k: &str| match &c[k] {
        Value::Null => String::new(),
        v => scalar(v),
    };
    let mut rows = vec![["TYPE", "STATUS", "REASON", "MESSAGE"].map(String::from).to_vec()];
    rows.extend(conds.iter().map(|c| {
        let message = str_of(&c["message"]).lines().next().unwrap_or("").to_owned();
        vec![cell(c, "type"), cell(c, "status"), cell(c, "reason"), message]
    }));
    out.push("Conditions:".into());
    out.extend(aligned(&rows));
}

/// `rows` as a table indented by two spaces, every column but the last as wide as its widest
/// cell (so a long value never shifts the next column), two spaces apart, as kubectl's
/// tabwriter prints them.
pub(crate) fn aligned(rows: &[Vec<String>]) -> Vec<String> {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns.saturating_sub(1))
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    rows.iter()
        .map(|r| {
            let mut line = String::from(" ");
            for (i, c) in r.iter().enumerate() {
                line.push(' ');
                line.push_str(c);
                if let Some(w) = widths.get(i) {
                    line.extend(std::iter::repeat_n(' ', w - c.chars().count() + 1));
                }
            }
            line.trim_end().to_owned()
        })
        .collect()
}
