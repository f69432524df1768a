//! The UI-local state of one log view: what it shows (target, window, previous), how
//! (timestamps, wrap, filter, search) and where (following, or paused at a line with the
//! count of lines that arrived below), over the shared hub the loop attaches. `refresh`
//! (before each draw) brings the visible-line list up to date. Must not do I/O.

use std::sync::Arc;

use crate::kube::logs::{LogHub, LogLine, LogTarget, PodPick, SourceInfo, StreamPlan};
use crate::view::log_lines::{LineMatch, Visible};

pub use crate::app::logs::settings::{LogSettings, Window};

/// One log view.
pub struct LogsState {
    /// What it shows.
    pub target: LogTarget,
    /// `pod/name`, `deploy/web`, `-l app=web`: the title.
    pub title: String,
    /// The time window.
    pub window: Window,
    /// Showing the previous instance (`p`).
    pub previous: bool,
    /// The bounds and defaults it was opened with.
    pub settings: LogSettings,
    /// The shared hub, attached by the loop.
    pub hub: Option<Arc<LogHub>>,
    /// Following the newest line (else paused).
    pub follow: bool,
    /// Paused: index into `visible.seqs` of the first line shown.
    pub scroll: usize,
    /// Paused: lines that arrived below since.
    pub new_below: usize,
    /// Show timestamps (`t`).
    pub timestamps: bool,
    /// Wrap long lines (`w`).
    pub wrap: bool,
    /// The `/` filter as typed, and its compiled form (the last valid one).
    pub filter: String,
    filter_match: Option<LineMatch>,
    /// The filter's error, for the footer.
    pub filter_error: Option<String>,
    /// The search (`s`) as typed, and its compiled form.
    pub search: String,
    /// The compiled search.
    pub search_match: Option<LineMatch>,
    /// Seqs of lines passing the filter.
    pub visible: Visible,
    /// Rows of the body at the last draw (for paging and the "new" count).
    pub page: usize,
    /// A fixed clock for the lag (screen tests); the wall clock otherwise.
    pub clock: Option<jiff::Timestamp>,
    /// The pod's live events (one-pod views), attached by the loop: shown while there is
    /// no line yet.
    pub events: Option<crate::app::feed::Source>,
    /// Which prompt the footer's `/` prompt is (filter or search), while open.
    pub prompt: Option<LogPrompt>,
}

impl LogsState {
    /// A view of `target` with `settings`, following the default tail.
    pub fn new(target: LogTarget, title: String, settings: LogSettings) -> LogsState {
        LogsState {
            target,
            title,
            window: Window::Tail(settings.tail),
            previous: false,
            settings,
            hub: None,
            follow: true,
            scroll: 0,
            new_below: 0,
            timestamps: settings.timestamps,
            wrap: settings.wrap,
            filter: String::new(),
            filter_match: None,
            filter_error: None,
            search: String::new(),
            search_match: None,
            visible: Visible::default(),
            page: 20,
            clock: None,
            events: None,
            prompt: None,
        }
    }

    /// Whether more than one pod can show (a merged, stern-style view).
    pub fn merged(&self) -> bool {
        !matches!(self.target.pods, PodPick::Named(_))
    }

    /// What the streams ask the server for.
    pub fn plan(&self) -> StreamPlan {
        let mut plan = StreamPlan {
            previous: self.previous,
            follow: !self.previous,
            max_line: self.settings.max_line,
            ..StreamPlan::default()
        };
        match self.window {
            Window::Tail(n) => plan.tail = Some(n),
            Window::All => {}
            Window::Head(n) => {
                plan.head = Some(n);
                plan.follow = false;
            }
            Window::Since(s) => plan.since_seconds = Some(s),
        }
        plan
    }

    /// The events informer of a one-pod view's pod.
    pub fn events_key(&self) -> Option<crate::kube::key::ResourceKey> {
        let PodPick::Named(name) = &self.target.pods else {
            return None;
        };
        let pod = crate::kube::key::ResourceKey::new(
            crate::kube::builtin::BuiltinKind::Pod,
            Some(&self.target.namespace),
        );
        Some(crate::app::detail::model::key_for(&pod, name))
    }

    /// The pod's live events as `kubectl describe` ends (one-pod views; empty until the
    /// events informer is attached), ages against `now` (unix seconds).
    pub fn event_lines(&self, now: i64) -> Vec<String> {
        match &self.events {
            Some(src) => crate::detail::events::lines(Some(&src.slot.load()), "", now),
            None => Vec::new(),
        }
    }

    /// What the loop streams for this view.
    pub fn request(&self) -> crate::app::effect::LogRequest {
        crate::app::effect::LogRequest {
            target: self.target.clone(),
            plan: self.plan(),
            limits: crate::kube::logs::LogLimits {
                max_lines: self.settings.max_lines,
                max_bytes: self.settings.max_bytes,
                max_streams: self.settings.max_streams,
            },
        }
    }

    /// Sets the filter; an invalid one keeps the last valid one and reports why.
    pub fn set_filter(&mut self, text: String) {
        match LineMatch::parse(&text) {
            Ok(m) => {
                self.filter_match = m;
                self.filter_error = None;
                self.visible.reset();
                self.scroll = 0;
            }
            Err(e) => self.filter_error = Some(e),
        }
        self.filter = text;
    }

    /// Sets the search pattern; `Err` says why it is invalid.
    pub fn set_search(&mut self, text: String) -> Result<(), String> {
        self.search = text;
        self.search_match = LineMatch::parse(&self.search)?;
        Ok(())
    }

    /// The text a line shows (and the filter, search and save see): `pod/container ` in a
    /// view with several sources, the timestamp when shown, the line.
    pub fn line_text(&self, line: &LogLine, sources: &[SourceInfo]) -> String {
        self.shape().text(line, sources)
    }

    /// How lines are shown (a copy, usable while the view is borrowed mutably).
    pub fn shape(&self) -> Shape {
        Shape {
            timestamps: self.timestamps,
            merged: self.merged(),
        }
    }

    /// `pod/container` when the view has several sources.
    pub fn prefix(&self, line: &LogLine, sources: &[SourceInfo]) -> Option<String> {
        self.shape().prefix(line, sources)
    }

    /// Brings the visible lines up to date with the hub (before each draw): drops evicted
    /// lines, filters new ones, counts what arrived below a paused view, and after a filter
    /// change examines up to [`REFILTER_BUDGET`] of the older lines (newest first: the page
    /// fills first; [`LogsState::refiltering`] is true until all are done).
    pub fn refresh(&mut self) {
        self.refresh_within(REFILTER_BUDGET);
    }

    /// Finishes the filtering of every held line now (a save, a search, a jump to the top
    /// need the whole answer).
    pub fn settle(&mut self) {
        self.refresh_within(usize::MAX);
    }

    /// Whether the filter has not yet seen every held line (a filter change under way).
    pub fn refiltering(&self) -> bool {
        self.hub
            .as_ref()
            .is_some_and(|hub| !self.visible.complete(&hub.lock().buffer))
    }

    fn refresh_within(&mut self, budget: usize) {
        let Some(hub) = self.hub.clone() else { return };
        hub.seen();
        let s = hub.lock();
        let filter = self.filter_match.clone();
        let shape = self.shape();
        let bare = shape.bare(&s.sources);
        let mut scratch = String::new();
        let added = self.visible.update(&s.buffer, budget, |l| match &filter {
            None => true,
            Some(f) if bare => f.keeps(&l.text),
            Some(f) => {
                scratch.clear();
                shape.write(l, &s.sources, &mut scratch);
                f.keeps(&scratch)
            }
        });
        drop(s);
        if self.follow {
            self.new_below = 0;
        } else {
            // Index 0 stays the top (a new filter, `g`); other positions keep their line.
            let at_top = self.scroll == 0;
            self.scroll = self.scroll.saturating_sub(self.visible.evicted);
            if !at_top {
                self.scroll += self.visible.prepended;
            }
            self.new_below += added;
        }
    }

    /// The last scroll position that still fills a page.
    pub fn bottom(&self) -> usize {
        self.visible.seqs.len().saturating_sub(self.page.max(1))
    }

    /// The index of the first line shown.
    pub fn first_shown(&self) -> usize {
        if self.follow {
            self.bottom()
        } else {
            self.scroll.min(self.bottom())
        }
    }

    /// Drops everything shown (a new stream replaces the old one).
    pub fn restart(&mut self) {
        self.hub = None;
        self.events = None;
        self.visible.reset();
        self.follow = true;
        self.scroll = 0;
        self.new_below = 0;
    }
}

/// Older lines a filter change examines per frame, newest first: enough to fill a page for
/// most filters, and a short burst of work (a fraction of a millisecond; a long one is what a
/// busy machine preempts, so a keystroke would wait). A full 100,000-line buffer is done over
/// the next ~25 frames while the header says `filtering…`.
pub const REFILTER_BUDGET: usize = 4_096;

/// What decides a line's text: timestamps shown, several sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Timestamps are shown.
    pub timestamps: bool,
    /// The view can show several pods.
    pub merged: bool,
}

impl Shape {
    /// The text of `line` as shown.
    pub fn text(&self, line: &LogLine, sources: &[SourceInfo]) -> String {
        let mut s = String::with_capacity(line.text.len() + 48);
        self.write(line, sources, &mut s);
        s
    }

    /// Appends [`Shape::text`] of `line` to `out` (the filter reuses one buffer for every line).
    pub fn write(&self, line: &LogLine, sources: &[SourceInfo], out: &mut String) {
        if sources.len() >= 2 || self.merged {
            if let Some(src) = sources.get(line.source as usize) {
                out.push_str(&src.pod);
                out.push('/');
                out.push_str(&src.container);
                out.push(' ');
            }
        }
        if self.timestamps {
            if let Some(ts) = line.ts {
                use std::fmt::Write;
                let _ = write!(out, "{} ", ts.strftime("%Y-%m-%dT%H:%M:%S%.6fZ"));
            }
        }
        out.push_str(&line.text);
    }

    /// Whether lines are shown as they are (one source, no timestamps): the filter then
    /// reads each line's own text.
    pub fn bare(&self, sources: &[SourceInfo]) -> bool {
        !self.timestamps && sources.len() < 2 && !self.merged
    }

    /// `pod/container` when the view has several sources.
    pub fn prefix(&self, line: &LogLine, sources: &[SourceInfo]) -> Option<String> {
        if sources.len() < 2 && !self.merged {
            return None;
        }
        let src = sources.get(line.source as usize)?;
        Some(format!("{}/{}", src.pod, src.container))
    }
}

/// A stable colour slot (0–5) for a source, from its `pod/container` name: the same source
/// always gets the same colour, in every view and every run.
pub fn source_colour(pod: &str, container: &str) -> usize {
    let h = format!("{pod}/{container}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    (h % 6) as usize
}

/// Which prompt of the log view is open (the footer prompt is shared).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogPrompt {
    /// `/`: filter.
    Filter,
    /// `s`: search.
    Search,
}
