//! Kubernetes' protobuf encoding of built-in kinds, read only: the `k8s\0` + `runtime.Unknown`
//! envelope, list bodies, watch frames (`meta/v1.WatchEvent` whose object is a RawExtension
//! holding an envelope), and a serde `Deserializer` over messages (`de`) so that the slim
//! row types decode from protobuf exactly as from JSON, without an intermediate object.
//! The field tables come from Kubernetes' `generated.proto` (`schema`). Owns decoding; must
//! not do I/O or decide which encoding to ask for (that is `informer::encoding`).

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::Deserialize;

mod de;
mod schema;
mod text;
mod wire;

#[cfg(test)]
mod tests;

use wire::{bytes, Reader, Wire};

/// The media type of Kubernetes' protobuf encoding (`Content-Type` of its answers).
pub const MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf";

/// The 4-byte magic before every protobuf-encoded object.
pub const MAGIC: &[u8] = b"k8s\0";

/// What a decode failed on (one line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl Error {
    pub(crate) fn msg(m: impl Into<String>) -> Self {
        Error(m.into())
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl serde::de::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// True when `content_type` (an answer's `Content-Type`) is the protobuf encoding (a watch's
/// `;stream=watch` included).
pub fn is_protobuf(content_type: Option<&http::HeaderValue>) -> bool {
    content_type.and_then(|v| v.to_str().ok()).is_some_and(|v| {
        v.split(';')
            .next()
            .is_some_and(|m| m.trim().eq_ignore_ascii_case(MEDIA_TYPE))
    })
}

/// One protobuf-encoded object: its `runtime.Unknown` envelope.
#[derive(Debug, Clone, Copy)]
pub struct Envelope<'a> {
    /// `typeMeta.apiVersion` (`v1`, `apps/v1`).
    pub api_version: &'a str,
    /// `typeMeta.kind` (`PodList`, `Pod`, `Status`).
    pub kind: &'a str,
    /// `raw`: the object's message.
    pub raw: &'a [u8],
}

/// Reads the envelope of `body` (`k8s\0` + `runtime.Unknown`).
pub fn envelope(body: &[u8]) -> Result<Envelope<'_>, Error> {
    let Some(rest) = body.strip_prefix(MAGIC) else {
        return Err(Error::msg("not a Kubernetes protobuf body (no k8s\\0 magic)"));
    };
    let mut env = Envelope {
        api_version: "",
        kind: "",
        raw: &[],
    };
    let mut r = Reader::new(rest);
    while let Some((n, w)) = r.field()? {
        match n {
            1 => {
                let mut t = Reader::new(bytes(w, "typeMeta")?);
                while let Some((n, w)) = t.field()? {
                    let s = std::str::from_utf8(bytes(w, "typeMeta")?)
                        .map_err(|_| Error::msg("typeMeta is not UTF-8"))?;
                    match n {
                        1 => env.api_version = s,
                        2 => env.kind = s,
                        _ => {}
                    }
                }
            }
            2 => env.raw = bytes(w, "raw")?,
            // contentEncoding: Kubernetes never sets one for API objects.
            3 if !bytes(w, "contentEncoding")?.is_empty() => {
                return Err(Error::msg("encoded (compressed) protobuf objects are not read"));
            }
            _ => {}
        }
    }
    Ok(env)
}

/// The schema message of an object of `kind` in `api_version`: `v1` → `api.core.v1`,
/// `apps/v1` → `api.apps.v1`, `networking.k8s.io/v1` → `api.networking.v1`,
/// `meta.k8s.io/v1` and `Status` → `apimachinery.pkg.apis.meta.v1`.
fn message_of(api_version: &str, kind: &str) -> Result<usize, Error> {
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let package = if kind == "Status" || group == "meta.k8s.io" {
        "apimachinery.pkg.apis.meta".to_owned()
    } else if group.is_empty() {
        "api.core".to_owned()
    } else {
        format!("api.{}", group.split('.').next().unwrap_or(group))
    };
    let name = format!(
        "{package}.{}.{kind}",
        if kind == "Status" { "v1" } else { version }
    );
    schema::schema()
        .find(&name)
        .ok_or_else(|| Error::msg(format!("no protobuf table for {kind} ({api_version})")))
}

/// Decodes the object of `env` as `T`.
pub fn object<T: DeserializeOwned>(env: &Envelope<'_>) -> Result<T, Error> {
    let msg = message_of(env.api_version, env.kind)?;
    T::deserialize(de::MessageDe { msg, bytes: env.raw })
}

/// Enough of an object to name it and move past it.
#[derive(Deserialize, Default)]
struct Named {
    #[serde(default)]
    metadata: NamedMeta,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct NamedMeta {
    name: Option<String>,
    namespace: Option<String>,
    resource_version: Option<String>,
}

/// `kind/namespace/name` of an object's message (as `informer::page` names unreadable JSON
/// objects) and its resourceVersion, as far as its metadata can be read.
fn name_of(msg: usize, raw: &[u8], kind: &str) -> (String, Option<String>) {
    let named = Named::deserialize(de::MessageDe { msg, bytes: raw }).unwrap_or_default();
    let m = named.metadata;
    let name = m.name.unwrap_or_else(|| "?".to_owned());
    let what = match m.namespace {
        Some(ns) => format!("{kind}/{ns}/{name}"),
        None => format!("{kind}/{name}"),
    };
    (what, m.resource_version)
}

/// The object of `env` named as [`name_of`] does (`kind` is the informer's singular), with
/// its resourceVersion.
pub fn object_name(env: &Envelope<'_>, kind: &str) -> (String, Option<String>) {
    match message_of(env.api_version, env.kind) {
        Ok(msg) => name_of(msg, env.raw, kind),
        Err(_) => (format!("{kind}/?"), None),
    }
}

/// One decoded list page.
#[derive(Debug)]
pub struct List<T> {
    /// `metadata.resourceVersion`.
    pub resource_version: Option<String>,
    /// `metadata.continue`: the next page's token.
    pub continue_: Option<String>,
    /// The items that decoded as `T`.
    pub items: Vec<T>,
    /// `kind/namespace/name: error` of each item that did not.
    pub skipped: Vec<String>,
}

/// `metadata` of a list (`meta/v1.ListMeta`).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ListMeta {
    resource_version: Option<String>,
    #[serde(rename = "continue")]
    continue_: Option<String>,
    #[allow(dead_code)]
    remaining_item_count: Option<IgnoredAny>,
}

/// Decodes a protobuf list body (`PodList`, `PartialObjectMetadataList`…); items are decoded
/// one by one, so an item that does not decode is named in `skipped` (`kind` is the
/// informer's singular) and the others are kept. `Err` when the body is no list.
pub fn list<T: DeserializeOwned>(body: &[u8], kind: &str) -> Result<List<T>, Error> {
    let env = envelope(body)?;
    let list = message_of(env.api_version, env.kind)?;
    let item = match schema::schema().message(list).field(2).map(|f| f.ty) {
        Some(schema::Ty::Message(m)) if env.kind.ends_with("List") => m,
        _ => return Err(Error::msg(format!("{} is not a list", env.kind))),
    };
    let mut out = List {
        resource_version: None,
        continue_: None,
        items: Vec::new(),
        skipped: Vec::new(),
    };
    let mut r = Reader::new(env.raw);
    while let Some((n, w)) = r.field()? {
        match (n, w) {
            (1, Wire::Bytes(b)) => {
                let meta = ListMeta::deserialize(de::MessageDe {
                    msg: list_meta(list)?,
                    bytes: b,
                })?;
                out.resource_version = meta.resource_version.filter(|v| !v.is_empty());
                out.continue_ = meta.continue_.filter(|c| !c.is_empty());
            }
            (2, Wire::Bytes(b)) => match T::deserialize(de::MessageDe { msg: item, bytes: b }) {
                Ok(obj) => out.items.push(obj),
                Err(e) => {
                    let (what, _) = name_of(item, b, kind);
                    out.skipped.push(format!("{what}: {e}"));
                }
            },
            _ => {}
        }
    }
    Ok(out)
}

/// The `ListMeta` message a list's field 1 holds.
fn list_meta(list: usize) -> Result<usize, Error> {
    match schema::schema().message(list).field(1).map(|f| f.ty) {
        Some(schema::Ty::Message(m)) => Ok(m),
        _ => Err(Error::msg("list without metadata")),
    }
}

/// One watch frame (`meta/v1.WatchEvent`): its type and its object's envelope.
#[derive(Debug, Clone, Copy)]
pub struct WatchFrame<'a> {
    /// `type`: `ADDED`, `MODIFIED`, `DELETED`, `BOOKMARK`, `ERROR`.
    pub type_: &'a str,
    /// `object.raw`, read as an envelope.
    pub object: Envelope<'a>,
}

/// Reads one watch frame (the payload after its 4-byte length).
pub fn watch_frame(frame: &[u8]) -> Result<WatchFrame<'_>, Error> {
    let mut type_ = "";
    let mut raw: &[u8] = &[];
    let mut r = Reader::new(frame);
    while let Some((n, w)) = r.field()? {
        match n {
            1 => {
                type_ = std::str::from_utf8(bytes(w, "type")?).map_err(|_| Error::msg("type is not UTF-8"))?
            }
            2 => {
                let mut ext = Reader::new(bytes(w, "object")?);
                while let Some((n, w)) = ext.field()? {
                    if n == 1 {
                        raw = bytes(w, "object.raw")?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(WatchFrame {
        type_,
        object: envelope(raw)?,
    })
}

/// `code` and `message` of a protobuf `Status` body (an error answer to a request that asked
/// for protobuf); `None` when `body` is none.
pub fn status(body: &[u8]) -> Option<(u16, String)> {
    #[derive(Deserialize)]
    struct Status {
        #[serde(default)]
        code: i64,
        #[serde(default)]
        message: String,
    }
    let env = envelope(body).ok()?;
    let s: Status = object(&env).ok()?;
    Some((u16::try_from(s.code).unwrap_or(0), s.message))
}
