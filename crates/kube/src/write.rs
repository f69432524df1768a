//! Writes to the API server, one module per operation: delete, scale (the `scale`
//! subresource), rollout restart, cordon/uncordon, CronJob trigger and suspend, replace
//! (guarded by resourceVersion), eviction (policy/v1), drain, rollback to a ReplicaSet
//! revision, and the `SelfSubjectAccessReview` the RBAC gate asks. Each is an async fn with
//! a deadline that returns the server's own error message verbatim (a 403 names verb and
//! resource). Owns request shapes; must not import the UI, confirm anything, or relist (the
//! informers show the outcome).

pub mod access;
pub mod cordon;
pub mod cronjob;
pub mod delete;
pub mod drain;
pub mod evict;
pub mod replace;
pub mod restart;
pub mod rollback;
pub mod scale;

use std::time::Duration;

use serde_json::Value;

use super::kind::Kind;

/// The field manager every write names (`?fieldManager=ktui`), so `managedFields` says who
/// changed what. DELETE and eviction have no such parameter in the API.
pub const FIELD_MANAGER: &str = "ktui";

/// Deadline of one write request.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// One object a write is aimed at.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Target {
    /// Its kind (GVR).
    pub kind: Kind,
    /// `metadata.namespace`; `None` for cluster-scoped kinds.
    pub namespace: Option<String>,
    /// `metadata.name`.
    pub name: String,
}

impl Target {
    /// `kind`'s object `name` in `namespace` (ignored for cluster-scoped kinds).
    pub fn new(kind: Kind, namespace: Option<&str>, name: &str) -> Target {
        let namespace = namespace.filter(|_| kind.namespaced()).map(str::to_owned);
        Target {
            kind,
            namespace,
            name: name.to_owned(),
        }
    }

    /// URL path of the object: `/api/v1/namespaces/a/pods/web`, `/api/v1/nodes/n1`.
    pub fn path(&self) -> String {
        format!("{}/{}", self.kind.url_path(self.namespace.as_deref()), self.name)
    }

    /// `pod/web` (singular kind and name), as kubectl prints it.
    pub fn label(&self) -> String {
        format!("{}/{}", self.kind.singular(), self.name)
    }
}

/// Why a write failed: the API server's `Status.message` as sent (`pods "web" is forbidden:
/// User "v" cannot delete resource "pods" in API group "" in the namespace "team-a"`), or a
/// transport error / deadline in one line. Not sanitized: the UI sanitizes before drawing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError {
    /// HTTP status code; 0 when no answer came.
    pub code: u16,
    /// `Status.reason` (`Forbidden`, `Conflict`, `Invalid`, `TooManyRequests`), if any.
    pub reason: String,
    /// The message.
    pub message: String,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WriteError {}

impl WriteError {
    /// An error that did not come from the server.
    pub fn local(message: impl Into<String>) -> WriteError {
        WriteError {
            code: 0,
            reason: String::new(),
            message: message.into(),
        }
    }
}

/// The body types a write sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// `application/json` (POST, PUT, DELETE options).
    Json,
    /// `application/merge-patch+json` (RFC 7386).
    MergePatch,
    /// `application/strategic-merge-patch+json`.
    StrategicMergePatch,
    /// `application/json-patch+json` (RFC 6902).
    JsonPatch,
}

impl Body {
    fn content_type(self) -> &'static str {
        match self {
            Body::Json => "application/json",
            Body::MergePatch => "application/merge-patch+json",
            Body::StrategicMergePatch => "application/strategic-merge-patch+json",
            Body::JsonPatch => "application/json-patch+json",
        }
    }
}

/// One request as data: what a write sends (method, path, body), built by a pure function
/// of each operation's module so its shape can be tested and reported.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// HTTP method.
    pub method: http::Method,
    /// Path and query.
    pub path: String,
    /// Body type.
    pub ty: Body,
    /// The body, if any.
    pub body: Option<Value>,
}

impl Request {
    /// Sends it (see [`send`]).
    pub async fn send(&self, client: &kube::Client) -> Result<Value, WriteError> {
        send(
            client,
            self.method.clone(),
            &self.path,
            self.ty,
            self.body.as_ref(),
        )
        .await
    }
}

/// `path` with `?fieldManager=ktui` (or `&…`) appended.
pub fn with_manager(path: &str) -> String {
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}fieldManager={FIELD_MANAGER}")
}

/// Sends one request (`method path` with `body` of type `ty`) within [`TIMEOUT`]; the
/// decoded answer, or the server's error verbatim.
pub async fn send(
    client: &kube::Client,
    method: http::Method,
    path: &str,
    ty: Body,
    body: Option<&Value>,
) -> Result<Value, WriteError> {
    let bytes = match body {
        Some(v) => serde_json::to_vec(v).map_err(|e| WriteError::local(e.to_string()))?,
        None => Vec::new(),
    };
    let mut req = http::Request::builder().method(method).uri(path);
    if body.is_some() {
        req = req.header(http::header::CONTENT_TYPE, ty.content_type());
    }
    let req = req.body(bytes).map_err(|e| WriteError::local(e.to_string()))?;
    let method = req.method().clone();
    let started = std::time::Instant::now();
    let result = match tokio::time::timeout(TIMEOUT, client.request::<Value>(req)).await {
        Err(_) => Err(WriteError::local(format!(
            "no answer from the API server within {}s",
            TIMEOUT.as_secs()
        ))),
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(from_kube(e)),
    };
    // Method, path and outcome only: bodies may hold Secret data.
    let ms = started.elapsed().as_millis();
    match &result {
        Ok(_) => tracing::info!(%method, path, ms, "request done"),
        Err(e) => tracing::info!(%method, path, ms, code = e.code, "request failed"),
    }
    result
}

/// GETs `path` within [`TIMEOUT`].
pub async fn get(client: &kube::Client, path: &str) -> Result<Value, WriteError> {
    send(client, http::Method::GET, path, Body::Json, None).await
}

/// A client error as a [`WriteError`]: an API `Status` verbatim, else the error in one line.
pub fn from_kube(e: kube::Error) -> WriteError {
    match e {
        kube::Error::Api(s) => WriteError {
            code: s.code,
            reason: s.reason.clone(),
            message: s.message.clone(),
        },
        other => WriteError::local(super::failure::words(&other)),
    }
}

/// Query-string encoding of one value (label selectors, field selectors).
pub fn encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::BuiltinKind;

    #[test]
    fn paths_and_labels() {
        let t = Target::new(BuiltinKind::Pod.into(), Some("a"), "web");
        assert_eq!(t.path(), "/api/v1/namespaces/a/pods/web");
        assert_eq!(t.label(), "pod/web");
        let n = Target::new(BuiltinKind::Node.into(), Some("a"), "n1");
        assert_eq!((n.path(), n.namespace), ("/api/v1/nodes/n1".to_owned(), None));
        assert_eq!(with_manager("/x"), "/x?fieldManager=ktui");
        assert_eq!(with_manager("/x?a=1"), "/x?a=1&fieldManager=ktui");
    }
}
