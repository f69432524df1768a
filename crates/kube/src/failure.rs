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
        kube::Error::HyperError(_) | kube::Error::Service(_) => Failure::Unreachable(words(err)),
        kube::Error::Auth(e) => Failure::Other(one_line(&format!("credentials: {}", causes(e)))),
        _ => Failure::Other(words(err)),
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

/// A client error in one line, with its causes: the API's `Status` message when there is
/// one, else kube's error and what caused it, each said once (`client error (Connect):
/// invalid peer certificate: UnknownIssuer`; `to_string` alone says `ServiceError: client
/// error (Connect)` and drops the reason). Sanitized and cut like [`one_line`].
pub fn words(err: &kube::Error) -> String {
    match err {
        kube::Error::Api(s) => one_line(&s.message),
        // kube's `ServiceError: ` prefix says nothing to a user.
        kube::Error::Service(e) => one_line(&causes(e.as_ref())),
        other => one_line(&causes(other)),
    }
}

/// The messages of `e` and its sources, `: `-joined, each left out when the one before
/// already says it (kube's and hyper's errors often repeat their source in their own text).
pub fn causes(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut cur = Some(e);
    while let Some(err) = cur {
        let text = err.to_string();
        if !parts.iter().any(|p| p.contains(text.as_str())) {
            // A source that restates the part before it replaces nothing; a part that only
            // prefixes its source is kept.
            parts.push(text);
        }
        cur = err.source();
    }
    // Drop the tail a previous part already ends with (`…: No such file (os error 2)`).
    let mut out: Vec<String> = Vec::new();
    for p in parts {
        match out.last_mut() {
            Some(last) if last.ends_with(&p) => {}
            Some(last) if p.starts_with(last.as_str()) => *last = p,
            _ => out.push(p),
        }
    }
    out.join(": ")
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
