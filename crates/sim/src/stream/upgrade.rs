//! The websocket handshake of the streaming subresources: reads the client's
//! `Sec-WebSocket-Protocol` offer, chooses a subprotocol the simulated responder speaks,
//! answers 101 with tokio-tungstenite's accept key and runs the session on the upgraded
//! connection. Must not frame websocket messages itself (tokio-tungstenite does).

use http::{header, HeaderMap, HeaderValue, Request, Response, StatusCode};
use http_body_util::{BodyExt, Empty};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::WebSocketStream;
use tokio_util::sync::CancellationToken;

use super::{Job, JobKind};
use crate::apierr::ApiError;
use crate::reply::Body;

/// The subprotocols exec and attach speak, preferred first: `v5` adds the stdin close
/// signal; both carry the exit `Status` on channel 3.
pub const EXEC_PROTOCOLS: &[&str] = &["v5.channel.k8s.io", "v4.channel.k8s.io"];
/// The subprotocols port-forward speaks (the kubelet's: two channels a port, the port number
/// first on each).
pub const FORWARD_PROTOCOLS: &[&str] = &["v4.channel.k8s.io", "portforward.k8s.io"];

/// What the client offered: the websocket subprotocols of a websocket upgrade. `Err` is the
/// 400 for a request that is no websocket upgrade (SPDY, or none at all).
pub fn offered(headers: &HeaderMap) -> Result<Vec<String>, ApiError> {
    let upgrade = headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if upgrade.to_ascii_lowercase().starts_with("spdy") {
        return Err(ApiError::bad_request(
            "the ktui demo cluster's simulated exec, attach and port-forward speak websockets \
             (v4/v5.channel.k8s.io), not SPDY",
        ));
    }
    if !upgrade.eq_ignore_ascii_case("websocket") || !headers.contains_key(header::SEC_WEBSOCKET_KEY) {
        return Err(ApiError::bad_request("Upgrade request required"));
    }
    Ok(headers
        .get_all(header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect())
}

/// The first protocol of the client's offer that `served` has (the client's order, as the
/// API server's wsstream chooses). `Err` is the 400 when there is none.
pub fn choose(offered: &[String], served: &[&'static str]) -> Result<&'static str, ApiError> {
    offered
        .iter()
        .find_map(|o| served.iter().find(|s| **s == o.as_str()).copied())
        .ok_or_else(|| {
            let tunnel = offered.iter().any(|o| o.starts_with("SPDY/"));
            ApiError::bad_request(if tunnel {
                format!(
                    "the ktui demo cluster's simulated responder does not tunnel SPDY over websockets; \
                     it speaks {}",
                    served.join(", ")
                )
            } else {
                format!(
                    "unable to upgrade: none of the requested subprotocols {offered:?} is served; \
                     the ktui demo cluster speaks {}",
                    served.join(", ")
                )
            })
        })
}

/// A close frame with code 1000 (normal closure): Go clients (kubectl's gorilla websocket)
/// read any other code, even 1005 "no status", as an error.
pub(super) fn normal_close() -> tokio_tungstenite::tungstenite::Message {
    use tokio_tungstenite::tungstenite::protocol::frame::{coding::CloseCode, CloseFrame};
    tokio_tungstenite::tungstenite::Message::Close(Some(CloseFrame {
        code: CloseCode::Normal,
        reason: "".into(),
    }))
}

/// The 101 answer; the session runs on the upgraded connection until it ends or the server
/// stops.
pub(super) fn upgrade(mut req: Request<Incoming>, job: Job, cancel: CancellationToken) -> Response<Body> {
    let Some(key) = req.headers().get(header::SEC_WEBSOCKET_KEY).cloned() else {
        return ApiError::bad_request("Upgrade request required").response();
    };
    let accept = derive_accept_key(key.as_bytes());
    let on = hyper::upgrade::on(&mut req);
    let protocol = job.protocol;
    tokio::spawn(async move {
        let upgraded = match on.await {
            Ok(u) => u,
            Err(e) => {
                tracing::debug!(error = %e, "demo server: websocket upgrade failed");
                return;
            }
        };
        let ws = WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, None).await;
        let v5 = protocol == "v5.channel.k8s.io";
        let session = async move {
            match job.kind {
                JobKind::Exec { c, q, shell } => super::remote::exec(ws, v5, c, q, shell).await,
                JobKind::Attach { c, q, pod } => super::remote::attach(ws, v5, c, q, pod).await,
                JobKind::Forward { c, q, declared } => super::forward::serve(ws, c, q, declared).await,
            }
        };
        tokio::select! {
            _ = session => {}
            _ = cancel.cancelled() => {}
        }
    });
    let mut res = Response::new(Empty::new().map_err(|never| match never {}).boxed());
    *res.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = res.headers_mut();
    h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    h.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    h.insert(header::SEC_WEBSOCKET_PROTOCOL, HeaderValue::from_static(protocol));
    if let Ok(v) = HeaderValue::from_str(&accept) {
        h.insert(header::SEC_WEBSOCKET_ACCEPT, v);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_clients_order_chooses_among_what_is_served() {
        // kube-rs offers v5 then v4 for every stream; port-forward has no v5.
        let kube = offer(&["v5.channel.k8s.io", "v4.channel.k8s.io"]);
        assert_eq!(choose(&kube, EXEC_PROTOCOLS).unwrap(), "v5.channel.k8s.io");
        assert_eq!(choose(&kube, FORWARD_PROTOCOLS).unwrap(), "v4.channel.k8s.io");
        let e = choose(&offer(&["SPDY/3.1+portforward.k8s.io"]), FORWARD_PROTOCOLS).unwrap_err();
        assert_eq!(e.code, 400);
        assert!(e.message.contains("does not tunnel SPDY"), "{}", e.message);
        assert!(choose(&offer(&["base64.channel.k8s.io"]), EXEC_PROTOCOLS).is_err());
    }

    #[test]
    fn only_websocket_upgrades_are_taken() {
        let mut h = HeaderMap::new();
        assert_eq!(offered(&h).unwrap_err().message, "Upgrade request required");
        h.insert(header::UPGRADE, HeaderValue::from_static("SPDY/3.1"));
        assert!(offered(&h).unwrap_err().message.contains("not SPDY"));
        h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        h.insert(
            header::SEC_WEBSOCKET_KEY,
            HeaderValue::from_static("dGhlIHNhbXBsZSBub25jZQ=="),
        );
        h.append(
            header::SEC_WEBSOCKET_PROTOCOL,
            HeaderValue::from_static("v5.channel.k8s.io, v4.channel.k8s.io"),
        );
        assert_eq!(offered(&h).unwrap(), ["v5.channel.k8s.io", "v4.channel.k8s.io"]);
    }
}
