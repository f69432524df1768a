//! Port-forward sessions of the simulated responder over the kubelet's websocket protocol
//! (`v4.channel.k8s.io`): port `i` of the `ports` query has data channel `2i` and error
//! channel `2i+1`, each opened by a message holding the port number (2 bytes, little
//! endian). A declared container port answers one HTTP request (or any first bytes) with a
//! small response naming the demo pod and saying it is simulated, then the stream closes, as
//! a server closing its connection would; a port no container declares gets the kubelet's
//! "connection refused" on its error channel. Must not touch the store.

use futures::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use super::remote::Ws;
use super::shell::Container;
use super::Streams;

/// The most request bytes read before answering anyway.
const MAX_REQUEST: usize = 16 << 10;

/// Runs one port-forward session until every port has answered or the client leaves.
pub(super) async fn serve(ws: Ws, c: Container, q: Streams, declared: Vec<(u16, String)>) {
    let (mut tx, mut rx) = ws.split();
    let ports = &q.ports;
    let send = |ch: usize, bytes: &[u8]| {
        let mut m = Vec::with_capacity(bytes.len() + 1);
        m.push(u8::try_from(ch).unwrap_or(u8::MAX));
        m.extend_from_slice(bytes);
        Message::binary(m)
    };
    for (i, p) in ports.iter().enumerate() {
        for ch in [2 * i, 2 * i + 1] {
            if tx.send(send(ch, &p.to_le_bytes())).await.is_err() {
                return;
            }
        }
    }
    // Per port: the request bytes so far, `None` once answered.
    let mut pending: Vec<Option<Vec<u8>>> = vec![Some(Vec::new()); ports.len()];
    for (i, p) in ports.iter().enumerate() {
        if !declared.iter().any(|(d, _)| d == p) {
            pending[i] = None;
            if tx
                .send(send(2 * i + 1, refused(&c, *p, &declared).as_bytes()))
                .await
                .is_err()
            {
                return;
            }
        }
    }
    while pending.iter().any(Option::is_some) {
        let bytes = match rx.next().await {
            Some(Ok(Message::Binary(b))) => b,
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
            Some(Ok(_)) => continue,
        };
        let Some((&ch, data)) = bytes.split_first() else {
            continue;
        };
        let i = usize::from(ch) / 2;
        if ch % 2 == 1 || i >= ports.len() {
            continue;
        }
        let Some(buf) = pending[i].as_mut() else { continue };
        buf.extend_from_slice(data);
        if complete(buf) {
            let name = declared
                .iter()
                .find(|(d, _)| *d == ports[i])
                .map_or("", |(_, n)| n.as_str());
            let answer = respond(&c, ports[i], name, buf);
            pending[i] = None;
            if tx.send(send(2 * i, &answer)).await.is_err() {
                return;
            }
        }
    }
    let _ = tx.send(super::upgrade::normal_close()).await;
}

/// Whether enough of the request is there to answer: an HTTP head's end, any bytes that are
/// not HTTP, or the size bound.
fn complete(buf: &[u8]) -> bool {
    buf.windows(4).any(|w| w == b"\r\n\r\n")
        || buf.len() >= MAX_REQUEST
        || (!buf.is_empty() && !http_like(buf))
}

fn http_like(buf: &[u8]) -> bool {
    const METHODS: &[&[u8]] = &[b"GET", b"HEAD", b"POST", b"PUT", b"PATCH", b"DELETE", b"OPTIONS"];
    METHODS
        .iter()
        .any(|m| buf.starts_with(m) || m.starts_with(&buf[..buf.len().min(m.len())]))
}

/// The answer on port `port` (named `name` in the pod spec) to the first bytes `req`.
pub fn respond(c: &Container, port: u16, name: &str, req: &[u8]) -> Vec<u8> {
    let named = if name.is_empty() {
        String::new()
    } else {
        format!(" ({name})")
    };
    let what = format!(
        "ktui demo: simulated response from pod {ns}/{pod}, container {cn}, port {port}{named}.\n\
         No real container runs here: the demo cluster answers port-forwards itself.\n",
        ns = c.namespace,
        pod = c.pod,
        cn = c.name,
    );
    if !http_like(req) {
        return what.into_bytes();
    }
    let first = String::from_utf8_lossy(req.split(|b| *b == b'\n').next().unwrap_or_default())
        .trim()
        .to_owned();
    let body = format!("{what}Request: {}\n", ktui_kube::sanitize::sanitize(&first));
    let head_only = req.starts_with(b"HEAD");
    let mut out = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\
         X-Ktui-Demo: simulated\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    if !head_only {
        out.extend(body.into_bytes());
    }
    out
}

/// The kubelet's error for a port nothing listens on, plus what the demo serves.
fn refused(c: &Container, port: u16, declared: &[(u16, String)]) -> String {
    let list: Vec<String> = declared.iter().map(|(p, _)| p.to_string()).collect();
    format!(
        "error forwarding port {port} to pod {pod}: failed to connect to localhost:{port} inside the \
         pod's network namespace: connection refused (the ktui demo's simulated container listens \
         only on its declared ports: {})",
        if list.is_empty() {
            "none".to_owned()
        } else {
            list.join(", ")
        },
        pod = c.pod,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c() -> Container {
        Container {
            namespace: "shop".into(),
            pod: "web-1".into(),
            name: "web".into(),
            ..Default::default()
        }
    }

    #[test]
    fn http_requests_get_a_labelled_response_once_their_head_is_in() {
        assert!(!complete(b"GET / HTTP/1.1\r\nHost: x\r\n"));
        assert!(complete(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        assert!(!complete(b"GE"));
        assert!(complete(b"\x00\x01binary"));
        let r = String::from_utf8(respond(&c(), 8080, "http", b"GET /x HTTP/1.1\r\n\r\n")).unwrap();
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        assert!(r.contains("simulated response from pod shop/web-1, container web, port 8080 (http)"));
        assert!(r.ends_with("Request: GET /x HTTP/1.1\n"));
        let (head, body) = r.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("Content-Length: {}", body.len())));
        let raw = String::from_utf8(respond(&c(), 5432, "", b"\x00\x00\x00\x08")).unwrap();
        assert!(raw.starts_with("ktui demo: simulated response from pod shop/web-1"));
    }

    #[test]
    fn an_undeclared_port_is_refused_in_the_kubelets_words() {
        let m = refused(&c(), 81, &[(8080, "http".into())]);
        assert!(m.starts_with("error forwarding port 81 to pod web-1"), "{m}");
        assert!(m.contains("connection refused") && m.ends_with("declared ports: 8080)"));
    }
}
