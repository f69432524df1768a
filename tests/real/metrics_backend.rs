//! A stand-in for metrics-server behind the real kube-apiserver's aggregation layer: an HTTPS
//! server (client certificates required and checked against the requestheader CA, a user in
//! `X-Remote-User` required, as an aggregated API server authenticates the front proxy) that
//! answers `metrics.k8s.io/v1beta1` discovery, PodMetrics and NodeMetrics for the cluster's
//! real pods and nodes, listed from the API server at each request. Usage comes from the
//! demo's model (`ktui::sim::metrics::usage`, from each running container's requests and
//! limits) at one fixed window, so it never changes while the server runs: kubectl and ktui
//! read the same numbers whenever they ask. The JSON is the demo's (`render`), metrics-server's
//! shape. Which objects have metrics is metrics-server's rule, as the demo applies it: Running
//! pods on Ready nodes with a running container; Ready nodes (system plus pods, at most the
//! capacity). Must not write to the cluster.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use ktui::sim::matching::Meta;
use ktui::sim::metrics::collect::{NodeItem, PodItem};
use ktui::sim::metrics::usage::{self, Usage};
use ktui::sim::metrics::{render, serve, shape, MetricsApi, MetricsMode};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;

/// The usage model's seed.
const SEED: u64 = 33;
/// The one window usage is computed at, whatever the time.
const WINDOW: u64 = 0;
const BASE: &str = "/apis/metrics.k8s.io/v1beta1";

type Reply = http::Response<Full<Bytes>>;

/// A running backend; stops (with every connection it holds) when dropped.
pub struct MetricsBackend {
    /// Where it listens (the address its EndpointSlice names).
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for MetricsBackend {
    fn drop(&mut self) {
        self.task.abort();
    }
}

struct Backend {
    cluster: kube::Client,
    /// Gives each answer its `timestamp`/`window` stamps (usage ignores its windows).
    stamps: Arc<MetricsApi>,
}

impl MetricsBackend {
    /// Listens on `ip` (any free port) with the serving certificate `cert`/`key` (PEM),
    /// accepting clients whose certificate `client_ca` signed; lists pods and nodes with
    /// `cluster`.
    pub async fn start(ip: IpAddr, cert: &Path, key: &Path, client_ca: &Path, cluster: kube::Client) -> Self {
        ktui::kube::client::install_crypto_provider();
        let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
            .expect("read the backend's certificate")
            .collect::<Result<_, _>>()
            .expect("parse the backend's certificate");
        let key = PrivateKeyDer::from_pem_file(key).expect("read the backend's key");
        let mut roots = rustls::RootCertStore::empty();
        for ca in CertificateDer::pem_file_iter(client_ca).expect("read the requestheader CA") {
            roots
                .add(ca.expect("parse the requestheader CA"))
                .expect("add the CA");
        }
        let verifier = rustls::server::WebPkiClientVerifier::builder(Arc::new(roots))
            .build()
            .expect("client certificate verifier");
        let tls = rustls::ServerConfig::builder()
            .with_client_cert_verifier(verifier)
            .with_single_cert(chain, key)
            .expect("backend TLS config");
        let acceptor = TlsAcceptor::from(Arc::new(tls));
        let listener = TcpListener::bind((ip, 0))
            .await
            .expect("bind the metrics backend");
        let addr = listener.local_addr().expect("backend address");
        let backend = Arc::new(Backend {
            cluster,
            stamps: MetricsApi::new(MetricsMode::On, SEED, Duration::from_secs(15)),
        });
        let task = tokio::spawn(async move {
            // Dropped with the task: every connection ends with the server.
            let mut conns = JoinSet::new();
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    // Out of descriptors, say: do not spin.
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                };
                let (acceptor, backend) = (acceptor.clone(), backend.clone());
                conns.spawn(async move {
                    let Ok(tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let service = service_fn(move |req| {
                        let backend = backend.clone();
                        async move { Ok::<_, Infallible>(backend.answer(req).await) }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(tls), service)
                        .await;
                });
                while conns.try_join_next().is_some() {}
            }
        });
        MetricsBackend { addr, task }
    }
}

fn json_reply(code: u16, body: Vec<u8>) -> Reply {
    http::Response::builder()
        .status(code)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body)))
        .expect("a valid response")
}

fn status(code: u16, reason: &str, message: &str) -> Reply {
    let body = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": message, "reason": reason, "code": code});
    json_reply(code, body.to_string().into_bytes())
}

fn not_found(message: &str) -> Reply {
    status(404, "NotFound", message)
}

/// A request's path after [`BASE`], split: `pods`, `namespaces/NS/pods[/NAME]`,
/// `nodes[/NAME]`.
enum Route<'a> {
    Pods {
        ns: Option<&'a str>,
        name: Option<&'a str>,
    },
    Nodes {
        name: Option<&'a str>,
    },
}

fn route(rest: &str) -> Option<Route<'_>> {
    let parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).collect();
    Some(match parts.as_slice() {
        ["pods"] => Route::Pods { ns: None, name: None },
        ["namespaces", ns, "pods"] => Route::Pods {
            ns: Some(ns),
            name: None,
        },
        ["namespaces", ns, "pods", name] => Route::Pods {
            ns: Some(ns),
            name: Some(name),
        },
        ["nodes"] => Route::Nodes { name: None },
        ["nodes", name] => Route::Nodes { name: Some(name) },
        _ => return None,
    })
}

impl Backend {
    async fn answer(&self, req: http::Request<hyper::body::Incoming>) -> Reply {
        // The front proxy says who asked; without it, metrics-server answers 401.
        if req.headers().get("x-remote-user").is_none_or(|u| u.is_empty()) {
            return status(401, "Unauthorized", "Unauthorized");
        }
        if req.method() != http::Method::GET {
            return status(405, "MethodNotAllowed", "the server does not allow this method");
        }
        let path = req.uri().path().trim_end_matches('/');
        let query = req.uri().query().unwrap_or("");
        match path {
            "/apis/metrics.k8s.io" => {
                let gv = json!({"groupVersion": "metrics.k8s.io/v1beta1", "version": "v1beta1"});
                let group = json!({"kind": "APIGroup", "apiVersion": "v1", "name": "metrics.k8s.io",
                    "versions": [gv.clone()], "preferredVersion": gv});
                json_reply(200, group.to_string().into_bytes())
            }
            BASE => json_reply(200, serve::resource_list().to_string().into_bytes()),
            _ => match path.strip_prefix(BASE).and_then(route) {
                Some(p) => self.objects(p, query).await,
                None => not_found("the server could not find the requested resource"),
            },
        }
    }

    async fn objects(&self, path: Route<'_>, query: &str) -> Reply {
        let mut selectors = Vec::new();
        for (k, v) in form_urlencoded::parse(query.as_bytes()) {
            match &*k {
                "labelSelector" | "fieldSelector" if !v.is_empty() => selectors.push((k, v)),
                "watch" if v == "true" || v == "1" => {
                    return status(405, "MethodNotAllowed", "watch is not supported");
                }
                _ => {}
            }
        }
        // The stamps follow the clock; usage keeps to WINDOW.
        let (_, stamp) = serve::stamp(&self.stamps);
        let query: String = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(selectors.iter())
            .finish();
        let failed =
            |e: kube::Error| status(500, "InternalError", &format!("listing from the API server: {e}"));
        match path {
            Route::Pods { ns, name } => match self.pods(ns, name, &query).await {
                Err(e) => failed(e),
                Ok(items) => match (name, items.first()) {
                    (None, _) => json_reply(200, render::pod_list(&items, &stamp)),
                    (Some(_), Some(item)) => json_reply(200, render::pod(item, &stamp)),
                    (Some(n), None) => not_found(&format!(
                        "podmetrics.metrics.k8s.io \"{}/{n}\" not found",
                        ns.unwrap_or("")
                    )),
                },
            },
            Route::Nodes { name } => match self.nodes(name, &query).await {
                Err(e) => failed(e),
                Ok(items) => match (name, items.first()) {
                    (None, _) => json_reply(200, render::node_list(&items, &stamp)),
                    (Some(_), Some(item)) => json_reply(200, render::node(item, &stamp)),
                    (Some(n), None) => not_found(&format!("nodemetrics.metrics.k8s.io \"{n}\" not found")),
                },
            },
        }
    }

    /// GETs a list from the API server: its items.
    async fn list(&self, path: &str, query: &str) -> Result<Vec<Value>, kube::Error> {
        let uri = if query.is_empty() {
            path.to_owned()
        } else {
            format!("{path}?{query}")
        };
        let req = http::Request::get(uri).body(Vec::new()).expect("a valid request");
        let list: Value = self.cluster.request(req).await?;
        Ok(list["items"].as_array().cloned().unwrap_or_default())
    }

    /// The Ready nodes among the API server's (all when `query` is empty), by name.
    async fn ready_nodes(&self, query: &str) -> Result<Vec<(Arc<Meta>, shape::NodeShape)>, kube::Error> {
        let nodes = self.list("/api/v1/nodes", query).await?;
        Ok(nodes
            .iter()
            .filter_map(|n| {
                let s = shape::node(&serde_json::to_vec(n).ok()?)?;
                s.ready.then(|| (meta(n), s))
            })
            .collect())
    }

    /// Running pods (of `ns`, or all) on Ready nodes with a running container, the usage of
    /// each such container; sorted by namespace and name.
    async fn pods(
        &self,
        ns: Option<&str>,
        name: Option<&str>,
        query: &str,
    ) -> Result<Vec<PodItem>, kube::Error> {
        let ready = self.ready_nodes("").await?;
        let path = match ns {
            Some(ns) => format!("/api/v1/namespaces/{ns}/pods"),
            None => "/api/v1/pods".to_owned(),
        };
        let mut items: Vec<PodItem> = self
            .list(&path, query)
            .await?
            .iter()
            .filter(|p| p["status"]["phase"] == "Running")
            .filter(|p| name.is_none_or(|n| p["metadata"]["name"] == n))
            .filter_map(|p| {
                let shape = shape::pod(&serde_json::to_vec(p).ok()?)?;
                let on_ready = ready.iter().any(|(m, _)| *m.name == *shape.node);
                (on_ready && !shape.containers.is_empty()).then(|| pod_item(meta(p), shape))
            })
            .collect();
        items.sort_by(|a, b| (&a.meta.namespace, &a.meta.name).cmp(&(&b.meta.namespace, &b.meta.name)));
        Ok(items)
    }

    /// The Ready nodes `query` selects: each its system's usage plus its pods', at most its
    /// capacity; in name order.
    async fn nodes(&self, name: Option<&str>, query: &str) -> Result<Vec<NodeItem>, kube::Error> {
        let mut per_node: HashMap<Box<str>, Usage> = HashMap::new();
        for p in self.pods(None, None, "").await? {
            let total = per_node.entry(p.shape.node.clone()).or_default();
            for u in &p.usage {
                *total += *u;
            }
        }
        let mut items: Vec<NodeItem> = self
            .ready_nodes(query)
            .await?
            .into_iter()
            .filter(|(m, _)| name.is_none_or(|n| *m.name == *n))
            .map(|(meta, s)| {
                let mut u = usage::system(SEED, &meta.name, WINDOW);
                u += per_node.get(&meta.name).copied().unwrap_or_default();
                let usage = Usage {
                    cpu_nanos: u.cpu_nanos.min(s.capacity.cpu_nanos),
                    memory_bytes: u.memory_bytes.min(s.capacity.memory_bytes),
                };
                NodeItem { meta, usage }
            })
            .collect();
        items.sort_by(|a, b| a.meta.name.cmp(&b.meta.name));
        Ok(items)
    }
}

/// Name, namespace and labels of an object.
fn meta(o: &Value) -> Arc<Meta> {
    let m = &o["metadata"];
    let text = |v: &Value| Box::<str>::from(v.as_str().unwrap_or(""));
    let labels = m["labels"]
        .as_object()
        .map(|l| l.iter().map(|(k, v)| (k.as_str().into(), text(v))).collect())
        .unwrap_or_default();
    Arc::new(Meta {
        namespace: text(&m["namespace"]),
        name: text(&m["name"]),
        labels,
        fields: Box::default(),
    })
}

/// A pod's metrics: each running container's usage at [`WINDOW`].
fn pod_item(meta: Arc<Meta>, shape: shape::PodShape) -> PodItem {
    let usage = shape
        .containers
        .iter()
        .map(|(c, r)| usage::container(SEED, &meta.namespace, &meta.name, c, r, WINDOW))
        .collect();
    PodItem {
        meta,
        shape: Arc::new(shape),
        usage,
    }
}
