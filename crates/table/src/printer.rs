//! kubectl's text for one CRD printer column: the cell the API server's tableconvertor
//! (k8s.io/apiextensions-apiserver) builds from the column's first JSONPath result, as
//! `kubectl get` then prints it, plus the column header. Pure: must not evaluate paths (see
//! `table::jsonpath`) nor read the clock (`date` cells become [`Cell::Age`]).

use serde_json::Value;

use crate::meta::{first_line, parse_rfc3339};
use ktui_kube::row::{Cell, UnixSecs};
use ktui_kube::sanitize::sanitized_box;

/// What kubectl prints for a nil cell: nothing.
const BLANK: Cell = Cell::Static("");

/// `0001-01-01T00:00:00Z`, Go's zero `time.Time`, which kubectl prints as `<unknown>`.
const GO_ZERO_TIME: UnixSecs = -62_135_596_800;

/// kubectl's header for a column named `name`: upper-cased character by character like Go's
/// `strings.ToUpper` (`Ready` → `READY`, `Last Seen` → `LAST SEEN`; `ß` stays `ß`).
pub fn header(name: &str) -> String {
    name.chars().map(go_upper).collect()
}

/// The cell kubectl shows for a printer column of `column_type` (`integer`, `number`,
/// `boolean`, `string` or `date`) whose JSONPath first selected `value` (`None`: nothing).
///
/// - nothing selected, a JSON `null` (except in `string` columns), a value of the wrong JSON
///   type or an unknown `column_type`: blank (the server sends a nil cell, kubectl prints
///   nothing; never `<none>`);
/// - `integer`: [`Cell::Int`]; floats truncate toward zero (saturating at the `i64` range);
/// - `number`: [`Cell::Int`] when the value is integral and fits `i64`, else Go's `%v` text
///   (`1.5`, `1.2345675e+06`, `1e-05`, `1e+21`);
/// - `boolean`: `true` / `false`;
/// - `string`: strings as they are (cut at the first line break with `...` appended, then
///   sanitized); integers in decimal, other numbers as Go's `%v`, booleans as `true`/`false`,
///   arrays and objects as compact Go JSON (keys sorted, `<>&` escaped), `null` as `<no value>`;
/// - `date`: an RFC 3339 string → [`Cell::Age`] of its unix seconds (fraction truncated; a
///   future instant later draws as `<invalid>`, like kubectl); `""`, `"null"` or Go's zero
///   time → `Cell::Age(None)` (`<unknown>`); anything Go's `time.Parse(time.RFC3339, ..)`
///   rejects → `<invalid>`.
pub fn printer_cell(value: Option<&Value>, column_type: &str) -> Cell {
    let Some(v) = value else { return BLANK };
    match (column_type, v) {
        ("string", v) => string_cell(v),
        ("integer", Value::Number(n)) => Cell::Int(n.as_i64().unwrap_or_else(|| as_f64(n) as i64)),
        ("number", Value::Number(n)) => number_cell(as_f64(n)),
        ("boolean", Value::Bool(b)) => bool_cell(*b),
        ("date", Value::String(s)) => date_cell(s),
        _ => BLANK,
    }
}

/// The number as an `f64` (how the API server holds any JSON number that is not an `i64`).
fn as_f64(n: &serde_json::Number) -> f64 {
    n.as_f64().unwrap_or(0.0)
}

fn bool_cell(b: bool) -> Cell {
    Cell::Static(if b { "true" } else { "false" })
}

/// The server's `float64` crosses the wire as Go JSON; kubectl reads an integral literal back
/// as an `int64` (printed in decimal) and anything else as a `float64` (printed with `%v`).
fn number_cell(f: f64) -> Cell {
    if f.fract() == 0.0 && f.abs() < 1e21 {
        let mut json = String::new();
        go_json_float(f, &mut json);
        if let Ok(i) = json.parse::<i64>() {
            return Cell::Int(i);
        }
    }
    Cell::Text(go_float(f).into())
}

/// client-go jsonpath's `PrintResults` of one value, as the tableconvertor's string branch.
fn string_cell(v: &Value) -> Cell {
    match v {
        Value::Null => Cell::Static("<no value>"),
        Value::Bool(b) => bool_cell(*b),
        Value::Number(n) => n
            .as_i64()
            .map_or_else(|| Cell::Text(go_float(as_f64(n)).into()), Cell::Int),
        Value::String(s) if s.is_empty() => BLANK,
        Value::String(s) => Cell::Text(sanitized_box(&first_line(s))),
        Value::Array(_) | Value::Object(_) => {
            let mut out = String::new();
            go_json(v, &mut out);
            Cell::Text(sanitized_box(&out))
        }
    }
}

fn date_cell(s: &str) -> Cell {
    if s.is_empty() || s == "null" {
        return Cell::Age(None);
    }
    match go_rfc3339(s) {
        Some((t, zero)) => Cell::Age((!zero).then_some(t)),
        None => Cell::Static("<invalid>"),
    }
}

/// Go's `time.Parse(time.RFC3339, s)`: `YYYY-MM-DDTHH:MM:SS`, a one-digit hour, an optional
/// `.` or `,` fraction, then `Z` or `±hh:mm` (any two digits each). Returns unix seconds
/// (fraction truncated) and whether the instant is Go's zero time.
fn go_rfc3339(s: &str) -> Option<(UnixSecs, bool)> {
    let b = s.as_bytes();
    let two = |d: &[u8]| -> Option<i64> {
        match d {
            [x @ b'0'..=b'9', y @ b'0'..=b'9'] => Some(i64::from(x - b'0') * 10 + i64::from(y - b'0')),
            _ => None,
        }
    };
    let hour_len = if b.get(12) == Some(&b':') { 1 } else { 2 };
    let rest = b.get(11 + hour_len..)?;
    let hour = if hour_len == 1 {
        two(&[b'0', b[11]])
    } else {
        two(&b[11..13])
    }?;
    let (min, sec) = (two(rest.get(1..3)?)?, two(rest.get(4..6)?)?);
    if b[10] != b'T' || rest[0] != b':' || rest[3] != b':' || hour > 23 || min > 59 || sec > 59 {
        return None;
    }
    let mut zone = &rest[6..];
    let mut fraction_is_zero = true;
    if let [b'.' | b',', b'0'..=b'9', ..] = zone {
        let n = 1 + zone[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        fraction_is_zero = zone[1..n].iter().all(|&c| c == b'0');
        zone = &zone[n..];
    }
    let offset = match zone {
        [b'Z'] => 0,
        [sign @ (b'+' | b'-'), h @ .., b':', _, _] if h.len() == 2 => {
            let secs = (two(h)? * 60 + two(&zone[4..])?) * 60;
            if *sign == b'-' {
                -secs
            } else {
                secs
            }
        }
        _ => return None,
    };
    // The date and the calendar arithmetic are parse_rfc3339's, on a canonical UTC form.
    let canonical = format!("{}T{hour:02}:{min:02}:{sec:02}Z", s.get(..10)?);
    let t = parse_rfc3339(&canonical)? - offset;
    Some((t, t == GO_ZERO_TIME && fraction_is_zero))
}

/// Go's `fmt.Print` of a `float64` (`%v`): shortest round-trip digits, in `%e` form when
/// the decimal exponent is below -4 or at least 6 (`1e+06`, `1.5e-05`), else plain.
fn go_float(f: f64) -> String {
    let (neg, digits, exp) = shortest_digits(f);
    let mut out = String::from(if neg { "-" } else { "" });
    if (-4..6).contains(&exp) {
        push_plain(&mut out, &digits, exp);
    } else {
        push_exp(&mut out, &digits, exp);
    }
    out
}

/// Go's `json.Marshal` of a `float64`: plain from 1e-6 to 1e21 (and for zero), else
/// `1e+21` / `1e-7` (exponent without padding zeros when negative).
fn go_json_float(f: f64, out: &mut String) {
    let (neg, digits, exp) = shortest_digits(f);
    if neg {
        out.push('-');
    }
    let abs = f.abs();
    if abs == 0.0 || (1e-6..1e21).contains(&abs) {
        push_plain(out, &digits, exp);
        return;
    }
    let start = out.len();
    push_exp(out, &digits, exp);
    if let Some(i) = out[start..].find("e-0").map(|i| start + i) {
        out.remove(i + 2);
    }
}

/// `digits` × 10^(`exp` + 1 − len) without an exponent: `1234.5`, `0.001`, `1500`.
fn push_plain(out: &mut String, digits: &str, exp: i32) {
    let int_len = usize::try_from(exp + 1).unwrap_or(0);
    if int_len == 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', exp.unsigned_abs() as usize - 1));
        out.push_str(digits);
        return;
    }
    let split = int_len.min(digits.len());
    out.push_str(&digits[..split]);
    out.extend(std::iter::repeat_n('0', int_len - split));
    if split < digits.len() {
        out.push('.');
        out.push_str(&digits[split..]);
    }
}

/// `d[.ddd]e±XX`, the exponent at least two digits (Go's `%e` with shortest precision).
fn push_exp(out: &mut String, digits: &str, exp: i32) {
    out.push_str(&digits[..1]);
    if digits.len() > 1 {
        out.push('.');
        out.push_str(&digits[1..]);
    }
    out.push_str(&format!(
        "e{}{:02}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    ));
}

/// Sign, shortest round-trip significant digits and decimal exponent of `f`, as Go's
/// `strconv` picks them (`1.5e3` → `(false, "15", 3)`; zero is `"0"`, exponent 0).
fn shortest_digits(f: f64) -> (bool, String, i32) {
    let split = |sci: String| -> (String, i32) {
        let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        (mantissa.replace('.', ""), exp.parse().unwrap_or(0))
    };
    let (mut digits, exp) = split(format!("{:e}", f.abs()));
    if digits.len() >= 16 {
        // On an exact tie between two shortest candidates Go keeps the even last digit where
        // Rust rounds up; ties need the exact value to have exactly one more digit, a 5.
        let (exact, _) = split(format!("{:.767e}", f.abs()));
        let exact = exact.trim_end_matches('0');
        let lower = &exact[..digits.len().min(exact.len())];
        let even = lower.bytes().last().is_some_and(|d| d % 2 == 0);
        if exact.len() == digits.len() + 1 && exact.ends_with('5') && even {
            digits = lower.to_string();
        }
    }
    (f.is_sign_negative(), digits, exp)
}

/// Go's `json.Marshal` of a decoded JSON value: compact, object keys sorted, `<`, `>`, `&`,
/// U+2028 and U+2029 escaped, floats plain between 1e-6 and 1e21 and else `1e+21` / `1e-7`.
fn go_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_i64() {
            Some(i) => out.push_str(&i.to_string()),
            None => go_json_float(as_f64(n), out),
        },
        Value::String(s) => go_json_str(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                go_json(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut sorted: Vec<_> = members.iter().collect();
            sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (k, item)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                go_json_str(k, out);
                out.push(':');
                go_json(item, out);
            }
            out.push('}');
        }
    }
}

fn go_json_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Go's `unicode.ToUpper`: the simple one-to-one mapping, so characters whose full mapping
/// is several characters keep their own (`ß`), except Greek with ypogegrammeni (`ᾳ` → `ᾼ`).
fn go_upper(c: char) -> char {
    let mut up = c.to_uppercase();
    if let (Some(u), None) = (up.next(), up.next()) {
        return u;
    }
    let simple = match u32::from(c) {
        n @ (0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7) => n + 8,
        n @ (0x1FB3 | 0x1FC3 | 0x1FF3) => n + 9,
        _ => return c,
    };
    char::from_u32(simple).unwrap_or(c)
}

#[cfg(test)]
mod tests;
