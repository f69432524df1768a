//! The streaming half of listing: one watch with `sendInitialEvents=true` whose events fill
//! the sink's relist buffer until the end bookmark — published as it fills on a first list,
//! swapped in whole at the end on a relist, exactly as paged lists are — after which the same
//! connection goes on as the watch. Falls back to paged lists by the rules of `method`. Must
//! not know about the UI or about kinds.

use std::pin::Pin;

use super::method::{self, Initial, ListMethod, Refusal, EARLY_ENDS};
use super::*;

/// How a streaming list fell short of its end bookmark.
enum Short {
    /// The server does not stream lists (why): the context lists paged from now on.
    Ignored(String),
    /// A failure: back off, then list afresh.
    Failed(Failure),
    /// The stream ended cleanly before the end bookmark.
    Early,
}

impl Informer {
    /// Lists by streaming and then watches on the same connection until it ends; decides
    /// what comes next (a paged list when the server refused or ignored the request).
    pub(super) async fn stream_list<T: Versioned, S: Sink<T>>(&mut self, sink: &mut S) -> Phase {
        let started = Instant::now();
        sink.init();
        self.skipped.clear();
        self.ghosts = None;
        let listing = |informer: &Self| informer.stats.spend(PhaseTime::Listing, started.elapsed());
        let (server_timeout, req) = match self.watch_request("", true) {
            Ok(r) => r,
            Err(f) => return self.fell_short(sink, Short::Failed(f)),
        };
        let opened = timeout(self.config.request_timeout, self.open_watch::<T>(req)).await;
        let stream = match opened {
            Err(_) => {
                listing(self);
                let f = Failure::Unreachable("streaming list did not start".into());
                return self.fell_short(sink, Short::Failed(f));
            }
            Ok(Err((Some(code), f))) if method::refusal(code).is_some() => {
                listing(self);
                return self.refused(code, &f);
            }
            Ok(Err((_, f))) => {
                listing(self);
                return self.fell_short(sink, Short::Failed(f));
            }
            Ok(Ok(s)) => s,
        };
        let mut stream = std::pin::pin!(stream);
        let end = self.initial_events(sink, stream.as_mut()).await;
        listing(self);
        let mut rv = match end {
            Ok(rv) => rv,
            Err(short) => return self.fell_short(sink, short),
        };
        self.early_ends = 0;
        self.listed(sink, &rv, ListMethod::Streamed);
        let watching = Instant::now();
        let end = self.follow(sink, stream, &mut rv, server_timeout).await;
        self.stats.spend(PhaseTime::Watching, watching.elapsed());
        self.watch_ended(sink, end, watching, rv)
    }

    /// Reads a streaming list up to its end bookmark into the relist buffer; the bookmark's
    /// resourceVersion, or how the list fell short (see `method` for the rules).
    async fn initial_events<T: Versioned, S: Sink<T>, St>(
        &mut self,
        sink: &mut S,
        mut stream: Pin<&mut St>,
    ) -> Result<String, Short>
    where
        St: futures::Stream<Item = Result<lines::Line<T>, Failure>>,
    {
        let idle = self.config.streaming_idle;
        let mut last = Instant::now();
        loop {
            let deadline = sink.flush();
            let item = tokio::select! {
                _ = sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => continue,
                _ = sleep_until(last + idle) => {
                    let why = format!("no initial-events-end bookmark ({idle:?} without an event)");
                    return Err(Short::Ignored(why));
                }
                item = stream.next() => item,
            };
            last = Instant::now();
            let event = match item {
                None => return Err(Short::Early),
                Some(Err(f)) => return Err(Short::Failed(f)),
                Some(Ok(lines::Line::Unreadable { what, .. })) => {
                    self.unreadable_event(sink, what);
                    continue;
                }
                Some(Ok(lines::Line::Event(event))) => event,
            };
            match method::initial(event) {
                Initial::Upsert(obj) => sink.init_apply(obj),
                Initial::Remove(obj) => sink.init_delete(obj),
                Initial::End(rv) if rv.is_empty() => {
                    let f = Failure::Other("end bookmark without a resourceVersion".into());
                    return Err(Short::Failed(f));
                }
                Initial::End(rv) => return Ok(rv),
                Initial::Ignored => {
                    let why = "server ignored sendInitialEvents (bookmark without k8s.io/initial-events-end)";
                    return Err(Short::Ignored(why.into()));
                }
                Initial::Error(code, message) => {
                    return Err(Short::Failed(status_failure(code, &message, "watch")))
                }
            }
        }
    }

    /// The server answered the streaming list with HTTP `code` (a [`method::refusal`]):
    /// this informer lists paged now; a 400/422 is remembered for the context once that
    /// paged list succeeds.
    fn refused(&mut self, code: u16, failure: &Failure) -> Phase {
        let why = match failure {
            Failure::Rejected(m) => format!("streaming list refused ({code}): {m}"),
            Failure::Other(m) => {
                let m = m.strip_prefix(&format!("{code}: ")).unwrap_or(m);
                format!("streaming list refused ({code}): {m}")
            }
            _ => format!("streaming list refused ({code})"),
        };
        tracing::info!(key = %self.key, %why, "listing paged");
        if method::refusal(code) == Some(Refusal::Server) {
            self.unconfirmed = Some(why.clone());
        }
        self.paged = Some(why);
        Phase::Listing { continue_token: None }
    }

    /// A streaming list fell short of its end bookmark: nothing of it is swapped in (a
    /// relist keeps the old table); what comes next follows the rules of `method`.
    fn fell_short<T, S: Sink<T>>(&mut self, sink: &mut S, short: Short) -> Phase {
        sink.publish();
        let memory = self.config.streaming.clone();
        let group = method::group_of(&self.key.url_path()).to_owned();
        let give_up = |why: String| {
            tracing::info!(%why, "streaming list fell short; listing paged");
            if let Some(m) = &memory {
                m.refuse(&group, why);
            }
            Phase::Listing { continue_token: None }
        };
        match short {
            Short::Ignored(why) => give_up(why),
            Short::Early => {
                self.early_ends += 1;
                if self.early_ends >= EARLY_ENDS {
                    self.early_ends = 0;
                    return give_up(format!(
                        "{EARLY_ENDS} streaming lists ended before their initial-events-end bookmark"
                    ));
                }
                Phase::Waiting {
                    reason: Failure::Other("streaming list ended before it was complete".into()),
                    resume: None,
                }
            }
            Short::Failed(f) => {
                self.answered |= !matches!(f, Failure::Unreachable(_));
                let reason = match f {
                    Failure::Gone => Failure::Other("streaming list expired (410)".into()),
                    f => f,
                };
                Phase::Waiting { reason, resume: None }
            }
        }
    }
}
