//! Which encoding an informer asks for: Kubernetes' protobuf for built-in kinds (several
//! times cheaper for the API server to encode than JSON, and for ktui to decode), JSON for
//! everything else and wherever a server or proxy refuses protobuf. The rules:
//! - A request asks `Accept: application/vnd.kubernetes.protobuf, application/json` (with
//!   `;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1` on both for metadata-only ones); the
//!   answer's `Content-Type` says what came, and it is decoded as that.
//! - A JSON answer to that Accept (a kind the server has no protobuf for, an aggregated API
//!   server or proxy that only speaks JSON) or a 406 (the request is sent again at once with
//!   JSON alone) is a refusal, remembered for the session per context and API group
//!   ([`Encodings`]), as refusals of streaming lists are: later requests ask for JSON only.
//!
//! - Kinds whose rows must not carry the object's values (secrets:
//!   [`Versioned::TABLE_ROWS`](crate::row::Versioned::TABLE_ROWS)) ask for the server's own
//!   rows instead: `Accept: application/json;as=Table;v=v1;g=meta.k8s.io, application/json`
//!   with `includeObject=Metadata`, so each row is the server printer's cells (TYPE, DATA)
//!   and a `PartialObjectMetadata`; a server that does not print tables answers whole
//!   objects, which decode too.
//!
//! Only slim types that say they can be decoded from protobuf
//! ([`Versioned::PROTOBUF`](crate::row::Versioned::PROTOBUF)) ask for it: the history's
//! recording needs the JSON text, CRDs have no protobuf. Owns those decisions; must not do
//! I/O.

use std::collections::HashMap;
use std::sync::Mutex;

use http::header::{HeaderValue, ACCEPT};

use crate::protobuf::MEDIA_TYPE;

/// How list and watch answers of an informer were encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// `application/json`.
    Json,
    /// `application/vnd.kubernetes.protobuf`.
    Protobuf,
    /// `application/json;as=Table;g=meta.k8s.io;v=v1`: the server's printed rows, each with
    /// its object's metadata only.
    Table,
}

impl Encoding {
    /// The encoding an answer's `Content-Type` names (`None` or anything else: JSON).
    pub fn of(content_type: Option<&HeaderValue>) -> Encoding {
        let Some(v) = content_type.and_then(|v| v.to_str().ok()) else {
            return Encoding::Json;
        };
        if crate::protobuf::is_protobuf(content_type) {
            Encoding::Protobuf
        } else if v.split(';').skip(1).any(|p| p.trim() == "as=Table") {
            Encoding::Table
        } else {
            Encoding::Json
        }
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Encoding::Json => "json",
            Encoding::Protobuf => "protobuf",
            Encoding::Table => "table",
        })
    }
}

/// One context's memory, for the session, of the API groups whose server refused protobuf
/// (shared by the context's informers through `InformerConfig::protobuf`).
#[derive(Debug, Default)]
pub struct Encodings {
    refused: Mutex<HashMap<String, String>>,
}

impl Encodings {
    /// Why `group` is asked for JSON only, if its server refused protobuf.
    pub fn refusal(&self, group: &str) -> Option<String> {
        match self.refused.lock() {
            Ok(g) => g.get(group).cloned(),
            Err(p) => p.into_inner().get(group).cloned(),
        }
    }

    /// Remembers that `group`'s server does not answer protobuf, because of `why` (the first
    /// reason is kept).
    pub fn refuse(&self, group: &str, why: &str) {
        let mut g = match self.refused.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        if !g.contains_key(group) {
            tracing::info!(group, %why, "protobuf off for this API group; JSON from now on");
            g.insert(group.to_owned(), why.to_owned());
        }
    }
}

/// The `Accept` of a list (`watch` false) or watch request asking for protobuf first;
/// metadata-only requests ask for `PartialObjectMetadata[List]` in either encoding.
pub(super) fn protobuf_accept(metadata_only: bool, watch: bool) -> HeaderValue {
    let as_ = match (metadata_only, watch) {
        (false, _) => "",
        (true, false) => ";as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
        (true, true) => ";as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
    };
    let value = format!("{MEDIA_TYPE}{as_}, application/json{as_}");
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("application/json"))
}

/// Asks `req` for protobuf first (see [`protobuf_accept`]).
pub(super) fn ask_protobuf(req: &mut http::Request<Vec<u8>>, metadata_only: bool, watch: bool) {
    req.headers_mut()
        .insert(ACCEPT, protobuf_accept(metadata_only, watch));
}

/// The `Accept` of a request for the server's printed rows (see the module's rules).
pub(super) const TABLE_ACCEPT: &str = "application/json;as=Table;v=v1;g=meta.k8s.io, application/json";

/// Asks `req` for the server's printed rows with each object's metadata only
/// (`includeObject=Metadata`) instead of whole objects.
pub(super) fn ask_table_rows(req: &mut http::Request<Vec<u8>>) {
    req.headers_mut()
        .insert(ACCEPT, HeaderValue::from_static(TABLE_ACCEPT));
    let uri = req.uri().to_string();
    let sep = if uri.contains('?') { '&' } else { '?' };
    if let Ok(with) = format!("{uri}{sep}includeObject=Metadata").parse() {
        *req.uri_mut() = with;
    }
}

/// A copy of `req` (to send again as JSON after a 406).
pub(super) fn copy(req: &http::Request<Vec<u8>>) -> http::Request<Vec<u8>> {
    let mut again = http::Request::new(req.body().clone());
    *again.method_mut() = req.method().clone();
    *again.uri_mut() = req.uri().clone();
    *again.headers_mut() = req.headers().clone();
    again
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_headers_ask_protobuf_first() {
        assert_eq!(
            protobuf_accept(false, false),
            "application/vnd.kubernetes.protobuf, application/json"
        );
        assert_eq!(
            protobuf_accept(true, true),
            "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, \
             application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
        );
    }

    #[test]
    fn table_rows_ask_for_metadata_only_and_are_named_by_their_content_type() {
        let mut req = http::Request::get("/api/v1/secrets?limit=500")
            .body(Vec::new())
            .unwrap();
        ask_table_rows(&mut req);
        assert_eq!(req.uri(), "/api/v1/secrets?limit=500&includeObject=Metadata");
        assert_eq!(req.headers()[ACCEPT], TABLE_ACCEPT);
        let of = |v: &'static str| Encoding::of(Some(&HeaderValue::from_static(v)));
        assert_eq!(
            of("application/json;as=Table;v=v1;g=meta.k8s.io"),
            Encoding::Table
        );
        assert_eq!(of("application/json"), Encoding::Json);
        assert_eq!(of("application/vnd.kubernetes.protobuf"), Encoding::Protobuf);
        assert_eq!(Encoding::of(None), Encoding::Json);
    }

    #[test]
    fn the_first_refusal_of_a_group_is_kept() {
        let e = Encodings::default();
        assert_eq!(e.refusal("apps"), None);
        e.refuse("apps", "406 Not Acceptable");
        e.refuse("apps", "JSON answer");
        assert_eq!(e.refusal("apps").as_deref(), Some("406 Not Acceptable"));
        assert_eq!(e.refusal(""), None);
    }
}
