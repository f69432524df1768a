//! Response helpers of the demo server: JSON bodies, `Status` error objects with the real
//! reasons and codes, and the body type. Must not route or read the store.

use bytes::Bytes;
use http::{header, Response, StatusCode};
use http_body_util::{combinators::BoxBody, BodyExt, Full};
use serde_json::{json, Value};

/// Body of every response: whole JSON documents or a watch stream.
pub type Body = BoxBody<Bytes, std::io::Error>;

/// A response with a complete body.
pub fn bytes(code: StatusCode, content_type: &str, body: impl Into<Bytes>) -> Response<Body> {
    let mut res = Response::new(Full::new(body.into()).map_err(|never| match never {}).boxed());
    *res.status_mut() = code;
    if let Ok(v) = header::HeaderValue::from_str(content_type) {
        res.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    res
}

/// 200 with a JSON document.
pub fn json(v: &Value) -> Response<Body> {
    bytes(StatusCode::OK, "application/json", v.to_string())
}

/// The reason string the API uses for an HTTP error code.
pub fn reason_for(code: u16) -> &'static str {
    match code {
        400 => "BadRequest",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "NotFound",
        405 => "MethodNotAllowed",
        406 => "NotAcceptable",
        409 => "AlreadyExists",
        410 => "Expired",
        422 => "Invalid",
        429 => "TooManyRequests",
        503 => "ServiceUnavailable",
        504 => "Timeout",
        _ => "InternalError",
    }
}

/// A `Status` failure object.
pub fn status_body(code: u16, message: &str, details: Option<Value>) -> Value {
    let mut s = json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": message, "reason": reason_for(code), "code": code
    });
    if let Some(d) = details {
        s["details"] = d;
    }
    s
}

/// An error answer carrying a `Status`.
pub fn status(code: u16, message: &str) -> Response<Body> {
    status_with(code, message, None)
}

/// An error answer carrying a `Status` with `details`.
pub fn status_with(code: u16, message: &str, details: Option<Value>) -> Response<Body> {
    let body = status_body(code, message, details);
    bytes(
        StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        "application/json",
        body.to_string(),
    )
}

/// `404` for an object: `pods "x" not found`, with the details kubectl prints.
pub fn not_found(plural: &str, group: &str, name: &str) -> Response<Body> {
    let mut details = json!({"name": name, "kind": plural});
    if !group.is_empty() {
        details["group"] = json!(group);
    }
    let what = if group.is_empty() {
        plural.to_owned()
    } else {
        format!("{plural}.{group}")
    };
    status_with(404, &format!("{what} \"{name}\" not found"), Some(details))
}

/// A fault-injected error: 429 with `Retry-After: 1`, others as plain failures.
pub fn injected(code: u16) -> Response<Body> {
    let msg = match code {
        429 => "Too many requests, please try again later. (injected by ktui demo faults)",
        _ => "an error on the server (\"injected by ktui demo faults\") has prevented the request from succeeding",
    };
    let mut res = status(code, msg);
    if code == 429 {
        res.headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
    }
    res
}
