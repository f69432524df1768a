//! The watch half of the list-watch loop (`Informer::watch`): open a watch from a
//! resourceVersion with bookmarks asked for, read its events (undecodable ones skipped and
//! named), move the resume point, notice a resourceVersion that went backwards or a server that
//! fell silent, and say what comes next ([`Phase`]). Must not know about the UI or about kinds.

use super::encoding;
use super::*;

impl Informer {
    /// Watches from `from` until the stream ends, and decides what comes next.
    pub(super) async fn watch<T: Versioned, S: Sink<T>>(&mut self, sink: &mut S, from: String) -> Phase {
        let started = Instant::now();
        let mut rv = from;
        let end = self.stream::<T, S>(sink, &mut rv).await;
        self.watch_ended(sink, end, started, rv)
    }

    /// What comes after a watch connection that began at `started` ended with `end`, its
    /// resume point at `rv`.
    pub(super) fn watch_ended<T, S: Sink<T>>(
        &mut self,
        sink: &mut S,
        end: WatchEnd,
        started: Instant,
        rv: String,
    ) -> Phase {
        match end {
            WatchEnd::Clean => {
                InformerStats::bump(&self.stats.reconnects);
                if self.verify_due() {
                    Phase::Verifying { resume: rv }
                } else if started.elapsed() < Duration::from_secs(1) {
                    Phase::Pausing { resume: rv }
                } else {
                    Phase::Watching { resource_version: rv }
                }
            }
            WatchEnd::Gone => {
                self.gone_streak += 1;
                if self.gone_streak == 1 {
                    Phase::Listing { continue_token: None }
                } else {
                    Phase::Relisting {
                        after: self.gone_backoff.next_delay(),
                    }
                }
            }
            WatchEnd::Silent(last_word) => {
                InformerStats::bump(&self.stats.reconnects);
                let since = *self.stale.get_or_insert(last_word);
                tracing::info!(key = %self.key, silent_s = since.elapsed().as_secs(), "watch stale; restarting");
                sink.set_state(SyncState::Stale { since });
                sink.publish();
                self.silent_ends += 1;
                if self.silent_ends >= 2 {
                    self.silent_ends = 0;
                    Phase::Listing { continue_token: None }
                } else {
                    Phase::Watching { resource_version: rv }
                }
            }
            WatchEnd::Failed(reason) => {
                InformerStats::bump(&self.stats.reconnects);
                Phase::Waiting {
                    reason,
                    resume: Some(rv),
                }
            }
            WatchEnd::Backwards => {
                InformerStats::bump(&self.stats.reconnects);
                Phase::Listing { continue_token: None }
            }
        }
    }

    /// One watch connection from `rv`, applying its events; keeps `rv` at the newest
    /// resourceVersion seen.
    pub(super) async fn stream<T: Versioned, S: Sink<T>>(
        &mut self,
        sink: &mut S,
        rv: &mut String,
    ) -> WatchEnd {
        let (server_timeout, req) = match self.watch_request(rv, false) {
            Ok(r) => r,
            Err(f) => return WatchEnd::Failed(f),
        };
        let stream = match timeout(self.config.request_timeout, self.open_watch::<T>(req)).await {
            Err(_) => return WatchEnd::Failed(Failure::Unreachable("watch did not start".into())),
            Ok(Err((_, Failure::Gone))) => return WatchEnd::Gone,
            Ok(Err((_, f))) => return WatchEnd::Failed(f),
            Ok(Ok(s)) => s,
        };
        let stream = std::pin::pin!(stream);
        // After a silence, only an event or a bookmark proves the server is back.
        if self.stale.is_none() {
            sink.set_state(SyncState::Live);
        }
        self.follow(sink, stream, rv, server_timeout).await
    }

    /// A watch request from `rv` (a streaming list's when `initial`: `sendInitialEvents`,
    /// `resourceVersionMatch=NotOlderThan`, `rv` ""), and the `timeoutSeconds` it asks for:
    /// `watch_timeout` jittered so that informers do not reconnect in lockstep.
    pub(super) fn watch_request(
        &self,
        rv: &str,
        initial: bool,
    ) -> Result<(u32, http::Request<Vec<u8>>), Failure> {
        let base = self.config.watch_timeout.as_secs().max(10) as u32;
        let jitter = rand::random_range(0..=base / 10);
        let server_timeout = base - base / 20 + jitter;
        let wp = WatchParams {
            label_selector: self.key.labels.as_deref().map(str::to_owned),
            field_selector: self.key.fields.as_deref().map(str::to_owned),
            timeout: Some(server_timeout),
            bookmarks: true,
            send_initial_events: initial,
        };
        let path = Request::new(self.key.url_path());
        let req = if self.metadata_only {
            path.watch_metadata(&wp, rv)
        } else {
            path.watch(&wp, rv)
        };
        req.map(|r| (server_timeout, r))
            .map_err(|e| Failure::Other(e.to_string()))
    }

    /// Reads an open watch `stream` (asked for `server_timeout` seconds) until it ends,
    /// applying its events; keeps `rv` at the newest resourceVersion seen.
    pub(super) async fn follow<T: Versioned, S: Sink<T>, St>(
        &mut self,
        sink: &mut S,
        mut stream: std::pin::Pin<&mut St>,
        rv: &mut String,
        server_timeout: u32,
    ) -> WatchEnd
    where
        St: futures::Stream<Item = Result<lines::Line<T>, Failure>>,
    {
        let stale_after = self.config.stale_after();
        let mut last_word = Instant::now();
        // The server ends the stream after `server_timeout`; silence well past that means a dead
        // connection (a VPN that dropped without a FIN).
        let idle = Duration::from_secs(u64::from(server_timeout) + 15);
        loop {
            let deadline = sink.flush();
            let item = tokio::select! {
                _ = sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => continue,
                _ = sleep_until(last_word + stale_after) => {
                    sink.publish();
                    return WatchEnd::Silent(last_word);
                }
                item = timeout(idle, stream.next()) => item,
            };
            let event = match item {
                Err(_) | Ok(None) => {
                    sink.publish();
                    return WatchEnd::Clean;
                }
                Ok(Some(Err(Failure::Gone))) => {
                    sink.publish();
                    return WatchEnd::Gone;
                }
                Ok(Some(Err(f))) => {
                    sink.publish();
                    return WatchEnd::Failed(f);
                }
                Ok(Some(Ok(lines::Line::Unreadable {
                    what,
                    resource_version,
                }))) => {
                    last_word = Instant::now();
                    self.heard(sink);
                    self.unreadable_event(sink, what);
                    self.progress(sink, rv, resource_version);
                    continue;
                }
                Ok(Some(Ok(lines::Line::Event(ev)))) => ev,
            };
            if !matches!(event, WatchEvent::Error(_)) {
                last_word = Instant::now();
                self.heard(sink);
            }
            let (seen, what) = match &event {
                WatchEvent::Added(obj) | WatchEvent::Modified(obj) | WatchEvent::Deleted(obj) => {
                    (obj.version(), "watch event")
                }
                WatchEvent::Bookmark(bm) => (Some(bm.metadata.resource_version.as_str()), "bookmark"),
                WatchEvent::Error(_) => (None, ""),
            };
            let at = seen.and_then(drift::parse);
            if let (Some(v), Some(check)) = (at, &self.ghosts) {
                // Every change up to the verifying list is applied (a bookmark at it, or an
                // event past it): what the watch did not delete is a ghost.
                if v > check.upto || (what == "bookmark" && v >= check.upto) {
                    self.ghosts_checked(sink);
                }
            }
            if let Some(back) = seen.and_then(|v| self.drift.older(v, what)) {
                // Not applied: the relist replaces the store whole.
                tracing::warn!(key = %self.key, newest = back.newest, seen = back.seen, what, "resourceVersion went backwards; relisting");
                self.drift.pending = Some(back);
                sink.publish();
                return WatchEnd::Backwards;
            }
            match event {
                WatchEvent::Added(obj) | WatchEvent::Modified(obj) => {
                    let seen = obj.version().map(str::to_owned);
                    sink.apply(obj);
                    self.progress(sink, rv, seen);
                }
                WatchEvent::Deleted(obj) => {
                    let seen = obj.version().map(str::to_owned);
                    sink.delete(obj);
                    self.progress(sink, rv, seen);
                }
                WatchEvent::Bookmark(bm) => {
                    self.stats.bookmark();
                    self.drift.advance(&bm.metadata.resource_version);
                    sink.set_resource_version(&bm.metadata.resource_version);
                    *rv = bm.metadata.resource_version;
                }
                WatchEvent::Error(status) => {
                    sink.publish();
                    return if status.code == 410 {
                        WatchEnd::Gone
                    } else {
                        WatchEnd::Failed(status_failure(status.code, &status.message, "watch"))
                    };
                }
            }
        }
    }

    /// Sends a watch request; its decoded lines once the server answered 2xx, else the
    /// answer's failure (410 is [`Failure::Gone`]) with its HTTP status (`None`: no answer),
    /// its `Retry-After` kept for the next wait as a list's is.
    pub(super) async fn open_watch<T: Versioned>(
        &mut self,
        mut req: http::Request<Vec<u8>>,
    ) -> Result<impl futures::Stream<Item = Result<lines::Line<T>, Failure>> + Send, (Option<u16>, Failure)>
    {
        let asked = self.asks_protobuf::<T>();
        let json_req = asked.then(|| encoding::copy(&req));
        if asked {
            encoding::ask_protobuf(&mut req, self.metadata_only, true);
        } else if self.asks_table::<T>() {
            encoding::ask_table_rows(&mut req);
        }
        let send = |req: http::Request<Vec<u8>>| self.client.send(req.map(kube::client::Body::from));
        let mut res = send(req).await.map_err(|e| (None, classify(&e, "watch")))?;
        if let (http::StatusCode::NOT_ACCEPTABLE, Some(json_req)) = (res.status(), json_req) {
            // A server or proxy that takes no protobuf: the same watch as JSON, at once.
            self.protobuf_refused("406 Not Acceptable to a protobuf Accept");
            res = send(json_req).await.map_err(|e| (None, classify(&e, "watch")))?;
        }
        let status = res.status();
        let answered = Encoding::of(res.headers().get(http::header::CONTENT_TYPE));
        let protobuf = answered == Encoding::Protobuf;
        if !status.is_success() {
            self.retry_after = page::retry_after(res.headers());
            let code = Some(status.as_u16());
            let body = http_body_util::BodyExt::collect(res.into_body())
                .await
                .map_err(|e| (code, classify(&e, "watch")))?
                .to_bytes();
            let message = list::error_message(&body, protobuf)
                .unwrap_or_else(|| status.canonical_reason().unwrap_or("").to_owned());
            return Err((code, status_failure(status.as_u16(), &message, "watch")));
        }
        self.answered_as(asked, answered);
        let kind = self.key.kind.singular();
        Ok(if protobuf {
            frames::frames::<T>(res.into_body(), kind).left_stream()
        } else {
            lines::lines::<T>(res.into_body(), kind).right_stream()
        })
    }

    /// A watch event whose object could not be decoded: skipped, counted and named with the
    /// list's unreadable objects (the same object again replaces its earlier entry).
    pub(super) fn unreadable_event<T, S: Sink<T>>(&mut self, sink: &mut S, what: String) {
        tracing::warn!(key = %self.key, object = %what, "undecodable watch event skipped");
        let name = what.split(": ").next().unwrap_or("").to_owned();
        self.skipped
            .retain(|s| s.split(": ").next() != Some(name.as_str()));
        self.skipped.push(what);
        sink.unreadable(page::unreadable_line(&self.skipped));
    }

    /// The server spoke (an event or a bookmark): a stale watch is live again.
    pub(super) fn heard<T, S: Sink<T>>(&mut self, sink: &mut S) {
        self.silent_ends = 0;
        if self.stale.take().is_some() {
            sink.set_state(SyncState::Live);
        }
    }

    /// A real watch event arrived: counts it, forgets past failures and moves the resume point.
    pub(super) fn progress<T, S: Sink<T>>(&mut self, sink: &mut S, rv: &mut String, seen: Option<String>) {
        self.backoff.reset();
        self.gone_streak = 0;
        self.gone_backoff.reset();
        InformerStats::bump(&self.stats.events);
        if let Some(v) = seen.filter(|v| !v.is_empty()) {
            self.drift.advance(&v);
            sink.set_resource_version(&v);
            *rv = v;
        }
    }
}
