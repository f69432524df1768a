//! The wire shape of one list page (`items` or a Table's `rows`, `metadata.resourceVersion`,
//! `metadata.continue`), decoded with the informer's slim type. Owns only that shape; must not decide anything.

use serde::Deserialize;

/// One page of a list response.
#[derive(Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
pub(super) struct Page<T> {
    /// `metadata` of the list.
    #[serde(default)]
    pub(super) metadata: PageMeta,
    /// `items` (a `null` list is empty); a `meta.k8s.io/v1 Table`'s `rows` (see
    /// `Versioned::TABLE_ROWS`).
    #[serde(default = "Vec::new", deserialize_with = "null_as_empty", alias = "rows")]
    pub(super) items: Vec<T>,
}

/// `metadata` of a list: where to watch from, and the next page's token.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct PageMeta {
    /// `metadata.resourceVersion` (set on the last page).
    #[serde(default)]
    pub(super) resource_version: Option<String>,
    /// `metadata.continue`: the next page's token; empty or absent on the last page.
    #[serde(default, rename = "continue")]
    pub(super) continue_: Option<String>,
}

fn null_as_empty<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

/// Decodes a list body. The whole page is decoded at once; only when that fails are its
/// items decoded one by one, so that one malformed object (`"name": 42`) is skipped and
/// named — `kind/namespace/name: error` in `skipped` — instead of failing the list. `Err`
/// when the body is not a list at all.
pub(super) fn decode<T: serde::de::DeserializeOwned>(
    body: &[u8],
    kind: &str,
) -> Result<(Page<T>, Vec<String>), String> {
    let first = match serde_json::from_slice::<Page<T>>(body) {
        Ok(page) => return Ok((page, Vec::new())),
        Err(e) => e,
    };
    let Ok(raw) = serde_json::from_slice::<Page<serde_json::Value>>(body) else {
        return Err(first.to_string());
    };
    let mut skipped = Vec::new();
    let mut items = Vec::with_capacity(raw.items.len());
    for item in raw.items {
        let name = object_name(kind, &item);
        match T::deserialize(item) {
            Ok(obj) => items.push(obj),
            Err(e) => skipped.push(format!("{name}: {e}")),
        }
    }
    Ok((
        Page {
            metadata: raw.metadata,
            items,
        },
        skipped,
    ))
}

/// `kind/namespace/name` of a raw object (or of a Table row's object, or of a one-row
/// Table's — a watch event's — row), as far as its metadata can be read.
pub(super) fn object_name(kind: &str, obj: &serde_json::Value) -> String {
    let row = obj.get("rows").and_then(|r| r.get(0)).unwrap_or(obj);
    let meta = row
        .get("object")
        .and_then(|o| o.get("metadata"))
        .or_else(|| obj.get("metadata"));
    let field = |f: &str| {
        meta.and_then(|m| m.get(f)).and_then(|v| match v {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Null => None,
            other => Some(other.to_string()),
        })
    };
    let name = field("name").unwrap_or_else(|| "?".to_owned());
    match field("namespace") {
        Some(ns) => format!("{kind}/{ns}/{name}"),
        None => format!("{kind}/{name}"),
    }
}

/// The header line for `skipped` objects: `1 object could not be read: pod/ns/x: …`.
pub(super) fn unreadable_line(skipped: &[String]) -> Option<String> {
    let first = skipped.first()?;
    let n = skipped.len();
    let what = if n == 1 { "object" } else { "objects" };
    Some(super::super::failure::one_line(&format!(
        "{n} {what} could not be read: {first}"
    )))
}

/// `Retry-After` in seconds (the HTTP-date form is not used by the API server).
pub(super) fn retry_after(headers: &http::HeaderMap) -> Option<std::time::Duration> {
    let secs: u64 = headers
        .get(http::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(std::time::Duration::from_secs(secs.min(600)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Debug)]
    struct Obj {
        metadata: Meta,
    }
    #[derive(Deserialize, Debug)]
    struct Meta {
        name: String,
    }

    #[test]
    fn one_malformed_item_is_skipped_and_named() {
        let body = br#"{"metadata":{"resourceVersion":"7"},"items":[
            {"metadata":{"name":"a","namespace":"n"}},
            {"metadata":{"name":42,"namespace":"n"}},
            {"metadata":{"name":"c","namespace":"n"}}]}"#;
        let (page, skipped) = decode::<Obj>(body, "pod").unwrap();
        let names: Vec<_> = page.items.iter().map(|o| o.metadata.name.as_str()).collect();
        assert_eq!(names, ["a", "c"]);
        assert_eq!(page.metadata.resource_version.as_deref(), Some("7"));
        assert_eq!(skipped.len(), 1);
        assert!(
            skipped[0].starts_with("pod/n/42: invalid type: integer `42`"),
            "{skipped:?}"
        );
        let line = unreadable_line(&skipped).unwrap();
        assert!(
            line.starts_with("1 object could not be read: pod/n/42: "),
            "{line}"
        );
    }

    #[test]
    fn printed_rows_are_named_by_their_object() {
        let row =
            serde_json::json!({"cells": ["a"], "object": {"metadata": {"name": "a", "namespace": "n"}}});
        assert_eq!(object_name("secret", &row), "secret/n/a");
        let table = serde_json::json!({"kind": "Table", "metadata": {"resourceVersion": "9"}, "rows": [row]});
        assert_eq!(object_name("secret", &table), "secret/n/a");
        let plain = serde_json::json!({"metadata": {"name": "p"}});
        assert_eq!(object_name("pod", &plain), "pod/p");
    }

    #[test]
    fn a_body_that_is_no_list_fails() {
        assert!(decode::<Obj>(b"not json", "pod").is_err());
        assert!(decode::<Obj>(br#"{"items":{"a":1}}"#, "pod").is_err());
    }

    #[test]
    fn retry_after_seconds() {
        let mut h = http::HeaderMap::new();
        h.insert(http::header::RETRY_AFTER, "7".parse().unwrap());
        assert_eq!(retry_after(&h), Some(std::time::Duration::from_secs(7)));
        h.insert(
            http::header::RETRY_AFTER,
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&h), None);
    }
}
