//! Eviction of one pod through the Eviction API (policy/v1), which honours
//! PodDisruptionBudgets: the server refuses with 429 while a budget allows no disruption.
//! Owns that request and the reading of its answer; must not retry (drain does).

use serde_json::json;

use super::{Body, Request, Target, WriteError};

/// What an eviction request came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Evicted {
    /// Accepted: the pod is being deleted.
    Yes,
    /// 429: a PodDisruptionBudget allows no disruption now; the server's message (`Cannot
    /// evict pod as it would violate the pod's disruption budget.`).
    Refused(String),
    /// 404: the pod is already gone.
    Gone,
}

/// `POST /api/v1/namespaces/NS/pods/P/eviction` with `{"apiVersion":"policy/v1",
/// "kind":"Eviction","metadata":{"name":P,"namespace":NS}[,"deleteOptions":
/// {"gracePeriodSeconds":N}]}`.
pub fn request(pod: &Target, grace_seconds: Option<u32>) -> Request {
    let mut body = json!({
        "apiVersion": "policy/v1",
        "kind": "Eviction",
        "metadata": {"name": pod.name, "namespace": pod.namespace},
    });
    if let Some(g) = grace_seconds {
        body["deleteOptions"] = json!({"gracePeriodSeconds": g});
    }
    Request {
        method: http::Method::POST,
        path: format!("{}/eviction", pod.path()),
        ty: Body::Json,
        body: Some(body),
    }
}

/// Asks the server to evict `pod`.
pub async fn evict(
    client: &kube::Client,
    pod: &Target,
    grace_seconds: Option<u32>,
) -> Result<Evicted, WriteError> {
    match request(pod, grace_seconds).send(client).await {
        Ok(_) => Ok(Evicted::Yes),
        Err(e) if e.code == 429 => Ok(Evicted::Refused(e.message)),
        Err(e) if e.code == 404 => Ok(Evicted::Gone),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::BuiltinKind;

    #[test]
    fn posts_an_eviction() {
        let p = Target::new(BuiltinKind::Pod.into(), Some("a"), "web-1");
        let r = request(&p, Some(5));
        assert_eq!(r.path, "/api/v1/namespaces/a/pods/web-1/eviction");
        let b = r.body.unwrap();
        assert_eq!(b["kind"], "Eviction");
        assert_eq!(b["metadata"], json!({"name": "web-1", "namespace": "a"}));
        assert_eq!(b["deleteOptions"]["gracePeriodSeconds"], 5);
    }
}
