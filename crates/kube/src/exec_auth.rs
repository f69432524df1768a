//! Bearer tokens from an `exec` credential plugin for kube's client: a tower layer that
//! puts `Authorization: Bearer …` on every request, runs the plugin again (through
//! [`exec_plugin::run`], so never on the terminal and never blocking a worker) when the
//! token's `expirationTimestamp` is near or the server answered 401, with one run at a time
//! however many requests wait. Owns the token cache; must not log the token.

use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use futures::future::BoxFuture;
use http::header::AUTHORIZATION;
use http::{HeaderValue, Request, Response};
use kube::client::Body;
use kube::config::ExecConfig;

use super::exec_plugin::{self, ExecCredentialStatus, ExecError};

/// A token is renewed this long before its `expirationTimestamp` (so it cannot expire while
/// a request is on its way).
pub const RENEW_BEFORE: Duration = Duration::from_secs(30);

type BoxError = Box<dyn std::error::Error + Send + Sync>;

struct Token {
    value: String,
    /// `None`: valid until a 401.
    expires: Option<jiff::Timestamp>,
    /// The server answered 401 with it.
    rejected: bool,
}

impl Token {
    fn fresh(&self, now: jiff::Timestamp) -> bool {
        !self.rejected
            && self.expires.is_none_or(|e| {
                let renew = jiff::SignedDuration::try_from(RENEW_BEFORE).unwrap_or_default();
                now.checked_add(renew).is_ok_and(|t| t < e)
            })
    }
}

/// The plugin and its last token. Shared by every request of one client.
pub struct ExecAuth {
    exec: ExecConfig,
    deadline: Duration,
    token: tokio::sync::Mutex<Option<Token>>,
    runs: std::sync::atomic::AtomicU64,
}

impl ExecAuth {
    /// Token auth by `exec`, each run bounded by `deadline`, starting from the credential
    /// `first` (the run made while connecting). Errors when `first` has no token or a
    /// malformed expiry.
    pub fn new(
        exec: ExecConfig,
        deadline: Duration,
        first: &ExecCredentialStatus,
    ) -> Result<Self, ExecError> {
        let token = token_of(first)?;
        Ok(ExecAuth {
            exec,
            deadline,
            token: tokio::sync::Mutex::new(Some(token)),
            runs: std::sync::atomic::AtomicU64::new(1),
        })
    }

    /// Plugin runs so far (the first, connecting one included).
    pub fn runs(&self) -> u64 {
        self.runs.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The header for the next request: the cached token while fresh, else a new one from
    /// the plugin (waiting for a run already under way rather than starting another).
    async fn header(&self) -> Result<HeaderValue, ExecError> {
        let mut g = self.token.lock().await;
        let now = jiff::Timestamp::now();
        let fresh = g.as_ref().filter(|t| t.fresh(now)).map(|t| t.value.clone());
        let value = match fresh {
            Some(v) => v,
            None => {
                self.runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let status = exec_plugin::run(&self.exec, self.deadline).await?;
                let t = token_of(&status)?;
                let v = t.value.clone();
                *g = Some(t);
                v
            }
        };
        let mut h = HeaderValue::try_from(format!("Bearer {value}"))
            .map_err(|_| ExecError("exec plugin token is not a valid header value".into()))?;
        h.set_sensitive(true);
        Ok(h)
    }

    /// The server refused `sent` (401): the next request runs the plugin again.
    fn rejected(&self, sent: &HeaderValue) {
        if let Ok(mut g) = self.token.try_lock() {
            if let Some(t) = g.as_mut() {
                if sent.as_bytes().ends_with(t.value.as_bytes()) {
                    t.rejected = true;
                }
            }
        }
    }
}

fn token_of(status: &ExecCredentialStatus) -> Result<Token, ExecError> {
    let value =
        status.token.clone().filter(|t| !t.is_empty()).ok_or_else(|| {
            ExecError("exec plugin returned neither a token nor a client certificate".into())
        })?;
    let expires = status.expiration().map_err(ExecError)?;
    Ok(Token {
        value,
        expires,
        rejected: false,
    })
}

/// The layer for `kube::client::ClientBuilder::with_layer`.
#[derive(Clone)]
pub struct ExecAuthLayer(pub Arc<ExecAuth>);

impl<S> tower_layer::Layer<S> for ExecAuthLayer {
    type Service = ExecAuthService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        ExecAuthService {
            inner: Arc::new(tokio::sync::Mutex::new(inner)),
            auth: self.0.clone(),
        }
    }
}

/// Adds the plugin's bearer token to each request. The inner service (kube's boxed stack,
/// not `Clone`) is shared behind a lock held only to hand it the request, never while the
/// plugin runs or the response streams.
pub struct ExecAuthService<S> {
    inner: Arc<tokio::sync::Mutex<S>>,
    auth: Arc<ExecAuth>,
}

impl<S, B> tower_service::Service<Request<Body>> for ExecAuthService<S>
where
    S: tower_service::Service<Request<Body>, Response = Response<B>> + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: Send + 'static,
{
    type Response = Response<B>;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<Response<B>, BoxError>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut req: Request<Body>) -> Self::Future {
        let inner = self.inner.clone();
        let auth = self.auth.clone();
        Box::pin(async move {
            let header = auth.header().await?;
            req.headers_mut().insert(AUTHORIZATION, header.clone());
            let pending = {
                let mut svc = inner.lock().await;
                futures::future::poll_fn(|cx| svc.poll_ready(cx))
                    .await
                    .map_err(Into::into)?;
                svc.call(req)
            };
            let res = pending.await.map_err(Into::into)?;
            if res.status() == http::StatusCode::UNAUTHORIZED {
                auth.rejected(&header);
            }
            Ok(res)
        })
    }
}
