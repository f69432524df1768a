//! `GET /api/v1/namespaces/NS/pods/NAME/log` of the demo server: the container's lines (see
//! `logtext`) with `container`, `follow`, `previous`, `timestamps`, `tailLines`,
//! `sinceSeconds`, `sinceTime` and `limitBytes` as the kubelet applies them, the API's 400
//! messages (waiting to start, no previous instance, container name needed), and a follow
//! stream that ends when the instance ends. Must not write to the store.

use std::sync::OnceLock;
use std::time::Duration;

use bytes::Bytes;
use http::{Response, StatusCode};
use http_body_util::{BodyExt, StreamBody};
use hyper::body::Frame;
use serde_json::Value;
use tokio::sync::mpsc;

use super::http::ServerState;
use super::kinds::id;
use super::logtext::{instance, rfc3339_nanos, Instance, Nanos};
use super::reply::{self, Body};

static BOOT: OnceLock<Nanos> = OnceLock::new();

/// Marks when the demo started (instances running then get history before it).
pub fn boot() -> Nanos {
    *BOOT.get_or_init(|| jiff::Timestamp::now().as_nanosecond())
}

fn now() -> Nanos {
    jiff::Timestamp::now().as_nanosecond()
}

/// The parameters of a log request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogQuery {
    pub container: Option<String>,
    pub follow: bool,
    pub previous: bool,
    pub timestamps: bool,
    pub tail: Option<usize>,
    pub since: Option<Nanos>,
    pub limit_bytes: Option<usize>,
}

/// Parses the query string; errors are the API's 400 messages.
pub fn parse_query(query: &str) -> Result<LogQuery, String> {
    let mut q = LogQuery::default();
    let mut since_seconds = None;
    let mut since_time = None;
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        let flag = v == "true" || v == "1";
        match &*k {
            "container" => q.container = Some(v.into_owned()).filter(|c| !c.is_empty()),
            "follow" => q.follow = flag,
            "previous" => q.previous = flag,
            "timestamps" => q.timestamps = flag,
            "tailLines" => {
                q.tail = Some(
                    v.parse::<i64>()
                        .map_err(|_| format!("invalid tailLines {v:?}"))?
                        .max(0) as usize,
                )
            }
            "sinceSeconds" => {
                let s = v
                    .parse::<i64>()
                    .map_err(|_| format!("invalid sinceSeconds {v:?}"))?;
                if s < 1 {
                    return Err("sinceSeconds: Invalid value: must be greater than 0".into());
                }
                since_seconds = Some(s);
            }
            "sinceTime" => {
                since_time =
                    Some(super::logtext::nanos(&v).ok_or_else(|| format!("invalid sinceTime {v:?}"))?)
            }
            "limitBytes" => {
                let b = v
                    .parse::<i64>()
                    .map_err(|_| format!("invalid limitBytes {v:?}"))?;
                if b < 1 {
                    return Err("limitBytes: Invalid value: must be greater than 0".into());
                }
                q.limit_bytes = Some(b as usize);
            }
            _ => {}
        }
    }
    if since_seconds.is_some() && since_time.is_some() {
        return Err("at most one of sinceTime or sinceSeconds may be specified".into());
    }
    q.since = since_time.or(since_seconds.map(|s| now() - Nanos::from(s) * 1_000_000_000));
    Ok(q)
}

/// Answers one log request.
pub fn serve(state: &ServerState, ns: &str, name: &str, query: &str) -> Response<Body> {
    let q = match parse_query(query) {
        Ok(q) => q,
        Err(e) => return reply::status(400, &e),
    };
    let Some(stored) = state.store.get(id::POD, ns, name) else {
        return reply::not_found("pods", "", name);
    };
    let Ok(pod) = serde_json::from_slice::<Value>(&stored.bytes) else {
        return reply::status(500, "stored pod is not JSON");
    };
    let container = match pick_container(&pod, q.container.as_deref()) {
        Ok(c) => c,
        Err(e) => return reply::status(400, &e),
    };
    let inst = match instance(&pod, &container, q.previous, boot()) {
        Ok(i) => i,
        Err(e) => return reply::status(400, &e),
    };
    let t = now();
    let upto = inst.end.map_or(t, |e| e.min(t));
    let mut from = q.since.unwrap_or(inst.start).max(inst.start);
    if let Some(n) = q.tail {
        // Only the lines the tail keeps are generated (a generator has millions).
        from = from.max(inst.tail_from(n, upto));
    }
    let mut lines = inst.lines(from, upto);
    if let Some(n) = q.tail {
        let skip = lines.len().saturating_sub(n);
        lines.drain(..skip);
    }
    let mut out = Writer::new(&q);
    let mut first = Vec::new();
    for (ts, text) in &lines {
        if !out.line(&mut first, *ts, text) {
            break;
        }
    }
    let live = q.follow && !q.previous && inst.end.is_none() && !out.full();
    if !live {
        return reply::bytes(StatusCode::OK, "text/plain", first);
    }
    let (tx, mut rx) = mpsc::channel::<Result<Frame<Bytes>, std::io::Error>>(64);
    let cancel = state.cancel.clone();
    let store = state.store.clone();
    let (ns, name) = (ns.to_owned(), name.to_owned());
    let last = lines.last().map_or(from - 1, |(t, _)| *t).max(upto);
    tokio::spawn(async move {
        if !first.is_empty() && tx.send(Ok(Frame::data(Bytes::from(first)))).await.is_err() {
            return;
        }
        tokio::select! {
            _ = cancel.cancelled() => {}
            _ = follow(store, ns, name, container, inst, last, out, tx) => {}
        }
    });
    let body = StreamBody::new(futures::stream::poll_fn(move |cx| rx.poll_recv(cx)));
    let mut res = Response::new(BodyExt::boxed(body));
    res.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain"),
    );
    res
}

/// The container a request means: the named one, else the only one.
fn pick_container(pod: &Value, asked: Option<&str>) -> Result<String, String> {
    let names = |k: &str| -> Vec<String> {
        pod["spec"][k]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["name"].as_str().map(str::to_owned))
            .collect()
    };
    let (app, init) = (names("containers"), names("initContainers"));
    let pod_name = pod["metadata"]["name"].as_str().unwrap_or_default();
    match asked {
        Some(c) if app.iter().chain(&init).any(|n| n == c) => Ok(c.to_owned()),
        Some(c) => Err(format!("container {c} is not valid for pod {pod_name}")),
        None if app.len() == 1 && init.is_empty() => Ok(app[0].clone()),
        None => Err(format!(
            "a container name must be specified for pod {pod_name}, choose one of: [{}]{}",
            app.join(" "),
            if init.is_empty() {
                String::new()
            } else {
                format!(" or one of the init containers: [{}]", init.join(" "))
            }
        )),
    }
}

/// Formats lines, honouring `timestamps` and `limitBytes`.
struct Writer {
    timestamps: bool,
    left: Option<usize>,
}

impl Writer {
    fn new(q: &LogQuery) -> Writer {
        Writer {
            timestamps: q.timestamps,
            left: q.limit_bytes,
        }
    }

    fn full(&self) -> bool {
        self.left == Some(0)
    }

    /// Appends one line; false once `limitBytes` is used up (the line may be cut).
    fn line(&mut self, out: &mut Vec<u8>, ts: Nanos, text: &str) -> bool {
        let mut l = String::with_capacity(text.len() + 32);
        if self.timestamps {
            l.push_str(&rfc3339_nanos(ts));
            l.push(' ');
        }
        l.push_str(text);
        l.push('\n');
        match &mut self.left {
            None => out.extend_from_slice(l.as_bytes()),
            Some(left) => {
                let n = l.len().min(*left);
                out.extend_from_slice(&l.as_bytes()[..n]);
                *left -= n;
                if *left == 0 {
                    return false;
                }
            }
        }
        true
    }
}

/// Streams the instance's new lines as they come due, until it ends (then its closing lines)
/// or the pod is gone.
#[allow(clippy::too_many_arguments)]
async fn follow(
    store: std::sync::Arc<super::store::Store>,
    ns: String,
    name: String,
    container: String,
    mut inst: Instance,
    mut last: Nanos,
    mut out: Writer,
    tx: mpsc::Sender<Result<Frame<Bytes>, std::io::Error>>,
) {
    let mut checked = now();
    loop {
        tokio::time::sleep(Duration::from_millis(if inst.period < 20_000_000 {
            10
        } else {
            100
        }))
        .await;
        let t = now();
        let mut ended = false;
        if t - checked >= 250_000_000 {
            checked = t;
            let current = store
                .get(id::POD, &ns, &name)
                .and_then(|s| serde_json::from_slice::<Value>(&s.bytes).ok());
            match current.map(|p| instance(&p, &container, false, boot())) {
                Some(Ok(now_inst)) if now_inst.start == inst.start && now_inst.end.is_none() => {}
                Some(Ok(now_inst)) if now_inst.start == inst.start => {
                    inst = now_inst;
                    ended = true;
                }
                // Restarted, waiting, or gone: this instance is over.
                _ => {
                    if inst.end.is_none() {
                        inst.end = Some(t);
                    }
                    ended = true;
                }
            }
        }
        let upto = inst.end.map_or(t, |e| e.min(t.max(e)));
        let mut chunk = Vec::new();
        let mut more = true;
        for (ts, text) in inst.lines(last + 1, upto) {
            if !out.line(&mut chunk, ts, &text) {
                more = false;
                break;
            }
            last = ts;
        }
        last = last.max(upto.min(t));
        if !chunk.is_empty() && tx.send(Ok(Frame::data(Bytes::from(chunk)))).await.is_err() {
            return;
        }
        if ended || !more {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_parse_like_the_api() {
        let q = parse_query("container=web&follow=true&timestamps=true&tailLines=10&limitBytes=500").unwrap();
        assert_eq!(
            (
                q.container.as_deref(),
                q.follow,
                q.timestamps,
                q.tail,
                q.limit_bytes
            ),
            (Some("web"), true, true, Some(10), Some(500))
        );
        assert!(parse_query("sinceSeconds=0").is_err());
        assert!(parse_query("sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z").is_err());
        let q = parse_query("sinceTime=2026-01-01T00:00:00Z").unwrap();
        assert_eq!(q.since, super::super::logtext::nanos("2026-01-01T00:00:00Z"));
    }

    #[test]
    fn limit_bytes_cuts_the_output() {
        let mut w = Writer {
            timestamps: false,
            left: Some(8),
        };
        let mut out = Vec::new();
        assert!(w.line(&mut out, 0, "abc"));
        assert!(!w.line(&mut out, 0, "defgh"));
        assert_eq!(out, b"abc\ndefg");
    }
}
