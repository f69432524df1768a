//! The slim `metadata` every kind's decoder shares, plus the small serde helpers the slim types
//! need (timestamps as unix seconds, maps as pair lists, key counts). Must not keep anything a
//! column does not need (no managedFields, no annotations unless a kind asks for one).

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use ktui_kube::row::{Cell, Drill, Health, Labels, Owner, Row, RowCtx, UnixSecs};
use ktui_kube::sanitize::{sanitize, sanitized_arc, sanitized_box};

/// The `metadata` fields rows need. `A` decodes `metadata.annotations`; the default
/// ([`IgnoredAny`]) skips them without allocating.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ObjMeta<A = IgnoredAny> {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`; `None` for cluster-scoped objects.
    pub namespace: Option<String>,
    /// `metadata.uid`.
    pub uid: String,
    /// `metadata.resourceVersion`.
    pub resource_version: Option<String>,
    /// `metadata.creationTimestamp` in unix seconds.
    #[serde(deserialize_with = "time")]
    pub creation_timestamp: Option<UnixSecs>,
    /// `metadata.deletionTimestamp` in unix seconds (set while the object is being deleted).
    #[serde(deserialize_with = "time")]
    pub deletion_timestamp: Option<UnixSecs>,
    /// `metadata.labels` as (key, value) pairs in the order received.
    #[serde(deserialize_with = "pairs")]
    pub labels: Vec<(String, String)>,
    /// `metadata.annotations`, decoded by `A` (skipped by default).
    pub annotations: A,
    /// The controlling entry of `metadata.ownerReferences` (else the first).
    #[serde(rename = "ownerReferences", deserialize_with = "controller_owner")]
    pub owner: Option<OwnerRef>,
}

/// One `metadata.ownerReferences[]` entry, as far as `shift-j` needs it.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct OwnerRef {
    /// `apiVersion`.
    pub api_version: String,
    /// `kind`.
    pub kind: String,
    /// `name`.
    pub name: String,
    /// `controller`.
    pub controller: Option<bool>,
}

/// Picks the controller among `ownerReferences` (else the first); `null` is none.
fn controller_owner<'de, D: Deserializer<'de>>(d: D) -> Result<Option<OwnerRef>, D::Error> {
    let refs = Option::<Vec<OwnerRef>>::deserialize(d)?.unwrap_or_default();
    let controller = refs.iter().position(|r| r.controller == Some(true)).unwrap_or(0);
    Ok(refs.into_iter().nth(controller))
}

impl<A> ObjMeta<A> {
    /// Assembles the row: sanitized name, interned namespace and labels.
    pub fn into_row(self, ctx: &RowCtx, cells: Vec<Cell>, health: Health, drill: Option<Drill>) -> Row {
        Row {
            namespace: self
                .namespace
                .as_deref()
                .map(|ns| ctx.interner.intern(&sanitize(ns))),
            name: sanitized_arc(&self.name),
            uid: self.uid.into_boxed_str(),
            created: self.creation_timestamp,
            labels: intern_labels(ctx, self.labels),
            cells: cells.into_boxed_slice(),
            health,
            drill: drill.map(Box::new),
            event: None,
            capacity: None,
            uses: None,
            origin: 0,
            owner: self.owner.map(|o| {
                Box::new(Owner {
                    api_version: ctx.interner.intern(&sanitize(&o.api_version)),
                    kind: ctx.interner.intern(&sanitize(&o.kind)),
                    name: ctx.interner.intern(&sanitize(&o.name)),
                })
            }),
        }
    }
}

/// Interns label pairs (sanitized), sorts them by key, and interns the set.
pub fn intern_labels(ctx: &RowCtx, mut pairs: Vec<(String, String)>) -> Labels {
    pairs.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let pairs = pairs
        .iter()
        .map(|(k, v)| {
            (
                ctx.interner.intern(&sanitize(k)),
                ctx.interner.intern(&sanitize(v)),
            )
        })
        .collect::<Vec<(Arc<str>, Arc<str>)>>();
    ctx.interner.intern_set(pairs)
}

/// kubectl's table printer rule for every string cell: cut at the first `\n`, `\r` or `\f`,
/// appending `...` if anything was cut.
pub fn first_line(s: &str) -> Cow<'_, str> {
    match s.find(['\n', '\r', '\u{c}']) {
        Some(i) => format!("{}...", &s[..i]).into(),
        None => s.into(),
    }
}

/// A text cell as kubectl prints it ([`first_line`]), sanitized; `""` stays a cheap static
/// blank.
pub fn text(s: &str) -> Cell {
    if s.is_empty() {
        Cell::Static("")
    } else {
        Cell::Text(sanitized_box(&first_line(s)))
    }
}

/// A text cell like [`text`], or `placeholder` (`<none>`, `<unknown>`...) when `s` is empty.
pub fn text_or(s: &str, placeholder: &'static str) -> Cell {
    if s.is_empty() {
        Cell::Static(placeholder)
    } else {
        text(s)
    }
}

/// A text cell like [`text_or`] for text that repeats across many rows (node names, ready
/// ratios): interned in `ctx`, so rows share one allocation.
pub fn shared_or(ctx: &RowCtx, s: &str, placeholder: &'static str) -> Cell {
    if s.is_empty() {
        Cell::Static(placeholder)
    } else {
        Cell::Shared(ctx.interner.intern(&sanitize(&first_line(s))))
    }
}

/// A sanitized text cell of an optional field, `<unset>` when it is nil (an empty string
/// stays blank).
pub fn unset_or(s: Option<&str>) -> Cell {
    s.map_or(Cell::Static("<unset>"), text)
}

/// Parses an RFC 3339 timestamp (`2024-05-01T10:00:00Z`, with optional fraction and numeric
/// offset) into unix seconds, truncating any fraction. Hand-written fast path for the forms
/// the API server sends; anything else goes through jiff. `None` when unparsable.
pub fn parse_rfc3339(s: &str) -> Option<UnixSecs> {
    fast_rfc3339(s.as_bytes()).or_else(|| s.parse::<jiff::Timestamp>().ok().map(|t| t.as_second()))
}

fn fast_rfc3339(b: &[u8]) -> Option<UnixSecs> {
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        b[r].iter().try_fold(0i64, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
        })
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut rest = &b[19..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let digits = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        rest = &frac[digits..];
    }
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let two = |a: u8, b: u8| -> Option<i64> {
                (a.is_ascii_digit() && b.is_ascii_digit())
                    .then(|| i64::from(a - b'0') * 10 + i64::from(b - b'0'))
            };
            let (oh, om) = (two(*h1, *h2)?, two(*m1, *m2)?);
            if oh > 23 || om > 59 {
                return None;
            }
            let off = oh * 3600 + om * 60;
            if *sign == b'-' {
                -off
            } else {
                off
            }
        }
        _ => return None,
    };
    if !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 59 {
        return None;
    }
    Some(days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + sec - offset)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `deserialize_with` for an optional RFC 3339 timestamp: null, absent or unparsable → `None`
/// (one odd timestamp must not make the whole object undecodable).
pub fn time<'de, D: Deserializer<'de>>(d: D) -> Result<Option<UnixSecs>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<UnixSecs>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an RFC 3339 timestamp or null")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(parse_rfc3339(v))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(V)
        }
    }
    d.deserialize_option(V)
}

/// `deserialize_with` for a field the server may send as `null` (Go's nil slice): `null` →
/// the default (an empty list).
pub fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// `deserialize_with` for a `map[string]string` kept as pairs in received order (null → empty).
pub fn pairs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Vec<(String, String)>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string map or null")
        }
        fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Self::Value, M::Error> {
            let mut out = Vec::with_capacity(m.size_hint().unwrap_or(4));
            while let Some((k, v)) = m.next_entry::<String, Option<String>>()? {
                out.push((k, v.unwrap_or_default()));
            }
            Ok(out)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
    }
    d.deserialize_any(V)
}

/// The number of entries of a JSON array or object, values skipped unread (null → 0). Used
/// where a column only counts (`data` keys, `spec.containers`, `status.active`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count(pub usize);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V(PhantomData<()>);
        impl<'de> Visitor<'de> for V {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array, an object or null")
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut s: S) -> Result<Count, S::Error> {
                let mut n = 0;
                while s.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Count(n))
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Count, M::Error> {
                let mut n = 0;
                while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Count(n))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Count, E> {
                Ok(Count(0))
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms_the_server_sends() {
        let cases = [
            ("1970-01-01T00:00:00Z", Some(0)),
            ("2024-05-01T10:00:00Z", Some(1_714_557_600)),
            ("2024-05-01T10:00:00.123456Z", Some(1_714_557_600)),
            ("2024-05-01T10:00:00.9Z", Some(1_714_557_600)),
            ("2024-05-01T12:00:00+02:00", Some(1_714_557_600)),
            ("2024-05-01T08:30:00-01:30", Some(1_714_557_600)),
            ("2024-02-29T00:00:00Z", Some(1_709_164_800)),
            ("2023-02-29T00:00:00Z", None),
            ("1969-12-31T23:59:59Z", Some(-1)),
            ("2024-05-01 10:00:00Z", Some(1_714_557_600)),
            ("garbage", None),
            ("", None),
        ];
        for (s, want) in cases {
            assert_eq!(parse_rfc3339(s), want, "{s}");
        }
    }

    #[test]
    fn fast_path_agrees_with_jiff() {
        for secs in (-62_000_000_000i64..253_000_000_000).step_by(777_777_777) {
            let s = jiff::Timestamp::from_second(secs).unwrap().to_string();
            assert_eq!(fast_rfc3339(s.as_bytes()), Some(secs), "{s}");
        }
    }

    #[test]
    fn metadata_decodes_and_skips_the_rest() {
        let json = br#"{"name":"a","namespace":"ns","uid":"u","resourceVersion":"7",
            "creationTimestamp":"1970-01-01T00:01:00Z","deletionTimestamp":null,
            "labels":{"b":"2","a":"1"},"annotations":{"x":"y"},"managedFields":[{"a":1}]}"#;
        let m: ObjMeta = serde_json::from_slice(json).unwrap();
        assert_eq!(m.creation_timestamp, Some(60));
        assert_eq!(m.deletion_timestamp, None);
        let row = m.into_row(&RowCtx::default(), vec![], Health::Ok, None);
        assert_eq!(&*row.labels[0].0, "a");
        assert_eq!(row.namespace.as_deref(), Some("ns"));
    }

    #[test]
    fn cells_keep_the_first_line_like_kubectl() {
        assert_eq!(first_line("line1\nline2"), "line1...");
        assert_eq!(first_line("a\rb"), "a...");
        assert_eq!(first_line("plain"), "plain");
        assert_eq!(text("Oops\n\u{1b}[31m"), Cell::Text("Oops...".into()));
        assert_eq!(text("a\tb"), Cell::Text("a b".into()));
    }

    #[test]
    fn count_counts_arrays_and_objects() {
        let c: Vec<Count> = serde_json::from_str(r#"[[1,{"a":2}],{"a":1,"b":{"c":[]}},null]"#).unwrap();
        assert_eq!(c, vec![Count(2), Count(2), Count(0)]);
    }
}
