//! An object's JSON text read the way history needs it, without building a `serde_json::Value`
//! of it: its members one level at a time (each kept as its raw text), its identity and
//! versions from `metadata`, and the normalized body a revision stores (what
//! [`super::record`] keeps, re-emitted from the raw members: equal members stay byte-equal
//! across revisions, which is what lets [`super::rawdiff`] skip them with one `memcmp`).
//! Owns that reading; must not decide what a revision is.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserializer as _, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

/// One member of a JSON object: its key (unescaped; borrowed when the text has no escapes)
/// and its value's raw text.
pub type Member<'a> = (Cow<'a, str>, &'a RawValue);

/// The members of the JSON object `text`, in text order (duplicates kept); `None` when it
/// is not an object.
pub fn members(text: &str) -> Option<Vec<Member<'_>>> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_map(MembersVisitor).ok()
}

/// The value of `key` in `members` (the last one, as a JSON decoder keeps it).
pub fn get<'a>(members: &[Member<'a>], key: &str) -> Option<&'a RawValue> {
    members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
}

/// `text` decoded as a `Value` (`Null` when it does not decode).
pub fn value(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or(serde_json::Value::Null)
}

/// The string `raw` holds (unescaped); `None` when it is not a string.
pub fn string(raw: &RawValue) -> Option<Cow<'_, str>> {
    let mut de = serde_json::Deserializer::from_str(raw.get());
    de.deserialize_str(KeyVisitor).ok()
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
}

struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(KeyVisitor).map(Key)
    }
}

struct MembersVisitor;

impl<'de> Visitor<'de> for MembersVisitor {
    type Value = Vec<Member<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(map.size_hint().unwrap_or(8));
        while let Some((Key(k), v)) = map.next_entry::<Key<'de>, &'de RawValue>()? {
            out.push((k, v));
        }
        Ok(out)
    }
}

/// What history reads of one object's text: its top-level members and those of its
/// `metadata`.
pub struct Object<'a> {
    top: Vec<Member<'a>>,
    /// `None` when `metadata` is absent or not an object.
    meta: Option<Vec<Member<'a>>>,
}

impl<'a> Object<'a> {
    /// Reads `raw`; `None` when it is not an object.
    pub fn read(text: &'a str) -> Option<Object<'a>> {
        let top = members(text)?;
        let meta = get(&top, "metadata").and_then(|m| members(m.get()));
        Some(Object { top, meta })
    }

    fn meta_get(&self, field: &str) -> Option<&'a RawValue> {
        get(self.meta.as_deref()?, field)
    }

    /// The string at `metadata.<field>`; `""` when absent or not a string.
    pub fn meta_str(&self, field: &str) -> Cow<'a, str> {
        self.meta_get(field).and_then(string).unwrap_or_default()
    }

    /// `metadata.generation`.
    pub fn generation(&self) -> Option<i64> {
        self.meta_get("generation").and_then(|g| g.get().parse().ok())
    }

    /// `metadata.managedFields` as raw text.
    pub fn managed_fields(&self) -> Option<&'a RawValue> {
        self.meta_get("managedFields")
    }

    /// The body a revision stores, as compact JSON text: the object without `apiVersion` and
    /// `kind`, `metadata.resourceVersion`, `metadata.managedFields` and the last-applied
    /// annotation (`annotations` itself goes when nothing else is left in it); for Secrets
    /// (`resource == "secrets"`) the metadata alone — their list informer reads the server's
    /// printed rows, which carry no more, and a whole Secret (from a YAML view's watch, or a
    /// server that prints no tables) must give the same body. Members are re-emitted from
    /// their raw text in text order, the last of duplicate keys winning.
    pub fn normalized(&self, resource: &str) -> String {
        let mut out = String::with_capacity(self.top.iter().map(|(k, v)| k.len() + v.get().len() + 4).sum());
        let mut w = Emitter::new(&mut out);
        for (i, (k, v)) in self.top.iter().enumerate() {
            if shadowed(&self.top, i) {
                continue;
            }
            match &**k {
                "apiVersion" | "kind" => {}
                "metadata" if self.meta.is_some() => {
                    let meta = self.meta.as_deref().unwrap_or_default();
                    w.key(k);
                    let mut inner = String::new();
                    let mut m = Emitter::new(&mut inner);
                    for (j, (mk, mv)) in meta.iter().enumerate() {
                        if shadowed(meta, j) {
                            continue;
                        }
                        match &**mk {
                            "resourceVersion" | "managedFields" => {}
                            "annotations" => match annotations(mv) {
                                Some(Some(kept)) => {
                                    m.key(mk);
                                    m.raw(&kept);
                                }
                                Some(None) => {}
                                None => {
                                    m.key(mk);
                                    m.raw(mv.get());
                                }
                            },
                            _ => {
                                m.key(mk);
                                m.raw(mv.get());
                            }
                        }
                    }
                    m.close();
                    w.raw(&inner);
                }
                // Secrets: nothing but their metadata (see above).
                _ if resource == "secrets" => {}
                _ => {
                    w.key(k);
                    w.raw(v.get());
                }
            }
        }
        w.close();
        out
    }
}

/// The last-applied annotation taken out of `annotations`: `Some(Some(text))` what is left,
/// `Some(None)` nothing is left, `None` not an object (kept as it is).
fn annotations(raw: &RawValue) -> Option<Option<String>> {
    let list = members(raw.get())?;
    let mut out = String::new();
    let mut w = Emitter::new(&mut out);
    let mut any = false;
    for (i, (k, v)) in list.iter().enumerate() {
        if shadowed(&list, i) || k == "kubectl.kubernetes.io/last-applied-configuration" {
            continue;
        }
        any = true;
        w.key(k);
        w.raw(v.get());
    }
    w.close();
    Some(any.then_some(out))
}

/// Whether member `i` is overridden by a later one with the same key.
fn shadowed(members: &[Member<'_>], i: usize) -> bool {
    let key = &members[i].0;
    members[i + 1..].iter().any(|(k, _)| k == key)
}

/// Writes one JSON object, member by member.
struct Emitter<'o> {
    out: &'o mut String,
    first: bool,
}

impl<'o> Emitter<'o> {
    fn new(out: &'o mut String) -> Self {
        out.push('{');
        Emitter { out, first: true }
    }
    fn key(&mut self, k: &str) {
        if !std::mem::take(&mut self.first) {
            self.out.push(',');
        }
        if k.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
            // A string always serializes.
            self.out.push_str(&serde_json::to_string(k).unwrap_or_default());
        } else {
            // Nothing to escape (JSON needs it only for controls, `"` and `\`).
            self.out.push('"');
            self.out.push_str(k);
            self.out.push('"');
        }
        self.out.push(':');
    }
    fn raw(&mut self, text: &str) {
        self.out.push_str(text);
    }
    fn close(self) {
        self.out.push('}');
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn raw(v: &serde_json::Value) -> Box<RawValue> {
        serde_json::value::to_raw_value(v).unwrap()
    }

    #[test]
    fn members_borrow_plain_keys_and_unescape_others() {
        let r: Box<RawValue> = serde_json::from_str(r#"{"a":1,"b\"c":{"x":[1, 2]},"a":2}"#).unwrap();
        let m = members(r.get()).unwrap();
        assert!(matches!(m[0].0, Cow::Borrowed("a")));
        assert_eq!(&*m[1].0, "b\"c");
        assert_eq!(m[1].1.get(), r#"{"x":[1, 2]}"#);
        assert_eq!(get(&m, "a").unwrap().get(), "2", "the last duplicate wins");
        assert!(members("[1]").is_none());
    }

    #[test]
    fn the_normalized_body_is_what_the_value_path_kept() {
        let obj = json!({"apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": "s", "namespace": "shop", "uid": "u", "resourceVersion": "7", "generation": 2,
                         "managedFields": [{"manager": "m"}],
                         "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}", "keep": "me"}},
            "data": {"token": "c2VjcmV0", "we\"ird": "eA=="}, "type": "Opaque"});
        let r = raw(&obj);
        let o = Object::read(r.get()).unwrap();
        assert_eq!(o.meta_str("name"), "s");
        assert_eq!(o.meta_str("resourceVersion"), "7");
        assert_eq!(o.generation(), Some(2));
        assert!(o.managed_fields().is_some());
        let body: serde_json::Value = serde_json::from_str(&o.normalized("secrets")).unwrap();
        assert_eq!(
            body,
            json!({"metadata": {"name": "s", "namespace": "shop", "uid": "u", "generation": 2,
                                "annotations": {"keep": "me"}}}),
            "a Secret's body is its metadata: no data, no type"
        );
        // Only the last-applied annotation: `annotations` goes too. Not a secret: data kept.
        let cm: Box<RawValue> = serde_json::from_str(
            r#"{"metadata":{"name":"c","annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}},"data":{"k":"v"}}"#,
        )
        .unwrap();
        let o = Object::read(cm.get()).unwrap();
        assert_eq!(
            o.normalized("configmaps"),
            r#"{"metadata":{"name":"c"},"data":{"k":"v"}}"#
        );
    }
}
