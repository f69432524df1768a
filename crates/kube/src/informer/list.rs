//! The paged half of listing (`limit`/`continue`), and what every complete list ends with
//! whatever fetched it ([`Informer::listed`]). Must not know about the UI or about kinds.

use super::encoding;
use super::method::{self, ListMethod};
use super::*;

impl Informer {
    /// Lists one page into the sink's relist buffer; after the last page, ends the relist at
    /// the list's resourceVersion and watches from it.
    pub(super) async fn list_page<T: Versioned, S: Sink<T>>(
        &mut self,
        sink: &mut S,
        continue_token: Option<String>,
    ) -> Phase {
        if continue_token.is_none() {
            sink.init();
            self.skipped.clear();
            self.ghosts = None;
        }
        let page = match self.fetch_page::<T>(continue_token.clone()).await {
            Ok(page) => {
                // A page received is real progress: the backoff starts over, so errors
                // between pages do not pile up into minutes (a 20k-pod list at 20 % errors
                // took 185 s, the attempt growing across the whole list).
                self.backoff.reset();
                self.page_backoff.reset();
                page
            }
            Err(Failure::Gone) => {
                // Expired continue token: start the list over, gently.
                return Phase::Waiting {
                    reason: Failure::Other("list expired (410)".into()),
                    resume: None,
                };
            }
            Err(f) => {
                self.answered |= !matches!(f, Failure::Unreachable(_));
                return match continue_token {
                    Some(continue_token) => Phase::RetryingPage {
                        reason: f,
                        continue_token,
                    },
                    None => Phase::Waiting {
                        reason: f,
                        resume: None,
                    },
                };
            }
        };
        for item in page.items {
            sink.init_apply(item);
        }
        sink.flush();
        if let Some(c) = page.metadata.continue_.filter(|c| !c.is_empty()) {
            return Phase::Listing {
                continue_token: Some(c),
            };
        }
        let Some(rv) = page.metadata.resource_version.filter(|v| !v.is_empty()) else {
            self.answered = true;
            return Phase::Waiting {
                reason: Failure::Other("list has no metadata.resourceVersion (cannot watch)".into()),
                resume: None,
            };
        };
        self.listed(sink, &rv, ListMethod::Paged);
        Phase::Watching { resource_version: rv }
    }

    /// Ends a complete list at `rv` (the last page's, or a streaming list's end bookmark's):
    /// names what could not be read, swaps the relist in, repairs drift, and records how it
    /// was listed (a refusal waiting for a paged list to succeed is remembered now).
    pub(super) fn listed<T: Versioned, S: Sink<T>>(&mut self, sink: &mut S, rv: &str, method: ListMethod) {
        if !self.skipped.is_empty() {
            tracing::warn!(key = %self.key, skipped = self.skipped.len(), first = %self.skipped[0], "undecodable objects skipped");
        }
        sink.unreadable(page::unreadable_line(&self.skipped));
        let back = self.drift.pending.take().or_else(|| self.drift.older(rv, "list"));
        sink.init_done(Some(rv.to_owned()));
        self.drift.reset(rv);
        self.verified = std::time::Instant::now();
        if let Some(back) = back {
            self.drift_repaired(&*sink, &back);
        }
        InformerStats::bump(&self.stats.lists);
        self.answered = true;
        self.backoff.reset();
        self.stale = None;
        self.silent_ends = 0;
        if method == ListMethod::Paged {
            if let (Some(why), Some(memory)) = (self.unconfirmed.take(), &self.config.streaming) {
                memory.refuse(method::group_of(&self.key.url_path()), why);
            }
        }
        self.stats
            .listed(method, self.encoding, self.paged_because::<T>());
    }

    /// Fetches one page; objects that cannot be decoded are skipped into `self.skipped`.
    /// A failure's `Retry-After` is kept for the next wait.
    pub(super) async fn fetch_page<T: Versioned>(
        &mut self,
        continue_token: Option<String>,
    ) -> Result<Page<T>, Failure> {
        let lp = ListParams {
            label_selector: self.key.labels.as_deref().map(str::to_owned),
            field_selector: self.key.fields.as_deref().map(str::to_owned),
            limit: Some(self.config.page_size),
            continue_token,
            ..ListParams::default()
        };
        let path = Request::new(self.key.url_path());
        let mut req = if self.metadata_only {
            path.list_metadata(&lp)
        } else {
            path.list(&lp)
        }
        .map_err(|e| Failure::Other(e.to_string()))?;
        let asked = self.asks_protobuf::<T>();
        let json_req = asked.then(|| encoding::copy(&req));
        if asked {
            encoding::ask_protobuf(&mut req, self.metadata_only, false);
        } else if self.asks_table::<T>() {
            encoding::ask_table_rows(&mut req);
        }
        let (body, answered) = match (self.send_list(req).await, json_req) {
            // A server or proxy that takes no protobuf: the same request as JSON, at once.
            (Err(Failure::Other(why)), Some(json_req)) if why.starts_with("406") => {
                self.protobuf_refused(&why);
                self.send_list(json_req).await?
            }
            (answer, _) => answer?,
        };
        self.answered_as(asked, answered);
        let decoded = if answered == Encoding::Protobuf {
            crate::protobuf::list::<T>(&body, self.key.kind.singular())
                .map(|l| {
                    let page = Page {
                        metadata: page::PageMeta {
                            resource_version: l.resource_version,
                            continue_: l.continue_,
                        },
                        items: l.items,
                    };
                    (page, l.skipped)
                })
                .map_err(|e| e.to_string())
        } else {
            page::decode::<T>(&body, self.key.kind.singular())
        };
        let (page, skipped) = decoded
            .map_err(|e| Failure::Other(failure::one_line(&format!("list could not be decoded: {e}"))))?;
        self.skipped.extend(skipped);
        Ok(page)
    }

    /// Sends one list request; the body of a successful answer and its encoding (its
    /// `Content-Type`), else the failure (its `Retry-After` kept for the next wait).
    pub(super) async fn send_list(
        &mut self,
        req: http::Request<Vec<u8>>,
    ) -> Result<(bytes::Bytes, Encoding), Failure> {
        let client = self.client.clone();
        let exchange = async move {
            let res = client.send(req.map(kube::client::Body::from)).await?;
            let status = res.status();
            let retry = page::retry_after(res.headers());
            let encoding = Encoding::of(res.headers().get(http::header::CONTENT_TYPE));
            let body = http_body_util::BodyExt::collect(res.into_body())
                .await?
                .to_bytes();
            Ok::<_, kube::Error>((status, retry, encoding, body))
        };
        let (status, retry, encoding, body) = match timeout(self.config.request_timeout, exchange).await {
            Err(_) => return Err(Failure::Unreachable("list timed out".into())),
            Ok(Err(e)) => return Err(classify(&e, "list")),
            Ok(Ok(answer)) => answer,
        };
        if !status.is_success() {
            self.retry_after = retry;
            let message = error_message(&body, encoding == Encoding::Protobuf)
                .unwrap_or_else(|| status.canonical_reason().unwrap_or("").to_owned());
            return Err(status_failure(status.as_u16(), &message, "list"));
        }
        Ok((body, encoding))
    }
}

/// The `message` of an error answer's `Status` body (JSON, or protobuf when `protobuf`).
pub(super) fn error_message(body: &[u8], protobuf: bool) -> Option<String> {
    if protobuf {
        return crate::protobuf::status(body)
            .map(|(_, m)| m)
            .filter(|m| !m.is_empty());
    }
    serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_owned))
}
