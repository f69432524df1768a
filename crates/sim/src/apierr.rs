//! Errors of the demo server's write paths as the real API server words them: a `Status`
//! with code, reason, message and details (`NotFound`, `AlreadyExists`, `Conflict`,
//! `Invalid` with causes, `BadRequest`, `Forbidden`, `UnsupportedMediaType`,
//! `TooManyRequests`, `MethodNotAllowed`). The wordings follow k8s.io/apimachinery's
//! `api/errors` constructors. Must not read the store or route.

use http::{Response, StatusCode};
use serde_json::{json, Value};

use super::kinds::{KindId, KINDS};
use super::reply::{self, Body};
use super::store::StoreError;

/// One failed API request: what the `Status` object says.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP code (`Status.code`).
    pub code: u16,
    /// `Status.reason` (`Conflict`, `Invalid`, …).
    pub reason: &'static str,
    /// `Status.message`, what kubectl prints after `Error from server (<reason>):`.
    pub message: String,
    /// `Status.details` (name, group, kind = the resource's plural, causes), if any.
    pub details: Option<Value>,
}

/// `pods` or `deployments.apps`: the group-qualified resource the messages name.
pub fn qualified(kind: KindId) -> String {
    let i = &KINDS[kind].info;
    if i.group.is_empty() {
        i.plural.to_owned()
    } else {
        format!("{}.{}", i.plural, i.group)
    }
}

fn details(kind: KindId, name: &str) -> Value {
    let i = &KINDS[kind].info;
    let mut d = json!({"name": name, "kind": i.plural});
    if !i.group.is_empty() {
        d["group"] = json!(i.group);
    }
    d
}

impl ApiError {
    fn new(code: u16, reason: &'static str, message: impl Into<String>, details: Option<Value>) -> ApiError {
        ApiError {
            code,
            reason,
            message: message.into(),
            details,
        }
    }

    /// 404 `pods "x" not found`.
    pub fn not_found(kind: KindId, name: &str) -> ApiError {
        let msg = format!("{} \"{name}\" not found", qualified(kind));
        ApiError::new(404, "NotFound", msg, Some(details(kind, name)))
    }

    /// 404 for a namespace that does not exist: `namespaces "x" not found`.
    pub fn namespace_not_found(ns: &str) -> ApiError {
        ApiError::new(
            404,
            "NotFound",
            format!("namespaces \"{ns}\" not found"),
            Some(json!({"name": ns, "kind": "namespaces"})),
        )
    }

    /// 409 AlreadyExists `pods "x" already exists`.
    pub fn already_exists(kind: KindId, name: &str) -> ApiError {
        let msg = format!("{} \"{name}\" already exists", qualified(kind));
        ApiError::new(409, "AlreadyExists", msg, Some(details(kind, name)))
    }

    /// 409 Conflict: `Operation cannot be fulfilled on <resource> "<name>": <why>`.
    pub fn conflict(kind: KindId, name: &str, why: &str) -> ApiError {
        let msg = format!(
            "Operation cannot be fulfilled on {} \"{name}\": {why}",
            qualified(kind)
        );
        ApiError::new(409, "Conflict", msg, Some(details(kind, name)))
    }

    /// The optimistic-concurrency conflict of an update from a stale resourceVersion.
    pub fn modified(kind: KindId, name: &str) -> ApiError {
        ApiError::conflict(
            kind,
            name,
            "the object has been modified; please apply your changes to the latest version and try again",
        )
    }

    /// 422 Invalid: `Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be
    /// greater than or equal to 0`; `causes` are (field, message) pairs (`reason`
    /// FieldValueInvalid unless the message says Required).
    pub fn invalid(kind: KindId, name: &str, causes: &[(String, String)]) -> ApiError {
        let i = &KINDS[kind].info;
        let qkind = if i.group.is_empty() {
            i.kind.to_owned()
        } else {
            format!("{}.{}", i.kind, i.group)
        };
        let list: Vec<String> = causes.iter().map(|(f, m)| format!("{f}: {m}")).collect();
        let joined = if list.len() == 1 {
            list[0].clone()
        } else {
            format!("[{}]", list.join(", "))
        };
        let mut d = json!({"name": name, "kind": i.kind});
        if !i.group.is_empty() {
            d["group"] = json!(i.group);
        }
        d["causes"] = json!(causes
            .iter()
            .map(|(f, m)| {
                let reason = if m.starts_with("Required") {
                    "FieldValueRequired"
                } else if m.starts_with("Forbidden") {
                    "FieldValueForbidden"
                } else {
                    "FieldValueInvalid"
                };
                json!({"reason": reason, "message": m, "field": f})
            })
            .collect::<Vec<_>>());
        ApiError::new(
            422,
            "Invalid",
            format!("{qkind} \"{name}\" is invalid: {joined}"),
            Some(d),
        )
    }

    /// 400 BadRequest with `message`.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, "BadRequest", message, None)
    }

    /// 403: `pods "x" is forbidden: User "viewer" cannot delete resource "pods" in API group
    /// "" in the namespace "shop"` (no name part for collection verbs; "at the cluster scope"
    /// for cluster-scoped requests).
    pub fn forbidden(
        user: &str,
        verb: &str,
        resource: &str,
        group: &str,
        name: &str,
        ns: Option<&str>,
    ) -> ApiError {
        let base = resource.split('/').next().unwrap_or(resource);
        let qual = if group.is_empty() {
            base.to_owned()
        } else {
            format!("{base}.{group}")
        };
        let subject = if name.is_empty() {
            qual
        } else {
            format!("{qual} \"{name}\"")
        };
        let scope = match ns {
            Some(ns) => format!("in the namespace \"{ns}\""),
            None => "at the cluster scope".to_owned(),
        };
        let msg = format!(
            "{subject} is forbidden: User \"{user}\" cannot {verb} resource \"{resource}\" in API group \"{group}\" {scope}"
        );
        let mut d = json!({"kind": base});
        if !name.is_empty() {
            d["name"] = json!(name);
        }
        if !group.is_empty() {
            d["group"] = json!(group);
        }
        ApiError::new(403, "Forbidden", msg, Some(d))
    }

    /// 415: `the body of the request was in an unknown format - accepted media types include:
    /// …` (negotiation's `errUnsupportedMediaType`).
    pub fn unsupported_media(accepted: &[&str]) -> ApiError {
        ApiError::new(
            415,
            "UnsupportedMediaType",
            format!(
                "the body of the request was in an unknown format - accepted media types include: {}",
                accepted.join(", ")
            ),
            None,
        )
    }

    /// 405 for a verb the resource does not serve.
    pub fn method_not_allowed(method: &str) -> ApiError {
        ApiError::new(
            405,
            "MethodNotAllowed",
            format!("the server does not allow this method on the requested resource ({method})"),
            None,
        )
    }

    /// 429 TooManyRequests with `message` and `causes` in the details.
    pub fn too_many_requests(message: impl Into<String>, causes: Value) -> ApiError {
        ApiError::new(429, "TooManyRequests", message, Some(json!({"causes": causes})))
    }

    /// Re-words a store failure for `kind`/`name` (the store only knows keys).
    pub fn from_store(e: StoreError, kind: KindId, name: &str) -> ApiError {
        match e {
            StoreError::NotFound(_) => ApiError::not_found(kind, name),
            StoreError::AlreadyExists(_) => ApiError::already_exists(kind, name),
            StoreError::Conflict(_) => ApiError::modified(kind, name),
            StoreError::Invalid(m) => {
                ApiError::invalid(kind, name, &[("metadata".into(), format!("Invalid value: {m}"))])
            }
        }
    }

    /// The `Status` object.
    pub fn status(&self) -> Value {
        let mut s = json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": self.message, "reason": self.reason, "code": self.code
        });
        if let Some(d) = &self.details {
            s["details"] = d.clone();
        }
        s
    }

    /// The error answer.
    pub fn response(&self) -> Response<Body> {
        reply::bytes(
            StatusCode::from_u16(self.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            "application/json",
            self.status().to_string(),
        )
    }
}

/// A store failure before the kind is known (inside a store closure); re-worded by
/// [`ApiError::from_store`] where the handler knows the kind. Keeps the store's words.
impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::NotFound(k) => ApiError::new(404, "NotFound", format!("{k} not found"), None),
            StoreError::AlreadyExists(k) => {
                ApiError::new(409, "AlreadyExists", format!("{k} already exists"), None)
            }
            StoreError::Conflict(k) => ApiError::new(
                409,
                "Conflict",
                format!("{k}: the object has been modified"),
                None,
            ),
            StoreError::Invalid(m) => ApiError::new(422, "Invalid", m, None),
        }
    }
}

/// `Result` of the write paths.
pub type ApiResult<T> = Result<T, ApiError>;
