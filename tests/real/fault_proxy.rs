//! A fault-injecting proxy between ktui's client and a real kube-apiserver, for
//! `fault_cycles`: it terminates the client's TLS with the API server's own serving
//! certificate (DIR/pki, so the kubeconfig's CA verifies it and ktui's client is the one the
//! app builds), opens a TLS connection of its own to the API server for each client
//! connection and copies the bytes both ways unchanged. Two faults:
//! - [`FaultProxy::cut`] drops every open connection, watches included (what a load
//!   balancer, a NAT timeout or a VPN reconnect does to a long watch);
//! - [`FaultProxy::set_errors`] answers every request on new connections with 429, 503 or 500
//!   in turn, each with `Retry-After: 1` and a `Status` body (a throttling or failing
//!   control plane), after cutting the connections already open;
//! - [`FaultProxy::set_refusing`] closes every new connection at once, after cutting the
//!   open ones (the client is kept away from a server that goes on changing).
//!
//! Must not read or change anything it forwards; only answers of its own are HTTP it writes.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::{TlsAcceptor, TlsConnector};

/// A running proxy on 127.0.0.1:[`FaultProxy::port`]; stops when dropped.
pub struct FaultProxy {
    /// The port clients connect to (the kubeconfig's `server`).
    pub port: u16,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

struct Shared {
    upstream: SocketAddr,
    acceptor: TlsAcceptor,
    connector: TlsConnector,
    /// Bumped by every cut: each connection task ends when it changes.
    generation: tokio::sync::watch::Sender<u64>,
    errors: AtomicBool,
    refusing: AtomicBool,
    /// Error answers written so far.
    injected: AtomicU64,
    /// When each error answer not yet taken was written.
    injected_at: std::sync::Mutex<Vec<Instant>>,
}

/// The statuses error mode cycles through, with their reasons (`Status.reason`).
const ERRORS: [(u16, &str, &str); 3] = [
    (429, "Too Many Requests", "TooManyRequests"),
    (503, "Service Unavailable", "ServiceUnavailable"),
    (500, "Internal Server Error", "InternalError"),
];

impl FaultProxy {
    /// A proxy to the API server at 127.0.0.1:`api_port` of the cluster whose PKI is in
    /// `pki` (up.sh's `ca.crt`, `apiserver.crt`, `apiserver.key`).
    pub async fn start(pki: &Path, api_port: u16) -> FaultProxy {
        ktui::kube::client::install_crypto_provider();
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(pki.join("apiserver.crt"))
            .expect("read apiserver.crt")
            .collect::<Result<_, _>>()
            .expect("parse apiserver.crt");
        let key = PrivateKeyDer::from_pem_file(pki.join("apiserver.key")).expect("read apiserver.key");
        let server = rustls::ServerConfig::builder()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .expect("proxy TLS config");
        let mut roots = rustls::RootCertStore::empty();
        for ca in CertificateDer::pem_file_iter(pki.join("ca.crt")).expect("read ca.crt") {
            roots.add(ca.expect("parse ca.crt")).expect("add the cluster CA");
        }
        let client = rustls::ClientConfig::builder()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .expect("bind the proxy");
        let port = listener.local_addr().expect("proxy address").port();
        let shared = Arc::new(Shared {
            upstream: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), api_port),
            acceptor: TlsAcceptor::from(Arc::new(server)),
            connector: TlsConnector::from(Arc::new(client)),
            generation: tokio::sync::watch::Sender::new(0),
            errors: AtomicBool::new(false),
            refusing: AtomicBool::new(false),
            injected: AtomicU64::new(0),
            injected_at: std::sync::Mutex::new(Vec::new()),
        });
        let task = tokio::spawn(accept_loop(listener, shared.clone()));
        FaultProxy { port, shared, task }
    }

    /// Drops every connection open now (new ones are served as before).
    pub fn cut(&self) {
        self.shared.generation.send_modify(|g| *g += 1);
    }

    /// Error mode on (cutting what is open, so every later request meets it) or off.
    pub fn set_errors(&self, on: bool) {
        self.shared.errors.store(on, Ordering::SeqCst);
        if on {
            self.cut();
        }
    }

    /// Refusing on (cutting what is open; every new connection is closed at once) or off.
    pub fn set_refusing(&self, on: bool) {
        self.shared.refusing.store(on, Ordering::SeqCst);
        if on {
            self.cut();
        }
    }

    /// Error answers written so far.
    pub fn injected(&self) -> u64 {
        self.shared.injected.load(Ordering::Relaxed)
    }

    /// When each error answer since the last call was written, oldest first.
    pub fn take_injected_at(&self) -> Vec<Instant> {
        std::mem::take(&mut *self.shared.injected_at.lock().unwrap())
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.task.abort();
        self.cut();
    }
}

async fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            continue;
        };
        let _ = tcp.set_nodelay(true);
        tokio::spawn(connection(tcp, shared.clone()));
    }
}

/// One client connection, until either side closes it or a cut.
async fn connection(tcp: TcpStream, shared: Arc<Shared>) {
    if shared.refusing.load(Ordering::SeqCst) {
        return;
    }
    let mut cut = shared.generation.subscribe();
    cut.borrow_and_update();
    let serve = async {
        let mut client = shared.acceptor.accept(tcp).await.ok()?;
        if shared.errors.load(Ordering::SeqCst) {
            return answer_error(&mut client, &shared).await;
        }
        let up = TcpStream::connect(shared.upstream).await.ok()?;
        let _ = up.set_nodelay(true);
        let name = ServerName::IpAddress(Ipv4Addr::LOCALHOST.into());
        let mut up = shared.connector.connect(name, up).await.ok()?;
        tokio::io::copy_bidirectional(&mut client, &mut up).await.ok()?;
        Some(())
    };
    tokio::select! {
        _ = serve => {}
        _ = cut.changed() => {}
    }
}

/// Reads one request head and answers it with the next error status, `Retry-After: 1` and
/// `Connection: close`.
async fn answer_error<S: AsyncReadExt + AsyncWriteExt + Unpin>(
    client: &mut S,
    shared: &Shared,
) -> Option<()> {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = client.read(&mut buf).await.ok()?;
        if n == 0 || head.len() > 64 * 1024 {
            return None;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let n = shared.injected.fetch_add(1, Ordering::Relaxed);
    shared.injected_at.lock().unwrap().push(Instant::now());
    let (code, text, reason) = ERRORS[(n % ERRORS.len() as u64) as usize];
    let body = format!(
        r#"{{"kind":"Status","apiVersion":"v1","metadata":{{}},"status":"Failure","message":"injected by the test proxy","reason":"{reason}","code":{code}}}"#
    );
    let answer = format!(
        "HTTP/1.1 {code} {text}\r\nContent-Type: application/json\r\nRetry-After: 1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    client.write_all(answer.as_bytes()).await.ok()?;
    client.shutdown().await.ok()
}
