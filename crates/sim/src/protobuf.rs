//! Just enough of the Kubernetes protobuf encoding to read a `SelfSubjectAccessReview` that a
//! generated Go client sends (client-go forces protobuf request bodies for built-in kinds when
//! the config leaves the content type unset, as kubectl does, and falls back to JSON on 415
//! only for CBOR — so `kubectl auth can-i` would fail against a JSON-only server). The
//! envelope is `k8s\0` + `runtime.Unknown{typeMeta, raw}`; the fields are those of
//! k8s.io/api `authorization/v1/generated.proto`. Pure; must not grow into a general decoder
//! (other protobuf bodies are answered 415).

use serde_json::{json, Map, Value};

/// The 4-byte magic of a Kubernetes protobuf body.
pub const MAGIC: &[u8] = b"k8s\0";

/// One field of a message: length-delimited ones with their number and payload.
enum Field<'a> {
    /// A varint (bools, enums): none of the fields read here.
    Varint,
    Bytes(u32, &'a [u8]),
}

fn varint(buf: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *buf.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

fn fields(buf: &[u8]) -> Option<Vec<Field<'_>>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < buf.len() {
        let tag = varint(buf, &mut at)?;
        let num = u32::try_from(tag >> 3).ok()?;
        match tag & 7 {
            0 => {
                varint(buf, &mut at)?;
                out.push(Field::Varint);
            }
            2 => {
                let len = usize::try_from(varint(buf, &mut at)?).ok()?;
                let end = at.checked_add(len).filter(|e| *e <= buf.len())?;
                out.push(Field::Bytes(num, &buf[at..end]));
                at = end;
            }
            1 => at += 8,
            5 => at += 4,
            _ => return None,
        }
    }
    Some(out)
}

fn sub(buf: &[u8], n: u32) -> Option<&[u8]> {
    fields(buf)?.into_iter().rev().find_map(|f| match f {
        Field::Bytes(k, b) if k == n => Some(b),
        _ => None,
    })
}

fn strings(buf: &[u8], names: &[(u32, &str)]) -> Option<Map<String, Value>> {
    let mut m = Map::new();
    for f in fields(buf)? {
        if let Field::Bytes(k, b) = f {
            if let Some((_, name)) = names.iter().find(|(n, _)| *n == k) {
                m.insert((*name).to_owned(), json!(String::from_utf8_lossy(b)));
            }
        }
    }
    Some(m)
}

/// `(apiVersion, kind, raw)` of an enveloped body, or `None` when it is not one.
pub fn envelope(body: &[u8]) -> Option<(String, String, &[u8])> {
    let unknown = body.strip_prefix(MAGIC)?;
    let tm = sub(unknown, 1).unwrap_or(&[]);
    let tm = strings(tm, &[(1, "apiVersion"), (2, "kind")])?;
    let s = |k: &str| tm.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    Some((s("apiVersion"), s("kind"), sub(unknown, 2).unwrap_or(&[])))
}

/// The JSON `spec` of a protobuf `SelfSubjectAccessReview` (`resourceAttributes` or
/// `nonResourceAttributes`), or `None` when the bytes do not parse.
pub fn self_subject_access_review_spec(raw: &[u8]) -> Option<Value> {
    fields(raw)?;
    let spec = sub(raw, 2).unwrap_or(&[]);
    fields(spec)?;
    let mut out = Map::new();
    if let Some(ra) = sub(spec, 1) {
        let m = strings(
            ra,
            &[
                (1, "namespace"),
                (2, "verb"),
                (3, "group"),
                (4, "version"),
                (5, "resource"),
                (6, "subresource"),
                (7, "name"),
            ],
        )?;
        out.insert("resourceAttributes".into(), Value::Object(m));
    }
    if let Some(na) = sub(spec, 2) {
        out.insert(
            "nonResourceAttributes".into(),
            Value::Object(strings(na, &[(1, "path"), (2, "verb")])?),
        );
    }
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ld(num: u32, payload: &[u8]) -> Vec<u8> {
        let mut v = vec![
            u8::try_from(num << 3 | 2).unwrap(),
            u8::try_from(payload.len()).unwrap(),
        ];
        v.extend_from_slice(payload);
        v
    }

    #[test]
    fn reads_a_review_kubectl_would_send() {
        let ra = [ld(1, b"shop"), ld(2, b"delete"), ld(5, b"pods"), ld(7, b"web-1")].concat();
        let raw = [ld(1, b""), ld(2, &ld(1, &ra))].concat();
        let tm = [
            ld(1, b"authorization.k8s.io/v1"),
            ld(2, b"SelfSubjectAccessReview"),
        ]
        .concat();
        let body = [MAGIC.to_vec(), ld(1, &tm), ld(2, &raw)].concat();
        let (av, kind, raw) = envelope(&body).unwrap();
        assert_eq!(
            (av.as_str(), kind.as_str()),
            ("authorization.k8s.io/v1", "SelfSubjectAccessReview")
        );
        let spec = self_subject_access_review_spec(raw).unwrap();
        assert_eq!(
            spec,
            json!({"resourceAttributes": {"namespace": "shop", "verb": "delete", "resource": "pods", "name": "web-1"}})
        );
        assert!(envelope(b"{}").is_none());
        assert!(self_subject_access_review_spec(&[0x12, 0x7f]).is_none());
    }
}
