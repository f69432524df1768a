//! Why a request to the API server failed, in the terms the list-watch loop decides on
//! (relist, back off slowly, show unreachable), and errors flattened to one safe line. Owns
//! that classification; must not retry or sleep (the loop does).

/// Why a request failed, as far as the loop's decisions go.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// 410: the resourceVersion (or continue token) is too old; relist.
    Gone,
    /// 403 on `verb`.
    Forbidden(&'static str),
    /// 404: the resource is not served.
    NotFound,
    /// 400: the request itself is invalid (a bad selector); the same request will fail again.
    Rejected(String),
    /// No HTTP answer at all (connect, TLS, DNS, timeout before any response).
    Unreachable(String),
    /// Anything else (5xx, 429, 401, decode errors, broken stream).
    Other(String),
}

/// The loop's view of a client error during `verb`.
pub(super) fn classify(err: &kube::Error, verb: &'static str) -> Failure {
    match err {
        kube::Error::Api(status) => status_failure(status.code, &status.message, verb),
        kube::Error::HyperError(e) => Failure::Unreachable(one_line(&e.to_string())),
        kube::Error::Service(e) => Failure::Unreachable(one_line(&source_chain(e.as_ref()))),
        kube::Error::Auth(e) => Failure::Other(one_line(&format!("credentials: {e}"))),
        other => Failure::Other(one_line(&other.to_string())),
    }
}

/// The loop's view of an API status `code` (with its message) during `verb`.
pub(super) fn status_failure(code: u16, message: &str, verb: &'static str) -> Failure {
    match code {
        410 => Failure::Gone,
        403 => Failure::Forbidden(verb),
        404 => Failure::NotFound,
        400 => Failure::Rejected(one_line(message)),
        401 => Failure::Other("credentials expired or invalid (401)".into()),
        _ => Failure::Other(one_line(&format!("{code}: {message}"))),
    }
}

/// An error and its sources, `: `-joined (hyper hides the cause behind `Service`).
fn source_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        out.push_str(": ");
        out.push_str(&s.to_string());
        cur = s.source();
    }
    out
}

/// `s` sanitized and cut to 160 characters (with `...`), for a header or footer line.
pub(crate) fn one_line(s: &str) -> String {
    let flat = crate::sanitize::sanitize(s).into_owned();
    if flat.chars().count() > 160 {
        flat.chars().take(157).chain("...".chars()).collect()
    } else {
        flat
    }
}
