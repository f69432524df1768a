//! The live YAML view of one object: its lines, rendered (by `crate::detail`) from the latest
//! watched object with `managedFields` hidden unless asked and Secret values masked unless
//! revealed, plus scroll and search positions. Must not do I/O (the watch is attached by the
//! loop).

use crate::detail::yaml::{render, yaml_text};
use crate::detail::{describe, events};
use crate::kube::key::ResourceKey;

/// The UI-local state of one detail view (live YAML or describe of one object); drawn by
/// `ui::detail`.
pub struct DetailState {
    /// What is watched: kind, namespace (no selectors; the watch adds `metadata.name`).
    pub key: ResourceKey,
    /// `metadata.name` of the object.
    pub name: String,
    /// What the live watch publishes, attached by the loop once connected.
    pub watch: Option<crate::app::feed::ObjectFeed>,
    /// First line shown.
    pub scroll: usize,
    /// Show `metadata.managedFields`.
    pub show_managed: bool,
    /// Secret values decoded (the user confirmed).
    pub reveal: bool,
    /// The search term (`/`), matched case-insensitively per line.
    pub search: String,
    /// Rendered lines, sanitized.
    pub lines: Vec<String>,
    /// Object revision and settings `lines` were rendered from.
    rendered: Option<(u64, bool, bool)>,
    /// The object is gone from the server.
    pub deleted: bool,
    /// Show the `kubectl describe`-like summary instead of YAML (`d`).
    pub describe: bool,
    /// Describe: the object's events, attached by the loop (see `key_for`).
    pub events: Option<crate::app::feed::Source>,
    /// A fixed clock (unix seconds) for describe's ages instead of the wall clock (screen
    /// tests).
    pub clock: Option<i64>,
    /// Show the revision history instead (`h`, see `app::history`).
    pub history: Option<Box<crate::app::history::model::HistoryState>>,
    /// Show the YAML annotated by field manager (`b`, see `detail::blame`).
    pub blame: bool,
    /// Long lines wrap at the frame (`w`); else they are cut there and `←`/`→` scroll.
    pub wrap: bool,
    /// Cells scrolled off on the left (unwrapped only); clamped by `detail::keys::handle`.
    pub hscroll: usize,
    /// `G` was pressed and nothing moved up since: the view stays on the last page while
    /// the text grows (describe's events arriving, a lengthening status), as logs follow.
    pub at_end: bool,
}

impl DetailState {
    /// A view of `name` of `key.kind` in `key.namespace`.
    pub fn new(key: ResourceKey, name: &str) -> Self {
        DetailState {
            key,
            name: name.to_owned(),
            watch: None,
            scroll: 0,
            show_managed: false,
            reveal: false,
            search: String::new(),
            lines: Vec::new(),
            rendered: None,
            deleted: false,
            describe: false,
            events: None,
            clock: None,
            history: None,
            blame: false,
            wrap: false,
            hscroll: 0,
            at_end: false,
        }
    }

    /// Describe: the key of the object's events informer.
    /// None for an Event (its describe is the event itself).
    pub fn events_key(&self) -> Option<ResourceKey> {
        (self.describe && !self.key.kind.is_timeline()).then(|| key_for(&self.key, &self.name))
    }

    /// Re-renders when the watched object or a setting changed.
    pub fn refresh(&mut self) {
        let Some(w) = &self.watch else { return };
        let view = w.view.load_full();
        self.deleted = view.deleted;
        if let Some(h) = &mut self.history {
            let id = crate::app::history::model::object_id(&self.key, &self.name);
            let now = self.clock.unwrap_or_else(|| jiff::Timestamp::now().as_second());
            let object = view.object.as_deref();
            h.refresh(
                w.history.as_deref(),
                &id,
                &self.key.kind,
                object,
                now,
                &mut self.lines,
            );
            self.rendered = None;
            return;
        }
        let stamp = (view.rev, self.show_managed, self.reveal);
        // Describe and blame show ages, so they are re-rendered every time (one object: cheap).
        if self.rendered == Some(stamp) && !self.describe && !self.blame {
            return;
        }
        self.rendered = Some(stamp);
        self.lines = match &view.object {
            Some(obj) if self.blame => {
                let now = self.clock.unwrap_or_else(|| jiff::Timestamp::now().as_second());
                crate::detail::blame::lines(obj, &self.key.kind, now)
            }
            Some(obj) if self.describe => {
                let now = self.clock.unwrap_or_else(|| jiff::Timestamp::now().as_second());
                let mut lines = describe::describe(obj, &self.key.kind, now);
                if !self.key.kind.is_timeline() {
                    let snap = self.events.as_ref().map(|s| s.slot.load());
                    let uid = obj["metadata"]["uid"].as_str().unwrap_or("");
                    lines.extend(events::lines(snap.as_deref(), uid, now));
                }
                lines
            }
            Some(obj) => render(obj, &self.key.kind, self.show_managed, self.reveal),
            None => Vec::new(),
        };
    }

    /// Scrolls so that line `i` is on top, or on the last page when it is there (the view
    /// never scrolls past its last full page).
    pub fn show_line(&mut self, i: usize, page: crate::app::scroll::Page) {
        self.at_end = false;
        self.scroll = i.min(crate::app::scroll::last_start(&self.lines, page, self.wrap));
    }

    /// Index of the first line at or after `from` matching the search, wrapping around. In a
    /// history's list of revisions only revision rows count (not the head and column lines:
    /// `/image` must find a revision, not the IMAGES header).
    pub fn find(&self, from: usize) -> Option<usize> {
        if self.search.is_empty() || self.lines.is_empty() {
            return None;
        }
        let rows = self.history.as_deref().filter(|h| h.diff.is_none());
        let needle = self.search.to_lowercase();
        let n = self.lines.len();
        (0..n).map(|i| (from + i) % n).find(|&i| {
            rows.is_none_or(|h| h.row_at_line(i).is_some()) && self.lines[i].to_lowercase().contains(&needle)
        })
    }

    /// What `ctrl-s` writes: the YAML as the server has it (unsanitized, so the file is valid
    /// YAML), `managedFields` as toggled, Secret values always masked even when revealed on
    /// screen; or the describe text as shown.
    pub fn save_text(&self) -> String {
        if let Some(h) = &self.history {
            return h.save_text(self.clock.unwrap_or_else(|| jiff::Timestamp::now().as_second()));
        }
        let object = self.watch.as_ref().and_then(|w| w.view.load().object.clone());
        match object {
            Some(obj) if !self.describe && !self.blame => {
                yaml_text(&obj, &self.key.kind, self.show_managed, false)
            }
            _ => {
                let mut t = self.lines.join("\n");
                t.push('\n');
                t
            }
        }
    }
}

/// The events informer of one object: `involvedObject.kind` and `.name` (and the namespace
/// for namespaced objects; cluster-scoped objects' events may be in any namespace).
pub fn key_for(object: &ResourceKey, name: &str) -> ResourceKey {
    let fields = format!(
        "involvedObject.kind={},involvedObject.name={}",
        escape(object.kind.kind_name()),
        escape(name)
    );
    ResourceKey::new(
        crate::kube::builtin::BuiltinKind::Event,
        object.namespace.as_deref(),
    )
    .with_fields(&fields)
}

/// Escapes a field-selector value (`\\`, `,` and `=` are syntax there); custom resources'
/// names may hold them.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '\\' | ',' | '=') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod events_tests {
    use super::*;
    use crate::kube::builtin::BuiltinKind;

    #[test]
    fn the_events_key_names_the_object_with_selector_syntax_escaped() {
        let object = ResourceKey::new(BuiltinKind::Pod, Some("a"));
        let key = key_for(&object, "web");
        assert_eq!(
            key.to_string(),
            "events@a involvedObject.kind=Pod,involvedObject.name=web"
        );
        let odd = key_for(&object, r"a,b=c\d");
        assert_eq!(
            odd.fields.as_deref(),
            Some(r"involvedObject.kind=Pod,involvedObject.name=a\,b\=c\\d")
        );
    }
}
